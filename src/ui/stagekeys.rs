//! The stage as a keyboard surface. The stage is one tab stop (roving: the thing last reached,
//! else the first client); ↑/↓ walk its clients, servers, entries and messages in flight,
//! Enter or Space opens the popover a click opens (focus goes into it, Escape brings it back),
//! and letters strike the frequent faults at the focused client or server. A redraw that
//! replaces the focused shape gives focus to its successor, so stepping keeps your place.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::{App, Pop};
use crate::sim::Command;

/// How long a popover closed from the keyboard stays after focus has left it.
const REMOVE_AFTER_MS: u64 = 150;

/// The kinds of thing, in the order they are walked.
const KINDS: [&str; 4] = ["client:", "server:", "entry:", "msg:"];

thread_local! {
    /// The thing that holds the stage's tab stop (`client:1`), and the shape that last had
    /// focus on it (the page has one stage).
    static HERE: RefCell<(Option<String>, Option<web_sys::Element>)> = const { RefCell::new((None, None)) };
    /// The open popover was opened from the keyboard (closing it gives focus back).
    static BY_KEY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn current() -> Option<String> {
    HERE.with(|h| h.borrow().0.clone())
}

fn hold(e: &web_sys::Element) {
    HERE.with(|h| *h.borrow_mut() = (id_of(e), Some(e.clone())));
}

/// What a click or Enter on a shape opens.
pub fn pop_of(hit: &web_sys::Element) -> Option<Pop> {
    let attr = |k: &str| hit.get_attribute(k);
    if let Some(c) = attr("data-client").and_then(|v| v.parse().ok()) {
        return Some(Pop::Client(c));
    }
    if let Some(e) = attr("data-entry") {
        return Some(Pop::Entry(e));
    }
    if let Some(s) = attr("data-server").and_then(|v| v.parse().ok()) {
        return Some(Pop::Server(s));
    }
    attr("data-msg")
        .and_then(|v| v.parse().ok())
        .map(Pop::Message)
}

/// The stage's stops in walking order: by kind, then as drawn.
fn stops(svg: &web_sys::Element) -> Vec<web_sys::Element> {
    let mut all = Vec::new();
    for kind in KINDS {
        let Ok(found) = svg.query_selector_all(&format!("[data-focus^=\"{kind}\"]")) else {
            continue;
        };
        all.extend((0..found.length()).filter_map(|i| found.item(i)?.dyn_into().ok()));
    }
    all
}

fn id_of(e: &web_sys::Element) -> Option<String> {
    e.get_attribute("data-focus")
}

fn focus(e: &web_sys::Element) {
    if let Some(s) = e.dyn_ref::<web_sys::SvgElement>() {
        let _ = s.focus();
    }
}

/// Whether focus is nowhere (the focused shape was replaced or removed).
fn focus_lost() -> bool {
    let doc = leptos::prelude::document();
    match doc.active_element() {
        None => true,
        Some(a) => doc
            .body()
            .is_some_and(|b| a == *b.unchecked_ref::<web_sys::Element>()),
    }
}

/// Brings the focused shape to `markup` in place (its attributes and its `<title>`), so that
/// it keeps focus as it moves and a screen reader hears a changed name, not a new object;
/// false when the markup is another kind of element (the caller replaces it).
pub fn morph(old: &web_sys::Element, markup: &str) -> bool {
    let doc = leptos::prelude::document();
    let Ok(holder) = doc.create_element_ns(Some("http://www.w3.org/2000/svg"), "g") else {
        return false;
    };
    holder.set_inner_html(markup);
    let Some(new) = holder.first_element_child() else {
        return false;
    };
    if new.tag_name() != old.tag_name() {
        return false;
    }
    let names = |e: &web_sys::Element| -> Vec<String> {
        e.get_attribute_names()
            .iter()
            .filter_map(|n| n.as_string())
            .collect()
    };
    let keep = names(&new);
    for gone in names(old)
        .into_iter()
        .filter(|n| !keep.contains(n) && n != "tabindex")
    {
        let _ = old.remove_attribute(&gone);
    }
    for n in keep.iter().filter(|n| *n != "tabindex") {
        let v = new.get_attribute(n).unwrap_or_default();
        if old.get_attribute(n).as_deref() != Some(v.as_str()) {
            let _ = old.set_attribute(n, &v);
        }
    }
    if old.inner_html() != new.inner_html() {
        old.set_inner_html(&new.inner_html());
    }
    true
}

/// Before a redraw: a shape on the stage with focus (a click, Tab, an arrow) is the stop.
pub fn note_focus(svg: &web_sys::Element) {
    if let Some(a) = focused_shape(svg) {
        hold(&a);
    }
}

/// The stage's shape that has focus now, if one has.
fn focused_shape(svg: &web_sys::Element) -> Option<web_sys::Element> {
    let a = leptos::prelude::document().active_element()?;
    (a != *svg && svg.contains(Some(&a)) && id_of(&a).is_some()).then_some(a)
}

/// Whether keyboard focus is on one of the stage's shapes now.
pub fn holds_focus(svg: &web_sys::Element) -> bool {
    focused_shape(svg).is_some()
}

/// After a redraw: the tab stop is on the current thing (else the first), and focus a redraw
/// took from a shape moves to the shape that now draws the same thing.
pub fn after_redraw(svg: &web_sys::Element) {
    let all = stops(svg);
    let want = current();
    let stop = all
        .iter()
        .find(|e| want.is_some() && id_of(e) == want)
        .or_else(|| all.first());
    for e in &all {
        let tab = if Some(e) == stop { "0" } else { "-1" };
        if e.get_attribute("tabindex").as_deref() != Some(tab) {
            let _ = e.set_attribute("tabindex", tab);
        }
    }
    let replaced = HERE.with(|h| h.borrow().1.as_ref().is_some_and(|e| !e.is_connected()));
    if let (true, Some(stop)) = (replaced && focus_lost(), stop) {
        if id_of(stop) == want {
            focus(stop);
            hold(stop);
        }
    }
}

/// A popover closed: focus goes back to the shape it was opened from, if it is nowhere.
pub fn restore(svg: &web_sys::Element) {
    let opened_here = HERE.with(|h| h.borrow().1.is_some());
    let Some(want) = current().filter(|_| opened_here && focus_lost()) else {
        return;
    };
    if let Some(e) = stops(svg)
        .into_iter()
        .find(|e| id_of(e).as_deref() == Some(&want))
    {
        focus(&e);
        hold(&e);
    }
}

/// Closes the popover. Focus inside it goes back to the shape it was opened from first, while
/// the dialog still exists, so a screen reader follows focus out of the dialog to the shape.
pub fn close(app: App) {
    let doc = leptos::prelude::document();
    let inside = doc
        .active_element()
        .is_some_and(|a| a.closest("#ls-pop").ok().flatten().is_some());
    let by_key = BY_KEY.with(|k| k.replace(false));
    let svg = doc.get_element_by_id("ls-stage");
    let back = svg.filter(|_| inside && by_key).and_then(|svg| {
        let want = current();
        stops(&svg).into_iter().find(|e| id_of(e) == want)
    });
    match back {
        Some(e) => {
            focus(&e);
            hold(&e);
            // The dialog goes a moment later: Chromium tells a screen reader of the focus move
            // in one update and of the dialog's removal in a later one (in the same update
            // Orca handles the removal first, moves its own focus to the first shape, and then
            // hears nothing when focus lands there).
            set_timeout(
                move || app.pop.set(None),
                std::time::Duration::from_millis(REMOVE_AFTER_MS),
            );
        }
        None => app.pop.set(None),
    }
}

/// A key pressed on the page: handled here (true) when a shape on the stage has focus and
/// the key means something to it.
pub fn key(app: App, ev: &web_sys::KeyboardEvent) -> bool {
    let Some(me) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let (Some(id), Ok(Some(svg))) = (id_of(&me), me.closest("#ls-stage")) else {
        return false;
    };
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
        return false;
    }
    let handled = match ev.key().as_str() {
        "ArrowDown" | "ArrowUp" => {
            let all = stops(&svg);
            let at = all.iter().position(|e| *e == me).unwrap_or(0);
            let n = all.len().max(1);
            let next = if ev.key() == "ArrowDown" {
                at + 1
            } else {
                at + n - 1
            } % n;
            if let Some(e) = all.get(next) {
                focus(e);
                hold(e);
            }
            true
        }
        "Enter" | " " => {
            hold(&me);
            open(app, &me);
            true
        }
        key => strike(app, &id, key),
    };
    if handled {
        ev.prevent_default();
    }
    handled
}

