# Shared by the measurement scripts that start zkpin-server instances (source it).

# A port free on 127.0.0.1 right now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_listening LOG: waits up to 30 s for the server writing LOG to say it listens; on a
# timeout prints LOG to standard error and fails.
wait_listening() {
    for _ in $(seq 300); do
        grep -q "listening on" "$1" && return 0
        sleep 0.1
    done
    cat "$1" >&2
    return 1
}
