//! SQL table locks.
//!
//! 1. `Insert` (plain lock table): `INSERT INTO locks (name, owner) VALUES ('lock', me)`; a
//!    duplicate key (23505) means "held": poll again after a delay. Release:
//!    `DELETE … WHERE name = 'lock' AND owner = me`. No expiry: a crashed holder's row stays
//!    forever; not reentrant (a second acquire by the holder is a duplicate too).
//! 2. `Insert` with expiry (`lease`): the row carries `expires_at = now() + ttl` and a fence from
//!    a sequence; on 23505 try to take over an expired row (`UPDATE … WHERE expires_at < now()`)
//!    which bumps the fence. The fence is a usable fencing token. Release deletes by owner+fence.
//! 3. `RowLock`: `BEGIN; SELECT … FOR UPDATE` blocks until the row is free; the lock lives as long
//!    as the transaction (and so the connection); `COMMIT` releases it. No token.

use super::{
    token, Answer as SvcAnswer, Belief, Believes, Call, Failure, Phase, RecipeConfig, RecipeIn,
    RecipeKind, RecipeOut,
};
use crate::services::sql::{Answer, Stmt};

/// The lock row's name.
pub const ROW: &str = super::SQL_ROW;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Insert {
    pub phase: Phase,
    pub my_node: Option<String>,
    /// Expiry column + takeover (else the plain table).
    lease: Option<u64>,
    poll: u64,
    pub owner: String,
    fence: i64,
    taking_over: bool,
}

fn stmt(s: Stmt) -> RecipeOut {
    RecipeOut::Send(Call::Sql(s))
}

impl Believes for Insert {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn belief(&self) -> Belief<'_> {
        Belief {
            node: self.node(),
            token: Some(self.owner.as_str()),
            lease: None,
        }
    }
    fn fences(&self) -> bool {
        self.lease.is_some()
    }
}

impl Believes for RowLock {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn fences(&self) -> bool {
        false
    }
}

impl Insert {
    pub fn from_config(cfg: &RecipeConfig) -> Self {
        let lease = (cfg.kind == RecipeKind::SqlLease).then_some(cfg.lease);
        Insert::new(lease, cfg.poll, cfg.uuid_seed)
    }

    pub fn new(lease: Option<u64>, poll: u64, seed: u64) -> Self {
        Insert {
            phase: Phase::Idle,
            my_node: None,
            lease,
            poll,
            owner: token(seed, 0),
            fence: 0,
            taking_over: false,
        }
    }

    fn insert(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Requesting;
        self.taking_over = false;
        vec![stmt(Stmt::Insert {
            name: ROW.into(),
            owner: self.owner.clone(),
            ttl: self.lease,
        })]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Acquire if self.phase == Phase::Idle => self.insert(),
            RecipeIn::Retry if self.phase == Phase::Backoff => self.insert(),
            RecipeIn::Timeout if matches!(self.phase, Phase::Backoff | Phase::Requesting) => {
                self.phase = Phase::Idle;
                vec![RecipeOut::CancelRetry, RecipeOut::Failed(Failure::Timeout)]
            }
            RecipeIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                let fence = self.lease.map(|_| self.fence);
                vec![stmt(Stmt::Delete {
                    name: ROW.into(),
                    owner: Some(self.owner.clone()),
                    fence,
                })]
            }
            RecipeIn::Answer(SvcAnswer::Sql(a)) => self.answer(a),
            _ => Vec::new(),
        }
    }

    fn answer(&mut self, a: Answer) -> Vec<RecipeOut> {
        match (&self.phase, a) {
            (Phase::Requesting, Answer::Ok { rows, .. }) if !rows.is_empty() => {
                self.fence = if self.lease.is_some() {
                    rows[0].fence
                } else {
                    0
                };
                self.phase = Phase::Holding;
                self.my_node = Some(ROW.into());
                vec![RecipeOut::Acquired { token: self.fence }]
            }
            (Phase::Requesting, Answer::Error { .. })
                if self.lease.is_some() && !self.taking_over =>
            {
                self.taking_over = true;
                vec![stmt(Stmt::TakeOver {
                    name: ROW.into(),
                    owner: self.owner.clone(),
                    ttl: self.lease.unwrap_or(0),
                })]
            }
            (Phase::Requesting, _) => {
                self.phase = Phase::Backoff;
                vec![RecipeOut::RetryAfter(self.poll)]
            }
            (Phase::Releasing, _) => super::released(&mut self.phase, &mut self.my_node),
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowLock {
    pub phase: Phase,
    pub my_node: Option<String>,
    /// Nested acquires waiting for their SELECT's answer.
    nested: u32,
}

impl RowLock {
    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Acquire if self.phase == Phase::Idle => {
                self.phase = Phase::Requesting;
                vec![
                    stmt(Stmt::Begin),
                    stmt(Stmt::SelectForUpdate {
                        name: ROW.into(),
                        nowait: false,
                    }),
                ]
            }
            // The same transaction locks the row again: it already holds it, so this returns at once.
            RecipeIn::Acquire if self.phase == Phase::Holding => {
                self.nested += 1;
                vec![stmt(Stmt::SelectForUpdate {
                    name: ROW.into(),
                    nowait: false,
                })]
            }
            RecipeIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                vec![stmt(Stmt::Commit)]
            }
            // Another COMMIT outside a transaction: PostgreSQL warns and answers COMMIT.
            RecipeIn::Release if self.phase == Phase::Idle => {
                self.phase = Phase::Releasing;
                vec![stmt(Stmt::Commit)]
            }
            RecipeIn::Answer(SvcAnswer::Sql(Answer::Ok { tag, .. }))
                if self.phase == Phase::Holding && self.nested > 0 && tag.starts_with("SELECT") =>
            {
                self.nested -= 1;
                vec![RecipeOut::Acquired { token: 0 }]
            }
            RecipeIn::Answer(SvcAnswer::Sql(a)) => match (&self.phase, a) {
                (Phase::Requesting, Answer::Ok { tag, .. }) if tag == "BEGIN" => {
                    self.phase = Phase::Waiting(ROW.into());
                    Vec::new()
                }
                // The SELECT's answer (also if BEGIN's answer was lost and never came).
                (Phase::Waiting(_) | Phase::Requesting, Answer::Ok { rows, .. })
                    if !rows.is_empty() =>
                {
                    self.phase = Phase::Holding;
                    self.my_node = Some(ROW.into());
                    vec![RecipeOut::Acquired { token: 0 }]
                }
                (Phase::Releasing, _) => super::released(&mut self.phase, &mut self.my_node),
                // The session died under a waiting statement (a failover): reconnect and queue again.
                (Phase::Waiting(_) | Phase::Requesting, Answer::Error { .. }) => {
                    self.phase = Phase::Requesting;
                    vec![
                        stmt(Stmt::Begin),
                        stmt(Stmt::SelectForUpdate {
                            name: ROW.into(),
                            nowait: false,
                        }),
                    ]
                }
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}
