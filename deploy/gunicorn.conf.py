"""gunicorn settings; every value can be overridden from the environment."""

import os

bind = os.environ.get("GUNICORN_BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_WORKERS", "2"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# Bounded request line and headers: oversized requests are refused early.
limit_request_line = 8190
limit_request_fields = 100
accesslog = "-"
errorlog = "-"
