"""One webhook POST that can neither be steered into our own network nor
hold a worker past its deadline.

- **Resolve once, connect to what was checked.**  The name is resolved once;
  every address it gave must be public (`address_allowed`), and the
  connection goes to those very addresses, never to a second resolution.
  Otherwise a name whose server answers a public address to the check and
  127.0.0.1 to the connect (DNS rebinding) would carry the POST inside.  The
  name still goes where it belongs: in the Host header, as TLS SNI and as
  the name the certificate must carry.
- **No redirects.**  A 3xx is a failure: its Location was never checked, and
  a redirected POST loses its body anyway.
- **One deadline for everything** (`CORREO_WEBHOOK_DEADLINE_SECONDS`):
  resolving, connecting, the TLS handshake, sending and the answer.  A
  socket timeout is per operation, so a target that drips a byte every few
  seconds never trips it; here every operation gets only the time left, and
  a watchdog shuts the socket down when the deadline passes, whatever the
  operation in progress.  Only the status line and headers are read: the
  answer's body says nothing we use.

The standard library's http.client does the HTTP; what it lacks is two
hooks below (the socket it connects, the time each operation gets), not a
client of our own.  urllib3 (here through requests) could pin an address
too, but neither it nor any other client at hand has a deadline over the
whole exchange, which is the other half of the job.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass

from django.conf import settings

# IPv6 prefixes that carry an IPv4 address a gateway may translate into:
# NAT64 (RFC 6052's well-known prefix and RFC 8215's local-use one).
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


@dataclass(frozen=True)
class Outcome:
    ok: bool
    detail: str  # "HTTP 204", or what went wrong, for the log and the owner
    address: str | None = None  # where the POST went (None: nowhere)


class Refused(Exception):
    """The URL may not be posted to; nothing was sent."""


def address_allowed(address: str | ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A globally reachable unicast address, and, for IPv6, none that carries
    an IPv4 address that is not one (IPv4-mapped and -compatible, 6to4,
    NAT64): a gateway could turn `64:ff9b::a9fe:a9fe` into 169.254.169.254."""
    if isinstance(address, str):
        address = ipaddress.ip_address(address.split("%", 1)[0])
    if not address.is_global or address.is_multicast:
        return False
    if address.version == 6:
        inner = _carried_ipv4(address)
        if inner is not None:
            return address_allowed(inner)
        if address.teredo is not None:
            return False  # a tunnel to an address we cannot judge
    return True


def _carried_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if any(address in network for network in NAT64) or int(address) >> 32 == 0:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)  # NAT64, IPv4-compatible
    return None


def post(url: str, body: bytes, *, allow_private: bool | None = None) -> Outcome:
    """POST `body` (JSON) to `url`; never raises, never follows a redirect,
    never outlasts the deadline."""
    if allow_private is None:
        allow_private = settings.NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE
    deadline = _Deadline(settings.CORREO_WEBHOOK_DEADLINE_SECONDS)
    connection = None
    try:
        scheme, host, port, target = _parts(url)
        addresses = _resolve(host, port, deadline)
        if not allow_private:
            for _family, sockaddr in addresses:
                if not address_allowed(sockaddr[0]):
                    raise Refused(f"{host} resolves to {sockaddr[0]}, not a public address")
        connection = _Pinned(host, port, addresses, deadline, tls=scheme == "https")
        deadline.watch(connection)
        connection.request("POST", target, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "Correo",
        })  # fmt: skip
        response = connection.getresponse()
        status = response.status
        location = response.getheader("Location")
        if deadline.over():
            # The watchdog cut the answer short: http.client takes an end of
            # input among the headers for their end, so what it read is not
            # an answer.
            raise TimeoutError("deadline")
    except Refused as error:
        return Outcome(False, str(error))
    except Exception as error:  # anything the target or the network does is its failure
        return Outcome(False, _failure(error, deadline, connection), _address(connection))
    finally:
        deadline.finish()
        if connection is not None:
            connection.close()
    address = connection.connected_to
    if 200 <= status < 300:
        return Outcome(True, f"HTTP {status}", address)
    if 300 <= status < 400:
        return Outcome(False, f"HTTP {status}: redirect to {location} not followed", address)
    return Outcome(False, f"HTTP {status} from {address}", address)


def _parts(url: str) -> tuple[str, str, int, str]:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("not an http or https URL")
    try:
        # the ASCII form (IDNA) is what DNS, SNI and the Host header carry
        host = parts.hostname.encode("idna").decode("ascii")
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except (UnicodeError, ValueError) as error:
        raise Refused(f"not a usable host or port: {error}") from None
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return parts.scheme, host, port, target


