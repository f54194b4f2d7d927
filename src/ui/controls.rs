//! The preset picker, the lesson and settings panels, and the keyboard shortcuts.

use leptos::prelude::*;

use super::state::{App, FULL};
use super::tr;
use crate::recipes::RecipeKind;
use crate::sim::presets;
use crate::sim::Command;
use crate::view::url::UI_MAX_CLIENTS;

/// The preset picker (in the top bar).
#[component]
pub fn PresetSelect() -> impl IntoView {
    let app = expect_context::<App>();
    view! {
        <select id="ls-preset" class="ls-preset" aria-label=tr(app, "ui.scenario") on:change=move |ev| { app.learn.set(None); app.questions.set(Vec::new()); app.load_preset(&event_target_value(&ev)) }>
            {presets::all().map(|p| view! {
                <option value=p.id selected=move || app.preset.get() == p.id>{move || p.title(app.lang.get())}</option>
            }).collect_view()}
            {lean_presets(app)}
            <option value=crate::view::url::CUSTOM disabled=true selected=move || presets::find(&app.preset.get()).is_none()>{tr(app, "ui.custom")}</option>
        </select>
    }
}

/// The lesson of the preset, its key frames (a click goes there) and what the marks mean.
#[component]
pub fn Lesson() -> impl IntoView {
    let app = expect_context::<App>();
    let lesson = move || {
        presets::find(&app.preset.get())
            .map(|p| p.lesson(app.lang.get()))
            .unwrap_or_default()
    };
    let key_frames = move || {
        let lang = app.lang.get();
        app.moments.with(|ms| {
            ms.iter()
                .map(|m| {
                    let step = m.step;
                    view! { <li><button class="ls-linkish" data-step=step on:click=move |_| app.seek(step)>{format!("#{step} ")}{m.caption(lang)}</button></li> }
                })
                .collect_view()
        })
    };
    let twin = move || {
        presets::twin(&app.preset.get()).map(|r| {
            view! { <p><button id="ls-twin" class="ls-linkish" on:click=move |_| app.compare(Some(r.to_vec()))>{tr(app, "ui.twin")}</button></p> }
        })
    };
    let zk = move || {
        app.sim
            .with(|s| s.scenario().recipe.service().look().znodes)
    };
    // While a course question is open, the lesson and the key frames would tell its answer.
    let veiled = Memo::new(move |_| {
        let cursor = app.frame.with(|f| f.step);
        app.questions
            .with(|qs| crate::view::learn::veil::story_veiled(qs, cursor))
    });
    let story = move || match veiled.get() {
        true => crate::view::i18n::t("ui.story_veiled", app.lang.get()),
        false => lesson(),
    };
    view! {
        <p id="ls-lesson" class="ls-lesson" class:ls-muted=move || veiled.get()>{story}</p>
        // Hidden, not removed: the e2e tests and the drawer keep one shape.
        <div class:ls-hidden=move || veiled.get()>
            {twin}
            <h3>{tr(app, "ui.key_frames")}</h3>
            <ol id="ls-keyframes" class="ls-keyframes">{key_frames}</ol>
        </div>
        <h3>{tr(app, "ui.legend")}</h3>
        <ul class="ls-legend">
            <li><span class="ls-legend__ring"></span>{move || tr(app, if zk() { "legend.ring" } else { "legend.ring_ttl" })}</li>
            <li><span class="ls-legend__dot"></span>{tr(app, "legend.request")}</li>
            <li><span class="ls-legend__dot ls-legend__dot--reply"></span>{tr(app, "legend.reply")}</li>
            // Watches, their events and znode kinds are ZooKeeper's alone.
            {move || zk().then(|| view! {
                <li><span class="ls-legend__dash"></span>{tr(app, "legend.watch")}</li>
                <li><span class="ls-legend__diamond"></span>{tr(app, "legend.event")}</li>
                <li><span class="ls-legend__box"></span>{tr(app, "legend.ephemeral")}</li>
                <li><b class="ls-legend__seq">"0000000007"</b>" "{tr(app, "legend.sequential")}</li>
            })}
        </ul>
    }
}

