//! The UI's plain-Rust half: the per-frame view model, the stage's geometry and scene, labels,
//! URL state and SVG export. No Leptos here, so all of it is unit-tested natively; `ui` only
//! renders it.

#[cfg(feature = "studio")]
pub mod anim;
pub mod caption;
pub mod compare;
pub mod draw;
pub mod embed;
pub mod entries;
mod forms;
pub mod frame;
pub mod geometry;
pub mod i18n;
pub mod lanes;
pub mod learn;
pub mod messages;
pub mod palette;
pub mod patch;
pub mod plan;
pub mod player;
pub mod scene;
pub mod servers;
pub mod stage;
pub mod svg;
pub mod timeline;
pub mod tracker;
pub mod tween;
pub mod url;

pub use frame::{build, Frame};

/// Whether this is the full bundle (every lock service, compare mode, the matrix, the lesson
/// reader and editor); the lean first page hands anything else over to it.
pub const FULL: bool = crate::FULL;
