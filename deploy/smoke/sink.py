"""An SMTP sink for the smoke test: every message it receives becomes a file.

`python deploy/smoke/sink.py --port N --dir DIR` writes DIR/<n>.eml (written
to a temporary name, then renamed, so a reader never sees half a message) with
an `X-Smoke-Envelope-To` header naming the envelope recipients, and
`X-Smoke-Peer` (the sending host's address) and `X-Smoke-Received` (Unix
time) for the cluster test, which tells which host sent a mail and when.
Runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import threading
import time
from pathlib import Path

from aiosmtpd.controller import Controller


class FileSink:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.numbers = itertools.count(1)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        header = (
            f"X-Smoke-Envelope-To: {', '.join(envelope.rcpt_tos)}\r\n"
            f"X-Smoke-Peer: {session.peer[0]}\r\n"
            f"X-Smoke-Received: {time.time():.3f}\r\n"
        ).encode()
        with self.lock:
            number = next(self.numbers)
        partial = self.folder / f".{number:06d}.tmp"
        partial.write_bytes(header + raw)
        os.replace(partial, self.folder / f"{number:06d}.eml")
        return "250 OK"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", type=Path, required=True)
    options = parser.parse_args()
    options.dir.mkdir(parents=True, exist_ok=True)
    controller = Controller(FileSink(options.dir), hostname=options.host, port=options.port)
    controller.start()
    print(f"sink listening on {options.host}:{options.port}, writing {options.dir}", flush=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
