# Sourced by the load scripts (scripts/bench, scripts/live-capture,
# scripts/idle-sockets-instances, scripts/live-instances): release `tavoliere serve`
# processes for a load run.

# start_load_server PORT DATA_DIR LOG: starts target/release/tavoliere on 127.0.0.1:PORT
# with its private cluster in DATA_DIR (servers given the same one share the cluster) and
# its log in LOG, with the limits a load generator needs raised (its clients all come from
# one address and reuse accounts; its idle sockets send nothing for minutes). Variables set
# before the call (TAVOLIERE_DATABASE__MAX_CONNECTIONS=5 start_load_server ...) reach the
# server too. Sets LOAD_SERVER_PID; returns 1, after the log's tail, when the server is not
# ready within 120 s.
start_load_server() {
    local port=$1 data=$2 log=$3
    TAVOLIERE_APPLICATION__PORT=$port TAVOLIERE_DATABASE__EMBEDDED_DATA_DIR="$data" \
        TAVOLIERE_LIVE__IDLE_TIMEOUT_SECONDS=600 \
        TAVOLIERE_LIVE__MAX_SOCKETS_PER_ACCOUNT=1000000 TAVOLIERE_LIVE__MAX_SOCKETS_PER_ADDRESS=1000000 \
        TAVOLIERE_AUTH__LOGIN_ATTEMPTS_PER_ADDRESS=100000 RUST_LOG=warn \
        target/release/tavoliere serve > "$log" 2>&1 &
    LOAD_SERVER_PID=$!
    for _ in $(seq 240); do
        curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && return 0
        sleep 0.5
    done
    echo "the server on port $port was not ready within 120 s:" >&2
    tail -20 "$log" >&2
    return 1
}

# start_load_servers COUNT BASE_PORT DATA_DIR LOG_PREFIX: COUNT servers on ports BASE_PORT,
# BASE_PORT + 1... sharing the one cluster in DATA_DIR (the first starts it, the others join),
# logging to LOG_PREFIX-<i>.log. Appends their pids to the array LOAD_SERVER_PIDS (also the
# pid of one that was not ready, so that the caller stops it); returns 1 when one is not
# ready. Variables set before the call reach every server, as for start_load_server.
start_load_servers() {
    local count=$1 base_port=$2 data=$3 logs=$4 i status
    for i in $(seq 0 $((count - 1))); do
        status=0
        start_load_server $((base_port + i)) "$data" "$logs-$i.log" || status=$?
        LOAD_SERVER_PIDS+=("$LOAD_SERVER_PID")
        [ $status = 0 ] || return 1
    done
}
