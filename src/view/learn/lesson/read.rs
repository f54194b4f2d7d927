//! Reading a lesson file with [`crate::json_read`] instead of serde (the full page's last JSON
//! read: with the scenario's and the run's, serde's were 35 KB gzip of it). It takes what
//! serde's derive takes and refuses what it refuses (the property tests hold the two to the
//! same answers); messages name the innermost field.

use super::super::{Ask, Chapter, Hunt};
use super::{Stop, Text};
use crate::json_read::fields::{by_name, list, named, object, option, whole, Got, Shape};
use crate::json_read::Reader;
use crate::recipes::program::starters::Starter;
use crate::sim::forced_json::forced;
use crate::sim::moments::Kind;
use crate::sim::scenario_json::{recipe, scenario};

const CHAPTER: Shape = Shape {
    names: &[
        "lockstep_lesson",
        "id",
        "title",
        "intro",
        "takeaway",
        "preset",
        "scenario",
        "cmds",
        "stops",
        "search",
        "matrix",
        "preset_key_frames",
    ],
    deny: true,
    defaulted: !0b111,
};

const TEXT: Shape = Shape {
    names: &["en", "zh"],
    deny: true,
    defaulted: u64::MAX,
};

const STOP: Shape = Shape {
    names: &["step", "at", "title", "text", "ask"],
    deny: true,
    defaulted: u64::MAX,
};

const HUNT: Shape = Shape {
    names: &["recipe", "clients", "allow_close", "task"],
    deny: true,
    defaulted: 0b1000,
};

/// A lesson file's text, not yet checked (`Chapter::validate`).
pub fn read_chapter(text: &str) -> Result<Chapter, String> {
    whole(text, chapter).map_err(|f| f.message("lesson"))
}

fn chapter(r: &mut Reader) -> Got<Chapter> {
    let mut c = Chapter {
        lockstep_lesson: 0,
        id: String::new(),
        title: Text::default(),
        intro: Text::default(),
        takeaway: Text::default(),
        preset: None,
        scenario: None,
        cmds: Vec::new(),
        stops: Vec::new(),
        search: Vec::new(),
        matrix: false,
        preset_key_frames: true,
    };
    object(r, &CHAPTER, &mut |r, i| {
        match i {
            0 => c.lockstep_lesson = r.integer()?,
            1 => c.id = r.string()?,
            2 => c.title = text(r)?,
            3 => c.intro = text(r)?,
            4 => c.takeaway = text(r)?,
            5 => c.preset = option(r, |r| Ok(r.string()?))?,
            6 => c.scenario = option(r, scenario)?,
            7 => c.cmds = forced(r)?,
            8 => c.stops = list(r, stop)?,
            9 => c.search = list(r, hunt)?,
            10 => c.matrix = r.boolean()?,
            _ => c.preset_key_frames = r.boolean()?,
        }
        Ok(())
    })?;
    Ok(c)
}

fn text(r: &mut Reader) -> Got<Text> {
    let mut t = Text::default();
    object(r, &TEXT, &mut |r, i| {
        match i {
            0 => t.en = r.string()?,
            _ => t.zh = r.string()?,
        }
        Ok(())
    })?;
    Ok(t)
}

fn stop(r: &mut Reader) -> Got<Stop> {
    let mut s = Stop::default();
    object(r, &STOP, &mut |r, i| {
        match i {
            0 => s.step = option(r, |r| Ok(r.integer()?))?,
            1 => s.at = option(r, |r| named(r, kind))?,
            2 => s.title = text(r)?,
            3 => s.text = text(r)?,
            _ => s.ask = option(r, |r| named(r, ask))?,
        }
        Ok(())
    })?;
    Ok(s)
}

fn hunt(r: &mut Reader) -> Got<Hunt> {
    let mut h = (None, 0, false, None);
    object(r, &HUNT, &mut |r, i| {
        match i {
            0 => h.0 = Some(named(r, recipe)?),
            1 => h.1 = r.integer()?,
            2 => h.2 = r.boolean()?,
            _ => h.3 = option(r, |r| named(r, Starter::named))?,
        }
        Ok(())
    })?;
    let recipe = h.0.ok_or("a search lacks its recipe")?;
    Ok(Hunt {
        recipe,
        clients: h.1,
        allow_close: h.2,
        task: h.3,
    })
}

/// Every key frame's kind, by its name in a lesson file (serde's `snake_case`; a test holds
/// the two to the same names).
pub const KINDS: [(&str, Kind); 31] = [
    ("fault", Kind::Fault),
    ("waiting", Kind::Waiting),
    ("herd", Kind::Herd),
    ("handoff", Kind::Handoff),
    ("expiry", Kind::Expiry),
    ("two_holders", Kind::TwoHolders),
    ("lost_update", Kind::LostUpdate),
    ("fenced", Kind::Fenced),
    ("stuck", Kind::Stuck),
    ("missing_watch", Kind::MissingWatch),
    ("orphan", Kind::Orphan),
    ("adopted", Kind::Adopted),
    ("reentrant", Kind::Reentrant),
    ("shared_readers", Kind::SharedReaders),
    ("leases", Kind::Leases),
    ("no_expiry", Kind::NoExpiry),
    ("row_waiters", Kind::RowWaiters),
    ("unlocked", Kind::Unlocked),
    ("rewatch", Kind::Rewatch),
    ("replica_behind", Kind::ReplicaBehind),
    ("repaired", Kind::Repaired),
    ("row_handover", Kind::RowHandover),
    ("session_lost", Kind::SessionLost),
    ("elected", Kind::Elected),
    ("minority", Kind::Minority),
    ("resumed", Kind::Resumed),
    ("quorum", Kind::Quorum),
    ("stale_read", Kind::StaleRead),
    ("fresh_read", Kind::FreshRead),
    ("all_done", Kind::AllDone),
    ("stop", Kind::Stop),
];

/// Every question, by its name in a lesson file.
pub const ASKS: [(&str, Ask); 10] = [
    ("notified", Ask::Notified),
    ("next_watch", Ask::NextWatch),
    ("write_accepted", Ask::WriteAccepted),
    ("believers", Ask::Believers),
    ("after_expiry", Ask::AfterExpiry),
    ("ever_acquires", Ask::EverAcquires),
    ("next_sequence", Ask::NextSequence),
    ("duplicate", Ask::Duplicate),
    ("survives", Ask::Survives),
    ("read", Ask::Read),
];

fn kind(name: &str) -> Option<Kind> {
    by_name(&KINDS, name)
}

fn ask(name: &str) -> Option<Ask> {
    by_name(&ASKS, name)
}

#[cfg(test)]
mod tests;
