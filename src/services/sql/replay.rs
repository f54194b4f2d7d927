//! Replays a recorded SQL script (tests/services/sql/*.pgsql) through the lock-table model and
//! renders each line as the recorder renders PostgreSQL's answers: the command tag, the rows
//! (`[name owner fence expires_at]`), `ERROR <sqlstate>`, or `(waits)` for a blocked statement
//! whose answer a later `B result` line prints. The clock is the script's (`sleep` advances it),
//! passed to PostgreSQL as a parameter, so expiry times compare exactly.

use crate::sorted::SortedMap;

use super::{Answer, Row, Sql, Stmt};

fn row(r: &Row) -> String {
    let exp = r.expires_at.map_or("-".to_string(), |t| t.to_string());
    format!("[{} {} {} {exp}]", r.name, r.owner, r.fence)
}

pub fn render(a: &Answer) -> String {
    match a {
        Answer::Ok { tag, rows } if rows.is_empty() => tag.clone(),
        Answer::Ok { tag, rows } => format!(
            "{tag} {}",
            rows.iter().map(row).collect::<Vec<_>>().join(" ")
        ),
        Answer::Error { sqlstate, .. } => format!("ERROR {sqlstate}"),
    }
}

fn opt<'a>(w: &'a [&str], key: &str) -> Option<&'a str> {
    w.iter().find_map(|x| x.strip_prefix(key))
}

/// `INSERT lock a [ttl=N]`, `DELETE lock [owner=a] [fence=N]`, `TAKEOVER lock b ttl=N`,
/// `FORUPDATE lock [nowait]`, `SELECT lock`, `BEGIN`, `COMMIT`, `ROLLBACK`.
pub fn parse(w: &[&str]) -> Option<Stmt> {
    let name = || w.get(1).map(|s| s.to_string()).unwrap_or_default();
    let num = |k: &str| opt(w, k).and_then(|v| v.parse::<u64>().ok());
    Some(match *w.first()? {
        "BEGIN" => Stmt::Begin,
        "COMMIT" => Stmt::Commit,
        "ROLLBACK" => Stmt::Rollback,
        "INSERT" => Stmt::Insert {
            name: name(),
            owner: w.get(2)?.to_string(),
            ttl: num("ttl="),
        },
        "DELETE" => Stmt::Delete {
            name: name(),
            owner: opt(w, "owner=").map(str::to_string),
            fence: num("fence=").map(|f| f as i64),
        },
        "TAKEOVER" => Stmt::TakeOver {
            name: name(),
            owner: w.get(2)?.to_string(),
            ttl: num("ttl=")?,
        },
        "FORUPDATE" => Stmt::SelectForUpdate {
            name: name(),
            nowait: w.contains(&"nowait"),
        },
        "SELECT" => Stmt::Select { name: name() },
        _ => return None,
    })
}

/// Runs a script; the output has one line per input line.
pub fn run(text: &str) -> Vec<String> {
    let mut sql = Sql::default();
    let mut now = 1000u64;
    let mut arrived: SortedMap<u32, String> = SortedMap::new();
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        let w: Vec<&str> = line.split_whitespace().collect();
        let conn = |s: &str| s.bytes().next().unwrap_or(b'A') as u32;
        let result = match w.as_slice() {
            [] => None,
            [first, ..] if first.starts_with('#') => None,
            ["sleep", ms] => {
                now += ms.parse::<u64>().unwrap_or(0);
                None
            }
            ["!close", who] => {
                deliver(sql.disconnect(now, conn(who)), u32::MAX, &mut arrived);
                None
            }
            [who, "result"] => Some(
                arrived
                    .remove(&conn(who))
                    .unwrap_or_else(|| "(waits)".into()),
            ),
            [who, rest @ ..] => {
                let c = conn(who);
                let answers = parse(rest)
                    .map(|s| sql.execute(now, c, s))
                    .unwrap_or_default();
                let mine = answers
                    .iter()
                    .find(|(k, _)| *k == c)
                    .map(|(_, a)| render(a));
                deliver(answers, c, &mut arrived);
                Some(mine.unwrap_or_else(|| "(waits)".into()))
            }
        };
        out.push(match result {
            Some(r) => format!("{line} -> {r}"),
            None => raw.to_string(),
        });
    }
    out
}

/// Answers for other connections (statements this one unblocked) wait for their `result` line.
fn deliver(answers: Vec<(u32, Answer)>, me: u32, arrived: &mut SortedMap<u32, String>) {
    for (k, a) in answers.into_iter().filter(|(k, _)| *k != me) {
        arrived.insert(k, render(&a));
    }
}
