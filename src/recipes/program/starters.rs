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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_starting_point_compiles() {
        for (name, text) in STARTERS {
            assert!(super::super::Source::new(text).is_ok(), "{name}");
        }
        assert!(find("sequential").is_some_and(|t| t.contains("lowest")));
    }
}
