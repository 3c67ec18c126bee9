# Bounds without search: answers proven from the cards alone, at trick
# starts, before any move is generated.
#
# Games: the leader's side's quick tricks (quick_tricks), each side's sure
# trump tricks, the declarer's counting bounds (declarer_sure_tricks,
# declarer_first_tops), the defence's sure trick (defence_wins_one), a suit
# the declarer wins and then cashes enough (won_suit_cashes). Misère and
# all-pass: the counted player never wins again (never_wins_*), must take
# this trick (must_win_now), takes every trick (no_exit, all_forced_off),
# exits surely (sure_exit_lead, one_excess_exit), and the refutation of an
# opponent's lead one trick ahead (lead_refuted, escapes_*).
#
# Invariants: each test is sound (when it answers, the answer is the exact
# search's), most are sufficient only (no answer proves nothing); a game
# bound returns the cards it read, so that the pattern table's entry is
# valid for every position agreeing on them. Tests that recurse one trick
# ahead restore every hand they change.

cdef inline int quick_tricks(Search* s, int leader, uint32_t* cnt, int* side_tricks, uint32_t* tops,
                             uint32_t* per_suit) noexcept nogil:
    """Tricks the leader's side surely takes by cashing the leader's winners.

    Games only (trump or no-trump). For each suit: the leader's cards above
    every other alive card of the suit; all his cards of the suit once the two
    others cannot follow any more. In a trump game a side suit counts only as
    long as every other player holding a trump still follows it (a void player
    with a trump must ruff, and even the partner's ruff would take the lead).
    Cashing one suit never spoils another: whoever discards holds no trump.
    ``side_tricks`` receives the part from side suits: no trump is played
    while they are cashed. ``tops`` receives his cards above every other
    alive card of their suit: with the lengths, each suit's count depends on
    nothing else (more such cards never count fewer tricks). ``per_suit``
    receives the count of each suit, a byte each. ``cnt`` holds each seat's
    byte_counts.
    """
    # All four suits at once, one byte each, without branches (SWAR): the
    # per-suit loop it replaces spent ~10% of a best-of-66 solve.
    cdef uint32_t h = s.hand[leader]
    cdef uint32_t ha = s.hand[SEAT3[leader + 1]], hb = s.hand[SEAT3[leader + 2]]
    cdef uint32_t below, top, na, nb, m, side
    cdef uint32_t H80 = 0x80 * 0x01010101     # the top bit of each byte
    # Every rank at or below the highest card the others hold in each suit.
    below = ha | hb
    below |= (below >> 1) & 0x7F7F7F7F
    below |= (below >> 2) & 0x3F3F3F3F
    below |= (below >> 4) & 0x0F0F0F0F
    tops[0] = h & ~below
    top = byte_counts(h & ~below)
    na = cnt[SEAT3[leader + 1]]
    nb = cnt[SEAT3[leader + 2]]
    # Suits where his top cards exhaust both others: every card of his counts.
    m = ((top | H80) - na) & ((top | H80) - nb) & H80
    m = (m >> 7) * 0xFF
    top = (cnt[leader] & m) | (top & ~m)
    side_tricks[0] = 0
    if s.trump >= 0:
        side = ~SUIT_MASK[s.trump]
        # A side suit counts only while each other player holding a trump follows.
        if ha & SUIT_MASK[s.trump]:
            m = (((~(((na | H80) - top) & H80)) & H80) >> 7) * 0xFF & side
            top = (top & ~m) | (na & m)
        if hb & SUIT_MASK[s.trump]:
            m = (((~(((nb | H80) - top) & H80)) & H80) >> 7) * 0xFF & side
            top = (top & ~m) | (nb & m)
        side_tricks[0] = ((top & side) * 0x01010101) >> 24
    per_suit[0] = top
    return (top * 0x01010101) >> 24


cdef inline uint32_t quick_cards(uint32_t tops, uint32_t per_suit, int need) noexcept nogil:
    """The top cards of the fewest suits whose quick tricks (``per_suit``, a
    byte each, from quick_tricks) reach ``need``: the cards such a bound
    relies on. In the last suit, when the tricks still needed are no more
    than his top cards there, only that many of his highest cards: with them
    his count there stays at least that (a trump cap on it is at least the
    count it capped)."""
    cdef uint32_t cards = 0, m
    cdef int x, best, bx
    while need > 0 and per_suit:
        best = 0
        bx = 0
        for x in range(4):
            if <int>((per_suit >> (8 * x)) & 0xFF) > best:
                best = (per_suit >> (8 * x)) & 0xFF
                bx = x
        m = tops & SUIT_MASK[bx]
        if need < best and need <= ps_popcount(m):
            while need > 0:
                cards |= (<uint32_t>1) << ps_msb(m)
                m &= ~((<uint32_t>1) << ps_msb(m))
                need -= 1
            return cards
        cards |= m
        per_suit &= ~SUIT_MASK[bx]
        need -= best
    return cards


cdef inline int entry_to_partner(Search* s, int leader) noexcept nogil:
    """Games, a defender on lead: a suit that his partner surely wins, or -1.

    He leads his lowest card of a suit in which the partner holds a card above
    it and above every card of the suit the declarer holds, and the declarer
    must follow (or has no trump to ruff). The partner wins with that card and
    is on lead: the defence then takes at least the partner's sure tricks
    counted now (the entry card among them, or an extra trick if it was not;
    the trick only shortens the others' suits).
    """
    cdef int p = 3 - leader - s.declarer, x
    cdef uint32_t sm, pm, dm, lm
    cdef uint32_t dh = s.hand[s.declarer]
    cdef bint d_trumps = s.trump >= 0 and (dh & SUIT_MASK[s.trump]) != 0
    for x in range(4):
        sm = SUIT_MASK[x]
        lm = s.hand[leader] & sm
        if not lm:
            continue
        pm = s.hand[p] & sm
        if not pm or ps_msb(pm) < ps_ctz(lm):
            continue
        dm = dh & sm
        if dm:
            if ps_msb(pm) > ps_msb(dm):
                return x
        elif not d_trumps or x == s.trump:
            return x
    return -1


