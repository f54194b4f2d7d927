//! The embed API's browser half: inside a frame, Lockstep obeys its parent page's
//! `postMessage` commands (checked by `view::embed`), first those `boot/embed.js` queued
//! before the app ran, and posts `lockstep:ready` (again on `lockstep:hello`),
//! `lockstep:frame` on every change of step, key frame or caption, and `lockstep:playing`,
//! `paused` and `ended`. Sizing the frame to its content and pausing off screen are
//! `boot/embed.js`'s (plain DOM work, no state of the run). Only the fields the API
//! names are read off a message, each after a type and length check, so a hostile message
//! (huge, deep, cyclic, a getter that throws) is refused without being walked or copied.

use js_sys::{JsString, Object, Reflect};
use leptos::prelude::*;
use wasm_bindgen::{prelude::*, JsCast};
use web_sys::{MessageEvent, Window};

use super::browser;
use super::state::{App, FULL};
use super::transport::caption_parts;
use crate::sim::{Lang, Simulation};
use crate::view::embed::{self, Fields, FrameEvent, HostCommand, Refusal};
use crate::view::url;

/// Listens to the parent page and reports to it (nothing happens outside a frame).
pub fn install(app: App) {
    let Some(win) = web_sys::window() else { return };
    let Some(parent) = win.parent().ok().flatten() else {
        return;
    };
    if Object::is(&parent, &win) {
        return;
    }
    let from = parent.clone();
    let listener = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
        if ev.source().is_some_and(|s| Object::is(&s, &from)) {
            obey(app, &ev.data());
        }
    });
    let _ = win.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
    listener.forget();
    report(app, parent.clone());
    // What the host sent before the app ran, in order (the boot script stops queueing now).
    let key = JsValue::from_str("__lockstepQueue");
    if let Ok(q) = Reflect::get(&win, &key) {
        let _ = Reflect::set(&win, &key, &JsValue::NULL);
        if let Some(q) = q.dyn_ref::<js_sys::Array>() {
            q.for_each(&mut |m, _, _| obey(app, &m));
        }
    }
}

/// Reads a message's fields and carries out the command; refusals are logged, never raised.
fn obey(app: App, data: &JsValue) {
    if !data.is_object() {
        return;
    }
    let kind = string(data, "type", embed::MAX_TYPE);
    let query = string(data, "query", embed::MAX_QUERY);
    let fields = Fields {
        kind: kind.as_deref(),
        at: number(data, "at"),
        by: number(data, "by"),
        query: query.as_deref(),
    };
    let clients = app.sim.with_untracked(|s| s.scenario().clients);
    match embed::parse(&fields, clients) {
        Ok(c) => run(app, c),
        Err(Refusal::Reject(why)) => leptos::logging::warn!("Lockstep embed: {why}"),
        Err(Refusal::Ignore) => {}
    }
}

/// A string field no longer than `max` UTF-16 units (longer ones are not copied; `parse`
/// then refuses the message for what is missing).
fn string(data: &JsValue, name: &str, max: usize) -> Option<String> {
    let v = Reflect::get(data, &JsValue::from_str(name)).ok()?;
    let s = v.dyn_ref::<JsString>()?;
    (s.length() as usize <= max).then(|| String::from(s))
}

fn number(data: &JsValue, name: &str) -> Option<f64> {
    Reflect::get(data, &JsValue::from_str(name)).ok()?.as_f64()
}

fn run(app: App, c: HostCommand) {
    match c {
        HostCommand::Seek(n) => {
            app.playing.set(false);
            app.seek(n);
        }
        HostCommand::Step(by) => {
            app.playing.set(false);
            for _ in 0..by.unsigned_abs() {
                if by > 0 && !app.step() {
                    break;
                }
                if by < 0 {
                    app.back();
                }
            }
            app.sync_url();
        }
        HostCommand::Play => app.playing.set(true),
        HostCommand::Pause => {
            app.playing.set(false);
            app.sync_url();
        }
        HostCommand::Load(q) => app.load_query(&q),
        HostCommand::Hello => app.hello.update(|n| *n += 1),
    }
}

