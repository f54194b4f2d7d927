//! The exhaustive search depth-first: the same timeless model, choices and properties as
//! [`super::explore`], but only one world per level of the current path is kept (the
//! breadth-first frontier of a large space needs gigabytes of worlds; this needs a set of
//! 64-bit fingerprints). Its counterexample is a path to a violation, not a shortest one; its
//! state count equals the breadth-first search's whenever neither hits a bound.

use std::collections::BTreeSet;

use super::explore::{choices, fingerprint, run_of, settle, timeless, violation};
use super::explore::{ExploreConfig, Outcome};
use super::scenario::Scenario;
use super::world::{Action, World};

/// One level of the current path: its world, the choices not yet taken from it, and the
/// edge (action and settled deliveries) that led to it.
struct Level {
    world: World,
    todo: Vec<Action>,
    edge: Vec<Action>,
}

/// Depth-first search from the scenario's initial state; `progress` hears the state count
/// every 100,000 states.
pub fn sweep(sc: &Scenario, cfg: &ExploreConfig, mut progress: impl FnMut(usize)) -> Outcome {
    let sc = timeless(sc.clone());
    let mut root = World::new(&sc);
    root.timeless = true;
    let mut first = Vec::new();
    settle(&mut root, &mut first);
    let mut seen = BTreeSet::from([fingerprint(&root)]);
    let mut out = Outcome {
        states: 1,
        depth: 0,
        truncated: false,
        depth_cut: false,
        counterexample: None,
    };
    let mut todo = choices(&root, cfg);
    if let Some(p) = violation(&root, todo.is_empty()) {
        out.counterexample = Some((p, run_of(&sc, vec![first])));
        return out;
    }
    todo.reverse();
    let mut path = vec![Level {
        world: root,
        todo,
        edge: first,
    }];
    while let Some(top) = path.last_mut() {
        let Some(a) = top.todo.pop() else {
            path.pop();
            continue;
        };
        let mut next = top.world.clone();
        next.apply(a.clone());
        let mut edge = vec![a];
        settle(&mut next, &mut edge);
        if !seen.insert(fingerprint(&next)) {
            continue;
        }
        out.states = seen.len();
        if out.states % 100_000 == 0 {
            progress(out.states);
        }
        if out.states > cfg.max_states {
            out.truncated = true;
            return out;
        }
        out.depth = out.depth.max(path.len());
        let mut todo = choices(&next, cfg);
        if let Some(p) = violation(&next, todo.is_empty()) {
            let mut edges: Vec<_> = path.drain(..).map(|l| l.edge).collect();
            edges.push(edge);
            out.counterexample = Some((p, run_of(&sc, edges)));
            return out;
        }
        if path.len() >= cfg.max_depth {
            out.depth_cut |= !todo.is_empty();
            continue;
        }
        todo.reverse();
        path.push(Level {
            world: next,
            todo,
            edge,
        });
    }
    out
}
