//! The recipe language's text: lines, indentation and words, read into a tree ([`Block`],
//! [`Stmt`], [`Expr`]). Every error names its line and column; nothing panics and nothing
//! grows beyond the text's own size (a recipe is at most [`MAX_TEXT`] bytes, its nesting at
//! most [`MAX_DEPTH`] deep).

use super::ast::{Block, Cmp, Expr, Flag, Op, Recipe, Stmt, Stmts, Wait};
pub use super::lex::Error;
use super::lex::{err, lines, sym_of, Line, Tok, Word};

/// The longest recipe read (a link carries at most 64 KB).
pub const MAX_TEXT: usize = 32 * 1024;
/// How deep blocks and expressions may nest.
pub const MAX_DEPTH: usize = 32;

/// Reads a whole recipe.
pub fn parse(text: &str) -> Result<Recipe, Error> {
    let lines = lines(text)?;
    let mut r = Recipe::default();
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        if l.indent != 0 {
            return err(l.no, 1, "a block's first line starts at the left edge");
        }
        let w = |k: usize| l.words.get(k).map(|w| &w.tok);
        match (w(0), w(1)) {
            (Some(Tok::Name(n)), Some(Tok::Name(s))) if n == "service" && l.words.len() == 2 => {
                r.service = match s.as_str() {
                    "zookeeper" | "redis" => s.clone(),
                    _ => return err(l.no, l.words[1].col, "the service is zookeeper or redis"),
                };
                i += 1;
            }
            (Some(Tok::Name(n)), _) if n == "if" && is_expiry(l) => {
                r.start_over = true;
                i += 1;
            }
            (Some(Tok::Name(n)), Some(Tok::Sym(":")))
                if (n == "lock" || n == "unlock") && l.words.len() == 2 =>
            {
                let (body, next) = suite(&lines, i, 0, 1)?;
                let slot = if n == "lock" { &mut r.lock } else { &mut r.unlock };
                if slot.is_some() {
                    return err(l.no, 1, format!("`{n}:` is written twice"));
                }
                *slot = Some(Block { stmts: body });
                i = next;
            }
            _ => {
                return err(
                    l.no,
                    1,
                    "expected `lock:`, `unlock:`, `service zookeeper|redis` or `if the session expires: start over`",
                )
            }
        }
    }
    if r.lock.is_none() {
        return err(1, 1, "a recipe needs a `lock:` block");
    }
    Ok(r)
}

/// `if the session expires: start over`.
fn is_expiry(l: &Line) -> bool {
    let want = ["if", "the", "session", "expires", ":", "start", "over"];
    l.words.len() == want.len()
        && l.words.iter().zip(want).all(|(w, s)| match &w.tok {
            Tok::Name(n) => n == s,
            Tok::Sym(x) => *x == s,
            _ => false,
        })
}

/// The statements indented under line `at` (which ends with `:`); returns them and the index
/// of the next line after them.
fn suite(lines: &[Line], at: usize, indent: usize, depth: usize) -> Result<(Stmts, usize), Error> {
    if depth > MAX_DEPTH {
        return err(lines[at].no, 1, "blocks nest too deep");
    }
    let Some(first) = lines.get(at + 1).filter(|l| l.indent > indent) else {
        return err(
            lines[at].no,
            lines[at].words.last().map_or(1, |w| w.col),
            "an indented line must follow `:`",
        );
    };
    let inner = first.indent;
    let (mut out, mut i) = (Vec::new(), at + 1);
    while let Some(l) = lines.get(i) {
        if l.indent <= indent {
            break;
        }
        if l.indent != inner {
            return err(l.no, 1, "this line's indentation matches no block above it");
        }
        let (stmt, next) = statement(lines, i, inner, depth)?;
        out.push((l.no, stmt));
        i = next;
    }
    Ok((out, i))
}

