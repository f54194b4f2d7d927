//! Computing history without freezing the page. A load, a fault or a step past the end does at
//! most a small, client-scaled amount of work at once; the rest (reaching a link's step, and
//! [`AHEAD`] steps past the cursor for the timeline and key frames) is computed here in slices
//! of a few milliseconds between frames, with a progress line under the stage while it lasts.
//! The tracker observes each step as it is computed, so the plan and key frames cost nothing
//! more at the end.

use leptos::prelude::*;

use super::browser;
use super::state::{App, AHEAD, QUIET};
use crate::sim::Simulation;

/// Work done at once (client-steps: a step's cost grows with the clients); more is sliced.
const AT_ONCE: u64 = 30_000;
/// One slice's length (ms), and the steps taken toward a step between two looks at the clock.
const SLICE_MS: f64 = 40.0;
const CHUNK: u64 = 8;

/// What the filler is doing, for the progress line: (computing up to a step the reader asked
/// for, or ahead; steps done; steps to do).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Work that cannot be sliced, named by its label's key (shown before it starts).
    pub busy: Option<&'static str>,
    pub seeking: bool,
    pub done: u64,
    pub goal: u64,
}

/// How many steps of a run with `clients` clients are computed at once.
pub fn at_once(clients: u32) -> u64 {
    (AT_ONCE / u64::from(clients.max(1))).clamp(20, AHEAD)
}

impl App {
    /// Starts (or restarts) filling: up to step `to` if given (the cursor follows), then
    /// [`AHEAD`] steps past the cursor.
    pub fn fill(&self, to: Option<u64>) {
        self.fill_to.set_value(to);
        self.fill_generation.update_value(|g| *g += 1);
        let (app, mine, started) = (*self, self.fill_generation.get_value(), browser::now());
        set_timeout(
            move || slice(app, mine, started, false),
            std::time::Duration::from_millis(0),
        );
    }

    /// Runs work that cannot be sliced (the matrix's probe runs, compare mode's columns) once
    /// the page has painted a line saying what it computes.
    pub fn busy(&self, key: &'static str, work: impl FnOnce(App) + 'static) {
        self.computing.set(Some(Progress {
            busy: Some(key),
            seeking: false,
            done: 0,
            goal: 0,
        }));
        let app = *self;
        request_animation_frame(move || {
            set_timeout(
                move || {
                    work(app);
                    app.computing.set(None);
                },
                std::time::Duration::from_millis(0),
            )
        });
    }

    /// Stops reaching for a step (the reader moved on); computing ahead goes on.
    pub(super) fn interrupt(&self) {
        if self.fill_to.get_value().is_some() {
            self.fill(None);
        }
    }
}

/// The progress line shows once computing ahead has taken this long (ms): a short stretch
/// after a step would only flicker.
const SHOW_AFTER_MS: f64 = 300.0;

fn slice(app: App, mine: u64, started: f64, mut did: bool) {
    if app.fill_generation.get_value() != mine {
        return;
    }
    let start = browser::now();
    let to = app.fill_to.get_value();
    let mut progress = None;
    app.sim.update_untracked(|s| {
        app.tracker.update_value(|t| {
            let Some(t) = t.as_mut() else { return };
            while browser::now() - start < SLICE_MS {
                progress = work(s, to, |w, r| t.observe(w, r));
                if progress.is_none() {
                    break;
                }
                did = true;
            }
        });
    });
    if let Some(p) = progress {
        if p.seeking || browser::now() - started > SHOW_AFTER_MS {
            app.computing.set(progress);
        }
        set_timeout(
            move || slice(app, mine, started, did),
            std::time::Duration::from_millis(0),
        );
        return;
    }
    if app.computing.with_untracked(Option::is_some) {
        app.computing.set(None);
    }
    app.fill_to.set_value(None);
    if !did {
        return;
    }
    // Done: the page sees the computed history (and the step asked for) at once.
    app.sim.update(|_| {});
    app.replan();
    if to.is_some() {
        app.sync_url();
    }
}

/// A few steps of work; None when there is nothing left to do.
fn work(
    s: &mut Simulation,
    to: Option<u64>,
    f: impl FnMut(&crate::sim::World, &crate::sim::StepRecord),
) -> Option<Progress> {
    if let Some(to) = to.filter(|to| s.cursor() < *to) {
        let before = s.cursor();
        s.seek_computing_with((before + CHUNK).min(to), f);
        return (s.cursor() > before).then_some(Progress {
            busy: None,
            seeking: true,
            done: s.cursor(),
            goal: to,
        });
    }
    let goal = s.cursor() + AHEAD;
    if s.len() >= goal || s.finished() {
        return None;
    }
    let chunk = (4000 / u64::from(s.scenario().clients.max(1))).clamp(CHUNK, 500);
    (s.compute_ahead_with(chunk, QUIET, f) > 0).then_some(Progress {
        busy: None,
        seeking: false,
        done: s.len(),
        goal,
    })
}
