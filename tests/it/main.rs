//! Every integration test in one crate (one link instead of one per file): the scenario,
//! fidelity, swarm, exhaustive, stage and tidy suites, each a module named after its old
//! file. `cargo test --test it golden::` runs one suite. The lean build (no `services`
//! feature) runs the three that need no other lock service. The fuzzer and the two bounds
//! tests stay their own binaries: each counts the heap with its own global allocator.

#[cfg(feature = "services")]
mod common;
#[cfg(feature = "services")]
mod ensemble_rig;

#[cfg(feature = "services")]
mod cli;
#[cfg(feature = "services")]
mod course_truth;
mod determinism;
#[cfg(feature = "services")]
mod docs_presets;
#[cfg(feature = "services")]
mod engine_bounds;
#[cfg(feature = "services")]
mod engine_properties;
#[cfg(feature = "services")]
mod ensemble;
#[cfg(feature = "services")]
mod ensemble_fidelity;
#[cfg(feature = "services")]
mod ensemble_leader_cut;
#[cfg(feature = "services")]
mod ensemble_observer;
#[cfg(feature = "services")]
mod ensemble_stale_read;
#[cfg(feature = "services")]
mod exhaustive;
#[cfg(feature = "services")]
mod fidelity;
mod golden;
#[cfg(feature = "services")]
mod matrix;
#[cfg(feature = "services")]
mod outcomes;
#[cfg(feature = "services")]
mod program_twins;
#[cfg(feature = "services")]
mod redlock_stage;
#[cfg(feature = "services")]
mod redlock_traces;
mod scenarios;
#[cfg(feature = "services")]
mod servers;
#[cfg(feature = "services")]
mod servers_stage;
#[cfg(feature = "services")]
mod services;
#[cfg(feature = "services")]
mod services_scenarios;
#[cfg(feature = "services")]
mod swarm;
#[cfg(feature = "services")]
mod swarm_ensemble;
#[cfg(feature = "services")]
mod swarm_naive;
#[cfg(feature = "services")]
mod swarm_redlock;
#[cfg(feature = "services")]
mod swarm_servers;
#[cfg(feature = "services")]
mod swarm_services;
#[cfg(feature = "services")]
mod tidy;
