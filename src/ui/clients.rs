//! Client lanes: phase, node, session state and timeout countdown, reentrancy count, token, and
//! the per-client fault buttons.

use leptos::prelude::*;

use super::state::App;
use super::tr;
use crate::services::ServiceKind;
use crate::sim::Command;
use crate::view::frame::ClientRow;
use crate::view::i18n::t;
use crate::view::layout::client_colour;

#[component]
pub fn ClientsPanel() -> impl IntoView {
    let app = expect_context::<App>();
    let pause_ticks = RwSignal::new(30u64);
    let count = Memo::new(move |_| app.frame.with(|f| f.clients.len()));
    // Changes only when another service is loaded, so lanes do not rebuild their buttons per step.
    let service = Memo::new(move |_| app.frame.with(|f| f.service));
    let ids = move || (0..count.get()).collect::<Vec<usize>>();
    view! {
        <section class="ls-panel ls-clients" aria-labelledby="ls-clients-h">
            <h2 id="ls-clients-h">{tr(app, "panel.clients")}</h2>
            <label class="ls-inline">
                {move || format!("{} ", t("act.pause", app.lang.get()))}
                <input id="ls-pause-ticks" type="number" min="1" max="1000" prop:value=move || pause_ticks.get().to_string()
                    on:change=move |ev| pause_ticks.set(event_target_value(&ev).parse().unwrap_or(30).clamp(1, 1000))/>
                {move || format!(" {}", t("ui.pause_ticks", app.lang.get()))}
            </label>
            <label class="ls-inline">
                {tr(app, "ui.latency")}
                <select id="ls-latency" on:change=move |ev| {
                    let (min, max) = match event_target_value(&ev).as_str() { "a" => (1, 2), "b" => (1, 5), "c" => (3, 10), _ => (10, 30) };
                    app.inject(Command::Latency { min, max });
                }>
                    <option value="">"—"</option>
                    <option value="a">"1–2"</option>
                    <option value="b">"1–5"</option>
                    <option value="c">"3–10"</option>
                    <option value="d">"10–30"</option>
                </select>
            </label>
            <button id="ls-failover" class="ls-fault" data-act="failover" on:click=move |_| app.inject(Command::Failover)>{tr(app, "act.failover")}</button>
            <ol class="ls-clients__list">
                <For each=ids key=|i| *i let:id>
                    {client(app, id, pause_ticks, service)}
                </For>
            </ol>
        </section>
    }
}

/// One lane, keyed by client id; its texts follow the frame in place.
fn client(
    app: App,
    id: usize,
    pause_ticks: RwSignal<u64>,
    service: Memo<crate::services::ServiceKind>,
) -> impl IntoView {
    let row = Memo::new(move |_| app.frame.with(|f| f.clients.get(id).cloned()));
    let get = move |f: fn(&ClientRow, crate::sim::Lang) -> String| {
        move || row.with(|r| r.as_ref().map(|r| f(r, app.lang.get())).unwrap_or_default())
    };
    let class = move || {
        row.with(|r| {
            r.as_ref()
                .map(|c| {
                    format!(
                        "ls-client ls-client--{} ls-client--{}",
                        c.phase_class, c.state_class
                    )
                })
                .unwrap_or_default()
        })
    };
    let partitioned = move || row.with(|r| r.as_ref().is_some_and(|c| c.partitioned));
    let act = move |cmd: Command| move |_| app.inject(cmd.clone());
    view! {
        <li class=class data-client=id style=format!("--ls-client: {}", client_colour(id))>
            <div class="ls-client__head">
                <span class="ls-client__badge">{format!("C{}", id + 1)}</span>
                <span class="ls-client__phase">{get(|c, _| c.phase.clone())}</span>
                <span class="ls-client__state">{get(|c, _| c.state.clone())}</span>
                <span class="ls-client__count">{get(|c, l| if c.hold_count > 1 { format!("{}{}", t("client.count", l), c.hold_count) } else { String::new() })}</span>
            </div>
            <div class="ls-client__meta">
                <code class="ls-client__node">{get(|c, _| c.node.clone().unwrap_or_default())}</code>
                <span>{get(|c, l| format!("{} {}", t("client.session", l), c.session))}</span>
                <span class="ls-client__countdown">{get(|c, l| c.expires_in.map(|e| if c.timeout > 0 { format!("{} {e}/{}", t("client.expires", l), c.timeout) } else { format!("{} {e}", t("client.expires", l)) }).unwrap_or_default())}</span>
                <span class="ls-client__token">{get(|c, l| c.token.map(|tk| format!("{} {tk}", t("client.token", l))).unwrap_or_default())}</span>
            </div>
            <div class="ls-client__actions" role="group" aria-label=move || format!("C{} {}", id + 1, t("panel.clients", app.lang.get()))>
                <button on:click=act(Command::Acquire { client: id })>{tr(app, "act.acquire")}</button>
                <button on:click=act(Command::Release { client: id })>{tr(app, "act.release")}</button>
                <button class="ls-fault" data-act="crash" on:click=act(Command::Crash { client: id })>{tr(app, "act.crash")}</button>
                <button class="ls-fault" data-act="pause"
                    on:click=move |_| app.inject(Command::Pause { client: id, ticks: pause_ticks.get_untracked() })>{tr(app, "act.pause")}</button>
                <button class="ls-fault" data-act="partition"
                    on:click=move |_| app.inject(if partitioned() { Command::Heal { client: id } } else { Command::Partition { client: id } })>
                    {move || t(if partitioned() { "act.heal" } else { "act.partition" }, app.lang.get())}
                </button>
                // ZooKeeper expires the session, etcd revokes the lease; Redis and SQL have neither.
                <button class="ls-fault" data-act="expire" class:ls-hidden=move || !matches!(service.get(), ServiceKind::ZooKeeper | ServiceKind::Etcd)
                    on:click=act(Command::Expire { client: id })>
                    {move || t(if service.get() == ServiceKind::Etcd { "act.revoke" } else { "act.expire" }, app.lang.get())}
                </button>
                <button class="ls-fault" data-act="drop" on:click=act(Command::DropReply { client: id })>{tr(app, "act.drop")}</button>
                <button class="ls-fault" data-act="close" on:click=act(Command::Close { client: id })>{tr(app, "act.close")}</button>
            </div>
        </li>
    }
}
