//! Learn mode's views: the chapter box under the stage (where the learner is, the chapter's
//! introduction, the question to predict, the reveal, the takeaway, a bug hunt) and the
//! drawer's chapter list.

use leptos::prelude::*;

use super::state::App;
use super::tr;
use crate::view::i18n::t;
use crate::view::learn::progress::{Answer, Verdict};
use crate::view::learn::questions::Question;
use crate::view::learn::{self, text, Body, Chapter};

/// The chapter box: in the stage column of the page and of an embed.
#[component]
pub fn LearnBox() -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        if !crate::FULL {
            return None; // the course lives on the full page
        }
        let ch = app.chapter()?;
        let lang = app.lang.get();
        let n = learn::course().len();
        let body = match ch.body() {
            Body::Run => view! { <RunBody ch=ch/> }.into_any(),
            Body::Search { .. } => view! { <HuntBody ch=ch/> }.into_any(),
            Body::Matrix => view! {
                <p class="ls-learn__text">{ch.intro(lang)}</p>
                <button id="ls-learn-matrix" on:click=move |_| app.open_matrix()>{t("learn.matrix", lang)}</button>
                <Takeaway ch=ch/>
            }
            .into_any(),
        };
        let head = match app.learn.get() {
            Some(i) => {
                let (first, last) = (i == 0, i + 1 >= n);
                view! {
                    <button id="ls-learn-prev" disabled=first on:click=move |_| app.open_chapter(i.saturating_sub(1))
                        aria-label=tr(app, "learn.prev") title=tr(app, "learn.prev")>"‹"</button>
                    <span class="ls-learn__where">{text::chapter_of(i, n, lang)}</span>
                    <strong id="ls-learn-title" class="ls-learn__title">{ch.title(lang)}</strong>
                    <button id="ls-learn-next" disabled=last on:click=move |_| app.open_chapter(i + 1)
                        aria-label=tr(app, "learn.next") title=tr(app, "learn.next")>"›"</button>
                }
                .into_any()
            }
            // An author's lesson: no place in the course, a way back to it.
            None => view! {
                <span class="ls-learn__where">{t("lesson.own", lang)}</span>
                <strong id="ls-learn-title" class="ls-learn__title">{ch.title(lang)}</strong>
                <button id="ls-learn-leave" on:click=move |_| app.leave_course()
                    aria-label=tr(app, "ui.close") title=tr(app, "ui.close")>"×"</button>
            }
            .into_any(),
        };
        Some(view! {
            <section id="ls-learn" class="ls-learn" data-chapter=ch.id.clone()
                data-lesson=app.lesson.get().is_some().then_some("author")
                class:ls-learn--nudge=move || app.nudge.get() % 2 == 1>
                <header class="ls-learn__head">{head}</header>
                {body}
            </section>
        })
    }
}

/// A run's chapter: the introduction at the start, then each question from its key frame to
/// its reveal, and the takeaway once the run has shown everything.
#[component]
fn RunBody(ch: &'static Chapter) -> impl IntoView {
    let app = expect_context::<App>();
    // The answers whose reveal the run has reached may now be marked right or wrong.
    Effect::new(move |_| app.reveal_through(app.frame.with(|f| f.step)));
    move || {
        let lang = app.lang.get();
        let step = app.frame.with(|f| f.step);
        if let Some(q) = app.question() {
            let answer = app.progress.with(|p| p.answer(&ch.id, &q));
            return view! { <Quiz q=q answer=answer/> }.into_any();
        }
        if app.takeaway_due() {
            return view! { <Takeaway ch=ch/> }.into_any();
        }
        let intro = (step == 0).then(|| ch.intro(lang));
        view! { <p id="ls-learn-intro" class="ls-learn__text">{intro}</p> }.into_any()
    }
}

