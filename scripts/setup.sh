#!/usr/bin/env bash
# One-command set-up: the Node releases the project tests on (24 and 22, cached, see
# scripts/node-toolchain.sh), then a clean install of the dependencies under Node 24 and the
# viewer page build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/node-toolchain.sh install all >/dev/null
scripts/node-toolchain.sh exec 24 npm ci --no-audit --no-fund "$@"
# The local viewer's page (dist/viewer), which `npm run demo -- --view` serves.
scripts/node-toolchain.sh exec 24 npm run build:viewer
