//! Compare mode: the same scenario against up to four recipes side by side, stepping in
//! lockstep; each column draws its own small stage, with its monitors and counts.

use leptos::prelude::*;

use super::state::{App, SPEEDS};
use super::tr;
use crate::recipes::RecipeKind;
use crate::sim::Command;
use crate::view::compare::MAX_COLUMNS;
use crate::view::frame::Frame;
use crate::view::i18n::t;
use crate::view::stage::{scene, Opts};

#[component]
pub fn ComparePanel() -> impl IntoView {
    let app = expect_context::<App>();
    let frames = Memo::new(move |_| {
        app.cmp
            .with(|c| c.as_ref().map(|c| (c.time, c.frames(app.lang.get()))))
    });
    let recipes = move || {
        app.cmp
            .with(|c| c.as_ref().map(|c| c.recipes()).unwrap_or_default())
    };
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
    let play_label = move || {
        t(
            if app.playing.get() {
                "ui.pause"
            } else {
                "ui.play"
            },
            app.lang.get(),
        )
    };
    // One observer on a wrapper that stays: the columns share its width.
    let host: NodeRef<leptos::html::Div> = NodeRef::new();
    let width = RwSignal::new(0u32);
    super::browser::observe_size(host, move |w, _| width.set(w));
    let panel = move || {
        frames.get().map(|(time, cols)| {
            view! {
                // The page's main content while comparing (the single stage's <main> is hidden).
                <main id="ls-compare" class="ls-panel ls-compare" aria-labelledby="ls-compare-h">
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
                        <select id="ls-cmp-speed" aria-label=tr(app, "ui.speed") on:change=move |ev| app.speed.set(event_target_value(&ev).parse().unwrap_or(1).min(SPEEDS.len() - 1))>
                            {SPEEDS.iter().enumerate().map(|(i, (name, _))| view! { <option value=i selected=move || app.speed.get_untracked() == i>{*name}</option> }).collect_view()}
                        </select>
                        <span id="ls-cmp-time" class="ls-position">{format!("t = {time}")}</span>
                        <button class="ls-fault" data-act="crash" on:click=move |_| inject(app, Command::Crash { client: 0 })>{move || format!("C1 {}", t("act.crash", app.lang.get()))}</button>
                        <button class="ls-fault" data-act="pause" on:click=move |_| inject(app, Command::Pause { client: 0, ticks: 3000 })>{move || format!("C1 {} 3000", t("act.pause", app.lang.get()))}</button>
                        <button class="ls-fault" data-act="failover" on:click=move |_| inject(app, Command::Failover)>{tr(app, "act.failover")}</button>
                        <button id="ls-cmp-close" on:click=move |_| app.compare(None)>{tr(app, "ui.close")}</button>
                    </div>
                    <div class="ls-compare__cols" style=format!("grid-template-columns: repeat({}, minmax(0, 1fr))", column_width(width.get(), cols.len()).0)>
                            {cols.iter().map(|f| column(app, f.clone(), column_width(width.get(), cols.len()).1)).collect_view()}
                        </div>
                </main>
            }
        })
    };
    view! { <div class="ls-compare-wrap" node_ref=host>{panel}</div> }
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
        // Each line names a failure: "✓" beside it would read as "it happened", so a failure
        // not seen yet says so in words.
        <li class:ls-bad=bad class:ls-notyet=!bad data-monitor=key data-seen=bad.to_string()>
            {move || if bad { "✕ ".to_string() } else { format!("○ {} ", t("mon.not_yet", app.lang.get())) }}
            {tr(app, key)}{at.map(|s| format!(" (#{s})"))}
        </li>
    }
}

/// How many columns fit side by side in `total` pixels (at least 280 each), and the width
/// of each one's stage (less gaps and padding).
fn column_width(total: u32, n: usize) -> (u32, u32) {
    let k = (total / 280).clamp(1, n.max(1) as u32);
    (
        k,
        (total.saturating_sub(10 * (k - 1)) / k)
            .saturating_sub(22)
            .max(220),
    )
}

/// A column's own small stage, drawn for the width the column gets.
fn column_stage(app: App, f: &Frame, w: u32) -> impl IntoView {
    let h = 320u32;
    let svg = scene(
        f,
        &Opts {
            w,
            h,
            lang: app.lang.get_untracked(),
        },
    )
    .svg_body();
    let label = format!("{} · {}: {}", f.recipe, f.service.name(), f.narration);
    view! {
        <svg class="ls-compare__stage" viewBox=format!("0 0 {w} {h}") width=w height=h inner_html=svg role="img" aria-label=label
            font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', sans-serif"></svg>
    }
}

/// One column: its recipe and service, a small stage of its own, its monitors and counts.
fn column(app: App, f: Frame, w: u32) -> impl IntoView {
    let m = f.monitors.clone();
    let (service, recipe) = (f.service.name(), f.recipe);
    view! {
        <article class="ls-compare__col" data-service=service data-recipe=recipe>
            <h3>{recipe}" · "{service}</h3>
            {column_stage(app, &f, w)}
            <p class="ls-compare__narration">{f.narration.clone()}</p>
            <ul class="ls-compare__monitors">
                {flag(app, "mon.belief", m.belief)}
                {flag(app, "mon.ownership", m.ownership)}
                {flag(app, "mon.lost_update", m.lost_update)}
                {flag(app, "mon.stuck", m.stuck)}
            </ul>
            <p class="ls-compare__metrics">{format!("{} {} · {} {} · {} {}", t("metric.requests", app.lang.get_untracked()), f.requests, t("res.value", app.lang.get_untracked()), f.resource.value, t("res.rejected", app.lang.get_untracked()), f.resource.rejected)}</p>
        </article>
    }
}
