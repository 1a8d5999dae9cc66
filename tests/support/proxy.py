"""The nginx site of deploy/nginx, run for real in front of a test's gunicorn.

The files are the deployed ones; only what must differ on a test machine is
replaced (ports, certificate, log and snippet paths), and every replacement
must find its text, so a change to the site that this would quietly miss
fails here instead.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import IN_CI
from tests.notifications.conftest import free_port
from tests.support.server import Answer
from tests.support.waiting import wait_until

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def nginx_binary() -> str:
    """nginx (with openssl for a certificate); without them the test skips,
    or fails under CI=true (.ci/run installs Debian's nginx-light)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found and shutil.which("openssl"):
        return found
    message = "needs nginx and openssl: apt-get install nginx-light openssl"
    if IN_CI:
        pytest.fail(f"CI=true but {message} (.ci/run installs them)")
    pytest.skip(message)


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=correo.example.org", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _replace(text: str, old: str, new: str) -> str:
    assert old in text, f"deploy/nginx/correo.conf no longer has {old!r}"
    return text.replace(old, new)


@dataclass
class Proxy:
    public: int  # the public HTTPS server
    internal: int  # the admin's loopback server
    log: Path

    def call(self, method: str, path: str, *, port: int | None = None,
             headers: dict | None = None, body=None) -> Answer:  # fmt: skip
        """One request over TLS, as a client on the internet would send it."""
        data = None
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        client = http.client.HTTPSConnection(
            "127.0.0.1", port or self.public, timeout=30, context=context
        )
        started = time.monotonic()
        try:
            client.request(method, path, body=data, headers=sent)
            response = client.getresponse()
            raw = response.read()
        finally:
            client.close()
        kind = response.getheader("Content-Type", "")
        parsed = json.loads(raw) if raw and kind.startswith("application/json") else None
        return Answer(response.status, parsed, dict(response.getheaders()),
                      time.monotonic() - started)  # fmt: skip


@contextlib.contextmanager
def nginx_in_front(folder: Path, upstream: int):
    """deploy/nginx/correo.conf serving on free loopback ports and proxying
    to the gunicorn on `upstream`; stopped on exit."""
    binary = nginx_binary()
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)  # the worker processes may run as another user
    cert, key = certificate(folder)
    public, internal, plain = free_port(), free_port(), free_port()
    site = (DEPLOY / "nginx" / "correo.conf").read_text()
    for old, new in [
        ("server 127.0.0.1:8000 ", f"server 127.0.0.1:{upstream} "),
        ("    listen 80;\n", f"    listen 127.0.0.1:{plain};\n"),
        ("    listen [::]:80;\n", ""),
        ("    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{public} ssl http2;\n"),
        ("    listen [::]:443 ssl http2;\n", ""),
        ("listen 127.0.0.1:8443 ssl", f"listen 127.0.0.1:{internal} ssl"),
        ("/etc/letsencrypt/live/correo.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/correo.example.org/privkey.pem", str(key)),
        ("/etc/nginx/snippets/correo-proxy.conf", str(DEPLOY / "nginx" / "correo-proxy.conf")),
        ("/var/log/nginx/", f"{folder}/"),
    ]:
        site = _replace(site, old, new)
    (folder / "site.conf").write_text(site)
    temp = folder / "temp"
    temp.mkdir(exist_ok=True)
    temp.chmod(0o777)
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nevents {{}}\n"
        f"http {{\n access_log off;\n"
        f" client_body_temp_path {temp}/body;\n proxy_temp_path {temp}/proxy;\n"
        f" fastcgi_temp_path {temp}/fastcgi;\n uwsgi_temp_path {temp}/uwsgi;\n"
        f" scgi_temp_path {temp}/scgi;\n"
        f" include {folder}/site.conf;\n}}\n"
    )
    log = folder / "nginx.out"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
            stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ},
        )  # fmt: skip
    proxy = Proxy(public, internal, folder / "error.log")
    try:
        wait_until(lambda: _listening(public) or process.poll() is not None, timeout=15)
        assert process.poll() is None, log.read_text()
        yield proxy
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _listening(port: int) -> bool:
    import socket

    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False
