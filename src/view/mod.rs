//! The UI's plain-Rust half: the per-frame view model, layout, labels, URL state and SVG
//! export. No Leptos here, so all of it is unit-tested natively; `ui` only renders it.

pub mod compare;
pub mod frame;
pub mod i18n;
pub mod lanes;
pub mod layout;
pub mod svg;
pub mod url;

pub use frame::{build, Frame};
