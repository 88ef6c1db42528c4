"""The files the grid family reads, by name and magic: what the package's cheap ``may_claim`` and the
family's ``sniff`` both test (kept here so ``family.py`` need not import its own package)."""

import re

# The formats grid.image accepts (TIFF and EPS are kept away from uploads there).
IMAGE_EXTENSIONS = (".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp", ".ppm", ".pgm", ".pbm")
IMAGE_MAGIC = (b"\x89PNG", b"GIF8", b"BM", b"\xff\xd8\xff", b"RIFF")
PNM_MAGIC = (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6")
TEXT_EXTENSIONS = (".txt", ".maze")
SNIFF_BYTES = 65_536  # how much of a text file sniffing reads
#: Characters no text maze holds (brackets and quotes of a Python list, a Markdown table's pipes, a '/'
#: between rows: other notations). A .txt file holding one is not the grid's to guess at
#: (``GridFamily.sniff``): when its own family cannot read it, the registry's message lists every
#: family rather than the grid's rules.
OTHER_NOTATIONS = re.compile(r"[\[\]|/'\"]")
