//! The root's state and the commands the views send. The simulation lives in one signal, the
//! row plan and key frames beside it (recomputed when the history changes), and the frame is a
//! memo derived from them; every command is a plain method here.

use leptos::prelude::*;

use super::browser;
use super::learn::{kinds_for, stored_progress, HuntView};
use crate::recipes::RecipeKind;
use crate::sim::explore::Explorer;
use crate::sim::moments::Moment;
use crate::sim::presets;
use crate::sim::{Lang, Run, Scenario, Simulation};
use crate::view::compare::Compare;
use crate::view::learn::{self, progress::Progress, questions::Question};
use crate::view::plan::Plan;
use crate::view::tracker::Tracker;
use crate::view::url::{self, UrlState};
use crate::view::{build, Frame};

/// Whether this is the full bundle (every lock service, compare mode, the matrix); the lean
/// first page hands anything else over to it.
pub use crate::view::FULL;

/// Playback speeds (multiples of the base pace).
pub const SPEEDS: [(&str, u32); 5] = [
    ("×½", 50),
    ("×1", 100),
    ("×2", 200),
    ("×4", 400),
    ("×8", 800),
];

/// History computed ahead on load and at the end of what exists, and how many steps of
/// nothing but heartbeats end a run that would otherwise go on forever.
pub(super) const AHEAD: u64 = 2000;
pub(super) const QUIET: u64 = 200;
/// How far Step looks for a step that is not a heartbeat.
pub(super) const SKIP_LIMIT: u64 = 5000;

/// What the drawer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Course,
    Lesson,
    Settings,
    Log,
    Sequence,
    Monitors,
}

/// What a click on the stage opened.
#[derive(Clone, Debug, PartialEq)]
pub enum Pop {
    Client(usize),
    /// One of the lock service's servers.
    Server(crate::services::ServerId),
    Entry(String),
    Message(u64),
}

#[derive(Clone, Copy)]
pub struct App {
    pub sim: RwSignal<Simulation>,
    pub plan: RwSignal<Plan>,
    pub moments: RwSignal<Vec<Moment>>,
    pub preset: RwSignal<String>,
    pub lang: RwSignal<Lang>,
    pub frame: Memo<Frame>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<usize>,
    pub show_pings: RwSignal<bool>,
    pub tab: RwSignal<Option<Tab>>,
    pub pop: RwSignal<Option<Pop>>,
    /// How long the next transition on the stage takes (ms; 0: jump).
    pub anim_ms: StoredValue<f64>,
    pub errors: RwSignal<Vec<String>>,
    pub notice: RwSignal<Option<String>>,
    pub embed: bool,
    pub lang_from_url: RwSignal<bool>,
    pub help: RwSignal<bool>,
    /// The "Export animation" dialog is open (full bundle).
    pub anim: RwSignal<bool>,
    /// The lesson editor is open (full bundle).
    pub editor: RwSignal<bool>,
    /// The recipe editor is open (studio page), and what it starts from when a course task
    /// opens it.
    pub recipe: RwSignal<bool>,
    pub recipe_seed: RwSignal<Option<crate::sim::check::Check>>,
    pub dialog: RwSignal<Option<super::dialogs::Dialog>>,
    /// The settings form, refreshed whenever a run is loaded.
    pub draft: RwSignal<Scenario>,
    pub cmp: RwSignal<Option<Compare>>,
    pub matrix: RwSignal<Option<Vec<crate::sim::matrix::Row>>>,
    pub pause_ticks: RwSignal<u64>,
    sync_pending: StoredValue<bool>,
    /// Learn mode: the open chapter, its questions, the learner's answers, a bug hunt.
    pub learn: RwSignal<Option<usize>>,
    /// An author's lesson open instead of a chapter (see `view::learn::lesson`).
    pub lesson: RwSignal<Option<&'static learn::lesson::Shared>>,
    pub questions: RwSignal<Vec<Question>>,
    pub progress: RwSignal<Progress>,
    pub hunt: RwSignal<Option<HuntView>>,
    pub explorer: StoredValue<Option<Explorer>>,
    pub hunt_generation: StoredValue<u64>,
    /// Counts the times Step was refused for an unanswered question (the box shakes).
    pub nudge: RwSignal<u32>,
    /// The plan and key frames, kept up to date with the history step by step.
    pub tracker: StoredValue<Option<Tracker>>,
    /// History computed in slices (fill.rs): the step to reach, the current filling, and
    /// what it has done (the progress line).
    pub fill_to: StoredValue<Option<u64>>,
    pub fill_generation: StoredValue<u64>,
    pub computing: RwSignal<Option<super::fill::Progress>>,
    /// What the link asks to open once the page shows: the matrix, compare mode's columns.
    pub opening: StoredValue<(bool, Vec<RecipeKind>)>,
    /// An embed's player parameters (range, autoplay, loop, speed, controls, theme) and how
    /// often playback has ended (the embed API's `ended` event follows it).
    pub player: RwSignal<(crate::view::player::Player, u32)>,
    /// Counts a host's `lockstep:hello`s (each is answered with `lockstep:ready`).
    pub hello: RwSignal<u32>,
}

