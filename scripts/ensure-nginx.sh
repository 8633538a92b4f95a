#!/usr/bin/env bash
# Install Debian's nginx for deploy/serve-class.sh and its tests (nginx in front of the app's
# processes), when missing. The recipe runs its own nginx with its own config: the package's
# service (port 80) is not needed, and the tests never touch it.
set -euo pipefail
command -v nginx >/dev/null 2>&1 && exit 0
[ -x /usr/sbin/nginx ] && exit 0
bash "$(dirname "$0")/apt-install.sh" "nginx in front of the app (deploy/serve-class.sh)" nginx
