//! Reading a client's requests, results and notifications off the simulated wire, and the
//! recorded ones out of a trace, in the same normalised form.

use std::collections::BTreeMap;

use lockstep::engine::{CreateMode, Opcode, Output, Request, Response};
use lockstep::services::{zookeeper, Down, Up};
use lockstep::sim::types::{Node, Payload};
use lockstep::sim::world::Action;
use lockstep::sim::{Scenario, Simulation};
use serde_json::{json, Value};

use super::client_of;

/// UUIDs (Curator's dashed, kazoo's 32 hex digits) marked as `<uuid:…>` (see [`renumber`]) and
/// the client's address as the recorder wrote it.
fn norm(s: &str) -> String {
    let b = s.as_bytes();
    let hex =
        |i: usize, n: usize| b.len() >= i + n && b[i..i + n].iter().all(|c| c.is_ascii_hexdigit());
    let (mut out, mut i) = (String::new(), 0);
    while i < b.len() {
        let dashed = hex(i, 8)
            && b.get(i + 8) == Some(&b'-')
            && hex(i + 9, 4)
            && hex(i + 14, 4)
            && hex(i + 19, 4)
            && hex(i + 24, 12);
        if dashed || hex(i, 32) {
            let n = if dashed { 36 } else { 32 };
            out.push_str(&format!("<uuid:{}>", &s[i..i + n]));
            i += n;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    if out.starts_with("10.0.0.") {
        "<ip>".into()
    } else {
        out
    }
}

fn mode(m: CreateMode) -> &'static str {
    match m {
        CreateMode::Persistent => "persistent",
        CreateMode::Ephemeral => "ephemeral",
        CreateMode::PersistentSequential => "persistent_sequential",
        CreateMode::EphemeralSequential => "ephemeral_sequential",
        CreateMode::Container => "container",
        _ => "other",
    }
}

fn text(d: &Option<Vec<u8>>) -> String {
    norm(&String::from_utf8_lossy(d.as_deref().unwrap_or_default()))
}

/// A request as the recorder logs it (without its result).
fn request_entry(request: &Request, op: Opcode) -> BTreeMap<&'static str, Value> {
    let mut e = BTreeMap::from([("op", json!(op.name()))]);
    match request {
        Request::Create {
            path,
            data,
            mode: m,
        } => {
            e.extend([
                ("path", json!(norm(path))),
                ("data", json!(text(data))),
                ("mode", json!(mode(*m))),
            ]);
        }
        Request::Delete { path, version } => {
            e.extend([("path", json!(norm(path))), ("version", json!(version))])
        }
        Request::Exists { path, watch }
        | Request::GetData { path, watch }
        | Request::GetChildren { path, watch } => {
            e.extend([("path", json!(norm(path))), ("watch", json!(watch))]);
        }
        Request::CheckWatches { path, kind } | Request::RemoveWatches { path, kind } => {
            e.extend([("path", json!(norm(path))), ("type", json!(kind.name()))]);
        }
        other => {
            e.insert("path", json!(format!("{other:?}")));
        }
    }
    e
}

/// The result the server gave, as the recorder logs it.
fn result_entry(
    e: &mut BTreeMap<&'static str, Value>,
    result: &Result<Response, lockstep::engine::ErrorCode>,
) {
    match result {
        Err(err) => {
            e.insert("result", json!(err.kazoo_name().trim_end_matches("Error")));
        }
        // exists on a missing node: the reply header carries NoNode (clients make it a null Stat).
        Ok(Response::Exists { stat: None }) => {
            e.insert("result", json!("NoNode"));
        }
        Ok(r) => {
            e.insert("result", json!("ok"));
            match r {
                Response::Create { path, .. } => {
                    e.insert("created", json!(norm(path)));
                }
                Response::GetChildren { children, .. } => {
                    let mut c: Vec<String> = children.iter().map(|c| norm(c)).collect();
                    c.sort_by_key(|n| n[n.len().saturating_sub(10)..].to_string());
                    e.insert("children", json!(c));
                }
                _ => {}
            }
        }
    }
}

/// Every `<uuid…>` in a client's sequence (`<uuid:raw>` simulated, `<uuidN>` or `<uuid>`
/// recorded) becomes `<uuid#k>`, k counting that client's distinct UUIDs in order of first
/// appearance — so equal sequences name the same UUIDs in the same places — or just `<uuid>`
/// when the trace was recorded without numbers.
fn renumber(log: &mut [Value], numbered: bool) {
    fn walk(v: &mut Value, seen: &mut Vec<String>, numbered: bool) {
        match v {
            Value::String(s) => {
                let (mut out, mut rest) = (String::new(), s.as_str());
                while let Some(i) = rest.find("<uuid") {
                    let j = i + rest[i..].find('>').unwrap_or(rest.len() - i - 1);
                    let key = &rest[i..=j];
                    out.push_str(&rest[..i]);
                    if numbered {
                        let k = match seen.iter().position(|x| x == key) {
                            Some(k) => k,
                            None => {
                                seen.push(key.to_string());
                                seen.len() - 1
                            }
                        };
                        out.push_str(&format!("<uuid#{}>", k + 1));
                    } else {
                        out.push_str("<uuid>");
                    }
                    rest = &rest[j + 1..];
                }
                out.push_str(rest);
                *s = out;
            }
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, seen, numbered)),
            Value::Object(o) => o.values_mut().for_each(|x| walk(x, seen, numbered)),
            _ => {}
        }
    }
    let mut seen = Vec::new();
    log.iter_mut().for_each(|e| walk(e, &mut seen, numbered));
}