/// Opens the shape's popover and, once it is drawn, moves focus into it: its first action,
/// else its close button (a screen reader then says the dialog, its name and its fields).
fn open(app: App, me: &web_sys::Element) {
    let Some(pop) = pop_of(me) else { return };
    BY_KEY.with(|k| k.set(true));
    app.pop.set(Some(pop));
    request_animation_frame(|| {
        let doc = leptos::prelude::document();
        let first = doc
            .query_selector("#ls-pop .ls-pop__acts button")
            .ok()
            .flatten()
            .or_else(|| doc.query_selector("#ls-pop .ls-pop__close").ok().flatten());
        if let Some(h) = first.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = h.focus();
        }
    });
}

/// The fault (or action) a letter strikes at the focused client or server, as its popover
/// offers it: c crash, p pause, l cut or heal its link, x end its session, r restart a
/// server from its disk, a acquire, u release.
fn strike(app: App, id: &str, key: &str) -> bool {
    let cmd = if let Some(c) = id.strip_prefix("client:").and_then(|c| c.parse().ok()) {
        client_command(app, c, key)
    } else if let Some(s) = id.strip_prefix("server:").and_then(|s| s.parse().ok()) {
        server_command(app, s, key)
    } else {
        None
    };
    match cmd {
        Some(cmd) => {
            app.inject(cmd);
            true
        }
        None => false,
    }
}

fn client_command(app: App, client: usize, key: &str) -> Option<Command> {
    let partitioned = app
        .frame
        .with_untracked(|f| f.clients.get(client).is_some_and(|c| c.partitioned));
    let ends = app
        .frame
        .with_untracked(|f| f.service.look().end_session.is_some());
    // An observer reads; it neither acquires nor releases.
    let observer = app
        .sim
        .with_untracked(|s| s.scenario().observers.contains(&client));
    Some(match key {
        "c" => Command::Crash { client },
        "p" => Command::Pause {
            client,
            ticks: app.pause_ticks.get_untracked(),
        },
        "l" if partitioned => Command::Heal { client },
        "l" => Command::Partition { client },
        "x" if ends => Command::Expire { client },
        "a" if !observer => Command::Acquire { client },
        "u" if !observer => Command::Release { client },
        _ => return None,
    })
}

fn server_command(app: App, server: crate::services::ServerId, key: &str) -> Option<Command> {
    let down = app
        .frame
        .with_untracked(|f| f.servers.iter().any(|v| v.id == server && v.down));
    Some(match key {
        "c" if !down => Command::CrashServer { server },
        "r" if down => Command::RestartServer {
            server,
            keep_disk: true,
        },
        "p" if !down => Command::PauseServer {
            server,
            ticks: app.pause_ticks.get_untracked(),
        },
        _ => return None,
    })
}
