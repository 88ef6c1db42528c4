"""The command line: ``mazeviz`` where the package is installed, ``python run.py`` in a checkout (the
same ``main``). ``serve`` (the default) starts the web app; ``solve`` solves a file headlessly;
``compare`` runs several algorithms on one puzzle and prints a table; ``generate`` writes a new maze.

    python run.py                                   # serve on http://127.0.0.1:5000
    python run.py serve --host 0.0.0.0 --port 8000
    python run.py solve maze.png --algorithm astar --heuristic octile --diagonal --json --out path.png
    python run.py compare maze3.png --algorithms bfs,astar,astar:heuristic=euclidean,dfs --csv
    python run.py generate perfect 500 500 --seed 7 --out big.png
    python run.py check maze3.png --solution hand-ins/*.txt --json
    python run.py heuristic maze3.png --formula "2*(dr + dc)" --json

The command line writes English (the default language of ``server.i18n``); the web app answers each
reader in their own language (German or English).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .i18n import t  # the CLI writes English (the default language): catalog keys become words

GENERAL_FLAGS = {
    "file", "algorithm", "algorithms", "family", "json", "csv", "out", "max_pixels", "engine", "command",
    "solution", "max_states", "programs", "seconds", "known_family", "file_data",
}
#: The commands on one puzzle file: parsed with that file's family's flags alone when they parse so.
FILE_COMMANDS = ("solve", "compare", "check", "grade", "heuristic")
ENGINES = ("auto", "generic", "compiled")
#: A file at least this big is read while the family's fast path loads (numba and a kernel, ~0.4 s):
#: its reading takes as long, and its board is big enough for the kernels.
WARM_UP_BYTES = 1_000_000
CHECK_EXIT = ("0 when every solution was checked and is legal, 3 when one is not legal (it says why), 1 "
              "when a file could not be read or is in no notation (its own line; the others are still "
              "checked), 2 when the family's solutions cannot be checked")


class ParseError(Exception):
    """What argparse would have exited with (the lean parser's ``error``)."""


class _LeanParser(argparse.ArgumentParser):
    """A parser that takes no abbreviated flag (one it would read as its family's alone may be ambiguous
    among every family's) and raises instead of exiting: the full parser then parses, and says it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})  # its subparsers too

    def error(self, message: str):  # type: ignore[override]
        raise ParseError(message)


def prog() -> str:
    """The command's name in usage lines and messages: ``mazeviz`` as the installed command, else
    ``run.py``."""
    return "mazeviz" if Path(sys.argv[0]).name == "mazeviz" else "run.py"


def build_parser(families: list | None = None,
                 parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser,
                 ) -> argparse.ArgumentParser:
    """The command line's parser: with every family's flags (imports them all), or with ``families``'
    alone (the lean parse of a command on one file: ``parse_args``)."""
    from .puzzles.registry import FAMILIES
    from .search.registry import ALGORITHMS

    families = list(FAMILIES.values()) if families is None else families  # first: they register algorithms
    parser = parser_class(
        prog=prog(), description="Search algorithms on mazes and tile puzzles."
    )
    sub = parser.add_subparsers(dest="command")

    serve = sub.add_parser(
        "serve", help="start the web app (the default)",
        description="Serve the web app with gunicorn's threaded worker: one process, --threads threads "
        "(each open page holds one for its websocket). SIGTERM or Ctrl-C cancels the searches in "
        "progress, tells their pages and exits within a few seconds. More processes: several "
        "`run.py serve --redis URL` behind a proxy (docs/DEPLOY.md). Every limit of server/config.py "
        "can be set in the environment as MAZE_<FIELD>.",
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--max-pixels", type=int, default=None, help="largest image an upload may have")
    serve.add_argument("--threads", type=int, default=100,
                       help="worker threads: pages connected at once plus requests (default 100)")
    serve.add_argument("--redis", metavar="URL", default=None,
                       help="share Socket.IO's messages (and the puzzle store, limits, GIF jobs) with other "
                       "processes through this Redis, e.g. redis://127.0.0.1:6379/0 (default: "
                       "$MAZE_REDIS_URL, else none); checked at start")
    serve.add_argument("--debug", action="store_true",
                       help="Werkzeug's development server with Flask's debug mode instead of gunicorn "
                       "(never in production)")

    grader = sub.add_parser(
        "grader", help="grade assignment submissions from a Redis queue",
        description="Run grader threads that take assignment submissions from the grading queue in this "
        "Redis (a stream with a consumer group), judge them and store the results there; the pages "
        "hear of each through Socket.IO's message queue in the same Redis. Any number of graders on "
        "any machine; a grader killed mid-job leaves it to another (docs/DEPLOY.md).",
    )
    grader.add_argument("--redis", metavar="URL", default=None,
                        help="the Redis the servers run with (default: $MAZE_REDIS_URL)")
    grader.add_argument("--threads", type=int, default=None,
                        help="grader threads (default: MAZE_GRADERS, else 1)")

    solve = sub.add_parser(
        "solve", help="solve a puzzle file headlessly",
        description="Solve a puzzle file. The family is detected from the file (--family forces it); "
        "each family's options are listed in a group of their own and only apply to that family.",
    )
    solve.add_argument("file", type=Path)
    solve.add_argument("--algorithm", "-a", default=None, choices=list(ALGORITHMS),
                       help="default: the family's own (its best optimal method; grids: bfs)")
    solve.add_argument("--family", help=f"force the puzzle family: {', '.join(FAMILIES)} (default: detect)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--out", type=Path, help="write a picture of the solution (PNG)")
    solve.add_argument("--max-pixels", type=int, default=300_000_000, help="largest image to read")
    solve.add_argument("--engine", choices=ENGINES, default="auto",
                       help="auto = compiled kernels where the family has them and the board is big enough "
                       "to pay for loading them; generic = the pure-Python reference algorithms (slow on "
                       "big mazes); compiled = the kernels whatever the size")
    add_family_options(solve, families)

    compare = sub.add_parser(
        "compare", help="run several algorithms on one puzzle and print a table",
        description="Run each algorithm on the same puzzle and print one row per run: cost, moves, "
        "expanded, generated, max frontier, seconds, whether optimality is guaranteed and whether it was "
        "achieved (against the best cost known). Per-run options follow the name: "
        "astar:weight=2:heuristic=octile. "
        "Family options (below) apply to every run.",
    )
    compare.add_argument("file", type=Path)
    compare.add_argument("--algorithms", required=True, help="comma-separated: bfs,astar,dfs")
    compare.add_argument("--family", help=f"force the puzzle family: {', '.join(FAMILIES)} (default: detect)")
    output = compare.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print a JSON list, one object per algorithm")
    output.add_argument("--csv", action="store_true", help="print CSV with a header row")
    compare.add_argument("--max-pixels", type=int, default=300_000_000, help="largest image to read")
    compare.add_argument("--engine", choices=ENGINES, default="auto")
    add_family_options(compare, families)

    grade = sub.add_parser(
        "grade", help="run students' search programs on a puzzle and judge them (student mode)",
        description="Run each PROGRAM (a .py file defining search(problem), docs/STUDENT.md) on the "
        "puzzle, as the page's 'Your code' does, and judge it: the path (legal, cost, optimal) and the "
        "order of expansions against --algorithm under its tie-break. Each program runs in the grading "
        "sandbox (bubblewrap: no network, no environment, no host files, a memory cap, a step, CPU and "
        "time limit; docs/DEPLOY.md). Exit status 0 when every program was graded, whatever the verdicts; "
        "1 on a bad file; 2 where this host cannot isolate a program (nothing is run then).",
    )
    grade.add_argument("file", type=Path)
    grade.add_argument("programs", type=Path, nargs="+", metavar="PROGRAM")
    grade.add_argument("-a", "--algorithm", default=None,
                       help="the algorithm to compare with (default: the family's default)")
    grade.add_argument("--seconds", type=float, default=5.0, help="time limit per program (default 5)")
    grade.add_argument("--family", help=f"force the puzzle family: {', '.join(FAMILIES)} (default: detect)")
    grade.add_argument("--json", action="store_true", help="print one JSON object per program, a line each")
    grade.add_argument("--max-pixels", type=int, default=300_000_000, help="largest image to read")
    add_family_options(grade, families)

    check = sub.add_parser(
        "check", help="check solutions handed in for a puzzle: legal? cost? optimal?",
        description="Replay each SOLUTION_FILE under the puzzle's rules (the family options below) and "
        "judge it against the optimum (the family's optimal search), all in one process: "
        "`run.py check maze.png --solution hand-ins/*.txt`. Notations: "
        + "; ".join(f"{t(f.title)} - {t(f.checker.notation)}" for f in families if f.checker)
        + "; every family - its own `run.py solve --json` output. One SOLUTION_FILE: its verdict in one "
        "line (or one JSON object). Several: a line per file, 'FILE: verdict' (or a JSON object per line "
        "with its \"file\"; a file that cannot be read, {\"file\", \"error\"}). Exit status "
        + CHECK_EXIT + ".",
    )
    check.add_argument("file", type=Path)
    check.add_argument("--solution", type=Path, required=True, nargs="+", metavar="SOLUTION_FILE",
                       help="the solutions to check, one or more")
    check.add_argument("--family", help=f"force the puzzle family: {', '.join(FAMILIES)} (default: detect)")
    check.add_argument("--json", action="store_true",
                       help="print one JSON object per solution, a line each: valid, cost, optimum, optimal, "
                       "first_illegal_move, reason, moves, summary (and file, for several)")
    check.add_argument("--max-pixels", type=int, default=300_000_000, help="largest image to read")
    add_family_options(check, families)

    lab = sub.add_parser(
        "heuristic", help="judge a heuristic formula against the true cost-to-go of every reachable state",
        description="Is h = FORMULA admissible (never above the true cost-to-go h*) and consistent (never "
        "falling by more than a move's cost) on this puzzle? h* is found for every state reachable from the "
        "start by uniform-cost search backwards from the goals. The formula's names are the family's "
        "features: " + "; ".join(f"{f.name}: {', '.join(f.lab.feature_names)}" for f in families if f.lab)
        + ". Numbers, + - * / // % ** (a literal exponent), comparisons, and/or/not, x if c else y, abs min "
        "max sqrt floor ceil. Exit status 0 when judged (whatever the verdict), 1 on a bad file or formula.",
    )
    lab.add_argument("file", type=Path)
    lab.add_argument("--family", help=f"force the puzzle family: {', '.join(FAMILIES)} (default: detect)")
    lab.add_argument("--json", action="store_true",
                     help="print one JSON object: admissible, consistent, states, overestimates, worst, "
                     "inconsistent_moves, worst_move, h_at_goal, ...")
    lab.add_argument("--max-states", type=int, default=5_000_000,
                     help="states a family without its own lab walks at most (grids judge every cell)")
    lab.add_argument("--max-pixels", type=int, default=300_000_000, help="largest image to read")
    add_family_options(lab, families)

    kinds = [kind for family in families if family.maker for kind in family.maker.generators]
    gen = sub.add_parser(
        "generate", help="write a generated puzzle",
        description="Write a new puzzle of KIND; the file type follows --out's extension. Kinds: "
        + "; ".join(f"{k.name} ({k.help}{', ' + k.board if k.board else ''})" for k in kinds),
    )
    gen.add_argument("kind", choices=[k.name for k in kinds])
    gen.add_argument("rows", help="rows (of maze cells or board cells: see the kind)")
    gen.add_argument("cols", help="columns")
    gen.add_argument("--seed", default="1", help="the same seed makes the same puzzle again (default 1)")
    gen.add_argument("--out", type=Path, required=True, help="the file to write (.txt, .png, .json, .csv)")
    extra = {o.name: o for k in kinds for o in k.options if o.name not in ("rows", "cols", "seed")}
    for option in extra.values():
        ranged = option.min is not None and option.max is not None
        bounds = f"{option.min:g}..{option.max:g}, " if ranged else ""
        gen.add_argument("--" + option.name.replace("_", "-"), dest=option.name, default=None,
                         help=f"{help_of(option)} ({bounds}default {option.default})")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line as argparse reads it with every family's flags. A command on one file is first
    parsed with only its file's family's flags (that family alone imported); anything that parser
    refuses (a flag of another family, --help, an unreadable file…) goes to the full parser, which
    answers exactly as it always did."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _lean_parse(argv)
    except ParseError:
        args = None
    return args if args is not None else build_parser().parse_args(argv)


def _lean_parse(argv: list[str]) -> argparse.Namespace | None:
    """``argv`` parsed with its puzzle file's family's flags alone, with that family (``known_family``)
    and the file's bytes (``file_data``); None when the command is not of this form (its file right
    after the command, no help asked for) or the file cannot be read or detected."""
    from .puzzles.errors import PuzzleError
    from .puzzles.registry import detect_family, get_family

    if len(argv) < 2 or argv[0] not in FILE_COMMANDS or argv[1].startswith("-") or "-h" in argv \
            or "--help" in argv:
        return None
    try:
        data = Path(argv[1]).read_bytes()
        forced = _flag_value(argv, "--family")
        family = get_family(forced) if forced else detect_family(Path(argv[1]).name, data)
    except (OSError, PuzzleError):
        return None  # the full parse, then the command, say what is wrong as they always have
    args = build_parser([family], _LeanParser).parse_args(argv)
    args.known_family, args.file_data = family, data
    return args


def _flag_value(argv: list[str], flag: str) -> str | None:
    """The value of the last ``flag VALUE`` or ``flag=VALUE`` in ``argv`` (as argparse takes it)."""
    value = None
    for i, word in enumerate(argv):
        if word == flag and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith(flag + "="):
            value = word[len(flag) + 1:]
    return value


def add_family_options(solve: argparse.ArgumentParser, families: list) -> None:
    """Flags from the families' options schemas: an option several families share (the search's
    heuristic and weight) in one group, then one group per family. Values stay text here: the
    family's schema reads and checks them (``Family.text_options``)."""
    owners: dict[str, list] = {}
    for family in families:
        for option in family.options:
            owners.setdefault(option.name, []).append((family, option))
    shared = solve.add_argument_group("search options (each family checks its own values)")
    for owned in owners.values():
        if len(owned) > 1:
            first = owned[0][1]
            choices = list(dict.fromkeys(v for _, o in owned for v in o.choice_values)) or None
            per_family = "; ".join(
                f"{f.name}: {', '.join(o.choice_values)}" for f, o in owned if o.choice_values
            )
            _add_flag(shared, first, help_of(first) + (f" ({per_family})" if per_family else ""), choices)
    for family in families:
        group = solve.add_argument_group(f"{family.noun} options ({family.name})")
        for option in family.options:
            if len(owners[option.name]) == 1:
                _add_flag(group, option, help_of(option), option.choice_values or None)


