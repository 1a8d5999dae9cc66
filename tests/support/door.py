"""A TCP port in front of a real service (Redis) that a test can shut, open or jam.

- shut: nothing listens on the port (connection refused) and every
  connection through it is cut, as when the service is down;
- open: connections are passed through to the service;
- jammed: connections are accepted and never answered, as when the service
  hangs or a firewall swallows the packets.

A process configured with the door's address (`redis://127.0.0.1:<port>/N`)
keeps it from the start, so the test can take the service away from that
process alone and give it back, without touching the service itself.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from urllib.parse import urlsplit

from django.conf import settings

from tests.notifications.conftest import free_port


class Door:
    def __init__(self, target: tuple[str, int], port: int | None = None) -> None:
        self.target = target
        self.port = port or free_port()
        self.state = "shut"
        self._listener: socket.socket | None = None
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()

    def open(self) -> None:
        self._listen("open")

    def jam(self) -> None:
        self._listen("jammed")

    def shut(self) -> None:
        with self._lock:
            self.state = "shut"
            listener, self._listener = self._listener, None
            cut, self._sockets = self._sockets, set()
        if listener is not None:
            self._acceptor.join()  # it notices within its accept timeout
            listener.close()
        for sock in cut:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _listen(self, state: str) -> None:
        self.shut()
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.05)
        with self._lock:
            self.state, self._listener = state, listener
        self._acceptor = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._acceptor.start()

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                if self._listener is not listener:
                    client.close()
                    return
                self._sockets.add(client)
                state = self.state
            if state == "open":
                threading.Thread(target=self._pass, args=(client,), daemon=True).start()
            # jammed: the connection is held open and never read

    def _pass(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        with self._lock:
            self._sockets.add(upstream)
        other = {client: upstream, upstream: client}
        with selectors.DefaultSelector() as selector:
            for sock in other:
                selector.register(sock, selectors.EVENT_READ)
            try:
                while client in self._sockets:
                    for key, _ in selector.select(timeout=0.1):
                        data = key.fileobj.recv(65536)
                        if not data:
                            return
                        other[key.fileobj].sendall(data)
            except OSError:
                return
            finally:
                for sock in other:
                    sock.close()


def redis_door() -> Door:
    """A door to the Redis the tests are configured with (REDIS_URL), shut."""
    server = urlsplit(settings.REDIS_URL)
    return Door((server.hostname, server.port or 6379))


def through(door: Door) -> str:
    """REDIS_URL for a process that reaches Redis only through the door."""
    return f"redis://127.0.0.1:{door.port}{urlsplit(settings.REDIS_URL).path}"
