#!/usr/bin/env bash
# Removes everything a cluster test left: the processes in its namespaces,
# the namespaces, the work dir.  run.sh calls it on every exit; `make
# cluster-test` calls it again after a run its timeout had to kill.
set -uo pipefail
# shellcheck source=deploy/cluster/lib.sh
. "$(dirname "$0")/lib.sh"
cleanup_cluster
