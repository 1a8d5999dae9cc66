#!/bin/sh
# Every container starts with an empty Prometheus directory for its processes.
set -e
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
    rm -rf "$PROMETHEUS_MULTIPROC_DIR"
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
fi
exec "$@"