impl App {
    /// Builds the state from the page's URL (bad parameters become visible messages).
    pub fn from_url() -> App {
        let (mut st, errors) = url::parse(&browser::query());
        if !crate::STUDIO && st.needs_studio() {
            browser::go_studio(&browser::query_and_hash());
        } else if !FULL && st.needs_full() {
            browser::go_full(&browser::query_and_hash());
        }
        let lang = crate::view::i18n::pick(
            st.lang.map(|l| if l == Lang::Zh { "zh" } else { "en" }),
            browser::browser_language().as_deref(),
        );
        let mut sim = Simulation::from_run(st.run.clone());
        let chapter = st.learn.as_deref().and_then(learn::find);
        let mut errors = errors;
        let lesson = super::learn::url_lesson(&mut st, &mut errors);
        let chapter = lesson.map(|l| (usize::MAX, &l.lesson)).or(chapter);
        // The tracker observes the steps as they are computed (no second pass over them).
        let mut tracker = Tracker::new(&sim, &kinds_for(chapter.map(|(_, c)| c), &st.preset));
        // At most a small amount of work before the page shows; the rest is sliced (fill.rs).
        let now = super::fill::at_once(sim.scenario().clients);
        sim.seek_computing_with(st.at.min(now), |w, r| tracker.observe(w, r));
        sim.compute_ahead_with(now, QUIET, |w, r| tracker.observe(w, r));
        tracker.update(&sim);
        let fill_to = (sim.cursor() < st.at).then_some(st.at);
        let plan = RwSignal::new(tracker.plan(&sim));
        let found = tracker.moments();
        let found = match chapter {
            Some((_, c)) => c.with_stops(found),
            None => found,
        };
        let qs = chapter.map_or_else(Vec::new, |(_, c)| {
            learn::questions::questions(c, &sim, &found)
        });
        let moments = RwSignal::new(found);
        let draft = RwSignal::new(sim.scenario().clone());
        let sim = RwSignal::new(sim);
        let lang_sig = RwSignal::new(lang);
        let frame = Memo::new(move |_| plan.with(|p| sim.with(|s| build(s, p, lang_sig.get()))));
        let wide = browser::viewport_width() >= 1200.0;
        App {
            sim,
            plan,
            moments,
            preset: RwSignal::new(st.preset),
            lang: lang_sig,
            frame,
            playing: RwSignal::new(false),
            speed: RwSignal::new(st.player.speed.unwrap_or(1)),
            show_pings: RwSignal::new(false),
            tab: RwSignal::new((wide && !st.embed).then_some(if chapter.is_some() {
                Tab::Course
            } else {
                Tab::Lesson
            })),
            pop: RwSignal::new(None),
            anim_ms: StoredValue::new(0.0),
            errors: RwSignal::new(errors),
            notice: RwSignal::new(None),
            embed: st.embed,
            lang_from_url: RwSignal::new(st.lang.is_some()),
            help: RwSignal::new(false),
            anim: RwSignal::new(false),
            editor: RwSignal::new(false),
            recipe: RwSignal::new(false),
            recipe_seed: RwSignal::new(None),
            dialog: RwSignal::new(None),
            draft,
            // Compare mode and the matrix open once the page shows (heavy; see `busy`).
            cmp: RwSignal::new(None),
            matrix: RwSignal::new(None),
            opening: StoredValue::new((FULL && st.matrix, st.compare)),
            pause_ticks: RwSignal::new(40),
            sync_pending: StoredValue::new(false),
            learn: RwSignal::new(chapter.map(|(i, _)| i).filter(|i| *i != usize::MAX)),
            lesson: RwSignal::new(lesson),
            questions: RwSignal::new(qs),
            progress: RwSignal::new(stored_progress()),
            hunt: RwSignal::new(None),
            explorer: StoredValue::new(None),
            hunt_generation: StoredValue::new(0),
            nudge: RwSignal::new(0),
            tracker: StoredValue::new(Some(tracker)),
            fill_to: StoredValue::new(fill_to),
            player: RwSignal::new((st.player, 0)),
            hello: RwSignal::new(0),
            fill_generation: StoredValue::new(0),
            computing: RwSignal::new(None),
        }
    }