/// One statement starting at line `i`; returns it and the next line's index.
fn statement(
    lines: &[Line],
    i: usize,
    indent: usize,
    depth: usize,
) -> Result<(Stmt, usize), Error> {
    let l = &lines[i];
    let mut p = Parser {
        words: &l.words,
        at: 0,
        no: l.no,
        depth,
    };
    let head = p.name();
    let stmt = match head.as_deref() {
        Some("if") => {
            p.at = 1;
            let cond = p.expr()?;
            p.sym(":")?;
            p.end()?;
            let (then, mut next) = suite(lines, i, indent, depth + 1)?;
            let mut other = Vec::new();
            if let Some(e) = lines.get(next).filter(|e| e.indent == indent && is_else(e)) {
                let (body, n) = suite(lines, next, indent, depth + 1)?;
                let _ = e;
                other = body;
                next = n;
            }
            return Ok((Stmt::If(cond, then, other), next));
        }
        Some("else") => return err(l.no, 1, "`else:` without an `if` just above it"),
        Some("loop") => {
            p.at = 1;
            p.sym(":")?;
            p.end()?;
            let (body, next) = suite(lines, i, indent, depth + 1)?;
            return Ok((Stmt::Loop(body), next));
        }
        Some(w @ ("break" | "again" | "stop")) => {
            p.at = 1;
            match w {
                "break" => Stmt::Break,
                "again" => Stmt::Again,
                _ => Stmt::Stop,
            }
        }
        Some("hold") => {
            p.at = 1;
            match p.peek() {
                None => Stmt::Hold(None),
                Some(_) => Stmt::Hold(Some(p.expr()?)),
            }
        }
        Some("wait") => {
            p.at = 1;
            Stmt::Wait(p.wait()?)
        }
        Some(_) if matches!(l.words.get(1).map(|w| &w.tok), Some(Tok::Sym("="))) => {
            let name = head.unwrap_or_default();
            check_name(&name, l.no, l.words[0].col)?;
            p.at = 2;
            match p.op()? {
                Some(op) => Stmt::Do(Some(name), op),
                None => Stmt::Set(name, p.expr()?),
            }
        }
        _ => match p.op()? {
            Some(op) => Stmt::Do(None, op),
            None => return err(l.no, l.words[0].col, "expected a statement: an operation, `name = …`, `if`, `loop`, `hold`, `wait`, `break` or `again`"),
        },
    };
    p.end()?;
    Ok((stmt, i + 1))
}

fn is_else(l: &Line) -> bool {
    l.words.len() == 2
        && l.words[0].tok == Tok::Name("else".into())
        && l.words[1].tok == Tok::Sym(":")
}

/// Words a variable may not be called (they mean something already).
const RESERVED: [&str; 24] = [
    "lock", "unlock", "if", "else", "loop", "break", "again", "stop", "hold", "wait", "for", "the",
    "watch", "deleted", "not", "and", "or", "none", "true", "false", "service", "create", "exists",
    "children",
];

fn check_name(n: &str, line: usize, col: usize) -> Result<(), Error> {
    if RESERVED.contains(&n) || super::ast::BUILTIN_VALUES.contains(&n) {
        return err(
            line,
            col,
            format!("`{n}` is a word of the language; choose another name"),
        );
    }
    if n.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
        return err(
            line,
            col,
            format!("`{n}` is all capitals: that is how Redis commands are written"),
        );
    }
    Ok(())
}

