//! Engine benchmarks: per-operation cost of create/delete of ephemeral-sequential nodes and of
//! getChildren under a parent with 10, 1 000 and 100 000 siblings, and expiry of a session that
//! owns 1 000 ephemerals. Run with `cargo bench --bench engine`.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use lockstep::engine::{
    CreateMode, Input, Output, Request, Response, Server, ServerConfig, SessionId,
};

fn connect(s: &mut Server) -> SessionId {
    match s.handle(0, Input::Connect { timeout_ms: 40_000 }).pop() {
        Some(Output::Connected { session, .. }) => session,
        other => panic!("connect failed: {other:?}"),
    }
}

fn req(s: &mut Server, session: SessionId, request: Request) -> Option<Response> {
    s.handle(
        0,
        Input::Request {
            session,
            xid: 1,
            request,
        },
    )
    .into_iter()
    .find_map(|o| match o {
        Output::Reply { result: Ok(r), .. } => Some(r),
        _ => None,
    })
}

fn create(path: &str, mode: CreateMode) -> Request {
    Request::Create {
        path: path.into(),
        data: Some(Vec::new()),
        mode,
    }
}

/// A server with `/locks` holding `siblings` ephemeral-sequential children of one session.
fn server_with(siblings: usize) -> (Server, SessionId) {
    let mut s = Server::new(ServerConfig::default());
    let session = connect(&mut s);
    req(&mut s, session, create("/locks", CreateMode::Persistent));
    for _ in 0..siblings {
        req(
            &mut s,
            session,
            create("/locks/lock-", CreateMode::EphemeralSequential),
        );
    }
    (s, session)
}

fn create_delete(c: &mut Criterion) {
    let mut g = c.benchmark_group("create+delete ephemeral sequential");
    for n in [10usize, 1_000, 100_000] {
        let (mut s, session) = server_with(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                let Some(Response::Create { path, .. }) = req(
                    &mut s,
                    session,
                    create("/locks/lock-", CreateMode::EphemeralSequential),
                ) else {
                    panic!("create failed")
                };
                req(&mut s, session, Request::Delete { path, version: -1 });
            })
        });
    }
    g.finish();
}

fn get_children(c: &mut Criterion) {
    let mut g = c.benchmark_group("getChildren");
    for n in [10usize, 1_000, 100_000] {
        let (mut s, session) = server_with(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                req(
                    &mut s,
                    session,
                    Request::GetChildren {
                        path: "/locks".into(),
                        watch: false,
                    },
                )
            })
        });
    }
    g.finish();
}

fn expire_session(c: &mut Criterion) {
    c.bench_function("expire session owning 1000 ephemerals", |b| {
        b.iter_batched(
            || server_with(1_000),
            |(mut s, session)| s.handle(0, Input::Expire { session }),
            BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, create_delete, get_children, expire_session);
criterion_main!(benches);
