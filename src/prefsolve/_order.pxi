# Move ordering: which card to try first. Only speed depends on it: every
# card is still searched unless a cut-off or a proof makes it unnecessary.
#
# Games (trump, no-trump): a static score per card (lead_score,
# follow_score) with the history of cut-offs breaking ties. Misère and
# all-pass: scores fitted to what ordering costs in nodes (order_misere_*),
# with the history weighted in. Invariants: a list holds one card per run
# of equivalent cards (run_tops); history counts stay below HIST_CAP, so
# every score fits in an int.

cdef enum:
    HIST_W = 1 << 12    # games: the static score decides, history breaks ties
    HIST_CAP = 1 << 28  # history counts stay below this (scores are ints)
    MAX_MOVES = 12

cdef inline int relative_move(Search* s, int c) noexcept nogil:
    """Encode card c as suit * 8 + number of alive cards above it in its suit."""
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    cdef uint32_t above = alive & SUIT_MASK[c >> 3] & ~(((<uint32_t>2) << c) - 1)
    return (c & ~7) | suit_count(above, c >> 3)


cdef inline int absolute_move(Search* s, int m) noexcept nogil:
    """Decode a relative move; -1 when the suit has too few cards."""
    cdef uint32_t alive = (s.hand[0] | s.hand[1] | s.hand[2]) & SUIT_MASK[m >> 3]
    cdef int k = m & 7
    while alive:
        if k == 0:
            return ps_msb(alive)
        alive &= ~((<uint32_t>1) << ps_msb(alive))
        k -= 1
    return -1


cdef inline bint ruffed_by_opponent(Search* s, int seat, int suit, bint is_decl) noexcept nogil:
    """Games: can a player of the other side, void in ``suit``, ruff a lead of it?"""
    cdef uint32_t sm, tm, o
    cdef int k
    if s.trump < 0 or suit == s.trump:
        return False
    sm = SUIT_MASK[suit]
    tm = SUIT_MASK[s.trump]
    for k in range(1, 3):
        o = s.hand[SEAT3[seat + k]]
        if (is_decl or SEAT3[seat + k] == s.declarer) and not (o & sm) and (o & tm):
            return True
    return False


cdef inline bint last_beats(Search* s, int last, int c, int led, bint is_decl) noexcept nogil:
    """Games: can ``last`` (last to play to the trick) beat card c, if he is an
    opponent of the side given by ``is_decl``? He must follow suit, else ruff."""
    cdef uint32_t h = s.hand[last], m
    if (last == s.declarer) == is_decl:
        return False
    m = h & SUIT_MASK[led]
    if m:
        return (c >> 3) == led and ps_msb(m) > c
    if s.trump < 0:
        return False
    m = h & SUIT_MASK[s.trump]
    if not m:
        return False
    return (c >> 3) != s.trump or ps_msb(m) > c


cdef inline int lead_score(Search* s, int seat, int c, uint32_t alive) noexcept nogil:
    """Cheap ordering heuristic for a lead in a game; higher is tried first.
    Only speed depends on it. ``alive``: every card still held. (Misère and
    all-pass: order_misere_leads.)"""
    cdef int rank = c & 7
    cdef int suit = c >> 3
    cdef uint32_t bit = (<uint32_t>1) << c
    cdef uint32_t suit_alive = alive & SUIT_MASK[suit]
    cdef uint32_t higher = suit_alive & ~((bit << 1) - 1)
    cdef bint is_decl = seat == s.declarer
    cdef uint32_t dm, pm
    cdef int power = rank + (8 if suit == s.trump else 0)
    # Each rule below was kept for the game nodes it saves (docs/ENGINE.md,
    # "Move ordering").
    if not is_decl and suit == s.trump and not (s.hand[s.declarer] & SUIT_MASK[suit]):
        # A defender's trump when the declarer has none: keep it to ruff.
        return 10 + rank
    if higher == 0:
        if ruffed_by_opponent(s, seat, suit, is_decl):
            return 25 + power      # a top card the other side can ruff
        if suit == s.trump and not (alive & SUIT_MASK[suit] & ~s.hand[seat]):
            # The declarer's top trump when the defenders have none: it
            # draws nothing and is worth keeping to ruff.
            return 10 + rank
        # A top card: a likely winner; side suits are cashed before trumps.
        return 60 + rank - (8 if suit == s.trump else 0)
    if not is_decl:
        pm = s.hand[3 - seat - s.declarer] & SUIT_MASK[suit]
        if pm and (higher & ~pm) == 0:
            return 50 - rank       # partner holds every higher card: low to him
        dm = s.hand[s.declarer] & SUIT_MASK[suit]
        if pm and ((dm and ps_msb(pm) > ps_msb(dm)) or (not dm and (
                s.trump < 0 or suit == s.trump or not (s.hand[s.declarer] & SUIT_MASK[s.trump])))):
            # Partner can beat the declarer, who cannot ruff: before the
            # top cards, high first.
            return 70 + rank
        if (not pm and s.trump >= 0 and suit != s.trump
                and (s.hand[3 - seat - s.declarer] & SUIT_MASK[s.trump])
                and (dm or not (s.hand[s.declarer] & SUIT_MASK[s.trump]))):
            # Partner void with a trump, the declarer follows or cannot
            # ruff: a ruff, ahead of the top cards.
            return 75 - rank
    if (is_decl and s.trump < 0 and (suit_alive & (bit - 1))
            and ((s.hand[seat] >> ps_msb(suit_alive & (bit - 1))) & 1)):
        # No-trump, the declarer: the top of a sequence below the
        # defenders' stopper, to set the suit up while his top cards
        # keep the entries.
        return 68 + rank
    if suit == s.trump:
        # A trump below the other side's: it only feeds their trump
        # trick.
        return 12 + rank
    return 20 + rank               # otherwise high cards first: they force the top ones


