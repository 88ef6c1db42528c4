"""The grading sandbox: one program run inside bubblewrap, isolated by the operating system.

A student's code is graded in the server's own CPython, started by ``/usr/bin/bwrap`` (Debian's
``bubblewrap``) in new namespaces of every kind (``--unshare-all``: no network but its own empty
loopback, its own pids, ipc, uts, user and cgroup namespaces), with an empty environment, as the user
``nobody`` (65534) of its own user namespace, seeing read-only only the interpreter, the system's
libraries and the files the caller names; a small tmpfs at ``/tmp`` is the only place it may write.
Around it, resource limits (``prlimit``, inherited by everything inside): address space, CPU
seconds, file size, open files, no core dumps, processes; and, where this process may create them, a
cgroup per job (``pids.max`` against fork bombs, a memory limit that counts the tmpfs too). The wall
clock kills the whole sandbox (bwrap's process group; ``--die-with-parent`` and the pid namespace take
everything inside with it), and output past a byte limit kills it too.

``run`` says why a job ended (``Outcome.ended``): ``ok`` (it exited by itself, whatever its status),
``time`` (wall clock or CPU seconds), ``memory``, ``output`` or ``crashed`` (killed by a signal).
``available`` says once, by really starting a sandbox, whether this host gives the isolation; grading
refuses (``SandboxUnavailable``) where it does not, never falling back to an unsandboxed run.
docs/DEPLOY.md "The grading sandbox" has the threat model and what a host must allow.
"""

from __future__ import annotations

import contextlib
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config
from .i18n import t

BWRAP = "/usr/bin/bwrap"
MEMORY_BYTES = 512 * 1024**2  # address space of every process inside (Config.sandbox_memory_bytes)
OUTPUT_BYTES = 32 * 1024**2  # stdout and stderr together (a run's JSON: ~8 bytes per expansion)
FILE_BYTES = 16 * 1024**2  # the largest file it may write (in its tmpfs)
TMP_BYTES = 64 * 1024**2  # its /tmp, the only place it may write
OPEN_FILES = 64
PROCESSES = 32  # tasks in the job's pids cgroup (a fork bomb stops here)
# RLIMIT_NPROC counts every task of the real user, the server's own threads too, and is not enforced
# for root: it is only a backstop for a server that runs as its own user with no cgroup of its own.
USER_PROCESSES = 512
INSIDE_UID = 65534  # nobody, in the sandbox's own user namespace
HARNESS_DIR = "/sandbox"  # where the caller's files appear, read-only
# Python inside: no bytecode written, a fixed hash seed (runs repeatable), UTF-8 whatever the host says.
ENVIRONMENT = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "PYTHONUTF8": "1",
               "HOME": "/tmp", "PATH": "/nonexistent"}
_CGROUP_FS = Path("/sys/fs/cgroup")
CGROUP_REMOVE_SECONDS = 5.0
_JOINABLE: dict[str, bool] = {}  # per controller: may this process make a job's cgroup and enter it


class SandboxUnavailable(RuntimeError):
    """This host cannot isolate a program: the words say why and what to change."""


@dataclass
class Limits:
    """What one job may use; ``seconds`` of wall clock (CPU seconds: the same, rounded up)."""

    seconds: float = 5.0
    memory_bytes: int = MEMORY_BYTES
    output_bytes: int = OUTPUT_BYTES
    file_bytes: int = FILE_BYTES
    tmp_bytes: int = TMP_BYTES
    processes: int = PROCESSES


def limits_from(config: Config) -> Limits:
    """The limits of ``config``'s ``sandbox_*`` fields."""
    return Limits(seconds=config.sandbox_seconds, memory_bytes=config.sandbox_memory_bytes,
                  output_bytes=config.sandbox_output_bytes)


@dataclass
class Outcome:
    """How a job ended. ``ended``: ``ok`` | ``time`` | ``memory`` | ``output`` | ``crashed``;
    ``reason``: the words for anything but ``ok``; ``returncode`` of the program (bwrap passes it on);
    what it wrote (decoded, at most ``output_bytes`` in all); ``seconds`` of wall clock."""

    ended: str
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    reason: str = ""
    cgroups: list[str] = field(default_factory=list)


def python_executable() -> str:
    """The server's own interpreter, symlinks resolved (a venv's ``python`` points into its base)."""
    return os.path.realpath(sys.executable)


