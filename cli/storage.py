"""Where `ekonos play` keeps games: the data folder, the autosave, finished games' records, an
unfinished game kept aside, and saving to a file the person names.

No terminal here: every problem is a `StorageError` whose message names the path and says
exactly what is wrong, for the caller to show.  Writes are atomic (a temporary file in the same
folder, then a rename), like `ekonos.save_file`: a reader sees the old file or the new one.

The data folder is $EKONOS_DATA_DIR, else $XDG_DATA_HOME/ekonos, else ~/.local/share/ekonos;
it holds `autosave.json`, `unfinished-<time>.json` (a game moved aside so a new one never
overwrites it) and `games/` (one record per finished game).  A game in progress owns its
autosave (`claim_autosave`: a lock file `.autosave.json.lock` beside it), so a second program
never moves a live game aside; it may start beside it in `autosave-2.json`, ...
"""
from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime
from pathlib import Path

from ekonos.errors import EkonosError
from ekonos.files import FileError, read_json_file, write_atomic
from ekonos.locks import LOCKS_WORK, FileLock, LockHeld, owner_text

#: A record file is a few KB (two positions and the decisions between them); refuse to read
#: more than this, so a wrong path (`/dev/zero`, a video) fails fast instead of filling memory.
MAX_RECORD_BYTES = 1 << 20


class StorageError(EkonosError):
    """A file or folder that cannot be read or written; the message says which and why."""


class TargetExists(StorageError):
    """The file to save to exists: overwrite it only after the person confirms."""

    def __init__(self, path: Path):
        super().__init__(f"{path} already exists")
        self.path = path


# ---------------------------------------------------------------------------------------------
# Places

