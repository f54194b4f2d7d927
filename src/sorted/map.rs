//! `SortedMap`: `BTreeMap`'s interface, as this program uses it, over a sorted vector.

use std::borrow::Borrow;
use std::fmt;
use std::ops::{Index, RangeBounds};

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// An ordered map: unique keys, iterated in ascending order.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SortedMap<K, V> {
    items: Vec<(K, V)>,
}

type Pair<'a, K, V> = fn(&'a (K, V)) -> (&'a K, &'a V);

fn pair<K, V>((k, v): &(K, V)) -> (&K, &V) {
    (k, v)
}

/// The entries in key order.
pub type Iter<'a, K, V> = std::iter::Map<std::slice::Iter<'a, (K, V)>, Pair<'a, K, V>>;

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap { items: Vec::new() }
    }
}

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap { items: Vec::new() }
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

    pub fn iter(&self) -> Iter<'_, K, V> {
        self.items.iter().map(pair as Pair<'_, K, V>)
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.items.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.items.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> {
        self.items.iter_mut().map(|(_, v)| v)
    }

    pub fn pop_first(&mut self) -> Option<(K, V)> {
        (!self.items.is_empty()).then(|| self.items.remove(0))
    }

    pub fn pop_last(&mut self) -> Option<(K, V)> {
        self.items.pop()
    }

    /// Keeps the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.items.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    fn find<Q: Ord + ?Sized>(&self, q: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        super::search(self.items.len(), &|i| self.items[i].0.borrow().cmp(q))
    }

    pub fn get<Q: Ord + ?Sized>(&self, q: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(q).ok().map(|i| &self.items[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, q: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(q).ok().map(|i| &mut self.items[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, q: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(q).is_ok()
    }

    /// Inserts or replaces; returns the value replaced (the key already there stays, as in
    /// `BTreeMap`).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.items[i].1, value)),
            Err(i) => {
                self.items.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, q: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.remove_entry(q).map(|(_, v)| v)
    }

    pub fn remove_entry<Q: Ord + ?Sized>(&mut self, q: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
    {
        self.find(q).ok().map(|i| self.items.remove(i))
    }

    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.find(&key);
        Entry { map: self, key, at }
    }

    /// The entries whose keys lie in `range`, in order.
    pub fn range<Q: Ord + ?Sized, R: RangeBounds<Q>>(&self, range: R) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
    {
        let at = |i: usize, q: &Q| self.items[i].0.borrow().cmp(q);
        let span = super::span(
            self.items.len(),
            range.start_bound(),
            range.end_bound(),
            &at,
        );
        self.items[span].iter().map(pair as Pair<'_, K, V>)
    }
}

/// A place in a map for one key, found once.
pub struct Entry<'a, K, V> {
    map: &'a mut SortedMap<K, V>,
    key: K,
    at: Result<usize, usize>,
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let items = &mut self.map.items;
        let i = match self.at {
            Ok(i) => i,
            Err(i) => {
                items.insert(i, (self.key, make()));
                i
            }
        };
        &mut items[i].1
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

impl<K: Ord, V, Q: Ord + ?Sized> Index<&Q> for SortedMap<K, V>
where
    K: Borrow<Q>,
{
    type Output = V;
    fn index(&self, q: &Q) -> &V {
        self.get(q).expect("no entry for the key")
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// Sorts once (a later key wins, as with `BTreeMap`'s `collect`).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        let mut items: Vec<(K, V)> = items.into_iter().collect();
        items.reverse();
        crate::sort::by(&mut items, |a, b| a.0.cmp(&b.0));
        items.dedup_by(|later, kept| later.0 == kept.0);
        SortedMap { items }
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(items: [(K, V); N]) -> Self {
        items.into_iter().collect()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.items.len()))?;
        for (k, v) in &self.items {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for SortedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Read<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for Read<K, V> {
            type Value = SortedMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut m = SortedMap::new();
                while let Some((k, v)) = a.next_entry()? {
                    m.insert(k, v);
                }
                Ok(m)
            }
        }
        d.deserialize_map(Read(std::marker::PhantomData))
    }
}
