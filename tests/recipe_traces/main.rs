//! The recipes called "Curator" and "kazoo" send what those libraries send. Each trace in
//! `tests/recipes/traces/` was recorded from the real Curator 5.4.0 or kazoo 2.11.0 talking to
//! a real ZooKeeper 3.8.0 through a decoding proxy (`tests/recipes/record/`). Here the same
//! situation is driven through the simulator the way a user would (commands at given ticks),
//! every client's requests, results (with the reply's zxid) and notifications are read off the
//! simulated wire, and
//! each client's whole sequence must equal the recorded one.

mod wire;

use lockstep::recipes::RecipeKind;
use lockstep::sim::scenario::KazooIdentifier;
use lockstep::sim::{Command, Scenario, TimedCommand};
use serde_json::Value;
use wire::{recorded, simulated};

/// One situation: its trace, recipe and settings, and when each of its actions happens.
struct Situation {
    name: &'static str,
    recipe: RecipeKind,
    path: &'static str,
    readers: &'static [usize],
    leases: u32,
    /// Ticks between an action and the next (by index; the rest use the default).
    gaps: &'static [(usize, u64)],
    /// kazoo: `Lock(path, identifier=label)` (else `Lock(path)`).
    label: bool,
    /// Curator recorded with its default `ensembleTracker(true)`: its `/zookeeper/config`
    /// requests are checked apart (see `tracker_requests`), the rest as usual.
    tracker: bool,
    /// Where the recorder froze a client as a request went out: the ticks from the command
    /// that sends it (its acquire, cancel …) to that request.
    freeze_after: u64,
}

const GAP: u64 = 5000;

const BASE: Situation = Situation {
    name: "",
    recipe: RecipeKind::Curator,
    path: "/locks/m",
    readers: &[],
    leases: 1,
    gaps: &[],
    label: false,
    tracker: false,
    freeze_after: 0,
};

const SITUATIONS: &[Situation] = &[
    Situation {
        name: "curator_mutex_three",
        ..BASE
    },
    Situation {
        name: "curator_reentrant",
        ..BASE
    },
    Situation {
        name: "curator_acquire_timeout",
        ..BASE
    },
    Situation {
        name: "curator_waiter_expired_hijack",
        gaps: &[(4, 6000)],
        ..BASE
    },
    Situation {
        name: "curator_waiter_expired_hijack_release_during_retry",
        gaps: &[(4, 3500)],
        ..BASE
    },
    Situation {
        name: "curator_waiter_expired_timeout",
        gaps: &[(4, 12000)],
        ..BASE
    },
    Situation {
        name: "curator_rwlock",
        recipe: RecipeKind::Rwlock,
        path: "/locks/rw",
        readers: &[0, 2],
        ..BASE
    },
    Situation {
        name: "curator_rwlock_reader_release_wakes_nobody",
        recipe: RecipeKind::Rwlock,
        path: "/locks/rw",
        readers: &[0, 1],
        ..BASE
    },
    Situation {
        name: "curator_semaphore_two_leases",
        recipe: RecipeKind::CuratorSemaphore,
        path: "/locks/s",
        leases: 2,
        ..BASE
    },
    Situation {
        name: "curator_semaphore_mutex",
        recipe: RecipeKind::CuratorSemaphore,
        path: "/locks/sm",
        ..BASE
    },
    Situation {
        name: "kazoo_lock_three",
        recipe: RecipeKind::Kazoo,
        label: true,
        ..BASE
    },
    Situation {
        name: "kazoo_cancel",
        recipe: RecipeKind::Kazoo,
        label: true,
        ..BASE
    },
    Situation {
        name: "kazoo_no_identifier",
        recipe: RecipeKind::Kazoo,
        ..BASE
    },
    Situation {
        name: "curator_semaphore_parent_missing",
        recipe: RecipeKind::CuratorSemaphore,
        path: "/locks/s",
        ..BASE
    },
    Situation {
        name: "curator_ensemble_tracker",
        tracker: true,
        ..BASE
    },
    Situation {
        name: "kazoo_cancel_cleanup_lost",
        recipe: RecipeKind::Kazoo,
        label: true,
        gaps: &[(7, 4000)],
        ..BASE
    },
    Situation {
        name: "curator_semaphore_mutex_lost_internal_mutex",
        recipe: RecipeKind::CuratorSemaphore,
        path: "/locks/sm",
        gaps: &[(5, 500), (6, 500), (7, 2600)],
        freeze_after: 5,
        ..BASE
    },
    Situation {
        name: "kazoo_waiter_disconnected",
        recipe: RecipeKind::Kazoo,
        label: true,
        // C1 releases after C2's read timeout dropped the frozen connection, and C2 is healed
        // within its session.
        gaps: &[(4, 4500), (5, 500)],
        ..BASE
    },
];

