//! The recipe editor (studio page): a learner's lock recipe in the recipe language
//! (docs/recipes.md), checked as it is typed (line and column), run on the stage with 2–5
//! clients, and handed to the exhaustive search — Break it — over the faults ticked, in slices
//! with progress; what the search finds opens on the stage at its failing step.

use leptos::prelude::*;

use super::learn::RECIPE_HUNT;
use super::state::App;
use super::tr;
use crate::recipes::program::{starters::STARTERS, Source};
use crate::sim::check::{Check, Faults, CLIENTS};
use crate::sim::Lang;
use crate::view::learn::text;

/// The largest search Break it runs in the page.
const MAX_STATES: usize = 2_000_000;

/// The editor's own words: (key, English, Chinese).
const WORDS: &[(&str, &str, &str)] = &[
    ("title", "Write a lock recipe", "编写锁的实现"),
    ("hint", "Each client runs this recipe: lock: takes the lock, unlock: gives it back. Run plays it on the stage; Break it searches every interleaving and the faults you tick for two holders or a waiter stuck for ever.", "每个客户端都运行这段实现：lock: 获取锁，unlock: 释放锁。“运行”在舞台上播放它；“攻破它”会搜索所有交错顺序和勾选的故障，寻找两个持有者或永远卡住的等待者。"),
    ("start", "Start from", "从这里开始"),
    ("ok", "It compiles.", "可以编译。"),
    ("clients", "Clients", "客户端数"),
    ("faults", "Faults", "故障"),
    ("crash", "a client crashes", "客户端崩溃"),
    ("pause", "a client pauses", "客户端暂停"),
    ("close", "a waiter closes its session", "等待者关闭会话"),
    ("run", "Run", "运行"),
    ("break", "Break it", "攻破它"),
    ("stop", "Stop", "停止"),
    ("open", "Open the run", "打开这次运行"),
];

fn w(key: &str, lang: Lang) -> &'static str {
    WORDS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or("", |(_, en, zh)| if lang == Lang::Zh { zh } else { en })
}

/// Where the text fails to compile, in the page's language, or `None`.
fn error(text: &str, lang: Lang) -> Option<String> {
    let e = Source::new(text).err()?;
    Some(match lang {
        Lang::Zh => format!("第 {} 行第 {} 列：{}", e.line, e.col, e.msg),
        Lang::En => e.to_string(),
    })
}

#[component]
pub fn RecipeEditor() -> impl IntoView {
    let app = expect_context::<App>();
    view! { <Show when=move || app.recipe.get()><Panel/></Show> }
}

