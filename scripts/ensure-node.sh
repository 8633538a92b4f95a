#!/usr/bin/env bash
# Install Debian's Node.js for the client's unit tests (node --test), when missing. Node only runs
# tests and the tools that build the client (esbuild: scripts/bundle.py): the app and the exported
# file need no Node.
set -euo pipefail
command -v node >/dev/null && exit 0
bash "$(dirname "$0")/apt-install.sh" "the client's unit tests" nodejs