/// A question: open for a prediction; once chosen, the choice is only noted (nothing says
/// right or wrong while the run has not shown it); at the step that shows it, the verdict.
#[component]
fn Quiz(q: Question, answer: Option<Answer>) -> impl IntoView {
    let app = expect_context::<App>();
    let lang = app.lang.get_untracked();
    let step = app.frame.with_untracked(|f| f.step);
    let shown = step >= q.reveal;
    let options = (0..q.options.len())
        .map(|i| {
            let class = match answer {
                None if shown && i == q.answer => "ls-quiz__opt ls-quiz__opt--right",
                None => "ls-quiz__opt",
                Some(a) if !shown && i == a.chosen => "ls-quiz__opt ls-quiz__opt--chosen",
                Some(_) if !shown => "ls-quiz__opt ls-quiz__opt--other",
                Some(_) if i == q.answer => "ls-quiz__opt ls-quiz__opt--right",
                Some(a) if i == a.chosen => "ls-quiz__opt ls-quiz__opt--wrong",
                Some(_) => "ls-quiz__opt ls-quiz__opt--other",
            };
            let q2 = q.clone();
            view! {
                <button class=class data-i=i data-right=(i == q.answer).to_string() disabled=answer.is_some() || shown
                    aria-pressed=answer.is_some_and(|a| a.chosen == i).to_string()
                    on:click=move |_| app.choose(&q2, i)>{q.option(i, lang).to_string()}</button>
            }
        })
        .collect_view();
    let right = q.option(q.answer, lang);
    let feedback = match answer {
        None if shown => format!("{} {right}", t("learn.shown", lang)),
        None => t("learn.predict", lang).to_string(),
        Some(a) if !shown => format!(
            "{} {} {}",
            t("learn.chosen", lang),
            q.option(a.chosen, lang),
            t("learn.see", lang)
        ),
        Some(a) if a.right => format!("✓ {} {right}", t("learn.right", lang)),
        Some(_) => format!("✗ {} {right}", t("learn.wrong", lang)),
    };
    let state = match answer {
        None => "open",
        Some(_) if !shown => "chosen",
        Some(a) if a.right => "right",
        Some(_) => "wrong",
    };
    view! {
        <div id="ls-quiz" class="ls-quiz" data-state=state data-at=q.at data-reveal=q.reveal class:ls-quiz--shown=shown>
            <p class="ls-quiz__prompt">{q.prompt(lang).to_string()}</p>
            <div class="ls-quiz__options" role="group">{options}</div>
            <p id="ls-quiz-feedback" class="ls-quiz__feedback">{feedback}</p>
        </div>
    }
}

#[component]
fn Takeaway(ch: &'static Chapter) -> impl IntoView {
    let app = expect_context::<App>();
    Effect::new(move |_| app.finish_chapter());
    let lang = app.lang.get();
    let next = app
        .learn
        .get()
        .map(|i| i + 1)
        .filter(|i| *i < learn::course().len());
    view! {
        <div id="ls-learn-takeaway" class="ls-learn__takeaway">
            <strong>{t("learn.takeaway", lang)}": "</strong>{ch.takeaway(lang)}
            {ch.matrix.then(|| view! { <button id="ls-learn-matrix" on:click=move |_| app.open_matrix()>{t("learn.matrix", lang)}</button> })}
            {next.map(|i| view! { <button id="ls-learn-go" on:click=move |_| app.open_chapter(i)>{t("learn.next", lang)}" →"</button> })}
        </div>
    }
}

/// "Break it yourself": a button per recipe, the search's progress, and what it found.
#[component]
fn HuntBody(ch: &'static Chapter) -> impl IntoView {
    let app = expect_context::<App>();
    let Body::Search { hunts } = ch.body() else {
        return ().into_any();
    };
    let buttons = move || {
        let lang = app.lang.get();
        let running = app
            .hunt
            .with(|h| h.as_ref().is_some_and(|h| h.outcome.is_none()));
        hunts
            .iter()
            .enumerate()
            .map(|(i, h)| {
                // A task opens the recipe editor on its starting point; a hunt searches at once.
                let (label, task) = match h.task {
                    Some(start) => (format!("{} {} · {} · {} {}", t("hunt.task", lang), i + 1, start.name(), h.clients, t("hunt.clients", lang)), true),
                    None => (format!("{} · {} {} {}", t("hunt.find", lang), h.recipe.name(), h.clients, t("hunt.clients", lang)), false),
                };
                let go = move |_| if task { app.open_task(i) } else { app.start_hunt(i) };
                view! { <button id=format!("ls-hunt-{i}") class="ls-hunt__go" disabled=running on:click=go>{label}</button> }
            })
            .collect_view()
    };
    let status = move || {
        let lang = app.lang.get();
        app.hunt.with(|h| {
            let h = h.as_ref().filter(|h| h.which != super::learn::RECIPE_HUNT)?;
            let max = h.max;
            let line = match &h.outcome {
                None => text::explored(h.states, lang),
                Some(o) => text::outcome(o, h.ms, lang),
            };
            let found = h.outcome.as_ref().is_some_and(|o| o.counterexample.is_some());
            let done = h.outcome.is_some();
            Some(view! {
                <div id="ls-hunt" class="ls-hunt" data-done=done.to_string() data-found=found.to_string() data-states=h.states>
                    <progress id="ls-hunt-progress" max=max value=h.states></progress>
                    <p id="ls-hunt-result" class="ls-hunt__result">{line}</p>
                    {(!done).then(|| view! { <button id="ls-hunt-stop" on:click=move |_| app.stop_hunt()>{t("hunt.stop", lang)}</button> })}
                    {found.then(|| view! { <button id="ls-hunt-open" on:click=move |_| app.open_counterexample()>{t("hunt.open", lang)}</button> })}
                </div>
            })
        })
    };
    view! {
        // The introduction until a search starts (its result then needs the room).
        {move || app.hunt.with(|h| h.is_none()).then(|| view! { <p class="ls-learn__text">{ch.intro(app.lang.get())}</p> })}
        <div class="ls-hunt__buttons">{buttons}</div>
        {status}
    }
    .into_any()
}

