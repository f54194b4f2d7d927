#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: installs only what is missing or at the wrong version,
# and says for each step what it installs, why, how long it usually takes and how long it took.
#   scripts/setup.sh app [-- CMD…]   what building and serving the app needs: the wasm target,
#                                    npm's binaryen (wasm-opt) and terser/csso, wasm-bindgen-cli
#   scripts/setup.sh test [-- CMD…]  the above, plus Chromium, ChromeDriver and CJK fonts
#   scripts/setup.sh trunk           also Trunk 0.21.14, only for those who want `trunk serve`
#                                    (the scripts build without it: compiling it takes 4-5 min)
# CMD (a first build) runs beside the wasm-bindgen-cli compile, so a fresh machine's two cores
# both work; set-up waits for both.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
shift || true
[[ "${1:-}" == "--" ]] && shift
TRUNK_VERSION=0.21.14
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
setup_start=$SECONDS
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
# took LABEL START: prints how long a step took.
took() { say "$1 done in $((SECONDS - $2)) s"; }

# The two tools are compiled unoptimised (--debug) and without debug info: they only spawn
# cargo and rewrite one .wasm, so an optimised build buys nothing (their output is
# byte-identical) and costs three times the compile. No default features: trunk's are TLS and
# the update check, wasm-bindgen-cli's a downloader; an offline build uses none of them.
# (The variable is set for the install only: exported, it would change the test profile too,
# and the first build beside it would be compiled again by the tests.)
tool_install() { CARGO_PROFILE_DEV_DEBUG=0 cargo install --debug --no-default-features --quiet "$@"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  t=$SECONDS
  say "adding the wasm32-unknown-unknown target (rustup; usually 10-30 s)"
  rustup target add wasm32-unknown-unknown
  took "wasm32 target" "$t"
fi

# npm first (seconds): binaryen 132 is the wasm-opt the build uses (Debian's binaryen 108
# silently breaks the bundle), terser and csso minify the JS glue and the CSS, playwright-core
# drives Chromium in tests.
if ! cmp -s package-lock.json node_modules/.lockstep-installed-from 2>/dev/null; then
  t=$SECONDS
  say "installing npm packages from package-lock.json: binaryen (wasm-opt), terser, csso, playwright-core (usually 5-15 s)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.lockstep-installed-from
  took "npm packages" "$t"
fi

t=$SECONDS
cargo fetch --locked >/dev/null 2>&1 || cargo fetch
took "cargo fetch (crates for the app and the tests)" "$t"

pids=()
# Trunk is optional: scripts/bundle.mjs builds the same pages without it.
if [[ "$what" == trunk && "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  say "installing trunk $TRUNK_VERSION from crates.io, for \`trunk serve\` (0.22 needs a newer rustc; usually 4-6 min on 2 cores)"
  ( t=$SECONDS; tool_install trunk --version "$TRUNK_VERSION" --locked && took "trunk" "$t" ) &
  pids+=($!)
fi

# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock exactly.
[[ -f Cargo.lock ]] || cargo generate-lockfile
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WB_VERSION" ]]; then
  say "installing wasm-bindgen-cli $WB_VERSION (must equal Cargo.lock's wasm-bindgen; usually 2-3 min)"
  # --locked fails on this registry (webpki-roots 1.0.11 is missing), hence the fallback.
  ( t=$SECONDS
    { tool_install wasm-bindgen-cli --version "$WB_VERSION" --locked 2>/dev/null \
      || tool_install wasm-bindgen-cli --version "$WB_VERSION"; } && took "wasm-bindgen-cli" "$t" ) &
  pids+=($!)
fi

if (( $# > 0 )); then
  say "meanwhile, a first build (usually 2-3 min from nothing on 2 cores): $*"
  ( t=$SECONDS; "$@" && took "the first build" "$t" ) &
  pids+=($!)
fi

if [[ "$what" == test ]]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
     || ! fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then
    t=$SECONDS
    say "installing Debian's chromium, chromium-driver and fonts-noto-cjk for the browser tests (usually 1-2 min)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null
    took "chromium" "$t"
  fi
fi

for pid in "${pids[@]}"; do
  if ! wait "$pid"; then
    echo "[setup] a step failed (see above)" >&2
    exit 1
  fi
done
say "ready in $((SECONDS - setup_start)) s: $(wasm-bindgen --version), $(wasm-opt --version | head -1)$(trunk --version 2>/dev/null | sed 's/^/, /' || true)"
if [[ "$what" == trunk ]]; then
  # Trunk finds wasm-opt on PATH: npm's binaryen 132 lives in node_modules/.bin.
  say "serve with Trunk: PATH=\"\$PWD/node_modules/.bin:\$PATH\" trunk serve --offline"
fi