cdef inline int follow_score(Search* s, int seat, int c, int led, int win_card,
                             int win_seat, int remaining) noexcept nogil:
    """Cheap ordering heuristic for a card played to a led suit in a game;
    higher is tried first. play() builds the same order from masks when every
    legal card is of one suit: keep the two in step. (Misère and all-pass:
    order_misere_follows.)"""
    cdef int suit = c >> 3
    cdef bint is_decl = seat == s.declarer
    cdef bint wins, partner_wins
    cdef int power = (c & 7) + (8 if suit == s.trump else 0)
    if win_card < 0:
        wins = suit == led
    else:
        wins = beats(c, win_card, s.trump)
    partner_wins = win_seat >= 0 and (win_seat == s.declarer) == is_decl
    # Second to play, a card that the last player (an opponent) can beat
    # is a weak winner: try the cards that hold the trick first.
    if partner_wins and not is_decl:
        if (remaining == 2 and wins and last_beats(s, SEAT3[seat + 1], win_card, led, False)
                and not last_beats(s, SEAT3[seat + 1], c, led, False)):
            return 55 - power          # overtake a partner the declarer would beat
        return 30 - power
    if (remaining == 2 and not is_decl and win_seat == s.declarer
            and last_beats(s, SEAT3[seat + 1], win_card, led, True)):
        # Second hand low: the partner, last, can beat the declarer's card.
        return (30 if wins else 62) - power
    if wins:
        if remaining == 2 and last_beats(s, SEAT3[seat + 1], c, led, is_decl):
            return 45 - power
        return 60 - power              # cheapest winning card first
    return 30 - power


cdef inline void add_history(Search* s, int seat, int c, uint32_t amount) noexcept nogil:
    """Count a cut-off of card c by seat; halve every count before one could overflow
    the ordering score (an int), which keeps their proportions."""
    cdef int i, j
    s.hist[seat][c] += amount
    if s.hist[seat][c] > HIST_CAP:
        for i in range(3):
            for j in range(32):
                s.hist[i][j] >>= 1


cdef inline void sort_by_score(int* scores, int* out, int k) noexcept nogil:
    """Insertion sort of ``out[:k]`` by ``scores`` (highest first; stable).
    Two cards (the most common list) without the loops; ``scores`` is then
    left as it was (no caller reads it after the sort)."""
    cdef int i, j, tmp
    if k == 2:
        if scores[1] > scores[0]:
            tmp = out[0]; out[0] = out[1]; out[1] = tmp
        return
    for i in range(1, k):
        j = i
        while j > 0 and scores[j] > scores[j - 1]:
            tmp = scores[j]; scores[j] = scores[j - 1]; scores[j - 1] = tmp
            tmp = out[j]; out[j] = out[j - 1]; out[j - 1] = tmp
            j -= 1


cdef inline int history_levels(Search* s, int seat, uint32_t moves, int* out, int* lhs,
                               int* top) noexcept nogil:
    """Lists ``moves`` in ``out`` with each card's history as a power of two
    (floor(log2(count + 1))) in ``lhs``; ``top`` gets the highest level.
    Returns the number of cards."""
    cdef int k = 0, c
    top[0] = 0
    while moves:
        c = ps_ctz(moves)
        moves &= moves - 1
        out[k] = c
        lhs[k] = ps_msb(s.hist[seat][c] + 1)
        if lhs[k] > top[0]:
            top[0] = lhs[k]
        k += 1
    return k


