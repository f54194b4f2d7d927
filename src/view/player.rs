//! An embed's player parameters, as authors know them from video players: a step range
//! (`start`, `end`), `autoplay`, `loop`, `speed`, `controls=0` (the stage and its caption
//! only) and `theme` (`light`, `dark`; by default the chrome follows the reader's system and the
//! stage stays light). Read from a link (or a `lockstep:load` query) with precise messages;
//! written back into share and embed links; and the playback rules that use them, as plain
//! functions the page calls: where Play stops, where it goes on, and what it does at the end.

/// The page's colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The chrome follows the reader's system; the stage stays light (as the posters are).
    #[default]
    Auto,
    Light,
    Dark,
}

/// Playback speeds a link may ask for, as the speed menu offers them: `speed=0.5|1|2|4|8`.
pub const SPEED_NAMES: [&str; 5] = ["0.5", "1", "2", "4", "8"];

/// How long a key frame holds while a player plays through it (autoplay or loop), in ms.
pub const HOLD_MS: u32 = 2500;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The first step of the range (where the embed opens without `at`, and where a loop
    /// starts again).
    pub start: Option<u64>,
    /// The last step of the range: playback stops (or loops) there.
    pub end: Option<u64>,
    pub autoplay: bool,
    pub looping: bool,
    /// An index into the speed menu.
    pub speed: Option<usize>,
    /// The transport is shown (`controls=0`: the stage and its caption only).
    pub controls: bool,
    pub theme: Theme,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            start: None,
            end: None,
            autoplay: false,
            looping: false,
            speed: None,
            controls: true,
            theme: Theme::Auto,
        }
    }
}

/// What playback does after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Go on after the step's own transition.
    Go,
    /// A key frame: hold it this long (ms), then go on.
    Hold(u32),
    /// Stop here (a key frame when nothing asked to play through, or the range's end).
    Stop,
    /// The range's end with `loop`: back to its start, then go on.
    Restart(u64),
}

impl Player {
    /// Whether playback goes through key frames, holding each, instead of stopping at them.
    pub fn plays_through(&self) -> bool {
        self.autoplay || self.looping
    }

    /// The range's start, clamped to the run's length.
    pub fn first(&self, len: u64) -> u64 {
        self.start.unwrap_or(0).min(len)
    }

    /// The range's end, clamped to the run's length (and never before its start).
    pub fn last(&self, len: u64) -> u64 {
        self.end.unwrap_or(len).min(len).max(self.first(len))
    }

    /// What playback does at step `step` of a run `len` steps long (`finished`: the run can go
    /// no further), where `key` says whether this step is a key frame.
    pub fn next(&self, step: u64, len: u64, finished: bool, key: bool) -> Next {
        match (self.at_end(step, len, finished), self.looping, key) {
            (true, true, _) => Next::Restart(self.first(len)),
            (true, false, _) => Next::Stop,
            (false, _, true) if self.plays_through() => Next::Hold(HOLD_MS),
            (false, _, true) => Next::Stop,
            (false, _, false) => Next::Go,
        }
    }

    /// Whether `step` is the end of the range (or of a run that can go no further).
    pub fn at_end(&self, step: u64, len: u64, finished: bool) -> bool {
        self.end.is_some_and(|e| step >= e.min(len)) || (finished && step >= len)
    }

