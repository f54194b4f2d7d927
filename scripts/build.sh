#!/usr/bin/env bash
# Builds the deployable site into dist/: the lean first bundle (index.html: ZooKeeper only,
# under the 300 KB budget) and the full bundle (full.html: plus Redis, etcd, SQL, compare mode
# and the requirements matrix), which the lean page hands over to when asked. Release builds,
# by scripts/bundle.mjs (what `trunk build` does, from the same pages, without compiling Trunk).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
rm -rf dist
node scripts/bundle.mjs index.html dist
node scripts/bundle.mjs full.html dist --as full.html
ls -l dist/*.wasm
