//! Property test: random operation sequences from several sessions never panic and keep the
//! tree's invariants (parents exist, no children under ephemerals, numChildren matches,
//! ephemerals owned only by live sessions, zxids never go backwards).

use lockstep::engine::{
    CreateMode, Input, MultiOp, NodeKind, Output, Request, Server, ServerConfig, SessionId,
};
use proptest::prelude::*;

const PATHS: &[&str] = &[
    "/a",
    "/a/b",
    "/a/b/c",
    "/q",
    "/q/n-",
    "/a/",
    "a",
    "/",
    "/zookeeper",
    "/q/x",
];

fn mode() -> impl Strategy<Value = CreateMode> {
    prop_oneof![
        Just(CreateMode::Persistent),
        Just(CreateMode::Ephemeral),
        Just(CreateMode::PersistentSequential),
        Just(CreateMode::EphemeralSequential),
        Just(CreateMode::Container),
    ]
}

fn path() -> impl Strategy<Value = String> {
    prop::sample::select(PATHS).prop_map(str::to_string)
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        (path(), mode()).prop_map(|(path, mode)| Request::Create {
            path,
            data: Some(b"d".to_vec()),
            mode
        }),
        (path(), -1..2i32).prop_map(|(path, version)| Request::Delete { path, version }),
        (path(), any::<bool>()).prop_map(|(path, watch)| Request::Exists { path, watch }),
        (path(), any::<bool>()).prop_map(|(path, watch)| Request::GetData { path, watch }),
        (path(), any::<bool>()).prop_map(|(path, watch)| Request::GetChildren { path, watch }),
        (path(), -1..2i32).prop_map(|(path, version)| Request::SetData {
            path,
            data: None,
            version
        }),
        prop::collection::vec((path(), -1..2i32), 0..4).prop_map(|ops| Request::Multi(
            ops.into_iter()
                .enumerate()
                .map(|(i, (path, version))| match i % 3 {
                    0 => MultiOp::Create {
                        path,
                        data: None,
                        mode: CreateMode::EphemeralSequential
                    },
                    1 => MultiOp::Delete { path, version },
                    _ => MultiOp::Check { path, version },
                })
                .collect()
        )),
    ]
}

#[derive(Clone, Debug)]
enum Step {
    Connect,
    Close(usize),
    Expire(usize),
    Req(usize, Request),
    Wait(u64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => Just(Step::Connect),
        1 => (0..4usize).prop_map(Step::Close),
        1 => (0..4usize).prop_map(Step::Expire),
        8 => (0..4usize, request()).prop_map(|(s, r)| Step::Req(s, r)),
        1 => (0..9000u64).prop_map(Step::Wait),
    ]
}

fn check_invariants(s: &Server) -> Result<(), String> {
    let tree = s.tree();
    for (path, node) in tree.iter() {
        if path != "/" {
            let parent = lockstep::engine::path::raw_parent(path).unwrap();
            let p = tree.get(parent).ok_or(format!("{path}: parent missing"))?;
            if !p
                .children
                .contains(lockstep::engine::path::child_name(path))
            {
                return Err(format!("{path}: not listed by its parent"));
            }
        }
        if matches!(node.kind, NodeKind::Ephemeral(_)) && !node.children.is_empty() {
            return Err(format!("{path}: ephemeral with children"));
        }
        if let NodeKind::Ephemeral(owner) = node.kind {
            if !s.sessions().is_live(owner) {
                return Err(format!("{path}: owned by dead session {owner}"));
            }
        }
        let stat = node.stat();
        let listed = node
            .children
            .iter()
            .filter(|c| tree.get(&lockstep::engine::path::join(path, c)).is_some())
            .count();
        if stat.num_children as usize != listed || listed != node.children.len() {
            return Err(format!(
                "{path}: numChildren {} but {listed} exist",
                stat.num_children
            ));
        }
    }
    Ok(())
}

fn run(steps: Vec<Step>) -> Result<(), TestCaseError> {
    let mut s = Server::new(ServerConfig {
        tick_time_ms: 1000,
        container_check_ms: Some(5000),
    });
    let mut sessions: Vec<SessionId> = Vec::new();
    let (mut now, mut last_zxid) = (0u64, 0i64);
    for (i, st) in steps.into_iter().enumerate() {
        now += 10;
        let pick = |k: usize| sessions.get(k % sessions.len().max(1)).copied();
        let input = match st {
            Step::Connect => Input::Connect { timeout_ms: 3000 },
            Step::Close(k) => pick(k).map_or(Input::Tick, |session| Input::Close { session }),
            Step::Expire(k) => pick(k).map_or(Input::Tick, |session| Input::Expire { session }),
            Step::Req(k, request) => pick(k).map_or(Input::Tick, |session| Input::Request {
                session,
                xid: i as i32,
                request,
            }),
            Step::Wait(ms) => {
                now += ms;
                Input::Tick
            }
        };
        for o in s.handle(now, input) {
            if let Output::Connected { session, .. } = o {
                sessions.push(session);
            }
        }
        prop_assert!(
            s.last_zxid() >= last_zxid,
            "zxid went backwards at step {i}"
        );
        last_zxid = s.last_zxid();
        check_invariants(&s).map_err(|e| TestCaseError::fail(format!("step {i}: {e}")))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn random_operations_keep_tree_invariants(steps in prop::collection::vec(step(), 1..80)) {
        run(steps)?;
    }
}
