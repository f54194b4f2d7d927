//! The Leptos 0.8 app (wasm32 only). For now: the app shell around a live view of the engine's
//! znode tree; the simulator view arrives with the simulator.

use leptos::prelude::*;

use crate::engine::{CreateMode, Input, Output, Request, Server, ServerConfig};

/// Mounts the app on `<body>` (called from `main` on wasm32).
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// One row of the tree view: path, mode letter and key stat fields.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    path: String,
    ephemeral: bool,
    czxid: i64,
    cversion: i32,
}

/// A tiny contention demo: three sessions queue ephemeral-sequential lock nodes.
fn demo_server(clients: usize) -> Server {
    let mut s = Server::new(ServerConfig::default());
    let mut sessions = Vec::new();
    for _ in 0..clients {
        for o in s.handle(0, Input::Connect { timeout_ms: 4000 }) {
            if let Output::Connected { session, .. } = o {
                sessions.push(session);
            }
        }
    }
    let create = |path: &str, mode| Request::Create { path: path.into(), data: Some(Vec::new()), mode };
    if let Some(first) = sessions.first() {
        s.handle(0, Input::Request { session: *first, xid: 1, request: create("/locks", CreateMode::Persistent) });
    }
    for (i, session) in sessions.iter().enumerate() {
        let request = create("/locks/lock-", CreateMode::EphemeralSequential);
        s.handle(0, Input::Request { session: *session, xid: 2 + i as i32, request });
    }
    s
}

fn rows(s: &Server) -> Vec<Row> {
    s.tree()
        .iter()
        .filter(|(p, _)| p.starts_with("/locks"))
        .map(|(p, n)| {
            let st = n.stat();
            Row { path: p.to_string(), ephemeral: st.ephemeral_owner != 0, czxid: st.czxid, cversion: st.cversion }
        })
        .collect()
}

#[component]
fn App() -> impl IntoView {
    let (clients, set_clients) = signal(3usize);
    let tree = Memo::new(move |_| rows(&demo_server(clients.get())));
    view! {
        <header class="ls-header">
            <h1 class="ls-title">"Lockstep"</h1>
            <p class="ls-tagline">"ZooKeeper distributed locks, step by step."</p>
        </header>
        <main class="ls-main">
            <section class="ls-panel" aria-label="znode tree">
                <h2>"/locks"</h2>
                <label>
                    "Clients "
                    <input id="ls-clients" type="number" min="1" max="9"
                        prop:value=move || clients.get().to_string()
                        on:input=move |ev| {
                            let n = event_target_value(&ev).parse().unwrap_or(3usize).clamp(1, 9);
                            set_clients.set(n);
                        }/>
                </label>
                <ul class="ls-tree" id="ls-tree">
                    <For each=move || tree.get() key=|r| r.path.clone() let:row>
                        <li class="ls-znode" class:ls-znode--ephemeral=row.ephemeral data-path=row.path.clone()>
                            <code>{row.path.clone()}</code>
                            <span class="ls-stat">{format!("czxid {} · cversion {}", row.czxid, row.cversion)}</span>
                        </li>
                    </For>
                </ul>
            </section>
        </main>
    }
}