def _system_binds() -> list[str]:
    """bwrap arguments for the interpreter and the libraries it links: ``/usr/lib``, the top-level
    ``/lib``… as the host has them (a symlink stays a symlink), the interpreter's prefix; the base
    Python's ``site-packages`` hidden under an empty tmpfs (numpy and the rest are not importable)."""
    args = ["--ro-bind", "/usr/lib", "/usr/lib"]
    if os.path.isdir("/usr/lib64") and not os.path.islink("/usr/lib64"):
        args += ["--ro-bind", "/usr/lib64", "/usr/lib64"]
    for top in ("/lib", "/lib64", "/lib32", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    exe = python_executable()
    prefix = os.path.realpath(sys.base_prefix)
    args += ["--ro-bind", exe, exe]  # the one program of its bin/ (it finds its prefix from here)
    if prefix != "/usr":  # a Debian python3's prefix is /usr: /usr/lib holds its library already
        args += ["--ro-bind", os.path.join(prefix, "lib"), os.path.join(prefix, "lib")]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for site in (os.path.join(prefix, "lib", version, "site-packages"),
                 f"/usr/lib/{version}/dist-packages", "/usr/lib/python3/dist-packages"):
        if os.path.isdir(site):
            args += ["--tmpfs", site, "--remount-ro", site]
    return args


def bwrap_argv(argv: list[str], files: dict[str, str], limits: Limits, bwrap: str | None = None) -> list[str]:
    """The whole bwrap command line: ``files`` maps a name under ``/sandbox`` to a host path, bound
    read-only; ``argv`` runs in ``/tmp``. The sandbox's own root (bwrap's tmpfs) is made read-only
    last, so ``/tmp`` is the one place to write."""
    args = [bwrap or BWRAP, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
            "--unshare-user", "--uid", str(INSIDE_UID), "--gid", str(INSIDE_UID)]
    for name, value in ENVIRONMENT.items():
        args += ["--setenv", name, value]
    args += _system_binds()
    for name, host in files.items():
        args += ["--ro-bind", host, f"{HARNESS_DIR}/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
             "--remount-ro", "/dev", "--remount-ro", "/", "--chdir", "/tmp", "--", *argv]
    return args


def _prlimit_argv(limits: Limits) -> list[str]:
    """Resource limits set by ``prlimit`` before it execs bwrap, inherited by all inside: the CPU
    limit's soft end sends SIGXCPU, its hard end (a second later) SIGKILL."""
    cpu = max(1, math.ceil(limits.seconds))
    args = [shutil.which("prlimit") or "/usr/bin/prlimit",
            f"--as={limits.memory_bytes}", f"--cpu={cpu}:{cpu + 1}", f"--fsize={limits.file_bytes}",
            f"--nofile={OPEN_FILES}", "--core=0"]
    if os.geteuid() != 0:
        args.append(f"--nproc={USER_PROCESSES}")
    return [*args, "--"]


class _Cgroups:
    """A pids (and memory) cgroup of this job, where this process may create one (cgroup v1 under
    ``/sys/fs/cgroup/<controller>/<our own group>``, or v2 at ``/sys/fs/cgroup``); else none."""

    def __init__(self, limits: Limits) -> None:
        self.dirs: list[Path] = []
        name = f"maze-sandbox-{uuid.uuid4().hex[:12]}"
        memory = str(limits.memory_bytes + limits.tmp_bytes)  # the tmpfs is charged to the group
        for controller, settings in (("pids", {"pids.max": str(limits.processes)}),
                                     ("memory", {"memory.limit_in_bytes": memory, "memory.max": memory})):
            made = self._make(controller, name, settings)
            if made is not None and made not in self.dirs:
                self.dirs.append(made)

    @staticmethod
    def _own(controller: str) -> Path | None:
        """The cgroup folder this process is in for ``controller`` (v1), or its v2 folder."""
        try:
            lines = Path("/proc/self/cgroup").read_text().splitlines()
        except OSError:
            return None
        for line in lines:
            _, names, where = line.split(":", 2)
            if controller in names.split(","):
                return _CGROUP_FS / controller / where.lstrip("/")
        for line in lines:
            if line.startswith("0::") and (_CGROUP_FS / "cgroup.controllers").exists():
                return _CGROUP_FS / line[3:].lstrip("/")
        return None

    def _make(self, controller: str, name: str, settings: dict[str, str]) -> Path | None:
        """The job's cgroup of ``controller`` with its limit set, or None where this process may not
        make one, set its limit or move a process into it (found out once per controller)."""
        if _JOINABLE.get(controller) is False:
            return None
        own = self._own(controller)
        if own is None or not os.access(own, os.W_OK):
            return None
        folder = own / name
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            return None
        limited = False
        for key, value in settings.items():
            try:
                if (folder / key).exists():
                    (folder / key).write_text(value)
                    limited = True
            except OSError:
                pass
        if controller not in _JOINABLE:  # a cgroup we may make but not enter (v2 delegation) is no use
            joined = subprocess.run(["/bin/sh", "-c", 'echo $$ > "$1"', "sh", str(folder / "cgroup.procs")],
                                    capture_output=True, env={}, check=False)
            _JOINABLE[controller] = limited and joined.returncode == 0
        if not (limited and _JOINABLE[controller]):
            with contextlib.suppress(OSError):
                folder.rmdir()
            return None
        return folder

    def join_argv(self) -> list[str]:
        """A shell that writes its own pid into each cgroup, then execs the rest: the job is inside
        its cgroups before bwrap starts, with no code run in a forked copy of this (threaded) server."""
        if not self.dirs:
            return []
        script = ('for f do case $f in --) break;; esac; echo $$ > "$f" || exit 125; shift; done; '
                  'shift; exec "$@"')
        return ["/bin/sh", "-c", script, "sandbox", *[str(d / "cgroup.procs") for d in self.dirs], "--"]

    def oom_killed(self) -> bool:
        """Whether the memory cgroup killed a process of this job."""
        for folder in self.dirs:
            for name in ("memory.oom_control", "memory.events"):
                try:
                    text = (folder / name).read_text()
                except OSError:
                    continue
                for line in text.splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill" and value.strip() not in ("", "0"):
                        return True
        return False

    def kill_and_remove(self) -> None:
        """SIGKILL whatever is still in the job's cgroups and remove them: a cgroup goes only once its
        last task is gone, which the kernel may take a moment for (killed tasks still exiting), so
        this retries for up to ``CGROUP_REMOVE_SECONDS``; one that still will not go is left, empty or
        not, and named in ``Outcome.cgroups``."""
        left = list(self.dirs)
        give_up = time.monotonic() + CGROUP_REMOVE_SECONDS
        while left:
            for folder in left:
                try:
                    pids = (folder / "cgroup.procs").read_text().split()
                except OSError:
                    pids = []
                for pid in pids:
                    with contextlib.suppress(OSError, ValueError):
                        os.kill(int(pid), signal.SIGKILL)
            for folder in list(left):
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    left.remove(folder)
                except OSError:
                    continue
                else:
                    left.remove(folder)
            if not left or time.monotonic() > give_up:
                break
            time.sleep(0.005)  # the kernel reaps them; a cgroup with tasks cannot be removed


def run(argv: list[str], stdin: str, limits: Limits | None = None, files: dict[str, str] | None = None,
        bwrap: str | None = None) -> Outcome:
    """Run ``argv`` (paths as seen inside: ``python_executable()`` and ``/sandbox/<name>`` for each
    of ``files``) in a sandbox of its own, ``stdin`` as its input; wait for it within the limits."""
    limits = limits or Limits()
    cgroups = _Cgroups(limits)
    command = [*cgroups.join_argv(), *_prlimit_argv(limits), *bwrap_argv(argv, files or {}, limits, bwrap)]
    started = time.monotonic()
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, env={})
    except OSError as err:
        cgroups.kill_and_remove()
        return Outcome("crashed", None, "", "", 0.0, f"the sandbox could not start: {err}", [])
    ended, reason = "ok", ""
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()  # type: ignore[union-attr]
    chunks: dict[int, list[bytes]] = {out_fd: [], err_fd: []}
    total = 0
    writer = threading.Thread(target=_feed, args=(proc, stdin.encode()), daemon=True)
    writer.start()
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]
        sel.register(proc.stderr, selectors.EVENT_READ)  # type: ignore[arg-type]
        deadline = started + limits.seconds
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                ended, reason = "time", t("code.sandbox.too_long", seconds=format(limits.seconds, "g"))
                break
            for key, _ in sel.select(left):
                data = os.read(key.fd, 65536)
                if not data:
                    sel.unregister(key.fileobj)
                    continue
                chunks[key.fd].append(data)
                total += len(data)
            if total > limits.output_bytes:
                ended, reason = "output", t("code.sandbox.output", size=_size(limits.output_bytes))
                break
    if ended != "ok":
        _kill(proc)
    try:
        proc.wait(timeout=max(0.1, started + limits.seconds + 2 - time.monotonic()))
    except subprocess.TimeoutExpired:  # closed its output but runs on: the wall clock still holds
        _kill(proc)
        proc.wait()
        ended, reason = "time", t("code.sandbox.too_long", seconds=format(limits.seconds, "g"))
    writer.join(timeout=1)
    oom = cgroups.oom_killed()
    cgroups.kill_and_remove()
    for stream in (proc.stdout, proc.stderr, proc.stdin):
        if stream is not None:
            stream.close()
    code = proc.returncode
    out = b"".join(chunks[out_fd])[: limits.output_bytes].decode(errors="replace")
    err = b"".join(chunks[err_fd])[: limits.output_bytes].decode(errors="replace")
    if ended == "ok":
        ended, reason = _why(code, err, oom, limits)
    return Outcome(ended, code, out, err, time.monotonic() - started, reason, [str(d) for d in cgroups.dirs])


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    """Write the job's input and close it; a program that stops reading just ends the writing."""
    try:
        proc.stdin.write(data)  # type: ignore[union-attr]
        proc.stdin.close()  # type: ignore[union-attr]
    except (OSError, ValueError):
        pass


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the sandbox's process group (the shell, prlimit, bwrap: one process exec'd in turn);
    bwrap's child dies with its parent and the pid namespace with its first process."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)