def _resolve(host: str, port: int, deadline: _Deadline) -> list[tuple[int, tuple]]:
    """Every (family, sockaddr) the name has, resolved once, within the
    deadline (the resolver has no deadline of its own: it runs in a thread
    left behind if it is late)."""
    answer: dict = {}

    def lookup() -> None:
        try:
            answer["infos"] = socket.getaddrinfo(
                host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
            )
        except (OSError, UnicodeError) as error:
            answer["error"] = error

    resolver = threading.Thread(target=lookup, name="webhook-resolve", daemon=True)
    resolver.start()
    resolver.join(deadline.left())
    if resolver.is_alive():
        raise TimeoutError(f"resolving {host} took longer than the deadline")
    if "error" in answer:
        raise Refused(f"{host} does not resolve: {answer['error']}")
    addresses = [(info[0], info[4]) for info in answer["infos"]]
    if not addresses:
        raise Refused(f"{host} has no address")
    return addresses


class _Pinned(http.client.HTTPConnection):
    """An HTTP(S) connection to `host` that connects only to `addresses` (the
    checked ones) and gives each operation only the time the deadline has left."""

    def __init__(self, host, port, addresses, deadline: _Deadline, *, tls: bool) -> None:
        super().__init__(host, port, timeout=deadline.left())
        self.addresses, self.deadline, self.tls = addresses, deadline, tls
        self.connected_to: str | None = None
        self.connected = False
        self._create_connection = self._connect_pinned  # http.client's hook for the socket

    def _connect_pinned(self, _address, _timeout, source_address=None) -> socket.socket:
        error: OSError | None = None
        for family, sockaddr in self.addresses:
            self.connected_to = sockaddr[0]  # tried, then connected: the failure names it
            sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
            try:
                sock.settimeout(self.deadline.left())
                sock.connect(sockaddr)
            except OSError as failed:
                sock.close()
                error = failed
                if self.deadline.over():
                    break
                continue
            self.connected = True
            return sock
        raise error or OSError("no address to connect to")

    def connect(self) -> None:
        super().connect()  # TCP, to a pinned address
        if self.tls:
            # The handshake names the host (SNI) and checks the certificate
            # against it, not against the address connected to.
            context = ssl.create_default_context()
            self.sock = context.wrap_socket(
                self.sock, server_hostname=self.host, do_handshake_on_connect=False
            )
            self.sock.settimeout(self.deadline.left())
            self.sock.do_handshake()  # self.sock is set: the watchdog can cut it
        self.sock.settimeout(self.deadline.left())

    def send(self, data) -> None:
        if self.sock is not None:  # else http.client's send connects first
            self.sock.settimeout(self.deadline.left())
        super().send(data)


class _Deadline:
    """The time a POST has; at its end a watchdog shuts the connection's
    socket down, which ends a read or write in progress at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._connection: _Pinned | None = None
        self._done = False
        self._expired = False
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def left(self) -> float:
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("deadline")
        return remaining

    def over(self) -> bool:
        return self._expired or time.monotonic() >= self.at

    def watch(self, connection: _Pinned) -> None:
        with self._lock:
            self._connection = connection

    def finish(self) -> None:
        """The POST is over: the watchdog must not touch a socket after this
        (its descriptor may be another connection's by then)."""
        with self._lock:
            self._done = True
        self._timer.cancel()

    def _expire(self) -> None:
        with self._lock:
            if self._done:
                return
            self._expired = True
            if self._connection is None:
                return
            sock = self._connection.sock
            if sock is None:
                return
            # The plain socket's shutdown, also for a TLS socket: it wakes
            # the blocked call without touching TLS state.
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _address(connection: _Pinned | None) -> str | None:
    return connection.connected_to if connection is not None else None


def _failure(error: Exception, deadline: _Deadline, connection: _Pinned | None) -> str:
    where = _address(connection)
    to = f" ({where})" if where else ""
    if deadline.over() or (isinstance(error, TimeoutError) and str(error) == "deadline"):
        return f"no complete answer within the deadline of {deadline.seconds:g}s{to}"
    if connection is not None and not connection.connected and isinstance(error, OSError):
        return f"could not connect to {where}: {error.strerror or error}"
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS certificate refused{to}: {error.verify_message}"
    return f"{type(error).__name__}{to}: {error}"
