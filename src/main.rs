//! The `lockstep` binary: in the browser (wasm32) it mounts the app; natively it is the CLI.

#[cfg(target_arch = "wasm32")]
fn main() {
    lockstep::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::main(&args));
}
