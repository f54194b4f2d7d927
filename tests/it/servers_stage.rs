//! The stage of a multi-server service: a box per server with its role, each client's wire on
//! the box of the server it talks to, the replication write lost on a cut link, the key the
//! replica lacks, a down server after a failover, and a zxid token in hex like the czxid it is —
//! at 1440×900 and in an 800×500 embed.

use lockstep::services::{Role, ServerId};
use lockstep::view::scene::{Anchor, Scene, Shape};

use crate::common::stage;
use stage::{at, rect, step_of, texts, wire_end, SIZES};

#[test]
fn the_split_shows_the_lost_write_the_cut_link_and_the_key_the_replica_lacks() {
    let step = step_of("redis-split", "redis-1's replication buffer");
    for (w, h) in SIZES {
        let (f, s) = at("redis-split", step, w, h);
        let roles: Vec<Role> = f.servers.iter().map(|v| v.role).collect();
        assert_eq!(roles, [Role::Primary, Role::Replica]);
        for e in ["peer-lost", "link-cut", "replica-missing"] {
            assert!(s.has_evidence(e), "{w}x{h}: {e}");
        }
        let t = texts(&s);
        assert!(
            t.iter().any(|x| x.starts_with("⇢ SET lock")),
            "{w}x{h}: {t:?}"
        );
        assert!(
            t.iter().any(|x| x == "missing here: not replicated"),
            "{w}x{h}"
        );
        assert!(
            t.iter()
                .any(|x| x.starts_with("Redis 7 · redis-1 · primary")),
            "{w}x{h}"
        );
        assert!(
            t.iter().any(|x| x.starts_with("redis-2 · replica")),
            "{w}x{h}"
        );
        let (a, b) = (rect(&s, "srv0"), rect(&s, "srv1"));
        assert!(a.1 + a.3 < b.1, "{w}x{h}: the boxes stack without overlap");
    }
}

#[test]
fn after_the_failover_the_old_primary_is_down_and_every_wire_ends_on_the_new_one() {
    let step = step_of("redis-split", "C2 receives “OK”");
    for (w, h) in SIZES {
        let (f, s) = at("redis-split", step, w, h);
        assert!(f.servers[0].down && f.servers[1].role == Role::Primary);
        assert!(s.has_evidence("server-down"), "{w}x{h}");
        let (_, y1, _, h1) = rect(&s, "srv1");
        for c in 0..2 {
            let (_, y) = wire_end(&s, c);
            assert!(
                y >= y1 && y <= y1 + h1,
                "{w}x{h}: C{}'s wire ends on redis-2",
                c + 1
            );
        }
        assert!(f.clients.iter().all(|c| c.server == 1 as ServerId));
        assert!(texts(&s)
            .iter()
            .any(|x| x.starts_with("Redis 7 · redis-1 · down")));
    }
}

#[test]
fn a_single_server_keeps_one_box_and_straight_wires() {
    let (f, s) = at("herd", 12, 1440, 900);
    assert_eq!(f.servers.len(), 1);
    assert!(s.items.iter().any(|i| i.key == "svc"));
    assert!(!s.items.iter().any(|i| i.key.starts_with("srv")));
    for c in 0..f.clients.len() {
        let i = s
            .items
            .iter()
            .find(|i| i.key == format!("wire{c}"))
            .unwrap();
        let Shape::Line { y1, y2, .. } = i.shape else {
            panic!()
        };
        assert_eq!(y1, y2);
    }
}

#[test]
fn a_watch_and_its_event_end_on_the_copy_the_clients_server_holds() {
    let curve_y = |s: &Scene, prefix: &str| {
        let i = s.items.iter().find(|i| i.key.starts_with(prefix));
        match i.unwrap_or_else(|| panic!("no {prefix}")).shape {
            Shape::Curve { y1, .. } => y1,
            _ => panic!("{prefix} is no curve"),
        }
    };
    for (w, h) in SIZES {
        for (step, prefix) in [(200, "w1:"), (244, "fired244:1")] {
            let (f, s) = at("zk-leader-crash", step, w, h);
            let server = f.clients[1].server;
            assert_ne!(
                server, 0,
                "step {step}: C2 talks to another server than the first"
            );
            let (_, y, _, bh) = rect(&s, &format!("srv{server}"));
            let cy = curve_y(&s, prefix);
            assert!(
                (y..=y + bh).contains(&cy),
                "{w}x{h} step {step}: C2's watch at y {cy}, its server's box {y}..{}",
                y + bh
            );
        }
    }
}

#[test]
fn one_write_with_token_zero_is_no_fencing_warning() {
    for (w, h) in SIZES {
        let (f, s) = at("zk-leader-crash", 244, w, h);
        assert_eq!(f.resource.writes.len(), 1, "C1's one write, token 0");
        let t = texts(&s);
        assert!(
            !t.iter().any(|x| x.contains("nothing to compare")),
            "{w}x{h}"
        );
        assert!(
            t.iter().any(|x| x.contains("one write so far")),
            "{w}x{h}: {t:?}"
        );
    }
}

#[test]
fn wires_from_beyond_a_box_meet_it_apart() {
    for (w, h) in SIZES {
        let (f, s) = at("zk-minority", 244, w, h);
        assert_eq!(f.clients[0].server, f.clients[1].server, "both on zk-2");
        let (ya, yb) = (wire_end(&s, 0).1, wire_end(&s, 1).1);
        // A label's height apart where the box is tall enough (not in the embed's short box).
        let apart = if w >= 1440 { 12.0 } else { 4.0 };
        assert!(
            yb - ya >= apart,
            "{w}x{h}: C1's wire ends at {ya}, C2's at {yb}: the lower lane ends lower"
        );
    }
}

