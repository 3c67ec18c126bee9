# Transposition tables, used at trick starts only (trick_start), when no
# talon-led trick is pending.
#
# Invariants:
# * An entry holds a lower and an upper bound (lo <= value <= hi) of the
#   tricks from its position, independent of the tricks already won; bounds
#   only tighten, since every bound comes from an exact search.
# * The exact table (Entry: misère and all-pass) is keyed by the whole
#   position after relative-rank normalisation (position_key, the suit
#   lengths, the context), compared in full on a hit: never hash-only.
# * The pattern table (PEntry: games) keeps with each bound only the part of
#   the key that the answer relied on (each suit's cards down to its lowest
#   relevant one, relevance_mask). Its bucket depends on the suit lengths
#   per seat and the context alone (position_shape), so that every position
#   an entry matches hashes to the entry's bucket.
# * Entries stay valid across solves, discards and strains (the context is
#   part of the key); a generation number, not clearing, ages them.

cdef extern from "_core_helpers.h":
    uint64_t ps_mix(uint64_t key, uint32_t ctx) noexcept nogil
    uint32_t ps_entry_tag(const void* p) noexcept nogil

cdef enum:
    BUCKET = 4          # exact entries per bucket (one 64-byte cache line)
    PBUCKET = 8         # pattern entries per bucket (three cache lines): a bucket
                        # holds a shape's positions, so it needs more than 4

cdef struct Entry:
    # An exact entry (misère and all-pass, whose answers rely on most cards).
    uint64_t key        # relative ranks held by seats 1 and 2, 16 bits a suit
    uint16_t lens       # remaining cards of each suit, 4 bits a suit
    uint8_t ctx         # leader, declarer, trump, mode (right after lens: ps_entry_tag)
    uint8_t gen         # solve generation that last touched the entry
    int8_t lo           # tricks from here are >= lo
    int8_t hi           # tricks from here are <= hi
    uint8_t depth       # tricks left (replacement priority)
    uint8_t move        # suit * 8 + relative rank of the best lead, 255 none


cdef struct PEntry:
    # A pattern entry (games): matches every position of its shape whose key
    # agrees on the masked bits (see trick_start).
    uint64_t shape      # suit lengths: all, seat 1, seat 2 (4 bits each); context; 0 empty
    uint64_t key        # the stored position's key, masked
    uint32_t mask       # per suit, a byte: the ranks (among the alive) that matter
    int8_t lo           # tricks from here are >= lo
    int8_t hi           # tricks from here are <= hi
    uint8_t gen         # solve generation that last touched the entry
    uint8_t move        # suit * 8 + relative rank of the best lead, 255 none

cdef inline uint64_t position_key(Search* s, uint32_t counts, uint16_t* lens) noexcept nogil:
    """Relative-rank key: for each suit, which of its remaining cards (counted
    from the bottom) seats 1 and 2 hold, a byte each: seat 1's bytes in the
    low half, seat 2's in the high half, suit by suit, so that a byte mask
    of the suits (key_mask) covers both with one shift; seat 0 holds the
    rest. ``lens`` receives the suit lengths, which complete the key, from
    ``counts``: the alive cards of each suit, a byte a suit (byte_counts)."""
    cdef uint32_t h1 = s.hand[1], h2 = s.hand[2], alive = s.hand[0] | h1 | h2
    # PACK8's indices (alive << 8 | hand, a suit's bytes) two suits at a
    # time, one in each 16-bit half: suits 0 and 2, then 1 and 3.
    cdef uint32_t a02 = (alive & 0x00FF00FFU) << 8, a13 = alive & 0xFF00FF00U
    cdef uint32_t i02 = a02 | (h1 & 0x00FF00FFU), i13 = a13 | ((h1 >> 8) & 0x00FF00FFU)
    cdef uint32_t j02 = a02 | (h2 & 0x00FF00FFU), j13 = a13 | ((h2 >> 8) & 0x00FF00FFU)
    cdef uint32_t k1 = (<uint32_t>PACK8[i02 & 0xFFFF] | ((<uint32_t>PACK8[i13 & 0xFFFF]) << 8)
                        | ((<uint32_t>PACK8[i02 >> 16]) << 16) | ((<uint32_t>PACK8[i13 >> 16]) << 24))
    cdef uint32_t k2 = (<uint32_t>PACK8[j02 & 0xFFFF] | ((<uint32_t>PACK8[j13 & 0xFFFF]) << 8)
                        | ((<uint32_t>PACK8[j02 >> 16]) << 16) | ((<uint32_t>PACK8[j13 >> 16]) << 24))
    lens[0] = <uint16_t>pack_nibbles(counts)
    return k1 | ((<uint64_t>k2) << 32)


