#!/usr/bin/env bash
# Builds the deployable site into dist/: the lean first bundle (index.html: ZooKeeper only,
# under the 300 KB budget) and the full bundle (full.html: plus Redis, etcd, SQL, compare mode
# and the requirements matrix), which the lean page hands over to when asked. Release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
trunk build index.html --release --offline --dist dist
trunk build full.html --release --offline --dist dist-full
# Trunk names every page index.html: the full one becomes full.html beside the lean one.
cp dist-full/index.html dist/full.html
cp -n dist-full/*.js dist-full/*.wasm dist-full/*.css dist/
rm -rf dist-full
node scripts/minify-js.mjs dist
ls -l dist/*.wasm
