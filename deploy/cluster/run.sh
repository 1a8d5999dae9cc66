#!/usr/bin/env bash
# The cluster test (`make cluster-test`): Correo on several hosts under
# failure, scaled out by configuration only.  Every host is a Linux network
# namespace on this machine with an address of its own (lib.sh):
#
#   lb      HAProxy: HTTP to the app hosts' gunicorn, health checks on
#           /healthz; SMTP (TCP) to their smtpd listeners
#   app1    gunicorn, Celery worker, webhook worker, smtpd, and the one beat
#   app2    gunicorn, Celery worker, webhook worker, smtpd
#   db      its own PostgreSQL (Debian's binaries, a fresh initdb here), with
#           PgBouncer in transaction pooling in front; the apps reach only PgBouncer
#   redis   its own redis-server (broker and cache), nothing kept on disk
#   mail    an SMTP sink that keeps every mail, and a webhook receiver
#   client  the players (play.py): HTTP and SMTP through lb only
#
# The app processes are the Procfile's lines, as deployed.  Then:
#  1. throughput: the same Havana games played as fast as they go with one
#     app host (app2 frozen and out of the balancer), then two; rounds of
#     both, each printed as a bench JSON line with the median and spread;
#  2. chaos: play of every kind (API moves in every title, clocks that run
#     out, bots, webhooks, a game by email) while app1 is killed outright and
#     comes back, app2 is cut off from the database and reconnected, Redis is
#     killed and restarted empty, and app2's web server dies (the balancer
#     must send everything to app1); the release gate runs through PgBouncer
#     meanwhile;
#  3. checks (check.py): every acknowledged move in its stream exactly once,
#     every mail and webhook sent once, every timeout applied once,
#     `verify_games` clean;
#  4. a forger cuts the end off a game the checkpoint log published
#     (truncate.py), and `verify_games --checkpoints` must report that game.
# Everything is removed on exit, whatever happened (cleanup.sh does the same
# by name if this script was killed).  Needs root, haproxy, pgbouncer,
# redis-server and PostgreSQL's binaries; never touches the machine's own
# PostgreSQL, Redis or network.
#
# Environment: CLUSTER_BENCH_SECONDS (12), CLUSTER_BENCH_ROUNDS (3),
# CLUSTER_BENCH_GAMES (12), CLUSTER_CHAOS_SECONDS (110), CLUSTER_KEEP=1 (keep
# the work dir with every log), CLUSTER_APP_ENV (settings lines added to the
# apps' environment), CLUSTER_PREFIX, CLUSTER_NET (lib.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"
# shellcheck source=deploy/cluster/lib.sh
. deploy/cluster/lib.sh

BENCH_SECONDS=${CLUSTER_BENCH_SECONDS:-12}
BENCH_ROUNDS=${CLUSTER_BENCH_ROUNDS:-3}
BENCH_GAMES=${CLUSTER_BENCH_GAMES:-12}
CHAOS_SECONDS=${CLUSTER_CHAOS_SECONDS:-110}

say() { echo "cluster: [${SECONDS}s] $*"; }
die() {
    say "FAILED: $*" >&2
    exit 1
}

[ "$(id -u)" = 0 ] || { echo "cluster: needs root (network namespaces)" >&2; exit 2; }
missing=""
for tool in haproxy pgbouncer redis-server setpriv; do
    command -v "$tool" >/dev/null || missing="$missing $tool"