def help_of(option) -> str:
    """An option's help in words (its field holds a catalog key; the command line writes English)."""
    return t(option.help, **{k: t(v) for k, v in option.help_params}) if option.help else ""


def _add_flag(group, option, help_text: str, choices: list[str] | None) -> None:
    flag = "--" + option.name.replace("_", "-")
    if option.type == "bool":
        group.add_argument(flag, dest=option.name, action="store_const", const="true",
                           default=argparse.SUPPRESS, help=help_text)
        return
    metavar = {"point": "ROW,COL", "int_list": "N,N,...", "int": "N", "float": "X"}.get(option.type)
    group.add_argument(flag, dest=option.name, default=argparse.SUPPRESS, help=help_text,
                       metavar=metavar, choices=choices)


def option_names(family) -> set[str]:
    return {option.name for option in family.options}


def family_flags(args: argparse.Namespace) -> dict[str, str]:
    """The family options given on the command line, as text."""
    return {name: value for name, value in vars(args).items() if name not in GENERAL_FLAGS}


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); the exit status. A reader that went
    away (``mazeviz solve ... | head``) ends it quietly with 0."""
    try:
        return _run(argv)
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # stdout to /dev/null: the last flush is quiet
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(argv: list[str] | None) -> int:
    args = parse_args(argv)
    if args.command in (None, "serve"):
        return cmd_serve(args)
    if args.command == "grader":
        return cmd_grader(args)
    if args.command == "solve":
        return cmd_solve(args)
    if args.command == "compare":
        return cmd_compare(args)
    if args.command == "check":
        return cmd_check(args)
    if args.command == "grade":
        return cmd_grade(args)
    if args.command == "heuristic":
        return cmd_heuristic(args)
    return cmd_generate(args)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve with gunicorn (``server/serving.py``), or with ``--debug`` Werkzeug's development server.
    A setting that does not parse, or a Redis that does not answer: one line on stderr, status 2."""
    from .config import Config
    from .redis_link import RedisUnavailable, connect, shared_secret

    host, port = getattr(args, "host", "127.0.0.1"), getattr(args, "port", 5000)
    threads = getattr(args, "threads", 100)
    redis_url = getattr(args, "redis", None) or os.environ.get("MAZE_REDIS_URL") or None

    def refuse(message: str) -> int:  # the server cannot start as asked: status 2
        print(f"error: {message}", file=sys.stderr)
        return 2

    if threads < 1:
        return refuse("--threads must be at least 1")
    try:
        max_pixels = getattr(args, "max_pixels", None)
        config = Config.from_env(max_pixels=max_pixels, redis_url=redis_url)
        if max_pixels and "MAZE_TRACE_BUDGET_BYTES" not in os.environ:
            # A server told to accept images of N pixels can read and search them (Config.work_bytes).
            config.trace_budget_bytes = config.work_bytes()
    except ValueError as err:
        return refuse(str(err))
    if config.redis_url:
        try:
            link = connect(config.redis_url)
        except RedisUnavailable as err:
            return refuse(str(err))
        if not os.environ.get("MAZE_SECRET_KEY"):
            # Every process must read a browser's session cookie alike (who it is for its limits):
            # without MAZE_SECRET_KEY they agree on one kept in Redis.
            config.secret_key = shared_secret(link, config.secret_key)
        link.close()
    print(f"Serving on http://{host}:{port}  (Ctrl+C to stop)", flush=True)
    if getattr(args, "debug", False):
        from .app import create_app, socketio

        socketio.run(create_app(config), host=host, port=port, debug=True, use_reloader=False,
                     allow_unsafe_werkzeug=True, log_output=False)
        return 0
    from .app import create_app
    from .serving import serve

    return serve(lambda: create_app(config), host, port, threads)


