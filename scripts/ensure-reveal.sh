#!/usr/bin/env bash
# Install reveal.js from npm for the example slide deck (examples/reveal-deck/) and its browser test,
# when missing: the version and checksum pinned in examples/reveal-deck/package-lock.json (npm ci
# refuses anything else). The app itself never needs it.
set -euo pipefail
cd "$(dirname "$0")/../examples/reveal-deck"
[ -f node_modules/reveal.js/dist/reveal.js ] && exit 0
command -v npm >/dev/null || bash ../../scripts/apt-install.sh "the example slide deck" npm
echo "Installing for the example slide deck: reveal.js (npm ci in examples/reveal-deck)"
npm ci --no-audit --no-fund --loglevel=error
