//! F16 against the model: a leader cut off from its followers (the recording
//! `client_leader_cut_off`, facts in `tests/ensemble/FACTS.md`). Timings are compared as an
//! order, not in milliseconds (see `ensemble_fidelity.rs`).

use crate::ensemble_rig;

use ensemble_rig::{create, finding, recording, Rig};
use lockstep::engine::CreateMode;
use lockstep::services::Role;

/// F16: with the leader cut off, the majority elects a new leader (its followers time out at
/// syncLimit × tickTime) while the old leader, counting whole ticks, still says leader for a
/// moment; it cannot commit anything then. The cut falls at several points of a tick.
#[test]
fn f16_the_old_leader_still_says_leader_while_the_majority_has_a_new_one() {
    let r = recording("client_leader_cut_off");
    let overlap = finding(&r, "old_leader_still_serving_after_new_leader_ms")
        .as_u64()
        .expect("ms");
    let (majority, old_quit) = (
        finding(&r, "majority_serving_after_cut_ms")
            .as_u64()
            .unwrap(),
        finding(&r, "X_not_serving_after_ms").as_u64().unwrap(),
    );
    assert!(
        overlap > 0 && majority < old_quit,
        "recorded: both say leader for a moment"
    );
    for phase in [0, 700, 1_300, 1_950] {
        let (elected, quit) = leader_cut_off(phase);
        println!(
            "cut {phase} ms into a tick: new leader at {elected} ms, old one quits at {quit} ms"
        );
        // The followers time out syncLimit × tickTime after the last ping they read (pings go
        // every half tick, so up to a second before the cut), then elect.
        assert!(
            (9_000..11_000).contains(&elected),
            "{phase}: majority elects at {elected} ms"
        );
        assert!(
            (9_000..12_100).contains(&quit),
            "{phase}: old leader quits at {quit} ms"
        );
        assert!(
            elected < quit,
            "F16 ({phase}): {elected} ms, then the old one at {quit} ms"
        );
    }
}

/// Cuts the leader off `phase` ms into a tick: when the majority has a new leader, and when
/// the old one stops saying leader (ms after the cut).
fn leader_cut_off(phase: u64) -> (u64, u64) {
    let mut rig = Rig::new(true);
    let x = rig.leader();
    rig.connect(x, 0, 20_000);
    rig.advance(4_000 + phase);
    let cut_at = rig.now;
    rig.cut.insert(x);
    let role = |rig: &Rig, s: u8| rig.e.servers()[usize::from(s)].role;
    let (mut elected, mut quit) = (None, None);
    let mut t = cut_at;
    while quit.is_none() && t < cut_at + 20_000 {
        t += 50;
        rig.advance(t);
        let other = (0..3u8).find(|s| *s != x && role(&rig, *s) == Role::Leader);
        if elected.is_none() && other.is_some() {
            elected = Some(t - cut_at);
            // In the window the old leader takes a write and commits nothing.
            assert_eq!(
                role(&rig, x),
                Role::Leader,
                "F16: the old one still says leader"
            );
            assert!(rig
                .request(x, 0, 9, create("/locks/window", CreateMode::Persistent))
                .is_none());
        }
        if role(&rig, x) != Role::Leader {
            quit = Some(t - cut_at);
        }
    }
    for s in 0..3u8 {
        let db = &rig.e.members[usize::from(s)].db;
        assert!(
            db.tree().get("/locks/window").is_none(),
            "nothing committed in the window"
        );
    }
    (
        elected.expect("a new leader"),
        quit.expect("the old one quits"),
    )
}
