"""Position files on disk and as text: a size cap, JSON decoding that never escapes as a
traceback, and atomic saves.  What the decoded data must say is `ekonos/position.py`.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path

from ekonos.errors import PositionError
from ekonos.position import quote_value, state_from_dict

#: The largest position file read (bytes; for `State.from_json`, characters).  A real position is
#: a few KB, a game saved by `ekonos play` with its record some tens of KB.
MAX_FILE_BYTES = 1 << 20


def save_file(st, path: str | os.PathLike) -> None:
    """Write the position atomically: a reader sees the old file or the new one, never a mix."""
    write_atomic(path, st.to_json(indent=2) + "\n")


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically: a temporary file beside it, synced, then
    renamed over it.  A regular file replaced keeps its mode; a new one gets the umask's
    default (0644 under the usual umask 022).  Through a symbolic link the file it points to is
    replaced (the link stays); a target that exists and is not a regular file (a device, a
    FIFO, a folder) is refused (IsADirectoryError or OSError EINVAL), never replaced.  On any
    failure the temporary file is removed and the OSError raised (its filename is `path`, not
    the temporary file); `path` is untouched."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        st = target.stat()
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
        raise OSError(errno.EINVAL, "not a regular file (a device, a FIFO or a socket); "
                      "write to a file", str(path))
    if st is not None:
        mode = st.st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        if isinstance(e, OSError) and e.filename != str(path):
            raise OSError(e.errno, e.strerror or str(e), str(path)) from None
        raise


def load_text(cls, text: str | bytes):
    """Decode a position from JSON text (PositionError for anything but a possible position)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise PositionError("", "not UTF-8 text") from None
    if not isinstance(text, str):
        raise PositionError("", f"a position is JSON text, got {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES:
        raise PositionError("", f"{len(text)} characters; a position is at most "
                            f"{MAX_FILE_BYTES} (1 MiB)")
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as e:
        raise PositionError("", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") \
            from None
    except PositionError:
        raise
    except RecursionError:
        raise PositionError("", "not valid JSON for a position: nested too deeply") from None
    except ValueError as e:        # e.g. an integer longer than Python's digit limit
        reason = "a number is too long" if "digits" in str(e) else quote_value(str(e), 60)
        raise PositionError("", f"not valid JSON for a position: {reason}") from None
    return state_from_dict(cls, data)


def _object(pairs: list) -> dict:
    """json object hook: a key given twice is refused (JSON would keep the last silently)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise PositionError("", f"the key {quote_value(key)} appears twice in one object")
    return obj


def load_file(cls, path: str | os.PathLike):
    """Read and decode a position file; at most MAX_FILE_BYTES are read, so a device or a huge
    file is refused at once."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise PositionError("", f"{path}: no such file") from None
    except IsADirectoryError:
        raise PositionError("", f"{path}: is a directory") from None
    except OSError as e:
        raise PositionError("", f"{path}: {e.strerror}") from None
    except ValueError as e:        # a path with a NUL byte
        raise PositionError("", f"{quote_value(str(path))}: {e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise PositionError("", f"{path}: larger than {MAX_FILE_BYTES} bytes (1 MiB); a "
                            "position file is a few KB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PositionError("", f"{path}: not UTF-8 text") from None
    return load_text(cls, text)
