//! Curator 5.4's lock recipes: InterProcessMutex and the read/write lock built on it
//! ([`mutex`]), InterProcessSemaphoreV2 and InterProcessSemaphoreMutex ([`semaphore`]), and
//! what the framework gives all of them ([`framework`]).

mod acquire;
pub mod framework;
mod lease;
pub mod mutex;
pub mod semaphore;

pub use mutex::{Curator, Flavor};
pub use semaphore::Semaphore;
