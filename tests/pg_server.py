"""A throwaway PostgreSQL server for tests and benchmarks: initdb in a temp dir, a free port, a socket there.

Found through `JUNCTION_PG_BIN`, `pg_ctl` on PATH, or Debian's /usr/lib/postgresql/<version>/bin.
PostgreSQL refuses to run as root: as root, the data directory is handed to the `postgres` user (the
Debian package creates it) and the server runs as that user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

INSTALL_HINT = ("PostgreSQL server binaries not found: install them (Debian/Ubuntu: apt-get install postgresql;"
                " macOS: brew install postgresql) or set JUNCTION_PG_BIN to the directory holding pg_ctl")


def find_bin() -> Path | None:
    """The directory holding initdb and pg_ctl, newest version first; None if there is none."""
    given = os.environ.get("JUNCTION_PG_BIN")
    if given:
        return Path(given) if (Path(given) / "pg_ctl").exists() else None
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
                      if Path(p).parent.name.isdigit() else 0, reverse=True)
    return next((Path(v) for v in versions if (Path(v) / "pg_ctl").exists()), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerControl:
    """Stop, start and restart a throwaway server (the tests of database outages)."""

    def __init__(self, run: Callable[..., None], data: Path, options: str, log: Path) -> None:
        self._run, self._data, self._options, self._log = run, data, options, log

    def stop(self, mode: str = "fast") -> None:
        """`fast`: sessions are terminated and the server shuts down cleanly (a restart, a failover);
        `immediate`: it quits at once, as in a crash (recovery runs at the next start)."""
        self._run("pg_ctl", "-D", str(self._data), "-m", mode, "-w", "stop")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self._data), "-o", self._options, "-l", str(self._log), "-w", "start")

    def restart(self, mode: str = "fast") -> None:
        self.stop(mode)
        self.start()


_CONTROLS: dict[str, ServerControl] = {}


def control(url: str) -> ServerControl:
    """The control of the throwaway server behind `url` (its admin URL or a database URL on it)."""
    return _CONTROLS[url.rsplit("/", 1)[0]]


@contextlib.contextmanager
def throwaway_server(max_connections: int = 200) -> Iterator[str]:
    """Start a PostgreSQL server; yield its admin URL (database `postgres`); stop and delete it after.
    `control(url)` stops, starts and restarts it meanwhile."""
    bin_dir = find_bin()
    if bin_dir is None:
        raise RuntimeError(INSTALL_HINT)
    root = Path(tempfile.mkdtemp(prefix="junction-pg-"))
    data = root / "data"
    user: str | None = None
    if os.geteuid() == 0:
        user = "postgres"
        shutil.chown(root, user)
        root.chmod(0o700)

    def run(*args: str) -> None:
        command = [str(bin_dir / args[0]), *args[1:]]
        if user is not None:
            command = ["runuser", "-u", user, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=root)

    port = _free_port()
    try:
        run("initdb", "-D", str(data), "-U", "junction", "-A", "trust", "--no-sync", "-E", "UTF8")
        # Speed over durability: the data is thrown away at the end.
        options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
                   f" -c full_page_writes=off -c max_connections={max_connections}")
        server = ServerControl(run, data, options, root / "log")
        server.start()
        url = f"postgresql://junction@127.0.0.1:{port}/postgres"
        _CONTROLS[url.rsplit("/", 1)[0]] = server
        try:
            yield url
        finally:
            del _CONTROLS[url.rsplit("/", 1)[0]]
            with contextlib.suppress(subprocess.CalledProcessError):  # a test may have left it stopped
                server.stop("immediate")
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def fresh_database(admin_url: str, name: str) -> str:
    """Create an empty database `name` on the server (dropping an old one); return its URL."""
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin_url.rsplit("/", 1)[0] + "/" + name
