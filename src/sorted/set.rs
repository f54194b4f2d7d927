//! `SortedSet`: `BTreeSet`'s interface, as this program uses it, over a sorted vector.

use std::borrow::Borrow;
use std::fmt;
use std::ops::RangeBounds;

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

/// An ordered set: unique values, iterated in ascending order.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet { items: Vec::new() }
    }
}

impl<T> SortedSet<T> {
    pub const fn new() -> Self {
        SortedSet { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    pub fn pop_first(&mut self) -> Option<T> {
        (!self.items.is_empty()).then(|| self.items.remove(0))
    }

    pub fn pop_last(&mut self) -> Option<T> {
        self.items.pop()
    }

    /// Keeps the values `keep` says yes to, in order.
    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }
}

impl<T: Ord> SortedSet<T> {
    fn find<Q: Ord + ?Sized>(&self, q: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
    {
        super::search(self.items.len(), &|i| self.items[i].borrow().cmp(q))
    }

    pub fn contains<Q: Ord + ?Sized>(&self, q: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.find(q).is_ok()
    }

    pub fn get<Q: Ord + ?Sized>(&self, q: &Q) -> Option<&T>
    where
        T: Borrow<Q>,
    {
        self.find(q).ok().map(|i| &self.items[i])
    }

    /// Adds `value`; false if it was there already (which then stays, as in `BTreeSet`).
    pub fn insert(&mut self, value: T) -> bool {
        match self.find(&value) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, value);
                true
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, q: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.take(q).is_some()
    }

    pub fn take<Q: Ord + ?Sized>(&mut self, q: &Q) -> Option<T>
    where
        T: Borrow<Q>,
    {
        self.find(q).ok().map(|i| self.items.remove(i))
    }

    /// The values that lie in `range`, in order.
    pub fn range<Q: Ord + ?Sized, R: RangeBounds<Q>>(&self, range: R) -> std::slice::Iter<'_, T>
    where
        T: Borrow<Q>,
    {
        let at = |i: usize, q: &Q| self.items[i].borrow().cmp(q);
        let span = super::span(
            self.items.len(),
            range.start_bound(),
            range.end_bound(),
            &at,
        );
        self.items[span].iter()
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    /// Sorts once (the first of equal values stays, as with `BTreeSet`'s `collect`).
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut items: Vec<T> = items.into_iter().collect();
        crate::sort::all(&mut items);
        items.dedup();
        SortedSet { items }
    }
}

impl<T: Ord> Extend<T> for SortedSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for t in items {
            self.insert(t);
        }
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for SortedSet<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for SortedSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.items.iter()).finish()
    }
}

impl<T: Serialize> Serialize for SortedSet<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.items.iter())
    }
}

impl<'de, T: Deserialize<'de> + Ord> Deserialize<'de> for SortedSet<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<T>::deserialize(d)?.into_iter().collect())
    }
}
