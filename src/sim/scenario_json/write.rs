//! Writing a scenario (a link's `scenario=`), a link's commands (`cmds=`) and a run file with
//! [`crate::json_write`]: the bytes serde_json's `to_string` writes for them (a test holds the
//! two to the same text), without its writer and the derived serializers in the pages.

use super::{FIELDS, KAZOO_IDENTIFIERS, RESOURCES};
use crate::json_read::fields::name_of;
use crate::json_write::Writer;
use crate::sim::client::Timer;
use crate::sim::forced_json::{LIB_TIMERS, TIMERS};
use crate::sim::history::Run;
use crate::sim::scenario::Scenario;
use crate::sim::world::Action;

pub fn write_scenario(s: &Scenario) -> String {
    let mut w = Writer::default();
    scenario(&mut w, s);
    w.out
}

pub fn write_forced(forced: &[(u64, Action)]) -> String {
    let mut w = Writer::default();
    list_forced(&mut w, forced);
    w.out
}

/// A run file: `{"scenario":…,"forced":[…]}`.
pub fn write_run(run: &Run) -> String {
    let mut w = Writer::default();
    w.open('{').key("scenario");
    scenario(&mut w, &run.scenario);
    w.key("forced");
    list_forced(&mut w, &run.forced);
    w.close('}');
    w.out
}

fn list_forced(w: &mut Writer, forced: &[(u64, Action)]) {
    w.list(forced, |w, (step, a)| {
        w.open('[').plain(step);
        action(w, a);
        w.close(']');
    });
}

fn action(w: &mut Writer, a: &Action) {
    if let Action::ServiceTimer = a {
        w.string("ServiceTimer");
        return;
    }
    w.open('{');
    match a {
        Action::Deliver(id) => {
            w.key("Deliver").plain(id);
        }
        Action::Scripted(i) => {
            w.key("Scripted").plain(i);
        }
        Action::Command(c) => c.write_json(w.key("Command")),
        Action::Timer(client, t) => {
            w.key("Timer").open('[').plain(client);
            match t {
                Timer::Lib(l) => w
                    .open('{')
                    .key("Lib")
                    .string(name_of(&LIB_TIMERS, *l))
                    .close('}'),
                t => w.string(name_of(&TIMERS, *t)),
            };
            w.close(']');
        }
        Action::ServiceTimer => {}
    }
    w.close('}');
}

fn scenario(w: &mut Writer, s: &Scenario) {
    w.open('{');
    for (i, name) in FIELDS.iter().enumerate() {
        field(w.key(name), s, i);
    }
    w.close('}');
}

/// The scenario's field `i` of [`FIELDS`].
fn field(w: &mut Writer, s: &Scenario, i: usize) {
    let ticks = [
        s.seed,
        s.tick_time,
        s.session_timeout,
        s.latency_min,
        s.latency_max,
        s.hold_min,
        s.hold_max,
        s.think_min,
        s.think_max,
        s.start_spread,
    ];
    let n = |w: &mut Writer, v: &u64| {
        w.plain(v);
    };
    match i {
        0 => w.string(&s.name),
        1 => w.string(s.recipe.name()),
        2 => w.plain(s.clients),
        3..=12 => w.plain(ticks[i - 3]),
        13 => w.plain(s.rounds),
        14 => w.plain(s.fencing),
        15 => w.string(name_of(&RESOURCES, s.resource)),
        16 => w.list(&s.readers, |w, c| {
            w.plain(c);
        }),
        17 => w.list(&s.observers, |w, c| {
            w.plain(c);
        }),
        18 => w.plain(s.nesting),
        19 => w.plain(s.max_leases),
        20 => w.option(&s.acquire_timeout, n),
        21 => w.list(&s.timeouts, |w, (c, t)| {
            w.open('[').plain(c).plain(t).close(']');
        }),
        22 => w.list(&s.faults, |w, f| {
            w.open('{').key("at").plain(f.at);
            f.command.write_json(w.key("command"));
            w.close('}');
        }),
        23 => w.plain(s.timeless),
        24 => w.plain(s.lock_dir_exists),
        25 => w.plain(s.resource_io),
        26 => w.plain(s.lease),
        27 => w.plain(s.poll),
        28 => w.plain(s.ttl_repair),
        29 => w.option(&s.replica_lag, n),
        30 => w.option(&s.lock_path, |w, p| {
            w.string(p);
        }),
        31 => w.plain(s.retry_sleep),
        32 => w.string(name_of(&KAZOO_IDENTIFIERS, s.kazoo_identifier)),
        33 => w.option(&s.ensemble, |w, v| {
            w.plain(v);
        }),
        34 => w.option(&s.masters, |w, v| {
            w.plain(v);
        }),
        35 => w.list(&s.clocks, |w, (ahead, rate)| {
            w.open('[').plain(ahead).plain(rate).close(']');
        }),
        36 => w.plain(s.delayed_restart),
        37 => w.plain(s.enable_offline_queue),
        38 => w.plain(s.retry_count),
        _ => w.option(&s.program, |w, p| {
            w.string(p);
        }),
    };
}