# Misère ordering: scores fitted to what ordering costs, not only to what
# is likely to cut off. The weights minimise the expected nodes searched
# until the first card that cuts off, measured by searching every card at
# sampled cut nodes of random misères from the same saved table and
# history; they were then tuned on the total nodes of whole misères, a
# weight kept only when held-out sets agreed (docs/ENGINE.md, "Move
# ordering", tells how and what each step saved). The history term is a
# bonus for the cards at the highest power-of-two level and a small slope
# below it. Only speed depends on the weights.

cdef inline void order_misere_leads(Search* s, int seat, uint32_t moves, int* out, int* n,
                                    bint decl) noexcept nogil:
    """Order misère and all-pass leads (at least two cards) by fitted scores
    (see above). They rank what is cheap to prove, not only what is likely
    to cut off. Roughly: the counted player leads high cards with few higher
    ones out, from short suits (a singleton first) that both others hold,
    a sure exit higher still, his lowest card of a suit a little lower, and
    suits where the defenders are short; a defender leads low from
    singletons and short holdings, likes the declarer's singletons, and
    avoids suits a player is void in, cards below all of the declarer's,
    and suits where his partner's lowest card is under the declarer's.
    ``decl``: seat is the counted player (a constant in each copy of
    exact_start, so the loop keeps one of its two scores)."""
    cdef int scores[MAX_MOVES]
    cdef int lhs[MAX_MOVES]
    cdef int i, c, r, sh, nd, sc, mx
    cdef int d = s.declarer
    cdef int k = history_levels(s, seat, moves, out, lhs, &mx)
    cdef uint32_t b, p8, d8, a8, b8, o8
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    for i in range(k):
        c = out[i]
        r = c & 7
        sh = c & ~7
        b = (<uint32_t>1) << r
        d8 = (s.hand[d] >> sh) & 0xFF
        a8 = (s.hand[SEAT3[seat + 1]] >> sh) & 0xFF      # the next player's cards of the suit
        b8 = (s.hand[SEAT3[seat + 2]] >> sh) & 0xFF      # the last player's
        if decl:
            nd = POPCOUNT8[d8]
            sc = (30 * r - 22 * POPCOUNT8[((alive >> sh) & 0xFF) & ~((b << 1) - 1)] - 55 * nd
                  + 28 * (lhs[i] - mx)
                  - 50 * (POPCOUNT8[a8] if POPCOUNT8[a8] > POPCOUNT8[b8] else POPCOUNT8[b8]))
            if lhs[i] == mx:
                sc += 78
            if nd == 1:
                sc += 113
            if a8 == 0:
                sc -= 372
            if b8 == 0:
                sc -= 302
            if (a8 and (a8 & (b - 1)) == 0) or (b8 and (b8 & (b - 1)) == 0):
                sc += 22 * r                # a sure exit
            if (d8 & (b - 1)) == 0:
                sc -= 18                    # his lowest card of the suit
        else:
            p8 = (s.hand[3 - seat - d] >> sh) & 0xFF
            o8 = (s.hand[seat] >> sh) & 0xFF
            sc = 29 * (lhs[i] - mx) - 75 * POPCOUNT8[o8 & (b - 1)]     # his own cards under it
            if lhs[i] == mx:
                sc += 64
            if a8 == 0:
                sc -= 284
            if b8 == 0:
                sc -= 220
            if (d8 & (b - 1)) == 0:
                sc -= 197                   # the declarer has no card under it
            if o8 == b:
                sc += 75                    # a singleton
            if POPCOUNT8[d8] == 1:
                sc += 100                   # the declarer's singleton
            if p8 and d8 and ps_ctz(p8) < ps_ctz(d8):
                sc -= 250                   # the partner's lowest is under the declarer's
        scores[i] = sc
    sort_by_score(scores, out, k)
    n[0] = k


