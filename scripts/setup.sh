#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: installs only what is missing or at the wrong version.
#   scripts/setup.sh app    toolchain to build and serve the app (wasm target, trunk, wasm-bindgen, wasm-opt)
#   scripts/setup.sh test   the above, plus Chromium, ChromeDriver and the browser-test npm packages
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
TRUNK_VERSION=0.21.14
step() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# trunk and wasm-bindgen-cli compile in parallel (both are long; together ~15-20 min on 2 cores).
trunk_pid=""
if [[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  step "installing trunk $TRUNK_VERSION (0.22 needs a newer rustc; this compile takes 13-19 min)"
  cargo install trunk --version "$TRUNK_VERSION" --locked &
  trunk_pid=$!
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock exactly.
[[ -f Cargo.lock ]] || cargo generate-lockfile
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WB_VERSION" ]]; then
  step "installing wasm-bindgen-cli $WB_VERSION (5-9 min)"
  # --locked fails on this registry (webpki-roots 1.0.11 is missing), hence the fallback.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --no-default-features --locked \
    || cargo install wasm-bindgen-cli --version "$WB_VERSION" --no-default-features
fi
if [[ -n "$trunk_pid" ]] && ! wait "$trunk_pid"; then
  echo "[setup] installing trunk failed" >&2
  exit 1
fi

# npm: binaryen 132 (the wasm-opt Trunk uses), terser (minifies the JS glue) and playwright-core,
# exactly as package-lock.json says.
if ! cmp -s package-lock.json node_modules/.lockstep-installed-from 2>/dev/null; then
  step "installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund
  cp package-lock.json node_modules/.lockstep-installed-from
fi

if [[ "$what" == test ]]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    step "installing Debian's chromium and chromium-driver"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi

cargo fetch --locked >/dev/null 2>&1 || cargo fetch
step "ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version | head -1)"
