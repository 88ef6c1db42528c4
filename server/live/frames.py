"""Cutting a trace into frames for the wire: binary columns, little-endian, one message each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..puzzles.running import NamedStates
from ..search.trace import Trace


def frame_payload(run: str, seq: int, start: int, trace: Trace) -> dict[str, Any]:
    """One ``run_frame`` message (docs/PROTOCOL.md)."""
    return {
        "run": run,
        "seq": seq,
        "start": start,
        "kinds": trace.kinds.astype(np.uint8, copy=False).tobytes(),
        "cells": trace.cells.astype("<i4", copy=False).tobytes(),
        "values": trace.values.astype("<f4", copy=False).tobytes(),
    }


def frames(
    run: str, trace: Trace, records_per_frame: int, snapshots: list[dict[str, Any]] | None = None,
    named: NamedStates | None = None,
) -> Iterator[dict[str, Any]]:
    """The whole trace as consecutive frames of at most ``records_per_frame`` records.

    ``snapshots`` (sorted by their record index ``i``) ride in the frame that holds their record;
    ``named`` (the states' numbers) gives each frame its records' numbers and what is new of them.
    """
    snapshots = snapshots or []
    taken = 0
    first = 0  # the first state number the next frame's ``named`` introduces
    for seq, start in enumerate(range(0, len(trace), records_per_frame)):
        stop = start + records_per_frame
        payload = frame_payload(run, seq, start, trace.slice(start, stop))
        if snapshots:
            end = taken
            while end < len(snapshots) and snapshots[end]["i"] < stop:
                end += 1
            payload["snapshots"] = snapshots[taken:end]
            taken = end
        if named is not None:
            payload["named"], first = named.frame(start, stop, first)
        yield payload