fn trace(name: &str) -> Value {
    let path = format!(
        "{}/tests/recipes/traces/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn client_of(label: &str) -> Option<usize> {
    label
        .strip_prefix('C')?
        .parse::<usize>()
        .ok()
        .map(|n| n - 1)
}

/// The trace's actions as timed commands, and how many clients it has.
fn script(s: &Situation, t: &Value) -> (Vec<TimedCommand>, u32, Vec<(usize, u64)>) {
    let actions: Vec<&str> = t["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let (mut at, mut faults, mut clients, mut timeouts) = (100u64, Vec::new(), 0u32, Vec::new());
    // "freeze C2 on its next <op> …": the link is cut as that request goes out, `freeze_after`
    // ticks after the next command.
    let mut freeze_on = None;
    for (i, a) in actions.iter().enumerate() {
        let words: Vec<&str> = a.split_whitespace().collect();
        if words[0] == "freeze" && words.get(2) == Some(&"on") {
            freeze_on = client_of(words[1]);
            continue;
        }
        let c = client_of(words[0]);
        clients = clients.max(c.map_or(0, |c| c as u32 + 1));
        let command = match (c, words.get(1).copied()) {
            (Some(c), Some("acquire" | "lease_acquire" | "read_acquire" | "write_acquire")) => {
                if let Some(ms) = words.get(2) {
                    timeouts.push((c, ms.parse().unwrap()));
                }
                Some(Command::Acquire { client: c })
            }
            (Some(c), Some("release" | "lease_return" | "read_release" | "write_release")) => {
                Some(Command::Release { client: c })
            }
            (Some(c), Some("close")) => Some(Command::Close { client: c }),
            (Some(c), Some("cancel")) => Some(Command::Cancel { client: c }),
            (None, Some("hijack")) => Some(Command::Expire {
                client: client_of(words[2].trim_end_matches("'s")).unwrap(),
            }),
            (None, _) if words[0] == "freeze" => Some(Command::Partition {
                client: client_of(words[1]).unwrap(),
            }),
            (None, _) if words[0] == "unfreeze" => Some(Command::Heal {
                client: client_of(words[1]).unwrap(),
            }),
            _ => None,
        };
        if let Some(command) = command {
            let cut = freeze_on.take().map(|client| TimedCommand {
                at: at + s.freeze_after,
                command: Command::Partition { client },
            });
            let first = cut.clone().filter(|_| s.freeze_after == 0);
            faults.extend(first);
            faults.push(TimedCommand { at, command });
            faults.extend(cut.filter(|_| s.freeze_after > 0));
            at += s
                .gaps
                .iter()
                .find(|(k, _)| *k == i)
                .map_or(GAP, |(_, g)| *g);
        }
    }
    (faults, clients, timeouts)
}

fn scenario(s: &Situation, t: &Value) -> Scenario {
    let (faults, clients, timeouts) = script(s, t);
    Scenario {
        name: s.name.into(),
        recipe: s.recipe,
        clients,
        tick_time: 2000,
        session_timeout: t["session_timeout_ms"].as_u64().unwrap(),
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        rounds: 0,
        hold_min: 1_000_000,
        hold_max: 1_000_000,
        nesting: if s.name == "curator_reentrant" { 2 } else { 1 },
        max_leases: s.leases,
        readers: s.readers.to_vec(),
        timeouts,
        faults,
        lock_dir_exists: false,
        resource_io: false,
        lock_path: Some(s.path.into()),
        retry_sleep: 1000,
        kazoo_identifier: if s.label {
            KazooIdentifier::Label
        } else {
            KazooIdentifier::None
        },
        ..Scenario::default()
    }
}

fn check(s: &Situation) {
    let t = trace(s.name);
    let numbered = t["uuids_numbered"].as_bool().unwrap_or(false);
    let sim = simulated(scenario(s, &t), numbered);
    let mut real = recorded(&t, numbered);
    if s.tracker {
        tracker_requests(&mut real);
    }
    for (c, want) in &real {
        let got = sim.get(c).cloned().unwrap_or_default();
        let lines = |v: &[Value]| {
            v.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n  ")
        };
        assert!(
            got == *want,
            "{}: C{}'s requests differ\nrecorded:\n  {}\nsimulated:\n  {}",
            s.name,
            c + 1,
            lines(want),
            lines(&got)
        );
    }
}

/// What Curator's ensemble tracker (on by default, not simulated: see `recipes/curator/framework.rs`)
/// adds to a client's requests: `getData(/zookeeper/config, watch)` twice after the session's
/// connect, `checkWatches(/zookeeper/config)` before its `closeSession`, and nothing else.
/// Checks exactly that and takes them out.
fn tracker_requests(real: &mut std::collections::BTreeMap<usize, Vec<Value>>) {
    for (c, log) in real.iter_mut() {
        let ops: Vec<String> = log
            .iter()
            .map(|e| {
                let config = e["path"] == "/zookeeper/config";
                format!(
                    "{}{}",
                    e["op"].as_str().unwrap(),
                    if config { "*" } else { "" }
                )
            })
            .collect();
        let configs: Vec<&str> = ops
            .iter()
            .filter(|o| o.ends_with('*'))
            .map(|o| o.as_str())
            .collect();
        assert_eq!(
            configs,
            ["getData*", "getData*", "checkWatches*"],
            "C{}: the tracker's requests",
            c + 1
        );
        assert_eq!(&ops[..3], ["connect", "getData*", "getData*"], "C{}", c + 1);
        let n = ops.len();
        assert_eq!(
            &ops[n - 2..],
            ["checkWatches*", "closeSession"],
            "C{}",
            c + 1
        );
        assert!(log[1]["watch"] == true && log[2]["watch"] == true && log[1]["result"] == "ok");
        log.retain(|e| e["path"] != "/zookeeper/config");
    }
}

macro_rules! situations {
    ($($test:ident => $i:expr),* $(,)?) => { $( #[test] fn $test() { check(&SITUATIONS[$i]); } )* };
}

situations! {
    curator_mutex_with_three_clients => 0,
    curator_reentrant_acquire_and_release_send_nothing_extra => 1,
    curator_acquire_timeout_does_one_more_round_then_deletes => 2,
    curator_waiter_expired_by_hijack_continues_in_a_new_session => 3,
    curator_waiter_expired_release_during_the_retry_sleep_checks_the_dead_watch => 4,
    curator_waiter_expired_by_time_out_opens_a_fresh_session => 5,
    curator_read_write_lock => 6,
    curator_rwlock_reader_release_wakes_nobody => 7,
    curator_semaphore_v2_with_two_leases => 8,
    curator_semaphore_mutex => 9,
    kazoo_lock_with_three_clients => 10,
    kazoo_cancel_deletes_the_waiters_node => 11,
    kazoo_lock_without_identifier_sends_empty_data => 12,
    curator_semaphore_retries_the_lease_create_under_the_same_name => 13,
    curator_ensemble_tracker_adds_only_its_config_reads => 14,
    kazoo_cancel_whose_delete_is_lost_leaves_the_node_while_the_session_lives => 15,
    curator_semaphore_clients_that_lost_the_internal_mutex_both_wait_for_ever => 16,
    kazoo_waiter_disconnected_resumes_without_set_watches_and_hears_no_deletion => 17,
}