#[component]
pub fn Settings() -> impl IntoView {
    let app = expect_context::<App>();
    let draft = app.draft;
    let recipe = move || draft.with(|d| d.recipe);
    let clients = move || draft.with(|d| d.clients);
    let seed = move || draft.with(|d| d.seed);
    let fencing = move || draft.with(|d| d.fencing);
    let servers = move || draft.with(|d| d.ensemble.unwrap_or(1));
    let apply = move |_| {
        let mut s = app.sim.with_untracked(|s| s.scenario().clone());
        let d = draft.get_untracked();
        s.recipe = d.recipe;
        s.clients = d.clients.clamp(1, UI_MAX_CLIENTS);
        s.seed = d.seed;
        s.fencing = d.fencing;
        s.ensemble = d.ensemble;
        let n = s.clients as usize;
        s.faults
            .retain(|f| f.command.client().is_none_or(|c| c < n));
        s.readers.retain(|r| *r < n);
        s.timeouts.retain(|(r, _)| *r < n);
        app.load(&app.preset.get_untracked(), s);
    };
    view! {
        <div class="ls-settings">
            <label>{tr(app, "ui.recipe")}
                <select id="ls-recipe" on:change=move |ev| draft.update(|d| d.recipe = RecipeKind::parse(&event_target_value(&ev)).unwrap_or(RecipeKind::Sequential))>
                    {RecipeKind::ALL.iter().map(|k| view! { <option value=k.name() selected=move || recipe() == *k>{k.name()}</option> }).collect_view()}
                </select>
            </label>
            <label>{tr(app, "ui.clients")}
                <input id="ls-clients" type="number" min="1" max=UI_MAX_CLIENTS prop:value=move || clients().to_string()
                    on:change=move |ev| draft.update(|d| d.clients = event_target_value(&ev).parse().unwrap_or(3).clamp(1, UI_MAX_CLIENTS))/>
            </label>
            <label>{tr(app, "ui.seed")}
                <input id="ls-seed" type="number" min="0" prop:value=move || seed().to_string()
                    on:change=move |ev| draft.update(|d| d.seed = event_target_value(&ev).parse().unwrap_or(1))/>
            </label>
            <label>{tr(app, "ui.servers")}
                <select id="ls-servers" on:change=move |ev| draft.update(|d| d.ensemble = event_target_value(&ev).parse().ok().filter(|n| [3u8, 5].contains(n)))>
                    {[1u8, 3, 5].into_iter().map(|n| view! { <option value=n.to_string() selected=move || servers() == n>{n.to_string()}</option> }).collect_view()}
                </select>
            </label>
            <label class="ls-inline">
                <input id="ls-fencing" type="checkbox" prop:checked=fencing on:change=move |_| draft.update(|d| d.fencing = !d.fencing)/>
                {tr(app, "ui.fencing")}
            </label>
            <div class="ls-row">
                <button id="ls-apply" on:click=apply>{tr(app, "ui.apply")}</button>
                <button id="ls-reset" on:click=move |_| app.reset()>{tr(app, "ui.reset")}</button>
            </div>
            <label>{tr(app, "ui.latency")}
                <select id="ls-latency" on:change=move |ev| {
                    let (min, max) = match event_target_value(&ev).as_str() { "a" => (1, 2), "b" => (1, 5), "c" => (3, 10), _ => (10, 30) };
                    app.inject(Command::Latency { min, max });
                }>
                    <option value="">"—"</option>
                    <option value="a">"1–2"</option>
                    <option value="b">"1–5"</option>
                    <option value="c">"3–10"</option>
                    <option value="d">"10–30"</option>
                </select>
            </label>
            <button id="ls-failover" class="ls-fault" data-act="failover" on:click=move |_| app.inject(Command::Failover)>{tr(app, "act.failover")}</button>
            <p class="ls-muted">{tr(app, "ui.client_hint")}</p>
        </div>
    }
}

/// The lean bundle lists the ensemble's and the other services' presets by title; picking one
/// opens the full bundle.
fn lean_presets(app: App) -> impl IntoView {
    (!FULL).then(|| {
        view! {
            <optgroup label="ZooKeeper ensemble · Redis · etcd · SQL">
                {move || presets::SERVICE_PRESET_NAMES.iter().map(|p| view! { <option value=p.id>{format!("{} →", p.title(app.lang.get()))}</option> }).collect_view()}
            </optgroup>
        }
    })
}

/// ←/→ step, space play/pause, Home/End, `?` help; ignored while typing in a field. The
/// stage's own keys come first ([`super::stagekeys`]).
pub fn install_keyboard(app: App) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        // A shape on the stage with focus takes its own keys first (↑/↓, Enter, letters).
        if super::stagekeys::key(app, &ev) {
            return;
        }
        let typing = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
        let on_control = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|e| matches!(e.tag_name().as_str(), "BUTTON" | "A" | "LABEL"));
        if typing
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || (on_control && ev.key() == " ")
        {
            return;
        }
        let handled = match ev.key().as_str() {
            "ArrowRight" => {
                app.step();
                app.sync_url();
                true
            }
            "ArrowLeft" => {
                app.back();
                true
            }
            " " => {
                app.toggle_play();
                true
            }
            "Home" => {
                app.seek(0);
                true
            }
            "End" => {
                app.to_end();
                true
            }
            "?" => {
                app.help.update(|h| *h = !*h);
                true
            }
            "Escape" => {
                app.help.set(false);
                app.dialog.set(None);
                super::stagekeys::close(app);
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
        }
    });
    // The listener lives as long as the page.
    std::mem::forget(handle);
}
