//! The stage of a multi-server service: a box per server with its role, each client's wire on
//! the box of the server it talks to, the replication write lost on a cut link, the key the
//! replica lacks, and a down server after a failover — at 1440×900 and in an 800×500 embed.
#![cfg(feature = "services")]

use lockstep::services::{Role, ServerId};
use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::frame::{self, Frame};
use lockstep::view::plan::Plan;
use lockstep::view::scene::{Scene, Shape};
use lockstep::view::stage::{scene, Opts};

const SIZES: [(u32, u32); 2] = [(1440, 900), (800, 500)];

fn at(id: &str, step: u64, w: u32, h: u32) -> (Frame, Scene) {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let plan = Plan::new(&sim);
    sim.seek(step);
    let f = frame::build(&sim, &plan, Lang::En);
    let s = scene(
        &f,
        &Opts {
            w,
            h,
            lang: Lang::En,
        },
    );
    (f, s)
}

/// The step whose narration starts with `words`.
fn step_of(id: &str, words: &str) -> u64 {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let r = sim
        .records()
        .iter()
        .find(|r| r.narration.text(Lang::En).starts_with(words));
    r.unwrap_or_else(|| panic!("{id}: no step “{words}…”"))
        .index
}

fn rect(s: &Scene, key: &str) -> (f32, f32, f32, f32) {
    let i = s
        .items
        .iter()
        .find(|i| i.key == key)
        .unwrap_or_else(|| panic!("no {key}"));
    match i.shape {
        Shape::Rect { x, y, w, h, .. } => (x, y, w, h),
        _ => panic!("{key} is no box"),
    }
}

fn wire_end(s: &Scene, c: usize) -> (f32, f32) {
    let i = s
        .items
        .iter()
        .find(|i| i.key == format!("wire{c}"))
        .expect("wire");
    match i.shape {
        Shape::Line { x2, y2, .. } => (x2, y2),
        _ => panic!("a wire is a line"),
    }
}

fn texts(s: &Scene) -> Vec<String> {
    s.texts()
        .map(|t| t.parts.iter().map(|(p, _)| p.as_str()).collect())
        .collect()
}

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
    let step = step_of("redis-split", "C2 receives “+OK”");
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
