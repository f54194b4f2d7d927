//! The interpreter: what each input does to a [`Program`], and the statements it runs until
//! the recipe waits for something again (see the module's steps in `mod.rs`).

use super::compile::{COp, CWait, Ins, Part, Src, E};
use super::value::Value;
use super::{Mode, Program, Waiting, MAX_STEPS};
use crate::engine::{CreateMode, ErrorCode, EventType, Request, Response, WatchedEvent};
use crate::recipes::sequential::{next_dir, parent};
use crate::recipes::{zk, Answer, Failure, Phase, RecipeIn, RecipeOut, SessionEvent};
use crate::services::zookeeper;

type Outs = Vec<RecipeOut>;

impl Program {
    #[allow(unreachable_patterns)]
    pub fn handle(&mut self, input: RecipeIn) -> Outs {
        if !crate::STUDIO {
            return Outs::new(); // see `Source::new`
        }
        match input {
            RecipeIn::Acquire if self.phase == Phase::Idle && self.mode == Mode::Idle => {
                self.attempts += 1;
                self.token = crate::recipes::token(self.cfg.seed, self.attempts);
                (self.claimed, self.wrote) = (None, None);
                self.start(Mode::Lock, self.src.code.lock)
            }
            RecipeIn::Release if self.phase == Phase::Holding => match self.src.code.unlock {
                Some(pc) => {
                    self.phase = Phase::Releasing;
                    self.start(Mode::Unlock, pc)
                }
                None => self.released(),
            },
            RecipeIn::Answer(Answer::ZooKeeper(zookeeper::Answer::Reply { request, result })) => {
                self.zk_reply(request, result)
            }
            RecipeIn::Answer(Answer::ZooKeeper(zookeeper::Answer::Event(e))) => self.event(e),
            RecipeIn::Answer(a) => self.other_answer(a),
            RecipeIn::Session(e) if self.src.code.start_over => self.session(e),
            RecipeIn::Retry if self.waiting == Waiting::Ticks => self.resume(None),
            RecipeIn::Timeout
                if self.src.redis() && self.mode == Mode::Lock && self.claimed.is_none() =>
            {
                self.mode = Mode::Idle;
                self.waiting = Waiting::Nothing;
                self.phase = Phase::Idle;
                vec![RecipeOut::CancelRetry, RecipeOut::Failed(Failure::Timeout)]
            }
            _ => Vec::new(),
        }
    }

    fn start(&mut self, mode: Mode, pc: u16) -> Outs {
        if mode == Mode::Lock {
            self.vars.iter_mut().for_each(|v| *v = Value::None);
        }
        (self.mode, self.pc, self.waiting) = (mode, pc, Waiting::Nothing);
        self.run()
    }

    /// The awaited answer is in: keep it and go on.
    pub(super) fn resume(&mut self, keep: Option<(Option<u16>, Value)>) -> Outs {
        if let Some((Some(slot), v)) = keep {
            self.vars[usize::from(slot)] = v;
        }
        self.waiting = Waiting::Nothing;
        self.pc += 1;
        self.run()
    }

    fn zk_reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Outs {
        match (&self.waiting, &result) {
            (Waiting::Zk(r, _) | Waiting::MakePath(_, r), _) if *r != request => Vec::new(),
            (Waiting::Zk(..) | Waiting::MakePath(..), Err(ErrorCode::ConnectionLoss)) => {
                vec![zk(request)]
            }
            // Acquiring: the session is gone with everything it held; start over on the next.
            (Waiting::Zk(..) | Waiting::MakePath(..), Err(ErrorCode::SessionExpired))
                if self.mode == Mode::Lock =>
            {
                self.restart |= self.src.code.start_over;
                Vec::new()
            }
            (Waiting::MakePath(target, _), _) => {
                let target = target.clone();
                self.make_path(&target, &request, &result)
            }
            (Waiting::Zk(_, slot), _) => {
                let slot = *slot;
                let v = answer(&request, &result);
                if let (Request::Create { .. }, Ok(Response::Create { path, .. })) =
                    (&request, &result)
                {
                    if self.mode == Mode::Lock {
                        self.my_node = Some(path.clone());
                    }
                }
                self.resume(Some((slot, v)))
            }
            _ => Vec::new(),
        }
    }

