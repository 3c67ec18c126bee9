# Roots and the search driver: a root position (hands, the trick in
# progress, talon cards still to lead), the null-window probe at it
# (root_geq: is the value >= target?) and the exact value from a few
# probes stepping from a first guess (root_value_from), the guess coming
# from fitted weight tables (guess_tricks).
#
# Invariants: every probe's answer is exact, so the value never depends on
# the guess (only the number of probes does); the table's entries from one
# probe are valid bounds for the next.

# Roots: a position given as hands + the current trick + pending talon cards.

cdef struct Root:
    int seat            # seat to play next
    int remaining       # cards still to be played to the current trick
    int led
    int win_card
    int win_seat
    uint32_t table
    int at_start        # 1 when the position is a normal trick start
    int leader


cdef bint root_geq(Search* s, Root* rt, int target) noexcept nogil:
    if rt.at_start:
        return (next_trick(s, rt.leader, target) >> 32) != 0
    if not s.decl_max:
        return (play_misere(s, rt.seat, rt.remaining, rt.led, rt.win_card, rt.win_seat, rt.table,
                            target) >> 32) != 0
    return (play(s, rt.seat, rt.remaining, rt.led, rt.win_card, rt.win_seat, rt.table, target) >> 32) != 0


cdef int root_value_near(Search* s, Root* rt, int lo, int hi, int guess) noexcept nogil:
    """Exact value in [lo, hi], probing first at ``guess`` and next to it.

    Two probes when the guess is right, against about three by bisection;
    a guess outside [lo, hi] means bisection.
    """
    if guess < lo or guess > hi:
        return root_value(s, rt, lo, hi)
    if guess > lo:
        if not root_geq(s, rt, guess):
            return root_value(s, rt, lo, guess - 1)
        lo = guess
    if lo < hi:
        if root_geq(s, rt, lo + 1):
            return root_value(s, rt, lo + 1, hi)
    return lo


# The first guesses' fitted weights (bench/fit_misere_guess.py and
# bench/fit_game_guess.py write them), indexed through the offsets the
# headers name.
cdef extern from "_misere_guess.h":
    enum:
        PS_MISERE_GUESS_UNIT    # weights per trick
        PS_MISERE_GUESS_LEAD    # [LEAD + (leader - declarer) % 3]: who leads
        PS_MISERE_GUESS_SIZE
    const int16_t PS_MISERE_GUESS[PS_MISERE_GUESS_SIZE]     # [layout]: a suit
cdef extern from "_game_guess.h":
    enum:
        PS_GAME_GUESS_UNIT      # weights per trick
        PS_GAME_GUESS_LAYOUTS   # each table's length (a suit's layouts)
        PS_GAME_GUESS_TRUMP     # [TRUMP + layout]: the trump suit
        PS_GAME_GUESS_NOTRUMP   # [NOTRUMP + layout]: a no-trump suit
        PS_GAME_GUESS_SIDE      # [SIDE + LAYOUTS * min(trumps, 5) + layout]: a side suit
        PS_GAME_GUESS_LEAD      # [LEAD + 3 * no-trump + (leader - declarer) % 3]
        PS_GAME_GUESS_SIZE
    const int8_t PS_GAME_GUESS[PS_GAME_GUESS_SIZE]


cdef inline int suit_layout(uint32_t d, uint32_t l, uint32_t r) noexcept nogil:
    """One suit's layout for the first guesses (masks of one byte: the
    declarer's or counted player's cards, then his left and right opponents'):
    who holds each card still in play, lowest first, as base-3 digits (0, 1,
    2), numbered after the (3**k - 1) / 2 layouts of fewer cards.
    bench/fit_misere_guess.py numbers them the same way."""
    cdef uint32_t alive = d | l | r, b
    cdef int code = 0, p = 1
    while alive:
        b = alive & (0 - alive)
        if l & b:
            code += p
        elif r & b:
            code += 2 * p
        p *= 3
        alive &= alive - 1
    return (p - 1) // 2 + code


cdef int guess_tricks(Search* s, int leader) noexcept nogil:
    """A first guess at the value of a 10-card deal (only speed depends on it);
    ``leader``: the seat to play.

    Games: a fitted weight per suit for its layout (suit_layout), from a
    table for the trump suit, one for no-trump suits and six for side suits
    by the declarer's trump count (0-5 or more), and one per no-trump or
    trumps and who leads, plus one trick, rounded down
    (bench/fit_game_guess.py writes them).

    Misère: a fitted weight per suit for its layout and one for who leads,
    plus one trick, rounded down (bench/fit_misere_guess.py). The driver
    needs two probes when the guess is the value or one above it, so the
    fits aim there; docs/ENGINE.md gives how often they land there.
    """
    cdef uint32_t h = s.hand[s.declarer]
    cdef uint32_t o1 = s.hand[SEAT3[s.declarer + 1]], o2 = s.hand[SEAT3[s.declarer + 2]]
    cdef int x, g, side
    if not s.decl_max:
        g = PS_MISERE_GUESS[PS_MISERE_GUESS_LEAD + (leader - s.declarer + 3) % 3] + PS_MISERE_GUESS_UNIT
        for x in range(4):
            g += PS_MISERE_GUESS[suit_layout((h >> (8 * x)) & 0xFF, (o1 >> (8 * x)) & 0xFF,
                                             (o2 >> (8 * x)) & 0xFF)]
        return g // PS_MISERE_GUESS_UNIT if g > 0 else 0
    if s.trump < 0:
        g = PS_GAME_GUESS[PS_GAME_GUESS_LEAD + 3 + (leader - s.declarer + 3) % 3] + PS_GAME_GUESS_UNIT
        for x in range(4):
            g += PS_GAME_GUESS[PS_GAME_GUESS_NOTRUMP + suit_layout((h >> (8 * x)) & 0xFF, (o1 >> (8 * x)) & 0xFF,
                                                                   (o2 >> (8 * x)) & 0xFF)]
        return g // PS_GAME_GUESS_UNIT if g > 0 else 0
    side = suit_count(h, s.trump)
    side = PS_GAME_GUESS_SIDE + PS_GAME_GUESS_LAYOUTS * (side if side < 5 else 5)
    g = PS_GAME_GUESS[PS_GAME_GUESS_LEAD + (leader - s.declarer + 3) % 3] + PS_GAME_GUESS_UNIT
    for x in range(4):
        g += PS_GAME_GUESS[(PS_GAME_GUESS_TRUMP if x == s.trump else side)
                           + suit_layout((h >> (8 * x)) & 0xFF, (o1 >> (8 * x)) & 0xFF,
                                         (o2 >> (8 * x)) & 0xFF)]
    return g // PS_GAME_GUESS_UNIT if g > 0 else 0


cdef int root_value_from(Search* s, Root* rt, int lo, int hi, int guess) noexcept nogil:
    """Exact value in [lo, hi] by probes stepping from ``guess`` towards it:
    two probes when the guess is right, one more per trick it is off
    (bisection takes about three whatever the guess)."""
    if guess > hi:
        guess = hi
    if guess > lo and not root_geq(s, rt, guess):
        hi = guess - 1
        while hi > lo and not root_geq(s, rt, hi):
            hi -= 1
        return hi
    if guess > lo:
        lo = guess
    while lo < hi and root_geq(s, rt, lo + 1):
        lo += 1
    return lo


cdef int root_value(Search* s, Root* rt, int lo, int hi) noexcept nogil:
    """Exact value in [lo, hi] (known bounds) by null-window probes (bisection)."""
    cdef int mid
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if root_geq(s, rt, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
