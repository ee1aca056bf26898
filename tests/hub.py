"""A 127.0.0.1 stand-in for the Hugging Face Hub's Space file route, enough for
`evaluate.load("org/name")`: GET and HEAD of /spaces/<org>/<name>/resolve/main/<file>
answer the file from spaces/<name>/ with an ETag; anything else (such as evaluate's first
try at the release tag v0.4.6) is a 404, as for a Space without that tag."""

import hashlib
import http.server
import re
import threading
from pathlib import Path

ROUTE = re.compile(r"^/spaces/(?P<org>[^/]+)/(?P<name>[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>[^?]+)")


class HubStandIn:
    def __init__(self, spaces_dir, org="paperscore"):
        self.spaces_dir = Path(spaces_dir)
        self.org = org
        self.requests = []
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, with_body):
                stand_in.requests.append((self.command, self.path))
                match = ROUTE.match(self.path)
                path = None
                if match and match["org"] == stand_in.org and match["rev"] == "main":
                    path = stand_in.spaces_dir / match["name"] / match["file"]
                if path is None or not path.is_file() or ".." in match["file"]:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = path.read_bytes()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("ETag", f'"{hashlib.sha256(body).hexdigest()}"')
                self.end_headers()
                if with_body:
                    self.wfile.write(body)

            def do_GET(self):
                self._answer(True)

            def do_HEAD(self):
                self._answer(False)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