def cmd_grader(args: argparse.Namespace) -> int:
    """Grader threads against ``--redis`` (store and queue there) until SIGTERM or Ctrl-C; each result
    announced as ``assignment_update`` through Socket.IO's message queue in that Redis."""
    import signal
    import socket
    import threading

    from flask_socketio import SocketIO

    from .assignments.grader import Graders
    from .assignments.queue import open_queue
    from .assignments.store import open_assignment_store
    from .budget import WorkBudget
    from .config import Config
    from .redis_link import RedisUnavailable, connect, safe_url
    from .store import open_store

    url = args.redis or os.environ.get("MAZE_REDIS_URL") or None
    if not url:
        return fail(f"a grader needs the servers' Redis: {prog()} grader --redis redis://HOST:6379/0")
    try:
        config = Config.from_env(redis_url=url)
        connect(url).close()
        count = args.threads if args.threads is not None else max(1, config.graders)
        if count < 1:
            return fail("--threads must be at least 1")
        budget = WorkBudget(config.max_concurrent_runs, config.trace_budget_bytes,
                            config.max_concurrent_loads, config.tile_renders_at_once)
        store, queue = open_assignment_store(config), open_queue(config)
        graders = Graders(config, store, queue, open_store(config, budget), count,
                          name=f"grader-{socket.gethostname()}-{os.getpid()}", budget=budget)
    except (ValueError, RedisUnavailable) as err:
        return fail(str(err))
    emitter = SocketIO(message_queue=url)

    def announce(aid: str, sid: str, status: str) -> None:
        emitter.emit("assignment_update", {"id": aid, "submission": sid, "status": status},
                     to=f"assignment:{aid}")

    graders.announce = announce
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    graders.start()
    print(f"Grading with {count} thread(s) from Redis at {safe_url(url)}  (Ctrl+C to stop)", flush=True)
    stop.wait()
    graders.stop()
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    import threading

    from .puzzles.errors import PuzzleError
    from .solving import solve

    warming: list[threading.Thread] = []

    def warm_up(family, data: bytes) -> None:
        args.algorithm = args.algorithm or family.default_algorithm
        # A big file's reading hides its fast path's start-up (numba's import, the kernel's cache load).
        # A small one is read at once, and its board is likely small: the generic engine solves it,
        # and nothing is loaded for it (the family loads its kernel in ``solve`` if it needs one).
        if args.engine != "generic" and len(data) >= WARM_UP_BYTES:
            warming.append(threading.Thread(target=family.warm_up, args=(args.algorithm,), daemon=True))
            warming[0].start()

    try:
        family, puzzle, run_flags = read_puzzle(args, warm_up)
        run_options = family.text_options(run_flags, "run")
        for thread in warming:
            thread.join()
        # No search limits here (the user's own machine); ``compact``: a grid path stays an array,
        # written by json_arrays without a Python object per cell.
        solved = solve(puzzle, args.algorithm, run_options, engine=args.engine, compact=True)
    except PuzzleError as err:
        return fail(f"{args.file}: {err}")
    if args.out:
        picture = family.solution_image
        if picture is None or not solved.json["found"]:
            why = "no path was found" if not solved.json["found"] else f"the {family.name} family draws none"
            return fail(f"{args.file}: --out: no solution image ({why})")
        image = picture.draw(solved)
        if args.out.suffix.lower() in ("", ".png"):
            from .puzzles.grid.render import save_png

            save_png(image, args.out)
        else:
            image.save(args.out)
    if args.json:
        from . import json_arrays

        stream = getattr(sys.stdout, "buffer", None)  # none when stdout is a text buffer (tests)
        if stream is None:
            print(json_arrays.encode(solved.json).decode("ascii"))
        else:
            sys.stdout.flush()
            json_arrays.write(solved.json, stream)
            stream.write(b"\n")
            stream.flush()
    else:
        print("\n".join(family.summary_lines(args.file.name, solved.json)))
    return 0 if solved.json["found"] else 2


