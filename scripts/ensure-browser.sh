#!/usr/bin/env bash
# Install Debian's Chromium and the Noto CJK fonts for the browser tests, when missing.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || need+=(fonts-noto-cjk)
[ ${#need[@]} -eq 0 ] && exit 0
bash "$(dirname "$0")/apt-install.sh" "the browser tests" "${need[@]}"