    /// The URL state for the current frame.
    pub fn url_state(&self) -> UrlState {
        let (run, at) = self.sim.with_untracked(|s| (s.run().clone(), s.cursor()));
        // While a step is being computed (fill.rs), a link names that step, not the way there.
        let at = self.fill_to.get_value().unwrap_or(at);
        let lang = self
            .lang_from_url
            .get_untracked()
            .then(|| self.lang.get_untracked());
        let (compare, matrix) = (
            self.cmp
                .with_untracked(|c| c.as_ref().map(|c| c.recipes()).unwrap_or_default()),
            self.matrix.with_untracked(|m| m.is_some()),
        );
        UrlState {
            preset: self.preset.get_untracked(),
            run,
            at,
            lang,
            embed: self.embed,
            compare,
            matrix,
            learn: self
                .learn
                .get_untracked()
                .and_then(|i| learn::course().get(i))
                .map(|c| c.id.to_string()),
            lesson: self.lesson.get_untracked().map(|l| Box::new(l.clone())),
            elsewhere: false,
            player: self.player.with_untracked(|p| p.0.clone()),
        }
    }

    pub fn share_url(&self, embed: bool) -> String {
        let mut st = self.url_state();
        st.embed = embed;
        st.lang = Some(self.lang.get_untracked());
        format!("{}?{}", browser::share_base(), url::to_query(&st))
    }

    /// Writes the state into the address bar soon (debounced: history updates are slow and
    /// rate-limited by browsers, and stepping can be fast).
    pub fn sync_url(&self) {
        if self.sync_pending.get_value() {
            return;
        }
        self.sync_pending.set_value(true);
        let app = *self;
        set_timeout(
            move || {
                app.sync_pending.set_value(false);
                browser::replace_query(&url::to_query(&app.url_state()));
            },
            std::time::Duration::from_millis(250),
        );
    }

    pub(super) fn start(&self, sim: Simulation) {
        self.playing.set(false);
        self.draft.set(sim.scenario().clone());
        let mut sim = sim;
        // The tracker observes the first stretch as it is computed (replan then replays nothing).
        let mut tracker = Tracker::new(&sim, &self.kinds_now());
        let once = super::fill::at_once(sim.scenario().clients);
        sim.compute_ahead_with(once, QUIET, |w, r| tracker.observe(w, r));
        self.tracker.set_value(Some(tracker));
        self.anim_ms.set_value(0.0);
        self.sim.set(sim);
        self.replan();
        self.pop.set(None);
        self.sync_url();
        self.fill(None);
    }

