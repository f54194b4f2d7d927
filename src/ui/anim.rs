//! "Export animation" (issue 23): a range of steps as an animated GIF — or a WebM video where
//! the browser records one — at 800×500 or 640×400, for the places that take images and not
//! iframes. The stills come from `view::anim` (the stage as drawn, tweened between steps, the
//! caption burnt in); each is drawn onto a canvas through an `<img>` and handed to the
//! encoder, one at a time, so the page stays responsive, with a progress bar and a cancel
//! button. The file's size shows before it is saved. Studio page only (the other pages hand
//! over to it).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::App;
use super::tr;
use crate::view::anim::{self, gif::Gif, Source, MAX_STEPS, SIZES};
use crate::view::i18n::t;

mod canvas;
mod video;

use canvas::{Blob, Canvas};

/// Where an export is.
#[derive(Clone, Debug, PartialEq)]
enum Job {
    Idle,
    Running {
        done: u64,
        total: u64,
    },
    Done {
        url: String,
        name: String,
        bytes: usize,
        stills: u64,
    },
    Failed(String),
}

/// What to make.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spec {
    from: u64,
    to: u64,
    w: u32,
    h: u32,
    webm: bool,
    /// Heartbeat steps are kept (by default an animation skips them, as Step does).
    pings: bool,
    /// Playback speed in percent of the stage's (50, 100, 200).
    speed: u32,
    /// 2 for a file twice the size (sharper on high-density screens).
    scale: u32,
    /// A credit line with the run's link in the stage's corner.
    credit: bool,
}

/// The default range: from the key frame before the cursor (or the start) to the cursor, or
/// to the first key frame when the cursor is at the start.
fn default_range(app: App) -> (u64, u64) {
    let at = app.sim.with_untracked(|s| s.cursor());
    let steps: Vec<u64> = app
        .moments
        .with_untracked(|m| m.iter().map(|m| m.step).collect());
    if at == 0 {
        let to = steps.first().copied().unwrap_or(20);
        return (0, to.min(MAX_STEPS - 1));
    }
    let from = steps.iter().rev().find(|s| **s < at).copied().unwrap_or(0);
    (from.max(at.saturating_sub(MAX_STEPS - 1)), at)
}

