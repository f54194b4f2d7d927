//! A member shared between worlds until one of them writes to it, with its hash kept once
//! computed: cloning a world copies pointers, and the search's fingerprint hashes again only
//! the members that a step changed.

use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Debug)]
pub struct Shared<T>(Arc<Inner<T>>);

#[derive(Debug)]
struct Inner<T> {
    value: T,
    /// The value's hash; 0 until computed (a hash of 0 is kept as 1).
    hash: AtomicU64,
}

impl<T: Clone> Clone for Inner<T> {
    fn clone(&self) -> Self {
        Inner {
            value: self.value.clone(),
            hash: AtomicU64::new(self.hash.load(Ordering::Relaxed)),
        }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T: Clone> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared(Arc::new(Inner {
            value,
            hash: AtomicU64::new(0),
        }))
    }

    /// The value to write: copied first if another world shares it; its hash is forgotten.
    pub fn make_mut(&mut self) -> &mut T {
        let inner = Arc::make_mut(&mut self.0);
        *inner.hash.get_mut() = 0;
        &mut inner.value
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0.value
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.value == other.0.value
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: Hash> Hash for Shared<T> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let mut x = self.0.hash.load(Ordering::Relaxed);
        if x == 0 {
            let mut w = crate::words::Words::default();
            self.0.value.hash(&mut w);
            x = w.finish().max(1);
            self.0.hash.store(x, Ordering::Relaxed);
        }
        h.write_u64(x);
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;
    use std::hash::{Hash, Hasher};

    fn hash_of(s: &Shared<Vec<u32>>) -> u64 {
        let mut h = crate::words::Words::default();
        s.hash(&mut h);
        h.finish()
    }

    #[test]
    fn a_write_copies_the_shared_value_and_forgets_its_hash() {
        let mut a = Shared::new(vec![1, 2]);
        let b = a.clone();
        let before = hash_of(&a);
        a.make_mut().push(3);
        assert_eq!(*b, vec![1, 2], "the other world's copy is untouched");
        assert_ne!(hash_of(&a), before, "the hash follows the write");
        assert_eq!(hash_of(&b), before);
        assert_eq!(hash_of(&a), hash_of(&Shared::new(vec![1, 2, 3])));
    }
}
