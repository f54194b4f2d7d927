//! A simulated client process: its lock service's client library, its lock recipe and its
//! application loop, glued together. Inputs are messages and timers; outputs are messages to
//! send. Nothing here knows which lock service it talks to.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::app::{App, AppOut, AppState};
use super::rng::SimRng;
use super::types::{ClientId, ResDown, ResUp, Tick};
use crate::recipes::{Recipe, RecipeIn, RecipeOut};
use crate::services::api::LibOut;
use crate::services::{Answer, Claim, Down, Lib, LibCtx, LibTimer, Up};

/// Whether the process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Proc {
    Running,
    /// A GC or VM pause: nothing runs until then, and the process then carries on believing
    /// what it believed.
    Paused {
        until: Tick,
    },
    Crashed,
    /// Closed its session gracefully and stopped.
    Closed,
}

/// A message a client wants to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    Up(Up),
    /// Its operating system closes the connection to the service.
    Hangup,
    Res(ResUp),
}

/// A client's own timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Timer {
    Start,
    WorkDone,
    AcquireTimeout,
    /// The library's connection timers (ping, read timeout, reconnect).
    Lib(LibTimer),
    /// The recipe's poll delay is over.
    Retry,
    /// Send the lease keep-alive.
    KeepAlive,
    /// The oldest request has gone unanswered for the read timeout: send it again.
    Resend,
}

