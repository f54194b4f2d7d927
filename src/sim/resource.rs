//! The protected resource: a counter (or ID generator) that clients read, modify and write
//! while they believe they hold the lock. It records every write so monitors can spot lost
//! updates and duplicate IDs, and, with fencing on, rejects tokens lower than the highest seen.

use serde::{Deserialize, Serialize};

use super::types::{ClientId, ResDown, ResUp, Tick};

/// One write as the resource saw it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WriteRecord {
    pub at: Tick,
    pub client: ClientId,
    pub value: u64,
    pub token: i64,
    pub accepted: bool,
    /// Accepted although another write landed after this client's read: an update was lost
    /// (for an ID generator: the same ID was handed out twice).
    pub lost_update: bool,
}

/// How many recent writes the resource keeps for the view (older ones are only counted).
pub const RECENT_WRITES: usize = 32;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Resource {
    pub value: u64,
    pub version: u64,
    pub fencing: bool,
    pub highest_token: i64,
    /// The most recent writes, oldest first.
    pub writes: std::collections::VecDeque<WriteRecord>,
    pub accepted: u64,
    pub rejected: u64,
    /// The first write that lost an update (kept for the monitor and the view).
    pub first_lost: Option<WriteRecord>,
}

impl Resource {
    pub fn new(fencing: bool) -> Self {
        Resource {
            fencing,
            ..Resource::default()
        }
    }

    /// Answers a request. With fencing, any request carrying a token lower than the highest
    /// seen (on a read or a write) is refused for writes.
    pub fn handle(&mut self, now: Tick, client: ClientId, msg: ResUp) -> ResDown {
        match msg {
            ResUp::Read { token } => {
                if self.fencing {
                    self.highest_token = self.highest_token.max(token);
                }
                ResDown::ReadOk {
                    value: self.value,
                    version: self.version,
                }
            }
            ResUp::Write {
                value,
                read_version,
                token,
            } => self.write(now, client, value, read_version, token),
        }
    }

    fn write(
        &mut self,
        at: Tick,
        client: ClientId,
        value: u64,
        read_version: u64,
        token: i64,
    ) -> ResDown {
        if self.fencing && token < self.highest_token {
            self.rejected += 1;
            self.remember(WriteRecord {
                at,
                client,
                value,
                token,
                accepted: false,
                lost_update: false,
            });
            return ResDown::WriteRejected {
                token,
                highest: self.highest_token,
            };
        }
        self.highest_token = self.highest_token.max(token);
        let lost_update = read_version != self.version;
        self.value = value;
        self.version += 1;
        self.accepted += 1;
        let w = WriteRecord {
            at,
            client,
            value,
            token,
            accepted: true,
            lost_update,
        };
        if lost_update && self.first_lost.is_none() {
            self.first_lost = Some(w.clone());
        }
        self.remember(w);
        ResDown::WriteOk { value }
    }

    fn remember(&mut self, w: WriteRecord) {
        if self.writes.len() == RECENT_WRITES {
            self.writes.pop_front();
        }
        self.writes.push_back(w);
    }

    /// The first accepted write that lost an update, if any.
    pub fn first_lost_update(&self) -> Option<&WriteRecord> {
        self.first_lost.as_ref()
    }

    pub fn rejected(&self) -> usize {
        self.rejected as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_read_modify_write_loses_an_update() {
        let mut r = Resource::new(false);
        let ResDown::ReadOk { version: v1, .. } = r.handle(0, 0, ResUp::Read { token: 1 }) else {
            panic!()
        };
        let ResDown::ReadOk { version: v2, .. } = r.handle(1, 1, ResUp::Read { token: 2 }) else {
            panic!()
        };
        r.handle(
            2,
            1,
            ResUp::Write {
                value: 1,
                read_version: v2,
                token: 2,
            },
        );
        r.handle(
            3,
            0,
            ResUp::Write {
                value: 1,
                read_version: v1,
                token: 1,
            },
        );
        assert_eq!(r.first_lost_update().map(|w| w.client), Some(0));
    }

    #[test]
    fn fencing_rejects_a_lower_token() {
        let mut r = Resource::new(true);
        r.handle(
            0,
            1,
            ResUp::Write {
                value: 1,
                read_version: 0,
                token: 7,
            },
        );
        assert_eq!(
            r.handle(
                1,
                0,
                ResUp::Write {
                    value: 1,
                    read_version: 0,
                    token: 5
                }
            ),
            ResDown::WriteRejected {
                token: 5,
                highest: 7
            }
        );
        assert!(r.first_lost_update().is_none());
        assert_eq!(r.rejected(), 1);
    }
}
