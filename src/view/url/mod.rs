//! The whole app state in the URL query: scenario (a preset plus overrides, or a custom
//! scenario), seed, user commands, cursor, language and embed mode. Parsing never fails: bad
//! parameters become specific messages and fall back to defaults.

use crate::recipes::RecipeKind;
use crate::sim::presets;
use crate::sim::{Action, Lang, Run, Scenario};

mod json;
mod lesson;

pub use json::read_run;

/// The preset name of a scenario that is not a preset.
pub const CUSTOM: &str = "custom";
/// The default preset.
pub const DEFAULT_PRESET: &str = "queue";
/// The UI's client limit (the engine allows more; the screen does not).
pub const UI_MAX_CLIENTS: u32 = 200;
/// The longest query a link may have.
pub const MAX_QUERY: usize = 64 * 1024;
/// Compare mode shows at most this many columns side by side.
pub const MAX_COLUMNS: usize = 4;
/// The furthest step a link may open at (computing it takes about a second in a browser).
pub const MAX_AT: u64 = 200_000;
/// The most work a link may ask for before the page shows anything: steps × clients.
pub const MAX_WORK: u64 = 2_000_000;

#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    pub preset: String,
    pub run: Run,
    pub at: u64,
    pub lang: Option<Lang>,
    pub embed: bool,
    /// Compare mode's columns (empty: compare mode is closed).
    pub compare: Vec<RecipeKind>,
    /// The requirements matrix is open.
    pub matrix: bool,
    /// The course is open at this chapter (its id).
    pub learn: Option<String>,
    /// An author's lesson (`lesson=`), whose run this is.
    pub lesson: Option<Box<crate::view::learn::lesson::Shared>>,
    /// The link has what only the full bundle reads: a lesson, a scenario or run as JSON.
    pub elsewhere: bool,
    /// An embed's player parameters (`start`, `end`, `autoplay`, `loop`, `speed`,
    /// `controls`, `theme`).
    pub player: crate::view::player::Player,
}

impl UrlState {
    /// Whether this state needs the full bundle (another lock service, an ensemble, compare
    /// mode, the matrix).
    pub fn needs_full(&self) -> bool {
        let foreign_preset =
            presets::find(&self.preset).is_none() && presets::is_service_preset(&self.preset);
        let chapter = self
            .learn
            .as_deref()
            .and_then(crate::view::learn::find)
            .is_some_and(|(_, c)| c.needs_full());
        foreign_preset
            || chapter
            || self.lesson.as_ref().is_some_and(|l| l.lesson.needs_full())
            || self.elsewhere
            || !self.compare.is_empty()
            || self.matrix
            || self.run.scenario.needs_full()
    }

    /// Whether only the studio page can open it: a run (or an author's lesson) of a learner's
    /// recipe.
    pub fn needs_studio(&self) -> bool {
        let lesson = self
            .lesson
            .as_ref()
            .and_then(|l| l.lesson.scenario.as_ref());
        self.run.scenario.needs_studio() || lesson.is_some_and(Scenario::needs_studio)
    }
}

fn preset_scenario(id: &str) -> Scenario {
    presets::find(id).map(|p| p.scenario()).unwrap_or_default()
}

