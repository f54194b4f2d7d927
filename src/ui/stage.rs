//! The stage (SVG): client lanes on the left, the ZooKeeper server and its znode tree on the
//! right, watches as dashed edges, messages in flight as dots placed by their send and delivery
//! ticks, and the protected resource below the server. Every element is keyed by what it shows,
//! so a step only touches the elements that changed.

use leptos::prelude::*;

use super::state::App;
use super::tr;
use crate::services::{Lifetime, ServiceKind};
use crate::view::frame::Frame;
use crate::view::layout::{client_colour, Stage, CLIENT_W, CLIENT_X, SERVER_W, SERVER_X, WIDTH};

/// One drawable item: a key (everything it shows) plus what to draw.
#[derive(Clone, Debug, PartialEq)]
struct Lane {
    key: String,
    id: usize,
    y: i64,
    h: i64,
    label: Option<String>,
    class: String,
    cut: bool,
}

#[derive(Clone, Debug, PartialEq)]
struct Edge {
    key: String,
    d: String,
    colour: &'static str,
    class: &'static str,
    tag: String,
}

#[derive(Clone, Debug, PartialEq)]
struct Row {
    key: String,
    path: String,
    x: i64,
    y: i64,
    w: i64,
    fill: &'static str,
    prefix: String,
    suffix: String,
    stat: String,
    tip: String,
    class: String,
}

#[derive(Clone, Debug, PartialEq)]
struct Dot {
    key: String,
    id: u64,
    x: i64,
    y: i64,
    colour: &'static str,
    lost: bool,
    label: String,
}

#[component]
pub fn StageView() -> impl IntoView {
    let app = expect_context::<App>();
    let stage = Memo::new(move |_| {
        app.frame
            .with(|f| Stage::new(f.clients.len(), f.tree.len() + f.removed.len()))
    });
    let lanes = Memo::new(move |_| app.frame.with(|f| lanes(f, &stage.get())));
    let edges = Memo::new(move |_| app.frame.with(|f| edges(f, &stage.get())));
    let rows = Memo::new(move |_| app.frame.with(|f| rows(f, &stage.get())));
    let dots = Memo::new(move |_| app.frame.with(|f| dots(f, &stage.get())));
    let frame_box = move || {
        let s = stage.get();
        let top = s.rows.first().copied().unwrap_or(58) - 22;
        (top, s.resource_y - top - 16, s.resource_y)
    };
    view! {
        <svg id="ls-stage" class="ls-stage" viewBox=move || format!("0 0 {WIDTH} {}", stage.get().height)
            role="img" aria-label=tr(app, "panel.tree")>
            <text x=SERVER_X y="24" class="ls-stage__title">{move || app.frame.with(|f| if f.service == ServiceKind::ZooKeeper { "ZooKeeper · /".to_string() } else { format!("{} · {}", f.service.name(), f.recipe) })}</text>
            <text x=CLIENT_X y="24" class="ls-stage__title">{tr(app, "panel.clients")}</text>
            <text x=SERVER_X + SERVER_W y="24" text-anchor="end" class="ls-stage__meta">{move || app.frame.with(|f| match f.stamp { Some((k, v)) => format!("t = {} · {k} {v}", f.time), None => format!("t = {}", f.time) })}</text>
            <rect x=SERVER_X y=move || frame_box().0 width=SERVER_W height=move || frame_box().1 rx="8" class="ls-server"/>
            <For each=move || lanes.get() key=|l| l.key.clone() let:l>{lane_view(l)}</For>
            <For each=move || edges.get() key=|e| e.key.clone() let:e>
                <path d=e.d class=e.class stroke=e.colour data-watch=e.tag/>
            </For>
            <For each=move || rows.get() key=|r| r.key.clone() let:r>{row_view(app, r)}</For>
            <g class="ls-resource" class:ls-resource--fenced=move || app.frame.with(|f| f.fencing)>
                <rect x=SERVER_X y=move || frame_box().2 width=SERVER_W height="44" rx="8"/>
                <text x=SERVER_X + 10 y=move || frame_box().2 + 27>
                    {move || app.frame.with(|f| format!("resource = {}   token ≥ {}", f.value, f.highest_token))}
                </text>
            </g>
            <For each=move || dots.get() key=|d| d.key.clone() let:d>
                <g class="ls-msg" class:ls-msg--lost=d.lost data-msg=d.id>
                    <title>{d.label}</title>
                    <circle cx=d.x cy=d.y r="5" fill=d.colour/>
                    {d.lost.then(|| view! { <text x=d.x + 7 y=d.y - 5 class="ls-msg__x">"✕"</text> })}
                </g>
            </For>
        </svg>
    }
}

fn lanes(f: &Frame, s: &Stage) -> Vec<Lane> {
    f.clients
        .iter()
        .map(|c| {
            let (y, h) = (s.lane(c.id), (s.lane_h - 6).max(2));
            let label = (s.lane_h >= 14).then(|| format!("{} · {}", c.name, c.phase));
            let class = format!(
                "ls-lane ls-lane--{} ls-lane--{}",
                c.phase_class, c.state_class
            );
            let key = format!(
                "{}|{y}|{h}|{}|{class}|{}",
                c.id,
                label.as_deref().unwrap_or(""),
                c.partitioned
            );
            Lane {
                key,
                id: c.id,
                y,
                h,
                label,
                class,
                cut: c.partitioned,
            }
        })
        .collect()
}

