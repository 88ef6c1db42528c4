"""Fuzz every parser, options path, API route and socket event with many examples (issue 8, point 6).

    .venv/bin/python scripts/fuzz.py                      # 10,000 examples per target (~30-40 min)
    .venv/bin/python scripts/fuzz.py --examples 500 --only API

The same targets as ``tests/test_fuzz.py`` (strategies and checks in ``tests/fuzz_strategies.py``), but a
failure does not stop a target: it is counted, and the first examples of each kind are printed. Prints
per target the examples run, the failures (0 expected), the wall time, and for the API the status codes
seen (and for the socket the acknowledgements), then the known bugs outside the parsers: each probe
says whether the bug is still there. Exit status 1 when any target had a failure.
"""

from __future__ import annotations

import argparse
import logging
import platform
import resource
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import hypothesis  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from tests import fuzz_strategies as fz  # noqa: E402


@dataclass
class Outcome:
    name: str
    examples: int = 0
    failures: int = 0
    seconds: float = 0.0
    kinds: Counter = field(default_factory=Counter)  # failure signature -> count
    samples: dict = field(default_factory=dict)  # failure signature -> (example, traceback tail)
    statuses: Counter = field(default_factory=Counter)
    acks: Counter = field(default_factory=Counter)


def signature(err: BaseException) -> str:
    """What kind of failure: the exception, the first line of its message and the innermost project frame."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if str(ROOT) in f.filename
              and "fuzz" not in f.filename]
    place = f"{Path(frames[-1].filename).relative_to(ROOT)}:{frames[-1].lineno}" if frames else "?"
    first_line = (str(err).splitlines() or [""])[0][:160]
    return f"{type(err).__name__} at {place}: {first_line}"


def run_target(target: fz.Target, examples: int, batch: int, fixture: fz.Fixture | None) -> Outcome:
    """``examples`` examples in runs of ``batch``: hypothesis keeps what each example drew until its run
    ends (about 0.1 MB an example for the socket's payloads), so one run of 10,000 would hold gigabytes.
    Each run has its own random seed."""
    outcome = Outcome(target.name)
    before_statuses = Counter(fixture.statuses) if fixture else Counter()
    before_acks = Counter(fixture.acks) if fixture else Counter()
    strategy = target.strategy()
    start = time.perf_counter()
    while outcome.examples < examples:
        done = outcome.examples
        fuzz_batch(target, strategy, min(batch, examples - done), fixture, outcome)
        fz.release_memory()
        if outcome.examples == done:  # the strategy has no more distinct examples
            break
    outcome.seconds = time.perf_counter() - start
    if fixture:
        outcome.statuses = Counter(fixture.statuses) - before_statuses
        outcome.acks = Counter(fixture.acks) - before_acks
    return outcome


def fuzz_batch(
    target: fz.Target, strategy: Any, examples: int, fixture: fz.Fixture | None, outcome: Outcome
) -> None:
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(strategy)
    def fuzz(case: tuple) -> None:
        outcome.examples += 1
        try:
            if target.uses_app:
                target.check(fixture, *case)
            else:
                target.check(*case)
        except Exception as err:  # counted, not raised: the target runs all its examples
            outcome.failures += 1
            kind = signature(err)
            outcome.kinds[kind] += 1
            if kind not in outcome.samples:
                tail = "".join(traceback.format_exception(err)[-6:])
                outcome.samples[kind] = (fz._short(case, 600), tail[-1500:])

    fuzz()


def quiet_logs(fixture: fz.Fixture | None) -> None:
    """Errors are collected by the checks (a handler on the root logger while each runs) and counted as
    failures; they are not also printed as they happen."""
    from flask.logging import default_handler

    logging.getLogger().addHandler(logging.NullHandler())  # no last-resort printing to stderr
    if fixture is not None:
        fixture.app.logger.removeHandler(default_handler)
    for name in ("socketio.server", "engineio.server", "socketio", "engineio"):
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)


def peak_rss_mb() -> float:
    """The process's peak resident memory so far (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def histogram(counts: Counter) -> str:
    return ", ".join(f"{key}: {n:,}" for key, n in sorted(counts.items(), key=lambda kv: str(kv[0])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000, help="examples per target (default 10000)")
    parser.add_argument("--batch", type=int, default=1_000,
                        help="examples per hypothesis run (bounds memory; default 1000)")
    parser.add_argument("--only", default="", help="run the targets whose name contains this text")
    args = parser.parse_args()

    targets = [t for t in fz.TARGETS if args.only.lower() in t.name.lower()]
    print(f"fuzz: {args.examples:,} examples per target (hypothesis runs of {args.batch:,}), {len(targets)} "
          f"targets; Python {platform.python_version()}, hypothesis {hypothesis.__version__}")
    fixture = fz.make_fixture() if any(t.uses_app for t in targets) or not args.only else None
    quiet_logs(fixture)
    outcomes = []
    width = max(len(t.name) for t in targets)
    columns = f"{'examples':>8}  {'failures':>8}  {'seconds':>8}  {'per s':>6}  {'peak RSS':>8}"
    print(f"{'target':<{width}}  {columns}")
    for target in targets:
        outcome = run_target(target, args.examples, args.batch, fixture)
        outcomes.append(outcome)
        print(f"{outcome.name:<{width}}  {outcome.examples:>8,}  {outcome.failures:>8,}  "
              f"{outcome.seconds:>8.1f}  {outcome.examples / max(outcome.seconds, 1e-9):>6.0f}  "
              f"{peak_rss_mb():>5.0f} MB", flush=True)
        if outcome.statuses:
            print(f"{'':<{width}}  statuses: {histogram(outcome.statuses)}")
        if outcome.acks:
            print(f"{'':<{width}}  answers: {histogram(outcome.acks)}")
        for kind, count in outcome.kinds.most_common(5):
            example, tail = outcome.samples[kind]
            print(f"    {count:,} x {kind}\n      e.g. {example}\n      " + tail.replace("\n", "\n      "))

    total_examples = sum(o.examples for o in outcomes)
    total_failures = sum(o.failures for o in outcomes)
    total_seconds = sum(o.seconds for o in outcomes)
    print(f"{'total':<{width}}  {total_examples:>8,}  {total_failures:>8,}  {total_seconds:>8.1f}")

    if fixture is not None and not args.only:
        print("\nknown bugs outside the parsers (each probe fails while its bug is there):")
        for name, _reason, probe in fz.KNOWN_BUGS:
            try:
                probe(fixture)
                state = "FIXED (remove its xfail mark in tests/test_fuzz.py)"
            except AssertionError as err:
                state = f"still there: {(str(err).splitlines() or [''])[0][:140]}"
            print(f"  {name}: {state}")
    return 1 if total_failures else 0


if __name__ == "__main__":
    sys.exit(main())
