"""Worker processes for CPU-bound work (board drawing, AI search) that die with the bot."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor


def exit_with(parent_pid: int, every: float = 0.5) -> None:
    """In a worker: end the process once its parent (the bot) is gone, even after a SIGKILL that
    gave the bot no chance to shut the pool down. An orphan is re-parented, so getppid() changes."""
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="junction-parent-watch", daemon=True).start()


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` processes. spawn: workers do not inherit the bot's threads and sockets
    (fork would), they are the bot's own children (no forkserver left behind by a SIGKILL), and each
    watches the bot's pid."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=exit_with, initargs=(os.getpid(),))
