#!/usr/bin/env bash
# Start nginx (Debian's package) on loopback in front of two `attention-viz serve` processes that
# share their rooms through Debian's redis-server (`serve --rooms redis://…`), run the session-open
# and the rooms' benchmarks through it, and stop everything. Run from the repository:
#   bash deploy/run-loopback.sh [STUDENTS ...]      (default: 100 300)
set -euo pipefail
cd "$(dirname "$0")/.."
students=("${@:-100 300}")
[ $# -eq 0 ] && students=(100 300)
make .venv/.installed-bench  # the app and what the benchmark needs (psutil)
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "Installing Debian's nginx"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
bash scripts/ensure-redis.sh
REDIS=$(command -v redis-server || echo /usr/bin/redis-server)

run=$(mktemp -d)
chmod 755 "$run"  # nginx's workers (nobody, under root) write their buffers of large responses here
listen=127.0.0.1:18080
ports=(18101 18102)
redis_port=18179
pids=()
cleanup() {
  [ -f "$run/nginx.pid" ] && kill "$(cat "$run/nginx.pid")" 2>/dev/null || true
  [ -n "${redis_pid:-}" ] && kill "$redis_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$run"
}
trap cleanup EXIT

# the rooms live in Redis, so that a lecturer on one process and students on the other are one room
"$REDIS" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >"$run/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 40); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.25; done
rooms="redis://127.0.0.1:$redis_port/0"
for port in "${ports[@]}"; do
  .venv/bin/attention-viz serve --port "$port" --allow-websocket-origin "$listen" --rooms "$rooms" >"$run/app-$port.log" 2>&1 &
  pids+=($!)
done
upstreams=""
for port in "${ports[@]}"; do upstreams+="        server 127.0.0.1:$port;"$'\n'; done
sed -e "s|@RUN@|$run|g" -e "s|@LISTEN@|$listen|g" deploy/nginx.conf.template \
  | awk -v ups="$upstreams" '{ if ($0 == "@UPSTREAMS@") printf "%s", ups; else print }' >"$run/nginx.conf"
"$NGINX" -t -q -c "$run/nginx.conf" -p "$run"
"$NGINX" -c "$run/nginx.conf" -p "$run"

for port in "${ports[@]}"; do
  for _ in $(seq 60); do curl -fs "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.5; done
done
curl -fs "http://$listen/" >/dev/null
echo "nginx on http://$listen/ in front of app processes on ports ${ports[*]} (pids ${pids[*]})"
.venv/bin/python bench/session_open.py --url "http://$listen/" --server-pids "${pids[@]}" --students "${students[@]}"
# one room, its lecturer and students spread over both processes by nginx's hash
.venv/bin/python bench/room.py --url "http://$listen/" --server-pids "${pids[@]}" --students "${students[@]}"
