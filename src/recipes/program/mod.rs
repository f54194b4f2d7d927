//! A lock recipe written in Lockstep's recipe language, run by an interpreter that is itself a
//! sans-IO client state machine: it stops at every request and goes on when that request's
//! answer, a watch event, a session event or a timer comes, so a client running a learner's
//! recipe steps back, forks, travels in links and is searched exhaustively like any other.
//!
//! The language (docs/recipes.md) reads like the pseudo-code of ZooKeeper's recipes:
//!
//! ```text
//! # The naive lock: one node, every waiter watches it (the herd).
//! if the session expires: start over
//!
//! lock:
//!     loop:
//!         made = create "/lock" ephemeral
//!         if made:
//!             hold made.czxid
//!         there = exists "/lock" watch
//!         if there:
//!             wait for the watch
//!
//! unlock:
//!     delete "/lock"
//! ```
//!
//! How it runs, step by step:
//! 1. `lock:` starts when the application asks for the lock, `unlock:` when it releases it.
//! 2. One operation at a time: an operation sends its request and waits for its answer; an
//!    answer to anything else (a request sent before a reconnect) is not for it.
//! 3. A request lost with its connection (ConnectionLoss) is sent again, as a library does.
//! 4. A watch event is remembered until a `wait for the watch` takes it (at once if it came
//!    while the operation that set the watch was still waiting for its answer); an operation
//!    that sets a watch forgets an older one.
//! 5. `hold` tells the application it holds the lock (with a token, for fencing); the end of
//!    `unlock:` tells it the lock is released.
//! 6. `if the session expires: start over`: an expired session while holding loses the lock;
//!    while acquiring, `lock:` starts again from its top once the library has a new session.
//! 7. Each step of the application (an answer, an event, a timer) may run at most
//!    [`MAX_STEPS`] statements before the recipe waits for something: a loop that sends
//!    nothing stops the client with a message instead of freezing the page.

mod ast;
mod compile;
mod lex;
#[cfg(not(feature = "services"))]
mod no_redis;
#[cfg(feature = "services")]
mod redis;
mod run;
pub mod starters;
mod syntax;
mod value;

// The language is the studio page's (see `Source::new`).
#[cfg(all(test, feature = "studio"))]
mod tests;

use std::sync::Arc;

pub use compile::Code;
pub use syntax::{Error, MAX_TEXT};
pub use value::Value;

use super::{Belief, Believes, Phase};

/// Statements one input may run before the recipe must wait for something.
pub const MAX_STEPS: u32 = 10_000;

/// A recipe's text, compiled once and shared by every client that runs it (compared and
/// hashed by its text's fingerprint, so a world with a thousand clients stays cheap to clone).
#[derive(Clone, Debug)]
pub struct Source {
    pub code: Arc<Code>,
    pub text: Arc<str>,
    id: u64,
}

impl PartialEq for Source {
    fn eq(&self, o: &Self) -> bool {
        self.id == o.id && self.text == o.text
    }
}
impl Eq for Source {}
impl std::hash::Hash for Source {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.id.hash(h);
    }
}

impl Source {
    /// Reads and compiles a recipe; the error names its line and column. Only the studio
    /// page runs a learner's recipe (the others hand one over to it), so only its bundle
    /// carries the parser, the compiler and the interpreter.
    pub fn new(text: &str) -> Result<Source, Error> {
        if !crate::STUDIO {
            return Err(Error {
                line: 1,
                col: 1,
                msg: "a recipe runs on the studio page".into(),
            });
        }
        let tree = syntax::parse(text)?;
        let code = compile::compile(&tree)?;
        Ok(Source {
            code: Arc::new(code),
            text: Arc::from(text),
            id: fingerprint(text),
        })
    }

    /// A recipe that does nothing (outside the studio page, which hands recipes over to it).
    fn inert() -> Source {
        Source {
            code: Arc::new(Code {
                ins: Vec::new(),
                lock: 0,
                unlock: None,
                slots: Vec::new(),
                redis: false,
                start_over: false,
            }),
            text: Arc::from(""),
            id: 0,
        }
    }

    /// The lock service it talks to.
    pub fn redis(&self) -> bool {
        self.code.redis
    }
}

/// FNV-1a of the text: the same on every machine and every run.
fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// What the recipe needs from the scenario.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    pub seed: u64,
    pub lease: u64,
    pub poll: u64,
    pub dir: String,
    pub client: usize,
}

/// Which block runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
enum Mode {
    #[default]
    Idle,
    Lock,
    Unlock,
}

/// What the recipe waits for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
enum Waiting {
    #[default]
    Nothing,
    /// The answer to this request (a ZooKeeper request, or Redis's words), into this slot.
    Zk(crate::engine::Request, Option<u16>),
    Redis(Vec<String>, Option<u16>),
    /// `makepath`: creating `target`, now waiting for this create.
    MakePath(String, crate::engine::Request),
    Watch,
    Deleted(String),
    Ticks,
}

/// A client running a recipe written in the language.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    pub phase: Phase,
    pub my_node: Option<String>,
    src: Source,
    cfg: Settings,
    mode: Mode,
    pc: u16,
    vars: Vec<Value>,
    waiting: Waiting,
    /// A watch event no `wait` has taken yet: (NodeDeleted?, path).
    fired: Option<(bool, String)>,
    /// The path of the last watch set (what the client is watching).
    watched: String,
    /// The session expired while acquiring: start over on the next session.
    restart: bool,
    /// Redis: a SET NX or SETNX of this attempt succeeded (a timeout no longer stops it).
    claimed: Option<String>,
    /// Redis: the value this attempt wrote into the lock's key — what the service can tell
    /// this client by (a constant like "locked" is the same for every client).
    wrote: Option<String>,
    attempts: u32,
    pub token: String,
    /// Why the recipe stopped with an error (a loop that sends nothing, a missing block).
    pub error: Option<String>,
}

impl Believes for Program {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn belief(&self) -> Belief<'_> {
        Belief {
            node: self.node(),
            token: self
                .wrote
                .as_deref()
                .or((self.src.redis() && !self.token.is_empty()).then_some(self.token.as_str())),
            lease: None,
        }
    }
    fn fences(&self) -> bool {
        !self.src.redis()
    }
    fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

impl Program {
    /// The scenario's recipe for one client (a text that does not compile — the scenario's
    /// check refuses it before — runs as an empty recipe that never takes the lock).
    pub fn from_config(cfg: &crate::recipes::RecipeConfig) -> Program {
        let text = cfg.program.as_deref().unwrap_or("lock:\n    stop\n");
        let src = Source::new(text)
            .or_else(|_| Source::new("lock:\n    stop\n"))
            .unwrap_or_else(|_| Source::inert());
        Program::new(
            src,
            Settings {
                seed: cfg.uuid_seed,
                lease: cfg.lease,
                poll: cfg.poll,
                dir: cfg.lock_dir().to_string(),
                client: cfg.client,
            },
        )
    }

    pub fn new(src: Source, cfg: Settings) -> Program {
        let slots = src.code.slots.len();
        Program {
            phase: Phase::Idle,
            my_node: None,
            src,
            cfg,
            mode: Mode::Idle,
            pc: 0,
            vars: vec![Value::None; slots],
            waiting: Waiting::Nothing,
            fired: None,
            watched: String::new(),
            restart: false,
            claimed: None,
            wrote: None,
            attempts: 0,
            token: String::new(),
            error: None,
        }
    }

    /// The recipe's text.
    pub fn text(&self) -> &str {
        &self.src.text
    }
}
