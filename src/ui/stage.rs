//! The stage on the page: an `<svg>` sized to its box, whose content is the view's scene for
//! the current frame. A change of frame animates from what was drawn to the new scene over
//! the transition's time (requestAnimationFrame; instant with reduced motion); clicks on a
//! client, an entry or a message open their popover (and so do keys: [`super::stagekeys`]).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::stagekeys::pop_of;
use super::state::App;
use super::{browser, popover, stagekeys};
use crate::view::i18n::t;
use crate::view::patch::{self, Drawn, Edit, Patch};
use crate::view::scene::Scene;
use crate::view::stage::{scene, Opts};
use crate::view::tween::tween;

/// Ease in and out, so motion starts and ends softly.
fn ease(u: f64) -> f32 {
    let u = u.clamp(0.0, 1.0);
    (u * u * (3.0 - 2.0 * u)) as f32
}

#[component]
pub fn Stage() -> impl IntoView {
    let app = expect_context::<App>();
    let host: NodeRef<leptos::html::Div> = NodeRef::new();
    let svg: NodeRef<leptos::svg::Svg> = NodeRef::new();
    let size = RwSignal::new((0u32, 0u32));
    browser::observe_size(host, move |w, h| size.set((w, h)));
    let next = Memo::new(move |_| {
        let (w, h) = size.get();
        (w > 0 && h > 0).then(|| {
            app.frame.with(|f| {
                scene(
                    f,
                    &Opts {
                        w,
                        h,
                        lang: app.lang.get(),
                    },
                )
            })
        })
    });
    let drawn: StoredValue<Option<Scene>> = StoredValue::new(None);
    let shown: StoredValue<Drawn> = StoredValue::new(Vec::new());
    let generation = StoredValue::new(0u64);
    let first = StoredValue::new(true);
    Effect::new(move |_| {
        let Some(to) = next.get() else { return };
        let Some(el) = svg.get() else { return };
        generation.update_value(|g| *g += 1);
        let from = drawn.get_value().filter(|p| p.w == to.w && p.h == to.h);
        let ms = app.anim_ms.get_value();
        match from {
            Some(from) if ms > 0.0 && !browser::reduced_motion() => {
                animate(el.into(), from, to, ms, drawn, shown, generation)
            }
            _ => {
                redraw(&el, patch::markup(&to, false), shown);
                drawn.set_value(Some(to));
            }
        }
        if first.get_value() {
            // The first draw takes the poster away (boot/poster.js).
            first.set_value(false);
            browser::drop_poster();
        }
    });
    let click = move |ev: leptos::ev::MouseEvent| {
        let hit = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| {
                t.closest("[data-client],[data-entry],[data-msg],[data-server]")
                    .ok()
                    .flatten()
            });
        app.pop.set(hit.as_ref().and_then(pop_of));
    };
    // A popover closing gives focus back to the shape it was opened from.
    Effect::new(move |was: Option<bool>| {
        let open = app.pop.with(Option::is_some);
        if let (Some(true), false, Some(el)) = (was, open, svg.get_untracked()) {
            request_animation_frame(move || stagekeys::restore(&el));
        }
        open
    });
    // The picture's text alternative follows the frame; its things are the named stops.
    let label = move || {
        app.frame.with(|f| {
            let step = t("a11y.step", app.lang.get()).replace("{n}", &f.step.to_string());
            format!("{step} {}", f.narration)
        })
    };
    view! {
        <div class="ls-stage-host" node_ref=host>
            <svg id="ls-stage" class="ls-stage" node_ref=svg role="group" tabindex="-1" aria-label=label on:click=click
                width=move || size.get().0.to_string() height=move || size.get().1.to_string()
                viewBox=move || format!("0 0 {} {}", size.get().0, size.get().1)
                font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', sans-serif"></svg>
            <popover::Popover size=size/>
        </div>
    }
}

/// Tweens from `from` to `to` over `ms`, one animation frame at a time; a newer frame
/// (another `generation`) takes over from wherever this one got to.
fn animate(
    el: web_sys::Element,
    from: Scene,
    to: Scene,
    ms: f64,
    drawn: StoredValue<Option<Scene>>,
    shown: StoredValue<Drawn>,
    generation: StoredValue<u64>,
) {
    let mine = generation.get_value();
    let start = browser::now();
    fn frame(
        el: web_sys::Element,
        from: Scene,
        to: Scene,
        ms: f64,
        start: f64,
        mine: u64,
        drawn: StoredValue<Option<Scene>>,
        shown: StoredValue<Drawn>,
        generation: StoredValue<u64>,
    ) {
        if generation.get_value() != mine {
            return;
        }
        let u = (browser::now() - start) / ms;
        if u >= 1.0 {
            redraw(&el, patch::markup(&to, false), shown);
            drawn.set_value(Some(to));
            return;
        }
        let mid = tween(&from, &to, ease(u));
        redraw(&el, patch::markup(&mid, true), shown);
        // Interrupted later, the next transition starts from here.
        drawn.set_value(Some(mid));
        request_animation_frame(move || {
            frame(el, from, to, ms, start, mine, drawn, shown, generation)
        });
    }
    frame(el, from, to, ms, start, mine, drawn, shown, generation);
}

/// Brings the `<svg>`'s children from what `shown` says they are to `new`: only the items that
/// changed are parsed again (the whole content when most did, or when the children are not
/// what was last drawn); then the keyboard's stop is put back on what it was on.
fn redraw(el: &web_sys::Element, new: Drawn, shown: StoredValue<Drawn>) {
    stagekeys::note_focus(el);
    let kids = el.children();
    let patch = shown.with_value(|old| match kids.length() as usize == old.len() {
        true => patch::diff_with(old, &new, !stagekeys::holds_focus(el)),
        false => patch::diff(&Vec::new(), &new),
    });
    let full = || new.iter().map(|(_, m)| m.as_str()).collect::<String>();
    match patch {
        Patch::Full(all) => el.set_inner_html(&all),
        Patch::Edits { remove, edits } => {
            for i in remove.iter().rev() {
                if let Some(k) = kids.item(*i as u32) {
                    k.remove();
                }
            }
            apply_edits(el, &kids, edits);
            if kids.length() as usize != new.len() {
                el.set_inner_html(&full());
            }
        }
    }
    shown.set_value(new);
    stagekeys::after_redraw(el);
}

/// Walks the new drawing order: keeps, replaces in place, inserts runs of new items at once.
fn apply_edits(el: &web_sys::Element, kids: &web_sys::HtmlCollection, edits: Vec<Edit>) {
    let active = leptos::prelude::document().active_element();
    let (mut at, mut pending, mut n) = (0u32, String::new(), 0u32);
    for e in edits {
        if let Edit::Insert(m) = e {
            pending.push_str(&m);
            n += 1;
            continue;
        }
        if n > 0 {
            if let Some(k) = kids.item(at) {
                let _ = k.insert_adjacent_html("beforebegin", &pending);
            }
            (at, n) = (at + n, 0);
            pending.clear();
        }
        if let (Edit::Replace(m), Some(k)) = (e, kids.item(at)) {
            // The focused shape changes in place; any other is parsed anew.
            if active.as_ref() != Some(&k) || !stagekeys::morph(&k, &m) {
                k.set_outer_html(&m);
            }
        }
        at += 1;
    }
    if n > 0 {
        let _ = el.insert_adjacent_html("beforeend", &pending);
    }
}