    /// Starts over with a scenario (keeps the language). The lean bundle hands a scenario for
    /// another lock service or an ensemble over to the full one.
    pub fn load(&self, preset: &str, scenario: Scenario) {
        let studio = !crate::STUDIO && scenario.needs_studio();
        if studio || (!FULL && scenario.needs_full()) {
            let mut st = self.url_state();
            (st.preset, st.run, st.at) = (
                preset.to_string(),
                Run {
                    scenario,
                    forced: Vec::new(),
                },
                0,
            );
            let q = url::to_query(&st);
            return if studio {
                browser::go_studio(&q)
            } else {
                browser::go_full(&q)
            };
        }
        self.preset.set(preset.to_string());
        self.start(Simulation::new(scenario));
    }

    pub fn load_run(&self, run: Run) {
        if !crate::STUDIO && run.scenario.needs_studio() {
            let mut st = self.url_state();
            (st.preset, st.run, st.at) = (url::CUSTOM.into(), run, 0);
            return browser::go_studio(&url::to_query(&st));
        }
        if !FULL && run.scenario.needs_full() {
            let mut st = self.url_state();
            (st.preset, st.run, st.at) = (url::CUSTOM.into(), run, 0);
            browser::go_full(&url::to_query(&st));
            return;
        }
        self.preset.set(url::CUSTOM.into());
        self.start(Simulation::from_run(run));
    }

    pub fn load_preset(&self, id: &str) {
        if let Some(p) = presets::find(id) {
            self.load(p.id, p.scenario());
        }
        if !FULL && presets::is_service_preset(id) {
            // Only the preset's id travels: the full bundle knows its scenario.
            let mut st = self.url_state();
            (st.preset, st.at, st.run) = (
                id.to_string(),
                0,
                Run {
                    scenario: Scenario::default(),
                    forced: Vec::new(),
                },
            );
            browser::go_full(&url::to_query(&st));
        }
    }

    pub fn reset(&self) {
        let sc = self.sim.with_untracked(|s| s.scenario().clone());
        self.load(&self.preset.get_untracked(), sc);
    }

    pub fn set_lang(&self, l: Lang) {
        self.lang.set(l);
        self.lang_from_url.set(true);
        self.sync_url();
    }

    /// The key frames at the cursor's step.
    pub fn moments_here(&self) -> Vec<Moment> {
        let step = self.frame.with(|f| f.step);
        self.moments
            .with(|m| m.iter().filter(|x| x.step == step).cloned().collect())
    }

    /// Compare mode's default columns: the current recipe and one per other lock service.
    pub fn default_columns(&self) -> Vec<RecipeKind> {
        let current = self.sim.with_untracked(|s| s.scenario().recipe);
        let mut r = vec![current];
        r.extend(
            [
                RecipeKind::RedisLease,
                RecipeKind::EtcdMutex,
                RecipeKind::SqlRowLock,
            ]
            .into_iter()
            .filter(|k| *k != current)
            .take(3),
        );
        r
    }

    /// The lean bundle opens compare mode or the matrix in the full one.
    pub fn open_full(&self, compare: bool) {
        let mut st = self.url_state();
        if compare {
            st.compare = self.default_columns();
        } else {
            st.matrix = true;
        }
        browser::go_full(&url::to_query(&st));
    }

    /// Opens compare mode on the current scenario with these recipes (or closes it); the lean
    /// bundle hands over to the full one.
    pub fn compare(&self, recipes: Option<Vec<RecipeKind>>) {
        if !FULL {
            return self.open_full(true);
        }
        self.playing.set(false);
        let Some(recipes) = recipes.filter(|r| !r.is_empty()) else {
            self.cmp.set(None);
            return self.sync_url();
        };
        self.busy("ui.computing_compare", move |app| {
            let base = app.sim.with_untracked(|s| s.scenario().clone());
            app.cmp.set(Some(Compare::new(&base, &recipes)));
            app.sync_url();
        });
    }

    pub fn compare_back(&self) {
        self.cmp.update(|c| {
            if let Some(c) = c.as_mut() {
                c.back();
            }
        });
    }

    pub fn error(&self, e: impl Into<String>) {
        self.errors.update(|v| v.push(e.into()));
    }
}
