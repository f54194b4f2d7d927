//! What a click on the stage opens, beside the thing clicked: a client's actions (acquire,
//! release, and the faults that make sense for its lock service), an entry's fields in the
//! service's words, or a message in full.

use leptos::prelude::*;

use super::state::{App, Pop};
use super::tr;
use crate::sim::Command;
use crate::view::geometry::Geometry;
use crate::view::i18n::t;

/// Where a popover goes: beside the client's card, or near the middle for the rest.
fn place(app: App, size: (u32, u32), pop: &Pop) -> String {
    let (w, h) = size;
    let (n, rows, res) = app
        .frame
        .with(|f| (f.clients.len(), f.rows, f.resource.used));
    let g = Geometry::new(w, h, n, rows.max(1), res);
    let (x, y) = match pop {
        Pop::Client(c) => {
            let r = g.card(*c);
            (r.right() + 8.0, r.y)
        }
        _ => (g.clients.right() + 12.0, g.service.y + 12.0),
    };
    let y = y.min(h as f32 - 260.0).max(4.0);
    format!("left: {}px; top: {}px", x.round() as i64, y.round() as i64)
}

#[component]
pub fn Popover(size: RwSignal<(u32, u32)>) -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        app.pop.get().map(|pop| {
            let style = place(app, size.get_untracked(), &pop);

            let body = match pop.clone() {
                Pop::Client(c) => client(app, c).into_any(),
                Pop::Entry(id) => entry(app, id).into_any(),
                Pop::Server(s) => server(app, s).into_any(),
                Pop::Message(id) => message(app, id).into_any(),
            };
            view! {
                <div id="ls-pop" class="ls-pop" role="dialog" style=style tabindex="-1" aria-labelledby="ls-pop-h" aria-describedby="ls-pop-d">
                    {body}
                    <button class="ls-pop__close" on:click=move |_| super::stagekeys::close(app) aria-label=tr(app, "ui.close")>"×"</button>
                </div>
            }
        })
    }
}

fn client(app: App, c: usize) -> impl IntoView {
    let row = move || app.frame.with(|f| f.clients.get(c).cloned());
    let service = app.frame.with_untracked(|f| f.service);
    let act = move |cmd: Command| {
        move |_| {
            app.inject(cmd.clone());
            super::stagekeys::close(app);
        }
    };
    let partitioned = move || row().is_some_and(|r| r.partitioned);
    let end_session = service.look().end_session;
    let kazoo = app
        .sim
        .with_untracked(|s| s.scenario().recipe == crate::recipes::RecipeKind::Kazoo);
    // An observer reads the lock node where other clients acquire and release it.
    let observer = app
        .sim
        .with_untracked(|s| s.scenario().observers.contains(&c));
    let (first, second) = if observer {
        (
            (
                "read",
                Command::Read {
                    client: c,
                    sync: false,
                },
                "act.read",
            ),
            (
                "sync-read",
                Command::Read {
                    client: c,
                    sync: true,
                },
                "act.sync_read",
            ),
        )
    } else {
        (
            ("acquire", Command::Acquire { client: c }, "act.acquire"),
            ("release", Command::Release { client: c }, "act.release"),
        )
    };
    view! {
        <h3 id="ls-pop-h" class="ls-pop__title">{move || row().map(|r| format!("{} · {}", r.name, r.label)).unwrap_or_default()}</h3>
        <p id="ls-pop-d" class="ls-muted">{move || row().map(|r| {
            let s = if r.session.is_empty() { String::new() } else { format!(" · {}", r.session) };
            format!("{}{s}", r.conn_label)
        }).unwrap_or_default()}</p>
        <div class="ls-pop__acts" role="group">
            <button data-act=first.0 on:click=act(first.1)>{tr(app, first.2)}</button>
            <button data-act=second.0 on:click=act(second.1)>{tr(app, second.2)}</button>
            {kazoo.then(|| view! { <button data-act="cancel" on:click=act(Command::Cancel { client: c })>{tr(app, "act.cancel")}</button> })}
            <button class="ls-fault" data-act="crash" on:click=act(Command::Crash { client: c })>{tr(app, "act.crash")}</button>
            <span class="ls-pop__pause">
                <button class="ls-fault" data-act="pause" on:click=move |_| { app.inject(Command::Pause { client: c, ticks: app.pause_ticks.get_untracked() }); super::stagekeys::close(app); }>{tr(app, "act.pause")}</button>
                <input id="ls-pause-ticks" type="number" min="1" max="5000" aria-label=tr(app, "ui.pause_ticks")
                    prop:value=move || app.pause_ticks.get().to_string()
                    on:change=move |ev| app.pause_ticks.set(event_target_value(&ev).parse().unwrap_or(40).clamp(1, 5000))/>
                {tr(app, "ui.pause_ticks")}
            </span>
            <button class="ls-fault" data-act="partition" on:click=move |_| { app.inject(if partitioned() { Command::Heal { client: c } } else { Command::Partition { client: c } }); super::stagekeys::close(app); }>
                {move || t(if partitioned() { "act.heal" } else { "act.partition" }, app.lang.get())}
            </button>
            {end_session.map(|key| view! {
                <button class="ls-fault" data-act="expire" on:click=act(Command::Expire { client: c })>
                    {tr(app, key)}
                </button>
            })}
            <button class="ls-fault" data-act="drop" on:click=act(Command::DropReply { client: c })>{tr(app, "act.drop")}</button>
            <button class="ls-fault" data-act="close" on:click=act(Command::Close { client: c })>{tr(app, "act.close")}</button>
        </div>
    }
}

