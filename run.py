#!/usr/bin/env python3
"""Command line: ``serve`` (the default) starts the web app; ``solve`` solves a file headlessly;
``generate`` writes a new maze.

    python run.py                                   # serve on http://127.0.0.1:5000
    python run.py serve --host 0.0.0.0 --port 8000
    python run.py solve maze.png --algorithm astar --heuristic octile --diagonal --json --out path.png
    python run.py generate perfect 500 500 --seed 7 --out big.png
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from server.puzzles.registry import FAMILIES
from server.search.registry import ALGORITHMS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="run.py", description="Search algorithms on mazes and tile puzzles."
    )
    sub = parser.add_subparsers(dest="command")

    serve = sub.add_parser("serve", help="start the web app (the default)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--max-pixels", type=int, default=None, help="largest image an upload may have")
    serve.add_argument("--debug", action="store_true")

    solve = sub.add_parser("solve", help="solve a puzzle file headlessly")
    solve.add_argument("file", type=Path)
    solve.add_argument("--algorithm", "-a", default="bfs", choices=list(ALGORITHMS))
    solve.add_argument("--family", choices=FAMILIES, help="force the puzzle family (default: detect)")
    solve.add_argument("--heuristic", default="", help="manhattan, euclidean, octile or chebyshev")
    solve.add_argument("--weight", type=float, default=1.0, help="A*: f = g + weight * h")
    solve.add_argument("--diagonal", action="store_true", help="8-neighbour moves (never cutting a corner)")
    solve.add_argument("--start", help="ROW,COL of the start (overrides the file)")
    solve.add_argument("--goal", help="ROW,COL of the goal (overrides the file)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--out", type=Path, help="write the maze with its path drawn on it (PNG)")
    solve.add_argument("--max-pixels", type=int, default=300_000_000, help="largest image to read")
    solve.add_argument("--engine", choices=("auto", "generic"), default="auto",
                       help="generic = the pure-Python reference algorithms (slow on big mazes)")
    lab = solve.add_argument_group("shifting-tile labyrinth")
    lab.add_argument("--moves", choices=("combined", "separate"), help="move model (default combined)")
    lab.add_argument("--start-col", type=int, help="the player starts below this column (default 0)")
    lab.add_argument("--goal-col", type=int, help="and leaves above this one (default the last)")
    lab.add_argument("--left-rows", type=int_list, help="rows pushed from the left, e.g. 0,2,4")
    lab.add_argument("--right-rows", type=int_list, help="rows pushed from the right, e.g. 1,3")
    lab.add_argument("--push-columns", action="store_true", help="the board game: columns too")
    lab.add_argument("--rotate-free", action="store_true", help="the board game: turn the free tile first")
    lab.add_argument("--view", choices=("states", "sets"), default="states",
                     help="search one player's states, or the merged sets of places")
    lab.add_argument("--max-depth", type=int, help="idastar/iddfs: plans of at most this many moves")

    gen = sub.add_parser("generate", help="write a generated maze (PNG, or text for .txt)")
    gen.add_argument("kind", choices=("perfect", "braid"))
    gen.add_argument("rows", type=int, help="rows of cells (the image is 2*rows+1 pixels high)")
    gen.add_argument("cols", type=int)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--out", type=Path, required=True)
    return parser


def int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in (None, "serve"):
        return cmd_serve(args)
    if args.command == "solve":
        return cmd_solve(args)
    return cmd_generate(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from server import create_app, socketio
    from server.config import Config

    config = Config()
    if getattr(args, "max_pixels", None):
        config.max_pixels = args.max_pixels
    host, port = getattr(args, "host", "127.0.0.1"), getattr(args, "port", 5000)
    app = create_app(config)
    print(f"Serving on http://{host}:{port}  (Ctrl+C to stop)", flush=True)
    socketio.run(app, host=host, port=port, debug=getattr(args, "debug", False),
                 use_reloader=False, allow_unsafe_werkzeug=True, log_output=False)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from server.puzzles.errors import PuzzleError
    from server.puzzles.labyrinth_parse import LabyrinthOptions
    from server.puzzles.registry import detect_family, load_puzzle
    from server.search.registry import FAMILY_ALGORITHMS
    from server.solving import RunOptions, solve

    t0 = time.perf_counter()
    try:
        data = args.file.read_bytes()
    except OSError as err:
        return fail(f"{args.file}: {err.strerror or err}")
    warming = None
    family = args.family or detect_family(args.file.name, data)
    if args.engine == "auto" and family == "grid" and args.algorithm in FAMILY_ALGORITHMS["grid"]:
        import threading

        from server.kernels import warm_up

        # numba's import and cache load overlap the image decoding (which releases the GIL).
        warming = threading.Thread(target=warm_up, args=(args.algorithm,), daemon=True)
        warming.start()
    try:
        labyrinth = LabyrinthOptions(
            moves=args.moves, start_col=args.start_col, goal_col=args.goal_col,
            left_rows=args.left_rows, right_rows=args.right_rows,
            push_columns=args.push_columns or None, rotate_free=args.rotate_free or None,
        )
        puzzle = load_puzzle(data, args.file.name, args.family, max_pixels=args.max_pixels,
                             labyrinth=labyrinth)
        options = RunOptions.from_json({
            "heuristic": args.heuristic, "weight": args.weight, "diagonal": args.diagonal,
            "start": args.start, "goal": args.goal, "view": args.view, "max_depth": args.max_depth,
        })
        if warming is not None:
            warming.join()
        solved = solve(puzzle, args.algorithm, options, engine=args.engine)
    except PuzzleError as err:
        return fail(f"{args.file}: {err}")
    if args.out and solved.result is not None:
        from server.puzzles.grid_render import render_solution

        render_solution(solved_maze(puzzle, options), [int(c) for c in solved.result.path]).save(args.out)
    elif args.out:
        return fail(f"{args.file}: --out draws grid mazes only")
    if args.json:
        print(json.dumps(solved.json, separators=(",", ":")))
    else:
        r = solved.json
        verdict = "optimal" if r["optimal_guaranteed"] else "not guaranteed optimal"
        if r["found"] and "moves" in r:
            print(f"{args.file.name}: {r['algorithm']} solved it in {r['cost']} moves ({verdict}), "
                  f"{r['insertions']} insertions, {r['walked_cells']} cells walked; "
                  f"expanded {r['expanded']:,} states in {r['seconds']:.3f} s")
            for number, move in enumerate(r["moves"], start=1):
                print(f"  {number}. {move['text']}")
        elif r["found"]:
            print(f"{args.file.name}: {r['algorithm']} found a path of cost {r['cost']} ({verdict}), "
                  f"{len(r['path'])} cells; expanded {r['expanded']:,}, generated {r['generated']:,}, "
                  f"max frontier {r['max_frontier']:,}; search {r['seconds']:.3f} s, "
                  f"total {time.perf_counter() - t0:.3f} s")
        else:
            why = r.get("message") or r.get("stopped") or "none exists"
            print(f"{args.file.name}: {r['algorithm']} found no path ({why}); expanded {r['expanded']:,}")
    return 0 if solved.json["found"] else 2


def solved_maze(puzzle, options):
    """The maze with the start/goal the run used (for drawing)."""
    return puzzle.with_endpoints(options.start, options.goal)


def cmd_generate(args: argparse.Namespace) -> int:
    from server.puzzles.grid_generate import generate_braid, generate_perfect, maze_to_image, maze_to_text

    make = generate_perfect if args.kind == "perfect" else generate_braid
    maze = make(args.rows, args.cols, args.seed)
    if args.out.suffix.lower() == ".txt":
        args.out.write_text(maze_to_text(maze), encoding="utf-8")
    else:
        maze_to_image(maze).save(args.out)
    print(f"wrote {args.out} ({maze.width} x {maze.height} pixels)")
    return 0


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    status = main()
    # Everything is written and flushed: skip the interpreter's teardown, which after a big solve
    # (numba's finalizers, freeing hundreds of MB of maze) took 0.3-0.4 s, a quarter of the run.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
