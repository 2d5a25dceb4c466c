# Throwaway PostgreSQL servers for tests and measurements (sourced by tools/test and
# tools/with-postgres). pg_start runs `initdb` in a temporary folder and starts two servers on
# free 127.0.0.1 ports (unix sockets stay in that folder), and exports
#   ZKPIN_TEST_POSTGRES_URL          postgres://zkpin@127.0.0.1:PORT/postgres, a superuser; the
#                                    tests create a database of their own per test
#   PGPASSWORD                       zkpin's password on both (TCP logins use scram-sha-256)
#   ZKPIN_TEST_POSTGRES_RESTART_URL  the second server, which the reconnect tests restart; it is
#                                    separate so that a restart never breaks tests running
#                                    in parallel on the first
#   ZKPIN_TEST_POSTGRES_RESTART      a script that restarts the second server (pg_ctl restart)
#   ZKPIN_TEST_POSTGRES_SOCKET_URL   the first server through its Unix socket (in that folder;
#                                    local connections are trusted, no password)
#   ZKPIN_TEST_POSTGRES_OUTAGE_URL   a third server, which the outage test stops and starts
#   ZKPIN_TEST_POSTGRES_OUTAGE       a script: `stop` or `start` that third server
# pg_stop (the EXIT trap) stops both and removes the folder. Needs tools/lib/install.sh
# (apt_ensure) sourced first. Arguments are extra `postgres` options, e.g. pg_start -c fsync=off.

pg_start() {
    apt_ensure postgresql
    PG_BINDIR=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -x "$PG_BINDIR/initdb" ] || { echo "PostgreSQL binaries not found under /usr/lib/postgresql" >&2; return 1; }

    PG_ROOT=$(mktemp -d /tmp/zkpin-pg.XXXXXX)
    chmod 755 "$PG_ROOT"
    trap pg_stop EXIT
    # initdb and postgres refuse to run as root: run them as the package's `postgres` user.
    PG_AS=()
    if [ "$(id -u)" -eq 0 ]; then
        id -u postgres >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
        chown postgres "$PG_ROOT"
        PG_AS=(runuser -u postgres --)
    fi
    PG_PASSWORD=$(openssl rand -hex 16)

    local port restart_port
    local outage_port
    port=$(pg_cluster main "$@") || return 1
    restart_port=$(pg_cluster restartable "$@") || return 1
    outage_port=$(pg_cluster outage "$@") || return 1

    # `pg_ctl restart` reuses the options of the start (postmaster.opts).
    cat > "$PG_ROOT/restart" <<SCRIPT
#!/bin/sh
exec ${PG_AS[*]} "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/restartable" -l "$PG_ROOT/restartable.log" -w -s -m fast restart
SCRIPT
    chmod 755 "$PG_ROOT/restart"
    cat > "$PG_ROOT/outage-control" <<SCRIPT
#!/bin/sh
case "\$1" in
    stop) exec ${PG_AS[*]} "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/outage" -w -s -m immediate stop ;;
    start) exec ${PG_AS[*]} "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/outage" -o "\$(cat "$PG_ROOT/outage.options")" -l "$PG_ROOT/outage.log" -w -s start ;;
    *) echo "usage: \$0 stop|start" >&2; exit 2 ;;
esac
SCRIPT
    chmod 755 "$PG_ROOT/outage-control"
    export PGPASSWORD=$PG_PASSWORD
    export ZKPIN_TEST_POSTGRES_URL="postgres://zkpin@127.0.0.1:$port/postgres"
    export ZKPIN_TEST_POSTGRES_RESTART_URL="postgres://zkpin@127.0.0.1:$restart_port/postgres"
    export ZKPIN_TEST_POSTGRES_RESTART="$PG_ROOT/restart"
    export ZKPIN_TEST_POSTGRES_SOCKET_URL="postgres://zkpin@:$port/postgres?host=$PG_ROOT"
    export ZKPIN_TEST_POSTGRES_OUTAGE_URL="postgres://zkpin@127.0.0.1:$outage_port/postgres"
    export ZKPIN_TEST_POSTGRES_OUTAGE="$PG_ROOT/outage-control"
    echo "==> throwaway PostgreSQL $("$PG_BINDIR/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (and :$restart_port for restarts), in $PG_ROOT"
}

# pg_cluster NAME [OPTION...]: initdb $PG_ROOT/NAME, start it, print its port.
pg_cluster() {
    local name=$1; shift
    local pwfile="$PG_ROOT/$name.pw"
    (umask 077; printf '%s\n' "$PG_PASSWORD" > "$pwfile")
    [ ${#PG_AS[@]} -gt 0 ] && chown postgres "$pwfile"
    "${PG_AS[@]}" "$PG_BINDIR/initdb" -D "$PG_ROOT/$name" -U zkpin --pwfile="$pwfile" -E UTF8 \
        --auth-local=trust --auth-host=scram-sha-256 --no-sync >"$PG_ROOT/$name.initdb.log" 2>&1 \
        || { cat "$PG_ROOT/$name.initdb.log" >&2; return 1; }
    rm -f "$pwfile"
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # max_connections: every server instance and every store under test has a pool of its own.
    local options="-c listen_addresses=127.0.0.1 -p $port -k $PG_ROOT -c max_connections=500 $*"
    printf '%s\n' "$options" > "$PG_ROOT/$name.options"   # for a later `pg_ctl start` (the outage script)
    "${PG_AS[@]}" "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/$name" -o "$options" -l "$PG_ROOT/$name.log" -w -s start >&2 \
        || { cat "$PG_ROOT/$name.log" >&2; return 1; }
    echo "$port"
}

pg_stop() {
    [ -n "${PG_ROOT:-}" ] && [ -d "$PG_ROOT" ] || return 0
    for name in main restartable outage; do
        # A cluster a test already stopped is no failure (under set -e this must not abort).
        if [ -d "$PG_ROOT/$name" ]; then
            "${PG_AS[@]}" "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/$name" -w -s -m immediate stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$PG_ROOT"
    PG_ROOT=
}