/// Reads the words of one line.
struct Parser<'a> {
    words: &'a [Word],
    at: usize,
    no: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.words.get(self.at).map(|w| &w.tok)
    }

    fn col(&self) -> usize {
        self.words
            .get(self.at)
            .map_or_else(|| self.words.last().map_or(1, |w| w.col + 1), |w| w.col)
    }

    fn fail<T>(&self, msg: impl Into<String>) -> Result<T, Error> {
        err(self.no, self.col(), msg)
    }

    fn name(&self) -> Option<String> {
        match self.peek() {
            Some(Tok::Name(n)) => Some(n.clone()),
            _ => None,
        }
    }

    fn is(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == word)
    }

    fn word(&mut self, word: &str) -> Result<(), Error> {
        if self.is(word) {
            self.at += 1;
            Ok(())
        } else {
            self.fail(format!("expected `{word}`"))
        }
    }

    fn sym(&mut self, s: &str) -> Result<(), Error> {
        if self.peek() == Some(&Tok::Sym(sym_of(s))) {
            self.at += 1;
            Ok(())
        } else {
            self.fail(format!("expected `{s}`"))
        }
    }

    fn end(&self) -> Result<(), Error> {
        match self.peek() {
            None => Ok(()),
            Some(_) => self.fail("unexpected words at the end of the line"),
        }
    }

    /// `for the watch`, `for EXPR deleted`, or a number of ticks.
    fn wait(&mut self) -> Result<Wait, Error> {
        if !self.is("for") {
            return Ok(Wait::Ticks(self.expr()?));
        }
        self.at += 1;
        if self.is("the") {
            self.at += 1;
            self.word("watch")?;
            return Ok(Wait::Watch);
        }
        let path = self.expr()?;
        self.word("deleted")?;
        Ok(Wait::Deleted(path))
    }

    /// An operation, if the line's next word starts one.
    fn op(&mut self) -> Result<Option<Op>, Error> {
        let Some(name) = self.name() else {
            return Ok(None);
        };
        if name.len() > 1
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            self.at += 1;
            let mut args = vec![Expr::Str(name)];
            while self.peek().is_some() {
                args.push(self.atom_or_word()?);
            }
            return Ok(Some(Op::Redis(args)));
        }
        let zk = [
            "create", "exists", "children", "read", "delete", "write", "sync", "makepath",
        ];
        if !zk.contains(&name.as_str()) {
            return Ok(None);
        }
        self.at += 1;
        let path = self.postfix()?;
        Ok(Some(match name.as_str() {
            "create" => Op::Create(path, self.flags()?),
            "exists" => Op::Exists(path, self.watch()),
            "children" => Op::Children(path, self.watch()),
            "read" => Op::Read(path, self.watch()),
            "delete" => {
                let version = match self.is("version") {
                    true => {
                        self.at += 1;
                        Some(self.postfix()?)
                    }
                    false => None,
                };
                Op::Delete(path, version)
            }
            "write" => Op::Write(path, self.postfix()?),
            "sync" => Op::Sync(path),
            _ => Op::MakePath(path),
        }))
    }

    fn watch(&mut self) -> bool {
        let w = self.is("watch");
        self.at += usize::from(w);
        w
    }

    fn flags(&mut self) -> Result<Vec<Flag>, Error> {
        let mut out = Vec::new();
        while let Some(n) = self.name() {
            self.at += 1;
            out.push(match n.as_str() {
                "ephemeral" => Flag::Ephemeral,
                "persistent" => Flag::Persistent,
                "sequential" => Flag::Sequential,
                "data" => Flag::Data(self.postfix()?),
                _ => {
                    self.at -= 1;
                    return self
                        .fail("expected `ephemeral`, `persistent`, `sequential` or `data …`");
                }
            });
        }
        Ok(out)
    }

    /// A Redis argument: a value, or a bare word (`NX`, `PX`) taken as its text.
    fn atom_or_word(&mut self) -> Result<Expr, Error> {
        match self.name() {
            Some(n)
                if n.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) =>
            {
                self.at += 1;
                Ok(Expr::Str(n))
            }
            _ => self.postfix(),
        }
    }

    fn deeper(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail("the expression nests too deep");
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Expr, Error> {
        self.deeper()?;
        let mut e = self.and()?;
        while self.is("or") {
            self.at += 1;
            e = Expr::Or(Box::new(e), Box::new(self.and()?));
        }
        self.depth -= 1;
        Ok(e)
    }

    fn and(&mut self) -> Result<Expr, Error> {
        let mut e = self.not()?;
        while self.is("and") {
            self.at += 1;
            e = Expr::And(Box::new(e), Box::new(self.not()?));
        }
        Ok(e)
    }

    fn not(&mut self) -> Result<Expr, Error> {
        if self.is("not") {
            self.at += 1;
            self.deeper()?;
            let e = Expr::Not(Box::new(self.not()?));
            self.depth -= 1;
            return Ok(e);
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Result<Expr, Error> {
        let left = self.sum()?;
        let op = match self.peek() {
            Some(Tok::Sym("==")) => Cmp::Eq,
            Some(Tok::Sym("!=")) => Cmp::Ne,
            Some(Tok::Sym("<")) => Cmp::Lt,
            Some(Tok::Sym(">")) => Cmp::Gt,
            Some(Tok::Sym("<=")) => Cmp::Le,
            Some(Tok::Sym(">=")) => Cmp::Ge,
            _ => return Ok(left),
        };
        self.at += 1;
        Ok(Expr::Cmp(op, Box::new(left), Box::new(self.sum()?)))
    }

    fn sum(&mut self) -> Result<Expr, Error> {
        let mut e = self.postfix()?;
        loop {
            let minus = match self.peek() {
                Some(Tok::Sym("+")) => false,
                Some(Tok::Sym("-")) => true,
                _ => return Ok(e),
            };
            self.at += 1;
            let r = self.postfix()?;
            e = match minus {
                true => Expr::Minus(Box::new(e), Box::new(r)),
                false => Expr::Plus(Box::new(e), Box::new(r)),
            };
        }
    }

    fn postfix(&mut self) -> Result<Expr, Error> {
        let mut e = self.atom()?;
        while self.peek() == Some(&Tok::Sym(".")) {
            self.at += 1;
            match self.name() {
                Some(f) => {
                    self.at += 1;
                    e = Expr::Field(Box::new(e), f);
                }
                None => return self.fail("expected a field's name after `.`"),
            }
        }
        Ok(e)
    }

    fn atom(&mut self) -> Result<Expr, Error> {
        let Some(t) = self.peek().cloned() else {
            return self.fail("expected a value");
        };
        self.at += 1;
        match t {
            Tok::Int(n) => Ok(Expr::Int(n)),
            Tok::Str(s) => Ok(Expr::Text(s)),
            Tok::Sym("(") => {
                let e = self.expr()?;
                self.sym(")")?;
                Ok(e)
            }
            Tok::Sym("-") => match self.peek() {
                Some(Tok::Int(n)) => {
                    let n = -*n;
                    self.at += 1;
                    Ok(Expr::Int(n))
                }
                _ => self.fail("expected a number after `-`"),
            },
            Tok::Name(n) if n == "none" => Ok(Expr::None),
            Tok::Name(n) if n == "true" => Ok(Expr::Bool(true)),
            Tok::Name(n) if n == "false" => Ok(Expr::Bool(false)),
            Tok::Name(n) if self.peek() == Some(&Tok::Sym("(")) => {
                let pos = (self.no, self.words[self.at - 1].col);
                self.at += 1;
                let mut args = Vec::new();
                while self.peek() != Some(&Tok::Sym(")")) {
                    if !args.is_empty() {
                        self.sym(",")?;
                    }
                    args.push(self.expr()?);
                    if args.len() > 8 {
                        return self.fail("too many arguments");
                    }
                }
                self.at += 1;
                Ok(Expr::Call(n, args, pos))
            }
            Tok::Name(n) => Ok(Expr::Var(n, (self.no, self.words[self.at - 1].col))),
            Tok::Sym(s) => {
                self.at -= 1;
                self.fail(format!("unexpected `{s}`"))
            }
        }
    }
}
