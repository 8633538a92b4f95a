#!/usr/bin/env bash
# Serve the explorer to a class: Redis (the rooms, append-only on disk), several
# `attention-viz serve` processes sharing it, and nginx in front, in the foreground until
# interrupted (Ctrl-C, SIGTERM). It prints one line, `ready URL`, on standard output when the
# class can come in; everything else goes to standard error and to DATA/logs/.
# docs/deploy.md says how to run it for a class, on one machine or several.
#   bash deploy/serve-class.sh --help
set -euo pipefail

usage() {
  cat <<'EOF'
usage: deploy/serve-class.sh [options]

Serve Attention Explorer to a class: Redis, N app processes and nginx, in the foreground until
Ctrl-C (or SIGTERM), which stops them all. Prints `ready URL` when the class can come in.

  --port PORT            the port nginx listens on, the one the students type (default 8080)
  --address ADDR         the address nginx listens on (default 0.0.0.0: every interface)
  --public-host NAME     the name (or address) the students type, if not the listen address:
                         the app accepts pages from it (repeatable; the first is shown in `ready`)
  --procs N              app processes on this machine (default 2; about one per core; 0 on a
                         machine that is only the door, with --upstream for every process)
  --data DIR             Redis's data (append-only file) and the logs (default ./class-data)
  --tls-cert FILE        serve HTTPS and WSS with this certificate (PEM, the full chain) ...
  --tls-key FILE         ... and its private key: give both or neither
  --lecturer-key KEY     the lecturers' key, passed to every app process (or set AE_LECTURER_KEY
                         in the environment, which keeps it off the process list)
  --redis URL            use this Redis (redis://[:PASSWORD@]HOST:PORT/DB, rediss://...) instead
                         of starting one: for several machines sharing one Redis
  --redis-port PORT      the loopback port of the Redis this script starts (default 6479)
  --app-port-base PORT   the app processes listen on PORT, PORT+1, ... (default 5101)
  --app-address ADDR     the address the app processes listen on (default 127.0.0.1); another
                         machine's nginx reaching them (--upstream there) needs this machine's address
  --upstream HOST:PORT   an app process on another machine, added to this nginx (repeatable)
  --no-nginx             start no nginx: this machine's app processes serve another machine's
                         nginx (give --port, --public-host as the students type them there)
  -h, --help             this help

Paths are relative to the folder you run it from; it runs from anywhere.
EOF
}

say() { printf 'serve-class: %s\n' "$*" >&2; }
fail() { say "error: $*"; exit 2; }

here=$PWD
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$here/$1" ;; esac; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD

port=8080 address=0.0.0.0 procs=2 data="$repo/class-data" tls_cert="" tls_key=""
lecturer_key="" redis_url="" redis_port=6479 app_base=5101 app_address=127.0.0.1 nginx=1
public_hosts=() upstreams=()
while [ $# -gt 0 ]; do
  option=$1 value=""
  case "$option" in
    --*=*) value=${option#*=} option=${option%%=*} ;;
    -h|--help) usage; exit 0 ;;
    --no-nginx) nginx=0; shift; continue ;;
    --*) [ $# -ge 2 ] || fail "$option needs a value (see --help)"; value=$2; shift ;;
    *) fail "unexpected argument '$option' (see --help)" ;;
  esac
  shift
  case "$option" in
    --port) port=$value ;;
    --address) address=$value ;;
    --public-host) public_hosts+=("$value") ;;
    --procs) procs=$value ;;
    --data) data=$(absolute "$value") ;;
    --tls-cert) tls_cert=$(absolute "$value") ;;
    --tls-key) tls_key=$(absolute "$value") ;;
    --lecturer-key) lecturer_key=$value ;;
    --redis) redis_url=$value ;;
    --redis-port) redis_port=$value ;;
    --app-port-base) app_base=$value ;;
    --app-address) app_address=$value ;;
    --upstream) upstreams+=("$value") ;;
    *) fail "unknown option '$option' (see --help)" ;;
  esac
done

is_port() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ]; }
is_port "$port" || fail "--port takes a port number, not '$port'"
is_port "$redis_port" || fail "--redis-port takes a port number, not '$redis_port'"
if ! [[ "$procs" =~ ^[0-9]+$ ]]; then
  fail "--procs takes a number of processes, not '$procs'"
