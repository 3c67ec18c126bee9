# Cards as bits: the C helpers, the per-suit lookup tables and the rule of
# a trick.
#
# A card is bit ``suit * 8 + rank`` of a uint32 (suits S C D H, ranks 7..A),
# so a hand is a mask, a suit is a byte of it, and most tests run on all
# four suits at once, a byte each. Invariants:
# * The lookup tables below are constant data, filled once at import
#   (_fill_tables), before any search; nothing writes them after.
# * Each table is indexed by two 8-bit masks of one suit, ``a << 8 | b``,
#   and answers for that suit alone: a rule that holds suit by suit is one
#   load per suit, without a loop over ranks.

cdef extern from "_core_helpers.h":
    int ps_popcount(uint32_t x) noexcept nogil
    int ps_ctz(uint32_t x) noexcept nogil
    void ps_prefetch(const void* p) noexcept nogil
    int ps_msb(uint32_t x) noexcept nogil
    const uint32_t SUIT_MASK[4]
    const int SEAT3[5]

# Constant lookup tables (data, not search state), filled once at import.
# RUN_TOPS8[mine << 8 | alive]: within one suit (8 ranks), the cards of `mine`
# that start a run of equivalent cards among the `alive` ones.
# PACK8[alive << 8 | m]: the bits of m at the alive ranks, packed to the
# bottom (the rank of each card among the alive ones of its suit).
cdef uint8_t RUN_TOPS8[65536]
cdef uint8_t POPCOUNT8[256]
cdef uint8_t PACK8[65536]
# UNPACK8[alive << 8 | code]: the inverse of PACK8 (the alive ranks whose
# index among the alive ones is set in code).
cdef uint8_t UNPACK8[65536]
# TRUMP_TRICKS8[mine << 8 | theirs]: sure_trump_tricks within one suit (8 ranks).
cdef uint8_t TRUMP_TRICKS8[65536]
# UNDER8[low << 8 | high]: 1 when, within one suit, the i-th lowest card of
# `low` is below the i-th lowest of `high` for each i up to the shorter count
# (the matching of the misère bounds never_wins and no_exit).
cdef uint8_t UNDER8[65536]


cdef bint lies_under(uint32_t low, uint32_t high) noexcept nogil:
    """UNDER8's rule, card by card from the bottom."""
    while low and high:
        if ps_ctz(low) > ps_ctz(high):
            return False
        low &= low - 1
        high &= high - 1
    return True


cdef int sure_trump_tricks(uint32_t mine, uint32_t theirs) noexcept nogil:
    """Tricks that one player's trumps ``mine`` surely win against the other
    side's trumps ``theirs`` (both masks of the trump suit; a partner's trumps
    are not among ``theirs``, since his winning trick is the side's too).

    Every card gets played, each of mine in a different trick, and a trick
    with one of my trumps is lost to the other side only if that side plays a
    higher trump in it. So each of their trumps spoils at most one of mine,
    one that it beats: the sure tricks are my trumps minus the largest number
    of my trumps that their trumps can be matched to from above. Greedy
    matching is exact here: each of theirs, from the lowest, takes my lowest
    trump still free below it.
    """
    cdef int spoiled = 0
    cdef uint32_t free = mine
    while theirs and free:
        if ps_ctz(free) < ps_ctz(theirs):
            free &= free - 1
            spoiled += 1
        theirs &= theirs - 1
    return ps_popcount(mine) - spoiled


cdef void _fill_tables() noexcept:
    cdef int mine, alive, r, tops, code, m, k
    cdef bint prev_mine
    for mine in range(256):
        for alive in range(256):
            tops = 0
            prev_mine = False
            for r in range(7, -1, -1):
                if (alive >> r) & 1:
                    if (mine >> r) & 1:
                        if not prev_mine:
                            tops |= 1 << r
                        prev_mine = True
                    else:
                        prev_mine = False
            RUN_TOPS8[(mine << 8) | alive] = <uint8_t>(tops & mine & alive)
            code = 0
            k = 0
            for r in range(8):
                if (alive >> r) & 1:
                    if (mine >> r) & 1:
                        code |= 1 << k
                    k += 1
            PACK8[(alive << 8) | mine] = <uint8_t>code
            if (mine & ~alive) == 0:
                UNPACK8[(alive << 8) | code] = <uint8_t>mine
    for m in range(256):
        POPCOUNT8[m] = <uint8_t>ps_popcount(m)
    for mine in range(256):
        for m in range(256):
            TRUMP_TRICKS8[(mine << 8) | m] = <uint8_t>sure_trump_tricks(mine, m)
            UNDER8[(mine << 8) | m] = <uint8_t>lies_under(mine, m)


_fill_tables()

cdef inline uint32_t byte_counts(uint32_t x) noexcept nogil:
    """The number of cards of each suit of ``x``, one per byte (SWAR popcount)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return (x + (x >> 4)) & 0x0F0F0F0F


cdef inline int suit_count(uint32_t m, int x) noexcept nogil:
    """Cards of ``m`` in suit ``x`` (a table load, cheaper than a full popcount)."""
    return POPCOUNT8[(m >> (8 * x)) & 0xFF]

cdef inline bint beats(int c, int w, int trump) noexcept nogil:
    """Does card c beat the card w currently winning the trick?"""
    if (c >> 3) == (w >> 3):
        return c > w
    return (c >> 3) == trump


cdef inline uint32_t run_tops(uint32_t legal, uint32_t mine, uint32_t alive) noexcept nogil:
    """The highest card of each run of equivalent cards in ``legal``.

    ``legal`` is a union of whole suits of ``mine``; ``alive`` holds every card
    still in a hand or on the table. A card of ours starts a run when the next
    higher alive card of its suit is not ours (or there is none). All four
    suits are looked up without a test: which suits are held varies from
    node to node, and a mispredicted branch costs more than a table load.
    """
    # The indices two suits at a time, one in each 16-bit half (as in position_key).
    cdef uint32_t i02 = ((mine & 0x00FF00FFU) << 8) | (alive & 0x00FF00FFU)
    cdef uint32_t i13 = (mine & 0xFF00FF00U) | ((alive >> 8) & 0x00FF00FFU)
    return ((<uint32_t>RUN_TOPS8[i02 & 0xFFFF])
            | ((<uint32_t>RUN_TOPS8[i13 & 0xFFFF]) << 8)
            | ((<uint32_t>RUN_TOPS8[i02 >> 16]) << 16)
            | ((<uint32_t>RUN_TOPS8[i13 >> 16]) << 24)) & legal