/// Parses a query string (with or without the leading `?`).
pub fn parse(query: &str) -> (UrlState, Vec<String>) {
    let mut errors = Vec::new();
    let mut st = UrlState {
        preset: DEFAULT_PRESET.into(),
        run: Run {
            scenario: preset_scenario(DEFAULT_PRESET),
            forced: Vec::new(),
        },
        at: 0,
        lang: None,
        embed: false,
        compare: Vec::new(),
        matrix: false,
        learn: None,
        lesson: None,
        elsewhere: false,
        player: crate::view::player::Player::default(),
    };
    if query.len() > MAX_QUERY {
        errors.push(format!(
            "the link is {} bytes long (limit {MAX_QUERY}); showing the default scenario",
            query.len()
        ));
        return (st, errors);
    }
    let pairs: Vec<(String, String)> =
        form_urlencoded::parse(query.trim_start_matches('?').as_bytes())
            .into_owned()
            .collect();
    let get = |k: &str| {
        pairs
            .iter()
            .rev()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    match get("lesson") {
        Some(v) => lesson::take(&mut st, v, &mut errors),
        None => run_params(&mut st, &get, &mut errors),
    }
    st.player = crate::view::player::Player::read(&get, &mut errors);
    if let (None, Some(s)) = (get("at"), st.player.start) {
        st.at = s;
    }
    if let Some(a) = get("at") {
        match a.parse::<u64>() {
            Ok(n) if n <= MAX_AT => st.at = n,
            _ => errors.push(format!(
                "`at` must be a step number up to {MAX_AT}, not {}",
                quote(a)
            )),
        }
    }
    if let (Some(r), None) = (get("run"), &st.lesson) {
        json::run(&mut st, r, &mut errors);
    }
    if let Some(l) = get("lang") {
        st.lang = Lang::parse(l);
        if st.lang.is_none() {
            errors.push(format!("`lang` must be en or zh, not {}", quote(l)));
        }
    }
    st.embed = matches!(get("embed"), Some("1" | "true"));
    st.matrix = matches!(get("matrix"), Some("1" | "true"));
    if let Some(c) = get("compare") {
        st.compare = compare_list(c, &mut errors);
    }
    let clients = u64::from(st.run.scenario.clients.clamp(1, UI_MAX_CLIENTS));
    if st.at.saturating_mul(clients) > MAX_WORK {
        let at = MAX_WORK / clients;
        errors.push(format!(
            "step {} with {clients} clients is more than a page computes before it shows \
             anything; opening at step {at}",
            st.at
        ));
        st.at = at;
    }
    if let Err(e) = st.run.validate() {
        errors.push(format!("{e}; the run starts without user commands"));
        st.run.forced.clear();
    }
    if st.run.scenario.clients > UI_MAX_CLIENTS {
        errors.push(format!(
            "the scenario has {} clients; this screen shows at most {UI_MAX_CLIENTS}",
            st.run.scenario.clients
        ));
        st.run.scenario.clients = UI_MAX_CLIENTS;
        let n = UI_MAX_CLIENTS as usize;
        st.run
            .scenario
            .faults
            .retain(|f| f.command.client().is_none_or(|x| x < n));
        st.run.scenario.readers.retain(|r| *r < n);
        st.run.scenario.observers.retain(|r| *r < n);
        st.run.scenario.timeouts.retain(|(r, _)| *r < n);
    }
    (st, errors)
}

/// The run's parameters: `learn`, `preset`, `scenario`, the overrides, `cmds`.
fn run_params<'a>(
    st: &mut UrlState,
    get: &dyn Fn(&str) -> Option<&'a str>,
    errors: &mut Vec<String>,
) {
    let chapter_preset = get("learn").and_then(|id| learn(st, id, errors));
    if let Some(p) = get("preset").or(chapter_preset) {
        match presets::find(p) {
            Some(found) => {
                st.preset = found.id.into();
                st.run.scenario = found.scenario();
            }
            // The lean bundle hands these over to the full one; "custom" names a scenario that
            // is no preset (a matrix probe, an import), carried whole in `scenario`.
            None if presets::is_service_preset(p) => st.preset = p.into(),
            // The base `to_query` writes a custom scenario's differences against.
            None if p == CUSTOM => {
                st.preset = p.into();
                st.run.scenario = preset_scenario(p);
            }
            None => errors.push(format!(
                "unknown scenario {}; showing \"{DEFAULT_PRESET}\"",
                quote(p)
            )),
        }
    }
    if let Some(s) = get("scenario") {
        json::scenario(st, s, errors);
    }
    overrides(&mut st.run.scenario, get, errors);
    if let Some(c) = get("cmds") {
        match decode_cmds(c) {
            Ok(f) => st.run.forced = f,
            Err(e) => errors.push(format!("`cmds`: {e}; the run starts without user commands")),
        }
    }
}

/// `learn=CHAPTER` (empty: the first chapter) opens the course; the chapter's preset, unless
/// the link names one.
fn learn(st: &mut UrlState, id: &str, errors: &mut Vec<String>) -> Option<&'static str> {
    use crate::view::learn;
    // The lean page has no course: the full page reads the chapter (and reports a bad one).
    if !crate::FULL && !cfg!(test) {
        (st.learn, st.elsewhere) = (Some(id.to_string()), true);
        return None;
    }
    let (_, chapter) = learn::find(id).or_else(|| {
        errors.push(format!(
            "unknown chapter {}; opening the course at its first chapter",
            quote(id)
        ));
        learn::find("")
    })?;
    st.learn = Some(chapter.id.to_string());
    chapter.preset()
}

