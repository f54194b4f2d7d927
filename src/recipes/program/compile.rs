//! A recipe's tree turned into steps the interpreter runs: each `if` and `loop` becomes
//! jumps, each name a numbered slot, each `{name}` of a text a piece to fill in. Names that
//! are never set, unknown functions and fields, and a wrong number of arguments are refused
//! here, with the line and column.

use super::ast::{self, Cmp, Expr, Flag, Op, Stmt, Stmts, Wait};
use super::syntax::Error;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    Slot(u16),
    Token,
    Lease,
    Ttl,
    Poll,
    Dir,
    Me,
    /// Redis's compare-and-delete script.
    CompareAndDelete,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Path,
    Name,
    Czxid,
    Seq,
    Error,
    Ok,
    Data,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Lowest,
    Before,
    Has,
    Name,
    Sequence,
    Count,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Lit(String),
    Var(Src),
}

/// A compiled expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum E {
    None,
    Bool(bool),
    Int(i64),
    Text(Vec<Part>),
    Var(Src),
    Field(Box<E>, Field),
    Call(Func, Vec<E>),
    Not(Box<E>),
    And(Box<E>, Box<E>),
    Or(Box<E>, Box<E>),
    Cmp(Cmp, Box<E>, Box<E>),
    Plus(Box<E>, Box<E>),
    Minus(Box<E>, Box<E>),
}

impl std::hash::Hash for Cmp {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (*self as u8).hash(h);
    }
}

/// A compiled operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum COp {
    Create {
        path: E,
        ephemeral: bool,
        sequential: bool,
        data: Option<E>,
    },
    Exists(E, bool),
    Children(E, bool),
    Read(E, bool),
    Delete(E, Option<E>),
    Write(E, E),
    Sync(E),
    MakePath(E),
    Redis(Vec<E>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CWait {
    Watch,
    Deleted(E),
    Ticks(E),
}

/// One step of a compiled recipe.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ins {
    Set(u16, E),
    Op(Option<u16>, COp),
    JumpIfNot(E, u16),
    Jump(u16),
    Hold(Option<E>),
    Wait(CWait),
    Stop,
    /// The end of a block.
    End,
}

/// A compiled recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    pub ins: Vec<Ins>,
    pub lock: u16,
    pub unlock: Option<u16>,
    /// The names of the slots, in order.
    pub slots: Vec<String>,
    pub redis: bool,
    pub start_over: bool,
}

/// Compiles a parsed recipe.
pub fn compile(r: &ast::Recipe) -> Result<Code, Error> {
    let mut c = Compiler::default();
    for b in [&r.lock, &r.unlock].into_iter().flatten() {
        c.collect(&b.stmts);
    }
    let mut code = Code {
        ins: Vec::new(),
        lock: 0,
        unlock: None,
        slots: Vec::new(),
        redis: r.service == "redis",
        start_over: r.start_over,
    };
    if let Some(b) = &r.lock {
        c.block(&b.stmts)?;
    }
    if let Some(b) = &r.unlock {
        code.unlock = Some(c.here());
        c.block(&b.stmts)?;
    }
    if c.ins.len() > u16::MAX as usize / 2 {
        return Err(Error {
            line: 1,
            col: 1,
            msg: "the recipe is too long".into(),
        });
    }
    code.ins = c.ins;
    code.slots = c.names;
    Ok(code)
}

#[derive(Default)]
struct Compiler {
    ins: Vec<Ins>,
    names: Vec<String>,
    /// Loops being compiled: (start, the jumps that `break` left to patch).
    loops: Vec<(u16, Vec<usize>)>,
    /// The line of the statement being compiled (for messages without a column of their own).
    line: usize,
}

impl Compiler {
    fn here(&self) -> u16 {
        self.ins.len() as u16
    }

    fn slot(&mut self, n: &str) -> u16 {
        match self.names.iter().position(|x| x == n) {
            Some(i) => i as u16,
            None => {
                self.names.push(n.to_string());
                (self.names.len() - 1) as u16
            }
        }
    }

    /// Every name the recipe sets, so that a block may read one another block set.
    fn collect(&mut self, stmts: &Stmts) {
        for (_, s) in stmts {
            match s {
                Stmt::Set(n, _) | Stmt::Do(Some(n), _) => {
                    self.slot(n);
                }
                Stmt::If(_, a, b) => {
                    self.collect(a);
                    self.collect(b);
                }
                Stmt::Loop(b) => self.collect(b),
                _ => {}
            }
        }
    }

