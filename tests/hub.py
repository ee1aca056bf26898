"""A 127.0.0.1 stand-in for the Hugging Face Hub, enough for `evaluate.load("org/name")`
and for huggingface_hub's `create_repo(repo_type="space")` and `upload_folder` of small
files.

Reading: GET and HEAD of /spaces/<org>/<name>/resolve/main/<file> answer the file with an
ETag, from spaces/<name>/ for the stand-in's own org and from what was pushed for any
other; anything else (such as evaluate's first try at the release tag v0.4.6) is a 404, as
for a Space without that tag.

Writing, the routes huggingface_hub 2.x calls: POST /api/validate-yaml (a README's header
must parse, and a Space's name its sdk); POST /api/repos/create (409 when the repo
exists, which `exist_ok=True` accepts); GET /api/spaces/<org>/<name>/tree/main (the file
list `delete_patterns` needs); POST .../preupload/main (every file "regular": its content
travels base64 in the commit); POST .../commit/main (ndjson: a header line, then "file"
and "deletedFile" lines). Pushed files are kept in `pushed/<org>/<name>/`, a temporary
folder. LFS and Xet uploads are not supported: a commit asking for one is a 400.
"""

import base64
import hashlib
import http.server
import json
import re
import shutil
import tempfile
import threading
from pathlib import Path

import yaml

RESOLVE = re.compile(r"^/spaces/(?P<org>[^/]+)/(?P<name>[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>[^?]+)")
SPACE_API = re.compile(r"^/api/spaces/(?P<org>[^/]+)/(?P<name>[^/]+)/(?P<action>tree|preupload|commit)/main(?:[/?]|$)")


class HubStandIn:
    def __init__(self, spaces_dir, org="paperscore"):
        self.spaces_dir = Path(spaces_dir)
        self.org = org
        self.requests = []
        self.pushed = Path(tempfile.mkdtemp(prefix="hub-pushed-"))
        self.created = {}  # (org, name) -> the create_repo payload
        self.commits = []  # (org, name, summary, paths added, paths deleted)
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status, body=b"", content_type="application/json"):
                if isinstance(body, (dict, list)):
                    body = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                if status == 200 and content_type == "application/octet-stream":
                    self.send_header("ETag", f'"{hashlib.sha256(body).hexdigest()}"')
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def _file(self):
                match = RESOLVE.match(self.path)
                if not match or match["rev"] != "main" or ".." in match["file"]:
                    return None
                if match["org"] == stand_in.org:
                    path = stand_in.spaces_dir / match["name"] / match["file"]
                else:
                    path = stand_in.repo(match["org"], match["name"]) / match["file"]
                return path if path.is_file() else None

            def do_GET(self):
                stand_in.requests.append((self.command, self.path))
                api = SPACE_API.match(self.path)
                if api and api["action"] == "tree":
                    return self._send(*stand_in.tree(api["org"], api["name"]))
                path = self._file()
                if path is None:
                    return self._send(404)
                self._send(200, path.read_bytes(), "application/octet-stream")

            do_HEAD = do_GET

            def do_POST(self):
                stand_in.requests.append((self.command, self.path))
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path.split("?")[0] == "/api/repos/create":
                    return self._send(*stand_in.create(json.loads(body)))
                if self.path.split("?")[0] == "/api/validate-yaml":
                    return self._send(*stand_in.validate_yaml(json.loads(body)))
                api = SPACE_API.match(self.path)
                if api and api["action"] == "preupload":
                    return self._send(*stand_in.preupload(api["org"], api["name"], json.loads(body)))
                if api and api["action"] == "commit":
                    lines = [json.loads(line) for line in body.splitlines() if line.strip()]
                    return self._send(*stand_in.commit(api["org"], api["name"], lines))
                self._send(404)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.lock = threading.Lock()
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def repo(self, org, name):
        return self.pushed / org / name

    def create(self, payload):
        org, name = payload.get("organization"), payload.get("name")
        if not org or not name or payload.get("type") != "space" or not payload.get("sdk"):
            return 400, {"error": f"expected a space with an organization, a name and an sdk, got {payload}"}
        url = f"{self.url}/spaces/{org}/{name}"
        with self.lock:
            if (org, name) in self.created:
                return 409, {"error": "You already created this space repo", "url": url}
            self.created[(org, name)] = payload
            self.repo(org, name).mkdir(parents=True)
        return 200, {"url": url, "name": f"{org}/{name}"}

    def validate_yaml(self, payload):
        """The README's YAML header: present, a mapping, and for a Space naming its sdk."""
        match = re.match(r"^---\n(.*?)\n---\n", payload.get("content", ""), re.S)
        try:
            header = yaml.safe_load(match[1]) if match else None
        except yaml.YAMLError as error:
            header, problem = None, str(error)
        else:
            problem = "no YAML header" if not isinstance(header, dict) else None
        if problem is None and payload.get("repoType") == "space" and "sdk" not in header:
            problem = "a Space's header names its sdk"
        if problem:
            return 400, {"errors": [{"message": problem}], "warnings": []}
        return 200, {"errors": [], "warnings": []}

    def tree(self, org, name):
        if (org, name) not in self.created:
            return 404, {"error": "Repository not found"}
        root = self.repo(org, name)
        files = sorted(p for p in root.rglob("*") if p.is_file())
        return 200, [
            {"type": "file", "path": p.relative_to(root).as_posix(), "size": p.stat().st_size,
             "oid": hashlib.sha1(p.read_bytes()).hexdigest()}
            for p in files
        ]

    def preupload(self, org, name, payload):
        if (org, name) not in self.created:
            return 404, {"error": "Repository not found"}
        files = [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in payload["files"]]
        return 200, {"files": files, "commitOid": "0" * 40}

    def commit(self, org, name, lines):
        if (org, name) not in self.created:
            return 404, {"error": "Repository not found"}
        if not lines or lines[0].get("key") != "header":
            return 400, {"error": "the commit payload starts with a header line"}
        root, added, deleted = self.repo(org, name), [], []
        with self.lock:
            for line in lines[1:]:
                value = line["value"]
                target = (root / value["path"]).resolve()
                if root.resolve() not in target.parents:
                    return 400, {"error": f"path outside the repository: {value['path']}"}
                if line["key"] == "file" and value.get("encoding") == "base64":
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(base64.b64decode(value["content"]))
                    added.append(value["path"])
                elif line["key"] == "deletedFile":
                    target.unlink(missing_ok=True)
                    deleted.append(value["path"])
                elif line["key"] == "deletedFolder":
                    shutil.rmtree(target, ignore_errors=True)
                    deleted.append(value["path"])
                else:
                    return 400, {"error": f"not supported by the stand-in: {line['key']}"}
            self.commits.append((org, name, lines[0]["value"]["summary"], added, deleted))
            oid = hashlib.sha1(repr(self.commits).encode()).hexdigest()
        return 200, {"commitUrl": f"{self.url}/spaces/{org}/{name}/commit/{oid}", "commitOid": oid}

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        shutil.rmtree(self.pushed, ignore_errors=True)
