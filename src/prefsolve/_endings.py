"""The solved four-card misère endings shipped with the package.

The engine reads misère and all-pass trick starts with four cards or fewer
in each hand from tables instead of searching them (see ``_core``'s
``_endings.pxi``: ENDINGS, ENDINGS4). The one- to three-card table takes
about 30 ms to solve, so it is solved at the first misère search; the
four-card one takes about 0.7 s, so it ships solved, in ``endings4.bin``,
and :func:`load_endings4` reads it: :mod:`prefsolve.engine` registers it
with the core (``_core.set_endings4_source``), which calls it once, at its
first misère or all-pass search, and checks what it returns. The file is the
engine's own work: ``python -m prefsolve.engine`` writes it from
``_core.compute_endings4()``, the code the engine falls back on when the
file is missing or does not match, and the tests compare the two byte for
byte and sample entries against the pure-Python reference solver.

Format: ``PSE4``, then the format number, the table's size, the engine's
fingerprint (``_core.endings_fingerprint()``: what the entries depend on
besides their own solving) and the table's CRC-32 (four little-endian
32-bit integers), then the table compressed by zlib. The engine uses the
table only when all of these match and 256 entries it solves again agree.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FILE = Path(__file__).with_name("endings4.bin")
MAGIC = b"PSE4"
_HEADER = struct.Struct("<4sIIII")


def load_endings4(fmt: int, size: int, path: Path | None = None) -> tuple[int, bytes] | None:
    """The fingerprint and the table that ``path`` (default FILE) holds, if
    it is a table file of this format and size whose checksum matches, else
    None (the engine then solves the table itself).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "endings.bin"
    ...     _ = path.write_bytes(encode_endings4(1, 7, bytes(range(8))))
    ...     same, other = load_endings4(1, 8, path), load_endings4(2, 8, path)
    >>> same[0], list(same[1]), other     # the fingerprint and the table; None for another format
    (7, [0, 1, 2, 3, 4, 5, 6, 7], None)
    """
    try:
        data = (FILE if path is None else path).read_bytes()
        magic, got_fmt, got_size, fingerprint, crc = _HEADER.unpack_from(data)
        if magic != MAGIC or got_fmt != fmt or got_size != size:
            return None
        table = zlib.decompressobj().decompress(data[_HEADER.size:], size + 1)
    except (OSError, struct.error, zlib.error):
        return None
    if len(table) != size or zlib.crc32(table) != crc:
        return None
    return fingerprint, table


def encode_endings4(fmt: int, fingerprint: int, table: bytes) -> bytes:
    """The file's bytes for ``table``."""
    header = _HEADER.pack(MAGIC, fmt, len(table), fingerprint, zlib.crc32(table))
    return header + zlib.compress(table, 9)
