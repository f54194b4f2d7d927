//! The sorted collections against the standard ones, operation by operation.

use super::{SortedMap, SortedSet};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::ops::Bound;

#[derive(Clone, Debug)]
enum Op {
    Insert(u8, u16),
    Remove(u8),
    Entry(u8, u16),
    Retain(u8),
    Pop(bool),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<u8>(), any::<u16>()).prop_map(|(k, v)| Op::Insert(k % 40, v)),
        any::<u8>().prop_map(|k| Op::Remove(k % 40)),
        (any::<u8>(), any::<u16>()).prop_map(|(k, v)| Op::Entry(k % 40, v)),
        any::<u8>().prop_map(|m| Op::Retain(m % 5 + 2)),
        any::<bool>().prop_map(Op::Pop),
    ]
}

fn bound(kind: u8, q: &u8) -> Bound<&u8> {
    match kind % 3 {
        0 => Bound::Included(q),
        1 => Bound::Excluded(q),
        _ => Bound::Unbounded,
    }
}

fn hash<T: std::hash::Hash>(t: &T) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(t)
}

proptest! {
    #[test]
    fn a_sorted_map_answers_as_a_btree_map(ops in proptest::collection::vec(op(), 0..120),
                                           lo in any::<u8>(), hi in any::<u8>(), kinds in any::<(u8, u8)>()) {
        let (mut ours, mut std) = (SortedMap::new(), BTreeMap::new());
        for op in ops {
            match op {
                Op::Insert(k, v) => prop_assert_eq!(ours.insert(k, v), std.insert(k, v)),
                Op::Remove(k) => prop_assert_eq!(ours.remove(&k), std.remove(&k)),
                Op::Entry(k, v) => {
                    let (a, b) = (ours.entry(k).or_insert(v), std.entry(k).or_insert(v));
                    (*a, *b) = (a.wrapping_add(1), b.wrapping_add(1));
                }
                Op::Retain(m) => {
                    ours.retain(|k, _| k % m != 0);
                    std.retain(|k, _| k % m != 0);
                }
                Op::Pop(first) if first => prop_assert_eq!(ours.pop_first(), std.pop_first()),
                Op::Pop(_) => prop_assert_eq!(ours.pop_last(), std.pop_last()),
            }
            prop_assert!(ours.iter().eq(std.iter()));
        }
        let (lo, hi) = (lo % 45, hi % 45);
        let (a, b) = (bound(kinds.0, &lo), bound(kinds.1, &hi));
        let crossed = matches!((a, b), (Bound::Included(x) | Bound::Excluded(x), Bound::Included(y) | Bound::Excluded(y)) if x > y)
            || matches!((a, b), (Bound::Excluded(x), Bound::Excluded(y)) if x == y);
        if !crossed {
            prop_assert!(ours.range((a, b)).eq(std.range((a, b))));
        }
        prop_assert_eq!(format!("{ours:?}"), format!("{std:?}"));
        prop_assert_eq!(hash(&ours), hash(&std));
        prop_assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&std).unwrap());
        let back: SortedMap<u8, u16> = serde_json::from_str(&serde_json::to_string(&std).unwrap()).unwrap();
        prop_assert_eq!(back, ours);
    }

    #[test]
    fn a_sorted_set_answers_as_a_btree_set(ops in proptest::collection::vec((any::<bool>(), 0u8..40), 0..120),
                                           lo in any::<u8>(), hi in any::<u8>()) {
        let (mut ours, mut std) = (SortedSet::new(), BTreeSet::new());
        for (add, k) in ops {
            if add {
                prop_assert_eq!(ours.insert(k), std.insert(k));
            } else {
                prop_assert_eq!(ours.remove(&k), std.remove(&k));
            }
            prop_assert!(ours.iter().eq(std.iter()));
            prop_assert_eq!(ours.first(), std.first());
            prop_assert_eq!(ours.last(), std.last());
        }
        let (lo, hi) = (lo % 45, hi % 45);
        if lo <= hi {
            prop_assert!(ours.range(lo..hi).eq(std.range(lo..hi)));
            prop_assert!(ours.range(lo..=hi).eq(std.range(lo..=hi)));
        }
        prop_assert!(ours.range(lo..).eq(std.range(lo..)));
        prop_assert_eq!(format!("{ours:?}"), format!("{std:?}"));
        prop_assert_eq!(hash(&ours), hash(&std));
        prop_assert_eq!(serde_json::to_string(&ours).unwrap(), serde_json::to_string(&std).unwrap());
    }
}

#[test]
fn a_map_of_strings_is_found_by_str_and_ranged_by_prefix() {
    let m: SortedMap<String, u8> =
        [("/a/b".to_string(), 1), ("/a".into(), 0), ("/b".into(), 2)].into();
    assert_eq!(m.get("/a/b"), Some(&1));
    let under: Vec<_> = m
        .range::<str, _>((Bound::Excluded("/a"), Bound::Unbounded))
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(under, ["/a/b", "/b"]);
}

proptest! {
    #[test]
    fn collecting_keeps_what_the_standard_collect_keeps(pairs in proptest::collection::vec((0u8..30, any::<u16>()), 0..150)) {
        let ours: SortedMap<u8, u16> = pairs.iter().copied().collect();
        let std: BTreeMap<u8, u16> = pairs.iter().copied().collect();
        prop_assert!(ours.iter().eq(std.iter()));
        let ours: SortedSet<(u8, bool)> = pairs.iter().map(|(k, v)| (*k, v % 2 == 0)).collect();
        let std: BTreeSet<(u8, bool)> = pairs.iter().map(|(k, v)| (*k, v % 2 == 0)).collect();
        prop_assert!(ours.iter().eq(std.iter()));
    }
}