def _why(code: int | None, stderr: str, oom: bool, limits: Limits) -> tuple[str, str]:
    """The end of a job that was not stopped by the wall clock or its output, in words. bwrap passes
    on the program's exit status, and 128 + the signal for a program killed by a signal."""
    signum = 0
    if code is not None:
        signum = -code if code < 0 else (code - 128 if code > 128 else 0)
    if oom:
        return "memory", t("code.sandbox.memory", size=_size(limits.memory_bytes))
    if signum == signal.SIGXCPU:
        return "time", t("code.sandbox.cpu", seconds=max(1, math.ceil(limits.seconds)))
    if signum:
        name = signal.Signals(signum).name if signum in signal.valid_signals() else str(signum)
        if signum == signal.SIGKILL:
            return "crashed", t("code.sandbox.killed_limits", name=name)
        return "crashed", t("code.sandbox.killed", name=name)
    return "ok", ""


def _size(n: int) -> str:
    """``512 MB`` for a byte count."""
    return f"{n / 1024**2:g} MB" if n >= 1024**2 else f"{n / 1024:g} KB"


_PROBE = """
import os, socket
assert not any(k.startswith("MAZE_") for k in os.environ), "the environment reached the sandbox"
assert not os.path.exists("/etc/passwd"), "the host's files are visible"
try:
    socket.create_connection(("1.1.1.1", 53), timeout=1)
except OSError:
    print("isolated")
else:
    print("network reachable")
"""
_NAMESPACE_WORDS = ("namespace", "uid map", "Operation not permitted", "Permission denied")  # bwrap's
_available: dict[str, str | None] = {}
_lock = threading.Lock()


