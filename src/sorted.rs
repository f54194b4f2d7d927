//! Ordered maps and sets kept as sorted vectors: the program's one ordered collection.
//!
//! The standard `BTreeMap` compiles its node code (search, split, merge, steal, clone, drop)
//! again for every key and value type: ~50 of them made 286 functions, 66 KB of the lean page's
//! wasm and 22 KB of its gzip (issue 22). A sorted vector shares `Vec`'s code and one binary
//! search, iterates in the same key order, hashes, prints and serialises as the standard
//! collections do (so traces and fingerprints are unchanged), and clones in one allocation,
//! which the exhaustive search does millions of times. Maps here hold tens to a few thousand
//! entries, where an insertion's move of the tail costs less than a tree's nodes.

mod map;
mod set;
#[cfg(test)]
mod tests;

pub use map::{Entry, SortedMap};
pub use set::SortedSet;

use std::cmp::Ordering;
use std::ops::Bound;

/// Where the key `at` compares against sits among `len` sorted keys: `Ok` at an equal key,
/// `Err` where it would go. In the wasm, one instantiation for every key type; natively (the
/// exhaustive search, millions of worlds) inlined, so the comparison is a direct call.
#[cfg_attr(target_arch = "wasm32", inline(never))]
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn search(len: usize, at: &dyn Fn(usize) -> Ordering) -> Result<usize, usize> {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match at(mid) {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return Ok(mid),
        }
    }
    Err(lo)
}

/// The index range of the keys within `start..end` (compared through `at`, the key at an
/// index against a bound), as `BTreeMap::range` selects them; empty if the bounds cross.
fn span<Q: ?Sized>(
    len: usize,
    start: Bound<&Q>,
    end: Bound<&Q>,
    at: &dyn Fn(usize, &Q) -> Ordering,
) -> std::ops::Range<usize> {
    let first = |q: &Q, equal_in: bool| match search(len, &|i| at(i, q)) {
        Ok(i) if equal_in => i,
        Ok(i) => i + 1,
        Err(i) => i,
    };
    let lo = match start {
        Bound::Included(q) => first(q, true),
        Bound::Excluded(q) => first(q, false),
        Bound::Unbounded => 0,
    };
    let hi = match end {
        Bound::Included(q) => first(q, false),
        Bound::Excluded(q) => first(q, true),
        Bound::Unbounded => len,
    };
    lo..hi.max(lo)
}
