//! Learn mode's commands: open a chapter, answer its question (Step waits for the prediction),
//! keep the learner's answers (localStorage where the page may use it), and run a chapter's
//! bug hunt — the exhaustive search in slices between frames, with its progress.

use leptos::prelude::*;

use super::browser;
use super::state::{App, Tab, FULL};
use crate::sim::explore::{ExploreConfig, Explorer, Outcome};
use crate::sim::moments::Kind;
use crate::sim::{Run, Scenario};
use crate::view::learn::progress::{self, Progress};
use crate::view::learn::questions::{questions, Question};
use crate::view::learn::{self, Body, Chapter};
use crate::view::url;

const STORE_KEY: &str = "lockstep.learn";
/// A slice of the search stops after this many milliseconds, so the page keeps drawing.
const SLICE_MS: f64 = 12.0;

/// The hunt number of the recipe editor's Break it (a chapter's hunts count from 0).
pub(super) const RECIPE_HUNT: usize = usize::MAX;

/// A search the learner started: which hunt, how far it got, and what it found.
#[derive(Clone, Debug)]
pub struct HuntView {
    pub which: usize,
    /// The search's bound of states (the progress bar's end).
    pub max: usize,
    pub states: usize,
    pub ms: f64,
    pub outcome: Option<Outcome>,
}

/// The key frames a run stops at: its chapter's (an author's lesson without the preset's own
/// key frames and with stops at steps only has none), or outside a run's chapter its preset's.
pub(super) fn kinds_for(chapter: Option<&Chapter>, preset: &str) -> Vec<Kind> {
    match chapter {
        Some(ch) if ch.body() == Body::Run => ch.kinds(),
        _ => crate::sim::presets::find(preset)
            .map_or(crate::sim::moments::DEFAULT, |p| p.moments)
            .to_vec(),
    }
}

/// The author's lesson a link opens, kept for the page's life (a refusal is one more error).
pub(super) fn url_lesson(
    st: &mut url::UrlState,
    errors: &mut Vec<String>,
) -> Option<&'static learn::lesson::Shared> {
    let l = st.lesson.take()?;
    learn::adopt(*l)
        .map_err(|e| errors.push(format!("`lesson`: {e}")))
        .ok()
}

/// The learner's answers as stored last time (empty where the page may not store them).
pub(super) fn stored_progress() -> Progress {
    browser::stored(STORE_KEY).map_or_else(Progress::default, |s| Progress::from_text(&s))
}

