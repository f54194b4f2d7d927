//! A simulated client process: its ZooKeeper library, its lock recipe and its application loop,
//! glued together. Inputs are messages and timers; outputs are messages to send.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::app::{App, AppOut, AppState};
use super::rng::SimRng;
use super::types::{ClientId, ResDown, ResUp, Tick, ZkDown, ZkUp};
use super::zkclient::{LibOut, LibTimer, ZkClient};
pub use super::svclib::{is_event, SvcLib};
use crate::recipes::wire::{SvcAns, SvcReq};
use crate::recipes::{Recipe, RecipeIn, RecipeOut, SessionEvent};
#[cfg(feature = "services")]
use crate::services::etcd::types::{Req, Resp};

/// Whether the process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Proc {
    Running,
    /// A GC or VM pause: nothing runs until then, and the process then carries on believing
    /// what it believed.
    Paused { until: Tick },
    Crashed,
    /// Closed its session gracefully and stopped.
    Closed,
}

/// A message a client wants to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    Zk(ZkUp),
    Res(ResUp),
    Svc(SvcReq),
}

/// A client's own timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Timer {
    Start,
    WorkDone,
    AcquireTimeout,
    Lib(LibTimer),
    /// The recipe's poll delay is over.
    Retry,
    /// Send the etcd lease keep-alive.
    KeepAlive,
    /// The oldest request has gone unanswered for the read timeout: send it again.
    Resend,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Client {
    pub id: ClientId,
    pub zk: ZkClient,
    pub recipe: Recipe,
    pub app: App,
    pub proc: Proc,
    pub svc: SvcLib,
    /// The recipe refused a release during the current step (not the owner).
    pub refused_now: bool,
}

impl Client {
    pub fn new(id: ClientId, zk: ZkClient, recipe: Recipe, app: App) -> Self {
        let svc = SvcLib { zk: recipe.service() == crate::recipes::ServiceKind::ZooKeeper, ..SvcLib::default() };
        Client { id, zk, recipe, app, proc: Proc::Running, svc, refused_now: false }
    }

    pub fn name(&self) -> String {
        format!("C{}", self.id + 1)
    }

    pub fn alive(&self) -> bool {
        matches!(self.proc, Proc::Running | Proc::Paused { .. })
    }

    /// The earliest timer of this client (deferred past a pause).
    pub fn next_timer(&self, timeless: bool) -> Option<(Tick, Timer)> {
        if !self.alive() {
            return None;
        }
        let mut timers: Vec<(Tick, Timer)> = Vec::new();
        if let (Some(t), AppState::Idle) = (self.app.next_start, self.app.state) {
            timers.push((t, Timer::Start));
        }
        if let AppState::Working { until } = self.app.state {
            timers.push((until, Timer::WorkDone));
        }
        if let (Some(t), AppState::Acquiring) = (self.app.acquire_deadline, self.app.state) {
            timers.push((t, Timer::AcquireTimeout));
        }
        if !timeless && self.svc.zk {
            timers.extend(self.zk.next_timer().map(|(t, l)| (t, Timer::Lib(l))));
        }
        timers.extend(self.svc.retry_at.map(|t| (t, Timer::Retry)));
        if self.app.state != AppState::Done {
            timers.extend(self.svc.keepalive.map(|(_, _, t)| (t, Timer::KeepAlive)));
        }
        timers.extend(self.svc.resend_at().map(|t| (t, Timer::Resend)));
        let resume = match self.proc {
            Proc::Paused { until } => until,
            _ => 0,
        };
        timers.into_iter().map(|(t, k)| (t.max(resume), k)).min()
    }

    /// Fires a timer.
    pub fn fire(&mut self, now: Tick, timer: Timer, rng: &mut SimRng) -> Vec<Outgoing> {
        self.wake(now);
        let app_outs = match timer {
            Timer::Start => self.app.start(now),
            Timer::WorkDone => self.app.work_done(),
            Timer::AcquireTimeout => self.app.timeout_due(),
            Timer::Lib(l) => {
                let lib = self.zk.fire(now, l);
                return self.run(now, lib, Vec::new(), rng);
            }
            Timer::Retry => {
                self.svc.retry_at = None;
                vec![AppOut::Recipe(RecipeIn::Retry)]
            }
            Timer::KeepAlive => return self.keepalive(now),
            Timer::Resend => return self.svc.resend(now),
        };
        self.run(now, Vec::new(), app_outs, rng)
    }

