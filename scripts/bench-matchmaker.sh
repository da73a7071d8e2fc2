#!/bin/bash
# The matchmaker on a simulated crowd (docs/protocol.md "Quick play"): `carcassonne
# bench-matchmaker` sends 1,000 seekers with mixed preferences over a simulated minute through the
# pure matchmaker, ticking every 500 ms of simulated time, and prints one JSON line: the wait to a
# match, the rating gap within tables, tables with bots, those left waiting, and the matchmaker's
# CPU. Builds the executable first; arguments are passed on (--seekers N --seed S --end SECONDS).
set -e
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || [ -f build/Makefile ] ||
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target carcassonne >/dev/null
build/carcassonne bench-matchmaker "$@"
