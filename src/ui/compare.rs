//! Compare mode: the same scenario against up to four recipes side by side, stepping in
//! lockstep; each column shows its service's entries, clients, monitors and counts.

use leptos::prelude::*;

use super::state::App;
use super::tr;
use crate::recipes::RecipeKind;
use crate::sim::Command;
use crate::view::compare::MAX_COLUMNS;
use crate::view::frame::Frame;
use crate::view::i18n::t;
use crate::view::layout::client_colour;

#[component]
pub fn ComparePanel() -> impl IntoView {
    let app = expect_context::<App>();
    let frames = Memo::new(move |_| app.cmp.with(|c| c.as_ref().map(|c| (c.time, c.frames(app.lang.get())))));
    let recipes = move || app.cmp.with(|c| c.as_ref().map(|c| c.recipes()).unwrap_or_default());
    let set_column = move |i: usize, v: String| {
        let mut r = recipes();
        match RecipeKind::parse(&v) {
            Some(k) if i < r.len() => r[i] = k,
            Some(k) => r.push(k),
            None if i < r.len() => {
                r.remove(i);
            }
            None => {}
        }
        app.compare(Some(r));
    };
    let play_label = move || t(if app.playing.get() { "ui.pause" } else { "ui.play" }, app.lang.get());
    move || {
        frames.get().map(|(time, cols)| {
            view! {
                <section id="ls-compare" class="ls-panel ls-compare" aria-labelledby="ls-compare-h">
                    <h2 id="ls-compare-h">{tr(app, "ui.compare")}</h2>
                    <p class="ls-muted">{tr(app, "ui.compare_hint")}</p>
                    <div class="ls-compare__bar" role="toolbar">
                        {(0..MAX_COLUMNS).map(|i| view! {
                            <select class="ls-compare__pick" data-column=i aria-label=move || format!("{} {}", t("ui.column", app.lang.get()), i + 1)
                                on:change=move |ev| set_column(i, event_target_value(&ev))>
                                <option value="" selected=move || recipes().get(i).is_none()>{tr(app, "ui.none")}</option>
                                {RecipeKind::ALL.iter().map(|k| view! { <option value=k.name() selected=move || recipes().get(i) == Some(k)>{k.name()}</option> }).collect_view()}
                            </select>
                        }).collect_view()}
                        <button id="ls-cmp-back" on:click=move |_| app.compare_back()>{tr(app, "ui.back")}</button>
                        <button id="ls-cmp-play" on:click=move |_| app.toggle_play()>{play_label}</button>
                        <button id="ls-cmp-step" on:click=move |_| { app.step(); }>{tr(app, "ui.step")}</button>
                        <span id="ls-cmp-time" class="ls-position">{format!("t = {time}")}</span>
                        <button class="ls-fault" data-act="crash" on:click=move |_| inject(app, Command::Crash { client: 0 })>{move || format!("C1 {}", t("act.crash", app.lang.get()))}</button>
                        <button class="ls-fault" data-act="pause" on:click=move |_| inject(app, Command::Pause { client: 0, ticks: 3000 })>{move || format!("C1 {} 3000", t("act.pause", app.lang.get()))}</button>
                        <button class="ls-fault" data-act="failover" on:click=move |_| inject(app, Command::Failover)>{tr(app, "act.failover")}</button>
                        <button id="ls-cmp-close" on:click=move |_| app.compare(None)>{tr(app, "ui.close")}</button>
                    </div>
                    <div class="ls-compare__cols">{cols.into_iter().map(|f| column(app, f)).collect_view()}</div>
                </section>
            }
        })
    }
}

/// A fault that hits every column at once.
fn inject(app: App, cmd: Command) {
    app.cmp.update(|c| {
        if let Some(c) = c.as_mut() {
            c.inject(&cmd);
        }
    });
}

fn flag(app: App, key: &'static str, at: Option<u64>) -> impl IntoView {
    let bad = at.is_some();
    view! {
        <li class:ls-bad=bad class:ls-good=!bad data-monitor=key>
            {if bad { "✕ " } else { "✓ " }}{tr(app, key)}{at.map(|s| format!(" (#{s})"))}
        </li>
    }
}

fn column(app: App, f: Frame) -> impl IntoView {
    let m = f.monitors.clone();
    view! {
        <article class="ls-compare__col" data-service=f.service.name() data-recipe=f.recipe>
            <h3>{f.recipe}" · "{f.service.name()}</h3>
            <p class="ls-compare__narration">{f.narration.clone()}</p>
            <ul class="ls-compare__monitors">
                {flag(app, "mon.belief", m.belief)}
                {flag(app, "mon.ownership", m.ownership)}
                {flag(app, "mon.lost_update", m.lost_update)}
                {flag(app, "mon.stuck", m.stuck)}
            </ul>
            <ol class="ls-compare__clients">
                {f.clients.iter().map(|c| view! {
                    <li class=format!("ls-client--{} ls-client--{}", c.phase_class, c.state_class) style=format!("--ls-client: {}", client_colour(c.id))>
                        <b>{c.name.clone()}</b>" "{c.phase.clone()}" · "{c.state.clone()}
                        {c.token.map(|tk| format!(" · {} {tk}", t("client.token", app.lang.get_untracked())))}
                    </li>
                }).collect_view()}
            </ol>
            <ul class="ls-compare__entries">
                {f.tree.iter().map(|r| view! {
                    <li data-entry=r.id.clone()>
                        <code>{r.name.clone()}</code>{r.owner.map(|o| format!(" C{}", o + 1))}" "
                        <span class="ls-muted">{r.fields().into_iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")}</span>
                    </li>
                }).collect_view()}
            </ul>
            <p class="ls-compare__metrics">{format!("{} {} · {} {} · {} {}", t("metric.requests", app.lang.get_untracked()), f.requests, t("res.value", app.lang.get_untracked()), f.value, t("res.rejected", app.lang.get_untracked()), f.rejected)}</p>
        </article>
    }
}
