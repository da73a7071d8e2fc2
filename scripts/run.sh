#!/usr/bin/env bash
# Builds the server (Release) and starts it. Extra arguments go to `carcassonne serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCARCASSONNE_TESTS=OFF >/dev/null
cmake --build build --target carcassonne
exec build/carcassonne serve "$@"
