//! The messages a frame shows: those on their wires (with how far along they are), lost ones,
//! and those that arrived in this step, each with its short label and its fields in full.

use crate::services::ServerId;
use crate::sim::network::Envelope;
use crate::sim::step::Delivered;
use crate::sim::types::{Node, Payload, Tick};
use crate::sim::World;

#[derive(Clone, Debug, PartialEq)]
pub struct MessageDot {
    pub id: u64,
    pub client: Option<usize>,
    /// Towards the client (a reply or an event) or away from it.
    pub inbound: bool,
    pub to_resource: bool,
    /// The server at the other end of a client's message.
    pub server: ServerId,
    /// Between two servers: (from, to).
    pub peer: Option<(ServerId, ServerId)>,
    pub sent_at: Tick,
    pub deliver_at: Tick,
    /// How far along its wire at this frame's time (0..=1).
    pub progress: f32,
    /// The operation ("create2", "NodeDeleted").
    pub op: String,
    pub label: String,
    pub lost: bool,
    pub heartbeat: bool,
    /// A pushed watch event rather than an answer.
    pub event: bool,
    /// The message in full, field by field.
    pub wire: Vec<(String, String)>,
}

/// The words a message's dot is labelled with: a request's operation (`create2`, `SET`), a
/// reply's result; between servers, the first words of what is replicated (`⇢ SET lock`).
fn op(label: &str, wire: &[(String, String)]) -> String {
    if let Some(rest) = label.strip_prefix("⇢ ") {
        let words: Vec<&str> = rest.split_whitespace().take(2).collect();
        return format!("⇢ {}", words.join(" "));
    }
    let first = label
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches(':')
        .to_string();
    let get = |k: &str| {
        wire.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    match (get("op"), get("result")) {
        (Some(op), Some(result)) if op != first => format!(
            "{op} → {}",
            result.split_whitespace().next().unwrap_or(result)
        ),
        // A reconnect is a connect request that names its session.
        _ if first == "reconnect" => "connect".into(),
        _ => first,
    }
}

/// The server end of a message, and the two servers of one between servers.
fn servers(from: Node, to: Node) -> (ServerId, Option<(ServerId, ServerId)>) {
    match (from, to) {
        (Node::Server(a), Node::Server(b)) => (a, Some((a, b))),
        (Node::Server(s), _) | (_, Node::Server(s)) => (s, None),
        _ => (0, None),
    }
}

fn ends(from: Node, to: Node) -> (Option<usize>, bool, bool) {
    let (client, inbound) = match (from, to) {
        (Node::Client(c), _) => (Some(c), false),
        (_, Node::Client(c)) => (Some(c), true),
        _ => (None, false),
    };
    (
        client,
        inbound,
        to == Node::Resource || from == Node::Resource,
    )
}

pub(super) fn messages(w: &World) -> Vec<MessageDot> {
    let dot = |e: &Envelope| {
        let span = e.deliver_at.saturating_sub(e.sent_at).max(1) as f32;
        let progress = (w.now.saturating_sub(e.sent_at) as f32 / span).clamp(0.0, 1.0);
        let (client, inbound, to_resource) = ends(e.from, e.to);
        let (server, peer) = servers(e.from, e.to);
        let label = e.payload.label();
        let wire = e.payload.wire().0;
        MessageDot {
            id: e.id,
            client,
            inbound,
            to_resource,
            server,
            peer,
            sent_at: e.sent_at,
            deliver_at: e.deliver_at,
            progress,
            op: op(&label, &wire),
            label,
            lost: e.lost,
            heartbeat: e.payload.background() && e.payload != Payload::Hangup,
            event: matches!(&e.payload, Payload::Down(d) if d.is_event()),
            wire,
        }
    };
    w.net.in_flight().chain(w.net.lost()).map(dot).collect()
}

pub(super) fn arrived(d: &Delivered, now: Tick) -> MessageDot {
    let (client, inbound, to_resource) = ends(d.from, d.to);
    let (server, peer) = servers(d.from, d.to);
    MessageDot {
        id: d.id,
        client,
        inbound,
        to_resource,
        server,
        peer,
        sent_at: d.sent_at,
        deliver_at: now,
        progress: 1.0,
        op: op(&d.label, &d.wire.0),
        label: d.label.clone(),
        lost: d.lost,
        heartbeat: d.heartbeat,
        event: d.label.starts_with("Node") || d.label.starts_with("watch"),
        wire: d.wire.0.clone(),
    }
}