fi
if [ "$procs" = 0 ] && { [ ${#upstreams[@]} = 0 ] || [ "$nginx" = 0 ]; }; then
  fail "--procs 0 starts no app process here: it needs nginx and an --upstream for each process elsewhere"
fi
if [ "$procs" -gt 0 ] && { ! is_port "$app_base" || ! is_port $((app_base + procs - 1)); }; then
  fail "--app-port-base: ports $app_base to $((app_base + procs - 1)) are not all ports"
fi
if [ -n "$tls_cert$tls_key" ]; then
  if [ -z "$tls_cert" ] || [ -z "$tls_key" ]; then fail "--tls-cert and --tls-key go together: give both or neither"; fi
  [ -r "$tls_cert" ] || fail "cannot read the certificate $tls_cert"
  [ -r "$tls_key" ] || fail "cannot read the private key $tls_key"
  [ "$nginx" = 1 ] || fail "--tls-cert and --tls-key are nginx's: with --no-nginx, the nginx in front serves TLS"
fi
for upstream in "${upstreams[@]}"; do
  [[ "$upstream" =~ ^[^[:space:]\;]+:[0-9]+$ ]] || fail "--upstream takes HOST:PORT, not '$upstream'"
done
case "$redis_url" in ""|redis://*|rediss://*|unix://*) ;; *) fail "--redis takes a Redis URL such as redis://10.0.0.5:6379/0, not '$redis_url'" ;; esac
lecturer_key=${lecturer_key:-${AE_LECTURER_KEY:-}}

scheme=http
[ -n "$tls_cert" ] && scheme=https
bracket() { case "$1" in *:*) printf '[%s]\n' "$1" ;; *) printf '%s\n' "$1" ;; esac; }
any_address() { case "$1" in 0.0.0.0|::|"[::]"|\*) return 0 ;; *) return 1 ;; esac; }

# What runs: the app (made on first use), Redis and nginx from Debian (installed when missing).
if [ ! -x .venv/bin/attention-viz ]; then
  say "making the app's environment (.venv): make .venv/.installed-run"
  make --no-print-directory .venv/.installed-run >&2
fi
APP=$repo/.venv/bin/attention-viz
PY=$repo/.venv/bin/python
own_redis=0
if [ -z "$redis_url" ] && [ "$procs" -gt 0 ]; then
  own_redis=1
  bash scripts/ensure-redis.sh >&2
  REDIS_SERVER=$(command -v redis-server || echo /usr/bin/redis-server)
  REDIS_CLI=$(command -v redis-cli || echo /usr/bin/redis-cli)
fi
if [ "$nginx" = 1 ]; then
  bash scripts/ensure-nginx.sh >&2
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
fi

# The hosts the students' pages come from: the app's websockets accept pages from these only.
hosts=(localhost 127.0.0.1 "${public_hosts[@]}")
if any_address "$address"; then
  # every address of this machine, and its names, as a student may type any of them
  read -r -a machine <<<"$(hostname -I 2>/dev/null || true)"
  for ip in "${machine[@]}"; do [[ "$ip" == *:* ]] || hosts+=("$ip"); done
  hosts+=("$(hostname 2>/dev/null || true)" "$(timeout 3 hostname -f 2>/dev/null || true)")
else
  hosts+=("$(bracket "$address")")
fi
origins=()
declare -A seen=()
allow() { [ -n "${seen[$1]:-}" ] || { seen[$1]=1; origins+=(--allow-websocket-origin "$1"); }; }
for host in "${hosts[@]}"; do
  [ -n "$host" ] || continue
  allow "$host:$port"
  # Bokeh reads a page's origin without a port as port 80, https://HOST (port 443) too
  if [ "$port" = 443 ]; then allow "$host:80"; fi
