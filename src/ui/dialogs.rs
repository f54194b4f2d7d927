//! The header's tools (language, share, embed, export, import of a run or a lesson, the lesson
//! editor, help), the help overlay, the
//! share/embed dialog and the error banner. Nothing from a URL or a file is rendered as HTML.

use leptos::prelude::*;

use crate::view::embed::Snippet;
use wasm_bindgen::JsCast;

use super::browser;
use super::state::{App, FULL};
use super::tr;
use crate::sim::{Lang, Run};
use crate::view::i18n::t;

fn open_compare(app: App) {
    app.compare(Some(app.default_columns()));
}

/// The animated export (the other pages hand over to the studio page, which opens it).
fn open_anim(app: App) {
    if !crate::STUDIO {
        let query = crate::view::url::to_query(&app.url_state());
        return browser::go_studio(&format!("{query}#animation"));
    }
    app.playing.set(false);
    app.anim.set(true);
}

/// The lesson editor (the other pages hand over to the studio page, which opens it).
fn open_editor(app: App) {
    if !crate::STUDIO {
        let query = crate::view::url::to_query(&app.url_state());
        return browser::go_studio(&format!("{query}#lesson"));
    }
    app.playing.set(false);
    app.recipe.set(false);
    app.editor.set(true);
}

/// The recipe editor (the other pages hand over to the studio page, which opens it).
fn open_recipe(app: App) {
    if !crate::STUDIO {
        let query = crate::view::url::to_query(&app.url_state());
        return browser::go_studio(&format!("{query}#recipe"));
    }
    app.playing.set(false);
    app.editor.set(false);
    app.recipe.set(true);
}

/// The matrix (the lean bundle hands over to the full one for it).
fn open_matrix(app: App) {
    if !FULL {
        return app.open_full(false);
    }
    app.open_matrix();
}

#[component]
pub fn Tools() -> impl IntoView {
    let app = expect_context::<App>();
    let share = move |_| {
        let url = app.share_url(false);
        let copied = browser::copy(&url);
        app.dialog.set(Some(Dialog::Text(url)));
        app.notice
            .set(copied.then(|| t("ui.copied", app.lang.get_untracked()).to_string()));
    };
    let embed = move |_| {
        app.notice.set(None);
        app.dialog.set(Some(Dialog::Embed(Snippet::Responsive)));
    };
    let export_svg = move |_| {
        let lang = app.lang.get_untracked();
        let title = crate::sim::presets::find(&app.preset.get_untracked())
            .map(|p| p.title(lang))
            .unwrap_or("Lockstep");
        let caption = app
            .moments_here()
            .iter()
            .map(|m| m.caption(lang))
            .collect::<Vec<_>>()
            .join(" ");
        let caption = if caption.is_empty() {
            app.frame.with_untracked(|f| f.narration.clone())
        } else {
            caption
        };
        let svg = app
            .frame
            .with_untracked(|f| crate::view::svg::export(f, title, &caption, lang));
        browser::download("lockstep-frame.svg", "image/svg+xml", &svg);
    };
    let export_json = move |_| {
        let json = app
            .sim
            .with_untracked(|s| crate::sim::scenario_json::write_run(s.run()));
        browser::download("lockstep-run.json", "application/json", &json);
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        browser::read_file(&input, move |r| {
            let read = r.and_then(|text| match FULL {
                true => parse_import(&text).map(Some),
                false => hand_over_import(app, &text).map(|()| None),
            });
            match read {
                Ok(Some(Imported::Run(run))) => app.load_run(run),
                Ok(Some(Imported::Lesson(ch))) => app.open_lesson(*ch),
                Ok(None) => {}
                Err(e) => app.error(format!("{}: {e}", t("ui.import", app.lang.get_untracked()))),
            }
        });
        input.set_value("");
    };
    view! {
        <div class="ls-tools">
            <button id="ls-lang" lang=move || if app.lang.get() == Lang::Zh { "en" } else { "zh" }
                on:click=move |_| app.set_lang(if app.lang.get_untracked() == Lang::Zh { Lang::En } else { Lang::Zh })>{tr(app, "ui.lang")}</button>
            <button id="ls-share" on:click=share>{tr(app, "ui.share")}</button>
            <button id="ls-embed" on:click=embed>{tr(app, "ui.embed")}</button>
            <details class="ls-more" on:click=move |ev| {
                // A choice in the menu closes it.
                let t = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                if t.is_some_and(|t| t.tag_name() == "BUTTON") {
                    if let Some(d) = ev.current_target().and_then(|d| d.dyn_into::<web_sys::Element>().ok()) {
                        let _ = d.remove_attribute("open");
                    }
                }
            }>
                <summary id="ls-more">{tr(app, "ui.more")}</summary>
                <div class="ls-more__menu">
                    <button id="ls-export-svg" on:click=export_svg>{tr(app, "ui.export_svg")}</button>
                    <button id="ls-export-anim" on:click=move |_| open_anim(app)>{tr(app, "ui.export_anim")}</button>
                    <button id="ls-export-json" on:click=export_json>{tr(app, "ui.export_json")}</button>
                    <button id="ls-lesson-open" on:click=move |_| open_editor(app)>{tr(app, "ui.lesson_editor")}</button>
                    <button id="ls-recipe-open" on:click=move |_| open_recipe(app)>{tr(app, "ui.recipe_editor")}</button>
                    <label class="ls-file">{tr(app, "ui.import")}
                        <input id="ls-import" type="file" accept="application/json,.json" on:change=import/>
                    </label>
                    <button id="ls-compare-open" on:click=move |_| open_compare(app)>{tr(app, "ui.compare")}</button>
                    <button id="ls-matrix-open" on:click=move |_| open_matrix(app)>{tr(app, "ui.matrix")}</button>
                </div>
            </details>
            <button id="ls-help" on:click=move |_| app.help.set(true) aria-haspopup="dialog" aria-label=tr(app, "ui.help")>"?"</button>
        </div>
    }
}

