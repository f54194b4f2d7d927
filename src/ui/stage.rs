//! The stage (SVG): client lanes on the left, the ZooKeeper server and its znode tree on the
//! right, watches as dashed edges, messages in flight as dots placed by their send and delivery
//! ticks, and the protected resource below the server.

use leptos::prelude::*;

use super::state::App;
use crate::view::frame::{Frame, ZnodeRow};
use crate::view::i18n::t;
use crate::view::layout::{client_colour, Stage, CLIENT_W, CLIENT_X, SERVER_W, SERVER_X, WIDTH};

#[component]
pub fn StageView() -> impl IntoView {
    let app = expect_context::<App>();
    let stage = Memo::new(move |_| app.frame.with(|f| Stage::new(f.clients.len(), f.tree.len() + f.removed.len())));
    let view_box = move || format!("0 0 {WIDTH} {:.0}", stage.get().height);
    view! {
        <svg id="ls-stage" class="ls-stage" viewBox=view_box role="img" aria-label=move || t("panel.tree", app.lang.get())>
            <text x=SERVER_X y="24" class="ls-stage__title">"ZooKeeper · /"</text>
            <text x=CLIENT_X y="24" class="ls-stage__title">{move || t("panel.clients", app.lang.get())}</text>
            <text x=SERVER_X y="38" class="ls-stage__meta">
                {move || app.frame.with(|f| format!("t = {} · zxid {}", f.time, f.last_zxid))}
            </text>
            {move || lanes(&app.frame.get(), &stage.get())}
            {move || edges(&app.frame.get(), &stage.get())}
            {move || tree(app, &app.frame.get(), &stage.get())}
            {move || resource(&app.frame.get(), &stage.get())}
            {move || dots(&app.frame.get(), &stage.get())}
        </svg>
    }
}

fn lanes(f: &Frame, s: &Stage) -> impl IntoView {
    f.clients
        .iter()
        .map(|c| {
            let y = s.lane(c.id);
            let h = (s.lane_h - 6.0).max(3.0);
            let label = (s.lane_h >= 14.0).then(|| {
                let text = format!("{} · {}", c.name, c.phase);
                view! { <text x=CLIENT_X + 6.0 y=y + 4.0 class="ls-lane__label">{text}</text> }
            });
            let line_y = y;
            view! {
                <g class=format!("ls-lane ls-lane--{} ls-lane--{}", c.phase_class, c.state_class) data-client=c.id>
                    <line x1=CLIENT_X + CLIENT_W y1=line_y x2=SERVER_X y2=line_y class="ls-lane__wire"
                        class:ls-lane__wire--cut=c.partitioned/>
                    <rect x=CLIENT_X y=y - h / 2.0 width=CLIENT_W height=h rx="4"
                        fill=client_colour(c.id) class="ls-lane__box"/>
                    {label}
                </g>
            }
        })
        .collect_view()
}

fn edge_path(s: &Stage, client: usize, ry: f64) -> String {
    let (x0, y0) = (CLIENT_X + CLIENT_W, s.lane(client));
    let mid = SERVER_X - 70.0;
    format!("M{x0} {y0:.1} C {mid} {y0:.1}, {mid} {ry:.1}, {} {ry:.1}", SERVER_X + 6.0)
}

fn edges(f: &Frame, s: &Stage) -> impl IntoView {
    let live = f.watches.iter().filter_map(|w| {
        let ry = s.row_of(f, &w.path)?;
        Some(view! {
            <path d=edge_path(s, w.client, ry) class="ls-watch" class:ls-watch--child=w.child
                stroke=client_colour(w.client) data-watch=format!("C{}:{}", w.client + 1, w.path)/>
        })
    });
    let fired = f.fired.iter().filter_map(|(c, path)| {
        let ry = s.row_of(f, path).or_else(|| removed_row(f, s, path))?;
        Some(view! { <path d=edge_path(s, *c, ry) class="ls-watch ls-watch--fired" stroke=client_colour(*c)/> })
    });
    live.map(IntoAny::into_any).chain(fired.map(IntoAny::into_any)).collect_view()
}

fn removed_row(f: &Frame, s: &Stage, path: &str) -> Option<f64> {
    let i = f.removed.iter().position(|p| p == path)?;
    s.rows.get(f.tree.len() + i).copied()
}

