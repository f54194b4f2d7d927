//! The requirements matrix dialog: computed on demand from probe runs (`sim::matrix`); every
//! outcome cell opens the run it came from.

use leptos::prelude::*;

use super::state::App;
use super::tr;
use crate::sim::matrix::{self, Outcome, Probe, Row, Waits, PROBES};
use crate::view::i18n::t;

fn probe_key(p: Probe) -> &'static str {
    match p {
        Probe::NoFault => "mx.no_fault",
        Probe::Crash => "mx.crash",
        Probe::Pause => "mx.pause",
        Probe::Partition => "mx.partition",
        Probe::LostReply => "mx.lost_reply",
        Probe::Failover => "mx.failover",
        Probe::LeaderCrash => "mx.leader_crash",
        Probe::Minority => "mx.minority",
        Probe::ClockJump => "mx.clock_jump",
        Probe::RestartEmpty => "mx.restart_empty",
    }
}

fn outcome_key(o: &Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Safe => ("mx.safe", "safe"),
        Outcome::Fenced => ("mx.fenced", "fenced"),
        Outcome::Unsafe => ("mx.unsafe", "unsafe"),
        Outcome::Stuck => ("mx.stuck", "stuck"),
        Outcome::NotModelled => ("mx.not_modelled", "none"),
        Outcome::NotApplicable => ("mx.not_applicable", "none"),
    }
}

fn why_key(o: &Outcome) -> &'static str {
    match o {
        Outcome::NotApplicable => "mx.not_applicable_why",
        _ => "mx.not_modelled_why",
    }
}

#[component]
pub fn MatrixDialog() -> impl IntoView {
    let app = expect_context::<App>();
    move || {
        app.matrix.get().map(|rows| {
            view! {
                <section id="ls-matrix" class="ls-panel ls-matrix" role="dialog" aria-labelledby="ls-matrix-h">
                    <h2 id="ls-matrix-h">{tr(app, "ui.matrix")}</h2>
                    <p class="ls-muted">{tr(app, "ui.matrix_hint")}</p>
                    <div class="ls-matrix__scroll">
                        <table>
                            <thead><tr>
                                <th>{tr(app, "mx.recipe")}</th><th>{tr(app, "mx.service")}</th>
                                {PROBES.iter().map(|p| view! { <th>{tr(app, probe_key(*p))}</th> }).collect_view()}
                                <th>{tr(app, "mx.handover")}</th><th>{tr(app, "mx.reentrant")}</th><th>{tr(app, "mx.waits")}</th>
                                <th>{tr(app, "mx.token")}</th><th>{tr(app, "mx.req")}</th><th>{tr(app, "mx.msg")}</th>
                            </tr></thead>
                            <tbody>{rows.into_iter().map(|r| row(app, r)).collect_view()}</tbody>
                        </table>
                    </div>
                    <button id="ls-matrix-close" on:click=move |_| { app.matrix.set(None); app.sync_url(); }>{tr(app, "ui.close")}</button>
                </section>
            }
        })
    }
}

fn row(app: App, r: Row) -> impl IntoView {
    let lang = move || app.lang.get();
    let yes = move |b: bool| move || t(if b { "mx.yes" } else { "mx.no" }, lang());
    let handover = r.crash_handover;
    let recipe = r.recipe;
    view! {
        <tr data-recipe=r.recipe.name()>
            <th scope="row"><code>{r.recipe.name()}</code></th>
            <td>{r.recipe.service().name()}</td>
            {r.outcomes.iter().map(|(p, o, step)| {
                let (key, class) = outcome_key(o);
                let (p, step) = (*p, *step);
                if matches!(o, Outcome::NotModelled | Outcome::NotApplicable) {
                    return view! {
                        <td class="ls-mx ls-mx--none" data-probe=probe_key(p) title=tr(app, why_key(o))>{tr(app, key)}</td>
                    }.into_any();
                }
                // A cell opens its run at the step where its verdict was reached.
                view! {
                    <td class=format!("ls-mx ls-mx--{class}") data-probe=probe_key(p) data-step=step>
                        <button on:click=move |_| {
                            app.matrix.set(None);
                            app.load(crate::view::url::CUSTOM, matrix::probe(recipe, p));
                            app.seek(step);
                        }>{tr(app, key)}</button>
                    </td>
                }.into_any()
            }).collect_view()}
            <td>{move || handover.map_or_else(|| t("mx.never", lang()).to_string(), |h| format!("{h} {}", t("mx.ticks", lang())))}</td>
            <td>{move || t(match r.reentrant { None => "mx.no_lock", Some(true) => "mx.yes", Some(false) => "mx.no" }, lang())}</td>
            <td>{move || t(match r.waits { Waits::Polls => "mx.polls", Waits::Blocks => "mx.blocks", Waits::Never => "mx.no_wait" }, lang())}</td>
            <td>{yes(r.fencing_token)}</td>
            <td>{matrix::tenths(r.requests_x10)}</td>
            <td>{matrix::tenths(r.messages_x10)}</td>
        </tr>
    }
}
