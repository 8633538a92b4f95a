#!/usr/bin/env bash
# Install Debian's Node.js for the client's unit tests (node --test), when missing. Node only runs
# tests: the app and the exported file need no Node.
set -euo pipefail
command -v node >/dev/null && exit 0
echo "Installing for the client's unit tests: nodejs"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: need root to install nodejs: run 'sudo apt-get install -y nodejs' and try again" >&2
  exit 1
fi
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }; then
  echo "error: could not install nodejs with apt-get; install it by hand (Debian package nodejs)" >&2
  exit 1
fi
