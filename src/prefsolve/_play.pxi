# The cards of a trick: play (games) and play_misere (misère, all-pass)
# try each legal card of the seat to move, next_trick passes to the next
# trick start (or a talon-led trick), last_trick settles the last trick.
#
# Invariants:
# * The answer of a node is one uint64 (answer): bit 32 says whether the
#   maximising side reaches the target, bits 0-31 hold the cards whose ranks
#   the answer relied on (games only; misère answers rely on every card).
# * Legal cards: the suit led, else a trump (the duty to trump), else any;
#   one card per run of equivalent cards, the table's cards counting as
#   alive (run_tops), so the skipped cards have the same value.
# * ``target`` counts the declarer's tricks still needed, this trick
#   included; a trick won by the declarer lowers it by one.

cdef inline uint64_t answer(bint r, uint32_t rel) noexcept nogil:
    """A search answer: whether the maximising side reaches the target (bit
    32) and the cards whose ranks it relied on (bits 0-31, see trick_start),
    in one register."""
    return (<uint64_t>r << 32) | rel


cdef inline uint32_t lowest_above(uint32_t alive, int z) noexcept nogil:
    """The lowest card of ``alive`` above card z in its suit (there is one)."""
    cdef uint32_t above = alive & SUIT_MASK[z >> 3] & ~(((<uint32_t>2) << z) - 1)
    return above & (~above + 1)


cdef inline uint32_t lowest_win_mask(uint32_t acc, int c) noexcept nogil:
    """Games: the cards of c's suit that a failed card c stands for.

    ``acc`` holds the cards that the answers of the cards that failed at this
    node relied on, c's among them. When c lies below the lowest of them in
    its suit, its rank was never compared: c is one of the suit's small
    cards, which the answer holds for whichever of them is played (the
    pattern semantics of game_start; a trick won by rank relies on the cards
    above the highest card it beat, see play). Any other card of the mover's
    below that lowest card would then fail the same way, and need not be
    searched ("lowest win" in Bo Haglund's DDS). Returns those ranks as a
    mask, or 0. Misère answers rely on every card left but not on the cards
    of the trick in progress, so this holds for games only.
    """
    cdef int sh = c & ~7
    cdef uint32_t m = (acc >> sh) & 0xFF
    m = ((m & (~m + 1)) - 1) & 0xFF         # the ranks under the lowest relied-on card
    return (m << sh) & (<uint32_t>0 - ((m >> (c & 7)) & 1))