cdef inline Entry* tt_bucket(Search* s, uint64_t key, uint16_t lens, uint8_t ctx) noexcept nogil:
    return s.tt + (ps_mix(key, (<uint32_t>lens << 8) | ctx) & s.tt_mask) * BUCKET


cdef inline Entry* tt_probe(Entry* b, uint64_t key, uint16_t lens, uint8_t ctx) noexcept nogil:
    """The entry of this position in bucket ``b`` (see tt_bucket), or NULL.

    The four keys are compared without branches (whether a slot matches is
    as good as random, so tests slot by slot mispredict), then the lengths
    and context only where a key matches. An empty slot (all zero) never matches:
    only misère and all-pass use this table, and their context has the
    mode bit set."""
    cdef uint32_t tag = (<uint32_t>ctx << 16) | lens
    cdef int i, m = 0
    for i in range(BUCKET):     # unrolled by the compiler
        m |= (b[i].key == key) << i
    while m:
        i = ps_ctz(m)
        if ps_entry_tag(&b[i].lens) == tag:
            return &b[i]
        m &= m - 1
    return NULL


cdef inline void tt_store(Search* s, Entry* b, Entry* e, uint64_t key, uint16_t lens, uint8_t ctx,
                          int depth, int lo, int hi, int move) noexcept nogil:
    """Store bounds for this position in bucket ``b``. ``e`` is what tt_probe
    returned for it before the search (NULL: no entry). The search below a
    position only stores positions with fewer cards, so the position is in
    the bucket now only if it still sits in ``e``: no need to match the
    whole bucket again."""
    cdef Entry* victim = NULL
    cdef int i, score, worst = 1 << 30
    if e != NULL and e.key == key and ps_entry_tag(&e.lens) == ((<uint32_t>ctx << 16) | lens):
        victim = e
        # Bounds only tighten: both come from exact searches of one position.
        if lo > victim.lo:
            victim.lo = lo
        if hi < victim.hi:
            victim.hi = hi
        victim.gen = s.gen
        if move != 255:
            victim.move = move
        return
    cdef int vi = 0
    cdef uint8_t gen = s.gen
    for i in range(BUCKET):
        # Prefer empty slots, then entries of older solves, then shallow ones
        # (the first of equals). Without branches: which slot goes is as
        # good as random.
        score = b[i].depth + ((b[i].gen == gen) << 6)
        score = -1 if b[i].depth == 0 else score
        vi = i if score < worst else vi
        worst = score if score < worst else worst
    victim = &b[vi]
    victim.key = key
    victim.lens = lens
    victim.ctx = ctx
    victim.lo = lo
    victim.hi = hi
    victim.depth = depth
    victim.gen = s.gen
    victim.move = move


cdef inline uint32_t pack_nibbles(uint32_t counts) noexcept nogil:
    """Four byte counts (each <= 8) packed to 4 bits each."""
    counts = (counts | (counts >> 4)) & 0x00FF00FF
    return (counts | (counts >> 8)) & 0xFFFF


cdef inline uint64_t position_shape(Search* s, uint16_t lens, uint8_t ctx, uint32_t* cnt) noexcept nogil:
    """The table's bucket key: every seat's suit lengths (``cnt``: each
    hand's byte_counts) and the context.

    An entry may match positions that differ below its relevant cards (see
    trick_start), so the bucket must depend on nothing else."""
    return (<uint64_t>lens | (<uint64_t>pack_nibbles(cnt[1]) << 16)
            | (<uint64_t>pack_nibbles(cnt[2]) << 32) | (<uint64_t>ctx << 48))


