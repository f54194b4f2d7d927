//! The stage's keyboard stops: every client, server, entry and message in flight has exactly
//! one, with a name that says what it is and the state the picture draws for it.

use super::{scene, Opts};
use crate::sim::{moments, presets, Lang, Simulation};
use crate::view::frame::build;
use crate::view::plan::Plan;
use crate::view::scene::Scene;

fn stops(s: &Scene) -> Vec<(String, String)> {
    s.items
        .iter()
        .filter(|i| !i.transient)
        .filter_map(|i| i.focus.as_ref().map(|f| (f.id.clone(), f.name.clone())))
        .collect()
}

#[test]
fn every_client_server_and_entry_has_one_named_stop_at_every_key_frame() {
    for p in presets::all() {
        let mut sim = Simulation::new(p.scenario());
        sim.compute_ahead(2000, 200);
        let plan = Plan::new(&sim);
        for m in moments::find(&sim, p.moments) {
            sim.seek(m.step);
            for lang in [Lang::En, Lang::Zh] {
                let f = build(&sim, &plan, lang);
                let s = scene(
                    &f,
                    &Opts {
                        w: 1080,
                        h: 720,
                        lang,
                    },
                );
                let stops = stops(&s);
                let ids: crate::sorted::SortedSet<&str> =
                    stops.iter().map(|(id, _)| id.as_str()).collect();
                let at = format!("{} step {} {lang:?}", p.id, m.step);
                assert_eq!(ids.len(), stops.len(), "{at}: a stop twice in {stops:?}");
                for c in &f.clients {
                    let (_, name) = stops
                        .iter()
                        .find(|(id, _)| *id == format!("client:{}", c.id))
                        .unwrap_or_else(|| panic!("{at}: no stop for {}", c.name));
                    assert!(
                        name.starts_with(&c.name) && name.contains(&c.label),
                        "{at}: {name}"
                    );
                }
                if f.servers.len() > 1 {
                    for v in &f.servers {
                        let id = format!("server:{}", v.id);
                        assert!(ids.contains(id.as_str()), "{at}: no stop for {}", v.name);
                    }
                }
                for r in &f.tree {
                    let id = format!("entry:{}", r.id);
                    assert!(ids.contains(id.as_str()), "{at}: no stop for {}", r.id);
                }
                assert!(stops.iter().all(|(_, n)| !n.is_empty()), "{at}");
            }
        }
    }
}

#[test]
fn a_crashed_holders_stop_says_it_crashed_and_how_long_its_session_has_left() {
    let p = presets::find("holder-crash").unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.compute_ahead(2000, 200);
    let plan = Plan::new(&sim);
    let crashed = (0..sim.len())
        .find(|s| {
            sim.seek(*s);
            sim.world().clients.iter().any(|c| !c.alive())
        })
        .expect("a crash");
    sim.seek(crashed + 1);
    let f = build(&sim, &plan, Lang::En);
    let s = scene(
        &f,
        &Opts {
            w: 1080,
            h: 720,
            lang: Lang::En,
        },
    );
    let names: Vec<String> = stops(&s).into_iter().map(|(_, n)| n).collect();
    let name = names
        .iter()
        .find(|n| n.contains("crashed"))
        .expect("a crashed client's stop");
    assert!(name.contains("session ends in"), "{name}");
    println!("{names:#?}");
}