#[component]
fn Panel() -> impl IntoView {
    let app = expect_context::<App>();
    let lang = move || app.lang.get();
    // The run's own recipe if it has one (a link, a run file), else the first starting point;
    // a course task sets all three.
    let first = app
        .sim
        .with_untracked(|s| s.scenario().program.clone())
        .unwrap_or_else(|| STARTERS[0].1.to_string());
    let text = RwSignal::new(first);
    let clients = RwSignal::new(2u32);
    let faults = RwSignal::new(Faults {
        crash: true,
        pause: true,
        close: false,
    });
    Effect::new(move |_| {
        if let Some(c) = app.recipe_seed.get() {
            (
                text.set(c.text),
                clients.set(c.clients),
                faults.set(c.faults),
            );
        }
    });
    let check = move || Check {
        text: text.get_untracked(),
        clients: clients.get_untracked(),
        faults: faults.get_untracked(),
    };
    let problem = Memo::new(move |_| text.with(|t| error(t, app.lang.get())));
    let bad = move || problem.with(Option::is_some);
    let run = move |_| {
        if let Ok(sc) = check().scenario() {
            app.stop_hunt();
            app.load(crate::view::url::CUSTOM, sc);
            app.playing.set(true);
        }
    };
    let search = move |_| {
        let c = check();
        if let Ok(sc) = c.scenario() {
            app.playing.set(false);
            app.search(RECIPE_HUNT, sc, &c.config(MAX_STATES));
        }
    };
    let start = move |ev: leptos::ev::Event| {
        if let Some((_, t)) = event_target_value(&ev)
            .parse::<usize>()
            .ok()
            .and_then(|i| STARTERS.get(i))
        {
            text.set(t.to_string());
        }
    };
    let fault = move |which: &'static str| {
        let on = move || {
            faults.with(|f| match which {
                "crash" => f.crash,
                "pause" => f.pause,
                _ => f.close,
            })
        };
        let flip = move |_| {
            faults.update(|f| match which {
                "crash" => f.crash = !f.crash,
                "pause" => f.pause = !f.pause,
                _ => f.close = !f.close,
            })
        };
        view! { <label class="ls-inline"><input id=format!("ls-recipe-{which}") type="checkbox" prop:checked=on on:change=flip/>{move || w(which, lang())}</label> }
    };
    view! {
        <section class="ls-editor ls-recipe" role="dialog" aria-modal="false" aria-labelledby="ls-recipe-h" id="ls-recipe-dialog">
            <h2 id="ls-recipe-h">{move || w("title", lang())}</h2>
            <p class="ls-muted">{move || w("hint", lang())}</p>
            <label class="ls-inline">{move || w("start", lang())}
                <select id="ls-recipe-start" on:change=start>
                    {STARTERS.iter().enumerate().map(|(i, (name, _))| view! { <option value=i.to_string()>{*name}</option> }).collect_view()}
                </select></label>
            <Lines text=text/>
            <p id="ls-recipe-error" class="ls-muted" role="status" data-valid=move || (!bad()).to_string()>
                {move || problem.get().unwrap_or_else(|| w("ok", lang()).to_string())}</p>
            <div class="ls-row">
                <label class="ls-inline">{move || w("clients", lang())}
                    <select id="ls-recipe-clients" on:change=move |ev| clients.set(event_target_value(&ev).parse().unwrap_or(2))>
                        {CLIENTS.map(|n| view! { <option value=n.to_string() selected=move || clients.get() == n>{n}</option> }).collect_view()}
                    </select></label>
            </div>
            <fieldset class="ls-recipe__faults"><legend>{move || w("faults", lang())}</legend>
                {fault("crash")}{fault("pause")}{fault("close")}</fieldset>
            <div class="ls-row">
                <button id="ls-recipe-run" on:click=run disabled=bad>{move || w("run", lang())}</button>
                <button id="ls-recipe-break" on:click=search disabled=move || bad() || searching(app)>{move || w("break", lang())}</button>
                <button id="ls-recipe-close" on:click=move |_| app.recipe.set(false)>{tr(app, "ui.close")}</button>
            </div>
            <Verdict/>
        </section>
    }
}

/// Whether Break it is still searching.
fn searching(app: App) -> bool {
    app.hunt.with(|h| {
        h.as_ref()
            .is_some_and(|h| h.which == RECIPE_HUNT && h.outcome.is_none())
    })
}

/// The text with its line numbers beside it (the gutter scrolls with the text).
#[component]
fn Lines(text: RwSignal<String>) -> impl IntoView {
    let gutter = NodeRef::<leptos::html::Pre>::new();
    let numbers = move || {
        let n = text.with(|t| t.split('\n').count());
        (1..=n).map(|i| format!("{i}\n")).collect::<String>()
    };
    let scrolled = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let top = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .map_or(0, |t| t.scroll_top());
        if let Some(g) = gutter.get() {
            g.set_scroll_top(top);
        }
    };
    view! {
        <div class="ls-recipe__code">
            <pre class="ls-recipe__gutter" aria-hidden="true" node_ref=gutter>{numbers}</pre>
            <textarea id="ls-recipe-text" spellcheck="false" autocapitalize="off" wrap="off"
                aria-labelledby="ls-recipe-h" prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev)) on:scroll=scrolled></textarea>
        </div>
    }
}

/// Break it's progress and verdict: states explored, then what was found or that every state
/// was explored.
#[component]
fn Verdict() -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        let lang = app.lang.get();
        app.hunt.with(|h| {
            let h = h.as_ref().filter(|h| h.which == RECIPE_HUNT)?;
            let line = match &h.outcome {
                None => text::explored(h.states, lang),
                Some(o) => text::outcome(o, h.ms, lang),
            };
            let verdict = match &h.outcome {
                None => "searching",
                Some(o) if o.counterexample.is_some() => "found",
                Some(o) if o.truncated => "bounded",
                Some(_) => "none",
            };
            let found = verdict == "found";
            Some(view! {
                <div id="ls-recipe-verdict" class="ls-hunt" data-verdict=verdict data-states=h.states>
                    <progress max=h.max value=h.states></progress>
                    <p class="ls-hunt__result">{line}</p>
                    {(verdict == "searching").then(|| view! { <button id="ls-recipe-stop" on:click=move |_| app.stop_hunt()>{w("stop", lang)}</button> })}
                    {found.then(|| view! { <button id="ls-recipe-open" on:click=move |_| app.open_counterexample()>{w("open", lang)}</button> })}
                </div>
            })
        })
    }
}