cdef uint64_t play(Search* s, int seat, int remaining, int led, int win_card, int win_seat,
                   uint32_t table, int target) noexcept nogil:
    """Seat ``seat`` plays the next card of the current trick of a game
    (trump or no-trump; misère and all-pass: play_misere).

    ``remaining`` cards are still to be played to the trick (this one included),
    ``led`` is the suit led (-1 before the first card), ``win_card``/``win_seat``
    the card winning so far (-1: none yet, as under a talon card), ``table`` the
    cards on the table, ``target`` the declarer tricks still needed counting this
    trick. Returns the answer (see answer): whether the maximising side
    reaches the target, and the cards whose ranks that relied on.
    """
    cdef uint32_t h = s.hand[seat]
    cdef uint32_t acc = 0, same
    cdef uint64_t a
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2] | table
    cdef uint32_t moves, wins, beat
    cdef int order[MAX_MOVES]
    cdef int n, i, c, nl, nw, nws, winner, x, nxt
    cdef bint maxnode = seat == s.declarer
    cdef bint r
    cdef uint32_t lw_skip = 0
    s.nodes += 1
    # Legal cards (follow suit, else trump, else any), one per run. A suit
    # is led here, so the usual case is a single suit: one table load.
    x = led
    if not (h & SUIT_MASK[x]):
        x = s.trump
        if x < 0 or not (h & SUIT_MASK[x]):
            x = -1
    if x >= 0:
        moves = (<uint32_t>RUN_TOPS8[(((h >> (8 * x)) & 0xFF) << 8)
                                     | ((alive >> (8 * x)) & 0xFF)]) << (8 * x)
    else:
        moves = run_tops(h, h, alive)
    if moves & (moves - 1):
        # A game with all the legal cards in one suit (following or ruffing):
        # follow_score's order without its history term, built from masks
        # (cheaper than scoring each card).
        if remaining == 2 and x >= 0:
            wins = winners_of(s, moves, x, win_card)
            nxt = SEAT3[seat + 1]
            n = 0
            if seat == s.declarer:
                # Winners the last defender cannot beat, then the others, then losers.
                beat = beaten_by(s, nxt, moves, led)
                n = push_cards(order, n, wins & ~beat)
                n = push_cards(order, n, wins & beat)
                n = push_cards(order, n, moves & ~wins)
            elif win_seat == s.declarer:
                if last_beats(s, nxt, win_card, led, True):
                    # Second hand low: the partner, last, can beat the declarer.
                    n = push_cards(order, n, moves & ~wins)
                    n = push_cards(order, n, wins)
                else:
                    n = push_cards(order, n, wins)
                    n = push_cards(order, n, moves & ~wins)
            else:
                # The partner led: overtake only when the declarer would beat
                # him and cannot beat the card played.
                if last_beats(s, nxt, win_card, led, False):
                    beat = wins & ~beaten_by(s, nxt, moves, led)
                    n = push_cards(order, n, beat)
                    n = push_cards(order, n, moves & ~beat)
                else:
                    n = push_cards(order, n, moves)
        elif remaining == 1 and x >= 0:
            # Last to play: the cheapest winner, then the lowest loser; the
            # lowest card when the partner already wins.
            wins = 0
            if (win_seat == s.declarer) != (seat == s.declarer):
                wins = winners_of(s, moves, x, win_card)
            n = push_cards(order, 0, wins)
            n = push_cards(order, n, moves & ~wins)
        else:
            order_follows(s, seat, moves, order, &n, led, win_card, win_seat, remaining)
    else:
        # A forced card (the usual case when following suit): no ordering call.
        order[0] = ps_ctz(moves)
        n = 1
    for i in range(n):
        c = order[i]
        if (lw_skip >> c) & 1:
            continue                # a lower card of a suit whose card failed (lowest_win_mask)
        nl = led if led >= 0 else (c >> 3)
        if (win_card < 0 and (c >> 3) == nl) or (win_card >= 0 and beats(c, win_card, s.trump)):
            nw = c
            nws = seat
        else:
            nw = win_card
            nws = win_seat
        s.hand[seat] ^= (<uint32_t>1) << c
        if remaining == 1:
            # Nobody followed a talon card: first hand takes the trick (RULES.md §4.3).
            winner = nws if nws >= 0 else 0
            a = next_trick(s, winner, target - (1 if winner == s.declarer else 0))
            # The trick went by rank when the winner beat a card of its own
            # suit: the cards above the highest card it beat matter (the
            # winner's whole run lies there; the beaten card may then be any
            # smaller card).
            if nw >= 0:
                same = (table | ((<uint32_t>1) << c)) & SUIT_MASK[nw >> 3] & ~((<uint32_t>1) << nw)
                if same:
                    a |= lowest_above(s.hand[0] | s.hand[1] | s.hand[2] | table | ((<uint32_t>1) << c),
                                      ps_msb(same))
        else:
            a = play(s, SEAT3[seat + 1], remaining - 1, nl, nw, nws,
                     table | ((<uint32_t>1) << c), target)
        s.hand[seat] ^= (<uint32_t>1) << c
        r = (a >> 32) != 0
        if r == maxnode:
            # Games keep small counts that only break ties (misère weighs
            # them by the cards left: play_misere).
            add_history(s, seat, c, remaining)
            return a
        acc |= <uint32_t>a
        # The mover's lower cards that this failure covers are not searched.
        lw_skip |= lowest_win_mask(acc, c)
    return answer(not maxnode, acc)


