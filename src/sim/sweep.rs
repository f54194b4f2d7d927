//! The exhaustive search depth-first, on several threads: the same timeless model, choices and
//! properties as [`super::explore`], but each thread keeps only one world per level of its
//! current path (the breadth-first frontier of a large space needs gigabytes of worlds; this
//! needs the seen 64-bit fingerprints, shared in locked tables). A thread that runs out of work takes
//! the untried choices nearest the root of another thread's path. The state count of a search
//! that hits no bound is the number of reachable states, whatever the threads did, and equals
//! the breadth-first search's; with more than one thread, which counterexample comes back
//! first may vary (the breadth-first search gives the shortest). Native only.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::explore::{choices, fingerprint, run_of, settle, timeless, violation};
use super::explore::{ExploreConfig, Outcome};
use super::scenario::Scenario;
use super::world::{Action, World};

/// One level of a thread's path: its world (taken by its last choice), the choices not yet
/// taken from it, and the edge (action and settled deliveries) that led to it.
struct Level {
    world: Option<World>,
    todo: Vec<Action>,
    edge: Vec<Action>,
}

/// The fingerprints seen: one table, open addressing (millions of small tree nodes kept for
/// the whole search fragmented the allocator until it spent half the time in `malloc`). Its
/// only question is membership; 0 marks a free slot (a fingerprint 0 is stored as 1).
struct Seen {
    slots: Vec<u64>,
    len: usize,
}

/// How many tables the seen fingerprints are spread over.
const SHARDS: usize = 64;

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: vec![0; 1 << 12],
            len: 0,
        }
    }

    /// Adds `fp`; true if it was not there.
    fn insert(&mut self, fp: u64) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            let bigger = vec![0; self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, bigger);
            self.len = 0;
            for x in old.into_iter().filter(|x| *x != 0) {
                self.insert(x);
            }
        }
        let fp = fp.max(1);
        let mask = self.slots.len() - 1;
        let mut i = fp as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = fp;
                    self.len += 1;
                    return true;
                }
                x if x == fp => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

/// Untried choices from a world, handed to whichever thread is free: `edges` lead to it.
struct Task {
    world: World,
    todo: Vec<Action>,
    edges: Vec<Vec<Action>>,
}

#[derive(Default)]
struct Pool {
    tasks: Vec<Task>,
    idle: usize,
    done: bool,
}

struct Shared<'a> {
    sc: &'a Scenario,
    cfg: &'a ExploreConfig,
    threads: usize,
    /// The seen fingerprints in [`SHARDS`] tables by their low bits (one lock would make the
    /// threads queue for it), and how many there are in all.
    seen: Vec<Mutex<Seen>>,
    states: AtomicUsize,
    pool: Mutex<Pool>,
    wake: Condvar,
    hungry: AtomicUsize,
    stop: AtomicBool,
    depth: AtomicUsize,
    depth_cut: AtomicBool,
    out: Mutex<Outcome>,
    progress: &'a (dyn Fn(usize) + Sync),
}

