//! The sequence (space-time) diagram of the run so far: one vertical line per client, the server
//! and the resource; each delivered message is an arrow from its send tick to its delivery
//! tick; lost messages end in a cross. The window follows the cursor.

use leptos::prelude::*;

use super::state::App;
use super::tr;
use crate::sim::types::Node;
use crate::view::palette::client_colour;

const WINDOW_TICKS: i64 = 40;
const H: i64 = 280;

/// One arrow, in absolute time coordinates (the window scrolls by a transform).
#[derive(Clone, Debug, PartialEq)]
struct Arrow {
    index: u64,
    x1: i64,
    y1: i64,
    x2: i64,
    y2: i64,
    colour: &'static str,
    lost: bool,
    title: String,
}

/// Pixels per tick.
const SCALE: i64 = (H - 34) / WINDOW_TICKS;

/// The column of a node: the clients, then each server, then the resource.
fn column(n: Node, clients: usize, servers: usize) -> i64 {
    let col = match n {
        Node::Client(c) => c.min(clients),
        Node::Server(s) => clients + usize::from(s).min(servers.saturating_sub(1)),
        Node::Resource => clients + servers,
    };
    28 + 56 * col as i64
}

#[component]
pub fn SequenceDiagram() -> impl IntoView {
    let app = expect_context::<App>();
    let clients = Memo::new(move |_| app.frame.with(|f| f.clients.len().min(24)));
    let servers = Memo::new(move |_| app.frame.with(|f| f.servers.len().max(1)));
    let now = Memo::new(move |_| app.frame.with(|f| f.time as i64));
    let arrows = Memo::new(move |_| {
        let (hide, n, k) = (!app.show_pings.get(), clients.get(), servers.get());
        app.sim.with(|s| {
            let now = s.world().now as i64;
            s.records()[..s.cursor() as usize]
                .iter()
                .rev()
                .filter_map(|r| r.delivered.as_ref().map(|d| (r, d)))
                .take_while(|(r, _)| r.time as i64 >= now - WINDOW_TICKS)
                .filter(|(_, d)| !hide || !(d.label == "ping" || d.label == "pong"))
                .filter(|(_, d)| !matches!((d.from, d.to), (Node::Client(c), _) | (_, Node::Client(c)) if c >= n))
                .map(|(r, d)| {
                    let who = match (d.from, d.to) { (Node::Client(c), _) | (_, Node::Client(c)) => c, _ => 0 };
                    Arrow {
                        index: r.index,
                        x1: column(d.from, n, k),
                        y1: 24 + d.sent_at as i64 * SCALE,
                        x2: column(d.to, n, k),
                        y2: 24 + r.time as i64 * SCALE,
                        colour: client_colour(who),
                        lost: d.lost,
                        title: format!("{} · t={}→{}", d.label, d.sent_at, r.time),
                    }
                })
                .collect::<Vec<_>>()
        })
    });
    let width = move || (((clients.get() + servers.get() + 1) as i64) * 56).max(320);
    let service = Memo::new(move |_| app.frame.with(|f| f.service.look().lane));
    let names = Memo::new(move |_| {
        app.frame.with(|f| match f.servers.len() {
            0 | 1 => vec![(service.get().to_string(), 0)],
            _ => f.servers.iter().map(|s| (s.name.clone(), s.id)).collect(),
        })
    });
    let heads = move || {
        let (n, k) = (clients.get(), servers.get());
        (0..n)
            .map(|c| (format!("C{}", c + 1), Node::Client(c)))
            .chain(
                names
                    .get()
                    .into_iter()
                    .map(|(name, s)| (name, Node::Server(s))),
            )
            .chain([("res".to_string(), Node::Resource)])
            .map(|(label, node)| {
                let x = column(node, n, k);
                view! {
                    <text x=x y="14" text-anchor="middle" class="ls-seq__head">{label}</text>
                    <line x1=x y1="20" x2=x y2=H class="ls-seq__life"/>
                }
            })
            .collect_view()
    };
    let shift = move || {
        format!(
            "translate(0 {})",
            -((now.get() - WINDOW_TICKS).max(0) * SCALE)
        )
    };
    view! {
        <section class="ls-panel ls-sequence" aria-labelledby="ls-seq-h">
            <h2 id="ls-seq-h">{tr(app, "panel.sequence")}</h2>
            <div class="ls-seq__scroll">
                <svg class="ls-seq" viewBox=move || format!("0 0 {} {H}", width()) role="img" aria-label="sequence diagram">
                    <defs>
                        <marker id="ls-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                            <path d="M0 0 L8 4 L0 8 z" fill="currentColor"/>
                        </marker>
                        <clipPath id="ls-seq-clip"><rect x="0" y="20" width="2000" height=H/></clipPath>
                    </defs>
                    {heads}
                    <g clip-path="url(#ls-seq-clip)">
                        <g transform=shift>
                            <For each=move || arrows.get() key=|a| a.index let:a>
                                <g class="ls-seq__msg" class:ls-seq__msg--lost=a.lost>
                                    <title>{a.title}</title>
                                    <line x1=a.x1 y1=a.y1 x2=a.x2 y2=a.y2 stroke=a.colour marker-end="url(#ls-arrow)"/>
                                </g>
                            </For>
                        </g>
                    </g>
                </svg>
            </div>
        </section>
    }
}
