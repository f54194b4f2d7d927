//! Under the stage: the caption (a key frame's one line, or what the step did), the transport
//! (first, back, play, step, last, speed, heartbeats) and the timeline with the run's key
//! frames, faults and failures as marks over the whole run.

use leptos::prelude::*;

use super::state::{App, SPEEDS};
use super::tr;
use crate::sim::moments::Kind;
use crate::view::i18n::t;

/// The caption's two parts at the current frame (view::caption::parts).
pub(super) fn caption_parts(app: App) -> (String, Option<String>) {
    let lang = app.lang.get();
    let here = app.moments_here();
    app.frame.with(|f| {
        let posing = app
            .questions
            .with(|qs| crate::view::learn::veil::posing(qs, f.step));
        crate::view::caption::parts(f.step, &app.preset.get(), &here, &f.narration, lang, posing)
    })
}

/// A key frame's caption (bold, when the frame is one) over what the step did.
#[component]
pub fn Caption() -> impl IntoView {
    let app = expect_context::<App>();
    let parts = Memo::new(move |_| caption_parts(app));
    let key = move || parts.with(|p| p.0.clone());
    let now = move || parts.with(|p| p.1.clone());
    view! {
        <div id="ls-caption" class="ls-caption" class:ls-caption--key=move || !key().is_empty() aria-live="polite" aria-atomic="true">
            // Said, not shown: which step this is (the position below changes silently).
            <span class="ls-sr">{move || format!("{}\u{a0}", t("a11y.step", app.lang.get()).replace("{n}", &app.frame.with(|f| f.step).to_string()))}</span>
            {move || { let k = key(); (!k.is_empty()).then(|| view! { <strong class="ls-caption__key">{k}</strong> }) }}
            {move || now().map(|n| view! { <span class="ls-caption__now">{n}</span> })}
            <Computing/>
        </div>
    }
}

/// While history is computed in slices: what for, and how far (a bar and the numbers).
#[component]
fn Computing() -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        app.computing.get().map(|p| {
            let lang = app.lang.get();
            if let Some(key) = p.busy {
                return view! {
                    <span id="ls-computing" class="ls-computing" role="status">
                        <progress></progress>{t(key, lang)}
                    </span>
                }
                .into_any();
            }
            let text = if p.seeking {
                format!("{}: {} / {}", t("ui.computing_to", lang), p.done, p.goal)
            } else {
                t("ui.computing_ahead", lang).to_string()
            };
            view! {
                <span id="ls-computing" class="ls-computing" role="status">
                    <progress max=p.goal.to_string() value=p.done.to_string()></progress>
                    {text}
                </span>
            }
            .into_any()
        })
    }
}

#[component]
pub fn Transport() -> impl IntoView {
    let app = expect_context::<App>();
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
    view! {
        <div class="ls-transport" role="toolbar" aria-label=tr(app, "ui.playback")>
            <button id="ls-first" on:click=move |_| app.seek(0) title=tr(app, "ui.first") aria-label=tr(app, "ui.first")>"|◀"</button>
            <button id="ls-back" on:click=move |_| app.back() title=tr(app, "ui.back") aria-label=tr(app, "ui.back")>"◀"</button>
            <button id="ls-play" class="ls-play" on:click=move |_| app.toggle_play() aria-pressed=move || app.playing.get().to_string()>{play_label}</button>
            <button id="ls-step" on:click=move |_| { app.step(); app.sync_url(); } title=tr(app, "ui.step") aria-label=tr(app, "ui.step")>"▶"</button>
            <button id="ls-last" on:click=move |_| app.to_end() title=tr(app, "ui.last") aria-label=tr(app, "ui.last")>"▶|"</button>
            <select id="ls-speed" aria-label=tr(app, "ui.speed") on:change=move |ev| app.speed.set(event_target_value(&ev).parse().unwrap_or(1).min(SPEEDS.len() - 1))>
                {SPEEDS.iter().enumerate().map(|(i, (name, _))| view! { <option value=i selected=move || app.speed.get() == i>{*name}</option> }).collect_view()}
            </select>
            <label class="ls-inline" title=tr(app, "ui.pings_hint")>
                <input id="ls-pings" type="checkbox" prop:checked=move || app.show_pings.get() on:change=move |_| app.show_pings.update(|p| *p = !*p)/>
                {tr(app, "ui.show_pings")}
            </label>
            <Timeline/>
            // The widest the position gets, unseen under it: the timeline keeps its width.
            <span class="ls-position-box">
                <span id="ls-position" class="ls-position">
                    {move || app.frame.with(|f| position(app, f.step, f.len, f.time))}
                </span>
                <span class="ls-position ls-position--widest" aria-hidden="true">
                    {move || app.frame.with(|f| position(app, f.len, f.len, f.end_time.max(f.time)))}
                </span>
            </span>
        </div>
    }
}

