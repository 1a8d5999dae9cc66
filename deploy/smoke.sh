#!/usr/bin/env bash
# Smoke test of the real stack on loopback: every process of the Procfile
# (gunicorn, Celery worker, Celery beat, the smtpd listener, the webhook
# worker) against the local PostgreSQL (a database of its own, created and
# dropped here) and Redis (a database number of its own, flushed before and
# after), with an SMTP sink for outbound mail.  deploy/smoke/play.py then
# plays one complete game of every title over HTTP and one short game by
# email, and has a webhook posted to; `verify_games` must pass.
# Everything started here is stopped on exit; on failure every log is shown.
#
#   deploy/smoke.sh                 # from the repository root, after `make install`
#   SMOKE_KEEP_LOGS=1 deploy/smoke.sh
#
# Environment: SMOKE_PG (server URL without database, default
# postgres://postgres@127.0.0.1:5432), SMOKE_DB (correo_smoke), SMOKE_REDIS
# (redis://127.0.0.1:6379), SMOKE_REDIS_DB (13), SMOKE_TIMEOUT (seconds the
# games may take, 420).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"

PG=${SMOKE_PG:-postgres://postgres@127.0.0.1:5432}
DB=${SMOKE_DB:-correo_smoke}
REDIS_BASE=${SMOKE_REDIS:-redis://127.0.0.1:6379}
REDIS_DB=${SMOKE_REDIS_DB:-13}
PLAY_TIMEOUT=${SMOKE_TIMEOUT:-420}
case "$DB" in test | test_test | postgres | template0 | template1)
    echo "smoke: refusing to use database $DB" >&2; exit 2 ;;
esac
[ "$REDIS_DB" != 0 ] || { echo "smoke: refusing Redis db 0" >&2; exit 2; }

# One smoke at a time on this machine: they share the database name and Redis db.
exec 9>"${TMPDIR:-/tmp}/correo-smoke.lock"
flock -w 300 9 || { echo "smoke: another smoke test holds the lock"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/correo-smoke.XXXXXX")
PIDS=()
NAMES=()
STATUS=1

say() { echo "smoke: $*"; }
alive() {  # a started process that exited stays a zombie until reaped: not alive
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state:0:1}" != Z ]
}

show_logs() {
    for log in "$WORK"/logs/*.log; do
        [ -e "$log" ] || continue
        echo "===== $(basename "$log") (last 80 lines) ====="
        tail -n 80 "$log"
    done
}

stop_all() {
    # Politely (TERM), then after 15 s for good (KILL); only our own PIDs.
    local i pid
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill -TERM "${PIDS[$i]}" 2>/dev/null || true
    done
    for _ in $(seq 150); do
        local running=0
        for pid in "${PIDS[@]}"; do alive "$pid" && running=1; done
        [ "$running" = 0 ] && break
        sleep 0.1
    done
    for i in "${!PIDS[@]}"; do
        if alive "${PIDS[$i]}"; then
            say "${NAMES[$i]} (pid ${PIDS[$i]}) did not stop; killing it"
            kill -KILL -- "-${PIDS[$i]}" 2>/dev/null || kill -KILL "${PIDS[$i]}" 2>/dev/null || true
        fi
    done
    wait 2>/dev/null || true
}

cleanup() {
    local code=$?
    set +e
    [ "$STATUS" = 0 ] || code=1
    stop_all
    if [ "$code" != 0 ]; then
        echo "smoke: FAILED (exit $code); logs of every process follow" >&2
        show_logs >&2
    fi
    "$PY" - "$PG" "$DB" "$REDIS_BASE/$REDIS_DB" <<'EOF' || true
import sys, psycopg, redis
pg, db, redis_url = sys.argv[1:]
with psycopg.connect(f"{pg}/postgres", autocommit=True, connect_timeout=5) as conn:
    conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
redis.Redis.from_url(redis_url, socket_connect_timeout=3).flushdb()
EOF
    if [ "${SMOKE_KEEP_LOGS:-}" = 1 ]; then say "logs kept in $WORK/logs"; else rm -rf "$WORK"; fi
    exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

WEB_PORT=$(free_port)
SMTPD_PORT=$(free_port)
SINK_PORT=$(free_port)
PUSH_PORT=$(free_port)
mkdir -p "$WORK/logs" "$WORK/mail" "$WORK/metrics"

export DATABASE_URL="$PG/$DB"
export REDIS_URL="$REDIS_BASE/$REDIS_DB"
export DJANGO_DEBUG=0
SECRET_KEY="smoke-$("$PY" -c 'import secrets; print(secrets.token_hex(32))')"
CHAIN_KEY="$("$PY" -c 'import secrets; print(secrets.token_hex(32))')"
export SECRET_KEY CHAIN_KEY
export ALLOWED_HOSTS=127.0.0.1,localhost
export PORT=$WEB_PORT SMTPD_PORT SMTPD_HOST=127.0.0.1 WEB_WORKERS=2 WORKER_CONCURRENCY=2
export EMAIL_URL="smtp://127.0.0.1:$SINK_PORT"
export REPLY_DOMAIN=play.smoke.test DEFAULT_FROM_EMAIL="Correo <correo@smoke.test>"
export CORREO_BASE_URL="http://127.0.0.1:$WEB_PORT"
export CORREO_EXTRA_ENGINES=tests.support.duel:DUEL
export CORREO_SWEEP_INTERVAL=5
export PUSH_BIND="127.0.0.1:$PUSH_PORT"
# The game by mail answers each turn mail at once: here turn mails are not
# gathered into one per ten minutes (notifications.pacing has its own tests).
export CORREO_COALESCE_SECONDS=0
# play.py's webhook receiver listens on loopback
export NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE=1
export CORREO_VAR_DIR="$WORK/var" CELERY_BEAT_SCHEDULE_FILE="$WORK/celerybeat-schedule"
export PROMETHEUS_MULTIPROC_DIR="$WORK/metrics"
export THROTTLE_AUTH=10000/min THROTTLE_USER=1000000/min THROTTLE_ANON=100000/min
export LOG_LEVEL=INFO LOG_FORMAT=json

say "PostgreSQL database $DB, Redis db $REDIS_DB, logs in $WORK/logs"
"$PY" - "$PG" "$DB" "$REDIS_URL" <<'EOF'
import sys, psycopg, redis
pg, db, redis_url = sys.argv[1:]
with psycopg.connect(f"{pg}/postgres", autocommit=True, connect_timeout=5) as conn:
    conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{db}"')
redis.Redis.from_url(redis_url, socket_connect_timeout=3).flushdb()
EOF
timeout 120 "$PY" manage.py migrate --noinput >"$WORK/logs/migrate.log" 2>&1

start() {  # start NAME COMMAND...: in its own process group, output to its log
    local name=$1
    shift
    setsid "$@" >"$WORK/logs/$name.log" 2>&1 &
    PIDS+=($!)
    NAMES+=("$name")
}

start sink "$PY" deploy/smoke/sink.py --port "$SINK_PORT" --dir "$WORK/mail"
# Every process of the Procfile, exactly as written there.
while IFS= read -r line; do
    case "$line" in '' | '#'*) continue ;; esac
    start "${line%%:*}" bash -c "exec ${line#*:}"
done <Procfile
say "started ${NAMES[*]}"

wait_until() {  # wait_until SECONDS WHAT COMMAND...
    local seconds=$1 what=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        for i in "${!PIDS[@]}"; do
            alive "${PIDS[$i]}" || { say "${NAMES[$i]} exited early"; return 1; }
        done
        [ $SECONDS -lt $deadline ] || { say "$what not ready after ${seconds}s"; return 1; }
        sleep 0.3
    done
}
port_open() { "$PY" -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$1"; }
healthy() { "$PY" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=3)" "http://127.0.0.1:$WEB_PORT/healthz"; }
worker_ready() { grep -q "ready" "$WORK/logs/worker.log"; }
webhooks_ready() { grep -q "ready" "$WORK/logs/webhooks.log"; }

wait_until 60 "sink" port_open "$SINK_PORT"
wait_until 60 "smtpd" port_open "$SMTPD_PORT"
wait_until 60 "web (/healthz)" healthy
wait_until 60 "worker" worker_ready
wait_until 60 "webhooks worker" webhooks_ready
wait_until 60 "push" port_open "$PUSH_PORT"
say "stack is up: web :$WEB_PORT, push :$PUSH_PORT, smtpd :$SMTPD_PORT, sink :$SINK_PORT"

# An open page's stream on the push process hears the moves made on the web
# process (through Redis) while the games below are played.
"$PY" - "$WEB_PORT" "$PUSH_PORT" <<'EOF' &
import json, socket, sys, time, urllib.request
web, push = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:  # game 1 exists once the first game has begun
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{web}/games/1/", timeout=3)
        break
    except Exception:
        time.sleep(0.2)
sock = socket.create_connection(("127.0.0.1", push), timeout=120)
sock.sendall(b"GET /games/1/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
seen, buffer = [], b""
while len(seen) < 2:
    chunk = sock.recv(65536)
    if not chunk:
        sys.exit(f"smoke: the push stream closed: {buffer[:300]!r}")
    buffer += chunk
    seen = [json.loads(line[6:]) for line in buffer.split(b"\n") if line.startswith(b"data: ")]
print(f"smoke: push: game 1's stream heard seq {seen[0]['seq']}, then {seen[1]['seq']}")
EOF
PUSH_CHECK=$!

SMOKE_BASE_URL="http://127.0.0.1:$WEB_PORT" SMOKE_MAILDIR="$WORK/mail" SMOKE_SMTPD_PORT=$SMTPD_PORT \
    timeout "$PLAY_TIMEOUT" "$PY" deploy/smoke/play.py

wait "$PUSH_CHECK" || { say "FAILED: the push stream heard no move"; exit 1; }
timeout 300 "$PY" manage.py verify_games
# The release gate as a deployment runs it (deploy/README.md, "Releases").
timeout 300 "$PY" manage.py verify_games --status active --read-only
# Every line web, the workers and beat wrote is JSON with both ids; game requests name their game.
"$PY" - "$WORK"/logs/{web,worker,webhooks,beat}.log <<'EOF'
import json, re, sys
games = lines = 0
for path in sys.argv[1:]:
    for number, line in enumerate(open(path), 1):
        try:
            record = json.loads(line)
        except ValueError:
            sys.exit(f"smoke: {path}:{number} is not JSON: {line!r}")
        assert "request_id" in record and "game_id" in record, (path, number, line)
        match = re.match(r"/api/games/(\d+)/", record.get("path") or "")
        if record["logger"] == "correo.access" and match:
            assert record["game_id"] == int(match.group(1)) and record["request_id"], line
            games += 1
        lines += 1
assert games, "no access line of a game request"
print(f"smoke: logs: {lines} JSON lines, {games} game requests with their game id")
EOF
for i in "${!PIDS[@]}"; do
    alive "${PIDS[$i]}" || { say "${NAMES[$i]} died during the run"; exit 1; }
done
if grep -h '"level": "ERROR"' "$WORK"/logs/*.log; then
    say "errors were logged (above)"
    exit 1
fi
STATUS=0
say "OK in ${SECONDS}s"