impl Timer {
    fn of_lib(t: LibTimer) -> Timer {
        match t {
            LibTimer::KeepAlive => Timer::KeepAlive,
            LibTimer::Resend => Timer::Resend,
            other => Timer::Lib(other),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    pub id: ClientId,
    pub lib: Lib,
    pub recipe: Recipe,
    pub app: App,
    pub proc: Proc,
    /// When the recipe's poll delay (or retry back-off) ends.
    pub retry_at: Option<Tick>,
    /// The base sleep of the recipe's retry back-off (Curator's `baseSleepTimeMs`).
    pub retry_base: Tick,
    /// The pending retry timer is a back-off after a failure, not a poll delay.
    pub backing_off: bool,
    /// The recipe refused a release during the current step (not the owner).
    pub refused_now: bool,
}

type Effects = Vec<LibOut<Up, Answer>>;

impl Client {
    pub fn new(id: ClientId, lib: Lib, recipe: Recipe, app: App) -> Self {
        Client {
            id,
            lib,
            recipe,
            app,
            proc: Proc::Running,
            retry_at: None,
            retry_base: 1,
            backing_off: false,
            refused_now: false,
        }
    }

    pub fn name(&self) -> String {
        format!("C{}", self.id + 1)
    }

    pub fn alive(&self) -> bool {
        matches!(self.proc, Proc::Running | Proc::Paused { .. })
    }

    /// What this client believes it has put in the service, for the service to compare.
    pub fn claim(&self) -> Claim<'_> {
        let b = self.recipe.belief();
        Claim {
            conn: self.id,
            session: self.lib.session(),
            node: b.node,
            token: b.token,
            lease: b.lease,
        }
    }

    /// The library's first messages (a ZooKeeper client connects).
    pub fn start(&mut self, now: Tick) -> Vec<Outgoing> {
        self.lib
            .start(now)
            .into_iter()
            .filter_map(outgoing)
            .collect()
    }

    /// The earliest timer of this client (deferred past a pause).
    pub fn next_timer(&self, timeless: bool) -> Option<(Tick, Timer)> {
        if !self.alive() {
            return None;
        }
        // No list: the scheduler asks every client at every step.
        let start = match (self.app.next_start, self.app.state) {
            (Some(t), AppState::Idle) => Some((t, Timer::Start)),
            _ => None,
        };
        let work = match self.app.state {
            AppState::Working { until } => Some((until, Timer::WorkDone)),
            _ => None,
        };
        let acquire = match (self.app.acquire_deadline, self.app.state) {
            (Some(t), AppState::Acquiring) => Some((t, Timer::AcquireTimeout)),
            _ => None,
        };
        let ctx = LibCtx {
            timeless,
            app_done: self.app.state == AppState::Done,
        };
        let lib = self.lib.next_timer(ctx).map(|(t, l)| (t, Timer::of_lib(l)));
        let retry = self.retry_at.map(|t| (t, Timer::Retry));
        let resume = match self.proc {
            Proc::Paused { until } => until,
            _ => 0,
        };
        [start, work, acquire, lib, retry]
            .into_iter()
            .flatten()
            .map(|(t, k)| (t.max(resume), k))
            .min()
    }

    /// Fires a timer.
    pub fn fire(&mut self, now: Tick, timer: Timer, rng: &mut SimRng) -> Vec<Outgoing> {
        self.wake(now);
        let app_outs = match timer {
            Timer::Start => self.app.start(now),
            Timer::WorkDone => self.app.work_done(),
            Timer::AcquireTimeout => self.app.timeout_due(),
            Timer::Lib(l) => return self.from_lib(now, l, rng),
            Timer::KeepAlive => return self.from_lib(now, LibTimer::KeepAlive, rng),
            Timer::Resend => return self.from_lib(now, LibTimer::Resend, rng),
            Timer::Retry => {
                self.retry_at = None;
                vec![AppOut::Recipe(RecipeIn::Retry)]
            }
        };
        self.run(now, Vec::new(), app_outs, rng)
    }

    fn from_lib(&mut self, now: Tick, t: LibTimer, rng: &mut SimRng) -> Vec<Outgoing> {
        let lib = self.lib.fire(now, t);
        self.run(now, lib, Vec::new(), rng)
    }

    /// A message from the lock service.
    pub fn receive(&mut self, now: Tick, msg: Down, rng: &mut SimRng) -> Vec<Outgoing> {
        self.wake(now);
        let lib = self.lib.receive(now, msg);
        self.run(now, lib, Vec::new(), rng)
    }

    pub fn receive_res(&mut self, now: Tick, msg: ResDown, rng: &mut SimRng) -> Vec<Outgoing> {
        self.wake(now);
        let outs = self.app.on_resource(now, msg, rng);
        self.run(now, Vec::new(), outs, rng)
    }

    /// A user's or script's command to the application.
    pub fn command_acquire(&mut self, now: Tick, rng: &mut SimRng) -> Vec<Outgoing> {
        let outs = self.app.start(now);
        self.run(now, Vec::new(), outs, rng)
    }

    /// The application reads the lock node (observers; other recipes ignore it).
    pub fn command_read(&mut self, now: Tick, sync: bool, rng: &mut SimRng) -> Vec<Outgoing> {
        let outs = vec![AppOut::Recipe(RecipeIn::Read { sync })];
        self.run(now, Vec::new(), outs, rng)
    }

    pub fn command_release(&mut self, now: Tick, rng: &mut SimRng) -> Vec<Outgoing> {
        self.refused_now = false;
        let outs = if self.recipe.holding() {
            self.app.release()
        } else {
            vec![AppOut::Recipe(RecipeIn::Release)]
        };
        self.run(now, Vec::new(), outs, rng)
    }

    /// The application extends the lock it holds.
    pub fn command_extend(&mut self, now: Tick, rng: &mut SimRng) -> Vec<Outgoing> {
        self.run(now, Vec::new(), vec![AppOut::Recipe(RecipeIn::Extend)], rng)
    }

    /// The application stops waiting for the lock.
    pub fn command_cancel(&mut self, now: Tick, rng: &mut SimRng) -> Vec<Outgoing> {
        self.run(now, Vec::new(), vec![AppOut::Recipe(RecipeIn::Cancel)], rng)
    }

    /// The application closes the client gracefully.
    pub fn close(&mut self, now: Tick) -> Vec<Outgoing> {
        let b = self.recipe.belief();
        let claim = Claim {
            conn: self.id,
            session: self.lib.session(),
            node: b.node,
            token: b.token,
            lease: b.lease,
        };
        let lib = self.lib.close(now, &claim);
        self.app.state = AppState::Done;
        self.proc = Proc::Closed;
        lib.into_iter().filter_map(outgoing).collect()
    }

    /// The process dies (the world forgets its messages first): what its operating system
    /// still sends.
    pub fn crash(&mut self) -> Vec<Outgoing> {
        self.lib.crash().into_iter().filter_map(outgoing).collect()
    }

    fn wake(&mut self, now: Tick) {
        if let Proc::Paused { until } = self.proc {
            if now >= until {
                self.proc = Proc::Running;
            }
        }
        self.refused_now = false;
    }

    /// Runs library effects and application requests to quiescence.
    fn run(
        &mut self,
        now: Tick,
        lib: Effects,
        app: Vec<AppOut>,
        rng: &mut SimRng,
    ) -> Vec<Outgoing> {
        let mut out = Vec::new();
        let mut recipe_inputs: VecDeque<RecipeIn> = VecDeque::new();
        absorb_lib(lib, &mut out, &mut recipe_inputs);
        absorb_app(app, &mut out, &mut recipe_inputs);
        while let Some(input) = recipe_inputs.pop_front() {
            self.recipe.at(now);
            for ro in self.recipe.handle(input) {
                self.refused_now |= ro == RecipeOut::Failed(crate::recipes::Failure::NotOwner);
                let app = self.on_recipe(now, ro, &mut out, &mut recipe_inputs, rng);
                absorb_app(app, &mut out, &mut recipe_inputs);
            }
        }
        out
    }

    fn on_recipe(
        &mut self,
        now: Tick,
        ro: RecipeOut,
        out: &mut Vec<Outgoing>,
        q: &mut VecDeque<RecipeIn>,
        rng: &mut SimRng,
    ) -> Vec<AppOut> {
        match ro {
            RecipeOut::Send(call) => {
                let lib = self.lib.call(now, call);
                absorb_lib(lib, out, q);
                Vec::new()
            }
            RecipeOut::Acquired { token } => self.app.on_acquired(now, token),
            RecipeOut::Released => {
                self.app.on_released(now, rng);
                Vec::new()
            }
            RecipeOut::Failed(why) => {
                self.app.on_failed(now, &why, rng);
                Vec::new()
            }
            RecipeOut::Lost => {
                self.app.on_lost(now, rng);
                Vec::new()
            }
            RecipeOut::RetryAfter(poll) => {
                self.backing_off = false;
                self.retry_at = Some(now + rng.range(poll.div_ceil(2), poll.max(1)));
                Vec::new()
            }
            RecipeOut::RetryBetween(lo, hi) => {
                self.backing_off = false;
                self.retry_at = Some(now + rng.range(lo, hi.max(lo)));
                Vec::new()
            }
            RecipeOut::Backoff { retry } => {
                let spread = (1u64 << (retry + 1).min(20)) - 1;
                self.retry_at = Some(now + self.retry_base * rng.range(0, spread).max(1));
                self.backing_off = true;
                Vec::new()
            }
            RecipeOut::CancelRetry => {
                self.retry_at = None;
                Vec::new()
            }
            RecipeOut::Read => {
                self.app.on_read(now, rng);
                Vec::new()
            }
        }
    }
}

/// A library effect that leaves the process.
fn outgoing(l: LibOut<Up, Answer>) -> Option<Outgoing> {
    match l {
        LibOut::Send(m) => Some(Outgoing::Up(m)),
        LibOut::Hangup => Some(Outgoing::Hangup),
        LibOut::Answer(_) | LibOut::Session(_) => None,
    }
}

fn absorb_lib(lib: Effects, out: &mut Vec<Outgoing>, q: &mut VecDeque<RecipeIn>) {
    for l in lib {
        match l {
            LibOut::Send(m) => out.push(Outgoing::Up(m)),
            LibOut::Hangup => out.push(Outgoing::Hangup),
            LibOut::Answer(a) => q.push_back(RecipeIn::Answer(a)),
            LibOut::Session(e) => q.push_back(RecipeIn::Session(e)),
        }
    }
}

fn absorb_app(app: Vec<AppOut>, out: &mut Vec<Outgoing>, q: &mut VecDeque<RecipeIn>) {
    for a in app {
        match a {
            AppOut::Recipe(r) => q.push_back(r),
            AppOut::Res(m) => out.push(Outgoing::Res(m)),
        }
    }
}
