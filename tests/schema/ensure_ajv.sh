#!/usr/bin/env bash
# Installs tests/web's npm packages (Ajv for the wire schema, playwright-core) with `npm ci`,
# pinned by tests/web/package-lock.json, when Ajv is missing. One installer at a time.
# Exit 0 when Ajv is there afterwards, 1 otherwise.
web=$(cd "$(dirname "$0")/../web" && pwd)
[ -f "$web/node_modules/ajv/package.json" ] && [ -f "$web/node_modules/ajv-formats/package.json" ] && exit 0
command -v npm >/dev/null || { echo "ensure_ajv: npm is needed (scripts/install-deps.sh test)" >&2; exit 1; }
(
  flock 9
  [ -f "$web/node_modules/ajv-formats/package.json" ] ||
    (cd "$web" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error) >&2
) 9>"$web/.npm-install.lock"
[ -f "$web/node_modules/ajv-formats/package.json" ] || { echo "ensure_ajv: npm ci in tests/web failed" >&2; exit 1; }
