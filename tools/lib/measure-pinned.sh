#!/usr/bin/env bash
# tools/measure-load --pinned [CLIENTS] [SECONDS] [CURVES]: see tools/measure-load.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/lib/install.sh
source tools/lib/serve.sh
source tools/lib/postgres.sh
clients=${1:-64}
seconds=${2:-20}
curves=${3:-"bn254cx bls12-381"}
bin=${ZKPIN_BIN_DIR:-.build/release}
# ZKPIN_SERVER_BIN_DIR measures another build's server (and its server_verify) with this
# build's load driver, e.g. a build of an earlier commit; ZKPIN_SERVE_ARGS adds serve options
# (e.g. --verification-batch 1 for single verification).
server_bin=${ZKPIN_SERVER_BIN_DIR:-$bin}
read -r -a serve_args <<<"${ZKPIN_SERVE_ARGS:-}"
# ZKPIN_LOAD_ARGS adds load-driver options (e.g. --requests 3 for the M-Pin shape of a login:
# pass 1, pass 2, /rps/authenticate; the default is 2, pass 2 finishing the login).
read -r -a load_args <<<"${ZKPIN_LOAD_ARGS:-}"
[ "$(nproc)" -ge 2 ] || { echo "--pinned needs two CPUs (server on 0, driver on 1)" >&2; exit 2; }
apt_ensure util-linux   # taskset
[ -x "$bin/zkpin-server" ] && [ -x "$bin/zkpin" ] || swift build -c release

pg_start
# The database is part of the server's side: pin it (and the backends it forks) to CPU 0.
for pidfile in "$PG_ROOT"/*/postmaster.pid; do taskset -a -p -c 0 "$(head -n 1 "$pidfile")" >/dev/null; done
work=$(mktemp -d /tmp/zkpin-pinned.XXXXXX)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; pg_stop; }
trap cleanup EXIT


# row CURVE STORE [SERVE-ARG...]: one measurement, printed as a table row.
row() {
    local curve=$1 store=$2; shift 2
    local data="$work/$curve-$store" port
    port=$(free_port)
    # The pairing check alone, same binary, same core, just before the load.
    local verify_ns
    verify_ns=$(taskset -c 0 "$server_bin/zkpin" bench --curve "$curve" --ops server_verify --json \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["median_ns"])')
    taskset -c 0 "$server_bin/zkpin-server" serve --port "$port" --data "$data" --curve "$curve" \
        --registrations-per-address 100000 --pass1-per-address 100000000 --pass1-per-identity 100000000 "${serve_args[@]}" "$@" >"$work/server.log" 2>&1 &
    server=$!
    wait_listening "$work/server.log" || exit 1
    taskset -c 1 "$bin/zkpin" load --server "http://127.0.0.1:$port" --outbox "$data/outbox" \
        --clients "$clients" --duration "$seconds" --server-pid "$server" "${load_args[@]}" --json >"$work/load.json" || true
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
    python3 - "$curve" "$store" "$verify_ns" "$work/load.json" <<'PY'
import json, sys
curve, store, verify_ns, path = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
r = json.load(open(path))
cpu = r.get("serverCPUMillisecondsPerLogin") or 0
errors = sum(r["errors"].values())
efficiency = verify_ns / 1e6 / cpu if cpu else 0
print(f"| {curve} | {store} | {r['loginsPerSecond']:.1f} | {r['p50Milliseconds']:.1f} | {r['p99Milliseconds']:.1f} "
      f"| {cpu:.3f} | {verify_ns / 1e6:.3f} | {efficiency:.2f} | {errors} |", flush=True)
PY
}

echo "==> $clients clients, $seconds s of logins; server (and PostgreSQL) on CPU 0, driver on CPU 1"
echo "| curve | store | logins/s | p50 ms | p99 ms | server CPU ms/login | server_verify ms | efficiency | errors |"
echo "|---|---|---|---|---|---|---|---|---|"
for curve in $curves; do
    row "$curve" SQLite
    db="pinned_${curve//-/_}"
    psql -q "$ZKPIN_TEST_POSTGRES_URL" -c "CREATE DATABASE $db" >&2
    row "$curve" PostgreSQL --database "${ZKPIN_TEST_POSTGRES_URL%/*}/$db"
    # The same server through its Unix socket, as an operator with PostgreSQL on the same
    # machine would connect (no TCP stack on either side).
    psql -q "$ZKPIN_TEST_POSTGRES_URL" -c "CREATE DATABASE ${db}_socket" >&2
    socket_url=${ZKPIN_TEST_POSTGRES_SOCKET_URL/\/postgres\?//${db}_socket?}
    row "$curve" "PostgreSQL socket" --database "$socket_url"
done
