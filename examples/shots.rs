//! Writes the stage of a preset at given steps as SVG files, to look at a stage change without
//! a browser build: `cargo run --example shots -- PRESET WxH STEP|keys... [--zh]`, then
//! `node tests/e2e/svgshots.mjs OUT_DIR target/shots/*.svg` renders them to PNG.

use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::frame;
use lockstep::view::plan::Plan;
use lockstep::view::stage::{scene, Opts};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(id), Some(size)) = (args.first(), args.get(1)) else {
        eprintln!("usage: shots PRESET WxH STEP... [--zh]");
        std::process::exit(2);
    };
    let lang = if args.iter().any(|a| a == "--zh") {
        Lang::Zh
    } else {
        Lang::En
    };
    let (w, h) = size.split_once('x').expect("WxH");
    let (w, h): (u32, u32) = (w.parse().expect("width"), h.parse().expect("height"));
    let preset = presets::find(id).expect("a preset id");
    let mut sim = Simulation::new(preset.scenario());
    sim.compute_ahead(2000, 400);
    let plan = Plan::new(&sim);
    std::fs::create_dir_all("target/shots").expect("target/shots");
    // `keys` stands for every key frame of the preset.
    let keys: Vec<u64> = lockstep::sim::moments::find(&sim, preset.moments)
        .iter()
        .map(|m| m.step)
        .collect();
    let steps: Vec<u64> = args[2..]
        .iter()
        .flat_map(|s| match s.as_str() {
            "keys" => keys.clone(),
            s => s.parse::<u64>().ok().into_iter().collect(),
        })
        .collect();
    for step in steps {
        sim.seek(step);
        let f = frame::build(&sim, &plan, lang);
        let body = scene(&f, &Opts { w, h, lang }).svg_body();
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{}" font-family="system-ui, 'Noto Sans CJK SC', sans-serif"><rect width="100%" height="100%" fill="#fff"/>{body}<text x="8" y="{}" font-size="13">{}</text></svg>"##,
            h + 40,
            h + 26,
            lockstep::view::svg::esc(&format!("step {step}: {}", f.narration))
        );
        let path = format!("target/shots/{id}-{w}x{h}-{step}.svg");
        std::fs::write(&path, svg).expect("write");
        println!("{path}");
    }
}
