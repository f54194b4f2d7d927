//! The stage on the page: an `<svg>` sized to its box, whose content is the view's scene for
//! the current frame. A change of frame animates from what was drawn to the new scene over
//! the transition's time (requestAnimationFrame; instant with reduced motion); clicks on a
//! client, an entry or a message open their popover.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::{App, Pop};
use super::{browser, popover};
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
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Some(to) = next.get() else { return };
        let Some(el) = svg.get() else { return };
        generation.update_value(|g| *g += 1);
        let from = drawn.get_value().filter(|p| p.w == to.w && p.h == to.h);
        let ms = app.anim_ms.get_value();
        match from {
            Some(from) if ms > 0.0 && !browser::reduced_motion() => {
                animate(el.into(), from, to, ms, drawn, generation)
            }
            _ => {
                el.set_inner_html(&to.svg_body());
                drawn.set_value(Some(to));
            }
        }
    });
    let click = move |ev: leptos::ev::MouseEvent| {
        let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let Ok(Some(hit)) = target.closest("[data-client],[data-entry],[data-msg],[data-server]")
        else {
            app.pop.set(None);
            return;
        };
        let pop = if let Some(c) = hit
            .get_attribute("data-client")
            .and_then(|v| v.parse().ok())
        {
            Pop::Client(c)
        } else if let Some(e) = hit.get_attribute("data-entry") {
            Pop::Entry(e)
        } else if let Some(s) = hit
            .get_attribute("data-server")
            .and_then(|v| v.parse().ok())
        {
            Pop::Server(s)
        } else {
            match hit.get_attribute("data-msg").and_then(|v| v.parse().ok()) {
                Some(m) => Pop::Message(m),
                None => return,
            }
        };
        app.pop.set(Some(pop));
    };
    let label = move || app.frame.with(|f| f.narration.clone());
    view! {
        <div class="ls-stage-host" node_ref=host>
            <svg id="ls-stage" class="ls-stage" node_ref=svg role="img" aria-label=label on:click=click
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
        generation: StoredValue<u64>,
    ) {
        if generation.get_value() != mine {
            return;
        }
        let u = (browser::now() - start) / ms;
        if u >= 1.0 {
            el.set_inner_html(&to.svg_body());
            drawn.set_value(Some(to));
            return;
        }
        let mid = tween(&from, &to, ease(u));
        el.set_inner_html(&mid.svg_moving());
        // Interrupted later, the next transition starts from here.
        drawn.set_value(Some(mid));
        request_animation_frame(move || frame(el, from, to, ms, start, mine, drawn, generation));
    }
    frame(el, from, to, ms, start, mine, drawn, generation);
}