fn overrides<'a>(
    sc: &mut Scenario,
    get: &dyn Fn(&str) -> Option<&'a str>,
    errors: &mut Vec<String>,
) {
    if let Some(r) = get("recipe") {
        match RecipeKind::parse(r) {
            Some(k) => sc.recipe = k,
            None => errors.push(format!("unknown recipe {}", quote(r))),
        }
    }
    if let Some(c) = get("clients") {
        match c.parse::<u32>() {
            Ok(n) if (1..=UI_MAX_CLIENTS).contains(&n) => {
                sc.clients = n;
                let n = n as usize;
                sc.readers.retain(|r| *r < n);
                sc.timeouts.retain(|(r, _)| *r < n);
                sc.faults
                    .retain(|f| f.command.client().is_none_or(|x| x < n));
            }
            _ => errors.push(format!(
                "`clients` must be 1 to {UI_MAX_CLIENTS}, not {}",
                quote(c)
            )),
        }
    }
    if let Some(s) = get("seed") {
        match s.parse::<u64>() {
            Ok(n) => sc.seed = n,
            Err(_) => errors.push(format!("`seed` must be a whole number, not {}", quote(s))),
        }
    }
    if let Some(f) = get("fencing") {
        match f {
            "1" | "true" | "on" => sc.fencing = true,
            "0" | "false" | "off" => sc.fencing = false,
            _ => errors.push(format!("`fencing` must be on or off, not {}", quote(f))),
        }
    }
}

/// `compare=sequential,redis_lease,…`: known recipes, at most four; the rest are reported.
fn compare_list(v: &str, errors: &mut Vec<String>) -> Vec<RecipeKind> {
    let mut out = Vec::new();
    for name in v.split(',').filter(|n| !n.is_empty()) {
        match RecipeKind::parse(name) {
            Some(k) if out.len() < MAX_COLUMNS => out.push(k),
            Some(_) => errors.push(format!(
                "`compare` takes at most {} recipes; {} left out",
                MAX_COLUMNS,
                quote(name)
            )),
            None => errors.push(format!("`compare`: unknown recipe {}", quote(name))),
        }
    }
    out
}

/// A value quoted for a message, shortened, with control characters removed.
pub(crate) fn quote(v: &str) -> String {
    let clean: String = v.chars().filter(|c| !c.is_control()).take(40).collect();
    let more = if v.chars().count() > 40 { "…" } else { "" };
    format!("\"{clean}{more}\"")
}

fn decode_cmds(s: &str) -> Result<Vec<(u64, Action)>, String> {
    let bytes = crate::b64url::decode(s.trim()).map_err(|_| "not base64url".to_string())?;
    let text = std::str::from_utf8(&bytes).map_err(|_| "not UTF-8".to_string())?;
    let list = crate::sim::forced_json::read_forced(text)
        .map_err(|e| format!("not a command list ({e})"))?;
    if list.len() > 10_000 || list.iter().any(|(k, _)| *k == 0 || *k > 1_000_000) {
        return Err("too many commands or a step number out of range".into());
    }
    // Checked against the scenario once the whole link is read (see `parse`).
    let mut run = Run {
        scenario: Scenario::default(),
        forced: list,
    };
    run.normalise();
    Ok(run.forced)
}

fn encode_cmds(forced: &[(u64, Action)]) -> String {
    crate::b64url::encode(crate::sim::scenario_json::write_forced(forced))
}

/// The query string for a state (without `?`).
pub fn to_query(st: &UrlState) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    if let Some(l) = &st.lesson {
        q.append_pair("lesson", &l.value);
        return lesson::finish(q, st);
    }
    let base = preset_scenario(&st.preset);
    q.append_pair("preset", &st.preset);
    let short = Scenario {
        recipe: st.run.scenario.recipe,
        clients: st.run.scenario.clients,
        seed: st.run.scenario.seed,
        fencing: st.run.scenario.fencing,
        ..base.clone()
    };
    if short == st.run.scenario {
        let sc = &st.run.scenario;
        if sc.recipe != base.recipe {
            q.append_pair("recipe", sc.recipe.name());
        }
        if sc.clients != base.clients {
            q.append_pair("clients", &sc.clients.to_string());
        }
        if sc.seed != base.seed {
            q.append_pair("seed", &sc.seed.to_string());
        }
        if sc.fencing != base.fencing {
            q.append_pair("fencing", if sc.fencing { "on" } else { "off" });
        }
    } else {
        q.append_pair("scenario", &st.run.scenario.to_compact());
    }
    if !st.run.forced.is_empty() {
        q.append_pair("cmds", &encode_cmds(&st.run.forced));
    }
    q.append_pair("at", &st.at.to_string());
    if let Some(l) = st.lang {
        q.append_pair("lang", if l == Lang::Zh { "zh" } else { "en" });
    }
    if st.embed {
        q.append_pair("embed", "1");
    }
    for (k, v) in st.player.pairs() {
        q.append_pair(k, &v);
    }
    if st.matrix {
        q.append_pair("matrix", "1");
    }
    if let Some(l) = &st.learn {
        q.append_pair("learn", l);
    }
    if !st.compare.is_empty() {
        q.append_pair(
            "compare",
            &st.compare
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(","),
        );
    }
    q.finish()
}

#[cfg(test)]
mod tests;
