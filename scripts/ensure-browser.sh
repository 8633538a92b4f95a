#!/usr/bin/env bash
# Install Debian's Chromium and the Noto CJK fonts for the browser tests, when missing.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || need+=(fonts-noto-cjk)
[ ${#need[@]} -eq 0 ] && exit 0
echo "Installing for the browser tests: ${need[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: need root to install ${need[*]}: run 'sudo apt-get install -y ${need[*]}' and try again" >&2
  exit 1
fi
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }; then
  echo "error: could not install ${need[*]} with apt-get; install them by hand (Debian packages)" >&2
  exit 1
fi
