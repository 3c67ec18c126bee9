# Misère and all-pass endings of one to four cards each, solved once.
#
# A position at a trick start with k cards in each hand (k <= 3), up to
# relative ranks, is numbered by: the suit lengths (a composition of 3k into
# four parts, ENDING_COMP), which of the 3k cards (suit by suit, lowest
# first) the counted player holds (a k-subset, numbered in colex order by
# COLEX9), and which of the others' 2k cards his left opponent holds (the
# same). Its byte in ENDINGS holds, two bits per leader (0: the counted
# player, 1: his left opponent, 2: his right one), the counted player's
# tricks from there with best play, worked out trick by trick from the
# endings one card shorter (fill_endings). Four cards each are numbered the
# same way once the suits are put in order of length (ENDINGS4, below).
#
# The search reads these instead of searching the starts (trick_start) and,
# exactly, where the refutations ask for a bound one trick on
# (escapes_probe_*). Invariants:
# * Data, not search state: no search reads the tables before
#   ensure_endings has filled them completely (every misère and all-pass
#   search calls it first), and nothing writes them after.
# * ENDINGS is solved here (only positions whose suits are in order, since
#   suits are interchangeable without trumps). ENDINGS4 comes from the
#   source that the owner module registers (set_endings4_source: the
#   shipped file) when that passes every check (format, size, this engine's
#   fingerprint, every byte a valid entry, 256 entries solved again),
#   else it is solved here: the values never depend on the file.
# * The core imports nothing from the package: the file's bytes are handed
#   in, and only at the first misère or all-pass search.

cdef enum:
    ENDINGS_SIZE = 120 + 7560 + 362880      # k = 1, 2, 3
cdef uint8_t ENDINGS[ENDINGS_SIZE]
cdef uint16_t ENDING_COMP[4][729]   # [k][n0 * 81 + n1 * 9 + n2]: the lengths' number
cdef uint8_t COLEX9[512]            # a subset of 9 positions: its colex rank among those of its size
cdef int ENDING_BASE[4]             # where each k's entries start
cdef int ENDING_SUBSETS[4][2]       # [k]: C(3k, k), C(2k, k)
cdef bint endings_ready = False


cdef inline uint32_t ending_index(uint32_t hd, uint32_t hl, uint32_t hr, int k) noexcept nogil:
    """The number of the ending with hands hd (the counted player), hl (his
    left opponent) and hr, k cards each (see ENDINGS)."""
    cdef uint32_t alive = hd | hl | hr, lr = hl | hr
    cdef uint32_t n = byte_counts(alive), pa = n * 0x01010100U
    cdef uint32_t pl = byte_counts(lr) * 0x01010100U
    cdef uint32_t md = (<uint32_t>PACK8[((alive & 0xFF) << 8) | (hd & 0xFF)]
                        | (<uint32_t>PACK8[(alive & 0xFF00) | ((hd >> 8) & 0xFF)] << ((pa >> 8) & 0xFF))
                        | (<uint32_t>PACK8[((alive >> 8) & 0xFF00) | ((hd >> 16) & 0xFF)] << ((pa >> 16) & 0xFF))
                        | (<uint32_t>PACK8[((alive >> 16) & 0xFF00) | (hd >> 24)] << (pa >> 24)))
    cdef uint32_t ml = (<uint32_t>PACK8[((lr & 0xFF) << 8) | (hl & 0xFF)]
                        | (<uint32_t>PACK8[(lr & 0xFF00) | ((hl >> 8) & 0xFF)] << ((pl >> 8) & 0xFF))
                        | (<uint32_t>PACK8[((lr >> 8) & 0xFF00) | ((hl >> 16) & 0xFF)] << ((pl >> 16) & 0xFF))
                        | (<uint32_t>PACK8[((lr >> 16) & 0xFF00) | (hl >> 24)] << (pl >> 24)))
    cdef uint32_t comp = ENDING_COMP[k][(n & 0xFF) * 81 + ((n >> 8) & 0xFF) * 9 + ((n >> 16) & 0xFF)]
    return (ENDING_BASE[k] + (comp * ENDING_SUBSETS[k][0] + COLEX9[md]) * ENDING_SUBSETS[k][1]
            + COLEX9[ml])