cdef inline void order_misere_second(Search* s, int seat, uint32_t moves, uint32_t wins,
                                     int led, int* out, int* n) noexcept nogil:
    """Order a misère (or all-pass) defender's cards as second to play (at
    least two) by fitted scores (see above): ``wins`` are the cards that
    would win the trick so far. Roughly: cards above many of the declarer's
    cards of their suit and below few, the highest that stays under the card
    led, a low winner, discards from short suits. (The counted player's
    follows: order_misere_follows.)"""
    cdef int scores[MAX_MOVES]
    cdef int lhs[MAX_MOVES]
    cdef int i, c, r, sh, sc, mx
    cdef int k = history_levels(s, seat, moves, out, lhs, &mx)
    cdef uint32_t b, o8, a8, d8
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    for i in range(k):
        c = out[i]
        r = c & 7
        sh = c & ~7
        b = (<uint32_t>1) << r
        o8 = (s.hand[seat] >> sh) & 0xFF
        a8 = ((alive >> sh) & 0xFF) & ~o8
        d8 = (s.hand[s.declarer] >> sh) & 0xFF
        sc = (-74 * POPCOUNT8[a8 & ~((b << 1) - 1)] - 124 * POPCOUNT8[o8 & (b - 1)]
              + 289 * POPCOUNT8[d8 & (b - 1)] - 200 * POPCOUNT8[d8 & ~((b << 1) - 1)])
        if lhs[i] == mx:
            sc += 146
        if (wins >> c) & 1:
            sc -= 53 * r
        elif (c >> 3) == led:
            sc += 101 * r
        else:
            sc -= 200 * POPCOUNT8[o8]       # a discard: from a short suit first
        scores[i] = sc
    sort_by_score(scores, out, k)
    n[0] = k


cdef inline void order_misere_last(Search* s, int seat, uint32_t moves, uint32_t wins,
                                   int led, int* out, int* n) noexcept nogil:
    """Order a misère (or all-pass) defender's cards as last to play (at
    least two) by a fitted score (see above), with the history only breaking
    ties (the fit gave it little weight here). Roughly: cards above many of
    the declarer's cards of their suit, from suits short in both hands, and
    the highest card that lets the trick stand."""
    cdef int scores[MAX_MOVES]
    cdef int k = 0, c, r, sh, sc
    cdef uint32_t b, o8, d8
    while moves:
        c = ps_ctz(moves)
        moves &= moves - 1
        r = c & 7
        sh = c & ~7
        b = (<uint32_t>1) << r
        o8 = (s.hand[seat] >> sh) & 0xFF
        d8 = (s.hand[s.declarer] >> sh) & 0xFF
        sc = -138 * POPCOUNT8[o8] + 230 * POPCOUNT8[d8 & (b - 1)] - 100 * POPCOUNT8[d8]
        if not ((wins >> c) & 1) and (c >> 3) == led:
            sc += 228 * r
        out[k] = c
        # |sc| < 2**12 and hist < 2**28 (HIST_CAP): both fit in an int.
        scores[k] = sc * 65536 + <int>(s.hist[seat][c] >> 12)
        k += 1
    sort_by_score(scores, out, k)
    n[0] = k


cdef inline void order_leads(Search* s, int seat, uint32_t moves, int* out, int* n) noexcept nogil:
    """Order a game's leads ``moves`` (at least two cards) by static score
    with history breaking ties (misère and all-pass: order_misere_leads)."""
    cdef int scores[MAX_MOVES]
    cdef int k = 0, c, i, j, tmp
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    while moves:
        c = ps_ctz(moves)
        moves &= moves - 1
        out[k] = c
        scores[k] = lead_score(s, seat, c, alive) * HIST_W + <int>s.hist[seat][c]
        k += 1
    for i in range(1, k):
        j = i
        while j > 0 and scores[j] > scores[j - 1]:
            tmp = scores[j]; scores[j] = scores[j - 1]; scores[j - 1] = tmp
            tmp = out[j]; out[j] = out[j - 1]; out[j - 1] = tmp
            j -= 1
    n[0] = k


cdef void order_follows_misere(Search* s, int seat, uint32_t moves, int* out, int* n,
                               int led, int win_card, int win_seat, int remaining) noexcept nogil:
    """order_follows for misère and all-pass (out of line: the games' play
    keeps none of it)."""
    cdef uint32_t wins
    # All the legal cards are of the suit led, or the player is void in it.
    if not (moves & SUIT_MASK[led]):
        wins = 0                # a void player's card never wins
    elif win_card < 0:
        wins = moves            # the first card to follow a talon card
    else:
        wins = moves & ~(((<uint32_t>2) << win_card) - 1)
    if remaining == 2 and seat != s.declarer:
        order_misere_second(s, seat, moves, wins, led, out, n)
    elif remaining == 1 and seat != s.declarer:
        order_misere_last(s, seat, moves, wins, led, out, n)
    else:
        order_misere_follows(s, seat, moves, wins, win_seat == s.declarer, remaining, led, out, n)


