//! Client lanes: phase, node, session state and timeout countdown, reentrancy count, token, and
//! the per-client fault buttons.

use leptos::prelude::*;

use super::state::App;
use crate::sim::Command;
use crate::view::frame::ClientRow;
use crate::view::i18n::t;
use crate::view::layout::client_colour;

#[component]
pub fn ClientsPanel() -> impl IntoView {
    let app = expect_context::<App>();
    let pause_ticks = RwSignal::new(30u64);
    view! {
        <section class="ls-panel ls-clients" aria-labelledby="ls-clients-h">
            <h2 id="ls-clients-h">{move || t("panel.clients", app.lang.get())}</h2>
            <label class="ls-inline">
                {move || format!("{} ", t("act.pause", app.lang.get()))}
                <input id="ls-pause-ticks" type="number" min="1" max="1000" prop:value=move || pause_ticks.get().to_string()
                    on:change=move |ev| pause_ticks.set(event_target_value(&ev).parse().unwrap_or(30).clamp(1, 1000))/>
                {move || format!(" {}", t("ui.pause_ticks", app.lang.get()))}
            </label>
            <ol class="ls-clients__list">
                <For each=move || app.frame.get().clients key=|c| format!("{c:?}") let:c>
                    {client(app, c, pause_ticks)}
                </For>
            </ol>
        </section>
    }
}

fn client(app: App, c: ClientRow, pause_ticks: RwSignal<u64>) -> impl IntoView {
    let id = c.id;
    let lang = app.lang.get_untracked();
    let countdown = c.expires_in.filter(|_| c.state_class != "crashed" || true).map(|e| format!("{} {e}/{}", t("client.expires", lang), c.timeout));
    let count = (c.hold_count > 1).then(|| format!("{}{}", t("client.count", lang), c.hold_count));
    let token = c.token.map(|tk| format!("{} {tk}", t("client.token", lang)));
    let act = move |cmd: Command| move |_| app.inject(cmd.clone());
    let partition = if c.partitioned { (Command::Heal { client: id }, "act.heal") } else { (Command::Partition { client: id }, "act.partition") };
    view! {
        <li class=format!("ls-client ls-client--{} ls-client--{}", c.phase_class, c.state_class) data-client=id
            style=format!("--ls-client: {}", client_colour(id))>
            <div class="ls-client__head">
                <span class="ls-client__badge">{c.name.clone()}</span>
                <span class="ls-client__phase" data-phase=c.phase_class>{c.phase.clone()}</span>
                <span class="ls-client__state">{c.state.clone()}</span>
                {count.map(|n| view! { <span class="ls-client__count">{n}</span> })}
            </div>
            <div class="ls-client__meta">
                {c.node.clone().map(|n| view! { <code class="ls-client__node">{n}</code> })}
                <span>{format!("{} {}", t("client.session", lang), c.session)}</span>
                {countdown.map(|s| view! { <span class="ls-client__countdown">{s}</span> })}
                {token.map(|s| view! { <span class="ls-client__token">{s}</span> })}
            </div>
            <div class="ls-client__actions" role="group" aria-label=format!("{} {}", c.name, t("panel.clients", lang))>
                <button on:click=act(Command::Acquire { client: id })>{t("act.acquire", lang)}</button>
                <button on:click=act(Command::Release { client: id })>{t("act.release", lang)}</button>
                <button class="ls-fault" data-act="crash" on:click=act(Command::Crash { client: id })>{t("act.crash", lang)}</button>
                <button class="ls-fault" data-act="pause"
                    on:click=move |_| app.inject(Command::Pause { client: id, ticks: pause_ticks.get_untracked() })>{t("act.pause", lang)}</button>
                <button class="ls-fault" data-act="partition" on:click=act(partition.0.clone())>{t(partition.1, lang)}</button>
                <button class="ls-fault" data-act="expire" on:click=act(Command::Expire { client: id })>{t("act.expire", lang)}</button>
                <button class="ls-fault" data-act="drop" on:click=act(Command::DropReply { client: id })>{t("act.drop", lang)}</button>
                <button class="ls-fault" data-act="close" on:click=act(Command::Close { client: id })>{t("act.close", lang)}</button>
            </div>
        </li>
    }
}
