"""The command line's start-up: a command on one file imports that file's family alone (and no numba for
a small board), its lean parse reads the command line exactly as the full parser does, and ``check``
judges many solution files in one process."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import run
from tests.helpers import imported_after
from tests.helpers import run_cli as cli

ROOT = Path(__file__).resolve().parent.parent


def imports_of(*argv: str) -> dict:
    """The status of ``run.main(argv)`` in a fresh process, and which family modules and numba it imported."""
    return imported_after(f"import run\nstatus = run.main({list(argv)!r})")


@pytest.fixture
def maze3(shared_cases: Path) -> str:
    return str(shared_cases / "images/lee/maze3.png")


def test_a_small_maze_is_solved_and_checked_without_numba(maze3: str, tmp_path: Path) -> None:
    assert imports_of("solve", maze3, "--json") == {"status": 0, "numba": False, "families": ["grid"]}
    assert imports_of("solve", maze3, "-a", "astar") == {"status": 0, "numba": False, "families": ["grid"]}
    answer = tmp_path / "answer.txt"
    answer.write_text("RRDD")
    assert imports_of("check", maze3, "--solution", str(answer)) == {
        "status": 3, "numba": False, "families": ["grid"]}
    seen = imports_of("solve", str(ROOT / "mazes/sliding-hardest-8.txt"))
    assert seen["status"] == 0 and not seen["numba"] and "sliding" in seen["families"]
    # Forced: the kernels, whatever the size.
    assert imports_of("solve", maze3, "--engine", "compiled")["numba"] is True


LEAN = [
    ["solve", "{maze3}"],
    ["solve", "{maze3}", "-a", "astar", "--heuristic", "octile", "--diagonal", "--json", "--out", "x.png"],
    ["solve", "{maze3}", "--family=grid", "--start", "4,1", "--engine", "compiled"],
    ["solve", "{mazes}/sliding-hardest-8.txt", "--heuristic", "linear_conflict", "-a", "astar"],
    ["compare", "{maze3}", "--algorithms", "bfs,astar", "--csv", "--weight", "2"],
    ["check", "{maze3}", "--solution", "a.txt", "b.txt", "--json"],
    ["heuristic", "{maze3}", "--formula", "dr + dc"],
    ["grade", "{maze3}", "p1.py", "p2.py", "-a", "bfs"],
]
REFUSED = [
    ["solve", "{maze3}", "--flow", "free"],  # an option of another family: the full parser takes it
    ["solve", "{maze3}", "--heuristic", "pdb"],  # a value only another family offers
    ["solve", "{mazes}/nope.png", "--diagonal"],  # no file to detect
    ["solve", "--json", "{maze3}"],  # a flag before the file
]


def argv_of(words: list[str], maze3: str) -> list[str]:
    return [w.format(maze3=maze3, mazes=ROOT / "mazes") for w in words]


@pytest.mark.parametrize("words", LEAN + REFUSED)
def test_the_lean_parse_is_the_full_parse(maze3: str, words: list[str]) -> None:
    argv = argv_of(words, maze3)
    args = vars(run.parse_args(argv))
    lean = "known_family" in args
    assert lean == (words in LEAN)
    args.pop("known_family", None)
    args.pop("file_data", None)
    assert args == vars(run.build_parser().parse_args(argv))


@pytest.mark.parametrize("words, said", [
    (["solve", "{maze3}", "--max", "5"], "ambiguous option: --max"),  # an abbreviation of several flags
    (["solve", "{maze3}", "--heuristic", "nope"], "invalid choice: 'nope'"),
    (["solve", "{maze3}", "--algorithm", "nope"], "invalid choice: 'nope'"),
    (["check", "{maze3}"], "the following arguments are required: --solution"),
])
def test_what_the_parser_refuses_it_says_as_before(maze3: str, words: list[str], said: str, capsys) -> None:
    argv = argv_of(words, maze3)
    with pytest.raises(SystemExit) as lean:
        run.parse_args(argv)
    lean_text = capsys.readouterr().err
    with pytest.raises(SystemExit) as full:
        run.build_parser().parse_args(argv)
    assert lean.value.code == full.value.code == 2
    assert lean_text == capsys.readouterr().err and said in lean_text


def test_help_lists_every_family(maze3: str) -> None:
    done = cli("solve", maze3, "--help")
    assert done.returncode == 0
    for group in ("(grid)", "(labyrinth)", "(step)", "(zenji)", "sliding: manhattan"):  # sliding's are shared
        assert group in done.stdout, group
    check = cli("check", "--help").stdout
    assert "3 when one is not legal" in " ".join(check.split()) and "Sliding" in check


@pytest.mark.parametrize("algorithm", ["bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional"])
def test_every_engine_gives_the_same_result(maze3: str, algorithm: str) -> None:
    """A small maze runs the generic engine on "auto" (unless this process has loaded the kernels): the
    result is the kernels' to the last field, but the search's seconds."""
    results = {}
    for engine in ("generic", "compiled", "auto"):
        out = io.StringIO()
        with redirect_stdout(out):
            assert run.main(["solve", maze3, "-a", algorithm, "--json", "--engine", engine]) == 0
        results[engine] = json.loads(out.getvalue())
        results[engine].pop("seconds")
    assert results["generic"] == results["compiled"] == results["auto"]


def test_check_takes_many_solution_files(maze3: str, tmp_path: Path) -> None:
    best = tmp_path / "best.json"
    best.write_text(cli("solve", maze3, "--json").stdout)  # its own solve --json: a notation it reads
    short = tmp_path / "short.txt"
    short.write_text("DDR")
    bad = tmp_path / "bad.txt"
    bad.write_text("RR!")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe")
    missing = tmp_path / "missing.txt"
    files = [best, short, bad, missing, binary]

    done = cli("check", maze3, "--solution", *map(str, files))
    assert done.returncode == 1 and done.stderr == ""  # a file could not be checked; the others were
    lines = done.stdout.splitlines()
    assert len(lines) == len(files)
    assert lines[0] == f"{best}: legal, cost 52; the optimum is 52 (optimal)"
    assert lines[1].startswith(f"{short}: ") and "legal" not in lines[1]
    assert lines[2].startswith(f"{bad}: error: line 1, column 3")
    assert lines[3] == f"{missing}: error: No such file or directory"
    assert lines[4] == f"{binary}: error: byte 0: not UTF-8 text"

    rows = [json.loads(line) for line in cli("check", maze3, "--solution", *map(str, files), "--json")
            .stdout.splitlines()]
    assert [row["file"] for row in rows] == [str(f) for f in files]
    assert rows[0]["valid"] and rows[0]["optimal"] and rows[0]["summary"] == lines[0].split(": ", 1)[1]
    assert rows[1]["valid"] is False and rows[1]["reason"]
    assert set(rows[3]) == {"file", "error"} and rows[3]["error"] == "No such file or directory"

    assert cli("check", maze3, "--solution", str(best), str(short)).returncode == 3  # one not legal
    assert cli("check", maze3, "--solution", str(best), str(best)).returncode == 0  # all legal
