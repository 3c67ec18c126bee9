"""Type stub of the bench's machine probe (see _probe.pyx)."""

def machine_probe(rounds: int) -> int: ...

# Cython's doctest table.
__test__: dict[str, str]
