//! The Leptos 0.8 app (wasm32 only). The root owns the simulation in one signal and derives the
//! frame with a memo; views get both through context and send commands as method calls. The
//! stage is the page: a top bar, the stage with its caption, transport and timeline, and a
//! drawer of panels that can be closed. An embed is the stage, caption and transport only.

#[cfg(feature = "studio")]
mod anim;
mod browser;
mod controls;
mod course;
mod dialogs;
mod embed;
mod fill;
// The full bundle's extra panels, compiled out of the lean first page (its budget).
#[cfg(feature = "services")]
mod compare;
mod learn;
#[cfg(feature = "studio")]
mod lesson;
#[cfg(feature = "services")]
mod matrix;
mod panels;
mod playback;
mod popover;
#[cfg(feature = "studio")]
mod recipe;
mod sequence;
mod stage;
mod stagekeys;
mod state;
mod transport;

use leptos::prelude::*;

use crate::sim::Lang;
use crate::view::i18n::t;
use state::{App, Tab};

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
    // A first visit (a bare address, no state in the query) moves at once, as RaftScope does:
    // it plays until the first key frame. Links, embeds and reduced motion wait for the reader.
    let first_visit = browser::query().trim_start_matches('?').is_empty();
    let app = App::from_url();
    provide_context(app);
    controls::install_keyboard(app);
    embed::install(app);
    app.fill(app.fill_to.get_value());
    if crate::FULL {
        app.resume();
    }
    let (matrix, compare) = app.opening.get_value();
    if matrix {
        app.open_matrix();
    } else if !compare.is_empty() {
        app.compare(Some(compare));
    }
    match browser::hash().as_str() {
        "animation" if crate::STUDIO => app.anim.set(true),
        "lesson" if crate::STUDIO => app.editor.set(true),
        "recipe" if crate::STUDIO => app.recipe.set(true),
        // An address that asks for one, on a page without them: the studio page opens it.
        "animation" | "lesson" | "recipe" => browser::go_studio(&browser::query_and_hash()),
        // A course task handed over from the full page: its chapter is in the query.
        h => {
            if let Some(i) = h.strip_prefix("recipe-").and_then(|i| i.parse().ok()) {
                app.open_task(i);
            }
        }
    }
    autoplay(app);
    app.sync_url();
    let autoplay = app.player.with_untracked(|p| p.0.autoplay);
    if (first_visit && !browser::reduced_motion()) || autoplay {
        set_timeout(
            move || app.playing.set(true),
            std::time::Duration::from_millis(600),
        );
    }
    let lang_attr = move || {
        if app.lang.get() == Lang::Zh {
            "zh-Hans"
        } else {
            "en"
        }
    };
    browser::mark_started();
    title(app);
    let theme = move || app.player.with(|p| p.0.theme_class());
    if app.embed {
        view! { <div class=move || format!("ls-app ls-app--embed {}", theme()) lang=lang_attr><EmbedLayout/></div> }.into_any()
    } else {
        view! { <div class=move || format!("ls-app {}", theme()) lang=lang_attr><FullLayout/></div> }.into_any()
    }
}

/// The document's title follows the run: the open chapter's or lesson's, else the preset's.
fn title(app: App) {
    Effect::new(move |_| {
        let lang = app.lang.get();
        let what = match app.chapter() {
            Some(ch) => Some(ch.title(lang).to_string()),
            None => crate::sim::presets::find(&app.preset.get()).map(|p| p.title(lang).to_string()),
        };
        browser::set_title(&crate::view::player::title(what.as_deref()));
    });
}

/// Playback: each step's transition plays out, then the next step follows; playback stops on
/// a key frame so its caption can be read.
fn autoplay(app: App) {
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let playing = app.playing.get();
        generation.update_value(|g| *g += 1);
        if playing {
            tick(app, generation, generation.get_value());
        }
    });
}

/// One step of playback, then what the player says: go on, hold a key frame, stop (at a key
/// frame, or at the end of the run or of a link's range: `ended`), or loop back to the range's
/// start (`view::player`).
fn tick(app: App, generation: StoredValue<u64>, mine: u64) {
    use crate::view::player::Next;
    if generation.get_value() != mine || !app.playing.get_untracked() {
        return;
    }
    let again = |ms: f64| {
        set_timeout(
            move || tick(app, generation, mine),
            std::time::Duration::from_millis(ms as u64),
        )
    };
    // At the end of a looping range: back to its start, which holds a moment.
    let (step, len, finished) = app.frame.with_untracked(|f| (f.step, f.len, f.finished));
    let restart = app.player.with_untracked(|p| {
        (p.0.looping && p.0.at_end(step, len, finished)).then(|| p.0.first(len))
    });
    if let Some(start) = restart {
        app.seek(start);
        return again(f64::from(crate::view::player::HOLD_MS));
    }
    let moved = app.step();
    if !moved && app.waiting_for_answer() {
        return;
    }
    // A step past the heartbeats may overshoot the range's end: playback ends on it exactly.
    let end = app.player.with_untracked(|p| p.0.end);
    if let Some(e) = end.filter(|e| app.frame.with_untracked(|f| f.step > *e)) {
        app.seek(e);
    }
    let (step, len) = app.frame.with_untracked(|f| (f.step, f.len));
    let key = moved && !app.moments_here().is_empty();
    let (next, ended) = app.player.with_untracked(|p| {
        (
            p.0.next(step, len, !moved, key),
            p.0.at_end(step, len, !moved),
        )
    });
    let wait = app.anim_ms.get_value()
        + match next {
            Next::Go => 90.0,
            Next::Hold(ms) => f64::from(ms),
            // The range's last frame holds; the next tick goes back to its start.
            Next::Restart(_) => {
                app.playing.set(true);
                f64::from(crate::view::player::HOLD_MS)
            }
            Next::Stop => {
                app.playing.set(false);
                if ended {
                    app.player.update(|p| p.1 += 1);
                }
                app.sync_url();
                return;
            }
        };
    if app.playing.get_untracked() {
        again(wait);
    }
}