cdef inline uint32_t declarer_sure_tricks(Search* s, uint32_t* cnt, int need) noexcept nogil:
    """Games where the defenders hold no trump, a defender on lead: the cards
    that surely win the declarer ``need`` (>= 1) tricks, or 0 when this test
    cannot tell. (The declarer's trumps, if any, count as a suit the
    defenders lack; a ruff of his wins, which only ends the argument early.)

    U: the suits where he holds the top card and a defender holds a card. He
    keeps a set P of his top cards, one of each suit of U at least, to the
    end and plays his other cards first (following suit, discarding when
    void). While the defenders win every trick, a lead of a suit of U would
    let him win with its top card, so every trick up to and including the
    first one after his other cards are gone, d - |P| + 1 tricks for d cards
    each, is led in a suit outside U; a suit is led at most as many times as
    its longer defender holds cards of it, so when those lengths add up to
    at most d - |P| he wins a trick. He then still holds |P| - 1 cards of P
    at least, all top cards, and is on lead: he cashes them, |P| tricks in
    all. P: one top card of each suit of U, then his cards of suits the
    defenders lack (they rely on the lengths alone), then more top cards of
    U. The answer relies on the lengths and on the cards of P in U.
    """
    cdef uint32_t dh = s.hand[s.declarer]
    cdef uint32_t ha = s.hand[SEAT3[s.declarer + 1]], hb = s.hand[SEAT3[s.declarer + 2]]
    cdef uint32_t ca = cnt[SEAT3[s.declarer + 1]], cb = cnt[SEAT3[s.declarer + 2]]
    cdef uint32_t below = ha | hb, tops, rel = 0, m, extra = 0
    cdef int y, u = 0, outside = 0, a, b, spare = 0, room
    below |= (below >> 1) & 0x7F7F7F7F
    below |= (below >> 2) & 0x3F3F3F3F
    below |= (below >> 4) & 0x0F0F0F0F
    tops = dh & ~below
    for y in range(4):
        a = (ca >> (8 * y)) & 0xFF
        b = (cb >> (8 * y)) & 0xFF
        m = tops & SUIT_MASK[y]
        if m and (a or b):
            u += 1
            rel |= (<uint32_t>1) << ps_msb(m)
            extra |= m & ~((<uint32_t>1) << ps_msb(m))
        else:
            outside += a if a > b else b
            if m:
                spare += ps_popcount(m)     # a suit the defenders lack
    room = <int>((cnt[s.declarer] * 0x01010101) >> 24) - outside     # the most |P| may be
    if u == 0 or room < need or room < u or u + spare + ps_popcount(extra) < need:
        return 0
    need -= u + spare
    while need > 0:
        # More top cards of U, each suit's from the top down.
        y = ps_msb(extra)
        rel |= (<uint32_t>1) << y
        extra &= ~((<uint32_t>1) << y)
        need -= 1
    return rel


cdef inline uint32_t declarer_first_tops(Search* s, uint32_t* cnt, int need) noexcept nogil:
    """Games where a defender holds a trump, a defender on lead: the cards
    (top cards of side suits, top trumps) that surely win the declarer
    ``need`` (>= 1) tricks, or 0 when this test cannot tell.

    declarer_sure_tricks with U cut down to the side suits where he holds the
    top card, a defender holds a card and no defender is void while holding a
    trump, and one top card of each of them in P. A defender with a trump
    must follow suit or ruff, so he sheds cards of such a suit only on tricks
    led in it: on its first trick every defender still holds the suit or has
    no trump, and the top card wins. The count of the leads outside U is the
    same, the trump suit among them, so he wins a trick before he has to
    give up a card of P; until then no suit of U was led, since its first
    lead is his. Then he is on lead and cashes the rest of P, each card on
    the first trick of its suit: |P| tricks in all. (A second top card of a
    suit could be ruffed, so it does not count.) So the cards of P win |P|
    tricks however he plays his others, and his trumps win at least
    sure_trump_tricks of them in other tricks (that count holds for any
    play): they add up. The answer relies on the lengths, on the cards of P
    and on the trumps that trump_region names.
    """
    cdef int d = s.declarer
    cdef uint32_t ca = cnt[SEAT3[d + 1]], cb = cnt[SEAT3[d + 2]]
    cdef uint32_t below = s.hand[SEAT3[d + 1]] | s.hand[SEAT3[d + 2]]
    cdef uint32_t trumps = 0xFFU << (8 * s.trump), u8, suits, m, theirs
    cdef int u, outside
    # All four suits at once, a byte each (see nonzero_bytes): his top cards
    # of the side suits, then the suits of U as 0x80 flags.
    below |= (below >> 1) & 0x7F7F7F7FU
    below |= (below >> 2) & 0x3F3F3F3FU
    below |= (below >> 4) & 0x0F0F0F0FU
    m = s.hand[d] & ~below & ~trumps
    u8 = nonzero_bytes(m) & nonzero_bytes(below)
    u8 &= nonzero_bytes(ca) | (0x80808080U if not (ca & trumps) else 0)
    u8 &= nonzero_bytes(cb) | (0x80808080U if not (cb & trumps) else 0)
    u = ps_popcount(u8)
    if u == 0:
        return 0
    theirs = (s.hand[SEAT3[d + 1]] | s.hand[SEAT3[d + 2]]) & trumps
    if u < need and trump_tricks(s, s.hand[d] & trumps, theirs) < need - u:
        return 0
    suits = (u8 >> 7) * 0xFF
    outside = <int>(((longer_lengths(ca, cb) & ~suits) * 0x01010101U) >> 24)
    if <int>((cnt[d] * 0x01010101U) >> 24) - outside < u:
        return 0
    return highest_per_byte(m & suits) | trump_region(s, s.hand[d] & trumps, theirs, need - u)


