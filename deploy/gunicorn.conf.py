"""gunicorn settings; every value can be overridden from the environment.

Logs are JSON lines (ops/logging.py); the access line is written by
Django's RequestContextMiddleware (with request id and game id), so
gunicorn's own access log is off unless GUNICORN_ACCESSLOG names a target.
"""

import os

bind = os.environ.get("GUNICORN_BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_WORKERS", "2"))
# Sync workers serve the pages and the API (they measured faster than ASGI
# workers for them: bench_api).  The push process (Procfile `push`) runs
# this same file with uvicorn's ASGI workers on config.asgi, where a page
# holding its server-push stream open is a coroutine waiting, not a worker.
worker_class = os.environ.get("WEB_WORKER_CLASS", "sync")
# For sync workers only: more than one thread makes gthread workers, which
# overlap requests waiting on a distant database.  Each thread keeps its own
# connection: mind max_connections.
threads = int(os.environ.get("WEB_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
# Behind nginx: keep-alive only needs to outlast the proxy's reuse of a connection.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Recycle workers now and then (jitter avoids all of them restarting together).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = 500
# Bounded request line and headers: oversized requests are refused early.
limit_request_line = 8190
limit_request_fields = 100
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()

if os.environ.get("LOG_FORMAT", "json") == "json":
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "ops.logging.ContextFilter"}},
        "formatters": {"json": {"()": "ops.logging.JsonFormatter"}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["context"],
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "gunicorn.error": {
                "handlers": ["console"],
                "level": loglevel.upper(),
                "propagate": False,
            },
            # Django's correo.access line already records each request.
            "gunicorn.access": {
                "handlers": ["console"] if accesslog else [],
                "level": "INFO" if accesslog else "CRITICAL",
                "propagate": False,
            },
        },
    }


def child_exit(server, worker):
    """A worker died or was recycled: its live Prometheus gauges go with it."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker):
    """Every title imported before the worker's first request, not by it
    (games.engines.registry.warm): otherwise the first move of a title after
    each start or recycle (GUNICORN_MAX_REQUESTS) waited for its import."""
    from games.engines import registry

    registry.warm()