done
PGBIN=$(find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || missing="$missing postgresql"
if [ -n "$missing" ]; then
    echo "cluster: missing:$missing (apt-get install -y haproxy pgbouncer redis-server postgresql)" >&2
    exit 2
fi
[ -x "$PY" ] || { echo "cluster: run make install first" >&2; exit 2; }

# One cluster test at a time with this prefix.
exec 9>"${TMPDIR:-/tmp}/$CLUSTER_PREFIX.lock"
flock -w 120 9 || { echo "cluster: another cluster test holds the lock" >&2; exit 1; }
cleanup_cluster # what a killed run may have left
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$CLUSTER_PREFIX.XXXXXX")
echo "$WORK" >"$POINTER"
chmod 755 "$WORK" # PostgreSQL and PgBouncer run as postgres
mkdir -p "$WORK"/{logs,pids,lb,db,redis,mail/out,app1,app2,client}
CHECKPOINTS=$WORK/checkpoints.jsonl # the one log both app hosts append to
STATUS=1

show_logs() {
    local log
    for log in "$WORK"/logs/*.log; do
        [ -s "$log" ] || continue
        echo "===== $(basename "$log") (last 40 lines) ====="
        tail -n 40 "$log"
    done
}
on_exit() {
    local code=$?
    set +e
    trap - EXIT INT TERM
    [ "$STATUS" = 0 ] || [ "$code" != 0 ] || code=1
    if [ "$code" != 0 ] && [ -d "$WORK/logs" ]; then
        echo "cluster: FAILED (exit $code); the last lines of every log follow" >&2
        show_logs >&2
    fi
    cleanup_cluster
    say "cleaned up: namespaces and processes removed$([ "${CLUSTER_KEEP:-}" = 1 ] || echo ', work dir too')"
    exit "$code"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

start() { # start HOST NAME COMMAND...: on HOST, in a session of its own
    local host=$1 name=$2
    shift 2
    # ip, setsid and the command replace one another: $! is the command's pid
    # and its process group (not a subshell's, as `on ... &` would give).
    ip netns exec "$(ns "$host")" setsid "$@" >>"$WORK/logs/$host.$name.log" 2>&1 </dev/null &
    echo $! >"$WORK/pids/$host.$name"
}
AS_POSTGRES=(setpriv --reuid=postgres --regid=postgres --init-groups)
wait_until() { # wait_until SECONDS WHAT COMMAND...
    local seconds=$1 what=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || die "$what not ready after ${seconds}s"
        sleep 0.3
    done
}
port_open() { on client timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2"; }
mark() { # a line of the timeline check.py reads
    printf '{"t": %s, "what": "%s"}\n' "$(date +%s.%N)" "$1" >>"$WORK/timeline.jsonl"
    say "$1"
}

# -- the database host: PostgreSQL, then PgBouncer ---------------------------
start_db() {
    local data=$WORK/db/data
    chown postgres: "$WORK/db"
    on db "${AS_POSTGRES[@]}" "$PGBIN/initdb" --pgdata="$data" --username=postgres --auth=trust \
        --encoding=UTF8 --locale=C --no-sync >"$WORK/logs/db.initdb.log" 2>&1
    cat >>"$data/postgresql.conf" <<EOF
listen_addresses = '$(addr db)'
port = 5432
unix_socket_directories = '$WORK/db'
max_connections = 100
shared_buffers = 64MB
timezone = 'UTC'
log_timezone = 'UTC'
EOF
    printf 'local all all trust\nhost all all %s.0/24 trust\n' "$CLUSTER_NET" >"$data/pg_hba.conf"
    start db postgres "${AS_POSTGRES[@]}" "$PGBIN/postgres" -D "$data"
    wait_until 60 "PostgreSQL" on db "$PGBIN/pg_isready" -q -h "$(addr db)" -p 5432 -U postgres
    on db "$PGBIN/psql" -q -h "$(addr db)" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE correo LOGIN" -c "CREATE DATABASE correo OWNER correo"
    sed -e "s|@NET@|$CLUSTER_NET|g" -e "s|@WORK@|$WORK|g" deploy/cluster/pgbouncer.ini \
        >"$WORK/db/pgbouncer.ini"
    printf '"correo" ""\n"postgres" ""\n' >"$WORK/db/userlist.txt"
    chown postgres: "$WORK/db/pgbouncer.ini" "$WORK/db/userlist.txt"
    start db pgbouncer "${AS_POSTGRES[@]}" pgbouncer "$WORK/db/pgbouncer.ini"
    wait_until 30 "PgBouncer" on db "$PGBIN/psql" -q -h "$(addr db)" -p 6432 -U correo \
        -d correo -c "SELECT 1"
}

start_redis() {
    start redis redis redis-server --bind "$(addr redis)" --port 6379 --save '' \
        --appendonly no --protected-mode no --dir "$WORK/redis"
    wait_until 30 "Redis" port_open "$(addr redis)" 6379
}

# -- the app hosts: the Procfile's processes with the environment below -------
write_app_env() {
    local key host
    key=$("$PY" -c 'import secrets; print(secrets.token_hex(32))')
    # Behind PgBouncer in transaction mode (docs/scaling.md): no server-side
    # cursors, no prepared statements (PgBouncer 1.18); connect and TCP
    # timeouts so that a request on a host cut off from the database ends
    # as a 503 within seconds instead of hanging on a silent socket.
    # Mail pacing in seconds, not minutes: a "your turn" held back behind
    # the last mail about its game (ten minutes by default) or while its
    # reader's page is open stays pending past the wait for an idle
    # cluster, which would then report a mail never sent.
    cat >"$WORK/app.env" <<EOF
DATABASE_URL='postgres://correo@$(addr db):6432/correo?connect_timeout=3&tcp_user_timeout=5000&keepalives_idle=5&keepalives_interval=2&keepalives_count=2'
DB_SERVER_SIDE_CURSORS=0
DB_PREPARED_STATEMENTS=0
REDIS_URL=redis://$(addr redis):6379/0
DJANGO_DEBUG=0
SECRET_KEY=cluster-$key
CHAIN_KEY=$("$PY" -c 'import secrets; print(secrets.token_hex(32))')
ALLOWED_HOSTS=correo.cluster.test
CORREO_BASE_URL=http://correo.cluster.test
CORREO_TRUSTED_PROXIES=1
FORWARDED_ALLOW_IPS=$(addr lb)
WEB_WORKERS=2
WORKER_CONCURRENCY=1
WEBHOOK_CONCURRENCY=1
SMTPD_PORT=2525
EMAIL_URL=smtp://$(addr mail):25
DEFAULT_FROM_EMAIL='Correo <correo@cluster.test>'
REPLY_DOMAIN=play.cluster.test
CORREO_EXTRA_ENGINES=tests.support.duel:DUEL
CORREO_SWEEP_INTERVAL=3
CORREO_BOT_PACE_SECONDS=1
NOTIFICATIONS_SWEEP_INTERVAL=10
NOTIFICATIONS_SWEEP_GRACE=10
NOTIFICATIONS_RETRY_BASE=5
CORREO_COALESCE_SECONDS=5
CORREO_PRESENCE_SECONDS=5
CHECKPOINT_LOG=$CHECKPOINTS
CHECKPOINT_INTERVAL=15
NOTIFICATIONS_CLAIM_LEASE=60
NOTIFICATIONS_MARK_RETRY_SECONDS=30
NOTIFICATIONS_BOARD_IMAGE=0
NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE=1
CORREO_WEBHOOK_DEADLINE_SECONDS=5
THROTTLE_AUTH=100000/min
THROTTLE_USER=1000000/min
THROTTLE_ANON=1000000/min
LOG_LEVEL=INFO
LOG_FORMAT=json
EOF
    # CLUSTER_APP_ENV: lines to add (later ones win), to see what a setting does
    # here, e.g. CLUSTER_APP_ENV=DB_SERVER_SIDE_CURSORS=1.
    [ -z "${CLUSTER_APP_ENV:-}" ] || printf '%s\n' "$CLUSTER_APP_ENV" >>"$WORK/app.env"
    for host in app1 app2; do
        mkdir -p "$WORK/$host/var" "$WORK/$host/metrics"
        cat >"$WORK/$host/host.env" <<EOF
GUNICORN_BIND=$(addr "$host"):8000
PUSH_BIND=$(addr "$host"):8001
SMTPD_HOST=$(addr "$host")
PROMETHEUS_MULTIPROC_DIR=$WORK/$host/metrics
CORREO_VAR_DIR=$WORK/$host/var
CELERY_BEAT_SCHEDULE_FILE=$WORK/$host/celerybeat-schedule
EOF
    done
}
app_run() { # app_run HOST COMMAND...: a command on HOST with the apps' environment
    local host=$1
    shift
    on "$host" bash -c "set -a; . '$WORK/app.env'; . '$WORK/$host/host.env'; set +a; exec \"\$@\"" \
        _ "$@"
}
# Each app process runs as deployed: under a supervisor that starts it again
# when it exits with a failure, 3 s later, as systemd's Restart=on-failure and
# RestartSec=3 do (deploy/systemd; compose and Kubernetes restart too).  The
# restarts are counted at the end.
# shellcheck disable=SC2016  # expanded by the supervisor's own bash
SUPERVISE='name=$1; shift
while :; do
    "$@"; code=$?
    [ "$code" = 0 ] && exit 0
    echo "cluster-supervisor: $name exited with status $code; restarting in 3 s" >&2
    sleep 3
done'
start_app() { # start_app HOST PROCESS...: those lines of the Procfile, as deployed
    local host=$1 line name
    shift
    [ "$*" = "web" ] || rm -f "$WORK/$host/metrics"/* # a host comes back with an empty tmpfs
    while IFS= read -r line; do
        case "$line" in '' | '#'*) continue ;; esac
        name=${line%%:*}
        [[ " $* " == *" $name "* ]] || continue
        start "$host" "$name" bash -c "$SUPERVISE" _ "$host.$name" bash -c \
            "set -a; . '$WORK/app.env'; . '$WORK/$host/host.env'; set +a; exec ${line#*:}"
    done <Procfile
}

# -- the balancer ----------------------------------------------------------
lb_cmd() {
    "$PY" - "$WORK/lb/admin.sock" "$1" <<'EOF'
import socket, sys
with socket.socket(socket.AF_UNIX) as s:
    s.settimeout(5)
    s.connect(sys.argv[1])
    s.sendall(sys.argv[2].encode() + b"\n")
    answer = b""
    while chunk := s.recv(65536):
        answer += chunk
print(answer.decode(), end="")
EOF
}
lb_state() { # lb_state BACKEND SERVER: UP, DOWN, MAINT... as HAProxy sees it
    lb_cmd "show stat" | awk -F, -v b="$1" -v s="$2" '$1 == b && $2 == s {print $18}'
}
lb_is() { [ "$(lb_state app "$1")" = "$2" ]; }
in_rotation() { lb_is "$1" UP && [ "$(lb_state smtpd "$1")" = UP ]; }

# -- up --------------------------------------------------------------------
say "work dir $WORK; PostgreSQL from $PGBIN; $(haproxy -v | head -n 1 | cut -d' ' -f1-3); $(pgbouncer --version | head -n 1)"
net_up
say "network: ${HOSTS[*]} on $CLUSTER_NET.0/24 (a bridge in namespace $(ns sw))"
start_db
start_redis
start mail sink "$PY" deploy/smoke/sink.py --host "$(addr mail)" --port 25 --dir "$WORK/mail/out"
start mail hooks "$PY" deploy/cluster/hooks.py --host "$(addr mail)" --port 8080 \
    --out "$WORK/mail/hooks.jsonl"
write_app_env
say "database, PgBouncer, Redis and the mail host are up; migrating through PgBouncer"
app_run app1 timeout 300 "$PY" manage.py migrate --noinput >"$WORK/logs/app1.migrate.log" 2>&1 ||
    die "migrate failed"
start_app app1 web worker webhooks smtpd beat push
start_app app2 web worker webhooks smtpd push
sed -e "s|@NET@|$CLUSTER_NET|g" -e "s|@WORK@|$WORK|g" deploy/cluster/haproxy.cfg >"$WORK/lb/haproxy.cfg"
start lb haproxy haproxy -f "$WORK/lb/haproxy.cfg" -db
wait_until 30 "the mail host" port_open "$(addr mail)" 25
both_in_rotation() { in_rotation app1 && in_rotation app2; }
wait_until 180 "app1 and app2 in the balancer's rotation" both_in_rotation
say "both app hosts pass the balancer's health checks (/healthz, SMTP)"

if [ -n "${CLUSTER_HOLD:-}" ]; then
    touch "$WORK/hold"
    say "holding (CLUSTER_HOLD): rm $WORK/hold to go on"
    while [ -e "$WORK/hold" ]; do sleep 1; done
fi

CLIENT_ARGS=(--lb "$(addr lb)" --mail-host "$(addr mail)" --maildir "$WORK/mail/out"
    --log "$WORK/client/moves.jsonl")
play() { on client timeout "$1" "$PY" deploy/cluster/play.py "${@:2}" "${CLIENT_ARGS[@]}"; }

# -- 1. throughput: one app host, then two ----------------------------------
freeze_app2() {
    lb_cmd "set server app/app2 state maint" >/dev/null
    lb_cmd "set server smtpd/app2 state maint" >/dev/null
    # shellcheck disable=SC2046  # one word per pid
    kill -STOP $(host_pids app2)
}
thaw_app2() {
    # shellcheck disable=SC2046
    kill -CONT $(host_pids app2)
    lb_cmd "set server app/app2 state ready" >/dev/null
    lb_cmd "set server smtpd/app2 state ready" >/dev/null
    wait_until 60 "app2 back in rotation" in_rotation app2
}
bench_run() { # bench_run HOSTS: one timed phase, its line appended to bench.jsonl
    local line
    line=$(play $((BENCH_SECONDS + 120)) bench --state "$WORK/client/bench.json" \
        --seconds "$BENCH_SECONDS") || die "the bench client failed: $line"
    line=$(tail -n 1 <<<"$line")
    echo "{\"hosts\": $1, ${line#\{}" >>"$WORK/client/bench.jsonl"
    say "throughput with $1 app host(s): $line"
}
play 300 setup --state "$WORK/client/bench.json" --games "$BENCH_GAMES" >/dev/null ||
    die "setting up the bench games failed"
for round in $(seq "$BENCH_ROUNDS"); do
    # Alternate the order, so that neither always runs on a warmer cache.
    if [ $((round % 2)) = 1 ]; then
        freeze_app2 && bench_run 1 && thaw_app2 && bench_run 2
    else
        bench_run 2 && freeze_app2 && bench_run 1 && thaw_app2
    fi
done

# -- 2. chaos -----------------------------------------------------------------
gate() { # the release gate, through PgBouncer while the players play
    app_run app1 timeout 120 "$PY" manage.py verify_games --status active --read-only \
        >>"$WORK/logs/app1.gate.log" 2>&1
}
mark "chaos starts: ${CHAOS_SECONDS}s of play while hosts fail"
play $((CHAOS_SECONDS + 240)) chaos --seconds "$CHAOS_SECONDS" >"$WORK/logs/client.chaos.log" 2>&1 &
CLIENT=$!
sleep 12
mark "kill app1 $(addr app1) (every process, SIGKILL, beat included)"
kill_host app1
wait_until 10 "the balancer to take app1 out" lb_is app1 DOWN
say "the balancer took app1 out"
sleep 10
mark "app1 comes back"
start_app app1 web worker webhooks smtpd beat push
wait_until 90 "app1 back in rotation" in_rotation app1
gate &
GATE=$!
sleep 5
# One way: app2's packets still reach the database host, whose answers are
# lost.  To app2 it is silence (its connects time out, its statements get
# no answer), and a statement it sent can still commit unheard: the move
# the client is never told of, until its retry meets the 409.
mark "partition app2 $(addr app2) from db (db's answers dropped)"
cut_off app2 db
wait_until 30 "the balancer to take app2 out (its /healthz is 503)" lb_is app2 DOWN
say "the balancer took app2 out"
sleep 12
mark "heal app2 and db"
reconnect app2 db
wait_until 60 "app2 back in rotation" in_rotation app2
wait "$GATE" || die "the release gate failed through PgBouncer during play (logs/app1.gate.log)"
say "the release gate passed through PgBouncer during play"
sleep 5
mark "kill redis $(addr redis)"
kill_host redis
sleep 5
mark "redis restarts, empty"
start_redis
sleep 8
mark "kill app2's web $(addr app2) (gunicorn, SIGKILL)"
kill -KILL -- "-$(cat "$WORK/pids/app2.web")"
wait_until 10 "the balancer to take app2 out" lb_is app2 DOWN
say "the balancer took app2 out; app1 serves alone"
sleep 10
mark "app2's web comes back"
start_app app2 web
wait_until 60 "app2 back in rotation" in_rotation app2
wait "$CLIENT" || { tail -n 5 "$WORK/logs/client.chaos.log"; die "the players failed"; }
say "players: $(tail -n 1 "$WORK/logs/client.chaos.log")"

# -- 3. checks ----------------------------------------------------------------
app_run app1 timeout 200 "$PY" deploy/cluster/check.py --work "$WORK" --wait-quiet 180 ||
    die "the cluster did not become idle"
app_run app1 timeout 300 "$PY" manage.py verify_games >"$WORK/logs/app1.verify.log" 2>&1 ||
    die "verify_games found problems: $(tail -n 5 "$WORK/logs/app1.verify.log")"
say "verify_games: $(tail -n 1 "$WORK/logs/app1.verify.log")"
gate || die "the release gate failed at the end"
app_run app1 timeout 120 "$PY" deploy/cluster/check.py --work "$WORK" || die "checks failed"

# -- 4. a history cut short ----------------------------------------------------
# Someone with the table owner's rights cuts the newest events off a game the
# checkpoint log (written by both app hosts) has published, and moves its row
# back: every hash and seal of what is left holds.  verify_games must name
# that game, and no other, from the log.
found=$WORK/logs/app1.verify-cut.log
cut=$(app_run app1 timeout 60 "$PY" deploy/cluster/truncate.py "$CHECKPOINTS" 2>&1) ||
    die "could not cut a game short: $cut"
say "forger: $cut"
game=$(tail -n 1 <<<"$cut" | cut -d' ' -f2) # its last line: "game N cut back to seq S"
if app_run app1 timeout 300 "$PY" manage.py verify_games --checkpoints "$CHECKPOINTS" >"$found" 2>&1; then
    die "verify_games found nothing wrong after game $game was cut short"
fi
grep -q "^game $game (.*): checkpoints in .*events were cut off" "$found" ||
    die "verify_games did not report game $game from the checkpoints: $(tail -n 5 "$found")"
others=$(grep "^game " "$found" | grep -v "^game $game " || true)
[ -z "$others" ] || die "verify_games reported other games too: $others"
say "verify_games --checkpoints: $(grep -c "^game $game " "$found") problem(s), all of game $game;" \
    "$(wc -l <"$CHECKPOINTS") checkpoints in the log"

alive() { # a process that exited stays a zombie until reaped: not alive
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state:0:1}" != Z ]
}
for pidfile in "$WORK"/pids/*; do # the restarted ones have new pid files
    alive "$(cat "$pidfile")" || die "$(basename "$pidfile") died during the run"
done
restarts=$(grep -h "^cluster-supervisor:" "$WORK"/logs/*.log || true)
if [ -n "$restarts" ]; then
    say "processes that exited with a failure and were started again by their supervisor:"
    while IFS= read -r line; do
        name=$(cut -d' ' -f2 <<<"$line")
        # The last line the process logged at CRITICAL level before it exited: why.
        why=$(grep -h '"level": "CRITICAL"' "$WORK/logs/$name.log" | tail -n 1 | "$PY" -c \
            'import json, sys; print(json.loads(sys.stdin.read() or "{}").get("message", "?"))')
        say "  ${line#cluster-supervisor: } ($why)"
    done <<<"$restarts"
fi

STATUS=0
say "OK in ${SECONDS}s"
