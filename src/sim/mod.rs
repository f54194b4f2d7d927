//! The simulated world: clients running lock recipes against the simulated server over a
//! simulated network, faults, history, monitors and narration. Plain Rust, deterministic:
//! one seeded PRNG inside the world, logical ticks, ordered maps.

pub mod app;
mod captions;
mod captions_full;
pub mod check;
pub mod client;
pub mod codec;
mod command;
mod command_de;
mod command_ser;
mod detect;
mod detect_ensemble;
pub mod detect_reads;
mod detect_replica;
mod detect_votes;
pub mod explore;
mod faults;
pub mod forced_json;
pub mod history;
pub mod matrix;
mod matrix_render;
pub mod moments;
pub mod monitors;
pub mod network;
mod preset_names;
pub mod presets;
#[cfg(feature = "services")]
mod presets_redlock;
#[cfg(feature = "services")]
pub mod presets_svc;
#[cfg(feature = "services")]
mod presets_zab;
pub mod progress;
pub mod resource;
pub mod rng;
pub mod scenario;
pub mod scenario_json;
mod setup;
pub mod step;
#[cfg(all(test, feature = "services"))]
mod step_tests;
#[cfg(not(target_arch = "wasm32"))]
pub mod sweep;
mod timers;
pub mod types;
pub mod world;

pub use crate::narrate;
pub use crate::narrate::{Lang, Narration};
pub use history::{Limit, Run, Simulation, MAX_HISTORY};
pub use scenario::{Command, Scenario, TimedCommand};
pub use step::StepRecord;
pub use world::{Action, World};
