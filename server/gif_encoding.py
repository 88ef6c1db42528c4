"""A search as an animated GIF: the frames of the family's ``animation`` part, their delays, Pillow.
Nothing here knows of jobs, budgets or stores (server/exporting.py runs the jobs)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .config import Config
from .i18n import t
from .puzzles.errors import PuzzleError
from .puzzles.registry import family_of
from .solving import Solved

MIN_DELAY_MS, MAX_DELAY_MS = 20, 800  # browsers play delays under 20 ms at 100 ms


@dataclass(frozen=True)
class Gif:
    """An encoded GIF and what a finished export says of it."""

    data: bytes
    frames: int
    width: int
    height: int
    seconds: float


def file_stem(*parts: str) -> str:
    """A download's name from its parts: letters, digits, dots, dashes and underscores only."""
    words = [re.sub(r"[^A-Za-z0-9._-]+", "_", str(p)).strip("._-")[:60] for p in parts]
    return "-".join(w for w in words if w) or "export"


def frame_bytes(config: Config) -> int:
    """The most the frames of one GIF hold while it is made (palette frames: a byte a pixel)."""
    return config.animation_max_frames * config.animation_max_side**2


def draw_frames(
    puzzle: Any, solved: Solved, config: Config, progress: Callable[[int, int], None] | None = None,
) -> list[Any]:
    """The frames of the search ``solved`` recorded, within ``config``'s caps (``progress(done, total)``
    after each); PuzzleError when the family draws none."""
    family = family_of(puzzle)
    frames = family.need("animation").frames(
        puzzle, solved, config.animation_max_frames, config.animation_max_side, progress,
    )
    if not frames:
        raise PuzzleError(t("export.gif_encoding.family_draws_no_animation",
                            lower=family.noun), "algorithm")
    return frames


def gif_durations(frames: int, config: Config) -> list[int]:
    """Frame delays (ms): the whole GIF lasts about ``animation_seconds``, its last frame
    ``animation_hold_seconds`` of it, every other frame 20 to 800 ms (GIF counts in 10 ms)."""
    hold = round(config.animation_hold_seconds * 1000)
    if frames <= 1:
        return [hold] * frames
    rest = config.animation_seconds * 1000 - hold
    delay = int(min(MAX_DELAY_MS, max(MIN_DELAY_MS, round(rest / (frames - 1) / 10) * 10)))
    return [delay] * (frames - 1) + [hold]


def encode_gif(frames: list[Any], config: Config) -> Gif:
    """An endlessly looping GIF of PIL images (palette images keep their palette: no quantising),
    timed by ``gif_durations``; PuzzleError when it is past ``animation_max_bytes``."""
    durations = gif_durations(len(frames), config)
    buffer = io.BytesIO()
    frames[0].save(
        buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False,
    )
    data = buffer.getvalue()
    if len(data) > config.animation_max_bytes:
        limit = config.animation_max_bytes / 1e6
        raise PuzzleError(
            t("export.gif_encoding.gif_would_be_mb_more", value=format(len(data) / 1e6, '.1f'),
              limit=format(limit, '.0f')), "animation",
        )
    width, height = frames[0].size
    return Gif(data, len(frames), width, height, sum(durations) / 1000)
