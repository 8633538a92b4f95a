#!/usr/bin/env bash
# Install Debian's redis-server for the tests of rooms shared by several processes, when missing.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
[ -x /usr/bin/redis-server ] && exit 0
bash "$(dirname "$0")/apt-install.sh" "the rooms' tests across processes" redis-server
