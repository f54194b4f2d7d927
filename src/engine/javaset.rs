//! A model of `java.util.HashSet<String>` iteration order, because the server deletes a closed
//! session's ephemerals in that order and watchers see their events in it.
//!
//! Java's `HashMap` puts a key in bucket `(h ^ (h >>> 16)) & (cap - 1)` where `h` is
//! `String.hashCode()` over UTF-16 units; a bucket keeps insertion order; the table starts at 16
//! buckets and doubles (splitting buckets in order) when size exceeds 0.75·cap; it never shrinks.
//! A bucket that reaches 9 entries while the table is below 64 buckets also doubles it
//! (`treeifyBin`); larger crowded buckets would become trees, which this model does not follow.
//! `DataTree.getEphemerals` hands the close transaction a *clone*, and `HashMap.clone` re-inserts
//! the entries, in iteration order, into a table sized for the current size only.

/// Java's `String.hashCode()`.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

fn spread(s: &str) -> u32 {
    let h = java_string_hash(s) as u32;
    h ^ (h >> 16)
}

/// `HashMap.tableSizeFor`: the smallest power of two ≥ `c` (at least 1).
fn table_size_for(c: usize) -> usize {
    c.max(1).next_power_of_two()
}

/// An insertion-ordered-per-bucket set of strings that iterates like a Java `HashSet`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JavaHashSet {
    buckets: Vec<Vec<String>>,
    len: usize,
    /// Capacity the first insert allocates (16 for `new HashSet<>()`).
    initial_cap: usize,
}

impl Default for JavaHashSet {
    fn default() -> Self {
        Self::new()
    }
}

impl JavaHashSet {
    pub fn new() -> Self {
        Self::with_initial_capacity(16)
    }

    fn with_initial_capacity(cap: usize) -> Self {
        JavaHashSet {
            buckets: Vec::new(),
            len: 0,
            initial_cap: cap.max(1),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, key: &str) -> bool {
        !self.buckets.is_empty() && self.buckets[self.index(key)].iter().any(|k| k == key)
    }

    fn index(&self, key: &str) -> usize {
        spread(key) as usize & (self.buckets.len() - 1)
    }

    /// `HashSet.add`: appends to its bucket, then grows if size > 0.75·cap.
    pub fn insert(&mut self, key: &str) -> bool {
        if self.buckets.is_empty() {
            self.buckets = vec![Vec::new(); self.initial_cap];
        }
        if self.contains(key) {
            return false;
        }
        let i = self.index(key);
        self.buckets[i].push(key.to_string());
        // `treeifyBin`: a bucket of 9 in a table smaller than 64 doubles the table instead.
        if self.buckets[i].len() > 8 && self.buckets.len() < 64 {
            self.grow();
        }
        self.len += 1;
        if self.len * 4 > self.buckets.len() * 3 {
            self.grow();
        }
        true
    }

    /// `HashMap.resize`: every bucket splits into a low and a high bucket, order kept.
    fn grow(&mut self) {
        let cap = self.buckets.len() * 2;
        let mut next = vec![Vec::new(); cap];
        for key in self.buckets.drain(..).flatten() {
            let i = spread(&key) as usize & (cap - 1);
            next[i].push(key);
        }
        self.buckets = next;
    }

    pub fn remove(&mut self, key: &str) -> bool {
        if self.buckets.is_empty() {
            return false;
        }
        let i = self.index(key);
        let before = self.buckets[i].len();
        self.buckets[i].retain(|k| k != key);
        let removed = self.buckets[i].len() != before;
        self.len -= usize::from(removed);
        removed
    }

    /// Iteration order: bucket by bucket, insertion order inside a bucket.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.buckets.iter().flatten().map(String::as_str)
    }

    /// `HashSet.clone()`: a table sized `tableSizeFor((int)(size / 0.75f + 1))`, filled in this
    /// set's iteration order.
    pub fn java_clone(&self) -> JavaHashSet {
        let wanted = (self.len as f32 / 0.75f32 + 1.0f32) as usize;
        let mut clone = JavaHashSet::with_initial_capacity(table_size_for(wanted));
        for key in self.iter() {
            clone.insert(key);
        }
        clone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_matches_java() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("hello"), 99162322);
        assert_eq!(java_string_hash("/t/a"), 1513207);
        // Overflowing hashes wrap like Java ints.
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn reference_example_order() {
        let mut s = JavaHashSet::new();
        for p in ["/t/a", "/t/b", "/t/c"] {
            s.insert(p);
        }
        assert_eq!(
            s.java_clone().iter().collect::<Vec<_>>(),
            ["/t/a", "/t/c", "/t/b"]
        );
    }

    #[test]
    fn grows_past_twelve_and_keeps_members() {
        let mut s = JavaHashSet::new();
        for i in 0..13 {
            assert!(s.insert(&format!("/l/n-{i:010}")));
        }
        assert_eq!(s.buckets.len(), 32);
        assert!(!s.insert("/l/n-0000000003"));
        assert!(s.remove("/l/n-0000000003"));
        assert!(!s.contains("/l/n-0000000003"));
        assert_eq!(s.len(), 12);
        assert_eq!(s.iter().count(), 12);
        assert_eq!(s.java_clone().buckets.len(), 32);
    }

    #[test]
    fn clone_sizes_table_for_current_size() {
        let mut s = JavaHashSet::new();
        s.insert("/x");
        s.insert("/y");
        s.insert("/z");
        assert_eq!(s.java_clone().buckets.len(), 8);
        assert_eq!(JavaHashSet::new().java_clone().iter().count(), 0);
    }
}
