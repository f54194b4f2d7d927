//! Reading a link's `cmds=` (the user's commands, `[[step, action], …]` in serde's JSON) with
//! [`crate::json_read`] instead of serde: serde_json's reader and the derived visitors of
//! `Action`, `Timer` and `LibTimer` were 17 KB gzip of the lean page, which reads no other JSON.
//! It takes what serde's derive takes (`"ServiceTimer"`, `{"Timer": [0, "Start"]}`,
//! `{"Command": {"crash": {"client": 0}}}`) and refuses what it refuses; the property tests
//! hold the two readers to the same answers.

use crate::json_read::fields::{by_name, list, pair, unit, variant, with};
use crate::json_read::{Reader, Res};
use crate::services::LibTimer;
use crate::sim::client::Timer;
use crate::sim::command::Command;
use crate::sim::command_de::{build, Fault, Fields, VARIANTS};
use crate::sim::world::Action;

/// The list of a link's `cmds=`, or why it is not one.
pub fn read_forced(text: &str) -> Result<Vec<(u64, Action)>, String> {
    let mut r = Reader::new(text);
    forced(&mut r)
        .and_then(|l| r.end().map(|()| l))
        .map_err(str::to_string)
}

/// `[[step, action], …]`: the forced actions of a link, a run file or a lesson.
pub(crate) fn forced(r: &mut Reader) -> Res<Vec<(u64, Action)>> {
    list(r, |r| pair(r, |r| r.integer(), action))
}

fn action(r: &mut Reader) -> Res<Action> {
    let (name, u) = variant(r)?;
    match name.as_str() {
        "Deliver" => with(r, u, |r| r.integer().map(Action::Deliver)),
        "Timer" => with(r, u, |r| {
            pair(r, |r| r.integer(), timer).map(|(client, t)| Action::Timer(client, t))
        }),
        "ServiceTimer" => unit(r, u, Action::ServiceTimer),
        "Scripted" => with(r, u, |r| r.integer().map(Action::Scripted)),
        "Command" => with(r, u, |r| command(r).map(Action::Command)),
        _ => Err("unknown action"),
    }
}

/// `Timer`'s unit variants by serde's names (`Lib` holds a [`LIB_TIMERS`] name); the run
/// writer uses the same tables.
pub(crate) const TIMERS: [(&str, Timer); 6] = [
    ("Start", Timer::Start),
    ("WorkDone", Timer::WorkDone),
    ("AcquireTimeout", Timer::AcquireTimeout),
    ("Retry", Timer::Retry),
    ("KeepAlive", Timer::KeepAlive),
    ("Resend", Timer::Resend),
];

/// `LibTimer`'s variants by serde's names.
pub(crate) const LIB_TIMERS: [(&str, LibTimer); 6] = [
    ("Ping", LibTimer::Ping),
    ("ReadTimeout", LibTimer::ReadTimeout),
    ("Reconnect", LibTimer::Reconnect),
    ("Lost", LibTimer::Lost),
    ("KeepAlive", LibTimer::KeepAlive),
    ("Resend", LibTimer::Resend),
];

fn timer(r: &mut Reader) -> Res<Timer> {
    let (name, u) = variant(r)?;
    if name == "Lib" {
        return with(r, u, |r| lib_timer(r).map(Timer::Lib));
    }
    let t = by_name(&TIMERS, &name).ok_or("unknown timer")?;
    unit(r, u, t)
}

fn lib_timer(r: &mut Reader) -> Res<LibTimer> {
    let (name, u) = variant(r)?;
    let t = by_name(&LIB_TIMERS, &name).ok_or("unknown library timer")?;
    unit(r, u, t)
}

pub(crate) fn command(r: &mut Reader) -> Res<Command> {
    let (name, u) = variant(r)?;
    match name.as_str() {
        "failover" => unit(r, u, Command::Failover),
        "heal_split" => unit(r, u, Command::HealSplit),
        n if VARIANTS.contains(&n) => with(r, u, |r| {
            build(n, fields(r)?).map_err(|f| match f {
                Fault::Missing(_) => "a command lacks a field it needs",
                Fault::Unknown => "unknown command",
            })
        }),
        _ => Err("unknown command"),
    }
}

/// A command's fields; others are skipped, as serde's reader skips them.
fn fields(r: &mut Reader) -> Res<Fields> {
    let mut f = Fields::default();
    r.expect(b'{')?;
    let mut first = true;
    while let Some(key) = r.key(&mut first)? {
        match key.as_str() {
            "client" => f.client = Some(r.integer()?),
            "ticks" => f.ticks = Some(r.integer()?),
            "min" => f.min = Some(r.integer()?),
            "max" => f.max = Some(r.integer()?),
            "server" => f.server = Some(r.integer()?),
            "by" => f.by = Some(r.integer()?),
            "keep_disk" => f.keep_disk = r.boolean()?,
            "sync" => f.sync = r.boolean()?,
            "clients" => f.clients = list(r, |r| r.integer())?,
            "servers" => f.servers = list(r, |r| r.integer())?,
            _ => r.skip()?,
        }
    }
    Ok(f)
}

#[cfg(test)]
mod tests;