def data_dir() -> Path:
    """$EKONOS_DATA_DIR, else $XDG_DATA_HOME/ekonos, else ~/.local/share/ekonos."""
    env = os.environ.get("EKONOS_DATA_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "ekonos"


def autosave_path() -> Path:
    """The file every decision of the current game is saved to."""
    return data_dir() / "autosave.json"


def games_dir() -> Path:
    """The folder of finished games' records."""
    return data_dir() / "games"


def game_record_path(seed: int | None, folder: Path | None = None,
                     when: datetime | None = None) -> Path:
    """A new file name for a finished game: games/game-<time>-seed<seed>.json (never taken)."""
    folder = games_dir() if folder is None else Path(folder)
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = folder / f"game-{stamp}-seed{seed}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"game-{stamp}-seed{seed}-{n}.json"
    return path


# ---------------------------------------------------------------------------------------------
# Checks (no writes)

def _why(e: OSError) -> str:
    return e.strerror or str(e)


def check_target(path: str | os.PathLike, *, overwrite: bool = False) -> Path:
    """The file `path` can be written without creating a folder: its folder exists (and every
    part of it is a folder), it is not itself a folder, and it does not exist unless
    `overwrite`.  Returns the path (with ~ expanded); StorageError, or TargetExists, otherwise."""
    if "\0" in os.fspath(path):
        raise StorageError(f"{os.fspath(path)!r} is not a usable file name (it holds a NUL "
                           "character)")
    path = Path(path).expanduser()
    if path.name in ("", ".", ".."):
        raise StorageError(f"{path} is a folder, not a file name")
    try:
        is_dir, folder_ok = path.is_dir(), path.parent.is_dir()
        exists = path.exists() or path.is_symlink()
    except OSError as e:                    # a name too long, a permission on a parent, ...
        raise StorageError(f"{path}: {_why(e)}") from None
    if is_dir:
        raise StorageError(f"{path} is a folder, not a file")
    if not folder_ok:
        raise StorageError(_missing_folder(path.parent))
    if exists and not overwrite:
        raise TargetExists(path)
    return path


def _missing_folder(folder: Path) -> str:
    """Why `folder` (which is not a folder) cannot hold a file: the first part of it that is a
    file, or the first part that does not exist."""
    parts = [folder, *folder.parents]
    for i, p in enumerate(parts):
        if p.exists():
            if not p.is_dir():
                return f"{p} is not a folder"
            missing = parts[i - 1] if i > 0 else folder
            return f"there is no folder {missing} (create it first, or save elsewhere)"
    return f"there is no folder {folder}"


def check_writable(path: Path) -> str | None:
    """Can `path` (the autosave) be written?  Creates its folder (the program's own data folder)
    and tries a temporary file there.  None when it can, else why not, naming the folder."""
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".ekonos-check.", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except (FileExistsError, NotADirectoryError):
        return _not_a_folder(folder)
    except OSError as e:
        return f"cannot write in {folder}: {_why(e)}"
    if Path(path).is_dir():
        return f"{path} is a folder, not a file"
    return None


def _not_a_folder(folder: Path) -> str:
    """Why the data folder `folder` cannot be made: a part of it is a file (or a device)."""
    env = os.environ.get("EKONOS_DATA_DIR")
    if env and Path(env).expanduser() == folder and folder.exists():
        return f"EKONOS_DATA_DIR={env} is not a folder"
    return _missing_folder(folder)


# ---------------------------------------------------------------------------------------------
# Writing and reading

def write_json(path: str | os.PathLike, data: dict, *, overwrite: bool = False,
               make_dirs: bool = False) -> Path:
    """Write `data` as JSON to `path` atomically.  `make_dirs` creates missing folders (only for
    the program's own data folder); otherwise a missing folder is an error.  An existing file
    is replaced only with `overwrite`.  StorageError (nothing written) on any problem."""
    path = Path(path).expanduser()
    if make_dirs:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StorageError(_not_a_folder(path.parent)) from None
        except OSError as e:
            raise StorageError(f"cannot create the folder {path.parent}: {_why(e)}") from None
    path = check_target(path, overwrite=overwrite)
    try:
        write_atomic(path, json.dumps(data, indent=2) + "\n")
    except OSError as e:
        if not os.access(path.parent, os.W_OK):
            raise StorageError(f"cannot write in {path.parent}: {_why(e)}") from None
        raise StorageError(f"{path}: {_why(e)}") from None
    return path


def read_json(path: str | os.PathLike) -> object:
    """The decoded JSON of a file (a regular file of at most MAX_RECORD_BYTES: a FIFO or a
    device is refused at once), or StorageError saying why it cannot be read."""
    path = Path(path).expanduser()
    try:
        return read_json_file(path, MAX_RECORD_BYTES, "saved game")
    except FileError as e:
        raise StorageError(str(e)) from None


# ---------------------------------------------------------------------------------------------
# One writer per autosave

class AutosaveBusy(StorageError):
    """Another process is playing the game of this autosave (`owner`: its pid, since when)."""

    def __init__(self, path: Path, owner: dict):
        super().__init__(f"a game is in progress in {path}: {owner_text(owner)}")
        self.path = Path(path)
        self.owner = owner


def claim_autosave(path: str | os.PathLike, what: str = "ekonos") -> FileLock | None:
    """Own the autosave `path` for the game of this process (an advisory lock on
    `.autosave.json.lock` beside it, held until released or the process ends): AutosaveBusy
    when another process owns it.  None when the lock file cannot be made (a folder that cannot
    be written: nothing can be saved there either, and `check_writable` says why) or this
    platform has no file locks."""
    if not LOCKS_WORK:
        return None
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return FileLock(path, what).acquire()
    except LockHeld as e:
        raise AutosaveBusy(Path(path), e.owner) from None
    except OSError:
        return None


def own_autosave(path: Path, loading: str | os.PathLike | None, what: str) \
        -> tuple[FileLock | None, Path | None]:
    """`claim_autosave`, then `keep_unfinished` (only a game no process plays is moved aside):
    the claim and the kept game's path."""
    claim = claim_autosave(path, what)
    try:
        return claim, keep_unfinished(path, loading)
    except StorageError:
        if claim is not None:
            claim.release()
        raise


def beside_paths(auto: str | os.PathLike):
    """The autosaves of games started beside a running one: autosave-2.json, -3, ..."""
    auto = Path(auto)
    n = 2
    while True:
        yield auto.with_name(f"{auto.stem}-{n}{auto.suffix}")
        n += 1


# ---------------------------------------------------------------------------------------------
# Never lose an unfinished game

def keep_unfinished(auto: str | os.PathLike, loading: str | os.PathLike | None = None) \
        -> Path | None:
    """Before a game starts writing the autosave `auto`: if it holds another, unfinished game,
    move that game aside (unfinished-<time>.json beside it) so it is never overwritten.  Nothing
    moves when `auto` is the file being loaded, or holds a finished game.  Returns the new path
    of the kept game, or None."""
    auto = Path(auto)
    if not auto.is_file():
        return None
    if loading is not None:
        try:
            if os.path.samefile(auto, loading):
                return None
        except OSError:
            pass
    try:
        data = read_json(auto)
        if isinstance(data, dict) and data.get("step") == "over":
            return None
    except StorageError:
        pass                                   # unreadable: keep it too, rather than lose it
    stamp = datetime.fromtimestamp(auto.stat().st_mtime).strftime("%Y%m%d-%H%M%S")
    kept = auto.with_name(f"unfinished-{stamp}.json")
    n = 1
    while kept.exists():
        n += 1
        kept = auto.with_name(f"unfinished-{stamp}-{n}.json")
    try:
        os.replace(auto, kept)
    except OSError as e:
        raise StorageError(f"{auto} holds an unfinished game and could not be moved aside "
                           f"({_why(e)}); resume it with --load, or move it") from None
    return kept