    fn block(&mut self, stmts: &Stmts) -> Result<(), Error> {
        self.stmts(stmts)?;
        self.ins.push(Ins::End);
        Ok(())
    }

    fn stmts(&mut self, stmts: &Stmts) -> Result<(), Error> {
        for (line, s) in stmts {
            self.line = *line;
            self.stmt(s)?;
        }
        Ok(())
    }

    /// An error on the current statement's line.
    fn fail<T>(&self, msg: String) -> Result<T, Error> {
        Err(Error {
            line: self.line,
            col: 1,
            msg,
        })
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Error> {
        match s {
            Stmt::Set(n, e) => {
                let e = self.expr(e)?;
                let slot = self.slot(n);
                self.ins.push(Ins::Set(slot, e));
            }
            Stmt::Do(n, op) => {
                let op = self.op(op)?;
                let slot = n.as_deref().map(|n| self.slot(n));
                self.ins.push(Ins::Op(slot, op));
            }
            Stmt::If(cond, then, other) => {
                let cond = self.expr(cond)?;
                let test = self.ins.len();
                self.ins.push(Ins::JumpIfNot(cond, 0));
                self.stmts(then)?;
                if other.is_empty() {
                    let end = self.here();
                    self.patch(test, end);
                } else {
                    let skip = self.ins.len();
                    self.ins.push(Ins::Jump(0));
                    let start = self.here();
                    self.patch(test, start);
                    self.stmts(other)?;
                    let end = self.here();
                    self.patch(skip, end);
                }
            }
            Stmt::Loop(body) => {
                let start = self.here();
                self.loops.push((start, Vec::new()));
                self.stmts(body)?;
                self.ins.push(Ins::Jump(start));
                let end = self.here();
                let (_, breaks) = self.loops.pop().unwrap_or_default();
                for b in breaks {
                    self.patch(b, end);
                }
            }
            Stmt::Break => {
                let at = self.ins.len();
                self.ins.push(Ins::Jump(0));
                match self.loops.last_mut() {
                    Some((_, breaks)) => breaks.push(at),
                    None => return self.fail("`break` outside a `loop:`".into()),
                }
            }
            Stmt::Again => match self.loops.last() {
                Some((start, _)) => self.ins.push(Ins::Jump(*start)),
                None => return self.fail("`again` outside a `loop:`".into()),
            },
            Stmt::Stop => self.ins.push(Ins::Stop),
            Stmt::Hold(e) => {
                let e = e.as_ref().map(|e| self.expr(e)).transpose()?;
                self.ins.push(Ins::Hold(e));
            }
            Stmt::Wait(w) => {
                let w = match w {
                    Wait::Watch => CWait::Watch,
                    Wait::Deleted(p) => CWait::Deleted(self.expr(p)?),
                    Wait::Ticks(n) => CWait::Ticks(self.expr(n)?),
                };
                self.ins.push(Ins::Wait(w));
            }
        }
        Ok(())
    }

    fn patch(&mut self, at: usize, to: u16) {
        match &mut self.ins[at] {
            Ins::JumpIfNot(_, t) | Ins::Jump(t) => *t = to,
            _ => {}
        }
    }

    fn op(&mut self, op: &Op) -> Result<COp, Error> {
        let mut e = |x: &Expr| self.expr(x);
        Ok(match op {
            Op::Create(path, flags) => {
                let path = e(path)?;
                let mut data = None;
                let (mut ephemeral, mut sequential) = (false, false);
                for f in flags {
                    match f {
                        Flag::Ephemeral => ephemeral = true,
                        Flag::Persistent => ephemeral = false,
                        Flag::Sequential => sequential = true,
                        Flag::Data(d) => data = Some(e(d)?),
                    }
                }
                COp::Create {
                    path,
                    ephemeral,
                    sequential,
                    data,
                }
            }
            Op::Exists(p, w) => COp::Exists(e(p)?, *w),
            Op::Children(p, w) => COp::Children(e(p)?, *w),
            Op::Read(p, w) => COp::Read(e(p)?, *w),
            Op::Delete(p, v) => COp::Delete(e(p)?, v.as_ref().map(&mut e).transpose()?),
            Op::Write(p, d) => COp::Write(e(p)?, e(d)?),
            Op::Sync(p) => COp::Sync(e(p)?),
            Op::MakePath(p) => COp::MakePath(e(p)?),
            Op::Redis(args) => COp::Redis(args.iter().map(e).collect::<Result<_, _>>()?),
        })
    }

    fn var(&mut self, n: &str, at: (usize, usize)) -> Result<Src, Error> {
        Ok(match n {
            "token" => Src::Token,
            "lease" => Src::Lease,
            "ttl" => Src::Ttl,
            "poll" => Src::Poll,
            "dir" => Src::Dir,
            "me" => Src::Me,
            "compare_and_delete" => Src::CompareAndDelete,
            _ => match self.names.iter().position(|x| x == n) {
                Some(i) => Src::Slot(i as u16),
                None => {
                    return Err(Error {
                        line: at.0,
                        col: at.1,
                        msg: format!("`{n}` is never set"),
                    })
                }
            },
        })
    }

    fn expr(&mut self, x: &Expr) -> Result<E, Error> {
        let mut b = |x: &Expr| self.expr(x).map(Box::new);
        Ok(match x {
            Expr::None => E::None,
            Expr::Bool(v) => E::Bool(*v),
            Expr::Int(n) => E::Int(*n),
            Expr::Str(s) => E::Text(vec![Part::Lit(s.clone())]),
            Expr::Text(s) => E::Text(self.text(s)?),
            Expr::Var(n, at) => E::Var(self.var(n, *at)?),
            Expr::Field(e, f) => {
                let f = match field(f) {
                    Ok(f) => f,
                    Err(m) => return self.fail(m),
                };
                E::Field(Box::new(self.expr(e)?), f)
            }
            Expr::Call(f, args, at) => {
                let Some((func, n)) = ast::FUNCTIONS.iter().find(|(name, _)| name == f) else {
                    return Err(Error {
                        line: at.0,
                        col: at.1,
                        msg: format!("there is no function `{f}` (there are lowest, before, has, name, sequence and count)"),
                    });
                };
                if args.len() != *n {
                    return Err(Error {
                        line: at.0,
                        col: at.1,
                        msg: format!(
                            "`{func}` takes {n} argument{}",
                            if *n == 1 { "" } else { "s" }
                        ),
                    });
                }
                let args = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<_, _>>()?;
                E::Call(func_of(func), args)
            }
            Expr::Not(e) => E::Not(b(e)?),
            Expr::And(l, r) => E::And(b(l)?, b(r)?),
            Expr::Or(l, r) => E::Or(b(l)?, b(r)?),
            Expr::Cmp(c, l, r) => E::Cmp(*c, b(l)?, b(r)?),
            Expr::Plus(l, r) => E::Plus(b(l)?, b(r)?),
            Expr::Minus(l, r) => E::Minus(b(l)?, b(r)?),
        })
    }

    /// A quoted text's pieces: `{name}` is a name's value.
    fn text(&mut self, s: &str) -> Result<Vec<Part>, Error> {
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                out.push(Part::Lit(rest[..open].to_string()));
            }
            let Some(close) = rest[open..].find('}') else {
                return self.fail(format!("`{{` without `}}` in \"{s}\""));
            };
            let name = &rest[open + 1..open + close];
            let at = (self.line, 1);
            match self.var(name, at) {
                Ok(src) => out.push(Part::Var(src)),
                Err(_) => {
                    return self.fail(format!("`{{{name}}}` in \"{s}\": `{name}` is never set"))
                }
            }
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() || out.is_empty() {
            out.push(Part::Lit(rest.to_string()));
        }
        Ok(out)
    }
}

fn field(f: &str) -> Result<Field, String> {
    Ok(match f {
        "path" => Field::Path,
        "name" => Field::Name,
        "czxid" => Field::Czxid,
        "seq" => Field::Seq,
        "error" => Field::Error,
        "ok" => Field::Ok,
        "data" => Field::Data,
        _ => {
            return Err(format!(
                "there is no field `.{f}` (there are .path, .name, .czxid, .seq, .error, .ok and .data)"
            ))
        }
    })
}

fn func_of(f: &str) -> Func {
    match f {
        "lowest" => Func::Lowest,
        "before" => Func::Before,
        "has" => Func::Has,
        "name" => Func::Name,
        "sequence" => Func::Sequence,
        _ => Func::Count,
    }
}