cdef inline uint32_t declarer_wins_bytes(Search* s, int leader) noexcept nogil:
    """Games, a defender on lead: 0x80 in the byte of each suit of his in
    which the declarer surely wins the trick, whatever is led and played to
    it: with his lowest card above every defender's card of the suit (the
    trump suit included), or, void in a side suit, with his lowest trump.
    In a side suit the leader's partner must also follow it or hold no
    trump, so that he cannot ruff (a void player holding a trump must)."""
    cdef int d = s.declarer
    cdef uint32_t dh = s.hand[d], lh = s.hand[leader], ph = s.hand[3 - leader - d]
    cdef uint32_t tm = SUIT_MASK[s.trump] if s.trump >= 0 else 0
    cdef uint32_t below = lh | ph, won
    below |= (below >> 1) & 0x7F7F7F7F
    below |= (below >> 2) & 0x3F3F3F3F
    below |= (below >> 4) & 0x0F0F0F0F
    won = nonzero_bytes(dh & ~below)
    if dh & tm:
        won |= ~nonzero_bytes(dh) & 0x80808080U & ~nonzero_bytes(tm)
    if ph & tm:
        won &= nonzero_bytes(ph) | nonzero_bytes(tm)
    return won & nonzero_bytes(lh)


cdef uint32_t won_suit_cashes(Search* s, int leader, int y, int target,
                              uint32_t* cnt) noexcept nogil:
    """Games, a defender on lead, y a suit of his that declarer_wins_bytes
    gives the declarer: the cards on which every lead of y fails, or 0 when
    this test cannot tell. ``cnt``: each hand's byte_counts.

    The declarer wins the trick with his lowest top card of y (or his
    lowest trump) and leads the next one, needing target - 1 more tricks:
    his quick tricks there reach it. They are counted with the defenders'
    lowest cards of y gone (the partner's only if he follows): whatever
    they play instead leaves them cards as high or higher, in the same
    suits or, for a partner without trumps, one more card, and quick_tricks
    never counts more against higher or more defender cards (the lengths of
    a defender with a trump, which cap the count, are exact). The answer
    relies on the winning card and on quick_cards' cards for the position
    after the trick: a position that agrees on them leaves, after the same
    trick, one that agrees on them too."""
    cdef int d = s.declarer
    cdef int p = 3 - leader - d, side, n
    cdef uint32_t dh = s.hand[d], lh = s.hand[leader], ph = s.hand[p]
    cdef uint32_t sm = SUIT_MASK[y], below = lh | ph, dtops, win, tops, qs
    cdef uint32_t lb, pb, one = (<uint32_t>1) << (8 * y)
    cdef uint32_t c2[3]
    below |= (below >> 1) & 0x7F7F7F7F
    below |= (below >> 2) & 0x3F3F3F3F
    below |= (below >> 4) & 0x0F0F0F0F
    dtops = dh & ~below & sm
    win = dtops & (0 - dtops) if dtops else (dh & SUIT_MASK[s.trump]) & (0 - (dh & SUIT_MASK[s.trump]))
    if target <= 1:
        return win          # this trick is the one he needs
    lb = (lh & sm) & (0 - (lh & sm))    # the leader's lowest card of y
    pb = (ph & sm) & (0 - (ph & sm))    # the partner's, if he has one
    s.hand[d] = dh ^ win
    s.hand[leader] = lh ^ lb
    s.hand[p] = ph ^ pb
    c2[d] = cnt[d] - ((<uint32_t>1) << (8 * (ps_ctz(win) >> 3)))
    c2[leader] = cnt[leader] - one
    c2[p] = cnt[p] - (one if pb else 0)
    n = quick_tricks(s, d, c2, &side, &tops, &qs)
    s.hand[d] = dh
    s.hand[leader] = lh
    s.hand[p] = ph
    if n + 1 < target:
        return 0
    return win | quick_cards(tops, qs, target - 1)


cdef inline uint32_t defence_wins_one(Search* s, uint32_t* cnt) noexcept nogil:
    """Games, the declarer needing every trick: the top card of a suit held
    by a defender when it surely wins the defence a trick, else 0.

    The declarer must hold a card of that suit. The defender keeps the top
    card to the end and plays his others first. Winning every trick, the
    declarer leads each trick after the first, so each of his cards but the
    one he plays to the first trick is a lead, and that one, when a defender
    leads, follows the suit led or ruffs. A lead of the suit (or his
    following it on the first trick) meets the top card: the defender still
    holds it, since he plays it last, when it is all he has and so no
    discard. If the suit is trumps and he ruffs the first trick with his
    last one, the top trump still wins the last trick."""
    cdef uint32_t dh = s.hand[s.declarer]
    cdef uint32_t oh = s.hand[SEAT3[s.declarer + 1]] | s.hand[SEAT3[s.declarer + 2]]
    cdef uint32_t below = dh, tops, m
    cdef int y
    below |= (below >> 1) & 0x7F7F7F7F
    below |= (below >> 2) & 0x3F3F3F3F
    below |= (below >> 4) & 0x0F0F0F0F
    tops = oh & ~below
    for y in range(4):
        m = tops & SUIT_MASK[y]
        if m and (cnt[s.declarer] & SUIT_MASK[y]):
            return (<uint32_t>1) << ps_msb(m)
    return 0


cdef inline int trump_tricks(Search* s, uint32_t mine, uint32_t theirs) noexcept nogil:
    """sure_trump_tricks for masks of the trump suit, by one table load."""
    cdef int sh = 8 * s.trump
    return TRUMP_TRICKS8[(((mine >> sh) & 0xFF) << 8) | ((theirs >> sh) & 0xFF)]


cdef uint32_t trump_region(Search* s, uint32_t mine, uint32_t theirs, int need) noexcept nogil:
    """The fewest top trumps (alive cards, from the highest down) whose
    holders guarantee ``need`` sure_trump_tricks of ``mine`` against
    ``theirs`` however the trumps below them lie: with my lower trumps placed
    at the very bottom, below theirs (the worst case: a lower trump of mine
    only spoils more easily, a higher one of theirs only spoils more)."""
    cdef int sh = 8 * s.trump, j
    cdef uint32_t a = ((s.hand[0] | s.hand[1] | s.hand[2]) >> sh) & 0xFF
    cdef uint32_t m = (mine >> sh) & 0xFF, t = (theirs >> sh) & 0xFF
    cdef uint32_t region = 0, small, mw, tw
    cdef int nm, nt
    if need <= 0:
        return 0
    while True:
        small = a & ~region
        nm = POPCOUNT8[m & small]
        nt = POPCOUNT8[t & small]
        mw = m & region
        tw = t & region
        for j in range(nm):
            mw |= small & (~small + 1)
            small &= small - 1
        for j in range(nt):
            tw |= small & (~small + 1)
            small &= small - 1
        if TRUMP_TRICKS8[(mw << 8) | tw] >= need or region == a:
            return region << sh
        region |= (<uint32_t>1) << ps_msb(a & ~region)


