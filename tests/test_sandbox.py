"""The grading sandbox itself (``server/sandbox.py``), each test a real bubblewrap run: what a program
inside sees (no environment, no host files, no network), what stops it (memory, the wall clock,
output, a fork bomb), what is left afterwards (no process, no cgroup), and ``available`` in words
where the isolation is missing or fake. Skipped with the reason where the host cannot isolate (CI
installs bubblewrap, where a missing sandbox fails instead)."""

from __future__ import annotations

import ast
import stat
import threading
from pathlib import Path

import pytest

from server import sandbox
from server.sandbox import Limits, available, python_executable, run
from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def isolated() -> None:
    reason = available()
    if reason is not None:
        missing(f"the grading sandbox is not available here: {reason}")


def python(code: str, seconds: float = 5.0, **limits: int) -> sandbox.Outcome:
    """``code`` run by the sandboxed server's Python (``-I -S``, as grading runs it)."""
    return run([python_executable(), "-I", "-S", "-c", code], "", Limits(seconds=seconds, **limits))


def test_a_program_sees_an_empty_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAZE_SECRET_KEY", "do-not-leak-1234")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "do-not-leak-5678")
    done = python("import os; print(sorted(os.environ))")
    assert done.ended == "ok" and done.returncode == 0, done
    names = set(ast.literal_eval(done.stdout))  # a list of names printed by repr
    assert names <= set(sandbox.ENVIRONMENT) | {"PWD", "LC_CTYPE"}, names
    assert "do-not-leak" not in done.stdout + done.stderr


def test_a_program_reads_no_host_file_and_writes_only_its_tmp() -> None:
    probe = f"""
import os
seen = [p for p in ("/etc/passwd", "/etc/shadow", {str(ROOT / 'server' / 'config.py')!r}, {str(ROOT)!r},
                    "/work", "/var", "/home", "/root/.ssh") if os.path.exists(p)]
wrote = []
for p in ("/x", "/usr/lib/x", "/dev/x", "/sandbox/x", {str(ROOT / 'hostile.txt')!r}):
    try:
        open(p, "w").write("x"); wrote.append(p)
    except OSError:
        pass
open("/tmp/mine", "w").write("fine")
print(repr((seen, wrote, os.getuid(), sorted(os.listdir("/")))))
"""
    done = python(probe)
    assert done.ended == "ok", done
    seen, wrote, uid, top = ast.literal_eval(done.stdout)
    assert seen == [] and wrote == [], done.stdout
    assert uid == sandbox.INSIDE_UID
    allowed = {"usr", "lib", "lib64", "lib32", "libx32", "root", "proc", "dev", "tmp", "sandbox", "bin"}
    assert set(top) <= allowed
    assert not (ROOT / "hostile.txt").exists()


def test_numpy_and_the_servers_packages_cannot_be_imported() -> None:
    done = python("import sys\nfor m in ('numpy', 'flask', 'server'):\n"
                  "    try:\n        __import__(m); print('imported', m)\n    except ImportError: pass\n"
                  "sys.path.append(" + repr(str(ROOT)) + ")\n"
                  "try:\n    import server.config; print('imported server.config')\nexcept ImportError: pass")
    assert done.ended == "ok" and "imported" not in done.stdout, done


def test_the_network_is_unreachable_even_the_hosts_loopback() -> None:
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    try:
        done = python(f"""
import socket
for addr in (("127.0.0.1", {port}), ("1.1.1.1", 80), ("8.8.8.8", 53)):
    try:
        socket.create_connection(addr, timeout=2).close(); print("reached", addr)
    except OSError as err:
        print("refused", addr, err.strerror)
""")
        assert done.ended == "ok", done
        assert "reached" not in done.stdout
        assert "Network is unreachable" in done.stdout  # no route out of its own network namespace
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):  # nothing ever knocked on the host's port
            listener.accept()
    finally:
        listener.close()


def test_unbounded_memory_ends_as_a_memory_error_and_the_parent_is_untouched() -> None:
    before = _rss()
    done = python("hoard = []\nwhile True:\n    hoard.append(bytearray(64 * 1024 * 1024))",
                  memory_bytes=256 * 1024**2)
    assert done.returncode == 1 and "MemoryError" in done.stderr, done
    assert _rss() - before < 32 * 1024**2