impl App {
    /// The open chapter, or the author's lesson.
    pub fn chapter(&self) -> Option<&'static Chapter> {
        self.lesson
            .get()
            .map(|l| &l.lesson)
            .or_else(|| self.learn.get().and_then(|i| learn::course().get(i)))
    }

    fn chapter_untracked(&self) -> Option<&'static Chapter> {
        self.lesson.get_untracked().map(|l| &l.lesson).or_else(|| {
            self.learn
                .get_untracked()
                .and_then(|i| learn::course().get(i))
        })
    }

    /// The run's key frames with the open lesson's stops among them.
    pub(super) fn with_stops(
        &self,
        found: Vec<crate::sim::moments::Moment>,
    ) -> Vec<crate::sim::moments::Moment> {
        match self.chapter_untracked() {
            Some(ch) => ch.with_stops(found),
            None => found,
        }
    }

    /// The key-frame kinds of the open chapter's run, or of the preset.
    pub(super) fn kinds_now(&self) -> Vec<Kind> {
        kinds_for(self.chapter_untracked(), &self.preset.get_untracked())
    }

    /// Regenerates the open chapter's questions from the run and its key frames.
    pub(super) fn requestion(&self) {
        let qs = self.chapter_untracked().map_or_else(Vec::new, |ch| {
            self.sim
                .with_untracked(|s| self.moments.with_untracked(|m| questions(ch, s, m)))
        });
        self.questions.set(qs);
    }

    /// The question at the cursor, if any.
    pub fn question(&self) -> Option<Question> {
        let step = self.frame.with(|f| f.step);
        self.questions
            .with(|qs| progress::current(qs, step).cloned())
    }

    /// True once the open run's chapter has shown everything it asks about: its takeaway
    /// (which gives the answers away) may show from here on, never before.
    pub fn takeaway_due(&self) -> bool {
        let (step, at_end) = self.frame.with(|f| (f.step, f.step >= f.len));
        let last = self
            .questions
            .with(|qs| qs.iter().map(|q| q.reveal).max())
            .into_iter()
            .chain(self.moments.with(|m| m.last().map(|m| m.step)))
            .max()
            .unwrap_or(0);
        step > 0 && (step >= last || at_end)
    }

    /// True while the question at the cursor waits for an answer (Step and Play wait too).
    pub fn waiting_for_answer(&self) -> bool {
        let Some(ch) = self.chapter_untracked() else {
            return false;
        };
        let step = self.sim.with_untracked(|s| s.cursor());
        self.questions.with_untracked(|qs| {
            progress::current(qs, step).is_some_and(|q| {
                step < q.reveal
                    && self
                        .progress
                        .with_untracked(|p| p.answer(&ch.id, q).is_none())
            })
        })
    }

    pub fn choose(&self, q: &Question, i: usize) {
        let Some(ch) = self.chapter_untracked() else {
            return;
        };
        self.progress.update(|p| {
            p.choose(&ch.id, q, i);
        });
        self.save_progress();
    }

    /// The run has reached `step`: every answer to a question of the open chapter revealed
    /// by then may be marked right or wrong.
    pub fn reveal_through(&self, step: u64) {
        let Some(ch) = self.chapter_untracked() else {
            return;
        };
        let due: Vec<u64> = self.questions.with_untracked(|qs| {
            qs.iter()
                .filter(|q| q.reveal <= step)
                .map(|q| q.at)
                .collect()
        });
        let fresh = |p: &Progress| due.iter().any(|at| p.pending(&ch.id, *at));
        if self.progress.with_untracked(fresh) {
            self.progress.update(|p| {
                for at in &due {
                    p.reveal(&ch.id, *at);
                }
            });
            self.save_progress();
        }
    }

    pub(super) fn save_progress(&self) {
        self.progress
            .with_untracked(|p| browser::store(STORE_KEY, &p.to_text()));
    }

    /// Marks the open chapter finished (its takeaway was reached).
    pub fn finish_chapter(&self) {
        let Some(ch) = self.chapter_untracked() else {
            return;
        };
        if !self.progress.with_untracked(|p| p.finished(&ch.id)) {
            self.progress.update(|p| p.finish(&ch.id));
            self.save_progress();
        }
    }

    /// A `learn=` link without a chapter opens the course where the reader left it: the first
    /// chapter not finished (the lean page's Learn button hands over with one).
    pub fn resume(&self) {
        if !browser::query().split(['?', '&']).any(|p| p == "learn=") {
            return;
        }
        let next = self
            .progress
            .with_untracked(|p| learn::course().iter().position(|c| !p.finished(&c.id)));
        if let Some(i) = next.filter(|i| Some(*i) != self.learn.get_untracked()) {
            self.open_chapter(i);
        }
    }

    /// Opens chapter `i` of the course: its run from the start, its search, or the matrix.
    pub fn open_chapter(&self, i: usize) {
        let Some(ch) = learn::course().get(i) else {
            return;
        };
        self.lesson.set(None);
        self.learn.set(Some(i));
        self.show_chapter(ch);
    }

    /// Opens an author's lesson (a link's, an imported file's, the editor's preview).
    pub fn open_lesson(&self, l: learn::lesson::Shared) {
        match learn::adopt(l) {
            Ok(l) => {
                self.learn.set(None);
                self.lesson.set(Some(l));
                self.show_chapter(&l.lesson);
            }
            Err(e) => self.error(e),
        }
    }

    fn show_chapter(&self, ch: &'static Chapter) {
        self.hunt.set(None);
        self.hunt_generation.update_value(|g| *g += 1);
        if !self.embed {
            self.tab.set(Some(Tab::Course));
        }
        if !FULL && ch.needs_full() {
            let mut st = self.url_state();
            (st.at, st.run.forced) = (0, Vec::new());
            st.preset = ch.preset().unwrap_or(url::DEFAULT_PRESET).to_string();
            st.run.scenario = Scenario::default();
            browser::go_full(&url::to_query(&st));
            return;
        }
        match ch.body() {
            Body::Run => match ch.run() {
                Some(run) if ch.scenario.is_some() || !run.forced.is_empty() => {
                    self.preset.set(ch.preset_name().to_string());
                    self.start(crate::sim::Simulation::from_run(run));
                }
                _ => self.load_preset(ch.preset_name()),
            },
            Body::Search { hunts } => {
                if let Some(h) = hunts.first() {
                    self.load_run(Run {
                        scenario: h.scenario(),
                        forced: Vec::new(),
                    });
                }
            }
            // A run's questions come with its re-plan; the matrix has none.
            Body::Matrix => {
                self.open_matrix();
                self.requestion();
            }
        }
    }

    /// The requirements matrix (the lean bundle opens it in the full one).
    pub fn open_matrix(&self) {
        if FULL {
            self.busy("ui.computing_matrix", |app| {
                app.matrix.set(Some(crate::sim::matrix::matrix()));
                app.sync_url();
            });
        } else {
            self.open_full(false);
        }
    }

    pub fn leave_course(&self) {
        self.learn.set(None);
        self.lesson.set(None);
        self.hunt_generation.update_value(|g| *g += 1);
        self.hunt.set(None);
        self.questions.set(Vec::new());
        if self.tab.get_untracked() == Some(Tab::Course) {
            self.tab.set(Some(Tab::Lesson));
        }
        self.replan();
        self.sync_url();
    }

    /// Starts (or restarts) the open chapter's hunt number `which`.
    pub fn start_hunt(&self, which: usize) {
        let Some(Body::Search { hunts }) = self.chapter_untracked().map(|c| c.body()) else {
            return;
        };
        let Some(h) = hunts.get(which) else { return };
        self.search(which, h.scenario(), &h.config());
    }

    /// Starts the exhaustive search over `scenario` in slices (a chapter's hunt, or the
    /// recipe editor's Break it as [`RECIPE_HUNT`]); the stage shows the scenario's first run.
    pub(super) fn search(&self, which: usize, scenario: Scenario, config: &ExploreConfig) {
        if !FULL {
            // Unreachable in practice (the chapter and the editor open in the full bundles);
            // keeps the checker out of the lean bundle.
            return;
        }
        self.hunt_generation.update_value(|g| *g += 1);
        let mine = self.hunt_generation.get_value();
        self.load_run(Run {
            scenario: scenario.clone(),
            forced: Vec::new(),
        });
        self.explorer
            .set_value(Some(Explorer::new(&scenario, config)));
        self.hunt.set(Some(HuntView {
            which,
            max: config.max_states,
            states: 1,
            ms: 0.0,
            outcome: None,
        }));
        let app = *self;
        let started = browser::now();
        request_animation_frame(move || hunt_slice(app, mine, started));
    }

    /// Opens the recipe editor on the open chapter's task number `which`: its starting
    /// recipe, clients and faults (the full page hands over to the studio page for it).
    pub fn open_task(&self, which: usize) {
        let Some(Body::Search { hunts }) = self.chapter_untracked().map(|c| c.body()) else {
            return;
        };
        let Some(h) = hunts.get(which) else { return };
        let Some(start) = h.task else { return };
        if !crate::STUDIO {
            let query = url::to_query(&self.url_state());
            return browser::go_studio(&format!("{query}#recipe-{which}"));
        }
        self.recipe_seed.set(Some(crate::sim::check::Check {
            text: start.text().to_string(),
            clients: h.clients,
            faults: h.task_faults(),
        }));
        self.playing.set(false);
        self.editor.set(false);
        self.recipe.set(true);
    }

    pub fn stop_hunt(&self) {
        self.hunt_generation.update_value(|g| *g += 1);
        self.explorer.set_value(None);
        self.hunt.set(None);
    }

    /// Opens the counterexample the hunt found, at its failing step.
    pub fn open_counterexample(&self) {
        let run = self.hunt.with_untracked(|h| {
            h.as_ref()
                .and_then(|h| h.outcome.as_ref())
                .and_then(|o| o.counterexample.as_ref())
                .map(|(_, run)| run.clone())
        });
        if let Some(run) = run {
            let end = run.forced.len() as u64;
            self.load_run(run);
            self.seek(end);
        }
    }
}

/// One slice of the search, then the next frame's.
fn hunt_slice(app: App, mine: u64, started: f64) {
    if app.hunt_generation.get_value() != mine {
        return;
    }
    let t0 = browser::now();
    let mut done = None;
    let mut states = 0;
    app.explorer.update_value(|e| {
        let Some(e) = e.as_mut() else { return };
        while done.is_none() && browser::now() - t0 < SLICE_MS {
            done = e.run(200);
        }
        states = e.states();
    });
    let ms = browser::now() - started;
    app.hunt.update(|h| {
        if let Some(h) = h.as_mut() {
            (h.states, h.ms) = (states, ms);
            if let Some(o) = done.take() {
                h.states = o.states;
                h.outcome = Some(o);
            }
        }
    });
    if app
        .hunt
        .with_untracked(|h| h.as_ref().is_some_and(|h| h.outcome.is_none()))
    {
        request_animation_frame(move || hunt_slice(app, mine, started));
    } else {
        app.explorer.set_value(None);
        // The recipe editor's Break it opens what it found at once, at its failing step.
        if app
            .hunt
            .with_untracked(|h| h.as_ref().is_some_and(|h| h.which == RECIPE_HUNT))
        {
            app.open_counterexample();
        }
    }
}
