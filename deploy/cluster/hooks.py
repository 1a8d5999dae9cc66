"""The mail host's webhook receiver: every POST it is sent becomes one JSON line.

`python deploy/cluster/hooks.py --host H --port N --out FILE` appends
`{"received": unix time, "peer": sender's address, "body": the JSON posted}`
to FILE for each POST, flushed at once, and answers 204.  The cluster test's
check compares these lines with the outbox's webhook notices.  Runs until
SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import json
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            posted = json.loads(body)
        except ValueError:
            posted = {"unreadable": body[:200].decode("latin-1")}
        line = {"received": round(time.time(), 3), "peer": self.client_address[0], "body": posted}
        with self.server.lock:
            self.server.out.write(json.dumps(line) + "\n")
            self.server.out.flush()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    server = ThreadingHTTPServer((options.host, options.port), Receiver)
    server.lock = threading.Lock()
    server.out = open(options.out, "a", encoding="utf-8")  # noqa: SIM115 - open while serving
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"hooks listening on {options.host}:{options.port}, writing {options.out}", flush=True)
    server.serve_forever()
    server.out.close()


if __name__ == "__main__":
    main()
