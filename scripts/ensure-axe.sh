#!/usr/bin/env bash
# Install axe-core from npm for the accessibility checks of the browser tests, when missing: the
# version and checksum pinned in tests/a11y/package-lock.json (npm ci refuses anything else).
# npm comes with Node here; where Debian's nodejs came without it, Debian's npm package is added.
set -euo pipefail
cd "$(dirname "$0")/../tests/a11y"
[ -f node_modules/axe-core/axe.min.js ] && exit 0
command -v npm >/dev/null || bash ../../scripts/apt-install.sh "the accessibility checks" npm
echo "Installing for the accessibility checks: axe-core (npm ci in tests/a11y)"
npm ci --no-audit --no-fund --loglevel=error