impl App {
    /// Opens a query string as a link with it would (its preset or scenario, commands, step
    /// and language). A query with errors is refused whole, so the running simulation stays.
    pub fn load_query(&self, q: &str) {
        let (st, errors) = url::parse(q);
        if !errors.is_empty() {
            for e in errors {
                self.error(format!("lockstep:load: {e}"));
            }
            return;
        }
        if !crate::STUDIO && st.needs_studio() {
            return browser::go_studio(q.trim_start_matches('?'));
        }
        if !FULL && st.needs_full() {
            return browser::go_full(q.trim_start_matches('?'));
        }
        if let Some(l) = st.lang {
            self.set_lang(l);
        }
        if let Some(s) = st.player.speed {
            self.speed.set(s);
        }
        let autoplay = st.player.autoplay;
        self.player.update(|p| p.0 = st.player.clone());
        // A lesson or a chapter opens as its link opens it; anything else leaves learn mode.
        if let Some(l) = st.lesson {
            self.open_lesson(*l);
        } else if let Some(i) = st.learn.as_deref().and_then(crate::view::learn::find) {
            self.open_chapter(i.0);
        } else if self.chapter().is_some() {
            self.leave_course();
        }
        self.preset.set(st.preset);
        self.start(Simulation::from_run(st.run));
        self.seek(st.at);
        if autoplay {
            self.playing.set(true);
        }
    }
}

/// Posts `lockstep:ready` (and again on each `hello`), a `lockstep:frame` whenever what it
/// says changes, and playback's `playing`, `paused` and `ended`.
fn report(app: App, parent: Window) {
    let to = parent.clone();
    Effect::new(move |_| {
        app.hello.track();
        post(&to, &ready_fields(app));
    });
    let to = parent.clone();
    Effect::new(move |last: Option<FrameEvent>| {
        let (key, now) = caption_parts(app);
        let here = app.moments_here();
        let event = app.frame.with(|f| FrameEvent {
            at: f.step,
            steps: f.len,
            length: app.sim.with_untracked(|s| s.complete()).then_some(f.len),
            key_frame: here.first().map(|m| m.evidence()),
            caption: if key.is_empty() {
                now.unwrap_or_default()
            } else {
                key
            },
        });
        if last.as_ref() != Some(&event) {
            post(&to, &frame_fields(&event, app.lang.get_untracked()));
        }
        event
    });
    let to = parent.clone();
    Effect::new(move |was: Option<bool>| {
        let playing = app.playing.get();
        if was.is_some_and(|w| w != playing) {
            let kind = if playing {
                "lockstep:playing"
            } else {
                "lockstep:paused"
            };
            post(&to, &[("type", kind.into()), ("at", step(app))]);
        }
        playing
    });
    Effect::new(move |seen: Option<u32>| {
        let ended = app.player.with(|p| p.1);
        if seen.is_some_and(|s| s != ended) {
            post(
                &parent,
                &[("type", "lockstep:ended".into()), ("at", step(app))],
            );
        }
        ended
    });
}

fn step(app: App) -> JsValue {
    (app.frame.with_untracked(|f| f.step) as f64).into()
}

/// `ready`: the API's version, the run's length (`null` while it is still computed), its key
/// frames (step, kind, caption) and the language.
fn ready_fields(app: App) -> [(&'static str, JsValue); 6] {
    let lang = app.lang.get_untracked();
    let len = app.frame.with_untracked(|f| f.len);
    let finished = app.sim.with_untracked(|s| s.complete());
    let frames = js_sys::Array::new();
    app.moments.with_untracked(|ms| {
        for m in ms {
            let o = Object::new();
            let _ = Reflect::set(&o, &"step".into(), &(m.step as f64).into());
            let _ = Reflect::set(&o, &"kind".into(), &m.evidence().into());
            let _ = Reflect::set(&o, &"caption".into(), &m.caption(lang).into());
            frames.push(&o);
        }
    });
    [
        ("type", "lockstep:ready".into()),
        ("version", embed::VERSION.into()),
        ("steps", (len as f64).into()),
        (
            "length",
            if finished {
                (len as f64).into()
            } else {
                JsValue::NULL
            },
        ),
        ("keyFrames", frames.into()),
        ("lang", lang_name(lang).into()),
    ]
}

fn lang_name(lang: Lang) -> &'static str {
    if lang == Lang::Zh {
        "zh"
    } else {
        "en"
    }
}

fn frame_fields(e: &FrameEvent, lang: Lang) -> [(&'static str, JsValue); 7] {
    [
        ("type", "lockstep:frame".into()),
        ("at", (e.at as f64).into()),
        ("steps", (e.steps as f64).into()),
        (
            "length",
            e.length.map_or(JsValue::NULL, |l| (l as f64).into()),
        ),
        (
            "keyFrame",
            e.key_frame.map_or(JsValue::NULL, JsValue::from_str),
        ),
        ("caption", e.caption.as_str().into()),
        ("lang", lang_name(lang).into()),
    ]
}

fn post(parent: &Window, fields: &[(&str, JsValue)]) {
    let o = Object::new();
    for (k, v) in fields {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    // The host's origin is not known (and a sandboxed embed has none); nothing posted is
    // private: the frame's step and caption, which the reader sees anyway.
    let _ = parent.post_message(&o, "*");
}
