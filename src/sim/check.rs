//! Break it: a recipe in the language, the clients that run it and the faults the search may
//! inject, turned into the scenario the stage plays and the exhaustive search over it (the
//! studio's editor and `lockstep check` both use it).

use super::explore::ExploreConfig;
use super::scenario::Scenario;
use crate::recipes::program::Source;
use crate::recipes::RecipeKind;

/// The fewest and most clients a recipe runs with.
pub const CLIENTS: std::ops::RangeInclusive<u32> = 2..=5;

/// The faults the search may inject, each at any point, once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// A client crashes; its session (or its key's TTL) ends at any later point.
    pub crash: bool,
    /// A client stops (a GC pause); its session or key may end meanwhile; it wakes later.
    pub pause: bool,
    /// A waiter closes its session and stops.
    pub close: bool,
}

impl Faults {
    /// Reads `crash,pause,close` (any of them, in any order; `none` or nothing for none).
    pub fn parse(text: &str) -> Result<Faults, String> {
        let mut f = Faults::default();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "crash" => f.crash = true,
                "pause" => f.pause = true,
                "close" => f.close = true,
                "none" => {}
                _ => {
                    return Err(format!(
                        "unknown fault {:?} (the faults are crash, pause and close)",
                        word.chars().take(40).collect::<String>()
                    ))
                }
            }
        }
        Ok(f)
    }

    /// `crash,pause` (or `none`), as [`Faults::parse`] reads it.
    pub fn names(&self) -> String {
        let on = [
            (self.crash, "crash"),
            (self.pause, "pause"),
            (self.close, "close"),
        ];
        let names: Vec<&str> = on.iter().filter(|(b, _)| *b).map(|(_, n)| *n).collect();
        match names.is_empty() {
            true => "none".into(),
            false => names.join(","),
        }
    }
}

/// A recipe to run or search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub text: String,
    pub clients: u32,
    pub faults: Faults,
}

impl Check {
    /// The scenario: the recipe's clients, one round each, a hold time of one tick. An error
    /// names the line and column of what the parser refused.
    pub fn scenario(&self) -> Result<Scenario, String> {
        if !CLIENTS.contains(&self.clients) {
            return Err(format!(
                "{} clients: a recipe runs with {} to {}",
                self.clients,
                CLIENTS.start(),
                CLIENTS.end()
            ));
        }
        let src = Source::new(&self.text).map_err(|e| e.to_string())?;
        Ok(Scenario {
            recipe: match src.redis() {
                true => RecipeKind::RedisProgram,
                false => RecipeKind::Program,
            },
            program: Some(self.text.clone()),
            clients: self.clients,
            hold_min: 1,
            hold_max: 1,
            rounds: 1,
            ..Scenario::default()
        })
    }

    /// The search's bounds and faults.
    pub fn config(&self, max_states: usize) -> ExploreConfig {
        ExploreConfig {
            max_states,
            allow_close: self.faults.close,
            crash_client: self.faults.crash,
            pause_client: self.faults.pause,
            ..ExploreConfig::bounded()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::explore::{explore, Property};

    fn starter(name: &str) -> &'static str {
        crate::recipes::program::starters::find(name).expect("a starting point")
    }

    fn check(file: &str, clients: u32, faults: &str) -> crate::sim::explore::Outcome {
        let c = Check {
            text: file.into(),
            clients,
            faults: Faults::parse(faults).unwrap(),
        };
        explore(&c.scenario().unwrap(), &c.config(400_000))
    }

    #[test]
    fn faults_read_and_write_back() {
        let f = Faults::parse("pause, crash").unwrap();
        assert_eq!(f.names(), "crash,pause");
        assert_eq!(Faults::parse("").unwrap().names(), "none");
        assert!(Faults::parse("crash,meteor")
            .unwrap_err()
            .contains("meteor"));
    }

    #[test]
    fn the_naive_lock_survives_two_clients_without_faults() {
        if !crate::STUDIO {
            return; // the language is the studio page's (see `Source::new`)
        }
        let o = check(starter("naive"), 2, "");
        assert!(o.counterexample.is_none(), "{:?}", o.counterexample);
        assert!(!o.truncated && !o.depth_cut);
    }

    #[test]
    fn setnx_repairs_a_key_left_without_ttl_so_a_crash_leaves_no_waiter_stuck() {
        if !crate::STUDIO {
            return; // the language is the studio page's (see `Source::new`)
        }
        let o = check(starter("redis-setnx"), 2, "crash");
        assert!(
            o.counterexample.is_none(),
            "{:?}",
            o.counterexample.map(|c| c.0)
        );
    }

    #[test]
    fn look_then_set_on_redis_gives_two_holders_without_any_fault() {
        if !crate::STUDIO {
            return; // the language is the studio page's (see `Source::new`)
        }
        let o = check(starter("naive-redis"), 2, "");
        let (p, run) = o.counterexample.expect("two holders");
        assert_eq!(p, Property::MutualExclusion);
        assert_eq!(
            run.forced.len(),
            10,
            "GET, GET, SET, SET: each asked and answered"
        );
    }

    #[test]
    fn the_sequential_recipe_survives_a_crash_and_a_pause() {
        if !crate::STUDIO {
            return; // the language is the studio page's (see `Source::new`)
        }
        let o = check(starter("sequential"), 2, "crash,pause");
        assert!(
            o.counterexample.is_none(),
            "{:?}",
            o.counterexample.map(|c| c.0)
        );
        assert!(!o.truncated && !o.depth_cut, "{} states", o.states);
    }

    #[test]
    fn a_bad_recipe_or_client_count_is_refused_with_where() {
        if !crate::STUDIO {
            return; // the language is the studio page's (see `Source::new`)
        }
        let c = Check {
            text: "lock:\n    hold x\n".into(),
            clients: 2,
            faults: Faults::default(),
        };
        assert!(c.scenario().unwrap_err().contains("line 2"));
        let c = Check { clients: 9, ..c };
        assert!(c.scenario().unwrap_err().contains("2 to 5"));
    }
}