#[component]
pub fn AnimDialog() -> impl IntoView {
    let app = expect_context::<App>();
    let from = RwSignal::new(0u64);
    let to = RwSignal::new(0u64);
    let size = RwSignal::new(0usize);
    let webm = RwSignal::new(false);
    let pings = RwSignal::new(false);
    let speed = RwSignal::new(100u32);
    let double = RwSignal::new(false);
    let credit = RwSignal::new(false);
    let job = RwSignal::new(Job::Idle);
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        if app.anim.get() {
            let (a, b) = default_range(app);
            from.set(a);
            to.set(b);
        }
    });
    // A new generation stops the export under way (its loop checks after every still).
    let stop = move || generation.update_value(|g| *g += 1);
    let close = move || {
        stop();
        forget(job);
        app.anim.set(false);
    };
    let start = move |_| {
        let (a, b) = (from.get_untracked(), to.get_untracked());
        let len = app.sim.with_untracked(|s| s.len());
        let lang = app.lang.get_untracked();
        if b < a || b > len || b - a >= MAX_STEPS {
            let msg = t("anim.range", lang)
                .replace("{max}", &MAX_STEPS.to_string())
                .replace("{len}", &len.to_string());
            return job.set(Job::Failed(msg));
        }
        let (w, h) = SIZES[size.get_untracked().min(SIZES.len() - 1)];
        forget(job);
        stop();
        let spec = Spec {
            from: a,
            to: b,
            w,
            h,
            webm: webm.get_untracked(),
            pings: pings.get_untracked(),
            speed: speed.get_untracked(),
            scale: if double.get_untracked() { 2 } else { 1 },
            credit: credit.get_untracked(),
        };
        spawn_local(make(app, spec, job, generation));
    };
    let num = move |sig: RwSignal<u64>| {
        move |ev: leptos::ev::Event| sig.set(event_target_value(&ev).trim().parse().unwrap_or(0))
    };
    view! {
        <Show when=move || app.anim.get()>
            <div class="ls-overlay" role="dialog" aria-modal="true" aria-labelledby="ls-anim-h" id="ls-anim-dialog">
                <div class="ls-dialog ls-anim">
                    <h2 id="ls-anim-h">{tr(app, "anim.title")}</h2>
                    <p class="ls-muted">{tr(app, "anim.hint")}</p>
                    <div class="ls-row">
                        <label class="ls-inline">{tr(app, "anim.from")}
                            <input id="ls-anim-from" type="number" min="0" prop:value=move || from.get().to_string() on:change=num(from)/></label>
                        <label class="ls-inline">{tr(app, "anim.to")}
                            <input id="ls-anim-to" type="number" min="0" prop:value=move || to.get().to_string() on:change=num(to)/></label>
                        <label class="ls-inline">{tr(app, "anim.size")}
                            <select id="ls-anim-size" on:change=move |ev| size.set(event_target_value(&ev).parse().unwrap_or(0))>
                                {SIZES.iter().enumerate().map(|(i, (w, h))| view! { <option value=i.to_string()>{format!("{w}×{h}")}</option> }).collect_view()}
                            </select></label>
                        <label class="ls-inline">{tr(app, "anim.format")}
                            <select id="ls-anim-format" on:change=move |ev| webm.set(event_target_value(&ev) == "webm")>
                                <option value="gif">"GIF"</option>
                                {video::supported().then(|| view! { <option value="webm">"WebM"</option> })}
                            </select></label>
                        <label class="ls-inline">{tr(app, "ui.speed")}
                            <select id="ls-anim-speed" on:change=move |ev| speed.set(event_target_value(&ev).parse().unwrap_or(100))>
                                <option value="50">"×½"</option><option value="100" selected>"×1"</option><option value="200">"×2"</option>
                            </select></label>
                    </div>
                    <div class="ls-row">
                        <label class="ls-inline"><input id="ls-anim-double" type="checkbox" on:change=move |_| double.update(|d| *d = !*d)/>{tr(app, "anim.double")}</label>
                        <label class="ls-inline"><input id="ls-anim-pings" type="checkbox" on:change=move |_| pings.update(|d| *d = !*d)/>{tr(app, "anim.pings")}</label>
                        <label class="ls-inline"><input id="ls-anim-credit" type="checkbox" on:change=move |_| credit.update(|d| *d = !*d)/>{tr(app, "anim.credit")}</label>
                    </div>
                    <Progress job=job/>
                    <div class="ls-row">
                        <button id="ls-anim-make" on:click=start disabled=move || matches!(job.get(), Job::Running { .. })>{tr(app, "anim.make")}</button>
                        <button id="ls-anim-cancel" on:click=move |_| { stop(); job.set(Job::Idle); }
                            disabled=move || !matches!(job.get(), Job::Running { .. })>{tr(app, "anim.cancel")}</button>
                        <button id="ls-anim-close" on:click=move |_| close()>{tr(app, "ui.close")}</button>
                    </div>
                </div>
            </div>
        </Show>
    }
}

/// Frees a finished file's object URL.
fn forget(job: RwSignal<Job>) {
    if let Job::Done { url, .. } = job.get_untracked() {
        let _ = web_sys::Url::revoke_object_url(&url);
    }
    job.set(Job::Idle);
}

/// The progress bar while it runs; the file (size, a preview, Save) once it is made.
#[component]
fn Progress(job: RwSignal<Job>) -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        let lang = app.lang.get();
        match job.get() {
            Job::Idle => ().into_any(),
            Job::Running { done, total } => view! {
                <div class="ls-anim__progress" role="status">
                    <progress id="ls-anim-progress" max=total.to_string() value=done.to_string()></progress>
                    <span>{t("anim.progress", lang).replace("{n}", &done.to_string()).replace("{m}", &total.to_string())}</span>
                </div>
            }.into_any(),
            Job::Done { url, name, bytes, stills } => view! {
                <div class="ls-anim__done">
                    <p id="ls-anim-result" data-bytes=bytes.to_string() data-stills=stills.to_string()>
                        {format!("{name} · {} · {}", human(bytes), t("anim.stills", lang).replace("{n}", &stills.to_string()))}
                    </p>
                    {name.ends_with(".gif").then(|| view! { <img class="ls-anim__preview" src=url.clone() alt=t("anim.preview", lang)/> })}
                    <a id="ls-anim-save" class="ls-button" href=url download=name>{t("anim.save", lang)}</a>
                </div>
            }.into_any(),
            Job::Failed(e) => view! { <p id="ls-anim-error" class="ls-anim__error" role="alert">{e}</p> }.into_any(),
        }
    }
}

/// A size in bytes as a reader says it: "812 KB", "1.4 MB".
fn human(bytes: usize) -> String {
    if bytes >= 1_000_000 {
        format!("{}.{} MB", bytes / 1_000_000, bytes % 1_000_000 / 100_000)
    } else {
        format!("{} KB", bytes.div_ceil(1000))
    }
}