/// Depth-first search from the scenario's initial state on `threads` threads; `progress`
/// hears the state count every 100,000 states.
pub fn sweep(
    sc: &Scenario,
    cfg: &ExploreConfig,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Outcome {
    let sc = timeless(sc.clone());
    let mut root = World::new(&sc);
    root.timeless = true;
    let mut first = Vec::new();
    settle(&mut root, &mut first);
    let todo = choices(&root, cfg);
    let mut out = Outcome {
        states: 1,
        depth: 0,
        truncated: false,
        depth_cut: false,
        counterexample: None,
    };
    if let Some(p) = violation(&root, todo.is_empty()) {
        out.counterexample = Some((p, run_of(&sc, vec![first])));
        return out;
    }
    let task = Task {
        world: root.clone(),
        todo: todo.into_iter().rev().collect(),
        edges: vec![first],
    };
    let shared = Shared {
        sc: &sc,
        cfg,
        threads: threads.max(1),
        seen: (0..SHARDS).map(|_| Mutex::new(Seen::new())).collect(),
        states: AtomicUsize::new(0),
        pool: Mutex::new(Pool {
            tasks: vec![task],
            ..Pool::default()
        }),
        wake: Condvar::new(),
        hungry: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        depth: AtomicUsize::new(0),
        depth_cut: AtomicBool::new(false),
        out: Mutex::new(out),
        progress,
    };
    first_visit(&shared, &root);
    std::thread::scope(|s| {
        for _ in 0..shared.threads {
            s.spawn(|| {
                while let Some(t) = next_task(&shared) {
                    search(&shared, t)
                }
            });
        }
    });
    let mut out = shared.out.into_inner().unwrap_or_else(|e| e.into_inner());
    out.states = shared.states.into_inner();
    out.depth = shared.depth.into_inner();
    out.depth_cut = shared.depth_cut.into_inner();
    out
}

/// The next task, or `None` once every thread is idle with nothing left (or one stopped).
fn next_task(sh: &Shared) -> Option<Task> {
    let mut pool = sh.pool.lock().ok()?;
    loop {
        if pool.done || sh.stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(t) = pool.tasks.pop() {
            return Some(t);
        }
        pool.idle += 1;
        if pool.idle == sh.threads {
            pool.done = true;
            sh.wake.notify_all();
            return None;
        }
        sh.hungry.fetch_add(1, Ordering::Relaxed);
        pool = sh.wake.wait(pool).ok()?;
        sh.hungry.fetch_sub(1, Ordering::Relaxed);
        pool.idle -= 1;
    }
}

/// Depth-first from a task's world; gives away its oldest untried choices when a thread is
/// idle.
fn search(sh: &Shared, task: Task) {
    let base = task.edges;
    let mut path = vec![Level {
        world: Some(task.world),
        todo: task.todo,
        edge: Vec::new(),
    }];
    while let Some(top) = path.last_mut() {
        if sh.stop.load(Ordering::Relaxed) {
            return;
        }
        let Some(a) = top.todo.pop() else {
            path.pop();
            continue;
        };
        let mut next = match top.todo.is_empty() {
            true => top.world.take(),
            false => top.world.clone(),
        }
        .expect("a level keeps its world while it has choices");
        next.apply(a.clone());
        let mut edge = vec![a];
        settle(&mut next, &mut edge);
        let Some(states) = first_visit(sh, &next) else {
            continue;
        };
        let depth = base.len() - 1 + path.len();
        let todo = choices(&next, sh.cfg);
        if let Some(p) = violation(&next, todo.is_empty()) {
            let mut edges = base.clone();
            edges.extend(path.drain(1..).map(|l| l.edge));
            edges.push(edge);
            return finish(sh, |o| o.counterexample = Some((p, run_of(sh.sc, edges))));
        }
        if states > sh.cfg.max_states {
            return finish(sh, |o| o.truncated = true);
        }
        sh.depth.fetch_max(depth, Ordering::Relaxed);
        if depth >= sh.cfg.max_depth {
            sh.depth_cut.fetch_or(!todo.is_empty(), Ordering::Relaxed);
            continue;
        }
        path.push(Level {
            world: Some(next),
            todo: todo.into_iter().rev().collect(),
            edge,
        });
        if sh.hungry.load(Ordering::Relaxed) > 0 {
            give_away(sh, &base, &mut path);
        }
    }
}

/// Marks a state seen: the count so far if it is new.
fn first_visit(sh: &Shared, w: &World) -> Option<usize> {
    let fp = fingerprint(w);
    let shard = &sh.seen[fp as usize % SHARDS];
    if !shard.lock().ok()?.insert(fp / SHARDS as u64) {
        return None;
    }
    let n = sh.states.fetch_add(1, Ordering::Relaxed) + 1;
    if n.is_multiple_of(100_000) {
        (sh.progress)(n);
    }
    Some(n)
}

/// Ends the search (a violation or the state bound): the first to stop wins.
fn finish(sh: &Shared, f: impl FnOnce(&mut Outcome)) {
    if !sh.stop.swap(true, Ordering::Relaxed) {
        if let Ok(mut o) = sh.out.lock() {
            f(&mut o);
        }
    }
    if let Ok(mut pool) = sh.pool.lock() {
        pool.done = true;
    }
    sh.wake.notify_all();
}

/// Hands the untried choices of the level nearest the root to the pool.
fn give_away(sh: &Shared, base: &[Vec<Action>], path: &mut [Level]) {
    let last = path.len() - 1;
    let Some(i) = (0..last).find(|i| !path[*i].todo.is_empty()) else {
        return;
    };
    let Some(world) = path[i].world.take() else {
        return;
    };
    let mut edges = base.to_vec();
    edges.extend(path[1..=i].iter().map(|l| l.edge.clone()));
    let task = Task {
        world,
        todo: std::mem::take(&mut path[i].todo),
        edges,
    };
    if let Ok(mut pool) = sh.pool.lock() {
        pool.tasks.push(task);
    }
    sh.wake.notify_one();
}
