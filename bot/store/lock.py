"""The single-instance lock of an SQLite database, and the operator's one-line messages when a database cannot be opened."""

from __future__ import annotations

import os

from bot.store.rows import StoreOpenError

try:
    import fcntl
except ImportError:  # Windows: no flock; one instance per database is then the operator's care
    fcntl = None  # type: ignore[assignment]

# process-long lock and the bot's own Store.open in the same process share one flock.
_HELD_LOCKS: dict[str, list[int]] = {}


def acquire_instance_lock(db_path: str) -> str | None:
    """Take the single-instance lock of a SQLite database (`<db>.lock`), or StoreOpenError.

    An exclusive flock, not a pid file: the kernel drops it when the process dies, SIGKILL
    included, so a crash never leaves a stale lock behind. Returns the lock's path (for release).
    """
    if fcntl is None or db_path == ":memory:" or db_path.startswith("file:"):
        return None
    lock_path = os.path.realpath(db_path) + ".lock"
    held = _HELD_LOCKS.get(lock_path)
    if held is not None:
        held[1] += 1
        return lock_path
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StoreOpenError(f"Cannot create the lock file {lock_path} ({error.strerror}): check that the"
                             " database's folder exists and is writable (JUNCTION_DB).") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        who = f" (pid {other})" if other.isdigit() else ""
        raise StoreOpenError(f"{db_path} is in use by another Junction process{who}: run one bot per database;"
                             " stop the other one first.") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())  # for the message above only: the flock is the lock
    _HELD_LOCKS[lock_path] = [fd, 1]
    return lock_path


def first_holder(lock_path: str | None) -> bool:
    """Whether this process has just taken the lock (True also without a lock file): no earlier
    Store.open of this process is creating the file."""
    return lock_path is None or _HELD_LOCKS[lock_path][1] == 1


def release_instance_lock(lock_path: str | None) -> None:
    held = _HELD_LOCKS.get(lock_path) if lock_path else None
    if held is None:
        return
    held[1] -= 1
    if held[1] == 0:
        del _HELD_LOCKS[lock_path]
        # The file stays: deleting it would race with a process that just opened it.
        os.close(held[0])


def open_error(path: str, error: BaseException) -> StoreOpenError:
    """One line for an operator from what SQLite said while opening or migrating."""
    said = str(error)
    text = said.lower()
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        what = (f"{path} is not a usable SQLite database ({said}): restore it from a backup, or move it"
                " away to start with a new empty database.")
    elif "locked" in text or "busy" in text:
        what = (f"{path} is locked by another program ({said}): close whatever holds it (another bot,"
                " a sqlite3 shell in a transaction) and start again.")
    elif "unable to open" in text or "readonly" in text or "read-only" in text:
        what = (f"Cannot open {path} for writing ({said}): check that the folder exists and the bot may"
                " write there (JUNCTION_DB).")
    elif "full" in text:
        what = f"{path}: the disk is full ({said}): free some space and start again."
    else:
        what = f"Cannot open the database {path} ({type(error).__name__}: {said})."
    return StoreOpenError(what)


def postgres_open_error(where: str, error: Exception) -> StoreOpenError | None:
    """One line for an operator when PostgreSQL at `where` (the URL without its password) cannot be
    used: unreachable, or refused the connection. None: not a connection problem (raise it as it is)."""
    if isinstance(error, (OSError, TimeoutError)):
        return StoreOpenError(f"Cannot reach PostgreSQL at {where} ({error}): check JUNCTION_DB and that the"
                              " server runs.")
    if type(error).__module__.startswith("asyncpg"):
        return StoreOpenError(f"PostgreSQL at {where} refused the connection ({type(error).__name__}:"
                              f" {error}): check the user, password and database in JUNCTION_DB.")
    return None
