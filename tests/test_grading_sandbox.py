"""Grading through the sandbox (``server/grading.py``, ``run.py grade``): each hostile student program
of ``tests/code_programs/hostile_*.py`` (a real ``def search(problem)``) gets a verdict in words on
maze3 with BFS, and a right BFS program graded after it (or beside it) is still judged right; where the
isolation is missing, grading refuses in words and ``run.py grade`` exits 2 before running anything."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from server.grading import SandboxUnavailable, grade, run_program, world_json
from server.judging import rule_options
from server.puzzles.family import LoadLimits
from server.puzzles.registry import detect_family
from server.sandbox import Limits, available
from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tests" / "code_programs"
SECONDS = 3.0


@pytest.fixture(scope="module")
def maze3(shared_cases: Path) -> dict[str, Any]:
    """maze3 as ``grade`` is given it: family, puzzle, rules, options and the harness's world."""
    reason = available()
    if reason is not None:
        missing(f"the grading sandbox is not available here: {reason}")
    path = shared_cases / "images" / "lee" / "maze3.png"
    data = path.read_bytes()
    family = detect_family(path.name, data)
    puzzle = family.load(data, path.name, {}, LoadLimits(max_pixels=10**7, max_cells=10**7))
    options = family.text_options({}, "run")  # the defaults, as run.py grade takes them
    rules = rule_options(family, options)
    return {"family": family, "puzzle": puzzle, "rules": rules, "options": options, "path": path,
            "world": world_json(family, puzzle, rules)}


def graded(maze3: dict[str, Any], code: str, seconds: float = SECONDS, **kwargs: Any) -> dict[str, Any]:
    return grade(maze3["family"], maze3["puzzle"], code, "bfs", maze3["options"], maze3["rules"], seconds,
                 world=maze3["world"], **kwargs)


def still_right(maze3: dict[str, Any]) -> None:
    """A right BFS program is judged right: the sandbox before it left nothing behind that matters."""
    verdict = graded(maze3, (PROGRAMS / "bfs.py").read_text())
    assert verdict["verdict"] == "matches" and verdict["path"]["cost"] == 52, verdict["messages"]


def test_a_right_program_is_judged_right(maze3: dict[str, Any]) -> None:
    still_right(maze3)


def test_the_network_is_a_verdict_and_the_servers_port_unreachable(maze3: dict[str, Any]) -> None:
    listener = socket.socket()  # stands for the server's own port on the host's loopback
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    code = (PROGRAMS / "hostile_network.py").read_text()
    code = code.replace('("127.0.0.1", 5000)', f'("127.0.0.1", {port})')
    try:
        verdict = graded(maze3, code)
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()
    assert verdict["verdict"] == "error" and verdict["error"]["kind"] == "ConnectionError", verdict
    message = verdict["messages"][0]
    assert message.startswith("Your program failed (line ") and "Network is unreachable" in message
    assert "reached" not in message and f"127.0.0.1:{port}" in message
    still_right(maze3)


def test_host_files_are_a_verdict(maze3: dict[str, Any]) -> None:
    own = [str(ROOT / "server" / "config.py"), str(ROOT), str(ROOT / "var")]
    code = (PROGRAMS / "hostile_files.py").read_text()
    code = code.replace('"/var"]', '"/var", ' + ", ".join(map(repr, own)) + "]")
    assert str(ROOT / "server" / "config.py") in code
    verdict = graded(maze3, code)
    assert verdict["verdict"] == "error" and verdict["error"]["kind"] == "PermissionError", verdict
    assert "read nothing; wrote nothing" in verdict["messages"][0]
    still_right(maze3)