    /// `makepath`: the create of `target` (or an ancestor) is answered; as the sequential
    /// recipe does, a missing parent is created first, then each level down to `target`.
    fn make_path(
        &mut self,
        target: &str,
        request: &Request,
        result: &Result<Response, ErrorCode>,
    ) -> Outs {
        let Request::Create { path, .. } = request else {
            return self.resume(None);
        };
        let next = match result {
            Err(ErrorCode::NoNode) if path.len() > 1 => Some(parent(path).to_string()),
            Ok(_) | Err(ErrorCode::NodeExists) => next_dir(target, path),
            _ => None,
        };
        match next.filter(|p| p != "/") {
            Some(p) => {
                let req = persistent(&p);
                self.waiting = Waiting::MakePath(target.to_string(), req.clone());
                vec![zk(req)]
            }
            None => self.resume(None),
        }
    }

    fn event(&mut self, e: WatchedEvent) -> Outs {
        let deleted = e.kind == EventType::NodeDeleted;
        match &self.waiting {
            Waiting::Watch => self.resume(None),
            Waiting::Deleted(p) if deleted && *p == e.path => self.resume(None),
            _ => {
                self.fired = Some((deleted, e.path));
                Vec::new()
            }
        }
    }

    /// A session event (`if the session expires: start over`).
    fn session(&mut self, e: SessionEvent) -> Outs {
        let mut restart = self.restart;
        let out = crate::recipes::on_session(e, &mut self.phase, &mut self.my_node, &mut restart);
        self.restart = restart;
        match out {
            Some(out) => {
                if out.contains(&RecipeOut::Lost) {
                    self.mode = Mode::Idle;
                    self.waiting = Waiting::Nothing;
                }
                out
            }
            None => self.start(Mode::Lock, self.src.code.lock),
        }
    }

    fn released(&mut self) -> Outs {
        (self.mode, self.waiting) = (Mode::Idle, Waiting::Nothing);
        crate::recipes::released(&mut self.phase, &mut self.my_node)
    }

    /// Runs statements until the recipe waits for something; returns what it sends.
    fn run(&mut self) -> Outs {
        let mut out = Vec::new();
        for _ in 0..MAX_STEPS {
            let Some(ins) = self.src.code.ins.get(usize::from(self.pc)).cloned() else {
                return self.fail("the recipe ran past its end");
            };
            match ins {
                Ins::Set(slot, e) => {
                    self.vars[usize::from(slot)] = self.eval(&e);
                    self.pc += 1;
                }
                Ins::JumpIfNot(e, to) => {
                    self.pc = if self.eval(&e).truthy() {
                        self.pc + 1
                    } else {
                        to
                    };
                }
                Ins::Jump(to) => self.pc = to,
                Ins::Op(slot, op) => {
                    out.extend(self.send(slot, &op));
                    return out;
                }
                Ins::Hold(e) => {
                    let token = e.map_or(0, |e| self.eval(&e).int().unwrap_or(0));
                    if self.src.redis() {
                        self.my_node = self.claimed.clone();
                    }
                    (self.mode, self.waiting, self.phase) =
                        (Mode::Idle, Waiting::Nothing, Phase::Holding);
                    out.push(RecipeOut::Acquired { token });
                    return out;
                }
                Ins::Wait(w) => {
                    if self.wait(&w, &mut out) {
                        return out;
                    }
                    self.pc += 1;
                }
                Ins::Stop | Ins::End => {
                    out.extend(self.end());
                    return out;
                }
            }
        }
        self.fail(&format!(
            "the recipe ran {MAX_STEPS} statements without waiting for anything (a loop that sends nothing?)"
        ))
    }

    /// The end of a block, or `stop`: the acquire gives up, the release is done.
    fn end(&mut self) -> Outs {
        match self.mode {
            Mode::Unlock => self.released(),
            _ => {
                (self.mode, self.waiting, self.phase) = (Mode::Idle, Waiting::Nothing, Phase::Idle);
                vec![RecipeOut::Failed(Failure::Cancelled)]
            }
        }
    }

    /// The recipe cannot go on: the client says why and stops asking for the lock.
    fn fail(&mut self, why: &str) -> Outs {
        self.error = Some(why.to_string());
        self.end()
    }

