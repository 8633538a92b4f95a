#!/usr/bin/env bash
# apt-install.sh WHAT PACKAGE...: install Debian packages the tests need, as root, with a clear
# message when that is not possible. WHAT says what they are for.
set -euo pipefail
what="$1"; shift
echo "Installing for $what: $*"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: need root to install $*: run 'sudo apt-get install -y $*' and try again" >&2
  exit 1
fi
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }; then
  echo "error: could not install $* with apt-get; install them by hand (Debian packages)" >&2
  exit 1
fi
