//! Which connection each ZooKeeper session was given to.

use crate::engine::SessionId;
use crate::services::api::ConnId;

/// Session id → connection. The server hands out consecutive ids, so a list indexed from the
/// first id is enough.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct SessionOwners(Vec<Option<ConnId>>);

impl SessionOwners {
    fn slot(s: SessionId) -> Option<usize> {
        usize::try_from(s.0.checked_sub(SessionId::FIRST.0)?).ok()
    }
    pub(super) fn get(&self, s: SessionId) -> Option<ConnId> {
        *self.0.get(Self::slot(s)?)?
    }
    pub(super) fn insert(&mut self, s: SessionId, c: ConnId) {
        let Some(i) = Self::slot(s).filter(|i| *i < 1 << 24) else {
            return;
        };
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(c);
    }
}
