//! The `lockstep` binary: in the browser (wasm32) it mounts the app; natively it is the CLI.

/// talc's allocator for single-threaded WebAssembly: it grows the memory as dlmalloc did, in
/// less code (issue 22).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(target_arch = "wasm32")]
fn main() {
    lockstep::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // `args()` panics on an argument that is not UTF-8: refuse it with a message instead.
    let mut args = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(bad) => {
                eprintln!(
                    "lockstep: an argument is not valid UTF-8: {}",
                    bad.to_string_lossy().escape_debug()
                );
                std::process::exit(2);
            }
        }
    }
    std::process::exit(cli::main(&args));
}
