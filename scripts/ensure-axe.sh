#!/usr/bin/env bash
# Install axe-core from npm for the accessibility checks of the browser tests, when missing: the
# version and checksum pinned in tests/a11y/package-lock.json (npm ci refuses anything else).
# npm comes with Node here; where Debian's nodejs came without it, Debian's npm package is added.
set -euo pipefail
cd "$(dirname "$0")/../tests/a11y"
[ -f node_modules/axe-core/axe.min.js ] && exit 0
if ! command -v npm >/dev/null; then
  echo "Installing for the accessibility checks: npm"
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: need root to install npm: run 'sudo apt-get install -y npm' and try again" >&2
    exit 1
  fi
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }; then
    echo "error: could not install npm with apt-get; install it by hand (Debian package npm)" >&2
    exit 1
  fi
fi
echo "Installing for the accessibility checks: axe-core (npm ci in tests/a11y)"
npm ci --no-audit --no-fund --loglevel=error
