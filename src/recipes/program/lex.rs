//! The recipe language's words: a text cut into logical lines (indentation, words with their
//! columns), and the error every later stage reports with a line and a column.

use super::syntax::MAX_TEXT;

/// A parse error: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.col, self.msg)
    }
}

/// A word of a line.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Name(String),
    Int(i64),
    Str(String),
    Sym(&'static str),
}

#[derive(Clone, Debug)]
pub(super) struct Word {
    pub(super) tok: Tok,
    pub(super) col: usize,
}

/// One logical line: its indentation, its words, its number.
#[derive(Debug)]
pub(super) struct Line {
    pub(super) indent: usize,
    pub(super) words: Vec<Word>,
    pub(super) no: usize,
}

pub(super) const SYMS: [&str; 14] = [
    "==", "!=", "<=", ">=", "<", ">", "=", ":", "(", ")", ",", ".", "+", "-",
];

pub(super) fn err<T>(line: usize, col: usize, msg: impl Into<String>) -> Result<T, Error> {
    Err(Error {
        line,
        col,
        msg: msg.into(),
    })
}

/// Splits the text into lines of words (comments and blank lines dropped).
pub(super) fn lines(text: &str) -> Result<Vec<Line>, Error> {
    if text.len() > MAX_TEXT {
        return err(
            1,
            1,
            format!("the recipe is {} bytes, more than {MAX_TEXT}", text.len()),
        );
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let no = i + 1;
        let body = raw.trim_end();
        let indent = body.len() - body.trim_start().len();
        if body[..indent].contains('\t') {
            return err(no, 1, "indent with spaces, not tabs");
        }
        let words = words(&body[indent..], no, indent)?;
        if !words.is_empty() {
            out.push(Line { indent, words, no });
        }
    }
    Ok(out)
}

/// The words of one line (after its indentation, which is `col0` columns wide).
fn words(s: &str, no: usize, col0: usize) -> Result<Vec<Word>, Error> {
    let b = s.as_bytes();
    let (mut i, mut out) = (0, Vec::new());
    while i < b.len() {
        let col = col0 + s[..i].chars().count() + 1;
        let c = b[i];
        if c == b'#' {
            break;
        }
        if c == b' ' {
            i += 1;
            continue;
        }
        if c == b'"' {
            let rest = &s[i + 1..];
            let Some(end) = rest.find('"') else {
                return err(no, col, "this string has no closing quote");
            };
            out.push(Word {
                tok: Tok::Str(rest[..end].to_string()),
                col,
            });
            i += end + 2;
            continue;
        }
        if c.is_ascii_digit() {
            let len = s[i..].bytes().take_while(u8::is_ascii_digit).count();
            let Ok(n) = s[i..i + len].parse::<i64>() else {
                return err(no, col, "this number is too large");
            };
            out.push(Word {
                tok: Tok::Int(n),
                col,
            });
            i += len;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let len = s[i..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            out.push(Word {
                tok: Tok::Name(s[i..i + len].to_string()),
                col,
            });
            i += len;
            continue;
        }
        match SYMS.iter().find(|sym| s[i..].starts_with(**sym)) {
            Some(sym) => {
                out.push(Word {
                    tok: Tok::Sym(sym),
                    col,
                });
                i += sym.len();
            }
            None => {
                let ch = s[i..].chars().next().unwrap_or('?');
                return err(no, col, format!("unexpected character {ch:?}"));
            }
        }
    }
    Ok(out)
}

pub(super) fn sym_of(s: &str) -> &'static str {
    SYMS.iter().find(|x| **x == s).copied().unwrap_or("?")
}
