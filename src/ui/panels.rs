//! The drawer's panels: the step log (a click seeks), the safety monitors with jump-to-step,
//! and the metrics charts.

use leptos::prelude::*;

use super::state::App;
use crate::sim::narrate::Key;
use crate::view::i18n::t;
use crate::view::palette::client_colour;
use crate::view::scene::fixed;

/// The log around the cursor (a window, so long runs stay fast); a click seeks. Lines are keyed
/// by step and language, so stepping only adds, removes and re-highlights lines.
#[component]
pub fn StepLog() -> impl IntoView {
    let app = expect_context::<App>();
    let window = Memo::new(move |_| {
        let hide = !app.show_pings.get();
        let lang = app.lang.get();
        app.sim.with(|s| {
            let cur = s.cursor() as usize;
            let (lo, hi) = (cur.saturating_sub(60), (cur + 20).min(s.records().len()));
            s.records()[lo..hi]
                .iter()
                .rev()
                .filter(|r| {
                    !hide
                        || !matches!(
                            r.narration.key,
                            Key::TimerPing
                                | Key::PingArrives
                                | Key::PongArrives
                                | Key::TimerKeepAlive
                        )
                })
                .map(|r| (r.index, r.time, r.narration.text(lang)))
                .collect::<Vec<_>>()
        })
    });
    let cursor = Memo::new(move |_| app.frame.with(|f| f.step));
    view! {
        <section class="ls-log">
            <ol class="ls-log__list" id="ls-log">
                <For each=move || window.get() key=|(i, _, text)| (*i, text.len()) let:line>
                    {
                        let (i, time, text) = line;
                        view! {
                            <li class="ls-log__line" class:ls-log__line--current=move || cursor.get() == i>
                                <button class="ls-log__seek" data-step=i on:click=move |_| app.seek(i)>
                                    <span class="ls-log__n">{i}</span>
                                    <span class="ls-log__t">{format!("t={time}")}</span>
                                    <span>{text}</span>
                                </button>
                            </li>
                        }
                    }
                </For>
            </ol>
        </section>
    }
}

#[component]
pub fn Monitors() -> impl IntoView {
    let app = expect_context::<App>();
    let monitors = Memo::new(move |_| app.frame.with(|f| f.monitors.clone()));
    let row = move |key: &'static str, at: Option<u64>, id: &'static str| {
        at.map(|step| view! {
            <div class="ls-alert" role="alert" data-monitor=id>
                <span>{t(key, app.lang.get())}</span>
                <button class="ls-alert__jump" on:click=move |_| app.seek(step)>{format!("{} {step}", t("mon.jump", app.lang.get()))}</button>
            </div>
        })
    };
    view! {
        <section class="ls-monitors">
            {move || {
                let m = monitors.get();
                let none = m.belief.is_none() && m.ownership.is_none() && m.lost_update.is_none() && m.stuck.is_none();
                view! {
                    {row("mon.ownership", m.ownership, "ownership")}
                    {row("mon.belief", m.belief, "belief")}
                    {row("mon.lost_update", m.lost_update, "lost_update")}
                    {row("mon.stuck", m.stuck, "stuck")}
                    {none.then(|| view! { <p class="ls-ok">{t("mon.ok", app.lang.get())}</p> })}
                }
            }}
            <Metrics/>
        </section>
    }
}

#[component]
fn Metrics() -> impl IntoView {
    let app = expect_context::<App>();
    let data = Memo::new(move |_| {
        app.frame.with(|f| MetricsData {
            requests: f.requests,
            notifications: f.notifications,
            herd_factor: f.herd_factor,
            last_zxid: f.stamp.filter(|(k, _)| *k == "zxid").map_or(0, |(_, v)| v),
            waits: f
                .clients
                .iter()
                .take(12)
                .map(|c| (c.id, c.waits.clone()))
                .collect(),
        })
    });
    move || {
        let lang = app.lang.get();
        data.with(|f| {
            let bars = [(t("metric.requests", lang), f.requests as f64), (t("metric.notifications", lang), f.notifications as f64)];
            let max = bars.iter().map(|b| b.1).fold(1.0, f64::max);
            let bar_view = bars.into_iter().enumerate().map(|(i, (label, v))| {
                let w = ((180.0 * v / max).round() as i64).max(1);
                view! {
                    <text x="0" y=12 + 22 * i as i64 class="ls-chart__label">{format!("{label}: {}", v as u64)}</text>
                    <rect x="150" y=2 + 22 * i as i64 width=w height="12" class="ls-chart__bar"/>
                }
            }).collect_view();
            let waits = f.waits.iter().map(|(id, w)| {
                let avg = if w.is_empty() { 0.0 } else { w.iter().sum::<u64>() as f64 / w.len() as f64 };
                (*id, avg)
            }).collect::<Vec<_>>();
            let wmax = waits.iter().map(|w| w.1).fold(1.0, f64::max);
            let wait_view = waits.into_iter().enumerate().map(|(i, (id, avg))| {
                let h = ((40.0 * avg / wmax).round() as i64).max(1);
                view! { <rect x=16 * i as i64 y=44 - h width="12" height=h fill=client_colour(id)><title>{format!("C{} {}", id + 1, fixed(avg, 1))}</title></rect> }
            }).collect_view();
            view! {
                <div class="ls-metrics">
                    <svg viewBox="0 0 340 44" class="ls-chart" role="img" aria-label=t("panel.metrics", lang)>{bar_view}</svg>
                    <p id="ls-herd">{format!("{}: {}", t("metric.herd", lang), fixed(f.herd_factor, 2))}{(f.last_zxid > 0).then(|| format!(" · {}: {}", t("metric.zxid", lang), f.last_zxid))}</p>
                    <p class="ls-muted">{t("metric.waits", lang)}</p>
                    <svg viewBox="0 0 200 46" class="ls-chart ls-chart--waits" role="img" aria-label=t("metric.waits", lang)>{wait_view}</svg>
                </div>
            }
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
struct MetricsData {
    requests: u64,
    notifications: u64,
    herd_factor: f64,
    last_zxid: i64,
    waits: Vec<(usize, Vec<u64>)>,
}
