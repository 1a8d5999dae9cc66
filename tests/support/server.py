"""The web process as deployed (gunicorn, deploy/gunicorn.conf.py) on the
test database, with an environment of the test's choosing.

Settings are read once, at import: a process of its own is the honest way to
run the API against, say, a Redis address that the test controls.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from django.db import connection

from tests.notifications.conftest import free_port
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Answer:
    status: int
    body: dict | None
    headers: dict[str, str]
    seconds: float


class WebServer:
    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log

    def call(self, method: str, path: str, token: str | None = None, body=None) -> Answer:
        headers = {"Host": "127.0.0.1"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        started = time.monotonic()
        client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            client.request(method, path, body=data, headers=headers)
            response = client.getresponse()
            raw = response.read()
        finally:
            client.close()
        seconds = time.monotonic() - started
        kind = response.getheader("Content-Type", "")
        parsed = json.loads(raw) if raw and kind.startswith("application/json") else None
        return Answer(response.status, parsed, dict(response.getheaders()), seconds)

    def text(self, path: str) -> str:
        client = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            client.request("GET", path)
            return client.getresponse().read().decode()
        finally:
            client.close()

    def log_lines(self) -> list[dict]:
        lines = []
        for line in self.log.read_text().splitlines():
            with contextlib.suppress(ValueError):
                lines.append(json.loads(line))
        return lines


@contextlib.contextmanager
def web_server(folder: Path, *, push: bool = False, wsgi: str = "config.wsgi", **env: str):
    """One sync gunicorn worker serving the test database with `env` on top
    of this process's environment; stopped on exit.  `push`: the push
    process's kind of worker instead (uvicorn's, on config.asgi), which
    serves the pages' streams (and, here, everything else too).  `wsgi`:
    the application gunicorn serves, when a test wraps the deployed one."""
    db = connection.settings_dict
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    environment.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_WORKERS="1",
        CORREO_EXTRA_ENGINES="tests.support.duel:DUEL",
        LOG_FORMAT="json",
    )
    environment.update(env)
    log = folder / "web.log"
    app = ["config.asgi", "--worker-class", "uvicorn_worker.UvicornWorker"] if push else [wsgi]
    command = [sys.executable, "-m", "gunicorn", *app, "--config", "deploy/gunicorn.conf.py"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=sink, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    server = WebServer(port, log)
    try:
        wait_until(lambda: _answers(server) or process.poll() is not None, timeout=30)
        assert process.poll() is None, log.read_text()
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _answers(server: WebServer) -> bool:
    try:
        return server.call("GET", "/api/ping/").status == 200
    except OSError:
        return False