def test_the_environment_is_empty(maze3: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAZE_SECRET_KEY", "s3cret-of-the-server")
    monkeypatch.setenv("HOME_SECRET_TOKEN", "s3cret-token")
    verdict = graded(maze3, (PROGRAMS / "hostile_env.py").read_text())
    message = verdict["messages"][0]
    assert verdict["verdict"] == "error" and "LookupError: environment: " in message
    assert "s3cret" not in message and "MAZE_" not in message and "root" not in message
    names = {pair.split("=")[0] for pair in message.split("environment: ")[1].split(", ")}
    assert names <= {"HOME", "LC_CTYPE", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED",
                     "PYTHONUTF8"}
    still_right(maze3)


def test_unbounded_memory_is_a_memory_verdict(maze3: dict[str, Any]) -> None:
    before = _rss()
    verdict = graded(maze3, (PROGRAMS / "hostile_memory.py").read_text())
    assert verdict["verdict"] == "error"
    assert verdict["messages"] == ["Your program was stopped: it used more than 512 MB of memory "
                                   "(MemoryError at line 8)"]
    assert _rss() - before < 32 * 1024**2  # the server's own memory is untouched
    still_right(maze3)


def test_an_endless_loop_is_a_time_verdict(maze3: dict[str, Any]) -> None:
    verdict = graded(maze3, (PROGRAMS / "hostile_loop.py").read_text(), seconds=1.5)
    assert verdict["verdict"] == "stopped"
    assert "time limit: 1.5 s" in verdict["messages"][0]
    still_right(maze3)


def test_a_fork_bomb_is_stopped(maze3: dict[str, Any]) -> None:
    verdict = graded(maze3, (PROGRAMS / "hostile_fork.py").read_text(), seconds=2)
    assert verdict["verdict"] in ("stopped", "error") and verdict["messages"], verdict
    assert "time limit: 2 s" in verdict["messages"][0]
    still_right(maze3)


def test_endless_output_is_an_output_verdict(maze3: dict[str, Any]) -> None:
    verdict = graded(maze3, (PROGRAMS / "hostile_print.py").read_text(),
                     limits=Limits(output_bytes=4 * 1024**2))
    assert verdict["messages"] == ["Your program was stopped: it wrote more than 4 MB of output"]
    still_right(maze3)


def test_other_students_are_graded_right_while_hostile_programs_run(maze3: dict[str, Any]) -> None:
    verdicts: dict[str, dict[str, Any]] = {}

    def student(name: str) -> None:
        verdicts[name] = graded(maze3, (PROGRAMS / f"{name}.py").read_text())

    names = ["hostile_memory", "hostile_loop", "hostile_fork", "bfs"]
    threads = [threading.Thread(target=student, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert verdicts["bfs"]["verdict"] == "matches" and verdicts["bfs"]["path"]["cost"] == 52
    assert verdicts["hostile_memory"]["messages"][0].startswith("Your program was stopped: it used more than")
    assert verdicts["hostile_loop"]["verdict"] == "stopped"


def test_grading_refuses_without_the_sandbox(maze3: dict[str, Any]) -> None:
    with pytest.raises(SandboxUnavailable, match="bubblewrap is not installed"):
        run_program("def search(problem):\n    return None\n", maze3["world"], 2, bwrap="/nonexistent/bwrap")
    with pytest.raises(SandboxUnavailable, match="Code cannot be graded on this server"):
        graded(maze3, (PROGRAMS / "bfs.py").read_text(), bwrap="/nonexistent/bwrap")


def test_the_grade_command_refuses_without_the_sandbox(maze3: dict[str, Any], tmp_path: Path) -> None:
    flag = tmp_path / "ran"
    program = tmp_path / "search.py"  # it would leave a file behind, were it run
    program.write_text(f"open({str(flag)!r}, 'w').write('ran')\ndef search(problem):\n    return None\n")
    start = ("import runpy, sys; import server.sandbox as s; s.BWRAP = '/nonexistent/bwrap'; "
             "sys.argv = ['run.py', 'grade', *sys.argv[1:]]; runpy.run_path('run.py', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", start, str(maze3["path"]), str(program), "-a", "bfs"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "refuses to run students' programs without the sandbox" in done.stderr
    assert "bubblewrap is not installed" in done.stderr and "Traceback" not in done.stderr
    assert not flag.exists() and done.stdout == ""


def test_the_grade_command_grades_hostile_programs_in_words(maze3: dict[str, Any]) -> None:
    names = ("hostile_env", "hostile_memory", "hostile_network", "bfs")
    programs = [str(PROGRAMS / f"{name}.py") for name in names]
    done = subprocess.run([sys.executable, "run.py", "grade", str(maze3["path"]), *programs, "-a", "bfs",
                           "--seconds", "3"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    memory = "hostile_memory.py: error\n  Your program was stopped: it used more than 512 MB of memory"
    assert memory in done.stdout
    assert "Network is unreachable" in done.stdout and "bfs.py: matches" in done.stdout


def _rss() -> int:
    """This process's resident memory, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0
