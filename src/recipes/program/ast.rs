//! The recipe language's tree, as the parser reads it and the compiler turns it into steps.

/// Values every recipe can read without setting them: a fresh random `token` per acquire, the
/// scenario's `lease` (ms), `ttl` (the lease in whole seconds), `poll` (ticks), `dir` (the lock
/// directory), `me` (the client's name), and Redis's `compare_and_delete` script.
pub const BUILTIN_VALUES: [&str; 7] = [
    "token",
    "lease",
    "ttl",
    "poll",
    "dir",
    "me",
    "compare_and_delete",
];

/// Functions over values: `lowest(list)`, `before(list, name)`, `has(list, name)`,
/// `name(path)`, `sequence(path)`, `count(list)`.
pub const FUNCTIONS: [(&str, usize); 6] = [
    ("lowest", 1),
    ("before", 2),
    ("has", 2),
    ("name", 1),
    ("sequence", 1),
    ("count", 1),
];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recipe {
    /// `zookeeper` (the default) or `redis`.
    pub service: String,
    /// `if the session expires: start over`.
    pub start_over: bool,
    pub lock: Option<Block>,
    pub unlock: Option<Block>,
}

/// Statements, each with its line.
pub type Stmts = Vec<(usize, Stmt)>;

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Stmts,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `name = value`
    Set(String, Expr),
    /// An operation, its result kept in a name or dropped.
    Do(Option<String>, Op),
    If(Expr, Stmts, Stmts),
    Loop(Stmts),
    Break,
    Again,
    /// `stop`: give up the acquire (or end the release) here.
    Stop,
    /// `hold [token]`: the lock is held; the `lock` block ends.
    Hold(Option<Expr>),
    Wait(Wait),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Wait {
    /// `wait for the watch`: until a watch this client set fires (at once if one already did).
    Watch,
    /// `wait for PATH deleted`: until a NodeDeleted event for that path.
    Deleted(Expr),
    /// `wait N`: about N ticks (the client adds jitter: from N/2 to N).
    Ticks(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Flag {
    Ephemeral,
    Persistent,
    Sequential,
    Data(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Create(Expr, Vec<Flag>),
    Exists(Expr, bool),
    Children(Expr, bool),
    Read(Expr, bool),
    Delete(Expr, Option<Expr>),
    Write(Expr, Expr),
    Sync(Expr),
    /// Creates a persistent path and any missing ancestors (as Curator's `creatingParentsIfNeeded`).
    MakePath(Expr),
    /// A Redis command: its words and values.
    Redis(Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    None,
    Bool(bool),
    Int(i64),
    /// A quoted text: `{name}` inside it is the value of `name`.
    Text(String),
    /// A bare word taken as text (a Redis command's words, `NX`, `PX`).
    Str(String),
    /// A name, and where it is written (line, column) for the compiler's messages.
    Var(String, (usize, usize)),
    Field(Box<Expr>, String),
    Call(String, Vec<Expr>, (usize, usize)),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    Plus(Box<Expr>, Box<Expr>),
    Minus(Box<Expr>, Box<Expr>),
}