def read_puzzle(args: argparse.Namespace, before_load: Callable[[Any, bytes], None] | None = None):
    """(family, puzzle, run-stage flags as text) of a command on one puzzle file; raises PuzzleError.
    ``before_load(family, data)`` runs once the family is known (the solve command warms its fast
    path). The file's bytes and family come from the lean parse when it read them (``parse_args``)."""
    from .puzzles.errors import PuzzleError
    from .puzzles.family import LoadLimits
    from .puzzles.registry import FAMILIES, detect_family, get_family, load_detected

    data = vars(args).pop("file_data", None)  # held no longer than the puzzle needs it (25 MB on a 15k maze)
    if data is None:
        try:
            data = args.file.read_bytes()
        except OSError as err:
            raise PuzzleError(str(err.strerror or err)) from None
    known = getattr(args, "known_family", None)
    family = get_family(args.family) if args.family else known or detect_family(args.file.name, data)
    given = family_flags(args)
    foreign = sorted(set(given) - option_names(family))
    if foreign:
        flag = "--" + foreign[0].replace("_", "-")
        owners = [f.name for f in FAMILIES.values() if foreign[0] in option_names(f)]
        raise PuzzleError(t("cli.flag_of_another_family", flag=flag, owners=" and ".join(owners),
                            noun=family.noun, name=family.name))
    if before_load is not None:
        before_load(family, data)
    load_stage = {o.name for o in family.options if o.stage in ("load", "both")}
    load_options = family.text_options({k: v for k, v in given.items() if k in load_stage}, "load")
    limits = LoadLimits(max_pixels=args.max_pixels, max_cells=args.max_pixels)
    if args.family:
        puzzle = family.load(data, args.file.name, load_options, limits)
    else:  # detected: a guess that does not parse also says what the other families read
        puzzle = load_detected(family, data, args.file.name, load_options, limits)
    return family, puzzle, {k: v for k, v in given.items() if k not in load_stage}


