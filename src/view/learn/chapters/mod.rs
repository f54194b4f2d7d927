//! The course's chapters, one module each, in the order they are taught.

mod consensus;
mod crash;
mod fencing;
mod herd;
mod hunt;
mod ids;
mod leaving;
mod matrix;
mod partition;
mod pause;
mod protection;
mod queue;
mod recheck;
mod redlock;
mod reentrant;
mod rwlock;
mod services;
mod wakeup;

use super::Chapter;

pub static COURSE: &[Chapter] = &[
    ids::CHAPTER,
    herd::CHAPTER,
    wakeup::CHAPTER,
    queue::CHAPTER,
    crash::CHAPTER,
    leaving::CHAPTER,
    recheck::CHAPTER,
    protection::CHAPTER,
    reentrant::CHAPTER,
    rwlock::CHAPTER,
    pause::CHAPTER,
    partition::CHAPTER,
    fencing::CHAPTER,
    services::CHAPTER,
    consensus::CHAPTER,
    redlock::CHAPTER,
    matrix::CHAPTER,
    hunt::CHAPTER,
];
