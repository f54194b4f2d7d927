#!/usr/bin/env bash
# Sets up what is missing, then runs every test: native cargo tests, the release wasm build,
# and the end-to-end tests in headless Chromium against the built dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# On a fresh machine the native tests and the lean bundle's wasm compile beside set-up's
# compile of wasm-bindgen-cli (three jobs keep two cores busy through each one's slow tail).
scripts/setup.sh test -- bash -c 'cargo build --locked --offline --quiet --release \
  --target wasm32-unknown-unknown --bin lockstep --no-default-features & wasm=$!
  cargo test --locked --no-run --quiet; tests=$?; wait "$wasm" && exit "$tests"'
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

# Each stage's header says how long the run has taken so far.
stage() { echo "== [$(( $(date +%s) - start )) s] $*"; }
stage "formatting (cargo fmt --check)"
cargo fmt --check

# The release bundles build beside the native tests (their long link steps use one core each);
# their output is printed once they are done.
stage "release build of the three bundles (scripts/build.sh), beside the native tests"
mkdir -p target
scripts/build.sh > target/build.log 2>&1 &
build=$!
trap 'kill $build 2>/dev/null || true' EXIT

stage "native tests (cargo test), then the lean build's (no services feature)"
cargo test --locked
cargo test --locked --no-default-features --lib --test it

stage "waiting for the bundles"
if ! wait "$build"; then
  cat target/build.log
  echo "scripts/build.sh failed (output above)" >&2
  exit 1
fi
grep -E '^bundle:|^build:|\.wasm$' target/build.log

stage "node tests: the dev server against hostile requests, its watcher, Trunk.toml (no browser)"
node --test tests/node/

stage "end-to-end tests in headless Chromium"
node tests/e2e/run.mjs

if [ "${LOCKSTEP_LONG:-0}" = 1 ]; then
  stage "the exhaustive search: 2 clients, 3 servers, a leader crash (LOCKSTEP_LONG=1; ~22 min)"
  cargo test --locked --test it exhaustive:: -- --ignored --nocapture
fi

echo "== all tests passed in $(( $(date +%s) - start )) s"