    /// Reads the player's parameters from a link's query pairs (`get` finds the last value);
    /// bad values become messages and keep the default.
    pub fn read<'a>(get: &dyn Fn(&str) -> Option<&'a str>, errors: &mut Vec<String>) -> Player {
        let mut p = Player::default();
        let mut bad = |k: &str, what: &str, v: &str| {
            errors.push(format!(
                "`{k}` must be {what}, not {}",
                super::url::quote(v)
            ));
        };
        let mut step = |k: &str| {
            let v = get(k)?;
            let n = v.parse::<u64>().ok().filter(|n| *n <= super::url::MAX_AT);
            if n.is_none() {
                bad(k, "a step number up to 200000", v);
            }
            n
        };
        p.start = step("start");
        p.end = step("end");
        for (k, default, slot) in [
            ("autoplay", false, &mut p.autoplay),
            ("loop", false, &mut p.looping),
            ("controls", true, &mut p.controls),
        ] {
            *slot = match get(k) {
                None => default,
                Some("1" | "true" | "on") => true,
                Some("0" | "false" | "off") => false,
                Some(v) => {
                    bad(k, "1 or 0", v);
                    default
                }
            };
        }
        if let Some(v) = get("speed") {
            p.speed = SPEED_NAMES.iter().position(|n| *n == v);
            if p.speed.is_none() {
                bad("speed", "0.5, 1, 2, 4 or 8", v);
            }
        }
        if let Some(v) = get("theme") {
            p.theme = match v {
                "dark" => Theme::Dark,
                "light" => Theme::Light,
                "auto" => Theme::Auto,
                _ => {
                    bad("theme", "light, dark or auto", v);
                    Theme::Auto
                }
            };
        }
        if let (Some(s), Some(e)) = (p.start, p.end) {
            if e < s {
                errors.push(format!(
                    "`end` ({e}) is before `start` ({s}); playing to the end"
                ));
                p.end = None;
            }
        }
        p
    }

    /// The parameters that differ from the defaults, for a link.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = Vec::new();
        if let Some(s) = self.start {
            v.push(("start", s.to_string()));
        }
        if let Some(e) = self.end {
            v.push(("end", e.to_string()));
        }
        for (k, on, default) in [
            ("autoplay", self.autoplay, false),
            ("loop", self.looping, false),
            ("controls", self.controls, true),
        ] {
            if on != default {
                v.push((k, if on { "1" } else { "0" }.to_string()));
            }
        }
        if let Some(i) = self.speed {
            v.push((
                "speed",
                SPEED_NAMES[i.min(SPEED_NAMES.len() - 1)].to_string(),
            ));
        }
        match self.theme {
            Theme::Auto => {}
            Theme::Light => v.push(("theme", "light".into())),
            Theme::Dark => v.push(("theme", "dark".into())),
        }
        v
    }

    /// The CSS class the page's root takes.
    pub fn theme_class(&self) -> &'static str {
        match self.theme {
            Theme::Auto => "",
            Theme::Light => "ls-theme-light",
            Theme::Dark => "ls-theme-dark",
        }
    }
}

/// The document's title for a run: "Lockstep · the preset's or the lesson's title".
pub fn title(what: Option<&str>) -> String {
    match what {
        Some(t) if !t.is_empty() => format!("{t} · Lockstep"),
        _ => "Lockstep".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(q: &str) -> (Player, Vec<String>) {
        let pairs: Vec<(String, String)> =
            form_urlencoded::parse(q.as_bytes()).into_owned().collect();
        let get = |k: &str| {
            pairs
                .iter()
                .rev()
                .find(|(x, _)| x == k)
                .map(|(_, v)| v.as_str())
        };
        let mut errors = Vec::new();
        (Player::read(&get, &mut errors), errors)
    }

    #[test]
    fn parameters_read_and_write_back() {
        let (p, e) = read("start=60&end=70&autoplay=1&loop=1&speed=2&controls=0&theme=dark");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(
            (p.start, p.end, p.autoplay, p.looping),
            (Some(60), Some(70), true, true)
        );
        assert_eq!(
            (p.speed, p.controls, p.theme),
            (Some(2), false, Theme::Dark)
        );
        let q: String = p.pairs().iter().map(|(k, v)| format!("{k}={v}&")).collect();
        assert_eq!(read(&q).0, p);
        assert!(Player::default().pairs().is_empty());
    }

    #[test]
    fn bad_values_are_named_and_keep_the_defaults() {
        let (p, e) = read("start=-1&end=x&autoplay=yes&speed=3&theme=blue&controls=2");
        assert_eq!(p, Player::default());
        assert_eq!(e.len(), 6, "{e:?}");
        for k in [
            "`start`",
            "`end`",
            "`autoplay`",
            "`speed`",
            "`theme`",
            "`controls`",
        ] {
            assert!(e.iter().any(|m| m.contains(k)), "{k}: {e:?}");
        }
        let (p, e) = read("start=50&end=10");
        assert_eq!((p.start, p.end), (Some(50), None));
        assert!(e[0].contains("before"));
    }

    #[test]
    fn playback_stops_or_loops_at_the_range_and_holds_key_frames_when_playing_through() {
        let range = Player {
            start: Some(60),
            end: Some(70),
            ..Player::default()
        };
        assert_eq!(range.next(65, 200, false, false), Next::Go);
        assert_eq!(range.next(65, 200, false, true), Next::Stop);
        assert_eq!(range.next(70, 200, false, false), Next::Stop);
        let looping = Player {
            looping: true,
            ..range.clone()
        };
        assert_eq!(looping.next(65, 200, false, true), Next::Hold(HOLD_MS));
        assert_eq!(looping.next(70, 200, false, false), Next::Restart(60));
        // A range past the run's end ends with the run.
        let long = Player {
            end: Some(500),
            looping: true,
            ..range
        };
        assert_eq!(long.next(120, 120, true, false), Next::Restart(60));
        assert_eq!(long.last(120), 120);
        assert_eq!(Player::default().next(120, 120, true, false), Next::Stop);
        assert_eq!(
            Player {
                start: Some(300),
                ..Player::default()
            }
            .first(120),
            120
        );
    }
}