cdef void ending_values(uint32_t* h, int k, int* out) noexcept:
    """Fill-time only: for hands h (h[0] the counted player's, k <= 4 cards
    each) and each leader (out[0..2]), the counted player's tricks with best
    play, this trick searched and the rest read from the endings one card
    shorter. One card per run of equivalent cards (the others give the same
    trick and an equal position)."""
    cdef uint32_t alive = h[0] | h[1] | h[2], m, legal
    cdef int cards[3][4]
    cdef int count[3]
    cdef uint8_t child[4][4][4]
    cdef int i, j, q, a, b, c, lead, v, w, win, best0, best1, best2
    cdef int sel[3]
    cdef int seat1, seat2
    for i in range(3):
        m = run_tops(h[i], h[i], alive)
        count[i] = 0
        while m:
            cards[i][count[i]] = ps_ctz(m)
            count[i] += 1
            m &= m - 1
    # The position after each trick of one card from each hand (its byte).
    for a in range(count[0]):
        for b in range(count[1]):
            for c in range(count[2]):
                child[a][b][c] = 0
                if k > 1:
                    child[a][b][c] = ENDINGS[ending_index(h[0] & ~((<uint32_t>1) << cards[0][a]),
                                                          h[1] & ~((<uint32_t>1) << cards[1][b]),
                                                          h[2] & ~((<uint32_t>1) << cards[2][c]), k - 1)]
    for lead in range(3):
        seat1 = (lead + 1) % 3
        seat2 = (lead + 2) % 3
        best0 = -1
        for i in range(count[lead]):
            sel[lead] = i
            legal = h[seat1] & SUIT_MASK[cards[lead][i] >> 3]
            best1 = -1
            for j in range(count[seat1]):
                if legal and not (legal >> cards[seat1][j]) & 1:
                    continue        # he must follow suit
                sel[seat1] = j
                best2 = -1
                for q in range(count[seat2]):
                    m = h[seat2] & SUIT_MASK[cards[lead][i] >> 3]
                    if m and not (m >> cards[seat2][q]) & 1:
                        continue
                    sel[seat2] = q
                    # The highest card of the suit led wins (no trumps here).
                    w = cards[lead][i]
                    win = lead
                    if (cards[seat1][j] >> 3) == (w >> 3) and cards[seat1][j] > w:
                        w = cards[seat1][j]
                        win = seat1
                    if (cards[seat2][q] >> 3) == (w >> 3) and cards[seat2][q] > w:
                        win = seat2
                    v = (1 if win == 0 else 0) + ((child[sel[0]][sel[1]][sel[2]] >> (2 * win)) & 3)
                    # The counted player (relative seat 0) minimises, the others maximise.
                    if best2 < 0 or (v < best2 if seat2 == 0 else v > best2):
                        best2 = v
                if best1 < 0 or (best2 < best1 if seat1 == 0 else best2 > best1):
                    best1 = best2
            if best0 < 0 or (best1 < best0 if lead == 0 else best1 > best0):
                best0 = best1
        out[lead] = best0


cdef int _binomial(int n, int r) noexcept:
    cdef int i, b = 1
    if r < 0 or r > n:
        return 0
    for i in range(r):
        b = b * (n - i) // (i + 1)
    return b


