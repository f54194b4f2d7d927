//! Playback controls, the scenario picker with settings, and the keyboard shortcuts.

use leptos::prelude::*;

use super::state::{App, FULL, SPEEDS};
use super::tr;
use crate::recipes::RecipeKind;
use crate::sim::presets;
use crate::view::i18n::t;
use crate::view::url::UI_MAX_CLIENTS;

#[component]
pub fn Playback() -> impl IntoView {
    let app = expect_context::<App>();
    let play_label = move || {
        if app.playing.get() {
            t("ui.pause", app.lang.get())
        } else {
            t("ui.play", app.lang.get())
        }
    };
    view! {
        <div class="ls-playback" role="toolbar" aria-label="playback">
            <button id="ls-first" on:click=move |_| app.seek(0) title=tr(app, "ui.first") aria-label=tr(app, "ui.first")>"|◀"</button>
            <button id="ls-back" on:click=move |_| app.back() title=tr(app, "ui.back") aria-label=tr(app, "ui.back")>"◀"</button>
            <button id="ls-play" on:click=move |_| app.toggle_play() aria-pressed=move || app.playing.get().to_string()>{play_label}</button>
            <button id="ls-step" on:click=move |_| { app.step(); app.sync_url(); } title=tr(app, "ui.step") aria-label=tr(app, "ui.step")>"▶"</button>
            <button id="ls-last" on:click=move |_| app.to_end() title=tr(app, "ui.last") aria-label=tr(app, "ui.last")>"▶|"</button>
            <label class="ls-inline">{tr(app, "ui.speed")}
                <select id="ls-speed" on:change=move |ev| app.speed.set(event_target_value(&ev).parse().unwrap_or(2).min(SPEEDS.len() - 1))>
                    {SPEEDS.iter().enumerate().map(|(i, s)| view! {
                        <option value=i selected=move || app.speed.get() == i>{format!("{s}/s")}</option>
                    }).collect_view()}
                </select>
            </label>
            <input id="ls-scrub" class="ls-scrub" type="range" min="0"
                max=move || app.frame.with(|f| f.len.max(f.step)).to_string()
                prop:value=move || app.frame.with(|f| f.step).to_string()
                aria-label=tr(app, "ui.scrubber")
                on:input=move |ev| app.seek(event_target_value(&ev).parse().unwrap_or(0))/>
            <span id="ls-position" class="ls-position">
                {move || app.frame.with(|f| format!("{} {} / {} · t={}", t("ui.step_of", app.lang.get()), f.step, f.len, f.time))}
            </span>
        </div>
    }
}

#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let app = expect_context::<App>();
    let draft = app.draft;
    let recipe = move || draft.with(|d| d.recipe);
    let clients = move || draft.with(|d| d.clients);
    let seed = move || draft.with(|d| d.seed);
    let fencing = move || draft.with(|d| d.fencing);
    let apply = move |_| {
        let mut s = app.sim.with_untracked(|s| s.scenario().clone());
        let d = draft.get_untracked();
        s.recipe = d.recipe;
        s.clients = d.clients.clamp(1, UI_MAX_CLIENTS);
        s.seed = d.seed;
        s.fencing = d.fencing;
        let n = s.clients as usize;
        s.faults
            .retain(|f| f.command.client().is_none_or(|c| c < n));
        s.readers.retain(|r| *r < n);
        s.timeouts.retain(|(r, _)| *r < n);
        app.load(&app.preset.get_untracked(), s);
    };
    let lesson = move || {
        presets::find(&app.preset.get())
            .map(|p| p.lesson(app.lang.get()))
            .unwrap_or_default()
    };
    view! {
        <section class="ls-panel ls-picker" aria-labelledby="ls-picker-h">
            <h2 id="ls-picker-h">{tr(app, "ui.scenario")}</h2>
            <select id="ls-preset" aria-label=tr(app, "ui.scenario") on:change=move |ev| app.load_preset(&event_target_value(&ev))>
                {presets::all().map(|p| view! {
                    <option value=p.id selected=move || app.preset.get() == p.id>{move || p.title(app.lang.get())}</option>
                }).collect_view()}
                {lean_presets()}
            </select>
            <p id="ls-lesson" class="ls-lesson">{lesson}</p>
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
                <label class="ls-inline">
                    <input id="ls-fencing" type="checkbox" prop:checked=fencing on:change=move |_| draft.update(|d| d.fencing = !d.fencing)/>
                    {tr(app, "ui.fencing")}
                </label>
                <button id="ls-apply" on:click=apply>{tr(app, "ui.apply")}</button>
                <button id="ls-reset" on:click=move |_| app.reset()>{tr(app, "ui.reset")}</button>
            </div>
        </section>
    }
}

/// The lean bundle lists the other services' presets by id; picking one opens the full bundle.
fn lean_presets() -> impl IntoView {
    (!FULL).then(|| {
        view! {
            <optgroup label="Redis · etcd · SQL">
                {presets::SERVICE_PRESET_IDS.iter().map(|id| view! { <option value=*id>{format!("{id} →")}</option> }).collect_view()}
            </optgroup>
        }
    })
}

/// ←/→ step, space play/pause, Home/End, `?` help; ignored while typing in a field.
pub fn install_keyboard(app: App) {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
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