cdef inline void order_follows(Search* s, int seat, uint32_t moves, int* out, int* n,
                               int led, int win_card, int win_seat, int remaining) noexcept nogil:
    """Order the cards ``moves`` (at least two) played to a game's trick in
    progress (misère and all-pass: order_follows_misere)."""
    cdef int scores[MAX_MOVES]
    cdef int k = 0, c, i, j, tmp
    while moves:
        c = ps_ctz(moves)
        moves &= moves - 1
        out[k] = c
        scores[k] = (follow_score(s, seat, c, led, win_card, win_seat, remaining) * s.hist_weight
                     + <int>s.hist[seat][c])
        k += 1
    for i in range(1, k):
        j = i
        while j > 0 and scores[j] > scores[j - 1]:
            tmp = scores[j]; scores[j] = scores[j - 1]; scores[j - 1] = tmp
            tmp = out[j]; out[j] = out[j - 1]; out[j - 1] = tmp
            j -= 1
    n[0] = k


cdef inline void order_misere_follows(Search* s, int seat, uint32_t moves, uint32_t wins,
                                      bint decl_wins, int remaining, int led, int* out,
                                      int* n) noexcept nogil:
    """order_follows for misère and all-pass (no trumps), from the mask of the
    cards that win the trick (``wins``): a card loop free of the game's tests.

    The counted player's cards go by a static score first and the history
    after (the score tuned like the orders above): the rule below, then, per card of his of the
    suit, -15 under it and -20 in all; per card of the others, +20 under it,
    -40 above it and +5 in all; a discard -20 per card of its suit he holds
    and +20 per card of the others' under it."""
    cdef int scores[MAX_MOVES]
    cdef int k = 0, c, sc, r, sh
    cdef uint32_t b, d8, o8
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    cdef bint is_decl = seat == s.declarer
    while moves:
        c = ps_ctz(moves)
        moves &= moves - 1
        r = c & 7
        # The declarer: the highest card that still loses; when he must win,
        # the highest if he is last, else the lowest. A defender: keep the
        # declarer winning (high under him), or force him to go over (low).
        if (wins >> c) & 1:
            if is_decl:
                sc = (40 + r) if remaining == 1 else (40 - r)
            else:
                sc = (20 - r) if decl_wins else (40 - r)
        else:
            sc = (60 + r) if (is_decl or decl_wins) else (40 - r)
        out[k] = c
        if is_decl:
            sh = c & ~7
            b = (<uint32_t>1) << r
            d8 = (s.hand[seat] >> sh) & 0xFF
            o8 = ((alive >> sh) & 0xFF) & ~d8
            sc += (-15 * POPCOUNT8[d8 & (b - 1)] - 20 * POPCOUNT8[d8] + 20 * POPCOUNT8[o8 & (b - 1)]
                   - 40 * POPCOUNT8[o8 & ~((b << 1) - 1)] + 5 * POPCOUNT8[o8])
            if (c >> 3) != led:
                sc += -20 * POPCOUNT8[d8] + 20 * POPCOUNT8[o8 & (b - 1)]
            # |sc| < 2**10 and hist < 2**28 (HIST_CAP): the sum fits in an int.
            scores[k] = sc * 16384 + <int>s.hist[seat][c]
        else:
            scores[k] = sc * s.hist_weight + <int>s.hist[seat][c]
        k += 1
    sort_by_score(scores, out, k)
    n[0] = k


cdef inline uint32_t winners_of(Search* s, uint32_t moves, int x, int win_card) noexcept nogil:
    """The cards of ``moves`` (all of suit x) that beat ``win_card``."""
    if x == (win_card >> 3):
        return moves & ~(((<uint32_t>2) << win_card) - 1)
    if x == s.trump:
        return moves
    return 0


cdef inline uint32_t beaten_by(Search* s, int y, uint32_t moves, int led) noexcept nogil:
    """The cards of ``moves`` (one suit) that player y, playing after them to a
    trick of suit ``led``, can beat: he must follow suit, else ruff."""
    cdef uint32_t m = s.hand[y] & SUIT_MASK[led]
    if m:
        return moves & SUIT_MASK[led] & ((<uint32_t>1 << ps_msb(m)) - 1)
    if s.trump < 0:
        return 0
    m = s.hand[y] & SUIT_MASK[s.trump]
    if not m:
        return 0
    return (moves & ~SUIT_MASK[s.trump]) | (moves & ((<uint32_t>1 << ps_msb(m)) - 1))


cdef inline int push_cards(int* out, int n, uint32_t m) noexcept nogil:
    """Append the cards of m to out[n:], lowest first; return the new count."""
    while m:
        out[n] = ps_ctz(m)
        m &= m - 1
        n += 1
    return n