cdef inline bint no_exit(Search* s, int leader) noexcept nogil:
    """Misère / all-pass: the counted player on lead can never lose the lead.

    True when, in every suit he holds, each other player's i-th lowest card
    of it is below his i-th lowest (for each i up to the shorter count).
    Whatever he leads, each of them can then play under it (his highest card
    below it) or shed the top card of a suit, and either keeps the matching:
    the mirror of never_wins. He then takes every remaining trick.
    """
    cdef uint32_t h = s.hand[leader], mine
    cdef int x, sh
    for x in range(4):
        sh = 8 * x
        mine = (h >> sh) & 0xFF
        if not mine:
            continue
        if not (UNDER8[(((s.hand[SEAT3[leader + 1]] >> sh) & 0xFF) << 8) | mine]
                and UNDER8[(((s.hand[SEAT3[leader + 2]] >> sh) & 0xFF) << 8) | mine]):
            return False
    return True


# Byte-wise tests of all four suits at once (one suit per byte of a mask):
# which suits a player holds and which ranks lie under his lowest card of
# each, without a test per suit. Which suits are held varies from node to
# node, so a loop with a branch per suit mispredicts; these run without a
# branch.

cdef inline uint32_t nonzero_bytes(uint32_t m) noexcept nogil:
    """0x80 in each byte of m that is not zero, 0 in the others."""
    return (m | ((m & 0x7F7F7F7FU) + 0x7F7F7F7FU)) & 0x80808080U


cdef inline uint32_t below_lowest(uint32_t m) noexcept nogil:
    """In each byte (suit) of m, the ranks under its lowest card (0x7F for
    an empty byte). ``m | 0x80`` keeps each byte's decrement from borrowing
    from the next byte; the top rank is never under a card."""
    return ~m & ((m | 0x80808080U) - 0x01010101U) & 0x7F7F7F7FU


cdef inline uint32_t longer_lengths(uint32_t ca, uint32_t cb) noexcept nogil:
    """The larger of two byte_counts, byte by byte (counts < 128, so no
    byte's subtraction borrows from the next)."""
    cdef uint32_t ge = ((((ca | 0x80808080U) - cb) & 0x80808080U) >> 7) * 0xFF   # 0xFF where ca >= cb
    return (ca & ge) | (cb & ~ge)


cdef inline uint32_t highest_per_byte(uint32_t m) noexcept nogil:
    """The highest card of each suit (byte) of m."""
    m |= (m >> 1) & 0x7F7F7F7FU
    m |= (m >> 2) & 0x3F3F3F3FU
    m |= (m >> 4) & 0x0F0F0F0FU
    return m & ~((m >> 1) & 0x7F7F7F7FU)


cdef inline bint all_ok_but(uint32_t bad, int x) noexcept nogil:
    """No suit but x in the mask ``bad`` (one bit per suit)."""
    return (bad & ~((<uint32_t>1) << x)) == 0


cdef bint all_forced_off(Search* s, int leader) noexcept nogil:
    """Misère / all-pass: can the other two make the counted player take
    every remaining trick (at least two)? Exact. Called with an opponent on
    lead; on lead the answer is no_exit (the callers know who leads, so
    the test is made once there).

    On lead, he takes them all exactly when no_exit holds: if some suit
    breaks its matching for a player X (X's i-th lowest card above his i-th
    lowest, with i up to the shorter count), he leads that suit from the
    bottom; X must follow every time, and has at most i - 1 cards below his
    i-th lowest, so X overtakes one of the first i leads at the latest.

    When an opponent leads, he takes every trick exactly when he takes this
    one and no_exit holds after it (he is then on lead). The leader must
    lead a suit he holds with a card under all of the counted player's in
    it; the partner, when he follows, a card under the one that would win.
    Of the cards that qualify, each plays his highest: dropping a higher
    card keeps the i-th lowest of the rest no higher, so the matching only
    gets easier. A partner void in the suit sheds the top card of one suit,
    which can mend that suit's matching for him alone. The counted player
    tries each card of the suit (all win).
    """
    cdef int d = s.declarer
    cdef uint32_t hd = s.hand[d], hl = s.hand[leader], hp = s.hand[3 - leader - d]
    cdef uint32_t below, cand
    # The suits with a lead he must win (the leader and a following partner
    # both have a card under his lowest), a byte each: most positions have none.
    below = below_lowest(hd)
    # (below has no byte's top bit set, so m & below is nonzero in a byte
    # exactly when adding 0x7F there carries into the top bit.)
    cand = (nonzero_bytes(hd) & ((hl & below) + 0x7F7F7F7FU)
            & (((hp & below) + 0x7F7F7F7FU) | ~nonzero_bytes(hp)) & 0x80808080U)
    if not cand:
        return False
    return all_forced_tail(s, leader, cand)


