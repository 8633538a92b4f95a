#!/usr/bin/env bash
# The rooms' fan-out with and without serve()'s gc.freeze(), side by side: two explorers started at
# once (one with gc.freeze made a no-op), then bench/room.py against each in turn, ROUNDS times.
# Prints each run's follow, reveal and server lines (bench/README §14).
#   bash bench/room_gc.sh [ROUNDS] [STUDENTS] [DRIVES]      (default: 2 300 40)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}; students=${2:-300}; drives=${3:-40}
run=$(mktemp -d)
start() {  # $1 port, $2 1 to freeze as serve() does, 0 not to
  .venv/bin/python -c "
import gc, sys
if not $2:
    gc.freeze = lambda: None
from app.cli import main
sys.exit(main(['serve', '--port', '$1']))" >"$run/server-$1.log" 2>&1 &
  echo $!
}
plain=$(start 18301 0); frozen=$(start 18302 1)
trap 'kill $plain $frozen 2>/dev/null || true; rm -rf "$run"' EXIT
for _ in $(seq 120); do
  curl -fs http://127.0.0.1:18301/ >/dev/null 2>&1 && curl -fs http://127.0.0.1:18302/ >/dev/null 2>&1 && break
  sleep 0.5
done
for round in $(seq "$rounds"); do
  for which in "18301 $plain without" "18302 $frozen with"; do
    set -- $which
    echo "== round $round, $3 gc.freeze()"
    .venv/bin/python bench/room.py --url "http://127.0.0.1:$1/" --server-pids "$2" --students "$students" --drives "$drives" \
      | grep -E "room of $students|follow|the last student|reveal|server "
  done
done