    /// A `wait`: true if the recipe now waits (false: what it waits for is already there).
    fn wait(&mut self, w: &CWait, out: &mut Outs) -> bool {
        match w {
            CWait::Watch => {
                if self.fired.take().is_some() {
                    return false;
                }
                self.waiting = Waiting::Watch;
            }
            CWait::Deleted(p) => {
                let p = self.eval(p).text();
                if self.fired.as_ref().is_some_and(|(d, f)| *d && *f == p) {
                    self.fired = None;
                    return false;
                }
                self.phase = Phase::Waiting(p.clone());
                self.waiting = Waiting::Deleted(p);
            }
            CWait::Ticks(n) => {
                let n = self.eval(n).int().unwrap_or(0).clamp(1, 1_000_000) as u64;
                self.phase = Phase::Backoff;
                self.waiting = Waiting::Ticks;
                out.push(RecipeOut::RetryAfter(n));
            }
        }
        true
    }

    /// Sends an operation's request; its answer resumes the recipe.
    fn send(&mut self, slot: Option<u16>, op: &COp) -> Outs {
        if let COp::Redis(args) = op {
            let words: Vec<String> = args.iter().map(|a| self.eval(a).text()).collect();
            self.phase = self.busy(Phase::Requesting);
            self.waiting = Waiting::Redis(words.clone(), slot);
            return self.redis_send(words);
        }
        let (req, phase) = self.request(op);
        self.phase = self.busy(phase);
        self.waiting = match op {
            COp::MakePath(_) => match &req {
                Request::Create { path, .. } => Waiting::MakePath(path.clone(), req.clone()),
                _ => Waiting::Nothing,
            },
            _ => Waiting::Zk(req.clone(), slot),
        };
        vec![zk(req)]
    }

    /// The phase an operation shows: its own while acquiring, releasing while releasing.
    fn busy(&self, p: Phase) -> Phase {
        match self.mode {
            Mode::Unlock => Phase::Releasing,
            _ => p,
        }
    }

    fn request(&mut self, op: &COp) -> (Request, Phase) {
        let watch = |me: &mut Program, path: &str, w: bool, or: Phase| {
            if w {
                me.fired = None;
                me.watched = path.to_string();
                Phase::Watching(path.to_string())
            } else {
                or
            }
        };
        match op {
            COp::Create {
                path,
                ephemeral,
                sequential,
                data,
            } => {
                let mode = match (ephemeral, sequential) {
                    (true, true) => CreateMode::EphemeralSequential,
                    (true, false) => CreateMode::Ephemeral,
                    (false, true) => CreateMode::PersistentSequential,
                    (false, false) => CreateMode::Persistent,
                };
                let data = data
                    .as_ref()
                    .map_or_else(Vec::new, |d| self.eval(d).text().into_bytes());
                let path = self.eval(path).text();
                (
                    Request::Create {
                        path,
                        data: Some(data),
                        mode,
                    },
                    Phase::Creating,
                )
            }
            COp::Exists(p, w) => {
                let path = self.eval(p).text();
                let phase = watch(self, &path, *w, Phase::Requesting);
                (Request::Exists { path, watch: *w }, phase)
            }
            COp::Children(p, w) => {
                let path = self.eval(p).text();
                let phase = watch(self, &path, *w, Phase::Listing);
                (Request::GetChildren { path, watch: *w }, phase)
            }
            COp::Read(p, w) => {
                let path = self.eval(p).text();
                let phase = watch(self, &path, *w, Phase::Requesting);
                (Request::GetData { path, watch: *w }, phase)
            }
            COp::Delete(p, v) => {
                let version = v
                    .as_ref()
                    .map_or(-1, |v| self.eval(v).int().unwrap_or(-1) as i32);
                (
                    Request::Delete {
                        path: self.eval(p).text(),
                        version,
                    },
                    Phase::Requesting,
                )
            }
            COp::Write(p, d) => {
                let data = Some(self.eval(d).text().into_bytes());
                (
                    Request::SetData {
                        path: self.eval(p).text(),
                        data,
                        version: -1,
                    },
                    Phase::Requesting,
                )
            }
            COp::Sync(p) => (
                Request::Sync {
                    path: self.eval(p).text(),
                },
                Phase::Requesting,
            ),
            COp::MakePath(p) => (persistent(&self.eval(p).text()), Phase::Creating),
            COp::Redis(_) => (
                Request::Sync {
                    path: String::new(),
                },
                Phase::Requesting,
            ),
        }
    }

