//! The engine's bookkeeping stays linear in its input: with 20,000 live sessions, each input
//! looks at a bounded number of sessions and watches (not every session the server has), so a
//! replay script or a 1000-client run does not slow down as sessions pile up. Counted with the
//! server's work counter (`Server::work`), not timed.

use lockstep::engine::{Input, Output, Request, Server, ServerConfig, SessionId};

const SESSIONS: usize = 20_000;

fn connect(s: &mut Server, now: u64) -> SessionId {
    let out = s.handle(now, Input::Connect { timeout_ms: 4000 });
    match out.last() {
        Some(Output::Connected { session, .. }) => *session,
        other => panic!("no session: {other:?}"),
    }
}

#[test]
fn many_sessions_cost_a_bounded_amount_each() {
    let mut s = Server::new(ServerConfig::default());
    let ids: Vec<SessionId> = (0..SESSIONS).map(|_| connect(&mut s, 0)).collect();
    for (i, id) in ids.iter().enumerate() {
        let request = Request::Exists {
            path: format!("/w{i}"),
            watch: true,
        };
        let xid = i as i32;
        s.handle(
            0,
            Input::Request {
                session: *id,
                xid,
                request,
            },
        );
    }
    // Half close, half expire: both drop the session's watches.
    for (i, id) in ids.iter().enumerate().rev() {
        let input = if i % 2 == 0 {
            Input::Close { session: *id }
        } else {
            Input::Expire { session: *id }
        };
        s.handle(0, input);
    }
    let inputs = 3 * SESSIONS as u64;
    println!("{} entries looked at for {inputs} inputs", s.work());
    assert_eq!(s.sessions().len(), 0);
    assert_eq!(s.watches().len(), 0);
    assert!(
        s.work() <= 4 * inputs,
        "{} entries looked at for {inputs} inputs",
        s.work()
    );
}

#[test]
fn expiry_still_finds_every_due_session_in_id_order() {
    let mut s = Server::new(ServerConfig::default());
    // Deadlines in three buckets (6000, 8000, 10000), sessions interleaved across them.
    let ids: Vec<SessionId> = (0..SESSIONS / 10)
        .map(|i| {
            let timeout_ms = 4000 + 2000 * (i % 3) as u64;
            match s.handle(0, Input::Connect { timeout_ms }).last() {
                Some(Output::Connected { session, .. }) => *session,
                other => panic!("no session: {other:?}"),
            }
        })
        .collect();
    // A ping pushes a deadline past 9000: all but every seventh session ping.
    for (i, id) in ids.iter().enumerate().filter(|(i, _)| i % 7 != 0) {
        s.handle(5000 + i as u64 % 2, Input::Ping { session: *id });
    }
    let before = s.work();
    let out = s.handle(9000, Input::Tick);
    let ended: Vec<SessionId> = out
        .iter()
        .filter_map(|o| match o {
            Output::SessionEnded { session, .. } => Some(*session),
            _ => None,
        })
        .collect();
    let expected: Vec<SessionId> = (0..ids.len())
        .filter(|i| i % 3 != 2 && i % 7 == 0)
        .map(|i| ids[i])
        .collect();
    assert_eq!(ended.len(), expected.len());
    assert!(ended == expected, "sessions expired out of id order");
    // Looking for them costs about one look per expired session, not one per session.
    let work = s.work() - before;
    assert!(work <= 4 * ended.len() as u64 + 8, "{work}");
}
