"""Webhook targets for the tests: real HTTP listeners on loopback, one that
drips its answer, one behind TLS, and the two stand-ins for what cannot run
here (a resolver whose answers change between calls, and the internet).

Each listener records what reached it, so a test can say that nothing did.
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class Seen:
    """One request that reached a listener."""

    def __init__(self, method: str, path: str, headers, body: bytes) -> None:
        self.method, self.path, self.headers, self.body = method, path, headers, body

    def json(self) -> dict:
        return json.loads(self.body)


class _Answer(BaseHTTPRequestHandler):
    """Records every request and answers `server.status` (with `server.location`
    as Location for a redirect)."""

    protocol_version = "HTTP/1.1"

    def _record(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self.server.seen.append(Seen(self.command, self.path, self.headers, body))
        self.send_response(self.server.status)
        if self.server.location:
            self.send_header("Location", self.server.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_HEAD = _record

    def log_message(self, *args):
        pass


class _Listener(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, family, *, status: int, location: str | None) -> None:
        self.address_family = family
        self.seen: list[Seen] = []
        self.status, self.location = status, location
        super().__init__(address, _Answer)

    def server_bind(self):
        if self.address_family == socket.AF_INET6:
            # dual stack: 127.0.0.1, ::1 and ::ffff:127.0.0.1 all reach it
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        super().server_bind()

    @property
    def port(self) -> int:
        return self.server_address[1]


def ipv6_available() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@contextlib.contextmanager
def listening(
    status: int = 204, *, location: str | None = None, every_address: bool = False,
    tls: ssl.SSLContext | None = None,
) -> Iterator[_Listener]:  # fmt: skip
    """A real HTTP listener on loopback (`every_address`: on the unspecified
    address, dual stack where IPv6 exists, so that 0.0.0.0, ::, ::1 and
    ::ffff:127.0.0.1 reach it too) answering `status` to every request."""
    if every_address and ipv6_available():
        address, family = ("::", 0), socket.AF_INET6
    elif every_address:
        address, family = ("0.0.0.0", 0), socket.AF_INET
    else:
        address, family = ("127.0.0.1", 0), socket.AF_INET
    server = _Listener(address, family, status=status, location=location)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class Drip:
    """A loopback target that takes the POST whole, then answers one byte
    every `every` seconds, up to `seconds` in all: what a hostile or broken
    webhook does to hold a worker.  `held` has how long each connection was
    kept open by the client."""

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nok\r\n"

    def __init__(self, every: float = 0.25, seconds: float = 20.0, where: str = "status") -> None:
        self.every, self.seconds, self.where = every, seconds, where
        self.requests: list[bytes] = []
        self.held: list[float] = []
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=32)
        self._stop = threading.Event()
        self.port = self._listener.getsockname()[1]

    def __enter__(self) -> Drip:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._listener.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        started = time.monotonic()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                request += chunk
            head, _, body = request.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)  # fmt: skip
            while len(body) < length:
                body += conn.recv(65536)
            self.requests.append(request)
            answer = self.ANSWER
            if self.where == "headers":  # the status line at once, then the drip
                conn.sendall(answer[:17])
                answer = answer[17:]
            try:
                for byte in answer:
                    if time.monotonic() - started > self.seconds or self._stop.is_set():
                        break
                    conn.sendall(bytes([byte]))
                    time.sleep(self.every)
                while time.monotonic() - started < self.seconds and not self._stop.is_set():
                    conn.sendall(b" ")  # keep dripping past the answer's end
                    time.sleep(self.every)
            except OSError:
                pass  # the client gave up: that is the point
            self.held.append(time.monotonic() - started)


class Rebinding:
    """A stand-in for DNS (which cannot be made to misbehave here): the name
    `host` resolves to `first` on the first call and to `then` on every later
    one, as a rebinding attacker's name server answers; every other name goes
    to the real resolver."""

    def __init__(self, real, host: str, first: str, then: str) -> None:
        self.real, self.host, self.first, self.then = real, host, first, then
        self.calls = 0

    def __call__(self, host, port, family=0, type=0, proto=0, flags=0):
        if host != self.host:
            return self.real(host, port, family, type, proto, flags)
        self.calls += 1
        answer = self.first if self.calls == 1 else self.then
        return self.real(answer, port, family, type, proto, flags)


class Internet:
    """A stand-in for the internet (which a test must not reach): a connect
    to a loopback address goes through, any other is recorded in `tried` and
    refused at once, before any packet leaves."""

    def __init__(self, real_connect) -> None:
        self.real_connect = real_connect
        self.tried: list[tuple] = []

    def connect(self, sock, address):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and (host in ("127.0.0.1", "::1", "localhost")
                                      or host.startswith("127.")):  # fmt: skip
            return self.real_connect(sock, address)
        self.tried.append(address)
        raise ConnectionRefusedError(111, "the test's internet refuses")


def make_certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for `name` (its own authority) and its key."""
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def tls_server_context(cert: Path, key: Path, sni_seen: list) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda sock, name, ctx: sni_seen.append(name)
    return context
