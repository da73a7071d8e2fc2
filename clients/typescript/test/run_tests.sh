#!/usr/bin/env bash
# The client package's tests (ctest client_typescript):
#   clients/typescript/test/run_tests.sh path/to/carcassonne
# Installs the pinned devDependencies (typescript, ws: npm ci, package-lock.json) when missing;
# checks that src/wire.d.ts is what docs/schema gives (a change on the wire without its types
# fails here), type-checks the package (tsc, checkJs, strict) and emits its declarations; runs the unit tests (fake
# socket, fake clock); then the end-to-end game against a real server (test/e2e.mjs) and the
# example bot's rated game on the same server (test/bot_e2e.mjs). Exit 77
# (skipped, for CTest) when node or npm is missing or the packages cannot be installed.
set -uo pipefail

bin=${1:?usage: run_tests.sh path/to/carcassonne}
here=$(cd "$(dirname "$0")" && pwd)
package=$(dirname "$here")
test_name=client_typescript
. "$here/../../../tests/e2e/test_server.sh"

skip() { echo "client_typescript: SKIPPED: $*" >&2; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are needed (scripts/install-deps.sh test)"
if [ ! -f "$package/node_modules/typescript/package.json" ] || [ ! -f "$package/node_modules/ws/package.json" ]; then
  (
    flock 9
    [ -f "$package/node_modules/typescript/package.json" ] && [ -f "$package/node_modules/ws/package.json" ] ||
      (cd "$package" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error) >&2
  ) 9>"$package/.npm-install.lock" || skip "npm ci in clients/typescript failed"
fi
# Ajv for the end-to-end test's frame checks (tests/web's pinned packages).
"$here/../../../tests/schema/ensure_ajv.sh" || fail "Ajv could not be installed (npm ci in tests/web)"

cd "$package" || exit 1
node scripts/generate-types.mjs --check || fail "src/wire.d.ts is out of date"
node_modules/.bin/tsc -p tsconfig.json || fail "tsc found type errors"
# The declarations a TypeScript user gets from the packed package (npm pack runs this too).
node_modules/.bin/tsc -p tsconfig.build.json --outDir "$work/dist" || fail "tsc could not emit the declarations"
node --test test/*.test.mjs || fail "unit tests failed"

start_server "$bin"
node test/e2e.mjs "ws://127.0.0.1:$port/ws"
client_status=$?
# The example bot (examples/bot.mjs): two bot accounts play a whole rated game.
if [ "$client_status" -eq 0 ]; then
  node test/bot_e2e.mjs "ws://127.0.0.1:$port/ws"
  client_status=$?
fi
stop_server
[ "$client_status" -eq 0 ] || fail "the end-to-end test failed"
[ "$server_status" -eq 0 ] || fail "the server exited with status $server_status after SIGTERM"
echo "client_typescript: ok"
