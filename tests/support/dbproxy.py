"""A TCP proxy in front of PostgreSQL that a test can cut and restore.

A process given `proxy.database_url()` reaches the test database only through
it.  `cut()` drops every connection (both ends closed at once) and refuses new
ones (accepted and closed straight away, as a database that went away would);
`restore()` lets connections through again.  The real server is never touched.
"""

from __future__ import annotations

import contextlib
import socket
import threading

from django.db import connection


class DatabaseProxy:
    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = threading.Event()
        self.open.set()
        self.closed = False
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @classmethod
    def for_test_database(cls) -> DatabaseProxy:
        db = connection.settings_dict
        return cls(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))

    def database_url(self) -> str:
        db = connection.settings_dict
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        return f"postgres://{db['USER']}{password}@127.0.0.1:{self.port}/{db['NAME']}"

    def cut(self) -> None:
        self.open.clear()
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                _close(end)

    def restore(self) -> None:
        self.open.set()

    def close(self) -> None:
        self.closed = True
        self.cut()
        _close(self.listener)
        self.thread.join(timeout=5)

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open.is_set():
                _close(client)
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            server.settimeout(None)
            with self.lock:
                self.pairs.append((client, server))
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            target.sendall(chunk)
    except OSError:
        pass
    _close(source)
    _close(target)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
