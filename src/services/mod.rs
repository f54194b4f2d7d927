//! Lock services beside ZooKeeper, each a pure, deterministic server model: Redis 7 and
//! etcd 3.4 (checked against recordings of the real servers) and a SQL lock table.

pub mod etcd;
pub mod redis;
pub mod sql;
