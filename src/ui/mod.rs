//! The Leptos 0.8 app (wasm32 only). The root owns the simulation in one signal and derives the
//! frame with a memo; views get both through context and send commands as method calls. The
//! only effect drives the autoplay timer.

mod browser;
mod clients;
mod controls;
mod dialogs;
// The full bundle's extra panels, compiled out of the lean first page (its budget).
#[cfg(feature = "services")]
items! {
    mod compare;
    mod matrix;
}
mod panels;
mod sequence;
mod stage;
mod state;

use std::time::Duration;

use leptos::prelude::*;

use crate::sim::Lang;
use crate::view::i18n::t;
use state::{App, SPEEDS};

/// A label that follows the language. One closure type serves every label, which keeps the
/// wasm smaller than a closure per call site.
pub(crate) fn tr(
    app: App,
    key: &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    move || t(key, app.lang.get())
}

/// Mounts the app on `<body>` (called from `main` on wasm32).
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(Root);
}

#[component]
fn Root() -> impl IntoView {
    let app = App::from_url();
    provide_context(app);
    controls::install_keyboard(app);
    autoplay(app);
    app.sync_url();
    let lang_attr = move || {
        if app.lang.get() == Lang::Zh {
            "zh-Hans"
        } else {
            "en"
        }
    };
    if app.embed {
        view! { <div class="ls-app ls-app--embed" lang=lang_attr><EmbedLayout/></div> }.into_any()
    } else {
        view! { <div class="ls-app" lang=lang_attr><FullLayout/></div> }.into_any()
    }
}

/// The one effect: a timer that steps while playing, at the chosen speed.
fn autoplay(app: App) {
    let handle: StoredValue<Option<IntervalHandle>> = StoredValue::new(None);
    Effect::new(move |_| {
        let (playing, speed) = (app.playing.get(), app.speed.get());
        if let Some(h) = handle.get_value() {
            h.clear();
        }
        handle.set_value(None);
        if playing {
            let every =
                Duration::from_millis(1000 / u64::from(SPEEDS[speed.min(SPEEDS.len() - 1)]));
            let h = set_interval_with_handle(
                move || {
                    app.step();
                },
                every,
            );
            handle.set_value(h.ok());
        }
    });
}

#[component]
fn FullLayout() -> impl IntoView {
    let app = expect_context::<App>();
    view! {
        <header class="ls-header">
            <div class="ls-brand">
                <h1 class="ls-title">"Lockstep"</h1>
                <p class="ls-tagline">{tr(app, "ui.tagline")}</p>
            </div>
            <dialogs::Tools/>
        </header>
        <dialogs::ErrorBanner/>
        {extras()}
        <main class="ls-main">
            <div class="ls-col ls-col--side">
                <controls::ScenarioPicker/>
                <panels::Monitors/>
                <panels::ResourcePanel/>
            </div>
            <div class="ls-col ls-col--center">
                <controls::Playback/>
                <panels::Narration/>
                <section class="ls-panel ls-stage-panel"><stage::StageView/><panels::Legend/><panels::Inspector/></section>
                <sequence::SequenceDiagram/>
            </div>
            <div class="ls-col ls-col--side">
                <clients::ClientsPanel/>
                <panels::StepLog/>
            </div>
        </main>
        <dialogs::Overlays/>
    }
}

/// The full bundle's extra panels: the requirements matrix and compare mode.
fn extras() -> impl IntoView {
    #[cfg(feature = "services")]
    return view! { <matrix::MatrixDialog/><compare::ComparePanel/> };
}

#[component]
fn EmbedLayout() -> impl IntoView {
    let app = expect_context::<App>();
    let full = move || app.share_url(false);
    view! {
        <dialogs::ErrorBanner/>
        <main class="ls-embed">
            <controls::Playback/>
            <panels::Narration/>
            <div class="ls-embed__body">
                <section class="ls-panel ls-stage-panel"><stage::StageView/></section>
                <clients::ClientsPanel/>
            </div>
            <a class="ls-embed__open" href=full target="_blank" rel="noopener">{tr(app, "ui.open_full")}</a>
        </main>
        <dialogs::Overlays/>
    }
}
