//! The application loop around a lock: acquire, read the protected resource, work for a while,
//! write back (writers only), release, think, repeat. A write the resource rejects for a stale
//! fencing token was not done: the round is done again, under a new acquire.

use serde::{Deserialize, Serialize};

use super::rng::SimRng;
use super::types::{ResDown, ResUp, Tick};
use crate::recipes::{Failure, RecipeIn};

/// Where the application is in its loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AppState {
    /// Not using the lock; starts again at `next_start` (if rounds remain).
    Idle,
    Acquiring,
    Reading,
    Working {
        until: Tick,
    },
    Writing,
    Releasing,
    Done,
}

/// How the application behaves (from the scenario).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AppConfig {
    pub hold_min: Tick,
    pub hold_max: Tick,
    pub think_min: Tick,
    pub think_max: Tick,
    pub rounds: u32,
    /// Writers read-modify-write; readers only read.
    pub writer: bool,
    /// Reentrant depth: acquire this many times, release as many.
    pub nesting: u32,
    pub acquire_timeout: Option<Tick>,
    /// Whether the work reads and writes the protected resource.
    pub resource_io: bool,
    /// An observer: takes no lock, only reads the lock node when a command asks.
    #[serde(default)]
    pub observes: bool,
}

/// What the application asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppOut {
    Recipe(RecipeIn),
    Res(ResUp),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct App {
    pub cfg: AppConfig,
    pub state: AppState,
    pub next_start: Option<Tick>,
    pub rounds_left: u32,
    pub token: Option<i64>,
    pub read: Option<(u64, u64)>,
    pub acquire_since: Tick,
    pub acquire_deadline: Option<Tick>,
    releases_due: u32,
    /// Ticks the most recent acquisitions waited (the last [`RECENT_WAITS`]).
    pub waits: std::collections::VecDeque<Tick>,
    pub acquisitions: u64,
    pub wait_total: Tick,
    pub wait_max: Tick,
    /// Grants of a nested (reentrant) acquire while already holding.
    pub nested_grants: u64,
    /// The resource rejected this round's write (a stale fencing token): the work was not
    /// done, so the round is done again with a new acquire once the lock is released.
    pub redo: bool,
}

/// How many recent wait times a client keeps for its sparkline.
pub const RECENT_WAITS: usize = 16;

impl App {
    pub fn new(cfg: AppConfig, first_start: Tick) -> Self {
        let rounds_left = cfg.rounds;
        App {
            cfg,
            state: AppState::Idle,
            next_start: (rounds_left > 0).then_some(first_start),
            rounds_left,
            token: None,
            read: None,
            acquire_since: 0,
            acquire_deadline: None,
            releases_due: 0,
            waits: std::collections::VecDeque::new(),
            acquisitions: 0,
            wait_total: 0,
            wait_max: 0,
            nested_grants: 0,
            redo: false,
        }
    }

    /// Between a grant and the write's answer: the application works as the lock's holder
    /// (it reads, works on and writes the protected resource).
    pub fn under_lock(&self) -> bool {
        matches!(
            self.state,
            AppState::Reading | AppState::Working { .. } | AppState::Writing
        )
    }

    /// Start a round (the Start timer, or a user's "acquire").
    pub fn start(&mut self, now: Tick) -> Vec<AppOut> {
        if !matches!(self.state, AppState::Idle | AppState::Done) {
            return Vec::new();
        }
        self.next_start = None;
        self.state = AppState::Acquiring;
        self.acquire_since = now;
        self.acquire_deadline = self.cfg.acquire_timeout.map(|t| now.saturating_add(t));
        vec![AppOut::Recipe(RecipeIn::Acquire)]
    }

    pub fn on_acquired(&mut self, now: Tick, token: i64) -> Vec<AppOut> {
        if self.state != AppState::Acquiring {
            self.nested_grants += u64::from(self.token.is_some());
            return Vec::new();
        }
        let waited = now - self.acquire_since;
        if self.waits.len() == RECENT_WAITS {
            self.waits.pop_front();
        }
        self.waits.push_back(waited);
        self.acquisitions += 1;
        self.wait_total += waited;
        self.wait_max = self.wait_max.max(waited);
        self.acquire_deadline = None;
        self.token = Some(token);
        self.state = AppState::Reading;
        let mut out: Vec<AppOut> = (1..self.cfg.nesting.max(1))
            .map(|_| AppOut::Recipe(RecipeIn::Acquire))
            .collect();
        if self.cfg.resource_io {
            out.push(AppOut::Res(ResUp::Read { token }));
        } else {
            self.state = AppState::Working {
                until: now.saturating_add(self.cfg.hold_min),
            };
        }
        out
    }