cdef uint64_t play_misere(Search* s, int seat, int remaining, int led, int win_card, int win_seat,
                          uint32_t table, int target) noexcept nogil:
    """play for misère and all-pass (no trumps, the counted player
    minimising), without the games' work: the same cards in the same order
    and the same answers. Misère answers rely on every card left (see
    exact_start), so no relied-on cards are gathered: the low 32 bits of
    the answer are not used."""
    cdef uint32_t h = s.hand[seat]
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2] | table
    cdef uint32_t moves
    cdef uint64_t a
    cdef int order[MAX_MOVES]
    cdef int n, i, c, nw, nws, winner
    cdef bint maxnode = seat != s.declarer
    s.nodes += 1
    # Legal cards (follow suit, else any card), one per run.
    if h & SUIT_MASK[led]:
        moves = (<uint32_t>RUN_TOPS8[(((h >> (8 * led)) & 0xFF) << 8)
                                     | ((alive >> (8 * led)) & 0xFF)]) << (8 * led)
    else:
        moves = run_tops(h, h, alive)
    if moves & (moves - 1):
        order_follows_misere(s, seat, moves, order, &n, led, win_card, win_seat, remaining)
    else:
        order[0] = ps_ctz(moves)
        n = 1
    for i in range(n):
        c = order[i]
        # A card of the suit led beats the winning one when higher (under a
        # talon card, win_card < 0, the first card of the suit led wins).
        if (c >> 3) == led and (win_card < 0 or c > win_card):
            nw = c
            nws = seat
        else:
            nw = win_card
            nws = win_seat
        s.hand[seat] ^= (<uint32_t>1) << c
        if remaining == 1:
            # Nobody followed a talon card: first hand takes the trick (RULES.md §4.3).
            winner = nws if nws >= 0 else 0
            a = next_trick(s, winner, target - (1 if winner == s.declarer else 0))
        else:
            a = play_misere(s, SEAT3[seat + 1], remaining - 1, led, nw, nws,
                            table | ((<uint32_t>1) << c), target)
        s.hand[seat] ^= (<uint32_t>1) << c
        if ((a >> 32) != 0) == maxnode:
            # Misère weighs a cut-off by the cards left (a cut-off with more
            # cards left saved more; games keep small counts that only break
            # ties).
            add_history(s, seat, c, (<uint32_t>1) << ps_popcount(h))
            return a
    return answer(not maxnode, 0)


cdef uint64_t next_trick(Search* s, int leader, int target) noexcept nogil:
    """A trick boundary: a talon-led trick if one is pending, else a normal one."""
    cdef int c
    cdef uint64_t a
    if s.talon_pos < s.n_talon:
        c = s.talon[s.talon_pos]
        s.talon_pos += 1
        # The talon card sets the suit and cannot win; first hand plays first.
        if s.decl_max:
            a = play(s, 0, 3, c >> 3, -1, -1, (<uint32_t>1) << c, target)
        else:
            a = play_misere(s, 0, 3, c >> 3, -1, -1, (<uint32_t>1) << c, target)
        s.talon_pos -= 1
        return a
    return trick_start(s, leader, target)


cdef inline int last_trick(Search* s, int leader, uint32_t* rel) noexcept nogil:
    """Winner of the final trick, where every card is forced; ``rel`` gets
    the card that the trick's ranks rely on, if any (as in play)."""
    cdef int c = ps_ctz(s.hand[leader])
    cdef int w = c, ws = leader, seat, d, k
    cdef uint32_t same
    for k in range(1, 3):
        seat = SEAT3[leader + k]
        d = ps_ctz(s.hand[seat])
        if beats(d, w, s.trump):
            w = d
            ws = seat
    same = (s.hand[0] | s.hand[1] | s.hand[2]) & SUIT_MASK[w >> 3] & ~((<uint32_t>1) << w)
    rel[0] = lowest_above(s.hand[0] | s.hand[1] | s.hand[2], ps_msb(same)) if same else 0
    return ws