/// What an imported file holds.
enum Imported {
    Run(Run),
    Lesson(Box<crate::view::learn::lesson::Shared>),
}

/// A lesson file, or a run.
fn parse_import(text: &str) -> Result<Imported, String> {
    if crate::json_read::is_lesson(text) {
        let l = crate::view::learn::lesson::Shared::from_file(text)?;
        return Ok(Imported::Lesson(Box::new(l)));
    }
    crate::view::url::read_run(text).map(Imported::Run)
}

/// The lean page reads no lesson or run files (the lesson reader would be about 8 KB gzip of
/// it, the scenario and run reader 10 KB): the full page opens one from a link, a run with this page's own state beside it, so that a bad
/// file leaves the same run there, with the reason.
fn hand_over_import(app: App, text: &str) -> Result<(), String> {
    let value = crate::b64url::encode(text);
    let query = match crate::json_read::is_lesson(text) {
        true => format!("lesson={value}"),
        false => format!(
            "{}&run={value}",
            crate::view::url::to_query(&app.url_state())
        ),
    };
    let most = crate::view::url::MAX_QUERY;
    if query.len() > most {
        return Err(format!(
            "the file is {} bytes, more than this page can pass on to the full one ({} bytes \
             in a link): import it on full.html",
            text.len(),
            most / 4 * 3
        ));
    }
    browser::go_full(&query);
    Ok(())
}

/// What the share dialog shows: a text (a link) or the embed code in one of its forms.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    Text(String),
    Embed(Snippet),
}

/// The embed code for the current frame in `form`, in the page's language.
fn embed_code(app: App, form: Snippet) -> String {
    let url = app.share_url(true);
    let (page, query) = url.split_once('?').unwrap_or((&url, ""));
    crate::view::embed::snippet(form, page, query)
}

#[component]
pub fn Overlays() -> impl IntoView {
    let app = expect_context::<App>();
    view! {
        <Show when=move || app.help.get()>
            <div class="ls-overlay" role="dialog" aria-modal="true" aria-labelledby="ls-help-h" id="ls-help-dialog">
                <div class="ls-dialog">
                    <h2 id="ls-help-h">{tr(app, "help.title")}</h2>
                    <ul class="ls-keys">
                        <li>{tr(app, "help.step")}</li><li>{tr(app, "help.back")}</li><li>{tr(app, "help.play")}</li>
                        <li>{tr(app, "help.home")}</li><li>{tr(app, "help.help")}</li>
                        <li>{tr(app, "help.stage")}</li><li>{tr(app, "help.open")}</li>
                        <li>{tr(app, "help.client_keys")}</li><li>{tr(app, "help.server_keys")}</li>
                    </ul>
                    <button autofocus on:click=move |_| app.help.set(false)>{tr(app, "ui.close")}</button>
                </div>
            </div>
        </Show>
        {move || app.dialog.get().map(|d| {
            let form = match d { Dialog::Embed(f) => Some(f), Dialog::Text(_) => None };
            let text = match d { Dialog::Text(t) => t, Dialog::Embed(f) => embed_code(app, f) };
            let copy = { let text = text.clone(); move |_| {
                let done = browser::copy(&text);
                app.notice.set(Some(t(if done { "ui.copied" } else { "ui.copy_manual" }, app.lang.get_untracked()).to_string()));
            } };
            // One form for both: a link to copy, or the embed code in the form the select picks.
            let pick = move |ev: leptos::ev::Event| {
                let f = match event_target_value(&ev).as_str() { "fixed" => Snippet::Fixed, "player" => Snippet::Player, _ => Snippet::Responsive };
                app.dialog.set(Some(Dialog::Embed(f)));
            };
            let value = match form { Some(Snippet::Fixed) => "fixed", Some(Snippet::Player) => "player", _ => "fluid" };
            view! {
                <div class="ls-overlay" role="dialog" aria-modal="true" id="ls-share-dialog">
                    <div class="ls-dialog">
                        <p class:ls-hidden=form.is_none()>{tr(app, "ui.embed_hint")}" "
                            <select id="ls-embed-form" aria-label=tr(app, "ui.embed") on:change=pick>
                                <option value="fluid" selected=value == "fluid">{tr(app, "ui.embed_fluid")}</option>
                                <option value="fixed" selected=value == "fixed">{tr(app, "ui.embed_fixed")}</option>
                                <option value="player" selected=value == "player">{tr(app, "ui.embed_player")}</option>
                            </select></p>
                        <p class="ls-muted" class:ls-hidden=form.is_none()>{tr(app, "ui.embed_cors")}</p>
                        <p>{move || app.notice.get().unwrap_or_default()}</p>
                        <textarea id="ls-share-text" readonly rows="8">{text}</textarea>
                        <div class="ls-row">
                            <button id="ls-copy" on:click=copy>{tr(app, "ui.copy")}</button>
                            <button autofocus on:click=move |_| app.dialog.set(None)>{tr(app, "ui.close")}</button>
                        </div>
                    </div>
                </div>
            }
        })}
    }
}

#[component]
pub fn ErrorBanner() -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        let errors = app.errors.get();
        (!errors.is_empty()).then(|| view! {
            <div class="ls-error" role="alert" id="ls-error">
                <strong>{t("ui.error", app.lang.get())}</strong>
                <ul>{errors.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}</ul>
                <button on:click=move |_| app.errors.set(Vec::new())>{t("ui.dismiss", app.lang.get())}</button>
            </div>
        })
    }
}