#[component]
fn FullLayout() -> impl IntoView {
    let app = expect_context::<App>();
    view! {
        <header class="ls-top">
            <h1 class="ls-title">"Lockstep"</h1>
            <controls::PresetSelect/>
            <course::LearnButton/>
            <Tabs/>
            <dialogs::Tools/>
        </header>
        <dialogs::ErrorBanner/>
        {extras()}
        <main class="ls-main" class:ls-main--drawer=move || app.tab.get().is_some()>
            <section class="ls-stagecol" aria-label=tr(app, "ui.stage")>
                <stage::Stage/>
                <transport::Caption/>
                <course::LearnBox/>
                <transport::Transport/>
            </section>
            <Drawer/>
        </main>
        <dialogs::Overlays/>
    }
}

const TABS: [(Tab, &str, &str); 6] = [
    (Tab::Course, "tab.course", "course"),
    (Tab::Lesson, "tab.lesson", "lesson"),
    (Tab::Settings, "tab.settings", "settings"),
    (Tab::Log, "panel.log", "log"),
    (Tab::Sequence, "panel.sequence", "sequence"),
    (Tab::Monitors, "panel.monitors", "monitors"),
];

#[component]
fn Tabs() -> impl IntoView {
    let app = expect_context::<App>();
    view! {
        <nav class="ls-tabs" role="tablist" aria-label=tr(app, "ui.panels")>
            // The course's tab is there once the course is open (the Learn button opens it),
            // so the top bar keeps to one line.
            {move || TABS.iter().filter(|(tab, _, _)| *tab != Tab::Course || app.learn.get().is_some()).map(|(tab, key, id)| {
                let tab = *tab;
                view! {
                    <button id=format!("ls-tab-{id}") role="tab" aria-selected=move || (app.tab.get() == Some(tab)).to_string()
                        on:click=move |_| app.tab.update(|t| *t = if *t == Some(tab) { None } else { Some(tab) })>{tr(app, key)}</button>
                }
            }).collect_view()}
        </nav>
    }
}

#[component]
fn Drawer() -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        app.tab.get().map(|tab| {
            let key = TABS.iter().find(|t| t.0 == tab).map_or("tab.lesson", |t| t.1);
            let body = match tab {
                Tab::Course => view! { <course::CourseTab/> }.into_any(),
                Tab::Lesson => view! { <controls::Lesson/> }.into_any(),
                Tab::Settings => view! { <controls::Settings/> }.into_any(),
                Tab::Log => view! { <panels::StepLog/> }.into_any(),
                Tab::Sequence => view! { <sequence::SequenceDiagram/> }.into_any(),
                Tab::Monitors => view! { <panels::Monitors/> }.into_any(),
            };
            view! {
                <aside id="ls-drawer" class="ls-drawer" aria-label=tr(app, key)>
                    <div class="ls-drawer__head">
                        <h2>{tr(app, key)}</h2>
                        <button id="ls-drawer-close" on:click=move |_| app.tab.set(None) aria-label=tr(app, "ui.close")>"×"</button>
                    </div>
                    {body}
                </aside>
            }
        })
    }
}

/// The pages' extra panels: the full bundle's requirements matrix and compare mode, and the
/// studio page's animated export and lesson editor.
fn extras() -> impl IntoView {
    (services(), studio())
}

fn services() -> impl IntoView {
    #[cfg(feature = "services")]
    return view! { <matrix::MatrixDialog/><compare::ComparePanel/> };
}

fn studio() -> impl IntoView {
    #[cfg(feature = "studio")]
    return view! { <anim::AnimDialog/><lesson::LessonEditor/><recipe::RecipeEditor/> };
}

#[component]
fn EmbedLayout() -> impl IntoView {
    let app = expect_context::<App>();
    // The frame the reader is at: a reader who stepped on opens the page there.
    let full = move || {
        app.sim.track();
        app.lang.track();
        app.share_url(false)
    };
    view! {
        <dialogs::ErrorBanner/>
        <main class="ls-embed">
            // A page of its own inside the host's frame: its heading is said, not shown.
            <h1 class="ls-sr">{move || format!("Lockstep · {}", t("ui.tagline", app.lang.get()))}</h1>
            <stage::Stage/>
            <transport::Caption/>
            <course::LearnBox/>
            // `controls=0`: the stage and its caption only (the transport stays in the page,
            // hidden, for the keyboard and for pausing off screen).
            <div class="ls-embed__controls" class:ls-hidden=move || app.player.with(|p| !p.0.controls)>
                <transport::Transport/>
            </div>
            <a class="ls-embed__open" href=full target="_blank" rel="noopener">{tr(app, "ui.open_full")}</a>
        </main>
        <dialogs::Overlays/>
    }
}
