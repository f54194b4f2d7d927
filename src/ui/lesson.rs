//! The lesson editor (issue 23): an author starts from the run on the stage, adds a stop at
//! the current frame, writes its title and text in English and/or Chinese, may pose one of the
//! questions the run answers, previews the lesson, and copies its link or embed snippet or
//! saves its file (`view::learn::lesson` is the format). Studio page only (the other pages hand
//! over to it).

use leptos::prelude::*;

use super::browser;
use super::state::App;
use super::tr;
use crate::sim::{presets, Lang};
use crate::view::learn::lesson::Shared;
use crate::view::learn::{Ask, Chapter, Stop, Text};
use crate::view::url;

/// The editor's own words: (key, English, Chinese).
const WORDS: &[(&str, &str, &str)] = &[
    ("title", "Write a lesson", "编写课程"),
    ("hint", "The stage stays live beside this panel: step with the transport (or ← and →), add a stop at a frame and say what the reader should see there. Preview plays it; the link and the file carry it whole.", "舞台在这个面板旁边照常工作：用播放控制（或 ← 和 →）单步，在某一帧添加停靠点，写下读者在那里应当看到什么。预览会播放它；链接和文件都完整地包含它。"),
    ("id", "Id", "标识"),
    ("name", "Title", "标题"),
    ("intro", "Introduction", "引言"),
    ("takeaway", "Takeaway", "要点"),
    ("stops", "Stops", "停靠点"),
    ("none", "No stops yet: playback stops at the run's own key frames.", "还没有停靠点：播放会停在运行自身的关键帧上。"),
    ("add", "Add a stop at this frame (step {n})", "在当前帧添加停靠点（第 {n} 步）"),
    ("add0", "Step to a frame to add a stop there", "先单步到某一帧，再在那里添加停靠点"),
    ("own", "Also stop at the preset's own key frames", "也停在预设自身的关键帧上"),
    ("copied", "Copied to the clipboard.", "已复制到剪贴板。"),
    ("unasked", "`stops[{i}].ask`: this run never shows what the question asks about after step {n}: choose another question or another step", "`stops[{i}].ask`：这次运行在第 {n} 步之后不会出现这个问题所问的情况：请换一个问题或另一步"),
    ("step", "Step", "步"),
    ("stop_title", "Title", "标题"),
    ("stop_text", "Text", "说明"),
    ("ask", "Question", "提问"),
    ("no_ask", "No question", "不提问"),
    ("remove", "Remove", "删除"),
    ("preview", "Preview", "预览"),
    ("link", "Copy link", "复制链接"),
    ("embed", "Copy embed code", "复制嵌入代码"),
    ("save", "Save file", "保存文件"),
    ("ok", "The lesson is valid.", "课程有效。"),
];

fn w(key: &str, lang: Lang) -> &'static str {
    WORDS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or("", |(_, en, zh)| if lang == Lang::Zh { zh } else { en })
}

