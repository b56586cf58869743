"""The page and its files, as the server sends them, built for a quick first paint.

* **The page** (`Assets.page(boot)`): static/index.html with the board's layout and the position
  now inside it, as a JSON block (`<script type="application/json" id="boot">`, data the CSP
  lets through since it is never run), so board.js draws the board as soon as it runs, with no
  request of its own; the page itself is never cached (it holds the person's hand).
* **The files** (`Assets.file(name, request)`): the other files of static/, read once into
  memory (no thread, no disk read per request), each linked from the page with its content's
  hash (`/static/board.js?v=3f1c…`): a hashed URL is cached by the browser for good (a changed
  file is a new URL), a bare one is revalidated by its ETag.

The page's security headers (Content-Security-Policy etc.) are the guard's, as for every answer.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

STATIC = Path(__file__).parent / "static"
TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png"}
BOOT_MARK = "<!--boot-->"
FOREVER = "public, max-age=31536000, immutable"


class Assets:
    """The page template and the static files of `folder`, read once."""

    def __init__(self, folder: Path = STATIC):
        self.files: dict[str, tuple[bytes, str, str]] = {}     # name -> (body, type, hash)
        for path in sorted(folder.iterdir()):
            if path.suffix in TYPES and path.is_file():
                body = path.read_bytes()
                self.files[path.name] = (body, TYPES[path.suffix],
                                         hashlib.sha256(body).hexdigest()[:16])
        template = (folder / "index.html").read_text(encoding="utf-8")
        if BOOT_MARK not in template:
            raise ValueError(f"{folder / 'index.html'} has no {BOOT_MARK} mark for the data")
        for name, (_, _, digest) in self.files.items():
            template = template.replace(f'"/static/{name}"', f'"/static/{name}?v={digest}"')
        self._head, self._tail = template.split(BOOT_MARK, 1)

    def page(self, boot: dict) -> Response:
        """index.html with `boot` (layout and state) inside; `<` is escaped in the JSON so no
        text of the data can close the block."""
        data = json.dumps(boot, separators=(",", ":")).replace("<", "\\u003c")
        html = f'{self._head}<script type="application/json" id="boot">{data}</script>{self._tail}'
        return Response(html, media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-store"})

    def file(self, name: str, request: Request) -> Response:
        """A static file: kept for good under its hashed URL, else revalidated (ETag)."""
        found = self.files.get(name)
        if found is None:
            return JSONResponse({"error": f"no such file: {name}"}, status_code=404)
        body, media_type, digest = found
        etag = f'"{digest}"'
        cache = FOREVER if request.query_params.get("v") == digest else "no-cache"
        headers = {"etag": etag, "cache-control": cache}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=media_type, headers=headers)
