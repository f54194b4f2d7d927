//! View benchmarks (prints figures; `cargo bench --bench view`): time to build a frame, its
//! stage scene and the scene's SVG for one step, with 10, 50 and 200 clients of `queue` (and 50
//! Curator clients on a 5-server ensemble); and
//! compare mode with four columns of 200 clients, stepped and drawn as the page does.

use std::time::Instant;

use lockstep::recipes::RecipeKind;
use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::compare::Compare;
use lockstep::view::frame::build;
use lockstep::view::plan::Plan;
use lockstep::view::stage::{scene, Opts};

fn main() {
    frames();
    compare();
}

/// Four columns (ZooKeeper, Redis, etcd, SQL) of 200 clients: steps and frames per second.
fn compare() {
    let mut base = presets::find("queue").unwrap().scenario();
    base.clients = 200;
    let recipes = [
        RecipeKind::Curator,
        RecipeKind::RedisLease,
        RecipeKind::EtcdMutex,
        RecipeKind::SqlRowLock,
    ];
    let t = Instant::now();
    let mut cmp = Compare::new(&base, &recipes);
    let opened = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut steps = 0;
    let (mut in_step, mut in_frames) = (0.0, 0.0);
    loop {
        let u = Instant::now();
        // The measure the issue used: how many steps in 30 s.
        if steps >= 1564 || t.elapsed().as_secs() >= 30 || !cmp.step() {
            break;
        }
        in_step += u.elapsed().as_secs_f64();
        let u = Instant::now();
        std::hint::black_box(cmp.frames(Lang::En));
        in_frames += u.elapsed().as_secs_f64();
        steps += 1;
    }
    let lens: Vec<u64> = cmp.sims.iter().map(|s| s.cursor()).collect();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "compare, 4 x 200 clients: opens in {opened:.2} s; {steps} steps (columns at steps {lens:?}) in {secs:.2} s: stepping {in_step:.2} s, frames {in_frames:.2} s",
    );
}

fn frames() {
    for (clients, servers) in [(10u32, 0u8), (50, 0), (200, 0), (50, 5), (20, 255)] {
        let mut sc = presets::find("queue").unwrap().scenario();
        sc.clients = clients;
        if servers == 255 {
            // Redlock: five masters, a wire from every client to each.
            sc.recipe = RecipeKind::Redlock;
            sc.rounds = 3;
            sc.lease = 2000;
        } else if servers > 0 {
            sc.recipe = RecipeKind::Curator;
            sc.ensemble = Some(servers);
            sc.rounds = 3;
        }
        let mut sim = Simulation::new(sc);
        sim.compute_ahead(600, 200);
        let plan = Plan::new(&sim);
        let (mut frame_ns, mut scene_ns, mut svg_ns, mut bytes) =
            (Vec::new(), Vec::new(), Vec::new(), 0);
        for step in 100..300u64.min(sim.len()) {
            sim.seek(step);
            let t = Instant::now();
            let f = build(&sim, &plan, Lang::En);
            frame_ns.push(t.elapsed().as_nanos());
            let t = Instant::now();
            let s = scene(
                &f,
                &Opts {
                    w: 1060,
                    h: 720,
                    lang: Lang::En,
                },
            );
            scene_ns.push(t.elapsed().as_nanos());
            let t = Instant::now();
            let svg = s.svg_body();
            svg_ns.push(t.elapsed().as_nanos());
            bytes = bytes.max(svg.len());
        }
        let med = |v: &mut Vec<u128>| {
            v.sort();
            v[v.len() / 2] as f64 / 1e6
        };
        let on = if servers == 255 {
            " on 5 Redlock masters".to_string()
        } else if servers > 0 {
            format!(" on {servers} ZooKeeper servers")
        } else {
            String::new()
        };
        println!(
            "{clients} clients{on}: frame {:.3} ms, scene {:.3} ms, svg {:.3} ms (medians over {} steps; svg up to {bytes} B)",
            med(&mut frame_ns),
            med(&mut scene_ns),
            med(&mut svg_ns),
            frame_ns.len()
        );
    }
}