cdef void fill_endings() noexcept:
    """Solve every ending of one, two and three cards each, shortest first,
    so that each reads only finished entries."""
    cdef int k, n, n0, n1, n2, n3, nc, base = 0, m, r, i, bit, md, ml, p, x
    cdef int lens[4]
    cdef int cards[9]
    cdef int rest[6]
    cdef uint32_t h[3]
    cdef uint32_t g[3]
    cdef uint32_t code[4]
    cdef uint32_t byte
    cdef int vals[3]
    cdef int perms[24][4]
    cdef int a, b, c
    # The 24 orders of the four suits.
    p = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                if a != b and a != c and b != c:
                    perms[p][0] = a
                    perms[p][1] = b
                    perms[p][2] = c
                    perms[p][3] = 6 - a - b - c
                    p += 1
    for m in range(512):
        r = 0
        i = 1
        for bit in range(9):
            if (m >> bit) & 1:
                r += _binomial(bit, i)
                i += 1
        COLEX9[m] = <uint8_t>r
    for k in range(1, 4):
        n = 3 * k
        ENDING_BASE[k] = base
        ENDING_SUBSETS[k][0] = _binomial(n, k)
        ENDING_SUBSETS[k][1] = _binomial(2 * k, k)
        nc = 0
        for n0 in range(9):
            for n1 in range(9):
                for n2 in range(9):
                    n3 = n - n0 - n1 - n2
                    if 0 <= n3 <= 8:
                        ENDING_COMP[k][n0 * 81 + n1 * 9 + n2] = <uint16_t>nc
                        nc += 1
        for n0 in range(9):
            for n1 in range(n0 + 1):
                for n2 in range(n1 + 1):
                    n3 = n - n0 - n1 - n2
                    if not 0 <= n3 <= n2:
                        continue
                    lens[0] = n0
                    lens[1] = n1
                    lens[2] = n2
                    lens[3] = n3
                    # The cards of the ending, lowest first suit by suit.
                    p = 0
                    for x in range(4):
                        for i in range(lens[x]):
                            cards[p] = 8 * x + i
                            p += 1
                    for md in range(1 << n):
                        if ps_popcount(md) != k:
                            continue
                        p = 0
                        h[0] = 0
                        for i in range(n):
                            if (md >> i) & 1:
                                h[0] |= (<uint32_t>1) << cards[i]
                            else:
                                rest[p] = cards[i]
                                p += 1
                        for ml in range(1 << (2 * k)):
                            if ps_popcount(ml) != k:
                                continue
                            h[1] = 0
                            h[2] = 0
                            for i in range(2 * k):
                                h[1 if (ml >> i) & 1 else 2] |= (<uint32_t>1) << rest[i]
                            # Suits are interchangeable without trumps: solve the
                            # position whose suits are in order (codes falling)
                            # and give its byte to every order of its suits.
                            for x in range(4):
                                code[x] = ((lens[x] << 16) | (((h[0] >> (8 * x)) & 0xFF) << 8)
                                           | ((h[1] >> (8 * x)) & 0xFF))
                            if code[0] < code[1] or code[1] < code[2] or code[2] < code[3]:
                                continue
                            ending_values(h, k, vals)
                            byte = vals[0] | (vals[1] << 2) | (vals[2] << 4)
                            for p in range(24):
                                for i in range(3):
                                    g[i] = 0
                                    for x in range(4):
                                        g[i] |= ((h[i] >> (8 * x)) & 0xFF) << (8 * perms[p][x])
                                ENDINGS[ending_index(g[0], g[1], g[2], k)] = <uint8_t>byte
        base += nc * ENDING_SUBSETS[k][0] * ENDING_SUBSETS[k][1]


# Four cards each: 12 993 750 positions, but suits are
# interchangeable, so the suits are put in order of length first (longest
# first, ties by suit) and only the 27 orders of lengths are kept: 27 x
# C(12, 4) x C(8, 4) = 935 550 entries, a byte each holding the three
# leaders' values (0-4) as v0 + 5 v1 + 25 v2.
cdef enum:
    ENDINGS4_SIZE = 27 * 495 * 70
cdef uint8_t ENDINGS4[ENDINGS4_SIZE]
cdef uint16_t ENDING4_LENS[729]     # [n0 * 81 + n1 * 9 + n2]: the lengths' number | the suits in order << 8
cdef uint16_t COLEX12[4096]         # a subset of 12 positions: its colex rank among those of its size
cdef uint8_t DIGITS5[500]           # [byte * 4 + r]: leader r's value in an ENDINGS4 byte


cdef inline uint32_t suits_in_order(uint32_t x, uint32_t o) noexcept nogil:
    """x's suit bytes rearranged: byte j gets suit (o >> 2j) & 3."""
    return (((x >> (8 * (o & 3))) & 0xFF) | (((x >> (8 * ((o >> 2) & 3))) & 0xFF) << 8)
            | (((x >> (8 * ((o >> 4) & 3))) & 0xFF) << 16) | (((x >> (8 * (o >> 6))) & 0xFF) << 24))