cdef bint all_forced_tail(Search* s, int leader, uint32_t cand) noexcept nogil:
    """all_forced past its first test (``cand``: the suits with a lead he
    must win). Kept out of line (see the prototypes at the top), so that all_forced's quick
    "no" needs no saved registers."""
    cdef int d = s.declarer
    cdef int p = 3 - leader - d
    cdef int x, t, z, sh
    cdef uint32_t hd = s.hand[d], hl = s.hand[leader], hp = s.hand[p]
    cdef uint32_t bad, badl, d8, l8, p8, l8n, p8n, d8n, below, m, d02, d13, i02, i13
    cdef bint ok
    # UNDER8's indices two suits at a time (as in run_tops): suits 0 and 2, then 1 and 3.
    d02 = hd & 0x00FF00FFU
    d13 = (hd >> 8) & 0x00FF00FFU
    i02 = ((hl & 0x00FF00FFU) << 8) | d02
    i13 = (hl & 0xFF00FF00U) | d13
    badl = ((UNDER8[i02 & 0xFFFF] | (UNDER8[i13 & 0xFFFF] << 1)
             | (UNDER8[i02 >> 16] << 2) | (UNDER8[i13 >> 16] << 3)) ^ 15)
    i02 = ((hp & 0x00FF00FFU) << 8) | d02
    i13 = (hp & 0xFF00FF00U) | d13
    bad = badl | ((UNDER8[i02 & 0xFFFF] | (UNDER8[i13 & 0xFFFF] << 1)
                   | (UNDER8[i02 >> 16] << 2) | (UNDER8[i13 >> 16] << 3)) ^ 15)
    while cand:
        x = ps_ctz(cand) >> 3
        cand &= cand - 1
        sh = 8 * x
        d8 = (hd >> sh) & 0xFF
        l8 = (hl >> sh) & 0xFF
        below = (d8 & (~d8 + 1)) - 1           # the ranks under his lowest card
        # Every other suit's matching must hold, but one that only the
        # partner breaks, when he is void in x: his discard can mend it.
        if not all_ok_but(bad, x):
            if (hp >> sh) & 0xFF:
                continue
            m = bad & ~((<uint32_t>1) << x)
            if (m & (m - 1)) or (m & badl):
                continue
            t = ps_ctz(m)
            p8 = (hp >> (8 * t)) & 0xFF
            if not UNDER8[((p8 & ~((<uint32_t>1) << ps_msb(p8))) << 8) | ((hd >> (8 * t)) & 0xFF)]:
                continue
        l8n = l8 & ~((<uint32_t>1) << ps_msb(l8 & below))
        p8 = (hp >> sh) & 0xFF
        ok = True
        if SEAT3[leader + 1] == d:
            # He plays second: the partner answers his card.
            m = d8
            while m:
                z = ps_ctz(m)
                m &= m - 1
                d8n = d8 & ~((<uint32_t>1) << z)
                p8n = p8
                if p8:
                    if not (p8 & (((<uint32_t>1) << z) - 1)):
                        ok = False              # the partner must go over him
                        break
                    p8n = p8 & ~((<uint32_t>1) << ps_msb(p8 & (((<uint32_t>1) << z) - 1)))
                if not (UNDER8[(l8n << 8) | d8n] and UNDER8[(p8n << 8) | d8n]):
                    ok = False
                    break
        else:
            # He plays last: the partner's card comes first.
            p8n = p8
            if p8:
                if not (p8 & below):
                    continue
                p8n = p8 & ~((<uint32_t>1) << ps_msb(p8 & below))
            m = d8
            while m:
                z = ps_ctz(m)
                m &= m - 1
                d8n = d8 & ~((<uint32_t>1) << z)
                if not (UNDER8[(l8n << 8) | d8n] and UNDER8[(p8n << 8) | d8n]):
                    ok = False
                    break
        if ok:
            return True
    return False


cdef inline uint32_t legal_cards(uint32_t h, int suit, uint32_t alive) noexcept nogil:
    """No trumps: one card per run of the cards h may play to a trick of
    ``suit`` (all of h when void in it); ``alive`` counts the table too."""
    cdef int sh = 8 * suit
    if h & SUIT_MASK[suit]:
        return (<uint32_t>RUN_TOPS8[(((h >> sh) & 0xFF) << 8) | ((alive >> sh) & 0xFF)]) << sh
    return run_tops_call(h, alive)


cdef uint32_t run_tops_call(uint32_t h, uint32_t alive) noexcept nogil:
    """run_tops(h, h, alive) out of line (see the prototypes at the top): a void hand is the
    rare case, and inlined, the compiler would compute the four suits'
    bytes of ``alive`` at every call of the functions using legal_cards."""
    return run_tops(h, h, alive)


cdef inline uint32_t escape_cards(uint32_t h, int suit, int w) noexcept nogil:
    """The cards lead_refuted tries for the counted player to lose a trick of
    ``suit`` won so far by card w: his highest card under w (it keeps his
    lower cards, the best of them to escape again), or, void in the suit,
    the top card of each suit. Trying fewer cards can only prove less."""
    cdef uint32_t m = h & SUIT_MASK[suit] & ((<uint32_t>1 << w) - 1)
    if h & SUIT_MASK[suit]:
        return ((<uint32_t>1) << ps_msb(m)) if m else 0
    # The top card of each suit, all four at once: every rank at or below
    # the highest card of a suit, less the ranks under that card.
    m = h | ((h >> 1) & 0x7F7F7F7FU)
    m |= (m >> 2) & 0x3F3F3F3FU
    m |= (m >> 4) & 0x0F0F0F0FU
    return h & ~((m >> 1) & 0x7F7F7F7FU)


cdef inline bint escapes_after_decl(Search* s, int target, int left) noexcept nogil:
    """Misère / all-pass, a trick start with the counted player on lead and
    ``left`` cards each, ``target`` < left: True when he surely takes fewer
    than ``target`` tricks from here. Sufficient only: never_wins, a sure
    exit of his one trick short of all (sure_exit_lead), or the exact
    table's upper bound (an entry stored earlier in the search).
    (lead_refuted calls it only with target < left: its own target is at
    most left - 1, so its take-all case never arises here.)"""
    if never_wins_on(s):
        return True
    return escapes_probe_decl(s, target, left)


cdef bint escapes_probe_decl(Search* s, int target, int left) noexcept nogil:
    """escapes_after_decl past never_wins: the sure exit, the table. Kept
    out of line (see the prototypes at the top), so that the quick answers
    need no saved registers."""
    cdef uint16_t lens
    cdef uint64_t key
    cdef Entry* e
    cdef Entry* b
    cdef uint8_t ctx
    if left <= 4:
        return ending_tricks(s, s.declarer, left) < target
    if target == left - 1 and left >= 3 and sure_exit_lead(s, target, left) >= 0:
        return True
    ctx = s.ctx_base | <uint8_t>s.declarer
    key = position_key(s, byte_counts(s.hand[0] | s.hand[1] | s.hand[2]), &lens)
    b = tt_bucket(s, key, lens, ctx)
    e = tt_probe(b, key, lens, ctx)
    if e != NULL:
        return e.hi < target
    return False


