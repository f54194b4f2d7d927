//! The UI's plain-Rust half: the per-frame view model, layout, labels, URL state and SVG
//! export. No Leptos here, so all of it is unit-tested natively; `ui` only renders it.

#[cfg(feature = "services")]
pub mod compare;
pub mod frame;
pub mod i18n;
pub mod lanes;
pub mod layout;
pub mod svg;
#[cfg(feature = "services")]
pub mod svc_frame;
pub mod url;

pub use frame::{build, Frame};