#[test]
fn every_copy_of_a_reentrant_holders_node_reads_the_same() {
    let (f, s) = at("zk-leader-crash", 105, 1440, 900);
    let copies = f
        .tree
        .iter()
        .filter(|r| r.owner == Some(0) && r.id.ends_with("-lock-0000000000"))
        .count();
    assert!(copies >= 2, "C1's node on several servers");
    let chips = texts(&s).iter().filter(|t| *t == "C1 ×1").count();
    assert_eq!(chips, copies, "each copy carries C1's count");
}

#[test]
fn message_labels_of_clients_that_meet_one_box_do_not_overlap() {
    use lockstep::view::geometry::Type;
    for (id, step) in [
        ("redlock-restart-fsync", 56),
        ("zk-minority", 244),
        ("redlock-majority", 63),
        ("zk-leader-crash", 127),
    ] {
        for (w, h) in SIZES {
            let (_, s) = at(id, step, w, h);
            let boxes: Vec<(f32, f32, f32, String)> = (s.items.iter())
                .filter(|i| i.class == "ls-msg__op" && !i.transient)
                .filter_map(|i| match &i.shape {
                    Shape::Text(t) => {
                        let text: String = t.parts.iter().map(|(p, _)| p.as_str()).collect();
                        let half = Type::width(&text, t.size, true) / 2.0;
                        Some((t.x - half, t.x + half, t.y, text))
                    }
                    _ => None,
                })
                .collect();
            // No label is covered by a message's dot (one on the box's edge hid a label's
            // last letters).
            let dots: Vec<(f32, f32, f32, f32)> = (s.items.iter())
                .filter(|d| d.class.starts_with("ls-msg ") || d.class == "ls-msg")
                .filter_map(|d| match &d.shape {
                    Shape::Poly(p) => Some(p.iter().fold(
                        (f32::MAX, f32::MIN, f32::MAX, f32::MIN),
                        |(a, b, c, d), (x, y)| (a.min(*x), b.max(*x), c.min(*y), d.max(*y)),
                    )),
                    Shape::Circle { cx, cy, r } => Some((cx - r, cx + r, cy - r, cy + r)),
                    _ => None,
                })
                .collect();
            for i in s.items.iter().filter(|i| i.class == "ls-msg__op") {
                let Shape::Text(t) = &i.shape else { continue };
                let text: String = t.parts.iter().map(|(p, _)| p.as_str()).collect();
                let wide = Type::width(&text, t.size, true);
                let left = match t.anchor {
                    Anchor::Start => t.x,
                    Anchor::Middle => t.x - wide / 2.0,
                    Anchor::End => t.x - wide,
                };
                let top = t.y - t.size as f32 * 0.75;
                for (x0, x1, y0, y1) in &dots {
                    let covers = left < *x1 && left + wide > *x0 && top < *y1 && t.y > *y0;
                    assert!(!covers, "{id}@{step} {w}x{h}: a dot covers “{text}”");
                }
            }
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    let overlap = a.0 < b.1 && b.0 < a.1 && (a.2 - b.2).abs() < 10.0;
                    assert!(!overlap, "{id}@{step} {w}x{h}: {a:?} and {b:?}");
                }
            }
        }
    }
}

/// The links between servers: (x, top, bottom, cut).
fn links(s: &Scene) -> Vec<(f32, f32, f32, bool)> {
    let cut = |i: &lockstep::view::scene::Item| i.data.iter().any(|(_, v)| v == "link-cut");
    s.items
        .iter()
        .filter(|i| i.class == "ls-link")
        .filter_map(|i| match i.shape {
            Shape::Line { x1, y1, y2, .. } => Some((x1, y1.min(y2), y1.max(y2), cut(i))),
            _ => None,
        })
        .collect()
}

#[test]
fn a_cut_link_never_lies_over_a_healthy_one() {
    let split = step_of("zk-minority", "Fault: the network splits");
    for (w, h) in SIZES {
        let (_, s) = at("zk-minority", split + 2, w, h);
        let all = links(&s);
        assert_eq!(all.iter().filter(|l| l.3).count(), 2, "{w}x{h}: {all:?}");
        assert_eq!(all.iter().filter(|l| !l.3).count(), 1, "{w}x{h}: {all:?}");
        for a in all.iter().filter(|l| l.3) {
            for b in all.iter().filter(|l| !l.3) {
                let apart = (a.0 - b.0).abs() >= 3.0 || a.2 <= b.1 + 0.5 || b.2 <= a.1 + 0.5;
                assert!(apart, "{w}x{h}: cut {a:?} lies over healthy {b:?}");
            }
        }
        let (x, _, bw, _) = rect(&s, "srv1");
        let right = x + bw;
        assert!(all.iter().all(|l| l.0 < right - 2.0), "{w}x{h}: {all:?}");
    }
}

#[test]
fn a_zxid_token_reads_in_hex_like_the_czxid_it_is() {
    for (w, h) in SIZES {
        let (_, s) = at("zk-stale-read", 51, w, h);
        let t = texts(&s);
        let token = t
            .iter()
            .find_map(|x| x.split(" · ").find_map(|p| p.strip_prefix("token ")));
        let token = token.unwrap_or_else(|| panic!("{w}x{h}: no token in {t:?}"));
        assert!(token.starts_with("0x1000"), "{w}x{h}: token {token}");
        let czxid = format!("czxid {token}");
        assert!(
            t.iter().any(|x| x.contains(&czxid)),
            "{w}x{h}: no {czxid} in {t:?}"
        );
    }
}