cdef bint escapes_probe_def(Search* s, int w, int target, int left) noexcept nogil:
    """escapes_next_def past its quick answers: the table, the refutation
    of every lead. Kept out of line (see the prototypes at the top)."""
    cdef uint16_t lens
    cdef uint64_t key
    cdef Entry* e
    cdef Entry* b
    cdef uint8_t ctx
    cdef int c
    if left <= 4:
        return ending_tricks(s, w, left) < target
    ctx = s.ctx_base | <uint8_t>w
    key = position_key(s, byte_counts(s.hand[0] | s.hand[1] | s.hand[2]), &lens)
    b = tt_bucket(s, key, lens, ctx)
    e = tt_probe(b, key, lens, ctx)
    if e != NULL:
        return e.hi < target
    # One short of all: refute every lead of w's one trick ahead, and store
    # the outcome either way, so that it is never worked out twice.
    if target == left - 1 and left >= 3:
        c = unrefuted_lead(s, w, target, left)
        if c < 0:
            tt_store(s, b, NULL, key, lens, ctx, left, 0, target - 1, 255)
            return True
        # No move: the lead left unrefuted is not known to cut off, so the
        # fitted order decides what is tried first.
        tt_store(s, b, NULL, key, lens, ctx, left, 0, left, 255)
    return False


cdef inline bint escapes_next_all(Search* s, int w, int target, int left, bint take_all) noexcept nogil:
    """escapes_next_def with ``take_all`` == (target >= left) given by the
    caller, a constant after inlining: lead_refuted's copies each know it."""
    if take_all:
        return not all_forced_off(s, w)
    if never_wins_off(s):
        return True
    return escapes_probe_def(s, w, target, left)


cdef inline bint escapes_next_def(Search* s, int w, int target, int left) noexcept nogil:
    """Misère / all-pass, a trick start with opponent w on lead and ``left``
    cards each: True when the counted player surely takes fewer than
    ``target`` (<= left) tricks from here. Exact when target == left (he
    escapes a trick unless all_forced); else sufficient only: never_wins,
    the exact table's upper bound, or, one trick short of all, every lead
    of w's refuted (unrefuted_lead). That last answer goes to the table
    either way: True as the bound it proves, False as an entry with no
    bound, so that neither is worked out twice."""
    return escapes_next_all(s, w, target, left, target >= left)


cdef int unrefuted_lead(Search* s, int w, int target, int left) noexcept nogil:
    """Misère / all-pass, opponent w on lead, the others needing all tricks
    but one (target == left - 1, left >= 3): a lead of w's (one per run)
    that lead_refuted does not settle, or -1 when it settles them all, and
    then the counted player surely escapes twice. The recursion stops here:
    lead_refuted's own tests one trick on (escapes_next_all) are then the
    take-all test and the counted player's sure exit, on lead one short of
    all, neither of which comes back here."""
    cdef uint32_t m = run_tops(s.hand[w], s.hand[w], s.hand[0] | s.hand[1] | s.hand[2])
    while m:
        if not lead_refuted_t(s, w, ps_ctz(m), target, left, True):
            return ps_ctz(m)
        m &= m - 1
    return -1


cdef inline bint lead_refuted(Search* s, int leader, int x, int target, int left) noexcept nogil:
    """lead_refuted_t, with the take-all case one trick on (target ==
    left - 1) decided once here rather than at every reply."""
    if target == left - 1:
        return lead_refuted_t(s, leader, x, target, left, True)
    return lead_refuted_t(s, leader, x, target, left, False)


cdef bint lead_refuted_all(Search* s, int leader, int x, int target, int left) noexcept nogil:
    """lead_refuted one trick short of all (target == left - 1)."""
    return lead_refuted_i(s, leader, x, target, left, True)


cdef bint lead_refuted_short(Search* s, int leader, int x, int target, int left) noexcept nogil:
    """lead_refuted further from all (target < left - 1)."""
    return lead_refuted_i(s, leader, x, target, left, False)


cdef inline bint lead_refuted_t(Search* s, int leader, int x, int target, int left,
                                bint take_all) noexcept nogil:
    """lead_refuted for a caller that knows take_all (target == left - 1)."""
    if take_all:
        return lead_refuted_all(s, leader, x, target, left)
    return lead_refuted_short(s, leader, x, target, left)