    pub fn receive_zk(&mut self, now: Tick, msg: ZkDown, rng: &mut SimRng) -> Vec<Outgoing> {
        self.wake(now);
        let lib = self.zk.receive(now, msg);
        self.run(now, lib, Vec::new(), rng)
    }

    /// An answer or watch event from a non-ZooKeeper lock service.
    pub fn receive_svc(&mut self, now: Tick, msg: SvcAns, rng: &mut SimRng) -> Vec<Outgoing> {
        self.wake(now);
        if !is_event(&msg) {
            self.svc.unanswered.pop_front();
        }
        #[cfg(feature = "services")]
        if let SvcAns::Etcd(Resp::KeepAlive { ttl, .. }) = msg {
            // A keep-alive answered with TTL <= 0: the lease is gone, and so is the session.
            let lost = if ttl <= 0 { vec![AppOut::Recipe(RecipeIn::Session(SessionEvent::Expired))] } else { Vec::new() };
            return self.run(now, Vec::new(), lost, rng);
        }
        self.run(now, Vec::new(), vec![AppOut::Recipe(RecipeIn::Svc(msg))], rng)
    }

    #[cfg(not(feature = "services"))]
    fn keepalive(&mut self, _: Tick) -> Vec<Outgoing> {
        Vec::new()
    }

    #[cfg(feature = "services")]
    fn keepalive(&mut self, now: Tick) -> Vec<Outgoing> {
        let Some((lease, every, _)) = self.svc.keepalive else { return Vec::new() };
        self.svc.keepalive = Some((lease, every, now + every));
        let req = SvcReq::Etcd(Req::LeaseKeepAlive { id: lease });
        self.svc.unanswered.push_back((req.clone(), now));
        vec![Outgoing::Svc(req)]
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

    pub fn command_release(&mut self, now: Tick, rng: &mut SimRng) -> Vec<Outgoing> {
        self.refused_now = false;
        let outs = if self.recipe.holding() { self.app.release() } else { vec![AppOut::Recipe(RecipeIn::Release)] };
        self.run(now, Vec::new(), outs, rng)
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
    fn run(&mut self, now: Tick, lib: Vec<LibOut>, app: Vec<AppOut>, rng: &mut SimRng) -> Vec<Outgoing> {
        let mut out = Vec::new();
        let mut recipe_inputs: VecDeque<RecipeIn> = VecDeque::new();
        self.absorb_lib(lib, &mut out, &mut recipe_inputs);
        self.absorb_app(app, &mut out, &mut recipe_inputs);
        while let Some(input) = recipe_inputs.pop_front() {
            for ro in self.recipe.handle(input) {
                self.refused_now |= ro == RecipeOut::Failed(crate::recipes::Failure::NotOwner);
                let app = self.on_recipe(now, ro, &mut out, &mut recipe_inputs, rng);
                self.absorb_app(app, &mut out, &mut recipe_inputs);
            }
        }
        out
    }

    fn on_recipe(&mut self, now: Tick, ro: RecipeOut, out: &mut Vec<Outgoing>, q: &mut VecDeque<RecipeIn>, rng: &mut SimRng) -> Vec<AppOut> {
        match ro {
            RecipeOut::Send(request) => {
                let lib = self.zk.send(now, request);
                self.absorb_lib(lib, out, q);
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
            RecipeOut::Svc(req) => {
                self.svc.unanswered.push_back((req.clone(), now));
                out.push(Outgoing::Svc(req));
                Vec::new()
            }
            RecipeOut::RetryAfter(poll) => {
                self.svc.retry_at = Some(now + rng.range(poll.div_ceil(2), poll.max(1)));
                Vec::new()
            }
            RecipeOut::CancelRetry => {
                self.svc.retry_at = None;
                Vec::new()
            }
            RecipeOut::KeepAlive(k) => {
                self.svc.keepalive = k.map(|(lease, every)| (lease, every, now + every));
                Vec::new()
            }
        }
    }

    fn absorb_lib(&mut self, lib: Vec<LibOut>, out: &mut Vec<Outgoing>, q: &mut VecDeque<RecipeIn>) {
        for l in lib {
            match l {
                LibOut::Send(m) => out.push(Outgoing::Zk(m)),
                LibOut::Recipe(r) => q.push_back(r),
            }
        }
    }

    fn absorb_app(&mut self, app: Vec<AppOut>, out: &mut Vec<Outgoing>, q: &mut VecDeque<RecipeIn>) {
        for a in app {
            match a {
                AppOut::Recipe(r) => q.push_back(r),
                AppOut::Res(m) => out.push(Outgoing::Res(m)),
            }
        }
    }
}
