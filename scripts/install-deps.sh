#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those that are missing.
# Usage: scripts/install-deps.sh [build|test]   (test adds what the end-to-end tests use)
set -euo pipefail

packages=(g++ cmake ninja-build libboost1.81-dev nlohmann-json3-dev libspdlog-dev doctest-dev
          libsqlite3-dev libssl-dev libpq-dev libhiredis-dev libjemalloc-dev libsodium-dev)
if [ "${1:-build}" = test ]; then
  # the end-to-end tests' extra packages. node-ws: Node's `ws` package for tests/e2e/node_client.mjs
  # (Debian installs it in /usr/share/nodejs; any nodejs >= 18 satisfies it, nodesource's too).
  # chromium: the browser of the web page's test (tests/web/run_web_test.sh), driven by npm's
  # playwright-core (Node >= 20); npm comes with nodesource's nodejs, else from Debian.
  # clang-format: the style check of scripts/check-format.sh (Debian 12's clang-format 14).
  # clang-14, libclang-rt-14-dev: the libFuzzer harnesses of tests/fuzz (-fsanitize=fuzzer).
  # postgresql, redis-server: private servers started by the store and cluster tests (initdb and
  # pg_ctl in a temporary directory, on loopback; docs/scaling.md), never the system services.
  packages+=(nodejs node-ws chromium clang-format clang-14 libclang-rt-14-dev postgresql
             redis-server)
  command -v npm >/dev/null || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "run as root or install sudo" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