fn lane_view(l: Lane) -> impl IntoView {
    view! {
        <g class=l.class data-client=l.id>
            <line x1=CLIENT_X + CLIENT_W y1=l.y x2=SERVER_X y2=l.y class="ls-lane__wire" class:ls-lane__wire--cut=l.cut/>
            <rect x=CLIENT_X y=l.y - l.h / 2 width=CLIENT_W height=l.h rx="4" fill=client_colour(l.id) class="ls-lane__box"/>
            {l.label.map(|text| view! { <text x=CLIENT_X + 6 y=l.y + 4 class="ls-lane__label">{text}</text> })}
        </g>
    }
}

fn edge_path(s: &Stage, client: usize, ry: i64) -> String {
    let (x0, y0) = (CLIENT_X + CLIENT_W, s.lane(client));
    let mid = SERVER_X - 70;
    format!("M{x0} {y0} C {mid} {y0}, {mid} {ry}, {} {ry}", SERVER_X + 6)
}

fn edges(f: &Frame, s: &Stage) -> Vec<Edge> {
    let mut v: Vec<Edge> = f
        .watches
        .iter()
        .filter_map(|w| {
            let d = edge_path(s, w.client, s.row_of(f, &w.path)?);
            let class = if w.child {
                "ls-watch ls-watch--child"
            } else {
                "ls-watch"
            };
            let tag = format!("C{}:{}", w.client + 1, w.path);
            Some(Edge {
                key: format!("{tag}|{class}|{d}"),
                d,
                colour: client_colour(w.client),
                class,
                tag,
            })
        })
        .collect();
    for (c, path) in &f.fired {
        let ghost = f
            .removed
            .iter()
            .position(|p| p == path)
            .and_then(|i| s.rows.get(f.tree.len() + i).copied());
        if let Some(ry) = s.row_of(f, path).or(ghost) {
            let d = edge_path(s, *c, ry);
            v.push(Edge {
                key: format!("fired|{}|{d}", f.step),
                d,
                colour: client_colour(*c),
                class: "ls-watch ls-watch--fired",
                tag: String::new(),
            });
        }
    }
    v
}

fn rows(f: &Frame, s: &Stage) -> Vec<Row> {
    let live = f.tree.iter().zip(&s.rows).map(|(r, y)| {
        let x = SERVER_X + 8 + 16 * r.depth as i64;
        let (prefix, suffix) = split_suffix(r.split_name());
        let tip = r.tip();
        let mut class = String::from("ls-znode");
        let life = r.lifetime();
        let marks = [
            (
                life != Lifetime::Persistent && life != Lifetime::Container,
                " ls-znode--ephemeral",
            ),
            (!suffix.is_empty(), " ls-znode--sequential"),
            (life == Lifetime::Container, " ls-znode--container"),
            (r.fresh, " ls-znode--fresh"),
        ];
        for (on, c) in marks {
            if on {
                class.push_str(c);
            }
        }
        let stat = r.stat();
        let fill = r.owner.map_or("var(--ls-persistent)", client_colour);
        Row {
            key: format!("{tip}|{y}|{class}|{}", f.step * u64::from(r.fresh)),
            path: r.id.clone(),
            x,
            y: *y,
            w: SERVER_W - 16 - 16 * r.depth as i64,
            fill,
            prefix,
            suffix,
            stat,
            tip,
            class,
        }
    });
    let ghosts = f
        .removed
        .iter()
        .zip(s.rows.iter().skip(f.tree.len()))
        .map(|(p, y)| Row {
            key: format!("removed|{p}|{y}|{}", f.step),
            path: p.clone(),
            x: SERVER_X + 24,
            y: *y,
            w: SERVER_W - 40,
            fill: "none",
            prefix: crate::engine::path::child_name(p).to_string(),
            suffix: String::new(),
            stat: String::new(),
            tip: p.clone(),
            class: "ls-znode ls-znode--removed".into(),
        });
    live.chain(ghosts).collect()
}

fn row_view(app: App, r: Row) -> impl IntoView {
    let path = r.path.clone();
    let removed = r.class.contains("removed");
    view! {
        <g class=r.class data-path=(!removed).then(|| r.path.clone()) data-removed=removed.then(|| r.path.clone())
            tabindex="0" on:click=move |_| app.selected.set(Some(path.clone()))>
            <title>{r.tip}</title>
            <rect x=r.x y=r.y - 13 width=r.w height="18" rx="3" fill=r.fill class="ls-znode__box"/>
            <text x=r.x + 5 y=r.y class="ls-znode__name">{r.prefix}<tspan class="ls-znode__seq">{r.suffix}</tspan></text>
            <text x=SERVER_X + SERVER_W - 10 y=r.y text-anchor="end" class="ls-znode__stat">{r.stat}</text>
        </g>
    }
}

/// Shortens the prefix of `_c_…-lock-0000000007` and keeps the legible sequence suffix.
fn split_suffix((p, s): (&str, &str)) -> (String, String) {
    if s.is_empty() {
        return (p.to_string(), String::new());
    }
    let p = if p.starts_with("_c_") && p.len() > 20 {
        format!("_c_{}…{}", &p[3..7], &p[p.len() - 6..])
    } else {
        p.to_string()
    };
    (p, s.to_string())
}

fn dots(f: &Frame, s: &Stage) -> Vec<Dot> {
    f.messages
        .iter()
        .map(|m| {
            let (x, y) = s.dot(m);
            Dot {
                key: format!("{}|{x}|{y}", m.id),
                id: m.id,
                x,
                y,
                colour: m.client.map_or("#888", client_colour),
                lost: m.lost,
                label: m.label.clone(),
            }
        })
        .collect()
}