/// Makes the file: every still drawn onto a canvas and encoded; stops when `generation`
/// moves on (cancel, close, a new export).
async fn make(app: App, spec: Spec, job: RwSignal<Job>, generation: StoredValue<u64>) {
    let mine = generation.get_value();
    let mut sim = app.sim.with_untracked(|s| s.clone());
    let plan = app.plan.get_untracked();
    let moments = app.moments.get_untracked();
    let preset = app.preset.get_untracked();
    let lang = app.lang.get_untracked();
    let link = spec
        .credit
        .then(|| format!("Lockstep · {}", app.share_url(false)));
    let src = Source {
        plan: &plan,
        moments: &moments,
        preset: &preset,
        lang,
        scale: spec.scale,
        credit: link.as_deref(),
    };
    // Heartbeats are skipped (as Step skips them), but never the range's ends or a key frame.
    let records = sim.records();
    let steps: Vec<u64> = (spec.from..=spec.to)
        .filter(|&s| {
            spec.pings
                || s == spec.from
                || s == spec.to
                || moments.iter().any(|m| m.step == s)
                || !records
                    .get((s as usize).wrapping_sub(1))
                    .is_some_and(|r| r.heartbeat)
        })
        .collect();
    let total = anim::count(steps.len() as u64);
    job.set(Job::Running { done: 0, total });
    let Some(canvas) = Canvas::new(spec.w * spec.scale, spec.h * spec.scale) else {
        return job.set(Job::Failed(t("anim.no_canvas", lang).to_string()));
    };
    let mut out = if spec.webm {
        match video::Recorder::new(&canvas.el) {
            Some(r) => Out::Webm(r),
            None => return job.set(Job::Failed(t("anim.no_canvas", lang).to_string())),
        }
    } else {
        match Gif::new(spec.w, spec.h) {
            Ok(g) => Out::Gif(g),
            Err(e) => return job.set(Job::Failed(e)),
        }
    };
    let (mut prev, mut done, mut last) = (None, 0u64, String::new());
    for s in steps {
        sim.seek(s);
        let (stills, scene) = anim::step(&sim, &src, prev.as_ref(), spec.w, spec.h);
        prev = Some(scene);
        for still in stills {
            last.clone_from(&still.svg);
            let ms = still.ms * 100 / spec.speed.max(1);
            let drawn = match canvas.draw(&still.svg).await {
                Ok(()) => out.push(&canvas, ms).await,
                Err(e) => Err(e),
            };
            // Cancelled (or closed, or started again) while the still was drawn: stop quietly.
            if generation.get_value() != mine {
                return;
            }
            if let Err(e) = drawn {
                return job.set(Job::Failed(e));
            }
            done += 1;
            job.set(Job::Running { done, total });
        }
    }
    // A recorder gives a frame the time until the next one: the last still is drawn once more
    // (a canvas that was not drawn on gives no frame), so that its hold is in the video.
    if matches!(out, Out::Webm(_)) && canvas.draw(&last).await.is_ok() {
        let _ = out.push(&canvas, 40).await;
    }
    let (bytes, mime, ext) = match out {
        Out::Gif(g) => match g.finish() {
            Ok(b) => (Blob::Bytes(b), "image/gif", "gif"),
            Err(e) => return job.set(Job::Failed(e)),
        },
        Out::Webm(r) => match r.finish().await {
            Some(b) => (Blob::Js(b), "video/webm", "webm"),
            None => return job.set(Job::Failed(t("anim.no_canvas", lang).to_string())),
        },
    };
    if generation.get_value() != mine {
        return;
    }
    let name = format!(
        "lockstep-{}-{}-{}.{ext}",
        if preset.is_empty() { "run" } else { &preset },
        spec.from,
        spec.to
    );
    match bytes.url(mime) {
        Some((url, size)) => job.set(Job::Done {
            url,
            name,
            bytes: size,
            stills: done,
        }),
        None => job.set(Job::Failed(t("anim.no_canvas", lang).to_string())),
    }
}

/// Where the stills go.
enum Out {
    Gif(Gif),
    Webm(video::Recorder),
}

impl Out {
    async fn push(&mut self, canvas: &Canvas, ms: u32) -> Result<(), String> {
        match self {
            Out::Gif(g) => g.push(&canvas.pixels()?, ms),
            Out::Webm(r) => {
                r.frame(ms).await;
                Ok(())
            }
        }
    }
}