/// Runs the situation and returns every client's sequence.
pub fn simulated(sc: Scenario, numbered: bool) -> BTreeMap<usize, Vec<Value>> {
    let mut sim = Simulation::new(sc);
    let mut log: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    let mut sessions: BTreeMap<usize, u32> = BTreeMap::new();
    for _ in 0..200_000 {
        let Some((_, action)) = sim.world().next_action() else {
            break;
        };
        let arriving = match &action {
            Action::Deliver(id) => sim
                .world()
                .net
                .in_flight()
                .find(|e| e.id == *id && e.to == Node::SERVICE)
                .cloned(),
            _ => None,
        };
        if !sim.step() {
            break;
        }
        // A message on a link cut while it travelled never arrived.
        let lost = sim
            .current()
            .and_then(|r| r.delivered.as_ref())
            .is_some_and(|d| d.lost);
        let arriving = arriving.filter(|_| !lost);
        let sent: Vec<u64> = sim.current().map(|r| r.sent.clone()).unwrap_or_default();
        let answers: Vec<(usize, Down)> = sim
            .world()
            .net
            .in_flight()
            .filter(|e| sent.contains(&e.id))
            .filter_map(|e| match (&e.to, &e.payload) {
                (Node::Client(c), Payload::Down(d)) => Some((*c, d.clone())),
                _ => None,
            })
            .collect();
        if let Some(env) = arriving {
            let Node::Client(c) = env.from else { continue };
            let Payload::Up(Up::ZooKeeper(up)) = env.payload else {
                continue;
            };
            // The answer to this request (the same step may also notify this client).
            let mine = answers
                .iter()
                .find(|(k, d)| *k == c && !d.is_event())
                .map(|(_, d)| d.clone());
            let entry = match up {
                zookeeper::Up::Request { request, op, .. } => {
                    let mut e = request_entry(&request, op);
                    if let Some(Down::ZooKeeper(zookeeper::Down::Reply(
                        _,
                        Output::Reply { result, zxid, .. },
                    ))) = &mine
                    {
                        result_entry(&mut e, result);
                        e.insert("zxid", json!(zxid));
                    }
                    Some(e)
                }
                zookeeper::Up::Connect { .. } | zookeeper::Up::Reconnect { .. } => {
                    let ok = matches!(
                        mine,
                        Some(Down::ZooKeeper(zookeeper::Down::Output(
                            Output::Connected { .. }
                        )))
                    );
                    let resume = matches!(up, zookeeper::Up::Reconnect { .. });
                    if ok && !resume {
                        *sessions.entry(c).or_default() += 1;
                    }
                    let result = if ok { "ok" } else { "SessionExpired" };
                    Some(BTreeMap::from([
                        ("op", json!("connect")),
                        ("resume", json!(resume)),
                        ("result", json!(result)),
                    ]))
                }
                zookeeper::Up::Close => Some(BTreeMap::from([("op", json!("closeSession"))])),
                zookeeper::Up::Ping => None,
            };
            if let Some(mut e) = entry {
                e.insert(
                    "session",
                    json!(sessions.get(&c).copied().unwrap_or(1).max(1)),
                );
                log.entry(c).or_default().push(json!(e));
            }
        }
        for (k, d) in &answers {
            if let Down::ZooKeeper(zookeeper::Down::Output(Output::Notify { event, .. })) = d {
                let e = json!({"op": "notification", "event": event.kind.name(), "path": norm(&event.path), "session": sessions.get(k).copied().unwrap_or(1)});
                log.entry(*k).or_default().push(e);
            }
        }
    }
    log.values_mut().for_each(|l| renumber(l, numbered));
    log
}

/// The recorded sequence of each client (the fields the simulation is compared on).
pub fn recorded(t: &Value, numbered: bool) -> BTreeMap<usize, Vec<Value>> {
    let keys = [
        "op", "path", "mode", "data", "watch", "version", "type", "result", "created", "children",
        "event", "resume", "session", "zxid",
    ];
    let mut log: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    for e in t["log"].as_array().unwrap() {
        let Some(c) = client_of(e["c"].as_str().unwrap()) else {
            continue;
        };
        let mut m = serde_json::Map::new();
        for k in keys {
            if let Some(v) = e.get(k) {
                m.insert(k.into(), v.clone());
            }
        }
        if m["op"] == "closeSession" || m["op"] == "connect" || m["op"] == "notification" {
            m.remove("result")
                .filter(|_| m["op"] == "connect")
                .map(|r| m.insert("result".into(), r));
            m.remove("zxid");
        }
        log.entry(c).or_default().push(Value::Object(m));
    }
    log.values_mut().for_each(|l| renumber(l, numbered));
    log
}
