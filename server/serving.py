"""Serving the app with gunicorn, embedded (``run.py serve``): one worker process of gunicorn's threaded
worker (``gthread``), many threads.

Flask-SocketIO's threading mode runs under ``gthread`` with simple-websocket (its deployment docs:
``gunicorn -w 1 --threads 100 module:app``). Each open websocket holds one of the worker's threads for as
long as the page is open, so ``threads`` bounds the pages connected at once. A Socket.IO app takes only
one gunicorn worker: Socket.IO's state lives in the process, so several processes are several
``run.py serve`` behind a proxy, on one Redis (docs/DEPLOY.md).

Stopping (SIGTERM, or Ctrl-C): websockets never end by themselves, so the worker does not wait for them.
``SocketWorker`` stops every run as the signal arrives, tells each run's page (``run_error`` with
``SHUTDOWN_MESSAGE``) and closes every socket; the worker then has no connection left and exits, well
within ``GRACEFUL_TIMEOUT`` (after which gunicorn kills it). No gunicorn hook serves here: ``worker_int``
runs only on SIGINT/SIGQUIT, ``worker_exit`` only after the worker has waited out its graceful timeout
for the open websockets, and ``on_exit`` in the master process, which has no app.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import ThreadWorker

SHUTDOWN_MESSAGE = "live.shutdown"  # a catalog key: each run's page is told in its own language
DEFAULT_THREADS = 100  # pages connected at once (each open websocket holds a thread) plus requests
GRACEFUL_TIMEOUT = 5  # seconds the worker gets to stop after SIGTERM before gunicorn kills it
CLOSE_WAIT = 3.0  # seconds a stopping worker waits for its runs to be stopped and its sockets closed
HEARTBEAT_TIMEOUT = 30  # gunicorn restarts a worker whose main loop is silent this long

log = logging.getLogger(__name__)


def stop_runs(app: Flask, message: str = SHUTDOWN_MESSAGE) -> int:
    """Stop every run of ``app``, telling each one's page ``message`` (``run_error``); how many were
    told. The error goes to this process's own socket directly, not through a message queue, so it
    leaves before the disconnect that follows it on the same socket."""
    from .app import socketio
    from .services import services

    server = socketio.server

    def send(sid: str, event: str, payload: Any) -> None:
        server.emit(event, payload, to=sid, namespace="/", ignore_queue=True)

    return services(app).runs.shutdown(message, send)


def close_sockets() -> None:
    """Disconnect every Socket.IO client of this process and close its connection. Whatever was sent
    to a client before (a ``run_error``) leaves first: the close is queued behind it on the socket."""
    from .app import socketio

    server = socketio.server
    for sid, _ in list(server.manager.get_participants("/", None)):
        try:
            server.disconnect(sid, namespace="/", ignore_queue=True)
        except Exception:  # gone meanwhile
            log.debug("could not disconnect %s", sid, exc_info=True)
    for connection in list(server.eio.sockets.values()):  # a socket still connecting, say
        connection.close(wait=False, reason=server.eio.reason.SERVER_DISCONNECT)


def in_websocket_close(tb: TracebackType | None) -> bool:
    """Whether the traceback passes through simple-websocket's ``close``."""
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "close" and code.co_filename.replace("\\", "/").endswith("simple_websocket/ws.py"):
            return True
        tb = tb.tb_next
    return False


def quiet_close_race(previous: Callable[[threading.ExceptHookArgs], Any]) -> Callable[..., None]:
    """A ``threading.excepthook`` that logs one line, instead of a traceback, for simple-websocket's race
    between closing and reading: its ``close`` checks ``connected`` and then writes the close frame,
    while its reader thread, seeing the peer's own close, may have closed the socket in between
    (EBADF in engine.io's writer thread). Every socket closes at once when the server stops, so that is
    where it shows; nothing is lost (the connection was closing both ways). Anything else goes to
    ``previous``."""

    def hook(args: threading.ExceptHookArgs) -> None:
        error = args.exc_value
        bad_fd = isinstance(error, OSError) and error.errno == errno.EBADF
        if bad_fd and in_websocket_close(args.exc_traceback):
            log.info("a websocket closed by its peer while it was being closed here (simple-websocket)")
            return
        previous(args)

    return hook


class SocketWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker that, told to stop, first stops the app's runs and closes its
    sockets (``stop_runs``, ``close_sockets``): it then exits at once instead of waiting out its graceful
    timeout for websockets that never end by themselves."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._closing: threading.Thread | None = None
        self._quitting = False

    def run(self) -> None:
        """gunicorn's loop; once it ends (no connection left), the closing thread is let finish."""
        super().run()
        if self._closing is not None:
            self._closing.join(CLOSE_WAIT)

    def init_process(self) -> None:
        """Ask Linux for a SIGTERM when the master dies (``PR_SET_PDEATHSIG``), so that a master killed
        with SIGKILL takes the worker's sockets down at once; ``is_parent_alive`` is the fallback. Its
        threads' one harmless race in simple-websocket is logged in a line (``quiet_close_race``)."""
        _term_on_parent_death()
        threading.excepthook = quiet_close_race(threading.excepthook)
        super().init_process()

    def is_parent_alive(self) -> bool:
        """The master gone (killed with SIGKILL, say): stop as on SIGTERM rather than serve on as an
        orphan (gunicorn's loop looks once a second)."""
        if super().is_parent_alive():
            return True
        self._close_app()
        return False

    def handle_exit(self, sig: int, frame: Any) -> None:
        """SIGTERM: stop accepting, close the app's sockets (in a thread: this is a signal handler)."""
        super().handle_exit(sig, frame)
        self._close_app()

    def handle_quit(self, sig: int, frame: Any) -> None:
        """SIGINT (Ctrl-C) or SIGQUIT: the same, briefly waited for, then gunicorn's quick exit."""
        if self._quitting:  # Ctrl-C reaches the worker, and the master passes on a SIGQUIT
            return
        self._quitting = True
        self._close_app().join(CLOSE_WAIT)
        super().handle_quit(sig, frame)

    def _close_app(self) -> threading.Thread:
        if self._closing is None:
            app = getattr(self, "wsgi", None)
            self._closing = threading.Thread(target=self._close, args=(app,), daemon=True, name="shutdown")
            self._closing.start()
        return self._closing

    def _close(self, app: Flask | None) -> None:
        if app is None:  # the signal came while the app was still loading
            return
        try:
            told = stop_runs(app)
            self.log.info("Shutting down: stopped %d run(s) in progress; closing the sockets", told)
            close_sockets()
        except Exception:
            self.log.exception("Closing the app's sockets failed")
        finally:
            self.method_queue.defer(lambda: None)  # wake the main loop to see the connections gone


def _term_on_parent_death() -> None:
    """SIGTERM to this process when its parent ends (Linux ``prctl``; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class MazeServer(BaseApplication):
    """gunicorn embedded: ``make_app`` builds the app in the worker process (after the fork, so its
    threads are the worker's), with ``options`` as gunicorn's settings."""

    def __init__(self, make_app: Callable[[], Flask], options: dict[str, Any]) -> None:
        self.make_app = make_app
        self.options = options
        super().__init__(prog="run.py serve")

    def load_config(self) -> None:
        assert self.cfg is not None
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.make_app()


def gunicorn_options(host: str, port: int, threads: int = DEFAULT_THREADS) -> dict[str, Any]:
    """gunicorn's settings for ``serve``: one ``SocketWorker``, ``threads`` threads, no access log,
    errors and gunicorn's own lines on stderr."""
    bind_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return {
        "bind": [f"{bind_host}:{port}"],
        "workers": 1,  # a Socket.IO app takes one worker per gunicorn (see the module's docstring)
        "worker_class": SocketWorker,
        "threads": threads,
        "worker_connections": max(1000, 2 * threads),  # open connections (above threads: kept-alive ones)
        "graceful_timeout": GRACEFUL_TIMEOUT,
        "timeout": HEARTBEAT_TIMEOUT,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "maze-search",
        # gunicorn 25.1+ opens a control socket at one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl or
        # ~/.gunicorn/gunicorn.ctl): several servers would fight over it. Nothing here uses it.
        "control_socket_disable": True,
    }


def serve(make_app: Callable[[], Flask], host: str, port: int, threads: int = DEFAULT_THREADS) -> int:
    """Serve until SIGTERM or Ctrl-C; the exit status. gunicorn forks the worker from inside this call
    and both processes leave it by ``SystemExit``: the master returns its status, the worker ends here
    with ``os._exit`` (its threads and the interpreter's teardown would only delay it)."""
    master = os.getpid()
    try:
        MazeServer(make_app, gunicorn_options(host, port, threads)).run()
        status = 0
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    if os.getpid() != master:
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os._exit(status)
    return status
