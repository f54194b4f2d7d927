//! The lesson file: one JSON format for the course's chapters (`lessons/*.json`, built in) and
//! for an author's own lessons (a `lesson=` link, an imported file, the page's editor). A lesson
//! names a run (a preset, or a whole scenario, and the user's commands), where playback stops
//! (a step, or the first key frame of a kind), the author's words at each stop in English
//! and/or Chinese, and the questions the run itself answers.

use serde::{Deserialize, Serialize};

use super::{Ask, Chapter};
use crate::sim::moments::{Kind, Moment};
use crate::sim::{Lang, Run};

/// The format's version, the `lockstep_lesson` field of every file.
pub const VERSION: u32 = 1;
/// The largest lesson file or link read (bytes of JSON).
pub const MAX_BYTES: usize = 64 * 1024;
const MAX_STOPS: usize = 100;
const MAX_TEXT: usize = 2_000;

/// Words in English and/or Chinese; a missing language shows the other.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub en: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub zh: String,
}

impl Text {
    pub fn new(en: &str, zh: &str) -> Text {
        Text {
            en: en.into(),
            zh: zh.into(),
        }
    }

    pub fn get(&self, lang: Lang) -> &str {
        let (mine, other) = match lang {
            Lang::Zh => (&self.zh, &self.en),
            _ => (&self.en, &self.zh),
        };
        if mine.is_empty() {
            other
        } else {
            mine
        }
    }

    pub fn is_empty(&self) -> bool {
        self.en.is_empty() && self.zh.is_empty()
    }
}

/// Where playback stops: a step, or the first key frame of a kind; what the author says
/// there; and the question posed there, which the following steps answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stop {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Kind>,
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub title: Text,
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub text: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<Ask>,
}

impl Stop {
    /// The step it stops at in a run whose key frames are `moments`.
    pub fn step_in(&self, moments: &[Moment]) -> Option<u64> {
        match (self.step, self.at) {
            (Some(s), _) => Some(s),
            (None, Some(k)) => moments.iter().find(|m| m.kind == k).map(|m| m.step),
            _ => None,
        }
    }
}

/// An author's lesson as it travels: the lesson, and the link value that carries it, kept as
/// it came (a link's, or an imported file's text), so the lean page never writes a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub lesson: Chapter,
    /// base64url (no padding) of the lesson's JSON, as `scenario` is carried.
    pub value: String,
}

impl Shared {
    /// A lesson link's value.
    pub fn from_value(v: &str) -> Result<Shared, String> {
        if v.len() > MAX_BYTES * 4 / 3 + 4 {
            return Err(format!("more than the {MAX_BYTES} bytes a lesson may be"));
        }
        let bytes = crate::b64url::decode(v.trim()).map_err(|_| "not base64url".to_string())?;
        let text = std::str::from_utf8(&bytes).map_err(|_| "not UTF-8".to_string())?;
        Ok(Shared {
            lesson: Chapter::from_json(text)?,
            value: v.trim().to_string(),
        })
    }

    /// A lesson file's text.
    pub fn from_file(text: &str) -> Result<Shared, String> {
        Ok(Shared {
            lesson: Chapter::from_json(text)?,
            value: crate::b64url::encode(text),
        })
    }

    /// A lesson written here (the editor): its minified JSON.
    pub fn of(lesson: Chapter) -> Shared {
        let value = crate::b64url::encode(serde_json::to_string(&lesson).unwrap_or_default());
        Shared { lesson, value }
    }
}

impl Chapter {
    /// A lesson file, checked whole (the message says which field is wrong, and where).
    pub fn from_json(text: &str) -> Result<Chapter, String> {
        if text.len() > MAX_BYTES {
            return Err(format!(
                "the lesson is {} bytes, more than the {MAX_BYTES} a lesson may be",
                text.len()
            ));
        }
        let ch = read::read_chapter(text)?;
        ch.validate()?;
        Ok(ch)
    }

    /// The lesson file (pretty JSON, fields in a fixed order, ending in a newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Checks what the types cannot: the version, the id, a run or a search to show, every
    /// stop placed once, text lengths, and the run itself.
    pub fn validate(&self) -> Result<(), String> {
        if self.lockstep_lesson != VERSION {
            return Err(format!(
                "`lockstep_lesson`: version {} is not one this Lockstep reads (it reads {VERSION})",
                self.lockstep_lesson
            ));
        }
        let id_ok = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if self.id.is_empty() || self.id.len() > 64 || !self.id.chars().all(id_ok) {
            return Err(format!(
                "`id`: {:?} must be 1 to 64 letters, digits, '-' or '_'",
                self.id
            ));
        }
        if self.title.is_empty() {
            return Err("`title`: give it in `en`, `zh` or both".into());
        }
        self.check_body()?;
        self.check_stops()?;
        for (what, t) in [("title", &self.title), ("intro", &self.intro)] {
            check_text(what, t)?;
        }
        check_text("takeaway", &self.takeaway)
    }

