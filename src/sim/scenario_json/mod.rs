//! Reading a scenario file, a `scenario=` link and a run file with [`crate::json_read`] instead
//! of serde (and writing them with [`crate::json_write`], `write.rs`): serde_json's reader and the derived visitors of the scenario, the run and the
//! lesson were 35 KB gzip of the full page. It takes what serde's derive takes (a struct as a
//! map or a list of its fields, unknown fields refused in a scenario and skipped in a run or a
//! timed command, a repeated field refused) and refuses what it refuses; the property tests
//! hold the two readers to the same answers. Messages name the innermost field.

use super::command::TimedCommand;
use super::forced_json::{command, forced};
use super::history::Run;
use super::scenario::{KazooIdentifier, ResourceKind, Scenario};
use crate::json_read::fields::{by_name, list, named, object, option, pair, whole, Got, Shape};
use crate::json_read::Reader;
use crate::recipes::RecipeKind;

/// The scenario's fields in their declared order (serde's list form follows it).
pub const FIELDS: [&str; 40] = [
    "name",
    "recipe",
    "clients",
    "seed",
    "tick_time",
    "session_timeout",
    "latency_min",
    "latency_max",
    "hold_min",
    "hold_max",
    "think_min",
    "think_max",
    "start_spread",
    "rounds",
    "fencing",
    "resource",
    "readers",
    "observers",
    "nesting",
    "max_leases",
    "acquire_timeout",
    "timeouts",
    "faults",
    "timeless",
    "lock_dir_exists",
    "resource_io",
    "lease",
    "poll",
    "ttl_repair",
    "replica_lag",
    "lock_path",
    "retry_sleep",
    "kazoo_identifier",
    "ensemble",
    "masters",
    "clocks",
    "delayed_restart",
    "enable_offline_queue",
    "retry_count",
    "program",
];

// `json_read::fields::object` keeps the fields seen in a 64-bit mask.
const _: () = assert!(FIELDS.len() < 64);

/// `#[serde(default, deny_unknown_fields)]`: every field may be left out, none added.
const SCENARIO: Shape = Shape {
    names: &FIELDS,
    deny: true,
    defaulted: u64::MAX,
};

const TIMED: Shape = Shape {
    names: &["at", "command"],
    deny: false,
    defaulted: 0,
};

const RUN: Shape = Shape {
    names: &["scenario", "forced"],
    deny: false,
    defaulted: 0,
};

/// A scenario file's text.
pub fn read_scenario(text: &str) -> Result<Scenario, String> {
    whole(text, scenario).map_err(|f| f.message("scenario"))
}

/// A run file's text (`{"scenario": …, "forced": […]}`).
pub fn read_run(text: &str) -> Result<Run, String> {
    let run = |r: &mut Reader| {
        let mut run = Run::default();
        object(r, &RUN, &mut |r, i| {
            match i {
                0 => run.scenario = scenario(r)?,
                _ => run.forced = forced(r)?,
            }
            Ok(())
        })?;
        Ok(run)
    };
    whole(text, run).map_err(|f| f.message("run"))
}

/// A scenario, where the reader is (a file's, a run's or a lesson's).
pub fn scenario(r: &mut Reader) -> Got<Scenario> {
    let mut s = Scenario::default();
    object(r, &SCENARIO, &mut |r, i| field(r, &mut s, i))?;
    Ok(s)
}

/// The scenario's field `i` of [`FIELDS`].
fn field(r: &mut Reader, s: &mut Scenario, i: usize) -> Got<()> {
    let n = |r: &mut Reader| r.integer::<u64>();
    match i {
        0 => s.name = r.string()?,
        1 => s.recipe = named(r, recipe)?,
        2 => s.clients = r.integer()?,
        3 => s.seed = n(r)?,
        4 => s.tick_time = n(r)?,
        5 => s.session_timeout = n(r)?,
        6 => s.latency_min = n(r)?,
        7 => s.latency_max = n(r)?,
        8 => s.hold_min = n(r)?,
        9 => s.hold_max = n(r)?,
        10 => s.think_min = n(r)?,
        11 => s.think_max = n(r)?,
        12 => s.start_spread = n(r)?,
        13 => s.rounds = r.integer()?,
        14 => s.fencing = r.boolean()?,
        15 => s.resource = named(r, |n| by_name(&RESOURCES, n))?,
        16 => s.readers = list(r, |r| r.integer())?,
        17 => s.observers = list(r, |r| r.integer())?,
        18 => s.nesting = r.integer()?,
        19 => s.max_leases = r.integer()?,
        20 => s.acquire_timeout = option(r, |r| Ok(n(r)?))?,
        21 => s.timeouts = list(r, |r| pair(r, |r| r.integer(), n))?,
        22 => s.faults = list(r, timed)?,
        23 => s.timeless = r.boolean()?,
        24 => s.lock_dir_exists = r.boolean()?,
        25 => s.resource_io = r.boolean()?,
        26 => s.lease = n(r)?,
        27 => s.poll = n(r)?,
        28 => s.ttl_repair = r.boolean()?,
        29 => s.replica_lag = option(r, |r| Ok(n(r)?))?,
        30 => s.lock_path = option(r, |r| Ok(r.string()?))?,
        31 => s.retry_sleep = n(r)?,
        32 => s.kazoo_identifier = named(r, |n| by_name(&KAZOO_IDENTIFIERS, n))?,
        33 => s.ensemble = option(r, |r| Ok(r.integer()?))?,
        34 => s.masters = option(r, |r| Ok(r.integer()?))?,
        35 => s.clocks = list(r, |r| pair(r, |r| r.integer(), |r| r.integer()))?,
        36 => s.delayed_restart = r.boolean()?,
        37 => s.enable_offline_queue = r.boolean()?,
        38 => s.retry_count = r.integer()?,
        _ => s.program = option(r, |r| Ok(r.string()?))?,
    }
    Ok(())
}

/// A timed command of a scenario's fault script (`{"at": 3, "command": …}`).
fn timed(r: &mut Reader) -> Got<TimedCommand> {
    let (mut at, mut cmd) = (0, None);
    object(r, &TIMED, &mut |r, i| {
        match i {
            0 => at = r.integer()?,
            _ => cmd = Some(command(r)?),
        }
        Ok(())
    })?;
    let command = cmd.ok_or("a timed command lacks its command")?;
    Ok(TimedCommand { at, command })
}

pub fn recipe(name: &str) -> Option<RecipeKind> {
    let observer = (name == "observer").then_some(RecipeKind::Observer);
    RecipeKind::parse(name).or(observer)
}

/// `ResourceKind` by serde's names (reading here, writing in `write.rs`).
pub(crate) const RESOURCES: [(&str, ResourceKind); 2] = [
    ("counter", ResourceKind::Counter),
    ("id_generator", ResourceKind::IdGenerator),
];

/// `KazooIdentifier` by serde's names.
pub(crate) const KAZOO_IDENTIFIERS: [(&str, KazooIdentifier); 2] = [
    ("none", KazooIdentifier::None),
    ("label", KazooIdentifier::Label),
];

mod write;
pub use write::{write_forced, write_run, write_scenario};

#[cfg(test)]
pub(crate) mod tests;
