# cython: language_level=3
"""The bench's machine probe: a plain compute loop, apart from the engine.

prefsolve.bench times it on one thread and on all cores, right before a
timing of the engine, to gauge what the host gives parallel threads at the
moment. It shares no code or state with the search core.

>>> machine_probe(1000) == machine_probe(1000) != machine_probe(1001)
True
"""

from libc.stdint cimport uint64_t

cdef extern from "_probe.h":
    uint64_t ps_spin(uint64_t n) noexcept nogil


def machine_probe(uint64_t rounds):
    """Run ``rounds`` rounds of the loop without the GIL and return a sum of
    its results, which depends on ``rounds`` (see _probe.h)."""
    cdef uint64_t r
    with nogil:
        r = ps_spin(rounds)
    return r