def cmd_compare(args: argparse.Namespace) -> int:
    from .comparing import compare, parse_run_spec, public_rows, rows_to_csv, rows_to_text
    from .puzzles.errors import PuzzleError

    try:
        family, puzzle, shared = read_puzzle(args)
        runs = []
        for spec in filter(None, (s.strip() for s in args.algorithms.split(","))):
            name, own = parse_run_spec(spec)
            family.check_algorithm(name)
            values = family.text_options({**shared, **own}, "run")
            # "": a formula that heuristic "yours" does not read here (``Family.formula``)
            used = {k: v for k, v in values.items() if (k in own or k in shared) and v != ""}
            runs.append((name, used))
        if not runs:
            raise PuzzleError(t("cli.name_an_algorithm"), "--algorithms")
        rows = compare(puzzle, runs, engine=args.engine)
    except PuzzleError as err:
        return fail(f"{args.file}: {err}")
    if args.json:
        print(json.dumps(public_rows(rows), indent=1))
    elif args.csv:
        print(rows_to_csv(rows), end="")
    else:
        print(f"{args.file.name} ({family.noun}):")
        print(rows_to_text(rows))
    return 0 if all(row["found"] for row in rows) else 2


def cmd_check(args: argparse.Namespace) -> int:
    """Check solution files against one puzzle, read once: a line each (or ``--json``, an object a
    line); the status is ``CHECK_EXIT``'s. One file: its verdict alone, an unreadable one on stderr, as
    ever; several: each line names its file, and a bad file is its own line."""
    from .judging import exact_optimum, judge_solution, rule_options
    from .puzzles.capabilities import absent
    from .puzzles.errors import PuzzleError

    try:
        family, puzzle, run_flags = read_puzzle(args)
        if family.checker is None:  # exit status 2, in the words ``Family.need`` refuses it with
            print(f"{args.file}: {absent('checker', family)}", file=sys.stderr)
            return 2
        options = rule_options(family, family.text_options(run_flags, "run"))
    except PuzzleError as err:
        return fail(f"{args.file}: {err}")
    several = len(args.solution) > 1
    errors = illegal = 0
    optimum = None  # found once for every file: the same puzzle under the same rules
    for path in args.solution:
        try:
            text = _solution_text(path)
            if optimum is None:
                optimum = exact_optimum(puzzle, options)
            result = judge_solution(puzzle, text, options, optimum=optimum)
        except PuzzleError as err:
            errors += 1
            if not several:
                return fail(f"{path}: {err}")
            row = json.dumps({"file": str(path), "error": str(err)}) if args.json else f"{path}: error: {err}"
            print(row, flush=True)
            continue
        illegal += not result.valid
        if args.json:
            verdict = {"file": str(path), **result.to_json()} if several else result.to_json()
            print(json.dumps(verdict, separators=(",", ":")), flush=True)
        else:
            print(f"{path}: {result.summary()}" if several else result.summary(), flush=True)
    return 1 if errors else 3 if illegal else 0


