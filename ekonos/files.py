"""Files on disk: the one bounded reader every input goes through (regular files only, a size
cap per file type), position files as text (JSON decoding that never escapes as a traceback),
and atomic saves.  What the decoded data must say is `ekonos/position.py`.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path

from ekonos.errors import EkonosError, PositionError
from ekonos.position import quote_value, state_from_dict

#: The largest position file read (bytes; for `State.from_json`, characters).  A real position is
#: a few KB, a game saved by `ekonos play` with its record some tens of KB.
MAX_FILE_BYTES = 1 << 20


class FileError(EkonosError):
    """An input file that cannot be read as one: missing, not a regular file, too large, not
    UTF-8 or not JSON.  The message is one sentence naming the file."""


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n} bytes ({n >> shift} {unit})"
    return f"{n} bytes"


def _a(what: str) -> str:
    """`what` with its article: "a ladder file", "an `arena --json` result"."""
    return ("an " if what.lstrip("`")[:1].lower() in "aeio" else "a ") + what


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bounded(path: str | os.PathLike, max_bytes: int, what: str, *,
                 text: bool = False) -> bytes | str:
    """The bytes (`text`: the UTF-8 text, a BOM dropped) of the regular file `path`, of at most
    `max_bytes`; `what` names the file type in messages ("ladder file").  A FIFO, a device, a
    socket or a directory is refused at once: the path is checked with stat before it is
    opened, and opened non-blocking and checked again on the descriptor, so nothing blocks.
    FileError, one sentence naming the file, on any problem."""
    try:
        shown = os.fspath(path)
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            try:
                st = os.fstat(fd)
                mode = st.st_mode
                chunks, got = [], 0
                while stat.S_ISREG(mode) and got <= max_bytes:
                    chunk = os.read(fd, min(1 << 20, max_bytes + 1 - got))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    got += len(chunk)
            finally:
                os.close(fd)
    except FileNotFoundError:
        raise FileError(f"{shown}: no such file ({_a(what)} was expected)") from None
    except NotADirectoryError:
        raise FileError(f"{shown}: no such file (a part of the path is not a folder)") from None
    except PermissionError:
        raise FileError(f"{shown}: cannot read the {what} (permission denied)") from None
    except OSError as e:
        raise FileError(f"{shown}: cannot read the {what} ({e.strerror or e})") from None
    except (ValueError, TypeError) as e:          # a NUL byte in the name, a wrong type
        raise FileError(f"{quote_value(str(path), 80)}: not a usable file name ({e})") from None
    if not stat.S_ISREG(mode):
        raise FileError(f"{shown}: {_kind(mode)}, not {_a(what)}; give a regular file")
    raw = b"".join(chunks)
    if len(raw) > max_bytes:
        raise FileError(f"{shown}: larger than {_size(max_bytes)}, too large for {_a(what)}")
    if not text:
        return raw
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FileError(f"{shown}: not UTF-8 text (byte {e.start}), not {_a(what)}") from None


def decode_json(text: str, where: str, what: str) -> object:
    """JSON text decoded, or FileError naming `where` (the file) for anything json refuses:
    bad syntax, nesting too deep, an integer too long for Python, a number out of range."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileError(f"{where}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno}),"
                        f" not {_a(what)}") from None
    except RecursionError:
        raise FileError(f"{where}: not {_a(what)} (JSON nested too deeply)") from None
    except ValueError as e:            # an integer longer than Python's digit limit
        reason = "a number is too long" if "digits" in str(e) else quote_value(str(e), 60)
        raise FileError(f"{where}: not {_a(what)} ({reason})") from None


def read_json_file(path: str | os.PathLike, max_bytes: int, what: str) -> object:
    """A JSON file read with `read_bounded` and decoded with `decode_json`."""
    return decode_json(read_bounded(path, max_bytes, what, text=True), os.fspath(path), what)


def save_file(st, path: str | os.PathLike) -> None:
    """Write the position atomically: a reader sees the old file or the new one, never a mix."""
    write_atomic(path, st.to_json(indent=2) + "\n")


def write_atomic(path: str | os.PathLike, text: str | bytes) -> None:
    """Write `text` (UTF-8; bytes as they are) to `path` atomically: a temporary file beside
    it, synced, then renamed over it.  A regular file replaced keeps its mode; a new one gets
    the umask's default (0644 under the usual umask 022).  Through a symbolic link the file it
    points to is replaced (the link stays); a target that exists and is not a regular file (a
    device, a FIFO, a folder) is refused (IsADirectoryError or OSError EINVAL), never replaced.
    On any failure the temporary file is removed and the OSError raised (its filename is
    `path`, not the temporary file); `path` is untouched."""
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
        binary = isinstance(text, (bytes, bytearray))
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as fh:
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
    """Read and decode a position file (`read_bounded`: a regular file of at most
    MAX_FILE_BYTES, so a FIFO, a device or a huge file is refused at once)."""
    try:
        text = read_bounded(path, MAX_FILE_BYTES, "position file", text=True)
    except FileError as e:
        raise PositionError("", str(e)) from None
    return load_text(cls, text)