    fn eval(&self, e: &E) -> Value {
        match e {
            E::None => Value::None,
            E::Bool(b) => Value::Bool(*b),
            E::Int(n) => Value::Int(*n),
            E::Text(parts) => Value::Text(
                parts
                    .iter()
                    .map(|p| match p {
                        Part::Lit(s) => s.clone(),
                        Part::Var(v) => self.src_value(*v).text(),
                    })
                    .collect(),
            ),
            E::Var(v) => self.src_value(*v),
            E::Field(e, f) => self.eval(e).field(*f),
            E::Call(f, args) => {
                let args: Vec<Value> = args.iter().map(|a| self.eval(a)).collect();
                Value::call(*f, &args)
            }
            E::Not(e) => Value::Bool(!self.eval(e).truthy()),
            E::And(l, r) => Value::Bool(self.eval(l).truthy() && self.eval(r).truthy()),
            E::Or(l, r) => Value::Bool(self.eval(l).truthy() || self.eval(r).truthy()),
            E::Cmp(c, l, r) => {
                use super::ast::Cmp;
                let (l, r) = (self.eval(l), self.eval(r));
                let order = match (l.int(), r.int()) {
                    (Some(a), Some(b)) => a.cmp(&b),
                    _ => l.text().cmp(&r.text()),
                };
                Value::Bool(match c {
                    Cmp::Eq => l.same(&r),
                    Cmp::Ne => !l.same(&r),
                    Cmp::Lt => order.is_lt(),
                    Cmp::Gt => order.is_gt(),
                    Cmp::Le => order.is_le(),
                    Cmp::Ge => order.is_ge(),
                })
            }
            E::Plus(l, r) => match (self.eval(l), self.eval(r)) {
                (Value::Int(a), Value::Int(b)) => Value::Int(a.saturating_add(b)),
                (a, b) => Value::Text(a.text() + &b.text()),
            },
            E::Minus(l, r) => {
                let (a, b) = (self.eval(l).int(), self.eval(r).int());
                a.zip(b)
                    .map_or(Value::None, |(a, b)| Value::Int(a.saturating_sub(b)))
            }
        }
    }

    fn src_value(&self, s: Src) -> Value {
        match s {
            Src::Slot(i) => self.vars.get(usize::from(i)).cloned().unwrap_or_default(),
            Src::Token => Value::Text(self.token.clone()),
            Src::Lease => Value::Int(self.cfg.lease as i64),
            Src::Ttl => Value::Int(self.cfg.lease.div_ceil(1000).max(1) as i64),
            Src::Poll => Value::Int(self.cfg.poll as i64),
            Src::Dir => Value::Text(self.cfg.dir.clone()),
            Src::Me => Value::Text(format!("C{}", self.cfg.client + 1)),
            Src::CompareAndDelete => Value::Text(Self::compare_and_delete().to_string()),
        }
    }
}

fn persistent(path: &str) -> Request {
    Request::Create {
        path: path.into(),
        data: Some(Vec::new()),
        mode: CreateMode::Persistent,
    }
}

/// A ZooKeeper answer as a value: what was created or found, the children, or the error.
fn answer(request: &Request, result: &Result<Response, ErrorCode>) -> Value {
    let node = |path: &str, czxid: i64, data: Option<String>| Value::Node {
        path: path.to_string(),
        czxid,
        data,
    };
    match (request, result) {
        (_, Err(e)) => Value::Error(e.kazoo_name().trim_end_matches("Error").to_string()),
        (_, Ok(Response::Create { path, stat })) => node(path, stat.czxid, None),
        (Request::Exists { path, .. }, Ok(Response::Exists { stat: Some(s) })) => {
            node(path, s.czxid, None)
        }
        (_, Ok(Response::Exists { stat: None })) => Value::None,
        (_, Ok(Response::GetChildren { children, .. })) => Value::children(children),
        (Request::GetData { path, .. }, Ok(Response::GetData { data, stat })) => node(
            path,
            stat.czxid,
            data.as_ref()
                .map(|d| String::from_utf8_lossy(d).into_owned()),
        ),
        _ => Value::Bool(true),
    }
}