    pub fn on_resource(&mut self, now: Tick, msg: ResDown, rng: &mut SimRng) -> Vec<AppOut> {
        match (self.state, msg) {
            (AppState::Reading, ResDown::ReadOk { value, version }) => {
                self.read = Some((value, version));
                self.state = AppState::Working {
                    until: now.saturating_add(rng.range(self.cfg.hold_min, self.cfg.hold_max)),
                };
                Vec::new()
            }
            (AppState::Writing, ResDown::WriteOk { .. }) => self.release(),
            (AppState::Writing, ResDown::WriteRejected { .. }) => {
                self.redo = true;
                self.release()
            }
            _ => Vec::new(),
        }
    }

    /// The work is done: write back (writers), then release.
    pub fn work_done(&mut self) -> Vec<AppOut> {
        if !matches!(self.state, AppState::Working { .. }) {
            return Vec::new();
        }
        match (self.cfg.writer && self.cfg.resource_io, self.read) {
            (true, Some((value, version))) => {
                self.state = AppState::Writing;
                let token = self.token.unwrap_or(0);
                vec![AppOut::Res(ResUp::Write {
                    value: value + 1,
                    read_version: version,
                    token,
                })]
            }
            _ => self.release(),
        }
    }

    /// Release now (end of work, or a user's "release").
    pub fn release(&mut self) -> Vec<AppOut> {
        self.state = AppState::Releasing;
        self.releases_due = self.cfg.nesting.max(1);
        (0..self.releases_due)
            .map(|_| AppOut::Recipe(RecipeIn::Release))
            .collect()
    }

    pub fn on_released(&mut self, now: Tick, rng: &mut SimRng) {
        if self.state != AppState::Releasing {
            return;
        }
        self.releases_due = self.releases_due.saturating_sub(1);
        if self.releases_due == 0 {
            self.end_round(now, rng);
        }
    }

    fn end_round(&mut self, now: Tick, rng: &mut SimRng) {
        self.token = None;
        self.read = None;
        if !std::mem::take(&mut self.redo) {
            self.rounds_left = self.rounds_left.saturating_sub(1);
        }
        if self.rounds_left > 0 {
            self.state = AppState::Idle;
            self.next_start =
                Some(now.saturating_add(rng.range(self.cfg.think_min, self.cfg.think_max)));
        } else {
            self.state = AppState::Done;
        }
    }

    pub fn on_failed(&mut self, now: Tick, why: &Failure, rng: &mut SimRng) {
        if *why == Failure::NotOwner {
            return; // a refused release changes nothing (the recipe says why)
        }
        if self.state == AppState::Acquiring {
            self.acquire_deadline = None;
            self.end_round(now, rng);
        } else if self.state == AppState::Releasing {
            self.on_released(now, rng);
        }
    }

    /// An observer's read is done: a round it started is over.
    pub fn on_read(&mut self, now: Tick, rng: &mut SimRng) {
        if self.state == AppState::Acquiring {
            self.acquire_deadline = None;
            self.end_round(now, rng);
        }
    }

    /// The recipe learned the lock is gone: abandon the work in progress.
    pub fn on_lost(&mut self, now: Tick, rng: &mut SimRng) {
        if !matches!(
            self.state,
            AppState::Idle | AppState::Done | AppState::Acquiring
        ) {
            self.end_round(now, rng);
        }
    }

    pub fn timeout_due(&mut self) -> Vec<AppOut> {
        self.acquire_deadline = None;
        vec![AppOut::Recipe(RecipeIn::Timeout)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let cfg = AppConfig {
            hold_min: 2,
            hold_max: 2,
            think_min: 3,
            think_max: 3,
            rounds: 1,
            writer: true,
            nesting: 1,
            acquire_timeout: None,
            resource_io: true,
            observes: false,
        };
        App::new(cfg, 0)
    }

    /// Acquire, read, work and write once; the resource answers the write with `answer`.
    fn round(a: &mut App, answer: ResDown, rng: &mut SimRng) {
        a.start(0);
        a.on_acquired(1, 7);
        a.on_resource(
            2,
            ResDown::ReadOk {
                value: 0,
                version: 0,
            },
            rng,
        );
        a.work_done();
        a.on_resource(4, answer, rng);
        a.on_released(5, rng);
    }

    #[test]
    fn a_rejected_write_is_done_again_under_a_new_acquire() {
        let mut rng = SimRng::new(1);
        let mut a = app();
        round(
            &mut a,
            ResDown::WriteRejected {
                token: 7,
                highest: 9,
            },
            &mut rng,
        );
        assert_eq!(
            (a.state, a.rounds_left),
            (AppState::Idle, 1),
            "the round is not used up"
        );
        assert_eq!(a.next_start, Some(8), "it starts again after thinking");
        round(&mut a, ResDown::WriteOk { value: 1 }, &mut rng);
        assert_eq!((a.state, a.rounds_left), (AppState::Done, 0));
    }
}
