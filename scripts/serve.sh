#!/usr/bin/env bash
# Sets up what is missing, then serves the app (the studio bundle: every lock service, compare
# mode, the matrix, the course, the animated export, the lesson editor) at
# http://127.0.0.1:8080/, rebuilding and reloading the page on every change (scripts/serve.mjs;
# no Trunk needed).
#   scripts/serve.sh          a release build: a 1.3 MB .wasm that loads and steps as fast as
#                             the deployed site; about 1 min to rebuild after a change
#   scripts/serve.sh --dev    a debug build: 10-20 s rebuilds for working on the code, but a
#                             13 MB .wasm, 3x slower on big runs
# On a fresh machine the first build runs beside set-up's compile of wasm-bindgen-cli (figures
# measured on 2 cores: see the README). scripts/build.sh builds the deployable dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=() release=(--release)
if [[ "${1:-}" == "--dev" ]]; then
  shift
  mode=(--dev) release=()
fi
scripts/setup.sh app -- cargo build --locked --offline --quiet --target wasm32-unknown-unknown \
  --bin lockstep "${release[@]}"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
exec node scripts/serve.mjs "${mode[@]}" "$@"