cdef inline bint lead_refuted_i(Search* s, int leader, int x, int target, int left,
                                bint take_all) noexcept nogil:
    """Misère / all-pass, an opponent on lead (at least three cards each)
    with the others needing ``target`` tricks of the counted player, at most
    ``left`` - 1: True when his lead of card x surely fails.

    Sufficient only: the counted player has a card that loses this trick
    whatever the last player does (his highest under the winning card, or
    the top card of a suit when void), after which escapes_next_all holds:
    from there he takes fewer than ``target`` tricks. When he has no such
    card he may also win the trick: then escapes_after_decl must hold for
    ``target`` - 1 with him on lead (one trick short of all, a sure exit of
    his settles it: sure_exit_lead). Only for a target of 2 or more: target
    - 1 must stay at least 1 (escapes_after_decl with a target of 0 would
    wrongly trust never_wins). ``take_all``: target == left - 1, so that the
    next start's take-all test is known without a test per reply.
    """
    cdef int d = s.declarer
    cdef int p = 3 - leader - d
    cdef int sx = x >> 3, z, y, w, win
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    cdef uint32_t xb = (<uint32_t>1) << x
    cdef uint32_t zs, ys, zb, yb
    cdef bint found, ok = True
    s.hand[leader] ^= xb
    if SEAT3[leader + 1] == d:
        # He plays second: one card of his must do against every reply.
        zs = escape_cards(s.hand[d], sx, x)
        if not zs and target >= 2:
            zs = legal_cards(s.hand[d], sx, alive)      # all above x: he may win
        found = False
        while zs and not found:
            z = ps_ctz(zs)
            zs &= zs - 1
            zb = (<uint32_t>1) << z
            s.hand[d] ^= zb
            found = True
            ys = legal_cards(s.hand[p], sx, alive)
            while ys:
                y = ps_ctz(ys)
                ys &= ys - 1
                yb = (<uint32_t>1) << y
                w = z if ((z >> 3) == sx and z > x) else x
                win = p if ((y >> 3) == sx and y > w) else (d if w == z else leader)
                s.hand[p] ^= yb
                if win == d:
                    if not escapes_after_decl(s, target - 1, left - 1):
                        found = False
                elif not escapes_next_all(s, win, target, left - 1, take_all):
                    found = False
                s.hand[p] ^= yb
                if not found:
                    break
            s.hand[d] ^= zb
        ok = found
    else:
        # He plays last: against every reply of the partner, a card of his.
        ys = legal_cards(s.hand[p], sx, alive)
        while ys and ok:
            y = ps_ctz(ys)
            ys &= ys - 1
            yb = (<uint32_t>1) << y
            w = x
            win = leader
            if (y >> 3) == sx and y > x:
                w = y
                win = p
            s.hand[p] ^= yb
            zs = escape_cards(s.hand[d], sx, w)
            if not zs and target >= 2:
                zs = legal_cards(s.hand[d], sx, alive)  # all above w: he wins
            found = False
            while zs and not found:
                z = ps_ctz(zs)
                zs &= zs - 1
                zb = (<uint32_t>1) << z
                s.hand[d] ^= zb
                if (z >> 3) == sx and z > w:
                    found = escapes_after_decl(s, target - 1, left - 1)
                else:
                    found = escapes_next_all(s, win, target, left - 1, take_all)
                s.hand[d] ^= zb
            s.hand[p] ^= yb
            ok = found
    s.hand[leader] ^= xb
    return ok


cdef bint exit_escapes(Search* s, int x, int target, int left) noexcept nogil:
    """Misère / all-pass, the counted player on lead (``left`` >= 3 cards
    each, the others needing ``target`` <= left - 1 tricks of his): True
    when his lead of card x surely keeps him under ``target``.

    Sufficient only, one trick ahead: x is a sure exit (a player after him
    holds cards of its suit, all higher, so he loses the trick whatever
    they play), and after every pair of replies (one card per run)
    escapes_next_def holds at the next start. With target == left - 1 that
    test is exact (all_forced), so a sure exit is settled without search.
    """
    cdef int d = s.declarer
    cdef int a = SEAT3[d + 1], b = SEAT3[d + 2]
    cdef int sx = x >> 3, y, z, w, wy, win
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    cdef uint32_t xb = (<uint32_t>1) << x, yb, zb, ys, zs
    cdef uint32_t a8 = (s.hand[a] >> (8 * sx)) & 0xFF, b8 = (s.hand[b] >> (8 * sx)) & 0xFF
    cdef bint ok = True
    if not ((a8 and ps_ctz(a8) > (x & 7)) or (b8 and ps_ctz(b8) > (x & 7))):
        return False
    s.hand[d] ^= xb
    ys = legal_cards(s.hand[a], sx, alive)
    while ys and ok:
        y = ps_ctz(ys)
        ys &= ys - 1
        yb = (<uint32_t>1) << y
        w = x
        wy = d
        if (y >> 3) == sx and y > x:
            w = y
            wy = a
        s.hand[a] ^= yb
        zs = legal_cards(s.hand[b], sx, alive)
        while zs:
            z = ps_ctz(zs)
            zs &= zs - 1
            zb = (<uint32_t>1) << z
            win = b if ((z >> 3) == sx and z > w) else wy
            s.hand[b] ^= zb
            ok = win != d and escapes_next_def(s, win, target, left - 1)
            s.hand[b] ^= zb
            if not ok:
                break
        s.hand[a] ^= yb
    s.hand[d] ^= xb
    return ok


cdef int sure_exit_lead(Search* s, int target, int left) noexcept nogil:
    """Misère / all-pass, the counted player on lead and the others needing
    all tricks but one (target == left - 1, left >= 3): a lead of his that
    exit_escapes settles (he surely escapes twice), or -1.

    Only one trick short of all: further from it the test's leaves are
    table probes, which cost more time than the search they save."""
    cdef int d = s.declarer
    cdef uint32_t h = s.hand[d]
    cdef uint32_t ha = s.hand[SEAT3[d + 1]], hb = s.hand[SEAT3[d + 2]]
    # Only his sure exits (exit_escapes' first test, all suits at once): his
    # cards under the lowest card of a player after him who holds the suit.
    cdef uint32_t m = run_tops(h, h, h | ha | hb) & (
        (below_lowest(ha) & ((nonzero_bytes(ha) >> 7) * 0xFF))
        | (below_lowest(hb) & ((nonzero_bytes(hb) >> 7) * 0xFF)))
    cdef int c
    while m:
        c = ps_ctz(m)
        m &= m - 1
        if exit_escapes(s, c, target, left):
            return c
    return -1


