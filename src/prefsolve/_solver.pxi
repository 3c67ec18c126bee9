# The Solver class: the one Python entry to the search. It owns the
# tables (aligned, sized once), checks every argument that indexes an
# array, sets up the state (_setup, _root) with the GIL held, and runs the
# search without it.
#
# Invariants: one search at a time per Solver (busy, checked and set with
# the GIL held); the tables are only written by searches of this Solver;
# the search never sees a malformed root (shared cards, hand sizes that do
# not fit the trick, talon cards in a hand).

cdef class Solver:
    """A search context with its own transposition table; not thread-safe.

    Use one Solver per thread. The table is kept between solves: its entries
    are exact bounds of positions, valid for every later solve.
    """

    cdef Search s
    cdef public uint64_t nodes      # nodes searched by the last call
    cdef readonly uint64_t tt_bytes
    cdef readonly bint busy         # a search is running (checked with the GIL held)
    cdef uint64_t tt_mask_full      # the exact table's buckets - 1 (see _setup)
    cdef void* tt_raw
    cdef void* pt_raw

    def __cinit__(self, int tt_mb=1):
        cdef uint64_t buckets = 1, pbuckets
        if tt_mb < 1:
            raise ValueError(f"table size must be at least 1 MiB, got {tt_mb}")
        # A quarter for the exact table (misère, all-pass), an eighth for the
        # pattern table (games): a solve uses one of them, and the rest is
        # left unused on purpose. What one solve stores fits many times over;
        # what costs is the probes that miss the per-core L2 cache, since one
        # table is used solve after solve (docs/ENGINE.md, "Transposition
        # tables"). A single solve uses half of the exact table (see _setup).
        while buckets * 2 * BUCKET * sizeof(Entry) <= (<uint64_t>tt_mb) << 18:
            buckets *= 2
        pbuckets = ((<uint64_t>tt_mb) << 17) // (PBUCKET * sizeof(PEntry))
        memset(&self.s, 0, sizeof(Search))
        # Buckets start on a cache line (64 bytes): one more line to align.
        self.tt_raw = calloc(buckets * BUCKET * sizeof(Entry) + 64, 1)
        self.pt_raw = calloc(pbuckets * PBUCKET * sizeof(PEntry) + 64, 1)
        if self.tt_raw == NULL or self.pt_raw == NULL:
            raise MemoryError(f"cannot allocate a {tt_mb} MiB transposition table")
        self.s.tt = <Entry*>((<uintptr_t>self.tt_raw + 63) & ~(<uintptr_t>63))
        self.s.pt = <PEntry*>((<uintptr_t>self.pt_raw + 63) & ~(<uintptr_t>63))
        self.tt_mask_full = buckets - 1
        self.s.tt_mask = buckets - 1
        self.s.pt_count = pbuckets
        self.tt_bytes = buckets * BUCKET * sizeof(Entry) + pbuckets * PBUCKET * sizeof(PEntry)

    def __dealloc__(self):
        free(self.tt_raw)
        free(self.pt_raw)

    cdef int _acquire(self) except -1:
        # Called with the GIL held, so check-and-set is atomic between threads:
        # a second thread gets a clear error instead of corrupting the search.
        if self.busy:
            raise RuntimeError("this Solver is already searching in another thread; "
                               "use one Solver per thread")
        self.busy = True
        return 0

    def clear(self):
        """Forget every stored position (refused, as a search is, while another
        thread searches with this Solver: the table would change under it)."""
        self._acquire()
        memset(self.s.tt, 0, (self.tt_mask_full + 1) * BUCKET * sizeof(Entry))
        memset(self.s.pt, 0, self.s.pt_count * PBUCKET * sizeof(PEntry))
        self.busy = False

    cdef int _setup(self, hands, int declarer, int trump, bint minimize, talon,
                    bint wide=False) except -1:
        cdef int i
        # The exact table's first half serves a single solve, the whole of it
        # the 66 discards of best_discard. Only the buckets a search touches
        # take cache, and a single misère stores a few thousand entries: in
        # half the table they sit in fewer lines, while the discards'
        # searches share much more and need the room. An entry holds its
        # whole key, so a bucket found under either mask is exact.
        self.s.tt_mask = self.tt_mask_full if wide else self.tt_mask_full >> 1
        # The search indexes arrays with these: check them even though the
        # Python layer validates, so that no call can touch memory out of range.
        if len(hands) != 3:
            raise ValueError(f"expected 3 hands, got {len(hands)}")
        if not 0 <= declarer <= 2:
            raise ValueError(f"declarer must be 0..2, got {declarer}")
        if not -1 <= trump <= 3:
            raise ValueError(f"trump must be -1..3, got {trump}")
        if len(talon) > 2:
            raise ValueError(f"at most 2 talon cards lead tricks, got {len(talon)}")
        for i in range(len(talon)):
            if not 0 <= talon[i] <= 31:
                raise ValueError(f"no card {talon[i]}")
        for i in range(3):
            self.s.hand[i] = <uint32_t>hands[i]
        if minimize:
            ensure_endings()
        self.s.trump = -1 if minimize else trump
        self.s.declarer = declarer
        self.s.decl_max = 0 if minimize else 1
        self.s.ctx_base = <uint8_t>((declarer << 2) | ((self.s.trump + 1) << 4)
                                     | ((1 if minimize else 0) << 7))
        self.s.n_talon = len(talon)
        for i in range(self.s.n_talon):
            self.s.talon[i] = talon[i]
        self.s.talon_pos = 0
        self.s.nodes = 0
        self.s.gen = <uint8_t>(self.s.gen + 1)
        memset(self.s.hist, 0, sizeof(self.s.hist))
        memset(self.s.killer, 0xFF, sizeof(self.s.killer))
        # In misère the static follow scores are weak and the history weighs
        # as much; in games it only breaks ties.
        self.s.hist_weight = 1 if minimize else HIST_W
        return 0

    cdef int _root(self, Root* rt, int leader, trick, int talon_card) except -1:
        """Set up the current trick from the cards already played to it."""
        cdef int k = len(trick), c, i
        cdef uint32_t pending
        if not 0 <= leader <= 2:
            raise ValueError(f"leader must be 0..2, got {leader}")
        if k > 2 or not -1 <= talon_card <= 31:
            raise ValueError("a trick in progress has at most 2 cards played")
        for i in range(k):
            if not 0 <= trick[i] <= 31:
                raise ValueError(f"no card {trick[i]}")
        rt.table = 0
        rt.leader = leader
        rt.led = -1
        rt.win_card = -1
        rt.win_seat = -1
        if talon_card >= 0:
            rt.led = talon_card >> 3
            rt.table = (<uint32_t>1) << talon_card
            leader = 0
        rt.at_start = 1 if (k == 0 and talon_card < 0) else 0
        for i in range(k):
            c = trick[i]
            if rt.led < 0:
                rt.led = c >> 3
            if (rt.win_card < 0 and (c >> 3) == rt.led) or (rt.win_card >= 0 and beats(c, rt.win_card, self.s.trump)):
                rt.win_card = c
                rt.win_seat = (leader + i) % 3
            rt.table |= (<uint32_t>1) << c
        rt.seat = (leader + k) % 3
        rt.remaining = 3 - k
        # The search relies on the hands' shape (ENDINGS is read by the
        # number of cards each holds), so a malformed root is refused here.
        if (self.s.hand[0] & self.s.hand[1]) or (self.s.hand[0] & self.s.hand[2]) or (self.s.hand[1] & self.s.hand[2]):
            raise ValueError("the hands share a card")
        if rt.table & (self.s.hand[0] | self.s.hand[1] | self.s.hand[2]):
            raise ValueError("a card on the table is still in a hand")
        c = ps_popcount(self.s.hand[rt.seat])
        for i in range(3):
            if ps_popcount(self.s.hand[(rt.seat + i) % 3]) != (c if i < rt.remaining else c - 1):
                raise ValueError("the hands' sizes do not fit the trick in progress")
        # Talon cards still to lead each take one card from every hand.
        pending = 0
        for i in range(self.s.n_talon):
            pending |= (<uint32_t>1) << self.s.talon[i]
        if ps_popcount(pending) != self.s.n_talon or pending & (rt.table | self.s.hand[0] | self.s.hand[1] | self.s.hand[2]):
            raise ValueError("a talon card still to lead is in a hand, on the table or given twice")
        if self.s.n_talon > (c if rt.at_start else c - 1):
            raise ValueError("more talon cards still to lead than cards in each hand")
        return 0

    def value(self, hands, int declarer, int trump, bint minimize, int leader=0,
              trick=(), int talon_card=-1, pending=(), int guess=-1):
        """Declarer's tricks from this position on, with best play by both sides.

        ``hands``: three card masks; ``trick``: cards already played to the
        current trick, in order (first played by ``leader``, or by seat 0 under
        a talon card ``talon_card``); ``pending``: talon cards that will lead
        the next tricks (all-pass); ``guess``: where the probes start (-1: an
        estimate from the hands). The caller validates the position.
        """
        cdef Root rt
        cdef int v, lo = 0, hi
        self._acquire()
        try:
            self._setup(hands, declarer, trump, minimize, pending)
            self._root(&rt, leader, trick, talon_card)
            hi = ps_popcount(self.s.hand[rt.seat])
            with nogil:
                v = root_value_from(&self.s, &rt, lo, hi,
                                    guess if guess >= 0 else guess_tricks(&self.s, rt.seat))
        finally:
            self.busy = False
        self.nodes = self.s.nodes
        return v

    def geq(self, hands, int declarer, int trump, bint minimize, int target, int leader=0,
            trick=(), int talon_card=-1, pending=()):
        """The null-window probe: do the declarer's tricks reach ``target``?"""
        cdef Root rt
        cdef bint r
        self._acquire()
        try:
            self._setup(hands, declarer, trump, minimize, pending)
            self._root(&rt, leader, trick, talon_card)
            with nogil:
                r = root_geq(&self.s, &rt, target)
        finally:
            self.busy = False
        self.nodes = self.s.nodes
        return bool(r)

    def first_guess(self, hands, int declarer, int trump, bint minimize, int leader=0):
        """Where ``value``'s probes start for a 10-card position at a trick
        start (only speed depends on it; tests check the misère fit with it)."""
        cdef int g
        self._acquire()
        try:
            self._setup(hands, declarer, trump, minimize, ())
            if not 0 <= leader <= 2:
                raise ValueError(f"leader must be 0..2, got {leader}")
            g = guess_tricks(&self.s, leader)
        finally:
            self.busy = False
        return g

    def best_discard(self, hands, uint32_t talon, int declarer, int trump, bint minimize,
                     int leader=0, first=(), int guess=-1):
        """Best value over all 66 discards after the declarer takes the talon.

        Returns ``(value, discard_mask)``. Every discard is considered; a
        discard only has to beat the best so far (one null-window probe), and a
        discard whose resulting position equals (up to relative ranks) one
        already tried is skipped, since its value is the same.

        ``first``: up to 4 discards (masks of two of the 12 cards) to try
        before the usual order, e.g. the best ones of similar deals; any other
        item is ignored. ``guess``: a likely value of the first discard
        tried (say, the value of a similar deal), probed first. Both change
        only the work done, never the value.
        """
        self._acquire()
        try:
            return self._best_discard(hands, talon, declarer, trump, minimize, leader, first, guess)
        finally:
            self.busy = False

    cdef tuple _best_discard(self, hands, uint32_t talon, int declarer, int trump, bint minimize,
                             int leader, first, int guess):
        cdef uint32_t full, h, d
        cdef int cards[12]
        cdef uint64_t seen[66]
        cdef uint16_t seen_lens[66]
        cdef uint16_t lens
        cdef int n_seen = 0, ncard = 0, i, j, k, best, v, tricks
        cdef uint32_t best_mask = 0
        cdef uint64_t key
        cdef bint dup
        cdef int order[12]
        cdef int okey[12]
        cdef uint32_t pairs[70]
        cdef int n_pairs, p
        cdef object x
        cdef Root rt
        self._setup(hands, declarer, trump, minimize, (), True)
        self._root(&rt, leader, (), -1)
        full = self.s.hand[declarer] | talon
        # _root checked that the hands are of one size; the tables the
        # search reads rely on it after the discard too.
        if ps_popcount(talon) != 2:
            raise ValueError("the talon must be 2 cards")
        if talon & (self.s.hand[0] | self.s.hand[1] | self.s.hand[2]):
            raise ValueError("a talon card is in a hand")
        if ps_popcount(self.s.hand[declarer]) != 10:
            raise ValueError("declarer's hand and talon must make 12 cards")
        h = full
        while h:
            cards[ncard] = ps_ctz(h)
            h &= h - 1
            ncard += 1
        # Try the likely-best discards first, so that the first value is a good
        # bound: for games low cards of short side suits, for misère high cards
        # of short suits (only the work depends on the order).
        for i in range(12):
            order[i] = cards[i]
            k = 2 * ps_popcount(full & SUIT_MASK[cards[i] >> 3])
            if minimize:
                okey[i] = k - (cards[i] & 7)
            else:
                okey[i] = k + (cards[i] & 7) + (16 if (cards[i] >> 3) == self.s.trump else 0)
        for i in range(1, 12):
            j = i
            while j > 0 and okey[j] < okey[j - 1]:
                okey[j], okey[j - 1] = okey[j - 1], okey[j]
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
        # The hints go first; the pairs then meet them again and skip them as
        # positions already tried.
        n_pairs = 0
        for x in tuple(first)[:4]:
            if isinstance(x, int) and 0 <= x <= 0xFFFFFFFF:
                h = x
                if ps_popcount(h) == 2 and not (h & ~full):
                    pairs[n_pairs] = h
                    n_pairs += 1
        for i in range(12):
            for j in range(i + 1, 12):
                pairs[n_pairs] = ((<uint32_t>1) << order[i]) | ((<uint32_t>1) << order[j])
                n_pairs += 1
        tricks = 10
        best = -1
        with nogil:
            for p in range(n_pairs):
                d = pairs[p]
                self.s.hand[declarer] = full & ~d
                key = position_key(&self.s, byte_counts(self.s.hand[0] | self.s.hand[1] | self.s.hand[2]),
                                   &lens)
                dup = False
                for k in range(n_seen):
                    if seen[k] == key and seen_lens[k] == lens:
                        dup = True
                        break
                if dup:
                    continue
                seen[n_seen] = key
                seen_lens[n_seen] = lens
                n_seen += 1
                tricks = ps_popcount(self.s.hand[declarer])
                if best < 0:
                    if guess < 0:
                        best = root_value_from(&self.s, &rt, 0, tricks, guess_tricks(&self.s, rt.seat))
                    else:
                        best = root_value_near(&self.s, &rt, 0, tricks, guess)
                    best_mask = d
                elif not minimize:
                    if best < tricks and root_geq(&self.s, &rt, best + 1):
                        best = root_value(&self.s, &rt, best + 1, tricks)
                        best_mask = d
                else:
                    if best > 0 and not root_geq(&self.s, &rt, best):
                        best = root_value(&self.s, &rt, 0, best - 1)
                        best_mask = d
        self.s.hand[declarer] = full & ~best_mask
        self.nodes = self.s.nodes
        return best, best_mask