/// What a question asks, as the editor's list names it.
fn ask_label(a: Ask, lang: Lang) -> &'static str {
    let (en, zh) = match a {
        Ask::Notified => (
            "How many clients the next release notifies",
            "下一次释放会通知多少个客户端",
        ),
        Ask::NextWatch => (
            "Which node the woken waiter watches next",
            "被唤醒的等待者接下来监视哪个节点",
        ),
        Ask::WriteAccepted => (
            "Whether the stale holder's write is accepted",
            "过时持锁者的写入是否被接受",
        ),
        Ask::Believers => (
            "How many clients believe they hold the lock",
            "有多少个客户端以为自己持有锁",
        ),
        Ask::AfterExpiry => (
            "What the server does with a silent client's node",
            "服务器如何处理沉默客户端的节点",
        ),
        Ask::EverAcquires => (
            "Whether the waiting client ever gets the lock",
            "等待的客户端最终能否拿到锁",
        ),
        Ask::NextSequence => (
            "The sequence number of the next lock node",
            "下一个锁节点的序号",
        ),
        Ask::Duplicate => ("Whether an ID is handed out twice", "是否有 ID 被发放两次"),
        Ask::Survives => (
            "Who holds the lock once a new leader is elected",
            "新领导者选出后谁持有锁",
        ),
        Ask::Read => (
            "What an observer's next read of /lock sees",
            "观察者下一次读取 /lock 会读到什么",
        ),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// A new lesson from the run on the stage: its preset (or its whole scenario), the user's
/// commands, the preset's title; no stops yet.
fn from_stage(app: App) -> Chapter {
    let name = app.preset.get_untracked();
    let run = app.sim.with_untracked(|s| s.run().clone());
    let preset = presets::find(&name).filter(|p| p.scenario() == run.scenario);
    let title = preset.map_or_else(
        || Text::new("My lesson", "我的课程"),
        |p| Text::new(p.title(Lang::En), p.title(Lang::Zh)),
    );
    Chapter {
        lockstep_lesson: crate::view::learn::lesson::VERSION,
        id: "my-lesson".into(),
        title,
        intro: Text::default(),
        takeaway: Text::default(),
        preset: preset.map(|p| p.id.to_string()),
        scenario: preset.is_none().then_some(run.scenario),
        cmds: run.forced,
        stops: Vec::new(),
        search: Vec::new(),
        matrix: false,
        preset_key_frames: true,
    }
}

/// The first stop (its index, and the step it is posed at) whose question the run does not
/// answer: the course's generator makes no question of it.
fn unanswered(d: &Chapter, sim: &crate::sim::Simulation) -> Option<(usize, u64)> {
    if d.stops.iter().all(|s| s.ask.is_none()) {
        return None;
    }
    let found = d.with_stops(crate::sim::moments::find(sim, &d.kinds()));
    let asked = crate::view::learn::questions::questions(d, sim, &found);
    d.stops.iter().enumerate().find_map(|(i, s)| {
        let at = s.step_in(&found)?;
        (s.ask.is_some() && !asked.iter().any(|q| q.at == at)).then_some((i, at))
    })
}

/// The lesson's link at its first frame (an embed's when `embed`).
fn link(app: App, ch: &Chapter, embed: bool) -> String {
    let mut st = app.url_state();
    (st.lesson, st.at, st.embed) = (Some(Box::new(Shared::of(ch.clone()))), 0, embed);
    st.lang = Some(app.lang.get_untracked());
    format!("{}?{}", browser::share_base(), url::to_query(&st))
}

#[component]
pub fn LessonEditor() -> impl IntoView {
    let app = expect_context::<App>();
    let draft = RwSignal::new(from_stage(app));
    // Bumped when the draft is replaced or stops come or go: the form is redrawn then, not on
    // every key press.
    let shape = RwSignal::new(0u32);
    Effect::new(move |_| {
        if app.editor.get() {
            let open = app.lesson.get_untracked().map(|l| l.lesson.clone());
            draft.set(open.unwrap_or_else(|| from_stage(app)));
            shape.update(|n| *n += 1);
        }
    });
    let lang = move || app.lang.get();
    // The questions the run can answer: a stop's question must come out of the run (a
    // sequence number on Redis, a survivor with no election, would vanish for readers).
    let check = Memo::new(move |_| {
        draft.with(Chapter::validate)?;
        let unasked = draft.with(|d| app.sim.with_untracked(|s| unanswered(d, s)));
        match unasked {
            Some((i, n)) => Err(w("unasked", lang())
                .replace("{i}", &(i + 1).to_string())
                .replace("{n}", &n.to_string())),
            None => Ok(()),
        }
    });
    let valid = move || check.get();
    let invalid = move || valid().is_err();
    let status = RwSignal::new(None::<&'static str>);
    let add = move |_| {
        let step = app.sim.with_untracked(|s| s.cursor());
        if step == 0 {
            return;
        }
        draft.update(|d| {
            d.stops.push(Stop {
                step: Some(step),
                ..Stop::default()
            });
            crate::sort::by_key(&mut d.stops, |s| s.step.unwrap_or(0));
        });
        shape.update(|n| *n += 1);
    };
    let preview = move |_| {
        app.editor.set(false);
        app.open_lesson(Shared::of(draft.get_untracked()));
    };
    let copy = move |embed: bool| {
        let l = draft.with_untracked(|d| link(app, d, embed));
        let text = match (embed, l.split_once('?')) {
            (true, Some((page, q))) => {
                crate::view::embed::snippet(crate::view::embed::Snippet::Fixed, page, q)
            }
            _ => l,
        };
        // Copied: said here; where the page has no clipboard, the text to copy by hand.
        if browser::copy(&text) {
            status.set(Some("copied"));
        } else {
            app.notice.set(None);
            app.dialog.set(Some(super::dialogs::Dialog::Text(text)));
        }
    };
    let save = move |_| {
        let (name, json) = draft.with_untracked(|d| (format!("{}.json", d.id), d.to_json()));
        browser::download(&name, "application/json", &json);
    };
    view! {
        <Show when=move || app.editor.get()>
            // A side panel, not a modal: the stage, its transport and its popovers stay usable.
            <section class="ls-editor" role="dialog" aria-modal="false" aria-labelledby="ls-lesson-h" id="ls-lesson-dialog">
                <div class="ls-lesson">
                    <h2 id="ls-lesson-h">{move || w("title", lang())}</h2>
                    <p class="ls-muted">{move || w("hint", lang())}</p>
                    <Head draft=draft shape=shape/>
                    <h3>{move || w("stops", lang())}</h3>
                    <Stops draft=draft shape=shape/>
                    <button id="ls-lesson-add" on:click=add disabled=move || app.frame.with(|f| f.step == 0)>
                        {move || match app.frame.with(|f| f.step) {
                            0 => w("add0", lang()).to_string(),
                            n => w("add", lang()).replace("{n}", &n.to_string()),
                        }}</button>
                    <label class="ls-inline"><input id="ls-lesson-own" type="checkbox"
                        prop:checked=move || draft.with(|d| d.preset_key_frames)
                        on:change=move |_| draft.update(|d| d.preset_key_frames = !d.preset_key_frames)/>{move || w("own", lang())}</label>
                    <p id="ls-lesson-check" class="ls-muted" role="status" data-valid=move || (!invalid()).to_string()>
                        {move || valid().err().unwrap_or_else(|| w("ok", lang()).to_string())}</p>
                    <div class="ls-row">
                        <button id="ls-lesson-preview" on:click=preview disabled=invalid>{move || w("preview", lang())}</button>
                        <button id="ls-lesson-link" on:click=move |_| copy(false) disabled=invalid>{move || w("link", lang())}</button>
                        <button id="ls-lesson-embed" on:click=move |_| copy(true) disabled=invalid>{move || w("embed", lang())}</button>
                        <button id="ls-lesson-save" on:click=save disabled=invalid>{move || w("save", lang())}</button>
                        <button id="ls-lesson-close" on:click=move |_| app.editor.set(false)>{tr(app, "ui.close")}</button>
                    </div>
                    <p id="ls-lesson-status" role="status" class="ls-muted">{move || status.get().map(|k| w(k, lang()))}</p>
                </div>
            </section>
        </Show>
    }
}

/// A text box bound to one string of the draft (`pick` finds it).
fn text_box(
    draft: RwSignal<Chapter>,
    id: String,
    label: String,
    long: bool,
    pick: impl Fn(&mut Chapter) -> Option<&mut String> + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let value = draft.with_untracked(|d| pick(&mut d.clone()).cloned().unwrap_or_default());
    let set = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        draft.update(|d| {
            if let Some(s) = pick(d) {
                *s = v;
            }
        });
    };
    let input = if long {
        view! { <textarea id=id rows="2" prop:value=value on:input=set></textarea> }.into_any()
    } else {
        view! { <input id=id type="text" prop:value=value on:input=set/> }.into_any()
    };
    view! { <label class="ls-lesson__field">{label}{input}</label> }
}

/// The lesson's id, title, introduction and takeaway, in both languages.
#[component]
fn Head(draft: RwSignal<Chapter>, shape: RwSignal<u32>) -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        shape.track();
        let lang = app.lang.get();
        type Pick = fn(&mut Chapter) -> Option<&mut String>;
        let both = |key: &'static str, long: bool, en: Pick, zh: Pick| {
            view! {
                <div class="ls-lesson__pair">
                    {text_box(draft, format!("ls-lesson-{key}-en"), format!("{} (English)", w(key, lang)), long, en)}
                    {text_box(draft, format!("ls-lesson-{key}-zh"), format!("{}（中文）", w(key, lang)), long, zh)}
                </div>
            }
        };
        view! {
            {text_box(draft, "ls-lesson-id".into(), w("id", lang).into(), false, |d| Some(&mut d.id))}
            {both("name", false, |d| Some(&mut d.title.en), |d| Some(&mut d.title.zh))}
            {both("intro", true, |d| Some(&mut d.intro.en), |d| Some(&mut d.intro.zh))}
            {both("takeaway", true, |d| Some(&mut d.takeaway.en), |d| Some(&mut d.takeaway.zh))}
        }
    }
}

