#!/usr/bin/env bash
# Install scorm-again from npm for the SCORM package's browser test (a real SCORM 1.2 runtime that
# hosts the package as an LMS does), when missing: the version and checksum pinned in
# tests/scorm/package-lock.json (npm ci refuses anything else). The app itself never needs it.
set -euo pipefail
cd "$(dirname "$0")/../tests/scorm"
[ -f node_modules/scorm-again/dist/scorm12.js ] && exit 0
command -v npm >/dev/null || bash ../../scripts/apt-install.sh "the SCORM runtime of the tests" npm
echo "Installing for the SCORM package's test: scorm-again (npm ci in tests/scorm)"
npm ci --no-audit --no-fund --loglevel=error
