//! Running a parsed script through the engine and rendering what each session saw, in the
//! replay output format (`shared/reference/replay-format.md`).

use crate::sorted::SortedMap;

use serde_json::{json, Value};

use super::script::{Action, Script, ScriptOp};
use crate::engine::{
    ErrorCode, Input, MultiResult, Output, Response, Server, ServerConfig, SessionId, Stat, Zxid,
};

/// Script state: which session each index currently names, and the reverse map for owners.
pub(super) struct Runner {
    server: Server,
    current: SortedMap<i64, SessionId>,
    index_of: SortedMap<SessionId, i64>,
    xid: i32,
}

/// Runs a script on a fresh server and returns the whole output document (no output limit: for
/// tests and small scripts; the CLI streams it with [`super::write`]).
pub fn run(script: &Script) -> Value {
    let mut text = Vec::new();
    // Writing into memory cannot fail, and the writer's JSON parses.
    let _ = super::write(script, u64::MAX, &mut text);
    serde_json::from_slice(&text).unwrap_or_default()
}

impl Runner {
    pub(super) fn new() -> Runner {
        Runner {
            server: Server::new(ServerConfig::default()),
            current: SortedMap::new(),
            index_of: SortedMap::new(),
            xid: 0,
        }
    }

    /// Runs op `i` and returns its record.
    pub(super) fn step(&mut self, i: usize, op: &ScriptOp) -> Value {
        // Real clients ping in the background, so no session times out during a script: the
        // clock stays still.
        let now = 0;
        let outputs = match (&op.action, self.current.get(&op.s).copied()) {
            (Action::Connect { timeout_ms }, _) => self.server.handle(
                now,
                Input::Connect {
                    timeout_ms: *timeout_ms,
                },
            ),
            (Action::Close, Some(session)) => self.server.handle(now, Input::Close { session }),
            (Action::Expire, Some(session)) => self.server.handle(now, Input::Expire { session }),
            (Action::Request(request), Some(session)) => {
                self.xid += 1;
                self.server.handle(
                    now,
                    Input::Request {
                        session,
                        xid: self.xid,
                        request: request.clone(),
                    },
                )
            }
            (_, None) => Vec::new(),
        };
        let mut events: SortedMap<String, Vec<Value>> = SortedMap::new();
        let mut result = None;
        for o in outputs {
            match o {
                Output::Notify { session, event } => {
                    let Some(idx) = self.index_of.get(&session).copied() else {
                        continue;
                    };
                    events
                        .entry(idx.to_string())
                        .or_default()
                        .push(json!({"type": event.kind.wire_name(), "path": event.path}));
                }
                Output::Connected { session, zxid, .. } => {
                    // A reconnecting index is a new session; its old one is no longer reported.
                    if let Some(old) = self.current.insert(op.s, session) {
                        self.index_of.remove(&old);
                    }
                    self.index_of.insert(session, op.s);
                    result = Some(json!({"ok": true, "zxid": zxid}));
                }
                Output::SessionEnded { session, zxid, .. }
                    if Some(&session) == self.current.get(&op.s) =>
                {
                    result = Some(json!({"ok": true, "zxid": zxid}));
                }
                Output::Reply {
                    zxid, result: r, ..
                } => result = Some(self.reply(zxid, r)),
                _ => {}
            }
        }
        let result =
            result.unwrap_or_else(|| error(ErrorCode::SessionExpired, self.server.last_zxid()));
        let echo: Value = serde_json::from_str(op.echo).unwrap_or_default();
        json!({"i": i, "op": echo, "result": result, "events": events})
    }

    fn reply(&self, zxid: Zxid, r: Result<Response, ErrorCode>) -> Value {
        let resp = match r {
            Err(e) => return error(e, zxid),
            Ok(resp) => resp,
        };
        let mut v = match resp {
            Response::Create { path, stat } => json!({"path": path, "stat": self.stat(&stat)}),
            Response::Delete | Response::Check | Response::Watches => json!({}),
            Response::Exists { stat } => json!({"stat": stat.map(|s| self.stat(&s))}),
            Response::GetData { data, stat } => {
                json!({"data": data_value(&data), "stat": self.stat(&stat)})
            }
            Response::SetData { stat } => json!({"stat": self.stat(&stat)}),
            Response::GetChildren { children, stat } => {
                json!({"children": children, "stat": self.stat(&stat)})
            }
            // kazoo sends "" as a null string, and the server echoes null.
            Response::Sync { path } => {
                json!({"path": if path.is_empty() { Value::Null } else { json!(path) }})
            }
            ref multi @ Response::Multi(ref results) => {
                return self.multi(multi.multi_error(), results, zxid)
            }
        };
        let m = v.as_object_mut().expect("object");
        m.insert("ok".into(), json!(true));
        m.insert("zxid".into(), json!(zxid));
        v
    }

    fn multi(&self, failed: Option<ErrorCode>, results: &[MultiResult], zxid: Zxid) -> Value {
        let results: Vec<Value> = results
            .iter()
            .map(|r| match r {
                MultiResult::Create { path } => json!({"ok": true, "path": path}),
                MultiResult::Delete | MultiResult::Check => json!({"ok": true}),
                MultiResult::SetData { stat } => json!({"ok": true, "stat": self.stat(stat)}),
                MultiResult::Error(e) => {
                    json!({"ok": false, "err": e.kazoo_name(), "code": e.code()})
                }
            })
            .collect();
        match failed {
            None => json!({"ok": true, "results": results, "zxid": zxid}),
            Some(e) => {
                json!({"ok": false, "err": e.kazoo_name(), "code": e.code(), "results": results, "zxid": zxid})
            }
        }
    }

    fn stat(&self, s: &Stat) -> Value {
        let owner = (s.ephemeral_owner != 0)
            .then(|| self.index_of.get(&SessionId(s.ephemeral_owner)).copied())
            .flatten();
        json!({
            "czxid": zxid_value(s.czxid), "mzxid": zxid_value(s.mzxid), "pzxid": zxid_value(s.pzxid),
            "version": s.version, "cversion": s.cversion, "aversion": s.aversion,
            "dataLength": s.data_length, "numChildren": s.num_children,
            "ephemeral": s.ephemeral_owner != 0, "owner": owner,
        })
    }

    /// The final tree's entries in path order, one at a time.
    pub(super) fn final_tree(&self) -> impl Iterator<Item = (&str, Value)> + '_ {
        self.server
            .tree()
            .iter()
            .filter(|(path, _)| !crate::engine::path::is_special(path))
            .map(|(path, node)| {
                let v = json!({"data": data_value(&node.data), "stat": self.stat(&node.stat())});
                (path, v)
            })
    }

    /// Znodes in the final tree.
    pub(super) fn tree_len(&self) -> usize {
        let tree = self.server.tree().iter();
        tree.filter(|(path, _)| !crate::engine::path::is_special(path))
            .count()
    }
}

fn error(e: ErrorCode, zxid: Zxid) -> Value {
    json!({"ok": false, "err": e.kazoo_name(), "code": e.code(), "zxid": zxid})
}

/// Zxids from before the script (the fresh tree's 0) print as `"pre"`.
fn zxid_value(z: Zxid) -> Value {
    if z <= 0 {
        json!("pre")
    } else {
        json!(z)
    }
}

fn data_value(d: &Option<Vec<u8>>) -> Value {
    match d {
        None => Value::Null,
        Some(bytes) => json!(String::from_utf8_lossy(bytes)),
    }
}