cdef inline uint32_t ending4_index(uint32_t hd, uint32_t hl, uint32_t hr) noexcept nogil:
    """The number of the four-card ending with hands hd (the counted
    player), hl (his left opponent) and hr (see ENDINGS4)."""
    cdef uint32_t alive = hd | hl | hr, lr = hl | hr
    cdef uint32_t n = byte_counts(alive)
    cdef uint32_t info = ENDING4_LENS[(n & 0xFF) * 81 + ((n >> 8) & 0xFF) * 9 + ((n >> 16) & 0xFF)]
    cdef uint32_t o = info >> 8
    alive = suits_in_order(alive, o)
    lr = suits_in_order(lr, o)
    hd = suits_in_order(hd, o)
    hl = suits_in_order(hl, o)
    cdef uint32_t pa = byte_counts(alive) * 0x01010100U
    cdef uint32_t pl = byte_counts(lr) * 0x01010100U
    cdef uint32_t md = (<uint32_t>PACK8[((alive & 0xFF) << 8) | (hd & 0xFF)]
                        | (<uint32_t>PACK8[(alive & 0xFF00) | ((hd >> 8) & 0xFF)] << ((pa >> 8) & 0xFF))
                        | (<uint32_t>PACK8[((alive >> 8) & 0xFF00) | ((hd >> 16) & 0xFF)] << ((pa >> 16) & 0xFF))
                        | (<uint32_t>PACK8[((alive >> 16) & 0xFF00) | (hd >> 24)] << (pa >> 24)))
    cdef uint32_t ml = (<uint32_t>PACK8[((lr & 0xFF) << 8) | (hl & 0xFF)]
                        | (<uint32_t>PACK8[(lr & 0xFF00) | ((hl >> 8) & 0xFF)] << ((pl >> 8) & 0xFF))
                        | (<uint32_t>PACK8[((lr >> 8) & 0xFF00) | ((hl >> 16) & 0xFF)] << ((pl >> 16) & 0xFF))
                        | (<uint32_t>PACK8[((lr >> 16) & 0xFF00) | (hl >> 24)] << (pl >> 24)))
    return ((info & 0xFF) * 495 + COLEX12[md & 0xFFF]) * 70 + COLEX9[ml & 0x1FF]


