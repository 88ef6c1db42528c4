"""Server settings in one object; tests and the CLI override fields with ``create_app(config)``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Config:
    # Uploads
    max_upload_bytes: int = 64 * 1024 * 1024
    max_pixels: int = 50_000_000  # anonymous uploads; `run.py serve --max-pixels` raises it
    # Searches
    max_expanded: int = 50_000_000  # compiled searches (a family's fast path)
    max_expanded_generic: int = 2_000_000  # pure-Python searches
    max_seconds: float = 120.0
    max_concurrent_runs: int = 4  # searches computing at once on this server; more wait their turn
    # Streaming
    frame_records: int = 32_768  # records per frame (~300 KB of binary)
    frame_window: int = 4  # frames in flight without an acknowledgement
    ack_timeout: float = 30.0  # a client that acks nothing for this long is dropped from the run
    # Puzzle store (in memory, least recently used dropped first)
    store_max_cells: int = 400_000_000
    mazes_dir: Path = field(default_factory=lambda: ROOT / "mazes")
    engine: str = "auto"  # "generic" runs the pure-Python algorithms even where a fast path exists
    testing: bool = False

    def expansion_limit(self, compiled: bool) -> int:
        """Compiled searches (a family's fast path) get the big limit; pure Python is ~100 x slower."""
        return self.max_expanded if compiled else self.max_expanded_generic
    secret_key: str = "dev"
    # msgpack sends a binary frame as one WebSocket message; Flask-SocketIO's test client only speaks
    # the default serializer, so the live-layer tests use "default".
    serializer: str = "msgpack"
    message_queue: str | None = None  # e.g. redis://…, to run several servers (see docs)