/// The stops, one row each: step, title and text in both languages, question, remove.
#[component]
fn Stops(draft: RwSignal<Chapter>, shape: RwSignal<u32>) -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        shape.track();
        let lang = app.lang.get();
        let n = draft.with_untracked(|d| d.stops.len());
        if n == 0 {
            return view! { <p class="ls-muted" id="ls-lesson-none">{w("none", lang)}</p> }
                .into_any();
        }
        (0..n)
            .map(|i| stop_row(app, draft, shape, i, lang))
            .collect_view()
            .into_any()
    }
}

fn stop_row(
    app: App,
    draft: RwSignal<Chapter>,
    shape: RwSignal<u32>,
    i: usize,
    lang: Lang,
) -> impl IntoView {
    let _ = app;
    let (step, ask) = draft.with_untracked(|d| {
        d.stops
            .get(i)
            .map_or((0, None), |s| (s.step.unwrap_or(0), s.ask))
    });
    let set_step = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev).trim().parse::<u64>().unwrap_or(0);
        draft.update(|d| {
            d.stops
                .get_mut(i)
                .into_iter()
                .for_each(|s| s.step = Some(v))
        });
    };
    let set_ask = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev).parse::<usize>().ok();
        let a = v.and_then(|k| Ask::ALL.get(k).copied());
        draft.update(|d| d.stops.get_mut(i).into_iter().for_each(|s| s.ask = a));
    };
    let remove = move |_| {
        draft.update(|d| {
            if i < d.stops.len() {
                d.stops.remove(i);
            }
        });
        shape.update(|n| *n += 1);
    };
    let chosen = ask.and_then(|a| Ask::ALL.iter().position(|x| *x == a));
    view! {
        <fieldset class="ls-lesson__stop" data-stop=i.to_string()>
            <label class="ls-inline">{w("step", lang)}
                <input class="ls-lesson-step" type="number" min="1" prop:value=step.to_string() on:change=set_step/></label>
            <div class="ls-lesson__pair">
                {text_box(draft, format!("ls-lesson-stop{i}-title-en"), format!("{} (English)", w("stop_title", lang)), false, move |d| d.stops.get_mut(i).map(|s| &mut s.title.en))}
                {text_box(draft, format!("ls-lesson-stop{i}-title-zh"), format!("{}（中文）", w("stop_title", lang)), false, move |d| d.stops.get_mut(i).map(|s| &mut s.title.zh))}
            </div>
            <div class="ls-lesson__pair">
                {text_box(draft, format!("ls-lesson-stop{i}-text-en"), format!("{} (English)", w("stop_text", lang)), true, move |d| d.stops.get_mut(i).map(|s| &mut s.text.en))}
                {text_box(draft, format!("ls-lesson-stop{i}-text-zh"), format!("{}（中文）", w("stop_text", lang)), true, move |d| d.stops.get_mut(i).map(|s| &mut s.text.zh))}
            </div>
            <label class="ls-inline">{w("ask", lang)}
                <select class="ls-lesson-ask" on:change=set_ask>
                    <option value="" selected=chosen.is_none()>{w("no_ask", lang)}</option>
                    {Ask::ALL.iter().enumerate().map(|(k, a)| view! {
                        <option value=k.to_string() selected=chosen == Some(k)>{ask_label(*a, lang)}</option>
                    }).collect_view()}
                </select></label>
            <button class="ls-lesson-remove" on:click=remove>{w("remove", lang)}</button>
        </fieldset>
    }
}