cdef int one_excess_exit(Search* s) noexcept nogil:
    """Misère / all-pass, the counted player on lead: he takes at most one
    more trick when one top card x breaks never_wins' matching and another
    suit is a sure exit that survives one trick. Returns x, or -1.

    Precisely: in one suit y (held by both sides) his cards, less the top
    one x, match under the others' (as in never_wins) and every other suit
    held by both already matches; and in some suit z other than y both
    sides hold, his lowest card is under all of theirs and his i+1-th
    lowest under their i-th lowest (the shifted matching), with more of
    their cards than the players void in y.

    He leads x. If he loses that trick, his cards left are the matched
    ones (the others' cards only left), no longer on lead: never_wins, so
    no more tricks. If he wins it, each player void in y discarded at most
    one card, so a card of z is still out, all of them above his lowest:
    he leads it and someone must overtake. The shifted matching keeps the
    rest of z matched whatever was played (their i-th lowest only rises),
    so never_wins holds again with him off lead: one trick in all.
    """
    cdef int d = s.declarer
    cdef uint32_t h = s.hand[d]
    cdef uint32_t ha = s.hand[SEAT3[d + 1]], hb = s.hand[SEAT3[d + 2]]
    cdef uint32_t rest = ha | hb, dx, ox
    cdef int x, y = -1, voids
    for x in range(4):
        dx = (h >> (8 * x)) & 0xFF
        ox = (rest >> (8 * x)) & 0xFF
        if not dx or not ox or UNDER8[(dx << 8) | ox]:
            continue
        if y >= 0 or not UNDER8[((dx & ~(<uint32_t>1 << ps_msb(dx))) << 8) | ox]:
            return -1
        y = x
    if y < 0:
        return -1
    voids = (((ha >> (8 * y)) & 0xFF) == 0) + (((hb >> (8 * y)) & 0xFF) == 0)
    for x in range(4):
        dx = (h >> (8 * x)) & 0xFF
        ox = (rest >> (8 * x)) & 0xFF
        if (x != y and dx and ox and ps_ctz(dx) < ps_ctz(ox)
                and UNDER8[((dx & (dx - 1)) << 8) | ox] and POPCOUNT8[ox] > voids):
            return 8 * y + ps_msb((h >> (8 * y)) & 0xFF)
    return -1


cdef inline bint must_win_now(Search* s, int leader) noexcept nogil:
    """Misère / all-pass: the counted player surely takes the current trick.

    With no trumps a trick is won by the highest card of the suit led, and the
    two other players (acting as one) play their lowest cards of that suit to
    keep his card on top. He escapes a suit when he can play under the card
    winning before him, or when a player after him holds only higher cards of
    the suit and must overtake. Checked with his lowest card of the suit, which
    escapes whenever any of his cards does.
    """
    cdef int d = s.declarer
    cdef uint32_t hd = s.hand[d]
    cdef uint32_t below = below_lowest(hd)
    cdef uint32_t ha, hb
    if leader == d:
        # He leads: any suit where another player is forced over his lowest
        # card is an exit (that player holds the suit, nothing under it).
        ha = s.hand[SEAT3[d + 1]]
        hb = s.hand[SEAT3[d + 2]]
        return (nonzero_bytes(hd) & ((nonzero_bytes(ha) & ~nonzero_bytes(ha & below))
                                     | (nonzero_bytes(hb) & ~nonzero_bytes(hb & below)))) == 0
    # An opponent leads his lowest card of a suit in which all the counted
    # player's cards are higher. Whether he plays second or last, he escapes
    # only if the other opponent holds only cards above his lowest one (that
    # opponent then overtakes him, or has already).
    ha = s.hand[leader]
    hb = s.hand[3 - leader - d]
    return (nonzero_bytes(hd) & nonzero_bytes(ha & below)
            & (nonzero_bytes(hb & below) | ~nonzero_bytes(hb))) != 0


cdef inline bint never_wins_off(Search* s) noexcept nogil:
    """Misère / all-pass: the counted player can lose every remaining trick.

    True when in every suit he holds and the others hold too, his i-th lowest
    card is below their i-th lowest (for each i up to the shorter count), and,
    if he is on lead, some suit has all his cards below all of theirs (he
    leads it and is overtaken, and the property stays). Then he never wins a
    trick, so he never leads again: on a lead of a suit he holds he plays his
    highest card below the card led, on any other lead he sheds the highest
    card of a suit; both keep the matching (the others' cards only leave, and
    dropping a top card keeps the lower ones' places), so the property
    survives every trick. Suits the others do not hold never come up.

    In two halves by who is on lead, since every caller knows it. This
    one: an opponent on lead.
    """
    cdef int d = s.declarer
    cdef uint32_t rest = s.hand[SEAT3[d + 1]] | s.hand[SEAT3[d + 2]]
    cdef uint32_t h = s.hand[d], i02, i13
    # Off lead only the matching counts, and UNDER8 holds for a suit
    # that either side lacks: four lookups, no test per suit.
    # (the indices two suits at a time, as in run_tops)
    i02 = ((h & 0x00FF00FFU) << 8) | (rest & 0x00FF00FFU)
    i13 = (h & 0xFF00FF00U) | ((rest >> 8) & 0x00FF00FFU)
    return (UNDER8[i02 & 0xFFFF] & UNDER8[i13 & 0xFFFF]
            & UNDER8[i02 >> 16] & UNDER8[i13 >> 16])


cdef inline bint never_wins_on(Search* s) noexcept nogil:
    """never_wins_off's test with the counted player on lead."""
    cdef int d = s.declarer
    cdef uint32_t rest = s.hand[SEAT3[d + 1]] | s.hand[SEAT3[d + 2]], dx, ox
    cdef bint exit_ok = False
    cdef int x
    for x in range(4):
        dx = s.hand[d] & SUIT_MASK[x]
        if not dx:
            continue
        ox = rest & SUIT_MASK[x]
        if not ox:
            continue
        if ps_msb(dx) < ps_ctz(ox):
            exit_ok = True
            continue
        if not UNDER8[(((dx >> (8 * x)) & 0xFF) << 8) | ((ox >> (8 * x)) & 0xFF)]:
            return False
    return exit_ok


cdef inline bint sure_win_lead(Search* s, int x) noexcept nogil:
    """Misère / all-pass, the counted player on lead: True when his lead of
    x surely wins the trick.

    Each other player who holds x's suit has a card of it under x and plays
    it (a player void in the suit cannot win the trick with a discard), so
    x stays the highest card of the suit led and he takes the trick.
    must_win_now settles a start where every lead of his is such a card;
    search_leads skips each one on its own at a target of 1."""
    cdef int d = s.declarer, sh = x & ~7
    cdef uint32_t a8 = (s.hand[SEAT3[d + 1]] >> sh) & 0xFF
    cdef uint32_t b8 = (s.hand[SEAT3[d + 2]] >> sh) & 0xFF
    cdef uint32_t under = ((<uint32_t>1) << (x & 7)) - 1
    return (a8 == 0 or (a8 & under) != 0) and (b8 == 0 or (b8 & under) != 0)
