#!/usr/bin/env bash
# Install esbuild from npm, which bundles static/ into app/*.bundle.js (scripts/bundle.py, a test
# that the committed bundles are current, `serve --dev`), when missing: the version and checksums
# pinned in bundler/package-lock.json (npm ci refuses anything else). Running the app needs no
# Node: the bundles are committed.
set -euo pipefail
cd "$(dirname "$0")/../bundler"
[ -x node_modules/.bin/esbuild ] && node_modules/.bin/esbuild --version >/dev/null 2>&1 && exit 0
command -v npm >/dev/null || bash ../scripts/apt-install.sh "bundling the client" npm
echo "Installing for bundling the client: esbuild (npm ci in bundler)"
npm ci --no-audit --no-fund --loglevel=error