/// The drawer's course tab: every chapter (a click opens it), with the learner's score.
#[component]
pub fn CourseTab() -> impl IntoView {
    let app = expect_context::<App>();
    if !crate::FULL {
        // The lean page hands the course over to the full page, where it lives.
        return view! {
            <p class="ls-lesson">{tr(app, "learn.elsewhere")}</p>
            <button id="ls-learn-start" on:click=move |_| crate::ui::browser::go_full("learn=")>{tr(app, "learn.open")}</button>
        }
        .into_any();
    }
    let list = move || {
        let lang = app.lang.get();
        let here = app.learn.get();
        app.progress.with(|p| {
            learn::course()
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let mark = p.mark(&c.id);
                    let class = match p.verdict(&c.id) {
                        Verdict::Right => "ls-course__mark ls-course__mark--right",
                        Verdict::Wrong => "ls-course__mark ls-course__mark--wrong",
                        Verdict::Mixed | Verdict::None => "ls-course__mark",
                    };
                    view! {
                        <li class:ls-course__here=here == Some(i)>
                            <button class="ls-linkish" data-chapter=c.id.clone() aria-current=(here == Some(i)).then_some("step")
                                on:click=move |_| app.open_chapter(i)>{format!("{}. {}", i + 1, c.title(lang))}</button>
                            <span class=class>{format!(" {mark}")}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let veiled = Memo::new(move |_| {
        let cursor = app.frame.with(|f| f.step);
        app.questions
            .with(|qs| crate::view::learn::veil::story_veiled(qs, cursor))
    });
    let current = move || {
        let ch = app.chapter()?;
        let lang = app.lang.get();
        // The introduction may tell the run's story: it waits while a question is open.
        let intro = match veiled.get() {
            true => t("ui.story_veiled", lang),
            false => ch.intro(lang),
        };
        Some(view! {
            <h3>{ch.title(lang)}</h3>
            <p class="ls-lesson" class:ls-muted=move || veiled.get()>{intro}</p>
            // The takeaway gives the answer away: it appears once the chapter's run has shown it.
            {(app.takeaway_due() || !matches!(ch.body(), Body::Run)).then(|| view! {
                <h3>{t("learn.takeaway", lang)}</h3>
                <p id="ls-course-takeaway" class="ls-lesson">{ch.takeaway(lang)}</p>
            })}
            <button id="ls-learn-leave" on:click=move |_| app.leave_course()>{t("learn.leave", lang)}</button>
        })
    };
    let start = move || {
        (app.learn.get().is_none()).then(|| view! { <button id="ls-learn-start" on:click=move |_| app.open_chapter(0)>{tr(app, "learn.open")}</button> })
    };
    view! {
        {start}
        <h3>{tr(app, "learn.chapters")}</h3>
        <ol id="ls-course" class="ls-course">{list}</ol>
        {current}
    }
    .into_any()
}

/// The top bar's way into the course: the first chapter not yet finished.
#[component]
pub fn LearnButton() -> impl IntoView {
    let app = expect_context::<App>();
    // The lean page has no course: the full page opens it where the reader left it.
    let first_open = move || {
        if !crate::FULL {
            crate::ui::browser::go_full("learn=");
        }
        app.progress.with_untracked(|p| {
            learn::course()
                .iter()
                .position(|c| !p.finished(&c.id))
                .unwrap_or(0)
        })
    };
    move || {
        app.learn.get().is_none().then(|| {
            view! { <button id="ls-learn-open" class="ls-learnbtn" on:click=move |_| app.open_chapter(first_open())>{tr(app, "learn.open")}</button> }
        })
    }
}