def _solution_text(path: Path) -> str:
    """A solution file's text; raises PuzzleError (not readable, not UTF-8)."""
    from .puzzles.errors import PuzzleError

    try:
        return path.read_bytes().decode("utf-8")
    except OSError as err:
        raise PuzzleError(str(err.strerror or err)) from None
    except UnicodeDecodeError as err:
        raise PuzzleError(t("cli.not_utf8_at_byte", start=err.start)) from None


def cmd_grade(args: argparse.Namespace) -> int:
    """Grade students' programs: per program a line with its name and the verdict's sentences (or
    ``--json``); 0 when all were graded, 1 on a bad puzzle, option or unreadable program, 2 (before
    anything runs) where the grading sandbox is not available on this host."""
    from .config import Config
    from .grading import grade, world_json
    from .judging import rule_options
    from .puzzles.errors import PuzzleError
    from .sandbox import available, limits_from

    refused = available()
    if refused is not None:
        print(f"error: {prog()} grade refuses to run students' programs without the sandbox: {refused}",
              file=sys.stderr)
        return 2
    try:
        limits = limits_from(Config.from_env())  # MAZE_SANDBOX_MEMORY_BYTES…; --seconds is the clock
    except ValueError as err:
        return fail(str(err))

    try:
        family, puzzle, run_flags = read_puzzle(args)
        options = family.text_options(run_flags, "run")
        rules = rule_options(family, options)
        algorithm = args.algorithm or family.default_algorithm
        family.check_algorithm(algorithm)
        world = world_json(family, puzzle, rules, options.get("heuristic"))
    except PuzzleError as err:
        return fail(f"{args.file}: {err}")
    status = 0
    for program in args.programs:
        try:
            code = program.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as err:
            status = fail(f"{program}: {getattr(err, 'strerror', None) or err}")
            continue
        verdict = grade(family, puzzle, code, algorithm, options, rules, args.seconds, world=world,
                        limits=limits)
        if args.json:
            print(json.dumps({"program": str(program), **verdict}, separators=(",", ":")))
        else:
            print(f"{program}: {verdict['verdict']}")
            for line in verdict["messages"]:
                print(f"  {line}")
    return status


