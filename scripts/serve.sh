#!/usr/bin/env bash
# Sets up what is missing, then serves the app (the full bundle: every lock service, compare
# mode, the matrix) with live reload at http://127.0.0.1:8080/. scripts/build.sh builds the
# deployable dist/ with the lean first page.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh app
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
echo
echo "  Lockstep is being served at http://127.0.0.1:${PORT:-8080}/"
echo
exec trunk serve full.html --offline --port "${PORT:-8080}" "$@"