cdef inline PEntry* pt_bucket(Search* s, uint64_t shape) noexcept nogil:
    """The bucket of a shape: an entry may match positions with other keys."""
    return s.pt + (((ps_mix(shape, 0) >> 32) * s.pt_count) >> 32) * PBUCKET


cdef inline uint32_t entry_cards(PEntry* e, uint32_t alive) noexcept nogil:
    """The alive cards that an entry's mask covers (each suit's top cards)."""
    cdef uint32_t r = 0
    cdef int suit, sh
    for suit in range(4):
        sh = 8 * suit
        r |= (<uint32_t>UNPACK8[(((alive >> sh) & 0xFF) << 8) | ((e.mask >> sh) & 0xFF)]) << sh
    return r


cdef inline uint64_t key_mask(uint32_t mask) noexcept nogil:
    """The key bits of a pattern mask: each suit's byte for seats 1 and 2."""
    return mask | ((<uint64_t>mask) << 32)


cdef inline int pt_lookup(Search* s, PEntry* b, uint64_t key, uint64_t shape, int target, int* move,
                          uint32_t* rel) noexcept nogil:
    """1 or 0 when a matching entry of bucket ``b`` (pt_bucket of ``shape``)
    decides "value >= target" (``rel`` gets the cards it relied on), -1 when
    none does; ``move`` gets a stored lead."""
    cdef int i
    for i in range(PBUCKET):
        if b[i].shape == shape and ((b[i].key ^ key) & key_mask(b[i].mask)) == 0:
            if b[i].lo >= target or b[i].hi < target:
                rel[0] = entry_cards(&b[i], s.hand[0] | s.hand[1] | s.hand[2])
                return 1 if b[i].lo >= target else 0
            if b[i].move != 255:
                move[0] = b[i].move
    return -1


cdef inline uint32_t relevance_mask(uint32_t rel, uint32_t alive) noexcept nogil:
    """The ranks that matter, among the alive ones, a byte per suit: in each
    suit, every alive card at or above the lowest card of ``rel`` (none if
    rel has no card of it)."""
    cdef uint32_t mask = 0
    cdef uint32_t r, a, m
    cdef int suit, sh
    for suit in range(4):
        sh = 8 * suit
        r = (rel >> sh) & 0xFF
        if r:
            a = (alive >> sh) & 0xFF
            mask |= (<uint32_t>PACK8[(a << 8) | (a & ~((r & (~r + 1)) - 1))]) << sh
    return mask


cdef inline void pt_store(Search* s, PEntry* b, uint64_t key, uint32_t mask, uint64_t shape,
                          int lo, int hi, int move) noexcept nogil:
    cdef PEntry* victim = NULL
    cdef int i
    key &= key_mask(mask)
    for i in range(PBUCKET):
        if b[i].shape == shape and b[i].mask == mask and b[i].key == key:
            victim = &b[i]
            # Bounds only tighten: both come from exact searches of one pattern.
            if lo > victim.lo:
                victim.lo = lo
            if hi < victim.hi:
                victim.hi = hi
            victim.gen = s.gen
            if move != 255:
                victim.move = move
            return
    # Replace an empty slot, else the last entry of an older solve, else the
    # least recently stored (the bucket is kept newest first). Depth does
    # not count: a bucket holds one shape, so one depth, barring collisions.
    victim = &b[PBUCKET - 1]
    for i in range(PBUCKET):
        if b[i].shape == 0:
            victim = &b[i]
            break
        if b[i].gen != s.gen:
            victim = &b[i]
    while victim != b:
        victim[0] = (victim - 1)[0]
        victim -= 1
    victim.key = key
    victim.mask = mask
    victim.shape = shape
    victim.lo = lo
    victim.hi = hi
    victim.gen = s.gen
    victim.move = move
