"""A minimal scripted LSP client for the tests and the latency bench: frames
JSON-RPC messages with Content-Length, reads the server's replies and
notifications with a deadline."""
import json
import os
import select
import subprocess
import time


class LspClient:
    def __init__(self, binary, cwd=None):
        self.proc = subprocess.Popen([binary, "--lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
        self.buf = b""
        self.next_id = 1
        self.pending = []  # messages read but not yet asked for

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return rid

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _read_one(self, deadline):
        while True:
            sep = self.buf.find(b"\r\n\r\n")
            if sep >= 0:
                headers = self.buf[:sep].decode().split("\r\n")
                n = [int(h.split(":", 1)[1]) for h in headers
                     if h.lower().startswith("content-length:")][0]
                if len(self.buf) >= sep + 4 + n:
                    body = self.buf[sep + 4:sep + 4 + n]
                    self.buf = self.buf[sep + 4 + n:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.proc.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def wait_for(self, pred, timeout=60.0):
        """The first message (pending or new) for which pred is true, or None."""
        for i, m in enumerate(self.pending):
            if pred(m):
                return self.pending.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            m = self._read_one(deadline)
            if m is None:
                return None
            if pred(m):
                return m
            self.pending.append(m)

    def response(self, rid, timeout=60.0):
        return self.wait_for(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def diagnostics(self, uri, timeout=60.0):
        m = self.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri, timeout)
        return None if m is None else m["params"]["diagnostics"]


def uri_of(path):
    return "file://" + os.path.abspath(path)
