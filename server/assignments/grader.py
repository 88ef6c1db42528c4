"""Graders: threads that take a job from the queue, judge the submission (``judge.py``), store the
result and announce it (``assignment_update``). ``Config.graders`` of them run in each server process
(``Services.build`` makes them, ``create_app`` starts them); ``run.py grader --redis URL`` runs them
in a process of their own.

A job is finished (``queue.done``) only after its result is stored: a grader that dies mid-job leaves
it to be taken again (the local queue is re-filled from the store at start; Redis's XAUTOCLAIM). A
submission already graded is not judged again, and an attempt is never counted twice: the attempt
number was given once, when the submission was stored.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from .. import sandbox
from ..config import Config
from ..i18n import t, using
from .judge import judge
from .model import Assignment, Submission
from .queue import GradingQueue, Job, RedisQueue
from .store import AssignmentStore, pending, pinned_puzzle, sweep

log = logging.getLogger(__name__)

Announce = Callable[[str, str, str], None]  # (assignment id, submission id, status)
OWNER = "assignment grading"  # whose share of the work budget a judgement takes
SWEEP_SECONDS = 3600.0  # retention is swept this often by each grading process
RETRY_SECONDS = 5.0  # a job whose grading failed unexpectedly (the disk?) is queued again after this


class Graders:
    """``count`` grader threads over one store and queue (see the module's docstring)."""

    def __init__(self, config: Config, store: AssignmentStore, queue: GradingQueue, puzzles: Any,
                 count: int, name: str = "grader", budget: Any = None) -> None:
        self.config = config
        self.store = store
        self.queue = queue
        self.puzzles = puzzles  # the PuzzleStore the pinned puzzles go back into
        self.budget = budget  # the process's WorkBudget: a judgement holds a compute slot like a search
        self.count = count
        self.name = name
        self.announce: Announce = lambda aid, sid, status: None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._swept = 0.0

    def refill(self) -> int:
        """Put back every submission still queued or being graded that has no job: all of them for a
        local queue (it starts empty); on Redis, those whose job was never added (a process killed
        between storing a submission and queueing it). A job put twice is graded once."""
        found = pending(self.store)
        if isinstance(self.queue, RedisQueue):
            has_job = self.queue.waiting()
            found = [p for p in found if p[1] not in has_job]
        for aid, sid, _received in found:
            self.queue.put(Job(aid, sid))
        return len(found)

    def start(self) -> None:
        if self._threads or self.count <= 0:
            return
        refilled = self.refill()
        if refilled:
            log.info("grading queue: %d submission(s) not graded yet were queued again", refilled)
        for i in range(self.count):
            thread = threading.Thread(target=self._loop, args=(f"{self.name}-{i}",), daemon=True,
                                      name=f"{self.name}-{i}")
            thread.start()
            self._threads.append(thread)

    def stop(self, wait: float = 5.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(wait)
        self._threads = []

    def _loop(self, consumer: str) -> None:
        if consumer.endswith("-0"):  # said once, off the start-up path: code tasks then fail in these words
            refusal = sandbox.available()
            if refusal is not None:
                log.warning("grading: code will not be graded on this host: %s", refusal)
        while not self._stop.is_set():
            try:
                job = self.queue.take(consumer, 1.0)
            except Exception as err:  # Redis away a moment: try again shortly
                log.warning("grading queue: taking a job failed (%s)", err)
                self._stop.wait(1.0)
                continue
            if job is not None:
                self.grade(job)
            self._maybe_sweep()

    def _maybe_sweep(self) -> None:
        if time.monotonic() - self._swept < SWEEP_SECONDS:
            return
        self._swept = time.monotonic()
        try:
            gone = sweep(self.store)
        except Exception as err:
            log.warning("assignments: the retention sweep failed (%s)", err)
            return
        if gone:
            log.info("assignments: %d past their retention deleted", gone)

    def grade(self, job: Job) -> None:
        """Judge one job's submission and store its result; never raises."""
        try:
            assignment = self.store.get(job.assignment)
            submission = self.store.submission(job.assignment, job.submission)
            if assignment is None or submission is None or submission.status in ("graded", "failed"):
                self.queue.done(job)  # deleted meanwhile, or graded by a grader that then died
                return
            submission.status = "grading"
            submission.grader_runs += 1
            self.store.put_submission(submission)
            self._announce(submission)
            with self._renewing(job), using(submission.lang):  # verdicts in the submitter's language
                if self.config.grading_hold_seconds > 0:  # (tests: a long judgement)
                    self._stop.wait(self.config.grading_hold_seconds)
                    if self._stop.is_set():
                        return  # left for the next process (it is still ``grading`` in the store)
                if self.budget is not None:
                    with self.budget.computing(owner=OWNER):  # waits its turn among the searches
                        self._judge(assignment, submission)
                else:
                    self._judge(assignment, submission)
            self.store.put_submission(submission)
            self.queue.done(job)
            self._announce(submission)
        except LookupError:
            self.queue.done(job)  # the assignment was deleted while it was graded
        except Exception:
            log.exception("grading %s/%s failed; it is taken again later", job.assignment, job.submission)
            if not isinstance(self.queue, RedisQueue):  # (Redis: taken again after the visibility timeout)
                self._stop.wait(RETRY_SECONDS)
                self.queue.done(job)
                self.queue.put(job)

    @contextlib.contextmanager
    def _renewing(self, job: Job) -> Iterator[None]:
        """While the block judges ``job``, renew its claim every third of the visibility timeout, so
        no other grader takes a long judgement from a live grader (``GradingQueue.renew``)."""
        done = threading.Event()

        def beat() -> None:
            while not done.wait(self.config.grading_visibility_seconds / 3):
                try:
                    self.queue.renew(job)
                except Exception as err:  # Redis away a moment: the next beat tries again
                    log.warning("grading queue: renewing %s failed (%s)", job.submission, err)

        beater = threading.Thread(target=beat, daemon=True, name=f"renew-{job.submission}")
        beater.start()
        try:
            yield
        finally:
            done.set()
            beater.join()

    def _judge(self, assignment: Assignment, submission: Submission) -> None:
        task = assignment.task(submission.task)
        points = task.points if task else 0.0
        try:
            puzzle = pinned_puzzle(self.store, self.puzzles, assignment)
            submission.result = judge(assignment, submission, puzzle, self.config)
            submission.status = "graded"
        except Exception as err:  # a sandbox refusal, a puzzle gone: failed, in words
            log.warning("submission %s of %s could not be graded: %s", submission.id, assignment.id, err)
            submission.result = {"score": 0.0, "points": points, "details": {},
                                 "sentence": t("assign.grader.could_not_be_graded", err=err)}
            submission.status = "failed"
        submission.graded = time.time()

    def _announce(self, submission: Submission) -> None:
        try:
            self.announce(submission.assignment, submission.id, submission.status)
        except Exception as err:
            log.warning("assignment_update could not be sent (%s)", err)