def cmd_heuristic(args: argparse.Namespace) -> int:
    """Judge ``--formula`` on a puzzle: a paragraph (or ``--json``); 0 when judged, 1 on a bad file or
    formula (one line naming the problem and its column)."""
    from .judging import judge_formula, rule_options
    from .puzzles.errors import PuzzleError

    try:
        family, puzzle, run_flags = read_puzzle(args)
        text = run_flags.pop("formula", None)
        if text is None:
            raise PuzzleError(t("cli.give_the_formula"), "--formula")
        options = rule_options(family, family.text_options(run_flags, "run"))
    except PuzzleError as err:
        return fail(f"{args.file}: {err}")
    try:
        verdict = judge_formula(puzzle, text, options, max_states=args.max_states)
    except PuzzleError as err:
        return fail(f"--formula: {err}")
    if args.json:
        print(json.dumps(verdict.to_json(), separators=(",", ":")))
    else:
        print(verdict.summary())
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from .puzzles.errors import PuzzleError
    from .puzzles.registry import families

    family = next(f for f in families()
                  if f.maker is not None and any(k.name == args.kind for k in f.maker.generators))
    maker, saver = family.need("maker"), family.need("saver")
    generator = maker.generator(args.kind)
    own = {o.name for o in generator.options}
    fields = {"rows": args.rows, "cols": args.cols, "seed": args.seed}
    for name, value in vars(args).items():
        if value is not None and name not in fields and name not in GENERAL_FLAGS | {"kind", "seed"}:
            if name not in own:
                return fail(f"--{name.replace('_', '-')} is not an option of the {args.kind} generator")
            fields[name] = value
    try:
        values = generator.parse(fields)
        made = maker.generate(generator.name, values)
        # The file type follows --out's extension; without one, the type that keeps everything.
        data = saver.save(made.puzzle, saver.check_format(args.out.suffix or None, made.puzzle))
    except PuzzleError as err:
        return fail(f"{args.out}: {err}")
    args.out.write_bytes(data)
    size = " x ".join(str(n) for n in reversed(family.size(made.puzzle)))
    print(f"wrote {args.out}: {made.description} ({size} board, {len(data):,} bytes)")
    return 0


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":  # python -m mazeviz.cli (installed) or python -m server.cli
    raise SystemExit(main())