def test_memory_spread_over_processes_is_capped_by_the_jobs_cgroup() -> None:
    """Each process is under the address-space limit, all of them together are not: the job's memory
    cgroup (where this host lets us make one) kills them and says so."""
    done = python("""
import os
for _ in range(6):
    if os.fork() == 0:
        block = bytearray(200 * 1024 * 1024)
        for i in range(0, len(block), 4096):
            block[i] = 1
        os._exit(0)
for _ in range(6):
    os.wait()
print("survived")
""", seconds=20)
    if not any("memory" in group for group in done.cgroups):
        pytest.skip("no memory cgroup of our own here: only the per-process address-space limit holds")
    assert done.ended == "memory" and "512 MB" in done.reason, done


def test_an_endless_loop_is_killed_by_the_wall_clock() -> None:
    done = python("import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass",
                  seconds=1.5)
    assert done.ended == "time" and "1.5 s" in done.reason, done
    assert 1.4 < done.seconds < 5


def test_endless_output_is_cut_and_killed() -> None:
    done = python("import os\nwhile True:\n    os.write(1, b'x' * 65536)", output_bytes=1024**2)
    assert done.ended == "output" and "1 MB" in done.reason, done
    assert len(done.stdout) <= 1024**2


def test_a_fork_bomb_is_capped_and_leaves_nothing_behind() -> None:
    done = python("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
                  seconds=2)
    assert done.ended == "time", done
    for group in done.cgroups:  # removed: only an empty cgroup can be, so every process is gone
        assert not Path(group).exists()
    again = python("print(6 * 7)")
    assert again.ended == "ok" and again.stdout.strip() == "42"


def test_jobs_at_once_do_not_disturb_each_other() -> None:
    results: dict[str, sandbox.Outcome] = {}

    def job(name: str, code: str) -> None:
        results[name] = python(code, seconds=3)

    threads = [threading.Thread(target=job, args=("bomb", "x = [bytearray(2**26) for _ in range(100)]")),
               threading.Thread(target=job, args=("loop", "while True: pass")),
               threading.Thread(target=job, args=("fine", "print(sum(range(10**6)))"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results["fine"].ended == "ok" and results["fine"].stdout.strip() == str(sum(range(10**6)))
    assert "MemoryError" in results["bomb"].stderr
    assert results["loop"].ended == "time"


def test_jobs_at_once_keep_their_own_stdout_and_stderr() -> None:
    """Pipes opened by jobs started together get file descriptors in any order: each job's output
    stays its own, stdout as stdout."""
    results: dict[int, sandbox.Outcome] = {}

    def job(i: int) -> None:
        results[i] = python(f"import sys\nprint('out {i}')\nprint('err {i}', file=sys.stderr)")

    threads = [threading.Thread(target=job, args=(i,)) for i in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 24
    for i, done in results.items():
        assert (done.stdout, done.stderr) == (f"out {i}\n", f"err {i}\n"), done


def test_a_missing_bwrap_is_reported_in_words() -> None:
    reason = available("/nonexistent/bwrap")
    assert reason is not None and "bubblewrap is not installed" in reason
    assert "apt-get install bubblewrap" in reason


def test_a_bwrap_without_user_namespaces_is_reported_in_words(tmp_path: Path) -> None:
    fake = _script(tmp_path / "bwrap", "echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1")
    reason = available(str(fake))
    assert reason is not None and "user namespaces are not allowed" in reason, reason
    assert "unprivileged_userns_clone" in reason


def test_a_bwrap_that_does_not_isolate_is_refused(tmp_path: Path) -> None:
    """A stand-in that runs the command with no isolation at all: the probe sees the host's files."""
    fake = _script(tmp_path / "bwrap", 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"')
    reason = available(str(fake))
    assert reason is not None and "does not isolate" in reason, reason


def _script(path: Path, body: str) -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _rss() -> int:
    """This process's resident memory, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0
