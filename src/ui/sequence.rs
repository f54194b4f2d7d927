//! The sequence (space-time) diagram of the run so far: one vertical line per client, the server
//! and the resource; each delivered message is an arrow from its send tick to its delivery
//! tick; lost messages end in a cross. The window follows the cursor.

use leptos::prelude::*;

use super::state::App;
use crate::sim::types::Node;
use crate::view::i18n::t;
use crate::view::layout::client_colour;

const WINDOW_TICKS: f64 = 40.0;
const H: f64 = 260.0;

#[component]
pub fn SequenceDiagram() -> impl IntoView {
    let app = expect_context::<App>();
    let body = move || {
        let hide = app.hide_pings.get();
        app.sim.with(|s| {
            let clients = s.world().clients.len().min(24);
            let cols = clients + 2;
            let width = (cols as f64 * 56.0).max(320.0);
            let x = move |n: Node| match n {
                Node::Client(c) => 28.0 + 56.0 * c.min(clients) as f64,
                Node::Service => 28.0 + 56.0 * clients as f64,
                Node::Resource => 28.0 + 56.0 * (clients + 1) as f64,
            };
            let now = s.world().now as f64;
            let t0 = (now - WINDOW_TICKS).max(0.0);
            let y = move |t: u64| 24.0 + (t as f64 - t0).max(0.0) / WINDOW_TICKS * (H - 34.0);
            let cursor = s.cursor() as usize;
            let arrows: Vec<_> = s.records()[..cursor]
                .iter()
                .rev()
                .filter_map(|r| r.delivered.as_ref().map(|d| (r, d)))
                .filter(|(_, d)| !hide || !(d.label == "ping" || d.label == "pong"))
                .take_while(|(r, _)| r.time as f64 >= now - WINDOW_TICKS)
                .filter(|(_, d)| !matches!((d.from, d.to), (Node::Client(c), _) | (_, Node::Client(c)) if c >= clients))
                .map(|(r, d)| {
                    let (x1, y1, x2, y2) = (x(d.from), y(d.sent_at), x(d.to), y(r.time));
                    let who = match (d.from, d.to) { (Node::Client(c), _) | (_, Node::Client(c)) => c, _ => 0 };
                    view! {
                        <g class="ls-seq__msg" class:ls-seq__msg--lost=d.lost>
                            <title>{format!("{} · t={}→{}", d.label, d.sent_at, r.time)}</title>
                            <line x1=x1 y1=y1 x2=x2 y2=y2 stroke=client_colour(who) marker-end="url(#ls-arrow)"/>
                        </g>
                    }
                })
                .collect();
            let heads = (0..clients)
                .map(|c| (format!("C{}", c + 1), Node::Client(c)))
                .chain([("ZK".to_string(), Node::Service), ("res".to_string(), Node::Resource)])
                .map(|(label, n)| view! {
                    <text x=x(n) y="14" text-anchor="middle" class="ls-seq__head">{label}</text>
                    <line x1=x(n) y1="20" x2=x(n) y2=H class="ls-seq__life"/>
                })
                .collect_view();
            view! {
                <svg class="ls-seq" viewBox=format!("0 0 {width} {H}") role="img" aria-label="sequence diagram">
                    <defs>
                        <marker id="ls-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                            <path d="M0 0 L8 4 L0 8 z" fill="currentColor"/>
                        </marker>
                    </defs>
                    {heads}
                    {arrows}
                </svg>
            }
        })
    };
    view! {
        <section class="ls-panel ls-sequence" aria-labelledby="ls-seq-h">
            <h2 id="ls-seq-h">{move || t("panel.sequence", app.lang.get())}</h2>
            <div class="ls-seq__scroll">{body}</div>
        </section>
    }
}