fn tree(app: App, f: &Frame, s: &Stage) -> impl IntoView {
    let top = s.rows.first().copied().unwrap_or(58.0) - 22.0;
    let frame_h = s.resource_y - top - 16.0;
    let rows = f.tree.iter().zip(&s.rows).map(|(r, y)| znode(app, r, *y)).collect_view();
    let ghosts = f
        .removed
        .iter()
        .zip(s.rows.iter().skip(f.tree.len()))
        .map(|(p, y)| {
            let name = crate::engine::path::child_name(p).to_string();
            view! {
                <g class="ls-znode ls-znode--removed">
                    <rect x=SERVER_X + 24.0 y=y - 13.0 width=SERVER_W - 40.0 height="18" rx="3"/>
                    <text x=SERVER_X + 28.0 y=*y class="ls-znode__name">{name}</text>
                </g>
            }
        })
        .collect_view();
    let empty = f.tree.is_empty().then(|| view! { <text x=SERVER_X + 10.0 y=top + 30.0 class="ls-stage__meta">{t("tree.empty", app.lang.get_untracked())}</text> });
    view! {
        <rect x=SERVER_X y=top width=SERVER_W height=frame_h rx="8" class="ls-server"/>
        {rows}
        {ghosts}
        {empty}
    }
}

fn znode(app: App, r: &ZnodeRow, y: f64) -> impl IntoView {
    let x = SERVER_X + 8.0 + 16.0 * r.depth as f64;
    let w = SERVER_W - 16.0 - 16.0 * r.depth as f64;
    let fill = r.owner.map_or("var(--ls-persistent)", client_colour);
    let (prefix, suffix) = split_suffix(&r.name, r.sequential);
    let tip = format!(
        "{}\nczxid {} · mzxid {} · pzxid {}\nversion {} · cversion {} · numChildren {}{}",
        r.path, r.czxid, r.mzxid, r.pzxid, r.version, r.cversion, r.num_children,
        r.owner.map(|o| format!("\nephemeralOwner: C{}", o + 1)).unwrap_or_default()
    );
    let path = r.path.clone();
    let owner = r.owner.map(|o| format!("C{}", o + 1)).unwrap_or_default();
    view! {
        <g class="ls-znode" class:ls-znode--ephemeral=r.ephemeral class:ls-znode--sequential=r.sequential
            class:ls-znode--container=r.container class:ls-znode--fresh=r.fresh
            data-path=r.path.clone() tabindex="0" role="button"
            on:click=move |_| app.selected.set(Some(path.clone()))>
            <title>{tip}</title>
            <rect x=x y=y - 13.0 width=w height="18" rx="3" fill=fill class="ls-znode__box"/>
            <text x=x + 5.0 y=y class="ls-znode__name">{prefix}<tspan class="ls-znode__seq">{suffix}</tspan></text>
            <text x=SERVER_X + SERVER_W - 10.0 y=y text-anchor="end" class="ls-znode__stat">
                {format!("{owner} czxid {}", r.czxid)}
            </text>
        </g>
    }
}

/// Splits `_c_…-lock-0000000007` into a shortened prefix and the legible sequence suffix.
fn split_suffix(name: &str, sequential: bool) -> (String, String) {
    if !sequential || name.len() < 10 {
        return (name.to_string(), String::new());
    }
    let (p, s) = name.split_at(name.len() - 10);
    let p = if p.starts_with("_c_") && p.len() > 20 { format!("_c_{}…{}", &p[3..7], &p[p.len() - 6..]) } else { p.to_string() };
    (p, s.to_string())
}

fn resource(f: &Frame, s: &Stage) -> impl IntoView {
    let y = s.resource_y;
    let text = format!("resource = {}   token ≥ {}", f.value, f.highest_token);
    view! {
        <g class="ls-resource" class:ls-resource--fenced=f.fencing>
            <rect x=SERVER_X y=y width=SERVER_W height="44" rx="8"/>
            <text x=SERVER_X + 10.0 y=y + 27.0>{text}</text>
        </g>
    }
}

fn dots(f: &Frame, s: &Stage) -> impl IntoView {
    f.messages
        .iter()
        .map(|m| {
            let (x, y) = s.dot(m);
            let colour = m.client.map_or("#888", client_colour);
            view! {
                <g class="ls-msg" class:ls-msg--lost=m.lost class:ls-msg--inbound=m.inbound data-msg=m.id>
                    <title>{m.label.clone()}</title>
                    <circle cx=x cy=y r="5" fill=colour/>
                    {m.lost.then(|| view! { <text x=x + 7.0 y=y - 5.0 class="ls-msg__x">"✕"</text> })}
                </g>
            }
        })
        .collect_view()
}
