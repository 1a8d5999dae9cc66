# shellcheck shell=bash
# The cluster test's hosts: Linux network namespaces on one machine, each with
# an address of its own on a bridge that lives in a namespace of its own too
# (the "switch"), so nothing of it touches the machine's own network: no
# address, route or interface is added outside these namespaces, and traffic
# only flows between them.  Sourced by run.sh, cleanup.sh and the tests.
#
# CLUSTER_PREFIX names everything (namespaces "<prefix>-<host>", the work dir
# pointer "/tmp/<prefix>.work"); a second prefix is a second, separate cluster.

CLUSTER_PREFIX=${CLUSTER_PREFIX:-correo-cl}
CLUSTER_NET=${CLUSTER_NET:-10.47.213}
HOSTS=(lb app1 app2 db redis mail client)
declare -A HOST_NUMBER=([lb]=10 [app1]=11 [app2]=12 [db]=20 [redis]=21 [mail]=30 [client]=40)
POINTER="${TMPDIR:-/tmp}/$CLUSTER_PREFIX.work"

ns() { echo "$CLUSTER_PREFIX-$1"; }
addr() { echo "$CLUSTER_NET.${HOST_NUMBER[$1]}"; }
on() {  # on HOST COMMAND...: run a command on a host (in its namespace)
    local host=$1
    shift
    ip netns exec "$(ns "$host")" "$@"
}

our_namespaces() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$CLUSTER_PREFIX-[a-z0-9]+$" || true
}

net_up() {
    local switch host
    switch=$(ns sw)
    ip netns add "$switch"
    ip -n "$switch" link set lo up
    ip -n "$switch" link add br0 type bridge
    ip -n "$switch" link set br0 up
    for host in "${HOSTS[@]}"; do
        ip netns add "$(ns "$host")"
        # The pair is made inside the switch; its far end goes straight to the host.
        ip -n "$switch" link add "p-$host" type veth peer name eth0 netns "$(ns "$host")"
        ip -n "$switch" link set "p-$host" master br0 up
        ip -n "$(ns "$host")" link set lo up
        ip -n "$(ns "$host")" addr add "$(addr "$host")/24" dev eth0
        ip -n "$(ns "$host")" link set eth0 up
    done
}

# A partition seen from HOST: PEER drops everything it would send to HOST
# (a blackhole route on PEER), so HOST meets silence, as behind a broken
# link: its connections to PEER time out, its open ones get no answer.  What
# HOST sends still arrives (a statement can commit that HOST never hears
# of).  Everyone else reaches both.
cut_off() { on "$2" ip route add blackhole "$(addr "$1")/32"; }
reconnect() { on "$2" ip route del blackhole "$(addr "$1")/32" 2>/dev/null || true; }

host_pids() { ip netns pids "$(ns "$1")" 2>/dev/null || true; }

kill_host() {  # kill_host HOST: every process on it, at once and for good
    local pids
    pids=$(host_pids "$1")
    # shellcheck disable=SC2086  # one word per pid
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
}

# Everything of this prefix: the processes in its namespaces (politely, then
# for good), the namespaces (their interfaces go with them) and the work dir.
# Safe to run any number of times, with or without a cluster up.
cleanup_cluster() {
    local spaces space pids work
    spaces=$(our_namespaces)
    for space in $spaces; do
        pids=$(ip netns pids "$space" 2>/dev/null || true)
        # shellcheck disable=SC2086
        [ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
    done
    for _ in $(seq 50); do
        pids=""
        for space in $spaces; do pids="$pids$(ip netns pids "$space" 2>/dev/null || true)"; done
        [ -n "$pids" ] || break
        sleep 0.1
    done
    for space in $spaces; do
        pids=$(ip netns pids "$space" 2>/dev/null || true)
        # shellcheck disable=SC2086
        [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
    done
    for space in $spaces; do
        for _ in $(seq 30); do
            [ -z "$(ip netns pids "$space" 2>/dev/null || true)" ] && break
            sleep 0.1
        done
        ip netns del "$space" 2>/dev/null || true
    done
    if [ -f "$POINTER" ]; then
        work=$(cat "$POINTER")
        case "$work" in
            "${TMPDIR:-/tmp}/$CLUSTER_PREFIX".*)
                if [ "${CLUSTER_KEEP:-}" = 1 ]; then
                    echo "cluster: kept $work"
                else
                    rm -rf "$work"
                fi
                ;;
        esac
        rm -f "$POINTER"
    fi
}
