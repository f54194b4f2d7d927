//! View benchmarks (prints figures; `cargo bench --bench view`): time to build a frame, its
//! stage scene and the scene's SVG for one step, with 10, 50 and 200 clients of `queue`.

use std::time::Instant;

use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::frame::build;
use lockstep::view::plan::Plan;
use lockstep::view::stage::{scene, Opts};

fn main() {
    for clients in [10u32, 50, 200] {
        let mut sc = presets::find("queue").unwrap().scenario();
        sc.clients = clients;
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
        println!(
            "{clients} clients: frame {:.3} ms, scene {:.3} ms, svg {:.3} ms (medians over {} steps; svg up to {bytes} B)",
            med(&mut frame_ns),
            med(&mut scene_ns),
            med(&mut svg_ns),
            frame_ns.len()
        );
    }
}