def available(bwrap: str | None = None) -> str | None:
    """None when this host isolates a program (found once, by starting a sandboxed Python and seeing
    no environment, no host files and no network); else why not, in words. Cached per bwrap path
    (None: ``BWRAP``, read at the call)."""
    bwrap = bwrap or BWRAP
    with _lock:
        if bwrap not in _available:
            _available[bwrap] = _probe(bwrap)
        return _available[bwrap]


def _probe(bwrap: str) -> str | None:
    """``available``'s answer, found now."""
    if not os.path.exists(bwrap):
        return f"bubblewrap is not installed ({bwrap} is missing: apt-get install bubblewrap)"
    if shutil.which("prlimit") is None and not os.path.exists("/usr/bin/prlimit"):
        return "prlimit is not installed (apt-get install util-linux)"
    done = run([python_executable(), "-I", "-S", "-c", _PROBE], "", Limits(seconds=10), bwrap=bwrap)
    if done.ended == "ok" and done.returncode == 0 and done.stdout.strip() == "isolated":
        return None
    said = (done.stderr.strip().splitlines() or [done.reason or done.stdout.strip() or "no answer"])[-1]
    if any(words in said for words in _NAMESPACE_WORDS):
        return ("user namespaces are not allowed on this host, so bubblewrap cannot isolate a program "
                f"({said}; allow them: sysctl kernel.unprivileged_userns_clone=1 on Debian, "
                "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04, or a container's seccomp "
                "profile that allows unshare and clone with namespaces; see docs/DEPLOY.md)")
    return f"the sandbox does not isolate a program on this host: {said}"
