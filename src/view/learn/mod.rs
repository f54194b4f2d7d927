//! Learn mode: a course of chapters, each a lesson file under `lessons/` (the format an
//! author's own lessons use, [`lesson`]), in the order that
//! builds understanding — unique IDs without a lock, the naive lock and its herd, a lost
//! wake-up, the sequential queue, crashes and session expiry, a waiter leaving and the
//! no-re-check bug, Curator's protection and reentrancy, read/write locks, pauses and
//! partitions, fencing tokens, the other lock services, consensus, Redlock and the clock, the
//! requirements matrix, and finding a bug with the exhaustive search. A chapter's questions are generated from its run
//! ([`questions`]), so their answers are always what the following steps show.

mod builtin;
pub mod lesson;
pub mod progress;
pub mod questions;
pub mod text;
pub mod veil;
#[cfg(test)]
mod walk;

use serde::{Deserialize, Serialize};

use crate::recipes::program::starters::Starter;
use crate::recipes::RecipeKind;
use crate::sim::moments::Kind;
use crate::sim::{Action, Lang, Scenario};
pub use builtin::{adopt, course};
pub use lesson::{Stop, Text};

/// What a question asks; its answer comes from a later key frame of the run (its name in a
/// lesson file: `snake_case`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// What an observer's next read of `/lock` will see (on a lagging server, or after `sync`).
    Read,
}

impl Ask {
    /// Every question a lesson may ask.
    pub const ALL: [Ask; 10] = [
        Ask::Notified,
        Ask::NextWatch,
        Ask::WriteAccepted,
        Ask::Believers,
        Ask::AfterExpiry,
        Ask::EverAcquires,
        Ask::NextSequence,
        Ask::Duplicate,
        Ask::Survives,
        Ask::Read,
    ];

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
            Ask::Read => &[Kind::StaleRead, Kind::FreshRead],
        }
    }
}

/// A search for a recipe's bug: its recipe, clients, and whether waiters may leave. With a
/// `task`, a task of "Write your own lock": the learner starts from that recipe in the recipe
/// editor (with [`Hunt::task_faults`] ticked) and the checker's verdict on what they write is
/// the task's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hunt {
    pub recipe: RecipeKind,
    pub clients: u32,
    pub allow_close: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Starter>,
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

    /// A task's faults: a crash and a pause; where waiters may leave, that alone (with all
    /// three, three clients' states run past what a page searches).
    pub fn task_faults(&self) -> crate::sim::check::Faults {
        crate::sim::check::Faults {
            crash: !self.allow_close,
            pause: !self.allow_close,
            close: self.allow_close,
        }
    }

    /// The search bounds (the exhaustive tests' own).
    pub fn config(&self) -> crate::sim::explore::ExploreConfig {
        crate::sim::explore::ExploreConfig {
            max_depth: 200,
            max_states: 400_000,
            allow_close: self.allow_close,
            crash_leader: false,
            ..crate::sim::explore::ExploreConfig::bounded()
        }
    }
}

/// What a chapter shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body<'a> {
    /// A run (a preset's, or the lesson's own scenario), paused at key frames and stops.
    Run,
    /// "Find the bug": the exhaustive search over these recipes, run in the browser.
    Search { hunts: &'a [Hunt] },
    /// The requirements matrix.
    Matrix,
}

/// A lesson: one of the course's chapters or an author's own. Its JSON is the lesson file
/// ([`lesson`]); the fields are written in this order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chapter {
    /// The format's version ([`lesson::VERSION`]).
    pub lockstep_lesson: u32,
    pub id: String,
    pub title: Text,
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub intro: Text,
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub takeaway: Text,
    /// The preset whose run it shows (with `scenario`: the preset the run is told as).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// A whole scenario, when the run is no preset's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    /// The user's commands: `[step, action]`, as a shared link's `cmds`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cmds: Vec<(u64, Action)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stops: Vec<Stop>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search: Vec<Hunt>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub matrix: bool,
    /// Playback also stops at the preset's own key frames (false: only at the lesson's stops
    /// and where its questions are answered).
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub preset_key_frames: bool,
}

fn yes() -> bool {
    true
}

impl Chapter {
    pub fn title(&self, lang: Lang) -> &str {
        self.title.get(lang)
    }
    pub fn intro(&self, lang: Lang) -> &str {
        self.intro.get(lang)
    }
    pub fn takeaway(&self, lang: Lang) -> &str {
        self.takeaway.get(lang)
    }

    /// What it shows: a search, a run (which may end by opening the matrix: `matrix` beside
    /// a `preset` or `scenario`), or the matrix alone.
    pub fn body(&self) -> Body<'_> {
        if !self.search.is_empty() {
            Body::Search {
                hunts: &self.search,
            }
        } else if self.matrix && self.preset.is_none() && self.scenario.is_none() {
            Body::Matrix
        } else {
            Body::Run
        }
    }

    /// The key-frame kinds the chapter stops at: its preset's, where its questions are posed,
    /// and where they are answered.
    pub fn kinds(&self) -> Vec<Kind> {
        if self.body() != Body::Run {
            return Vec::new();
        }
        let own: Vec<Kind> = match self.preset_key_frames {
            false => Vec::new(),
            true => crate::sim::presets::find(self.preset_name())
                .map_or(crate::sim::moments::DEFAULT.to_vec(), |p| {
                    p.moments.to_vec()
                }),
        };
        let mut k = own.clone();
        for s in &self.stops {
            k.extend(s.at);
            let Some(ask) = s.ask else { continue };
            // A reveal kind the preset already stops at answers the question; adding the
            // others would end the chapter on a frame that contradicts its takeaway (the
            // herd's last release, with one waiter left, is a hand-off). An author's question
            // at a step always gets its answer's key frames.
            let reveals = ask.reveals();
            let answered = reveals.iter().any(|r| Some(*r) != s.at && own.contains(r));
            if s.step.is_some() || !answered {
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
        if !crate::FULL {
            return true; // the course lives on the full page (see `builtin::course`)
        }
        match self.body() {
            Body::Run => {
                crate::sim::presets::is_service_preset(self.preset_name())
                    || self.scenario.as_ref().is_some_and(Scenario::needs_full)
            }
            Body::Matrix | Body::Search { .. } => true,
        }
    }

    /// The preset whose run the chapter shows, if any.
    pub fn preset(&self) -> Option<&str> {
        self.preset.as_deref()
    }

    /// The preset the run is told as ("custom" for a lesson's own scenario).
    pub fn preset_name(&self) -> &str {
        self.preset.as_deref().unwrap_or(crate::view::url::CUSTOM)
    }
}

/// A chapter by id (an empty id is the first chapter).
pub fn find(id: &str) -> Option<(usize, &'static Chapter)> {
    if id.is_empty() {
        return course().first().map(|c| (0, c));
    }
    course().iter().enumerate().find(|(_, c)| c.id == id)
}