cdef void number_endings4() noexcept:
    """Fill ENDINGS4's numbering tables (COLEX12, DIGITS5, ENDING4_LENS)."""
    cdef int n0, n1, n2, n3, nc = 0, m, r, i, bit, p, x, j, t, a, b, c
    cdef int lens[4]
    cdef int sorted_[4]
    cdef int perms[24][4]
    cdef uint32_t o
    for m in range(4096):
        r = 0
        i = 1
        for bit in range(12):
            if (m >> bit) & 1:
                r += _binomial(bit, i)
                i += 1
        COLEX12[m] = <uint16_t>r
    for m in range(125):
        DIGITS5[4 * m] = <uint8_t>(m % 5)
        DIGITS5[4 * m + 1] = <uint8_t>((m // 5) % 5)
        DIGITS5[4 * m + 2] = <uint8_t>(m // 25)
    p = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                if a != b and a != c and b != c:
                    perms[p][0] = a
                    perms[p][1] = b
                    perms[p][2] = c
                    perms[p][3] = 6 - a - b - c
                    p += 1
    # The lengths' numbers (their orders, longest first, numbered as met
    # here) and, for every arrangement of them, the suits in that order.
    for n0 in range(9):
        for n1 in range(n0 + 1):
            for n2 in range(n1 + 1):
                n3 = 12 - n0 - n1 - n2
                if 0 <= n3 <= n2:
                    sorted_[0] = n0
                    sorted_[1] = n1
                    sorted_[2] = n2
                    sorted_[3] = n3
                    # Every arrangement of these lengths over the suits.
                    for p in range(24):
                        for x in range(4):
                            lens[perms[p][x]] = sorted_[x]
                        # The suits longest first, ties by suit (a stable sort).
                        o = 0
                        j = 0
                        for t in range(8, -1, -1):
                            for x in range(4):
                                if lens[x] == t:
                                    o |= (<uint32_t>x) << (2 * j)
                                    j += 1
                        ENDING4_LENS[lens[0] * 81 + lens[1] * 9 + lens[2]] = <uint16_t>(nc | (o << 8))
                    nc += 1


cdef void solve_endings4(uint8_t* out) noexcept:
    """Solve every four-card ending from the three-card ones (ENDINGS must
    be filled, and the numbering), into ``out`` (ENDINGS4_SIZE bytes)."""
    cdef int n0, n1, n2, n3, i, md, ml, p, x, a, b, c
    cdef int lens[4]
    cdef int cards[12]
    cdef int rest[8]
    cdef int perms[24][4]
    cdef int vals[3]
    cdef uint32_t h[3]
    cdef uint32_t g[3]
    cdef uint32_t code[4]
    cdef uint32_t byte
    p = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                if a != b and a != c and b != c:
                    perms[p][0] = a
                    perms[p][1] = b
                    perms[p][2] = c
                    perms[p][3] = 6 - a - b - c
                    p += 1
    # Solve the positions whose suits are in order (lengths, then codes
    # falling) and give each byte to the arrangements of equal-length suits.
    for n0 in range(9):
        for n1 in range(n0 + 1):
            for n2 in range(n1 + 1):
                n3 = 12 - n0 - n1 - n2
                if not 0 <= n3 <= n2:
                    continue
                lens[0] = n0
                lens[1] = n1
                lens[2] = n2
                lens[3] = n3
                p = 0
                for x in range(4):
                    for i in range(lens[x]):
                        cards[p] = 8 * x + i
                        p += 1
                for md in range(1 << 12):
                    if ps_popcount(md) != 4:
                        continue
                    p = 0
                    h[0] = 0
                    for i in range(12):
                        if (md >> i) & 1:
                            h[0] |= (<uint32_t>1) << cards[i]
                        else:
                            rest[p] = cards[i]
                            p += 1
                    for ml in range(1 << 8):
                        if ps_popcount(ml) != 4:
                            continue
                        h[1] = 0
                        h[2] = 0
                        for i in range(8):
                            h[1 if (ml >> i) & 1 else 2] |= (<uint32_t>1) << rest[i]
                        for x in range(4):
                            code[x] = ((((h[0] >> (8 * x)) & 0xFF) << 8) | ((h[1] >> (8 * x)) & 0xFF))
                        if ((lens[0] == lens[1] and code[0] < code[1]) or (lens[1] == lens[2] and code[1] < code[2])
                                or (lens[2] == lens[3] and code[2] < code[3])):
                            continue
                        ending_values(h, 4, vals)
                        byte = <uint32_t>(vals[0] + 5 * vals[1] + 25 * vals[2])
                        for p in range(24):
                            if (lens[perms[p][0]] != lens[0] or lens[perms[p][1]] != lens[1]
                                    or lens[perms[p][2]] != lens[2]):
                                continue
                            for i in range(3):
                                g[i] = 0
                                for x in range(4):
                                    g[i] |= ((h[i] >> (8 * x)) & 0xFF) << (8 * perms[p][x])
                            out[ending4_index(g[0], g[1], g[2])] = <uint8_t>byte


# ENDINGS4 as shipped (prefsolve/endings4.bin, written by
# `python -m prefsolve.engine` from solve_endings4) is used when it matches
# this format; otherwise it is filled here (about 0.7 s). The format changes
# whenever the numbering or the byte's encoding does.
ENDINGS4_FORMAT = 2
_endings_lock = threading.Lock()
# Where ENDINGS4 may come from (set_endings4_source): None, or a callable
# taking (format, size) and returning None or (fingerprint, table bytes).
_endings4_source = None


def set_endings4_source(source):
    """Register where the shipped four-card endings come from: ``source``
    (format, size) returns None or (fingerprint, table) (a bytes-like object
    of ``size`` bytes), or ``source`` is None for none. It is called once,
    at the first misère or all-pass search (not here), and the table is
    used only when it passes every check (see ensure_endings); otherwise
    the table is solved here. prefsolve.engine registers the package's
    file at import."""
    global _endings4_source
    if source is not None and not callable(source):
        raise TypeError(f"the endings source must be callable or None, got {type(source).__name__}")
    _endings4_source = source


cdef uint32_t fingerprint_bytes(uint32_t h, const uint8_t* p, size_t n) noexcept:
    """FNV-1a over n bytes, continuing from h."""
    cdef size_t i
    for i in range(n):
        h = (h ^ p[i]) * 16777619U
    return h


cdef uint32_t endings_fingerprint_c() noexcept:
    """A fingerprint of what ENDINGS4's entries depend on besides their own
    solving: the three-card endings and the four-card numbering. A file
    written by an engine that solved or numbered them differently is not
    used (ENDINGS and the numbering must be filled)."""
    cdef uint32_t h = 2166136261U
    h = fingerprint_bytes(h, ENDINGS, ENDINGS_SIZE)
    h = fingerprint_bytes(h, <const uint8_t*>ENDING4_LENS, sizeof(ENDING4_LENS))
    h = fingerprint_bytes(h, <const uint8_t*>COLEX12, sizeof(COLEX12))
    return h


cdef bint endings4_plausible(const uint8_t* table) noexcept:
    """Every byte is a valid entry (three values 0-4, so below 125), and 256
    four-card endings drawn at random (a fixed seed) have the value this
    engine solves for them: a table that does not match is not used."""
    cdef int i, n, k
    cdef uint32_t x = 2463534242U, c, used
    cdef uint32_t h[3]
    cdef int vals[3]
    for i in range(ENDINGS4_SIZE):
        if table[i] >= 125:
            return False
    for n in range(256):
        used = 0
        for k in range(3):
            h[k] = 0
        for k in range(12):
            while True:
                x ^= x << 13
                x ^= x >> 17
                x ^= x << 5
                c = (<uint32_t>1) << (x & 31)
                if not (used & c):
                    break
            used |= c
            h[k % 3] |= c
        ending_values(h, 4, vals)
        if table[ending4_index(h[0], h[1], h[2])] != vals[0] + 5 * vals[1] + 25 * vals[2]:
            return False
    return True


cdef int ensure_endings() except -1:
    """Fill ENDINGS and ENDINGS4 before the first misère or all-pass search:
    ENDINGS4 from the registered source (set_endings4_source) when what it
    returns has this format and size (the source checks those), this
    engine's fingerprint and plausible entries, else solved here. No search
    reads the tables until they are complete, and nothing writes them
    after. The source is called before the lock is taken (reading a file
    lets other threads run); inside it only C code runs, with the GIL held."""
    global endings_ready
    cdef const unsigned char[:] raw
    cdef bint loaded = False
    if endings_ready:
        return 0
    source = _endings4_source
    found = None if source is None else source(ENDINGS4_FORMAT, ENDINGS4_SIZE)
    with _endings_lock:
        if endings_ready:
            return 0
        fill_endings()
        number_endings4()
        if found is not None and found[0] == endings_fingerprint_c():
            raw = found[1]
            if raw.shape[0] == ENDINGS4_SIZE and endings4_plausible(&raw[0]):
                memcpy(ENDINGS4, &raw[0], ENDINGS4_SIZE)
                loaded = True
        if not loaded:
            solve_endings4(ENDINGS4)
        endings_ready = True
    return 0


def endings_fingerprint():
    """The fingerprint a shipped ENDINGS4 must carry (see endings_fingerprint_c)."""
    ensure_endings()
    return endings_fingerprint_c()


def endings4_matches(table):
    """Whether ``table`` (ENDINGS4_SIZE bytes) passes the checks a shipped
    table must pass before it is used (endings4_plausible): for the tests."""
    cdef const unsigned char[:] raw = table
    ensure_endings()
    return raw.shape[0] == ENDINGS4_SIZE and bool(endings4_plausible(&raw[0]))


def compute_endings4():
    """ENDINGS4 solved here (solve_endings4), whatever the shipped file
    holds, as bytes: what engine.write_endings4 writes and the tests compare
    with the file."""
    cdef bytearray out = bytearray(ENDINGS4_SIZE)
    cdef unsigned char[:] view = out
    ensure_endings()
    solve_endings4(&view[0])
    return bytes(out)


cdef inline int ending4_value(Search* s, int leader) noexcept nogil:
    """The counted player's tricks from a trick start of four cards each
    (misère and all-pass), from ENDINGS4."""
    cdef int d = s.declarer
    cdef int r = leader - d
    if r < 0:
        r += 3
    return DIGITS5[4 * ENDINGS4[ending4_index(s.hand[d], s.hand[SEAT3[d + 1]], s.hand[SEAT3[d + 2]])] + r]


cdef inline int ending_tricks(Search* s, int leader, int k) noexcept nogil:
    """The counted player's tricks from a trick start of k = 2 to 4 cards
    each (misère and all-pass), from the solved endings."""
    if k == 4:
        return ending4_value(s, leader)
    return ending_value(s, leader, k)


cdef inline int ending_value(Search* s, int leader, int k) noexcept nogil:
    """The counted player's tricks from a trick start of k = 2 or 3 cards
    each (misère and all-pass), from ENDINGS. Every hand holds k cards
    there: Solver._root refuses a root whose hands do not fit its trick."""
    cdef int d = s.declarer
    cdef int r = leader - d
    if r < 0:
        r += 3
    return (ENDINGS[ending_index(s.hand[d], s.hand[SEAT3[d + 1]], s.hand[SEAT3[d + 2]], k)]
            >> (2 * r)) & 3

def ending_table():
    """The solved endings (ENDINGS) as bytes, filled first if need be: for
    the tests, which check them against the reference solver."""
    ensure_endings()
    return (<char*>ENDINGS)[:ENDINGS_SIZE]


def ending4_table():
    """The solved four-card endings (ENDINGS4) as bytes, filled first if
    need be: for the tests."""
    ensure_endings()
    return (<char*>ENDINGS4)[:ENDINGS4_SIZE]
