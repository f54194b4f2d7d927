//! One sort for the whole program, so the wasm holds one copy of the standard library's sort.
//!
//! Every `sort_by_key` on a new element type instantiates the standard sort again (driftsort or
//! ipnsort, ~3.8 KB of wasm each): 18 copies made ~68 KB of the lean page's code before wasm-opt
//! (issue 19). Here every call sorts a list of indices through one comparator object and then
//! moves the elements into place, so the sorting code exists once. Stable, O(n log n).

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`.
pub fn by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<u32> = (0..v.len() as u32).collect();
    indices(&mut order, &|a, b| cmp(&v[a as usize], &v[b as usize]));
    permute(&mut order, &mut |a, b| v.swap(a, b));
}

/// Sorts `v` stably by `key`.
pub fn by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` in its natural order.
pub fn all<T: Ord>(v: &mut [T]) {
    by(v, T::cmp);
}

/// The one instantiation of the standard sort.
#[inline(never)]
fn indices(order: &mut [u32], cmp: &dyn Fn(u32, u32) -> Ordering) {
    order.sort_by(|a, b| cmp(*a, *b));
}

/// Moves element `order[k]` to place `k` for every `k`, one cycle at a time (`order` is spent).
#[inline(never)]
fn permute(order: &mut [u32], swap: &mut dyn FnMut(usize, usize)) {
    const PLACED: u32 = u32::MAX;
    for start in 0..order.len() {
        let mut k = start;
        while order[k] != PLACED {
            let src = order[k] as usize;
            order[k] = PLACED;
            if src == start {
                break;
            }
            swap(k, src);
            k = src;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_like_the_standard_stable_sort(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = v.clone();
            super::by_key(&mut ours, |p| p.0);
            let mut std = v;
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn sorts_by_a_comparator_and_naturally(v in proptest::collection::vec(any::<i32>(), 0..100)) {
            let (mut down, mut up) = (v.clone(), v.clone());
            super::by(&mut down, |a, b| b.cmp(a));
            super::all(&mut up);
            let mut want = v;
            want.sort();
            prop_assert_eq!(&up, &want);
            want.reverse();
            prop_assert_eq!(down, want);
        }
    }
}