/// A server's state and the faults a server can suffer: crash, restart (from its disk or
/// empty), and a partition that splits it off from every other node.
fn server(app: App, s: crate::services::ServerId) -> impl IntoView {
    let view = move || {
        app.frame
            .with(|f| f.servers.iter().find(|v| v.id == s).cloned())
    };
    let split = move || app.frame.with(|f| f.split);
    let act = move |cmd: Command| {
        move |_| {
            app.inject(cmd.clone());
            super::stagekeys::close(app);
        }
    };
    let down = move || view().is_some_and(|v| v.down);
    // A server with a clock of its own (a Redlock master, full bundle only): an NTP step
    // forward or back by the run's TTL, enough to run out every key it holds (or to double
    // their lives).
    let own_clock =
        move || crate::FULL && view().is_some_and(|v| v.role == crate::services::Role::Master);
    let ttl = move || app.sim.with_untracked(|s| s.scenario().lease);
    // A server with peers it talks to (an ensemble's, a primary and its replica) has links to
    // them that can stall; Redlock's masters never talk to each other.
    let peers = move || crate::FULL && app.frame.with(|f| f.servers.len() > 1) && !own_clock();
    let jump = move |sign: i64| {
        let by = sign * ttl() as i64;
        app.inject(Command::ClockJump { server: s, by });
        super::stagekeys::close(app);
    };
    view! {
        <h3 id="ls-pop-h" class="ls-pop__title">{move || view().map(|v| v.label).unwrap_or_default()}</h3>
        <div id="ls-pop-d" class="ls-pop__acts" role="group">
            {move || if down() {
                view! {
                    <button data-act="restart-disk" on:click=act(Command::RestartServer { server: s, keep_disk: true })>{tr(app, "act.restart_disk")}</button>
                    <button class="ls-fault" data-act="restart-empty" on:click=act(Command::RestartServer { server: s, keep_disk: false })>{tr(app, "act.restart_empty")}</button>
                }.into_any()
            } else {
                view! {
                    <button class="ls-fault" data-act="crash-server" on:click=act(Command::CrashServer { server: s })>{tr(app, "act.crash_server")}</button>
                    {pauses(peers()).into_iter().map(|(act, key, cmd)| view! {
                        <button class="ls-fault" data-act=act on:click=move |_| { app.inject(cmd(s, app.pause_ticks.get_untracked())); super::stagekeys::close(app); }>
                            {move || format!("{} {}", t(key, app.lang.get()), app.pause_ticks.get())}
                        </button>
                    }).collect_view()}
                    {own_clock().then(|| view! {
                        <button class="ls-fault" data-act="clock-forward" on:click=move |_| jump(1)>
                            {move || t("act.clock_forward", app.lang.get()).replace("{n}", &ttl().to_string())}
                        </button>
                        <button class="ls-fault" data-act="clock-back" on:click=move |_| jump(-1)>
                            {move || t("act.clock_back", app.lang.get()).replace("{n}", &ttl().to_string())}
                        </button>
                    })}
                }.into_any()
            }}
            {move || if split() {
                view! { <button data-act="heal-split" on:click=act(Command::HealSplit)>{tr(app, "act.heal_split")}</button> }.into_any()
            } else {
                view! { <button class="ls-fault" data-act="split" on:click=act(Command::Split { clients: Vec::new(), servers: vec![s] })>{tr(app, "act.split")}</button> }.into_any()
            }}
        </div>
    }
}

/// A server's timed stalls: of the whole server, and (with peers) of its links to them. One
/// button type for both (one monomorphised view in the wasm).
type Pause = (
    &'static str,
    &'static str,
    fn(crate::services::ServerId, crate::services::Tick) -> Command,
);
fn pauses(peers: bool) -> Vec<Pause> {
    let server: Pause = ("pause-server", "act.pause", |server, ticks| {
        Command::PauseServer { server, ticks }
    });
    let links: Pause = ("pause-links", "act.pause_links", |server, ticks| {
        Command::PauseLinks { server, ticks }
    });
    std::iter::once(server)
        .chain(peers.then_some(links))
        .collect()
}

fn entry(app: App, id: String) -> impl IntoView {
    let key = id.clone();
    let row = move || {
        app.frame
            .with(|f| f.tree.iter().find(|r| r.id == key).cloned())
    };
    move || {
        match row() {
        Some(r) => view! {
            <h3 id="ls-pop-h" class="ls-pop__title"><code>{r.id.clone()}</code></h3>
            <div id="ls-pop-d"><dl id="ls-inspector" class="ls-pop__fields">
                {r.fields().into_iter().map(|(k, v)| view! { <dt>{k}</dt>" "<dd>{v}</dd>" " }).collect_view()}
            </dl></div>
        }
        .into_any(),
        None => view! { <p id="ls-pop-h" class="ls-muted">{format!("{id} · {}", t("ui.gone", app.lang.get()))}</p> }.into_any(),
    }
    }
}

fn message(app: App, id: u64) -> impl IntoView {
    let m = move || {
        app.frame
            .with(|f| f.messages.iter().find(|m| m.id == id).cloned())
    };
    move || {
        match m() {
        Some(m) => view! {
            <h3 id="ls-pop-h" class="ls-pop__title">{m.label.clone()}</h3>
            <div id="ls-pop-d"><p class="ls-muted">{format!("t={} → t={}", m.sent_at, m.deliver_at)}</p>
            <dl id="ls-wire" class="ls-pop__fields">
                {m.wire.iter().map(|(k, v)| view! { <dt>{k.clone()}</dt>" "<dd>{v.clone()}</dd>" " }).collect_view()}
            </dl></div>
        }
        .into_any(),
        None => view! { <p id="ls-pop-h" class="ls-muted">{t("ui.delivered", app.lang.get())}</p> }.into_any(),
    }
    }
}
