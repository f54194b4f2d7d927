//! What every Curator recipe inherits from the framework (Curator 5.4): protected names with a
//! fresh UUID per create call (a create retried after NoNode and the parents' walk, or after
//! ConnectionLoss, keeps its name), node data that is the client's address, parents created
//! as containers by walking the path from the top (`ZKPaths.mkdirs`), the retry loop's
//! exponential back-off, and the watcher-removal manager that sends `checkWatches` for every
//! watcher that never fired.
//!
//! Not simulated: the ensemble tracker. A real `CuratorFramework` (`ensembleTracker(true)`, the
//! default) also sends `getData(/zookeeper/config, watch)` twice once its session is up
//! (`EnsembleTracker.start()` and its CONNECTED listener), once more at every RECONNECTED, and
//! `checkWatches(/zookeeper/config, any)` just before `closeSession` (recorded in
//! `tests/recipes/traces/curator_ensemble_tracker.json`). It takes no part in any lock: those
//! requests take no zxid, the watch fires only on a reconfiguration, and the lock's requests,
//! their order and zxids are the same with it on or off (the trace test checks exactly that).
//! Shown on the stage, every Curator client would open with two requests about the ensemble's
//! membership and close with a third, and a watch on `/zookeeper/config` would sit beside the
//! lock nodes — traffic a lesson about locks never uses, which would make Curator look busier
//! than kazoo for no reason a learner could act on. So "Curator" here is Curator built with
//! `ensembleTracker(false)`, as every other trace was recorded; simulating the tracker would
//! also need a first-connect hook and a request before the close in the ZooKeeper client
//! library that every ZooKeeper recipe shares.

use crate::sorted::SortedSet;

use crate::engine::{CreateMode, Request};

/// splitmix64: turns (seed, n) into well-spread bits for a UUID.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A version-4 UUID in canonical form, derived from the client's seed and an attempt number
/// (a real client draws 122 random bits; this one replays exactly).
pub fn uuid(seed: u64, n: u64) -> String {
    let a = (mix(seed ^ mix(n)) & 0xffff_ffff_ffff_0fff) | 0x4000;
    let b = (mix(seed.rotate_left(17) ^ n) & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

/// The address a client's node data carries (Curator's default data is the local IP).
pub fn address(client: usize) -> Vec<u8> {
    format!("10.0.0.{}", client % 250 + 1).into_bytes()
}

/// `ZKPaths.mkdirs(dir, asContainers)`: from the top, `exists` each ancestor and create the
/// missing ones as containers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mkdirs {
    prefixes: Vec<String>,
    next: usize,
}

/// What the walk asks for next.
pub enum Walk {
    Send(Request),
    Done,
}

impl Mkdirs {
    /// Starts the walk for `dir` (every ancestor from the top, `dir` included).
    pub fn start(dir: &str) -> (Mkdirs, Request) {
        let mut prefixes = Vec::new();
        let mut at = 0;
        while let Some(i) = dir[at + 1..].find('/') {
            at += i + 1;
            prefixes.push(dir[..at].to_string());
        }
        prefixes.push(dir.to_string());
        let first = exists(&prefixes[0]);
        (Mkdirs { prefixes, next: 0 }, first)
    }

    /// The reply to the walk's last request: `exists` found the node (go on) or not (create
    /// it), a container create succeeded or raced (go on).
    pub fn step(&mut self, request: &Request, found: bool) -> Walk {
        if matches!(request, Request::Exists { .. }) && !found {
            let path = self.prefixes[self.next].clone();
            return Walk::Send(Request::Create {
                path,
                data: Some(Vec::new()),
                mode: CreateMode::Container,
            });
        }
        self.next += 1;
        match self.prefixes.get(self.next) {
            Some(p) => Walk::Send(exists(p)),
            None => Walk::Done,
        }
    }
}

fn exists(path: &str) -> Request {
    Request::Exists {
        path: path.to_string(),
        watch: false,
    }
}

/// `ExponentialBackoffRetry(base, 3)`: how many retries an operation gets.
pub const MAX_RETRIES: u32 = 3;

/// The framework's watcher-removal manager: watchers the recipe set that have not fired yet
/// (a session event does not count). Releasing sends `checkWatches` for each, which leaves the
/// watch on the server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Watchers(SortedSet<String>);

impl Watchers {
    /// A watched read succeeded: its watcher is registered.
    pub fn commit(&mut self, path: &str) {
        self.0.insert(path.to_string());
    }

    /// A node event fired the watcher on `path`.
    pub fn fired(&mut self, path: &str) {
        self.0.remove(path);
    }

    /// `removeWatchers()`: one `checkWatches(path, any)` per watcher, and the list is empty.
    pub fn remove_all(&mut self) -> Vec<Request> {
        let paths = std::mem::take(&mut self.0);
        paths
            .into_iter()
            .map(|path| Request::CheckWatches {
                path,
                kind: crate::engine::WatcherType::Any,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mkdirs_walks_from_the_top() {
        let (mut m, first) = Mkdirs::start("/locks/m");
        assert_eq!(first, exists("/locks"));
        let Walk::Send(c) = m.step(&first, false) else {
            panic!()
        };
        assert!(
            matches!(&c, Request::Create { path, mode: CreateMode::Container, .. } if path == "/locks")
        );
        let Walk::Send(e) = m.step(&c, true) else {
            panic!()
        };
        assert_eq!(e, exists("/locks/m"));
        assert!(matches!(m.step(&e, true), Walk::Done));
    }

    #[test]
    fn uuids_differ_per_attempt() {
        assert_ne!(uuid(1, 1), uuid(1, 2));
        assert_ne!(uuid(1, 1), uuid(2, 1));
        assert_eq!(uuid(3, 3).len(), 36);
    }
}
