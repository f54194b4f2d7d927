//! The recipes a learner starts from: the files in `recipes/`, each under its file's name.

/// (name, text), in the order a learner meets them: the lock everybody writes first, the
/// herd, ZooKeeper's own recipe, its two classic bugs, and the two Redis locks.
pub const STARTERS: [(&str, &str); 7] = [
    (
        "naive-redis",
        include_str!("../../../recipes/naive-redis.recipe"),
    ),
    ("naive", include_str!("../../../recipes/naive.recipe")),
    (
        "sequential",
        include_str!("../../../recipes/sequential.recipe"),
    ),
    (
        "no-recheck",
        include_str!("../../../recipes/no-recheck.recipe"),
    ),
    (
        "lost-wakeup",
        include_str!("../../../recipes/lost-wakeup.recipe"),
    ),
    (
        "redis-setnx",
        include_str!("../../../recipes/redis-setnx.recipe"),
    ),
    (
        "redis-lease",
        include_str!("../../../recipes/redis-lease.recipe"),
    ),
];

/// A starting point's text by its name.
pub fn find(name: &str) -> Option<&'static str> {
    STARTERS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// A starting point by name, as a lesson file names one (`"task": "naive-redis"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Starter {
    NaiveRedis,
    Naive,
    Sequential,
    NoRecheck,
    LostWakeup,
    RedisSetnx,
    RedisLease,
}

impl Starter {
    /// Every starting point, in [`STARTERS`]' order.
    pub const ALL: [Starter; 7] = [
        Starter::NaiveRedis,
        Starter::Naive,
        Starter::Sequential,
        Starter::NoRecheck,
        Starter::LostWakeup,
        Starter::RedisSetnx,
        Starter::RedisLease,
    ];

    /// Its file's name (serde's name too).
    pub fn name(self) -> &'static str {
        STARTERS[self as usize].0
    }

    pub fn text(self) -> &'static str {
        STARTERS[self as usize].1
    }

    pub fn named(name: &str) -> Option<Starter> {
        Starter::ALL.into_iter().find(|s| s.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_starting_point_compiles() {
        if !crate::STUDIO {
            return; // the language is the studio page's (see `Source::new`)
        }
        for (name, text) in STARTERS {
            assert!(super::super::Source::new(text).is_ok(), "{name}");
        }
        assert!(find("sequential").is_some_and(|t| t.contains("lowest")));
        for s in Starter::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(
                json,
                format!("{:?}", s.name()),
                "serde's name is the file's"
            );
            assert_eq!(Starter::named(s.name()), Some(s));
        }
    }
}