    fn check_body(&self) -> Result<(), String> {
        // A run may end by opening the matrix (`matrix` beside it); a search may not.
        let matrix_alone = self.matrix && !self.is_run();
        let kinds = [self.is_run(), !self.search.is_empty(), matrix_alone];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return Err(
                "a lesson shows exactly one of: a run (`preset` and/or `scenario`, which `matrix` \
                 may follow), a `search`, or the `matrix`"
                    .into(),
            );
        }
        if let Some(p) = &self.preset {
            let known = crate::sim::presets::find(p).is_some()
                || crate::sim::presets::is_service_preset(p)
                || p == crate::view::url::CUSTOM;
            if !known {
                return Err(format!("`preset`: there is no preset {p:?}"));
            }
        }
        if self.search.len() > 8 || self.search.iter().any(|h| h.clients == 0 || h.clients > 4) {
            return Err("`search`: at most 8 hunts, each with 1 to 4 clients".into());
        }
        match self.run() {
            Some(run) => run.validate().map_err(|e| format!("the lesson's run: {e}")),
            None => Ok(()),
        }
    }

    fn check_stops(&self) -> Result<(), String> {
        if self.stops.len() > MAX_STOPS {
            return Err(format!("`stops`: at most {MAX_STOPS}"));
        }
        if !self.is_run() && !self.stops.is_empty() {
            return Err("`stops`: only a lesson with a run has stops".into());
        }
        for (i, s) in self.stops.iter().enumerate() {
            let at = format!("stops[{i}]");
            match (s.step, s.at) {
                (Some(_), Some(_)) | (None, None) => {
                    return Err(format!(
                        "`{at}`: give either `step` or `at`, not both or neither"
                    ))
                }
                (Some(n), None) if n == 0 || n > crate::view::url::MAX_AT => {
                    return Err(format!(
                        "`{at}.step`: {n} is not a step from 1 to {}",
                        crate::view::url::MAX_AT
                    ))
                }
                _ => {}
            }
            check_text(&format!("{at}.title"), &s.title)?;
            check_text(&format!("{at}.text"), &s.text)?;
        }
        Ok(())
    }

    fn is_run(&self) -> bool {
        self.preset.is_some() || self.scenario.is_some()
    }

    /// The lesson's run: its scenario (or its preset's) and the user's commands. `None` for a
    /// search, the matrix, or a preset only the full bundle knows.
    pub fn run(&self) -> Option<Run> {
        let scenario = match (&self.scenario, &self.preset) {
            (Some(s), _) => s.clone(),
            (None, Some(p)) => crate::sim::presets::find(p)?.scenario(),
            (None, None) => return None,
        };
        let mut run = Run {
            scenario,
            forced: self.cmds.clone(),
        };
        run.normalise();
        Some(run)
    }

    /// The author's stops as key frames, with the author's words as their captions, merged
    /// into the run's own (`found`, in step order).
    pub fn with_stops(&self, mut found: Vec<Moment>) -> Vec<Moment> {
        let mut add = Vec::new();
        for s in &self.stops {
            let Some(step) = s.step_in(&found) else {
                continue;
            };
            if s.title.is_empty() && s.text.is_empty() && s.step.is_none() {
                continue; // a built-in chapter's question: the key frame is already there
            }
            add.push(stop_moment(step, s));
        }
        found.extend(add);
        crate::sort::by_key(&mut found, |m| (m.step, m.kind != Kind::Stop));
        found
    }
}

/// A key frame for an author's stop: its caption is the stop's title and text.
fn stop_moment(step: u64, s: &Stop) -> Moment {
    let words = |lang: Lang| {
        let (t, x) = (s.title.get(lang), s.text.get(lang));
        match (t.is_empty(), x.is_empty()) {
            (false, false) if lang == Lang::Zh => format!("{t}：{x}"),
            (false, false) => format!("{t}: {x}"),
            (false, true) => t.to_string(),
            _ => x.to_string(),
        }
    };
    Moment {
        step,
        kind: Kind::Stop,
        client: None,
        others: Vec::new(),
        n: 0,
        m: 0,
        text: [words(Lang::En), words(Lang::Zh)],
        fault: None,
        fewer: None,
        clients: 0,
    }
}

fn check_text(what: &str, t: &Text) -> Result<(), String> {
    for (lang, s) in [("en", &t.en), ("zh", &t.zh)] {
        if s.chars().count() > MAX_TEXT {
            return Err(format!(
                "`{what}.{lang}`: longer than {MAX_TEXT} characters"
            ));
        }
    }
    Ok(())
}

mod read;
#[cfg(test)]
mod tests;
