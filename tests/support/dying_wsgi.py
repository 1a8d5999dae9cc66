"""The deployed WSGI application (config.wsgi), except that its process is
killed once a move's answer has been written and before the server closes
the response: what a web process that dies between a move's commit and the
publish of its mail leaves behind (gunicorn starts a new worker after it).

Serve it with `tests.support.server.web_server(..., wsgi="tests.support.dying_wsgi")`.
"""

from __future__ import annotations

import os
import signal

from config.wsgi import application as deployed


def application(environ, start_response):
    response = deployed(environ, start_response)
    move = environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/actions/")
    return _KilledOnClose(response) if move else response


class _KilledOnClose:
    """The server iterates the body, writes it, then calls close(): the
    moment Django would run the response's closers (the publish)."""

    def __init__(self, response) -> None:
        self.response = response

    def __iter__(self):
        return iter(self.response)

    def close(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)
