#!/usr/bin/env bash
# tools/measure-load --floor [SECONDS] [CURVES]: what the HTTP stack alone costs the server,
# next to its pairing check. One instance pinned to CPU 0 is driven by wrk on CPU 1 (64
# keep-alive connections) twice: `GET /status` (routing, middleware, a small JSON answer,
# loopback TCP) and a `POST /rps/pass1` whose mpin_id is not hex (the JSON body read and decoded
# into Pass1Request, then refused by the route's own check with 400 and an error body, logged:
# no store, no crypto). The server's CPU time per request (/proc) is the floor of a request of
# each kind. An M-Pin login is three POSTs with small JSON bodies (pass 1, pass 2, authenticate);
# ZKPin's own clients send two (pass 2 with `complete`, docs/api.md). With p the POST floor, v
# the same binary's server_verify and b its per-login cost in a batch of 64 (`zkpin bench`,
# CPU 0, just before), no login path of n requests on this stack can beat
#   efficiency <= v / (v + n p) with single verification,  v / (b + n p) with batches of 64,
# even if its store, hex and point decoding cost nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/install.sh
source tools/lib/serve.sh
seconds=${1:-10}
curves=${2:-"bn254cx bls12-381"}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "usage: tools/measure-load --floor [SECONDS] [CURVES]: SECONDS is a whole number of seconds, not '$seconds'" >&2; exit 64; }
bin=${ZKPIN_BIN_DIR:-.build/release}
[ "$(nproc)" -ge 2 ] || { echo "--floor needs two CPUs (server on 0, wrk on 1)" >&2; exit 2; }
apt_ensure util-linux wrk
[ -x "$bin/zkpin-server" ] && [ -x "$bin/zkpin" ] || swift build -c release
work=$(mktemp -d /tmp/zkpin-floor.XXXXXX)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

echo "==> $seconds s per request kind and curve: server on CPU 0, wrk (64 connections) on CPU 1"
echo "| curve | GET /status us (g) | refused POST us (p) | server_verify us (v) | batch-64 us/login (b) | 3p / v | ceiling single (3 requests) | ceiling batched (3) | ceiling batched (2) |"
echo "|---|---|---|---|---|---|---|---|---|"
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"pass":1,"mpin_id":"not hex","U":"00"}'
wrk.headers["Content-Type"] = "application/json"
LUA
# drive PATH [WRK-ARG...]: the server's CPU microseconds per request over one wrk run.
drive() {
    local path=$1; shift
    local before after
    before=$(cpu_ticks "$server")
    taskset -c 1 wrk -t1 -c64 -d"${seconds}s" "$@" "http://127.0.0.1:$port$path" >"$work/wrk.txt"
    after=$(cpu_ticks "$server")
    python3 - "$((after - before))" "$(getconf CLK_TCK)" "$work/wrk.txt" <<'PY'
import re, sys
ticks, hz, wrk = int(sys.argv[1]), int(sys.argv[2]), open(sys.argv[3]).read()
requests = int(re.search(r"(\d+) requests in", wrk).group(1))
print(ticks / hz / requests * 1e6)
PY
}
for curve in $curves; do
    bench=$(taskset -c 0 "$bin/zkpin" bench --curve "$curve" --ops server_verify,server_verify_batch64 --json)
    port=$(free_port)
    taskset -c 0 "$bin/zkpin-server" serve --port "$port" --data "$work/$curve" --curve "$curve" >"$work/server.log" 2>&1 &
    server=$!
    wait_listening "$work/server.log" || exit 1
    get=$(drive /status)
    post=$(drive /rps/pass1 -s "$work/post.lua")
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
    python3 - "$curve" "$bench" "$get" "$post" <<'PY'
import json, sys
curve, bench, g, p = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
times = {row["op"]: row["median_ns"] / 1000 for row in bench}
v, b = times["server_verify"], times["server_verify_batch64"]
print(f"| {curve} | {g:.1f} | {p:.1f} | {v:.1f} | {b:.1f} | {3 * p / v:.2f} | {v / (v + 3 * p):.2f} | {v / (b + 3 * p):.2f} "
      f"| {v / (b + 2 * p):.2f} |", flush=True)
PY
done
