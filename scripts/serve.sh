#!/usr/bin/env bash
# Sets up what is missing, then serves the app (the full bundle: every lock service, compare
# mode, the matrix, the course) at http://127.0.0.1:8080/, rebuilding on every change.
#   scripts/serve.sh          a release build: about 3 min from nothing, a 1.3 MB .wasm that
#                             loads and steps as fast as the deployed site
#   scripts/serve.sh --dev    Trunk's debug build: about 2 min from nothing and 12 s rebuilds
#                             for working on the code, but a 13 MB .wasm, 3x slower on big runs
# (figures measured on 2 cores: see the README). scripts/build.sh builds the deployable dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh app
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
mode=(--release)
if [[ "${1:-}" == "--dev" ]]; then
  shift
  mode=(--release=false)
fi
echo
echo "  Building, then serving Lockstep at http://127.0.0.1:${PORT:-8080}/ (a first build takes 2-3 min)"
echo
exec trunk serve full.html --offline "${mode[@]}" --port "${PORT:-8080}" "$@"
