//! Learn mode: a course of chapters (data, one module each under `chapters/`) in the order that
//! builds understanding — unique IDs without a lock, the naive lock and its herd, a lost
//! wake-up, the sequential queue, crashes and session expiry, a waiter leaving and the
//! no-re-check bug, Curator's protection and reentrancy, read/write locks, pauses and
//! partitions, fencing tokens, the other lock services, consensus, Redlock and the clock, the
//! requirements matrix, and finding a bug with the exhaustive search. A chapter's questions are generated from its run
//! ([`questions`]), so their answers are always what the following steps show.

pub mod chapters;
pub mod progress;
pub mod questions;
pub mod text;
#[cfg(test)]
mod walk;

use crate::recipes::RecipeKind;
use crate::sim::moments::Kind;
use crate::sim::Lang;

/// What a question asks; its answer comes from a later key frame of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// How many clients the next release (or expiry) will notify.
    Notified,
    /// Which node the woken waiter will watch now.
    NextWatch,
    /// Whether the stale holder's write will be accepted.
    WriteAccepted,
    /// How many clients will believe they hold the lock.
    Believers,
    /// What the server does with a silent client's node.
    AfterExpiry,
    /// Whether the waiting client will ever get the lock.
    EverAcquires,
    /// The sequence number of the next lock node.
    NextSequence,
    /// Whether an ID will be handed out twice.
    Duplicate,
    /// Who holds the lock once a new leader is elected.
    Survives,
}

impl Ask {
    /// The key frames that answer it.
    pub fn reveals(self) -> &'static [Kind] {
        match self {
            Ask::Notified => &[Kind::Herd, Kind::Handoff],
            Ask::NextWatch => &[Kind::Rewatch],
            Ask::WriteAccepted => &[Kind::Fenced, Kind::LostUpdate],
            Ask::Believers => &[Kind::TwoHolders],
            Ask::AfterExpiry => &[Kind::Expiry],
            Ask::EverAcquires => &[Kind::Stuck],
            Ask::Duplicate => &[Kind::LostUpdate],
            Ask::NextSequence => &[],
            Ask::Survives => &[Kind::Elected],
        }
    }
}

/// A question posed at the first key frame of kind `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pose {
    pub at: Kind,
    pub ask: Ask,
}

/// A search for a recipe's bug: its recipe, clients, and whether waiters may leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hunt {
    pub recipe: RecipeKind,
    pub clients: u32,
    pub allow_close: bool,
}

impl Hunt {
    /// The searched scenario: one round each, hold time 1 (the timeless model fixes the rest).
    pub fn scenario(&self) -> crate::sim::Scenario {
        crate::sim::Scenario {
            recipe: self.recipe,
            clients: self.clients,
            hold_min: 1,
            hold_max: 1,
            rounds: 1,
            ..crate::sim::Scenario::default()
        }
    }

    /// The search bounds (the exhaustive tests' own).
    pub fn config(&self) -> crate::sim::explore::ExploreConfig {
        crate::sim::explore::ExploreConfig {
            max_depth: 200,
            max_states: 400_000,
            allow_close: self.allow_close,
            crash_leader: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    /// A preset's run, paused at its key frames, with questions.
    Run {
        preset: &'static str,
        poses: &'static [Pose],
    },
    /// "Find the bug": the exhaustive search over these recipes, run in the browser.
    Search { hunts: &'static [Hunt] },
    /// The requirements matrix.
    Matrix,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chapter {
    pub id: &'static str,
    pub title: [&'static str; 2],
    pub intro: [&'static str; 2],
    pub takeaway: [&'static str; 2],
    pub body: Body,
}

impl Chapter {
    pub fn title(&self, lang: Lang) -> &'static str {
        self.title[usize::from(lang == Lang::Zh)]
    }
    pub fn intro(&self, lang: Lang) -> &'static str {
        self.intro[usize::from(lang == Lang::Zh)]
    }
    pub fn takeaway(&self, lang: Lang) -> &'static str {
        self.takeaway[usize::from(lang == Lang::Zh)]
    }
    /// The key-frame kinds the chapter stops at: its preset's, where its questions are posed,
    /// and where they are answered.
    pub fn kinds(&self) -> Vec<Kind> {
        let Body::Run { preset, poses } = self.body else {
            return Vec::new();
        };
        let own: Vec<Kind> = crate::sim::presets::find(preset)
            .map(|p| p.moments.to_vec())
            .unwrap_or_default();
        let mut k = own.clone();
        for p in poses {
            k.push(p.at);
            // A reveal kind the preset already stops at answers the question; adding the
            // others would end the chapter on a frame that contradicts its takeaway (the
            // herd's last release, with one waiter left, is a hand-off).
            let reveals = p.ask.reveals();
            if !reveals.iter().any(|r| *r != p.at && own.contains(r)) {
                k.extend_from_slice(reveals);
            }
        }
        crate::sort::all(&mut k);
        k.dedup();
        k
    }

    /// Whether only the full bundle can show it: an ensemble, another lock service, the
    /// matrix, or the search (these stay out of the lean first page's budget).
    pub fn needs_full(&self) -> bool {
        match self.body {
            Body::Run { preset, .. } => crate::sim::presets::is_service_preset(preset),
            Body::Matrix | Body::Search { .. } => true,
        }
    }

    /// The preset whose run the chapter shows, if any.
    pub fn preset(&self) -> Option<&'static str> {
        match self.body {
            Body::Run { preset, .. } => Some(preset),
            _ => None,
        }
    }
}

/// The course, in order.
pub fn course() -> &'static [Chapter] {
    chapters::COURSE
}

/// A chapter by id (an empty id is the first chapter).
pub fn find(id: &str) -> Option<(usize, &'static Chapter)> {
    if id.is_empty() {
        return course().first().map(|c| (0, c));
    }
    course().iter().enumerate().find(|(_, c)| c.id == id)
}