/// "step 12 / 144 · t=30".
fn position(app: App, step: u64, len: u64, time: u64) -> String {
    format!(
        "{} {step} / {len} · t={time}",
        t("ui.step_of", app.lang.get())
    )
}

/// The slider over the whole computed run, with a mark per key frame.
#[component]
fn Timeline() -> impl IntoView {
    let app = expect_context::<App>();
    let len = Memo::new(move |_| app.frame.with(|f| f.len.max(f.step).max(1)));
    // The track's width, so that marks of nearby steps can be nudged apart (view::timeline).
    let track = NodeRef::<leptos::html::Div>::new();
    let width = RwSignal::new(0u32);
    super::browser::observe_size(track, move |w, _| width.set(w));
    // Changes only when a course question opens or is answered by the run.
    let veil_after = Memo::new(move |_| {
        let cursor = app.frame.with(|f| f.step);
        app.questions
            .with(|qs| crate::view::learn::veil::marks_veiled_from(qs, cursor))
    });
    let marks = move || {
        let (n, lang, w) = (len.get(), app.lang.get(), f64::from(width.get()));
        let veiled = veil_after.get();
        app.moments.with(|ms| {
            // One mark per step, naming everything its key frames show.
            let mut steps: Vec<u64> = ms.iter().map(|m| m.step).collect();
            steps.dedup();
            let share = |step: u64| (step as f64 / n as f64).min(1.0);
            let xs: Vec<f64> = steps.iter().map(|&s| share(s) * w).collect();
            let nudges = crate::view::timeline::nudges(&xs, w, crate::view::timeline::MARK_GAP);
            steps
                .into_iter()
                .zip(nudges)
                .map(|(step, dx)| {
                    let fixed = crate::view::scene::fixed;
                    let left = format!("left: calc({}% + {}px)", fixed(share(step) * 100.0, 2), fixed(dx, 1));
                    // While a course question is open, a key frame ahead says nothing.
                    let here: Vec<_> = match veiled.is_some_and(|at| step >= at) {
                        true => Vec::new(),
                        false => ms.iter().filter(|m| m.step == step).collect(),
                    };
                    let bad = here.iter().any(|m| matches!(m.kind, Kind::TwoHolders | Kind::LostUpdate | Kind::Stuck | Kind::Orphan | Kind::NoExpiry));
                    let class = if here.is_empty() { "ls-mark ls-mark--veiled" } else if bad { "ls-mark ls-mark--bad" } else if here.iter().all(|m| m.kind == Kind::Fault) { "ls-mark ls-mark--fault" } else { "ls-mark" };
                    let caption = match here.is_empty() {
                        true => t("ui.key_frame_at", lang).replace("{n}", &step.to_string()),
                        false => here.iter().map(|m| m.caption(lang)).collect::<Vec<_>>().join(crate::view::caption::gap(lang)),
                    };
                    let evidence = here.iter().map(|m| m.evidence()).collect::<Vec<_>>().join(" ");
                    view! {
                        <button class=class style=left data-step=step data-evidence=evidence title=caption.clone() aria-label=caption on:click=move |_| app.seek(step)></button>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="ls-timeline">
            <div class="ls-timeline__marks" node_ref=track>{marks}</div>
            <input id="ls-scrub" class="ls-scrub" type="range" min="0"
                max=move || len.get().to_string()
                prop:value=move || app.frame.with(|f| f.step).to_string()
                aria-label=tr(app, "ui.scrubber")
                on:input=move |ev| app.seek(event_target_value(&ev).parse().unwrap_or(0))/>
        </div>
    }
}
