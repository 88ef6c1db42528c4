"""The one way a key from outside (a puzzle id, a run key, a job id) becomes a path in a store.

Every store that names files after keys (``archive.DiskArchive``, ``tile_runs.TileRuns``) asks
``key_path``: the key must match its store's exact form (e.g. 32 hex digits) and the resolved path
must stay under the store's folder (a symbolic link planted inside cannot lead out either). A key
that fails either check is a ``BadKey``, a ``LookupError``: the web layer answers it like an unknown
id (404, in words), never by touching the file system."""

from __future__ import annotations

import re
from pathlib import Path

HEX32 = re.compile(r"[0-9a-f]{32}")  # run keys (tile_runs.run_key)
HEX20 = re.compile(r"[0-9a-f]{20}")  # puzzle ids (archive.puzzle_id)


class BadKey(LookupError):
    """A key that is not of its store's form, or whose path would leave the store's folder."""


def check_key(key: object, form: re.Pattern[str], what: str = "key") -> str:
    """``key`` when it is a string matching ``form`` exactly; else BadKey naming ``what``."""
    if not isinstance(key, str) or not form.fullmatch(key):
        shown = key[:40] if isinstance(key, str) else type(key).__name__
        raise BadKey(f"no {what} {shown!r}")
    return key


def key_path(root: Path, key: object, form: re.Pattern[str], *parts: str, what: str = "key") -> Path:
    """``root / <parts before the key> / key``: checked against ``form`` and kept under ``root``.

    ``parts`` are folders of the store's own making that come before the key (the archive's
    two-letter fan-out); the key is always the last component."""
    name = check_key(key, form, what)
    base = root.resolve()
    path = base.joinpath(*parts, name)
    resolved = path.resolve()
    if resolved != path or not resolved.is_relative_to(base):
        raise BadKey(f"no {what} {name!r}")  # a link inside the store pointing out of it
    return path
