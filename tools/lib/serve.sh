# Shared by the shell scripts that start zkpin-server instances (source it): the measurements,
# tools/newcomer-test and tools/schemathesis-test. The Python scripts use tools/lib/e2e.py.

# A port free on 127.0.0.1 right now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_listening LOG [PID [SECONDS]]: waits up to SECONDS (default 30) for the server writing
# LOG to say it listens ("listening on http://...", its own line, printed after Hummingbird's
# when the port is bound), and no longer once process PID has ended; on a timeout or an ended
# server prints LOG to standard error and fails.
wait_listening() {
    local i
    for ((i = 0; i < ${3:-30} * 10; i++)); do
        grep -q "listening on http://" "$1" && return 0
        [ -n "${2:-}" ] && ! kill -0 "$2" 2>/dev/null && break
        sleep 0.1
    done
    cat "$1" >&2
    return 1
}