done
if [ ${#public_hosts[@]} -gt 0 ]; then
  shown=${public_hosts[0]}
elif any_address "$address"; then
  shown=${hosts[2]:-localhost}
else
  shown=$(bracket "$address")
fi
url="$scheme://$shown:$port/"

# Nothing may be listening where this is going to: say what is in the way rather than fail later.
# shellcheck disable=SC2016  # $1 and $2 are the inner shell's
listening() { timeout 2 bash -c ': <>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null; }
probe_host() { if any_address "$1"; then echo 127.0.0.1; else echo "$1"; fi; }
app_ports=()
for ((i = 0; i < procs; i++)); do app_ports+=($((app_base + i))); done
if [ "$nginx" = 1 ] && listening "$(probe_host "$address")" "$port"; then
  fail "something already listens on port $port (nginx's): stop it or pick another --port"
fi
if [ "$own_redis" = 1 ] && listening 127.0.0.1 "$redis_port"; then
  fail "something already listens on port $redis_port (Redis's): stop it or pick another --redis-port"
fi
for app_port in "${app_ports[@]}"; do
  if listening "$(probe_host "$app_address")" "$app_port"; then
    fail "something already listens on port $app_port (an app process's): pick another --app-port-base"
  fi
done

data=${data%/}
logs=$data/logs
mkdir -p "$data" "$logs"
# nginx's config, pid and buffers: readable by its workers (who run as nobody under root)
run=$(mktemp -d "${TMPDIR:-/tmp}/serve-class.XXXXXX")
chmod 755 "$run"

redis_pid="" nginx_pid="" stopped=0
app_pids=()
declare -A name_of=() what_of=()  # each child's log name and what it is, by pid

stop_pid() {  # stop_pid PID SIGNAL: send SIGNAL, then SIGKILL after 15 s
  local pid=$1 signal=$2
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  kill "-$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  [ "$stopped" = 1 ] && return 0
  stopped=1
  trap '' INT TERM HUP
  # first the door (nginx: its fast shutdown, which does not wait out the open websockets),
  # then the app processes, then Redis, whose SHUTDOWN writes what the append-only file lacks
  [ -n "$nginx_pid" ] && stop_pid "$nginx_pid" TERM
  for pid in "${app_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${app_pids[@]}"; do stop_pid "$pid" TERM; done
  if [ -n "$redis_pid" ]; then
    if kill -0 "$redis_pid" 2>/dev/null; then
      "$REDIS_CLI" -h 127.0.0.1 -p "$redis_port" shutdown >/dev/null 2>&1 || true
    fi
    stop_pid "$redis_pid" TERM
  fi
  rm -rf "$run"
}
interrupted() {
  trap '' INT TERM HUP
  say "stopping"
  cleanup
  if [ "$own_redis" = 1 ]; then say "stopped; Redis's data and the logs are in $data"; else say "stopped; the logs are in $logs"; fi
  exit 0
}
trap interrupted INT TERM HUP
trap 'status=$?; cleanup; exit $status' EXIT

# start NAME WHAT COMMAND...: a child in a session of its own (Ctrl-C in the terminal reaches
# only this script, which stops the children in order), its output in DATA/logs/NAME.log
start() {
  local name=$1 what=$2; shift 2
  setsid "$@" >"$logs/$name.log" 2>&1 </dev/null &
  name_of[$!]=$name
  what_of[$!]=$what
}
# died PID: say which child stopped, with its log's end, and exit non-zero
died() {
  local pid=$1 status=0 how
  wait "$pid" 2>/dev/null || status=$?
  how="exit status $status"
  [ "$status" -gt 128 ] && how="killed by signal $((status - 128))"
  say "error: ${what_of[$pid]} (pid $pid) stopped ($how); the end of its log, $logs/${name_of[$pid]}.log:"
  tail -n 20 "$logs/${name_of[$pid]}.log" >&2 || true
  exit 1
}
alive() { kill -0 "$1" 2>/dev/null; }
# answers URL: does URL answer 200 (a self-signed certificate is fine: this is our own nginx)?
answers() {
  "$PY" - "$1" <<'EOF' 2>/dev/null
import ssl, sys, urllib.request
context = ssl.create_default_context()
context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
with urllib.request.urlopen(sys.argv[1], timeout=3, context=context) as response:
    sys.exit(0 if response.status == 200 else 1)
EOF
}
# wait_for PID URL WHAT: until URL answers, while PID lives (at most 3 minutes)
wait_for() {
  local pid=$1 probe=$2 what=$3
  for _ in $(seq 360); do
    alive "$pid" || died "$pid"
    answers "$probe" && return 0
    sleep 0.5
  done
  say "error: $what did not answer at $probe in 3 minutes; see $logs"
  exit 1
}

if [ "$own_redis" = 1 ]; then
  # the rooms: on loopback, on disk as an append-only file synced every second
  start redis "Redis" "$REDIS_SERVER" --port "$redis_port" --bind 127.0.0.1 --protected-mode yes --dir "$data" \
    --appendonly yes --appendfsync everysec --save "" --daemonize no --logfile ""
  redis_pid=$!
  for _ in $(seq 100); do
    alive "$redis_pid" || died "$redis_pid"
    "$REDIS_CLI" -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  redis_url="redis://127.0.0.1:$redis_port/0"
  say "Redis on 127.0.0.1:$redis_port, its append-only file in $data"
fi

app_options=()
if [ -n "$lecturer_key" ]; then
  # the key in the environment works with every version; the option, where serve has it
  export AE_LECTURER_KEY="$lecturer_key"
  if "$APP" serve --help 2>/dev/null | grep -q -- '--lecturer-key'; then app_options+=(--lecturer-key "$lecturer_key"); fi
fi
for app_port in "${app_ports[@]}"; do
  start "app-$app_port" "the app process on port $app_port" "$APP" serve --port "$app_port" --address "$app_address" "${origins[@]}" \
    --rooms "$redis_url" "${app_options[@]}"
  app_pids+=($!)
done
for ((i = 0; i < procs; i++)); do
  wait_for "${app_pids[$i]}" "http://$(bracket "$(probe_host "$app_address")"):${app_ports[$i]}/" "the app process on port ${app_ports[$i]}"
done
if [ "$procs" -gt 0 ]; then say "app processes on $app_address, ports ${app_ports[*]} (logs in $logs)"; fi

if [ "$nginx" = 1 ]; then
  listen="$(bracket "$address"):$port"
  servers=""
  for app_port in "${app_ports[@]}"; do servers+="        server $(bracket "$app_address"):$app_port;"$'\n'; done
  for upstream in "${upstreams[@]}"; do servers+="        server $upstream;"$'\n'; done
  escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }  # for a sed replacement
  tls=()
  if [ -n "$tls_cert" ]; then
    # the TLS variant: the same server, its listen line made `ssl`, with the certificate
    tls=(-e "s|^\( *\)listen @LISTEN@;|\1listen @LISTEN@ ssl;\n\1ssl_certificate $(escape "$tls_cert");\n\1ssl_certificate_key $(escape "$tls_key");\n\1ssl_protocols TLSv1.2 TLSv1.3;\n\1ssl_session_cache shared:explorer_tls:10m;|")
  fi
  sed "${tls[@]}" -e "s|error_log @RUN@/error.log|error_log $(escape "$logs")/nginx-error.log|" \
    -e "s|@RUN@|$run|g" -e "s|@LISTEN@|$listen|g" deploy/nginx.conf.template \
    | awk -v ups="$servers" '{ if ($0 == "@UPSTREAMS@") printf "%s", ups; else print }' >"$run/nginx.conf"
  cp "$run/nginx.conf" "$logs/nginx.conf"  # what ran, to read or to start from by hand
  "$NGINX" -t -q -e "$logs/nginx-error.log" -c "$run/nginx.conf" -p "$run" >&2
  start nginx "nginx" "$NGINX" -e "$logs/nginx-error.log" -c "$run/nginx.conf" -p "$run" -g "daemon off;"
  nginx_pid=$!
  for upstream in "${upstreams[@]}"; do
    for _ in $(seq 120); do answers "http://$upstream/" && break; sleep 0.5; done
    answers "http://$upstream/" || say "warning: the app process at $upstream does not answer (yet?)"
  done
  wait_for "$nginx_pid" "$scheme://$(bracket "$(probe_host "$address")"):$port/" "nginx"
  say "nginx on $listen ($scheme) in front of ${#app_ports[@]} app process(es) here and ${#upstreams[@]} elsewhere"
fi

running=()
[ "$nginx" = 1 ] && running+=(nginx)
[ "$procs" -gt 0 ] && running+=("the app processes")
[ -n "$redis_pid" ] && running+=(Redis)
if [ "$nginx" = 0 ]; then
  # this machine serves another's nginx: what to give that one's --upstream
  say "for the nginx in front (--upstream there):$(printf ' %s' "${app_ports[@]/#/$(bracket "$app_address"):}")"
  url="http://$(bracket "$(probe_host "$app_address")"):${app_ports[0]}/"
fi
stops=$(IFS=,; echo "${running[*]}")
say "Ctrl-C (or SIGTERM) stops ${stops//,/, }"
echo "ready $url"

# until interrupted, or until a child stops on its own, which is an error
children=("${app_pids[@]}")
[ -n "$redis_pid" ] && children+=("$redis_pid")
[ -n "$nginx_pid" ] && children+=("$nginx_pid")
while true; do
  wait -n "${children[@]}" || true
  for pid in "${children[@]}"; do alive "$pid" || died "$pid"; done
done
