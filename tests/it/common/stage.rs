//! Shared by the stage tests of several servers: a preset's frame and scene at a step and a
//! size, the step a narration starts, and the boxes and texts of a scene.

#![allow(dead_code)]

use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::frame::{self, Frame};
use lockstep::view::plan::Plan;
use lockstep::view::scene::{Scene, Shape};
use lockstep::view::stage::{scene, Opts};

pub const SIZES: [(u32, u32); 2] = [(1440, 900), (800, 500)];

pub fn at(id: &str, step: u64, w: u32, h: u32) -> (Frame, Scene) {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let plan = Plan::new(&sim);
    sim.seek(step);
    let f = frame::build(&sim, &plan, Lang::En);
    let s = scene(
        &f,
        &Opts {
            w,
            h,
            lang: Lang::En,
        },
    );
    (f, s)
}

/// The step whose narration starts with `words`.
pub fn step_of(id: &str, words: &str) -> u64 {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let r = sim
        .records()
        .iter()
        .find(|r| r.narration.text(Lang::En).starts_with(words));
    r.unwrap_or_else(|| panic!("{id}: no step “{words}…”"))
        .index
}

pub fn rect(s: &Scene, key: &str) -> (f32, f32, f32, f32) {
    let i = s
        .items
        .iter()
        .find(|i| i.key == key)
        .unwrap_or_else(|| panic!("no {key}"));
    match i.shape {
        Shape::Rect { x, y, w, h, .. } => (x, y, w, h),
        _ => panic!("{key} is no box"),
    }
}

pub fn wire_end(s: &Scene, c: usize) -> (f32, f32) {
    let i = s
        .items
        .iter()
        .find(|i| i.key == format!("wire{c}"))
        .expect("wire");
    match i.shape {
        Shape::Line { x2, y2, .. } => (x2, y2),
        _ => panic!("a wire is a line"),
    }
}

pub fn texts(s: &Scene) -> Vec<String> {
    s.texts()
        .map(|t| t.parts.iter().map(|(p, _)| p.as_str()).collect())
        .collect()
}
