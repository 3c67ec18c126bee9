# cython: language_level=3
"""Bitboard double-dummy search for Preferans (the only module that knows bitboards).

Cards are bits 0..31 of a uint32: bit ``suit * 8 + rank`` with suits 0..3 =
S C D H and ranks 0..7 = 7 8 9 T J Q K A. Seats play 0 -> 1 -> 2 -> 0.

The game is two-sided: the declarer against the two defenders, who act as one.
The value of a position is "declarer's tricks from here". In trump and
no-trump games the declarer maximises it; in misère and all-pass the declarer
(the player whose tricks are counted) minimises it. The search answers the
null-window question "can the maximising side make the value >= target?";
exact values come from a short driver over such probes.

Invariants of the search:
* ``hand[s]`` are the cards still held; cards played in finished tricks are
  gone, cards of the current trick are in the ``table`` mask.
* The transposition tables are used at trick starts only, when no talon-led
  trick is pending, and store a lower and an upper bound of the tricks from
  here. The key is the position after relative-rank normalisation (each
  suit's length and which of its remaining cards, by rank among them, each
  seat holds) plus the leader and the search context, so entries stay valid
  across solves, discards and strains. Misère and all-pass use the exact
  key; games keep, with each bound, only the part of the key that the answer
  relied on (each suit's cards down to its lowest relevant one), and the
  entry serves every position with the same suit lengths per seat that
  agrees on that part (see trick_start).
* Two cards of one hand in one suit are equivalent when no card between them
  is held by another hand or lies on the table; one card per run is tried.
  In games, a card that fails below every card its refutation relied on
  stands for the mover's lower cards of its suit too (lowest_win_mask).
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
import threading

cdef extern from *:
    """
    #include <stdint.h>
    /* Population count: the POPCNT instruction only when the compiler may
       assume it (-mpopcnt); wheels must run on any CPU of the architecture,
       and the generic builtin would be a library call, so use this form. */
    #if defined(__POPCNT__)
    static inline int ps_popcount(uint32_t x) { return __builtin_popcount(x); }
    #else
    static inline int ps_popcount(uint32_t x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        x = (x + (x >> 4)) & 0x0F0F0F0Fu;
        return (int)((x * 0x01010101u) >> 24);
    }
    #endif
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int ps_ctz(uint32_t x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
    static inline int ps_msb(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
    #else
    static inline int ps_ctz(uint32_t x) { return __builtin_ctz(x); }
    static inline int ps_msb(uint32_t x) { return 31 - __builtin_clz(x); }
    #endif
    /* Start loading a cache line that will be read soon (a hint only). */
    #if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    #include <xmmintrin.h>
    static inline void ps_prefetch(const void* p) { _mm_prefetch((const char*)p, _MM_HINT_T0); }
    #elif defined(_MSC_VER)
    static inline void ps_prefetch(const void* p) { (void)p; }
    #else
    static inline void ps_prefetch(const void* p) { __builtin_prefetch(p); }
    #endif
    /* An exact entry's lens and ctx (at p: lens, then ctx, then gen) as
       lens | ctx << 16: on a little-endian CPU one 32-bit load with gen
       masked off (memcpy keeps to the aliasing rules), else two loads. */
    #include <string.h>
    static inline uint32_t ps_entry_tag(const void* p) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        uint16_t lens; memcpy(&lens, p, 2);
        return lens | ((uint32_t)((const uint8_t*)p)[2] << 16);
    #else
        uint32_t v; memcpy(&v, p, 4); return v & 0xFFFFFFu;
    #endif
    }
    /* Functions kept out of line, declared here under the names Cython
       gives them (module prefsolve._core): GCC inlines a static function
       called once, and these are the rare, large parts of small hot
       functions. Renaming one needs its name changed here too; a stale
       name only costs speed (GCC warns "declared static but never
       defined"). Round 21: about 1.6% of the misère instructions. */
    struct __pyx_t_9prefsolve_5_core_Search;
    #if defined(__GNUC__)
    static int __pyx_f_9prefsolve_5_core_all_forced_tail(struct __pyx_t_9prefsolve_5_core_Search *, int, uint32_t) __attribute__((noinline));
    static int __pyx_f_9prefsolve_5_core_escapes_probe_decl(struct __pyx_t_9prefsolve_5_core_Search *, int, int) __attribute__((noinline));
    static int __pyx_f_9prefsolve_5_core_escapes_probe_def(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int) __attribute__((noinline));
    static int __pyx_f_9prefsolve_5_core_all_forced_off(struct __pyx_t_9prefsolve_5_core_Search *, int) __attribute__((noinline));
    static int __pyx_f_9prefsolve_5_core_lead_refuted_all(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int) __attribute__((noinline));
    static int __pyx_f_9prefsolve_5_core_lead_refuted_short(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int) __attribute__((noinline));
    /* Round 22: copies specialised by an argument that is constant at
       each call (always_inline), so that the tests on it vanish:
       lead_refuted's body in its two versions above (whether the next
       trick start is one short of all), search_leads and exact_start's
       body in exact_start's two (who is on lead). */
    static inline int __pyx_f_9prefsolve_5_core_lead_refuted_i(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int, int) __attribute__((always_inline));
    static inline uint64_t __pyx_f_9prefsolve_5_core_search_leads(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int, uint32_t, int *, int, int, int, uint32_t, uint32_t *) __attribute__((always_inline));
    static inline uint64_t __pyx_f_9prefsolve_5_core_exact_start_t(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int) __attribute__((always_inline));
    static uint32_t __pyx_f_9prefsolve_5_core_run_tops_call(uint32_t, uint32_t) __attribute__((noinline));
    #endif
    /* The bench's machine probe (bench.machine_rate): eight independent
       sums a round, more additions than a core has integer units, so that
       the loop keeps them all busy and slows down when something else
       takes them, as the search does (round 25, one vCPU pinned, between
       the host's two states: this loop and the engine both -33%, a
       latency-bound SHA-256 loop -4%). The empty asm keeps every sum in a
       register and stops the loop from being folded or vectorised; it
       needs eight 64-bit registers, so other compilers and targets get
       eight xorshift chains instead (as wide, but a different loop). */
    static uint64_t ps_spin(uint64_t n) {
        uint64_t i;
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
        uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
        for (i = 0; i < n; i++) {
            a += 1; b += 2; c += 3; d += 4; e += 5; f += 6; g += 7; h += 8;
            __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d),
                                  "+r"(e), "+r"(f), "+r"(g), "+r"(h));
        }
        return ((((((a * 31 + b) * 31 + c) * 31 + d) * 31 + e) * 31 + f) * 31 + g) * 31 + h;
    #else
        uint64_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        int k;
        for (i = 0; i < n; i++) {
            for (k = 0; k < 8; k++) {
                x[k] ^= x[k] << 13; x[k] ^= x[k] >> 7; x[k] ^= x[k] << 17;
            }
        }
        for (k = 1; k < 8; k++)
            x[0] = x[0] * 31 + x[k];
        return x[0];
    #endif
    }
    /* A 64-bit finaliser (splitmix64) to spread table keys over buckets. */
    static inline uint64_t ps_mix(uint64_t key, uint32_t ctx) {
        uint64_t h = key ^ ((uint64_t)ctx * 0x9E3779B97F4A7C15ULL);
        h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 29;
        return h;
    }
    """
    int ps_popcount(uint32_t x) noexcept nogil
    int ps_ctz(uint32_t x) noexcept nogil
    void ps_prefetch(const void* p) noexcept nogil
    int ps_msb(uint32_t x) noexcept nogil
    uint64_t ps_mix(uint64_t key, uint32_t ctx) noexcept nogil
    uint32_t ps_entry_tag(const void* p) noexcept nogil
    uint64_t ps_spin(uint64_t n) noexcept nogil

cdef enum:
    BUCKET = 4          # exact entries per bucket (one 64-byte cache line)
    PBUCKET = 8         # pattern entries per bucket (three cache lines): a bucket
                        # holds a shape's positions, so it needs more than 4;
                        # round 10, with a 128 KiB table: 8 against 16, contracts
                        # -7% time for +4% mean nodes (blocks of 50 deals)
    HIST_W = 1 << 12    # games: the static score decides, history breaks ties
    HIST_CAP = 1 << 28  # history counts stay below this (scores are ints)
    MAX_MOVES = 12

# SEAT3[i] == i % 3 for i in 0..4: the seat k places after a seat, without a division.
# Both are C constants, so that the compiler folds a constant index into an
# immediate operand instead of loading the global.
cdef extern from *:
    """
    static const uint32_t SUIT_MASK[4] = {0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0xFF000000u};
    static const int SEAT3[5] = {0, 1, 2, 0, 1};
    """
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


# ---------------------------------------------------------------------------
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
# (escapes_probe_*). Data, not search state: ENDINGS is solved before the
# first misère or all-pass search (about 30 ms: only positions whose suits
# are in order are solved, since suits are interchangeable without trumps);
# ENDINGS4 takes about 0.7 s to solve, so it is shipped solved and read
# then (ensure_endings).
#
# Round 30, 200 misères (seed 1000): engine instructions -6.0% with ENDINGS
# (and the four-card starts searching one trick over it), -15.7% with
# ENDINGS4 too; in alternated blocks in one process 0.88 of round 29's
# median time a misère (0.84 of the total), the same values.

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


# Four cards each (round 30): 12 993 750 positions, but suits are
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
# `python -m prefsolve._endings` from solve_endings4) is read when it matches
# this format; otherwise it is filled here (about 0.7 s). The format changes
# whenever the numbering or the byte's encoding does.
ENDINGS4_FORMAT = 2
_endings_lock = threading.Lock()


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
    ENDINGS4 from the shipped file when it has this format, this engine's
    fingerprint and plausible entries, else solved here. No search reads
    the tables until they are complete, and nothing writes them after. The
    file is read before the lock is taken (reading lets other threads run);
    inside it only C code runs, with the GIL held."""
    global endings_ready
    cdef const unsigned char[:] raw
    cdef bint loaded = False
    if endings_ready:
        return 0
    from prefsolve._endings import load_endings4
    found = load_endings4(ENDINGS4_FORMAT, ENDINGS4_SIZE)
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
    holds, as bytes: what prefsolve._endings writes and the tests compare
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


cdef inline uint32_t byte_counts(uint32_t x) noexcept nogil:
    """The number of cards of each suit of ``x``, one per byte (SWAR popcount)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return (x + (x >> 4)) & 0x0F0F0F0F


cdef inline int suit_count(uint32_t m, int x) noexcept nogil:
    """Cards of ``m`` in suit ``x`` (a table load, cheaper than a full popcount)."""
    return POPCOUNT8[(m >> (8 * x)) & 0xFF]


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


cdef struct Search:
    uint32_t hand[3]
    int trump           # 0..3, or -1 for no trump
    int declarer
    int decl_max        # 1: declarer maximises (games); 0: minimises (misère, all-pass)
    uint8_t ctx_base    # declarer, trump, mode bits of the TT context
    int talon[2]        # talon cards that lead the next tricks (all-pass), in order
    int n_talon         # how many of them are still to lead
    int talon_pos       # index of the next talon card to lead
    uint64_t nodes
    uint32_t hist[3][32]    # cut-off counts per seat and card (move ordering only)
    int8_t killer[3][33][33]    # games: per seat, cards in hand and target, the last lead that cut off (-1: none)
    int hist_weight         # weight of the static ordering score against history
    Entry* tt           # exact table
    uint64_t tt_mask    # number of buckets - 1
    PEntry* pt          # pattern table
    uint64_t pt_count   # number of buckets (any number below 2**32)
    uint8_t gen


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
    as good as random, and mispredicted tests slot by slot cost more: round
    14), then the lengths and context only where a key matches (round 21:
    -1.5% misère instructions). An empty slot (all zero) never matches:
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
    # Measured on best-of-66 node counts (bench/README.md): each rule
    # below cuts 2-8% of game nodes.
    if not is_decl and suit == s.trump and not (s.hand[s.declarer] & SUIT_MASK[suit]):
        # A defender's trump when the declarer has none: keep it to ruff
        # (round 7: -1.6% nodes on trump contracts).
        return 10 + rank
    if higher == 0:
        if ruffed_by_opponent(s, seat, suit, is_decl):
            return 25 + power      # a top card the other side can ruff
        if suit == s.trump and not (alive & SUIT_MASK[suit] & ~s.hand[seat]):
            # The declarer's top trump when the defenders have none: it
            # draws nothing and is worth keeping to ruff (round 7: -5.6%
            # nodes on trump contracts against scoring it as a top card).
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
            # top cards, high first (round 7: -5% nodes on contracts,
            # -3% on best-of-66 games).
            return 70 + rank
        if (not pm and s.trump >= 0 and suit != s.trump
                and (s.hand[3 - seat - s.declarer] & SUIT_MASK[s.trump])
                and (dm or not (s.hand[s.declarer] & SUIT_MASK[s.trump]))):
            # Partner void with a trump, the declarer follows or cannot
            # ruff: a ruff, ahead of the top cards (round 7: -4.7% nodes
            # on trump contracts, -5.4% on best-of-66 games).
            return 75 - rank
    if (is_decl and s.trump < 0 and (suit_alive & (bit - 1))
            and ((s.hand[seat] >> ps_msb(suit_alive & (bit - 1))) & 1)):
        # No-trump, the declarer: the top of a sequence below the
        # defenders' stopper, to set the suit up while his top cards
        # keep the entries (round 7: -4 to -6% nodes on no-trump).
        return 68 + rank
    if suit == s.trump:
        # A trump below the other side's: it only feeds their trump
        # trick (round 7: -2.8% nodes on trump contracts, -1 to -2% on
        # best-of-66 games).
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


# Misère ordering (round 8). History alone decided it before; these scores
# were fitted instead to what ordering costs. An instrumented build searched
# every lead (or card) at sampled cut nodes of random misères, each from the
# same saved table and history, and recorded whether it cuts off and how
# many nodes it took; the weights minimise the expected nodes until the
# first card that cuts off (softmax of the score, fitted on 200 deals,
# checked on 200 others, refitted once on data from the new order), and
# features that did not pay for their cost were dropped. The history term
# is a bonus for the cards at the highest power-of-two level and a small
# slope below it. Measured: misère nodes -28% (median), time -24%; the last
# defender's order a further -6% nodes, -4% time (bench/README.md, round 8).
#
# Round 12 re-tuned the weights, since rounds 9-11 changed which positions
# are searched at all: coordinate descent on the total nodes of 500-1 600
# random misères (each weight scaled by 0 to 2, candidate features added at
# zero), kept only when held-out sets agreed. It dropped two terms (the last
# defender's cards above, the second hand's winner that the last player can
# beat) and added seven (the declarer's lowest card of a suit and the longer
# defender's length; a defender's singleton, his cards under the lead and
# the declarer's singleton; the second hand's cards above the declarer's and
# its discards by suit length; the declarer's length for the last hand):
# misère nodes -7% (mean of seven held-out sets), best-of-66 misère -6%,
# all-pass -7%.

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
    after (round 12, tuned like the orders above: -13% misère nodes, -12%
    best-of-66 misère, -20% all-pass; round 9 had found static-first 6%
    worse with the rule alone): the rule below, then, per card of his of the
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
        # follow_score's order without its history term, built from masks.
        # Measured: -2.5% (last to play) and -3% (second) instructions, and
        # 0.2-0.7% fewer nodes.
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
            # Nobody followed a talon card: first hand takes the trick (§4.7, C5).
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
        # Round 20: contracts -12.7% median nodes, -9.8% instructions,
        # 0.931-0.945 of the time in blocks; full tables 0.96.
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
            # Nobody followed a talon card: first hand takes the trick (§4.7, C5).
            winner = nws if nws >= 0 else 0
            a = next_trick(s, winner, target - (1 if winner == s.declarer else 0))
        else:
            a = play_misere(s, SEAT3[seat + 1], remaining - 1, led, nw, nws,
                            table | ((<uint32_t>1) << c), target)
        s.hand[seat] ^= (<uint32_t>1) << c
        if ((a >> 32) != 0) == maxnode:
            # Misère weighs a cut-off by the cards left (deeper in the game is
            # worth more): measured -9% nodes on single misères, -12 to -23% on
            # best-of-66 (games keep small counts that only break ties).
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
# node, so a loop with a branch per suit mispredicts (round 15: the misère
# tests all_forced, must_win_now, sure_exit_lead and escape_cards written
# this way: misère time 0.925-1.001 of the loops', median 0.950, in blocks
# of 50 deals over eight seeds; 3.7% fewer simulated mispredictions).

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
    lead; on lead the answer is no_exit (round 22: the callers know who
    leads, so the test is made once there).

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
    # Round 17: -18% misère nodes; 0.959-0.979 of round 16's time in blocks
    # of 50 deals (four seeds), which weigh the heavy deals: the median deal
    # takes about as long (per-deal medians -1.7% to +2.7%, five seeds).
    # Without the table entries it was 12-14% slower.
    if target == left - 1 and left >= 3:
        c = unrefuted_lead(s, w, target, left)
        if c < 0:
            tt_store(s, b, NULL, key, lens, ctx, left, 0, target - 1, 255)
            return True
        # No move: the lead left unrefuted is not known to cut off, and
        # tried first it cost more nodes than the fitted order (round 22:
        # mean misère nodes +0.4% to +0.6%).
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
    next start's take-all test is known without a test per reply. Round 17 (from one short of all only): -6% misère
    nodes, time 0.988 in blocks of 50 deals.
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
            # (Round 11 loaded the replies' buckets here first, but GCC found
            # the loop free of side effects and dropped it: round 21 saw no
            # prefetch in the binary, and a real one cost +5% instructions.)
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
    table probes, which cost more than the search they save (measured,
    round 13: -29% instead of -20% misère nodes, but 3-6% slower)."""
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

    In two halves by who is on lead (round 22): every caller knows it.
    This one: an opponent on lead.
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
    search_leads skips each one on its own at a target of 1 (round 22)."""
    cdef int d = s.declarer, sh = x & ~7
    cdef uint32_t a8 = (s.hand[SEAT3[d + 1]] >> sh) & 0xFF
    cdef uint32_t b8 = (s.hand[SEAT3[d + 2]] >> sh) & 0xFF
    cdef uint32_t under = ((<uint32_t>1) << (x & 7)) - 1
    return (a8 == 0 or (a8 & under) != 0) and (b8 == 0 or (b8 & under) != 0)


cdef inline uint64_t search_leads(Search* s, int leader, int target, int left, int first,
                                  uint32_t alive, int* best, bint games,
                                  bint refute, bint decl, uint32_t won,
                                  uint32_t* cnt) noexcept nogil:
    """Search every lead (one per run) at a trick start, the table's move
    ``first`` (or -1) first; with ``refute``
    (misère, an opponent on lead), a lead that lead_refuted settles is not
    searched; with ``games`` (a constant at each call, so that the misère
    search keeps none of it), a lead that lowest_win_mask covers is not
    either, nor one of a suit that won_suit_cashes settles (``won``: the
    suits to try it on, from declarer_wins_bytes, 0 when the declarer
    leads; ``cnt``: each hand's byte_counts). Returns the answer (see
    answer) and sets ``best`` to the relative move that cut off, if one
    did."""
    cdef uint32_t moves, acc = 0
    cdef int order[MAX_MOVES]
    cdef int n = 0, i = 0, k, c
    # games == s.decl_max; misère: ``decl`` is leader == s.declarer
    cdef bint maxnode = (leader == s.declarer) if games else (not decl)
    cdef bint r = not maxnode
    cdef uint64_t a
    cdef uint32_t lw_skip = 0, rel
    cdef bint win1 = target == 1
    s.nodes += 1
    moves = run_tops(s.hand[leader], s.hand[leader], alive)
    if first >= 0 and (moves >> first) & 1:
        # The table's move goes first, before the others are ordered: it
        # often cuts off, and then their scores are never needed.
        order[0] = first
        n = 1
        moves &= ~((<uint32_t>1) << first)
    # Games: next the last lead of this seat that cut off with as many cards
    # left and the same target (a "killer"; round 7: best-of-66 games -3 to
    # -7% nodes, random contracts -2.5%; round 8, keyed by the target too:
    # -1.4% contract nodes, -3% best-of-66 games. Misère: +6% nodes).
    if games:
        k = s.killer[leader][left][target]
        if k >= 0 and (moves >> k) & 1:
            order[n] = k
            n += 1
            moves &= ~((<uint32_t>1) << k)
    while True:
        if i == n:
            if not moves:
                break
            if moves & (moves - 1):
                if games:
                    order_leads(s, leader, moves, &order[n], &k)
                else:
                    order_misere_leads(s, leader, moves, &order[n], &k, decl)
                n += k
            else:
                order[n] = ps_ctz(moves)
                n += 1
            moves = 0
        c = order[i]
        i += 1
        if (lw_skip >> c) & 1:
            continue
        # Games, a defender on lead: a suit in which the declarer wins the
        # trick and then cashes enough is not searched (round 24: contracts
        # -14% median nodes, -5% engine instructions). Tested when its
        # first lead comes up, since a lead that cuts off ends the loop
        # (every suit tested before the search saved as many nodes and no
        # time).
        if games and ((won >> (8 * (c >> 3) + 7)) & 1):
            won &= ~((<uint32_t>0xFF) << (8 * (c >> 3)))
            rel = won_suit_cashes(s, leader, c >> 3, target, cnt)
            if rel:
                lw_skip |= s.hand[leader] & SUIT_MASK[c >> 3]
                acc |= rel
                continue
        if refute and lead_refuted(s, leader, c, target, left):
            continue
        # Misère, he leads and they need one trick: a lead that surely wins
        # the trick gives it to them, so it is not searched (round 22, with
        # the table move below: median misère nodes -2% to -5%).
        if not games and decl and win1 and sure_win_lead(s, c):
            continue
        s.hand[leader] ^= (<uint32_t>1) << c
        if games:
            a = play(s, SEAT3[leader + 1], 2, c >> 3, c, leader, (<uint32_t>1) << c, target)
        else:
            a = play_misere(s, SEAT3[leader + 1], 2, c >> 3, c, leader, (<uint32_t>1) << c, target)
        s.hand[leader] ^= (<uint32_t>1) << c
        r = (a >> 32) != 0
        if r == maxnode:
            acc = <uint32_t>a
            best[0] = relative_move(s, c)
            if games:
                s.killer[leader][left][target] = c      # read by games only (reset each solve)
            # Misère: a lead's cut-off weighs 8x a follow's with as many
            # cards (round 8, with the fitted orders: -5% misère nodes,
            # -7% best-of-66 misère against 2x).
            add_history(s, leader, c, 4 * left if games else (<uint32_t>1) << (left + 3))
            break
        acc |= <uint32_t>a
        if games:
            lw_skip |= lowest_win_mask(acc, c)
    return answer(r, acc)


cdef uint64_t game_start(Search* s, int leader, int target, int left) noexcept nogil:
    """A trick start of a game (at least two cards each): bounds, the pattern
    table, then the leads.

    The answer relies on the cards it returns: it holds for every position
    with the same leader, context and suit lengths in each hand, in which
    each suit's cards at or above its lowest returned card are held as here
    (the cards below are interchangeable small cards). A trick decided by
    rank adds the highest card the winner beat (play); a bound adds the cards
    it read; a search adds its children's cards (the cut-off child's alone,
    or every child's). The table stores each bound with these cards only, so
    one entry serves all such positions (the "winning ranks" of bridge
    solvers).
    """
    cdef uint64_t key, shape, a
    cdef uint8_t ctx = s.ctx_base | <uint8_t>leader
    cdef uint16_t lens
    cdef int n, i, k, d_sure, f_sure, n_side, x = -1, first = -1, best = 255
    cdef int p_sure = 0, d_side = 0, f_side = 0, t1 = 0, t2 = 0
    cdef uint32_t tm, dt = 0, f1 = 0, f2 = 0, tops, ptops = 0, qs, pqs = 0, cr, won = 0
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    cdef uint32_t cnt[3]       # each hand's byte_counts, for the key, the shape and the bounds
    cdef PEntry* pb
    # The table probe is the slowest load of a node: start it now and compute
    # the bounds while it is on its way. (Before round 10 the bucket was rarely
    # in the nearer caches and perf put ~25% of the samples on it; with the
    # table in L2 it still pays: the quick tricks checked before the key save
    # 1.4% of the instructions but cost 3.5% time.)
    # Each hand's suit lengths, counted once here for the key, the shape and
    # both quick_tricks (round 10: -5% game instructions).
    cnt[0] = byte_counts(s.hand[0])
    cnt[1] = byte_counts(s.hand[1])
    cnt[2] = byte_counts(s.hand[2])
    key = position_key(s, cnt[0] + cnt[1] + cnt[2], &lens)
    shape = position_shape(s, lens, ctx, cnt)
    pb = pt_bucket(s, shape)
    for i in range(0, <int>(PBUCKET * sizeof(PEntry)), 64):
        ps_prefetch((<char*>pb) + i)
    # Sure tricks bound the value: the side on lead cashing its winners, and
    # each side's trump tricks (see sure_trump_tricks; measured -4% analyzer
    # and -7% random best-of-66 game nodes against counting only the
    # trumps above all of the other side's).
    n = quick_tricks(s, leader, cnt, &n_side, &tops, &qs)
    # The leader's own sure tricks decide most bounded positions; next the
    # table (its bucket has arrived by now), and only then the dearer
    # bounds (round 7: game time -2 to -3%, the same nodes).
    k = target if leader == s.declarer else left - target + 1     # his side's tricks needed
    if n >= k:
        return answer(leader == s.declarer, quick_cards(tops, qs, k))
    i = pt_lookup(s, pb, key, shape, target, &first, &cr)
    if i >= 0:
        return answer(i == 1, cr)
    d_sure = 0
    f_sure = 0
    if leader == s.declarer:
        d_sure = n
    else:
        f_sure = n
        # Or he puts his partner on lead, who cashes his sure tricks.
        if n < target:
            x = entry_to_partner(s, leader)
            if x >= 0:
                p_sure = quick_tricks(s, 3 - leader - s.declarer, cnt, &k, &ptops, &pqs)
                if p_sure > f_sure:
                    f_sure = p_sure
    if s.trump >= 0:
        tm = SUIT_MASK[s.trump]
        dt = s.hand[s.declarer] & tm
        f1 = s.hand[SEAT3[s.declarer + 1]] & tm
        f2 = s.hand[SEAT3[s.declarer + 2]] & tm
        # The side on lead may first cash its side-suit winners: nobody
        # plays a trump meanwhile, so the trump tricks come on top.
        d_side = n_side if leader == s.declarer else 0
        f_side = n_side - d_side
        i = trump_tricks(s, dt, f1 | f2) + d_side
        if i > d_sure:
            d_sure = i
        t1 = trump_tricks(s, f1, dt) + f_side
        t2 = trump_tricks(s, f2, dt) + f_side
        if t1 > f_sure:
            f_sure = t1
        if t2 > f_sure:
            f_sure = t2
    if d_sure >= target:
        return answer(True, trump_region(s, dt, f1 | f2, target - d_side) | (tops if d_side else 0))
    if left - f_sure < target:
        k = left - target + 1         # the defence's tricks needed
        if p_sure >= k:
            # The entry relies on the partner's highest card of its suit
            # alone: the leader's lower card and all the declarer's lie
            # below it.
            return answer(False, quick_cards(ptops, pqs, k)
                          | ((<uint32_t>1) << ps_msb(s.hand[3 - leader - s.declarer] & SUIT_MASK[x])))
        if t1 >= k:
            return answer(False, trump_region(s, f1, dt, k - f_side) | (tops if f_side else 0))
        return answer(False, trump_region(s, f2, dt, k - f_side) | (tops if f_side else 0))
    # Counting bounds (round 11, DDS's "later tricks" taken further): how
    # often the side that must win tricks can be made to lead the suits where
    # the other side holds top cards. Contracts -19% median nodes.
    if target == left:
        cr = defence_wins_one(s, cnt)
        if cr:
            return answer(False, cr)
    if leader != s.declarer:
        if s.trump < 0 or not (alive & ~s.hand[s.declarer] & SUIT_MASK[s.trump]):
            cr = declarer_sure_tricks(s, cnt, target)
        else:
            cr = declarer_first_tops(s, cnt, target)
        if cr:
            return answer(True, cr)
        won = declarer_wins_bytes(s, leader)
    a = search_leads(s, leader, target, left, absolute_move(s, first) if first >= 0 else -1,
                     alive, &best, True, False, False, won, cnt)
    # Store only the bound just proven: another entry's bound may rely on
    # other cards.
    if (a >> 32) != 0:
        pt_store(s, pb, key, relevance_mask(<uint32_t>a, alive), shape, target, left, best)
    else:
        pt_store(s, pb, key, relevance_mask(<uint32_t>a, alive), shape, 0, target - 1, best)
    return a


cdef uint64_t exact_start(Search* s, int leader, int target, int left) noexcept nogil:
    """exact_start_t in two copies, one for the counted player on lead and
    one for an opponent: who leads is tested once, not in each test."""
    if leader == s.declarer:
        return exact_start_t(s, leader, target, left, True)
    return exact_start_t(s, leader, target, left, False)


cdef inline uint64_t exact_start_t(Search* s, int leader, int target, int left,
                                   bint decl) noexcept nogil:
    """A trick start of misère or all-pass (at least five cards each: fewer
    are read from the solved endings): the exact take-all decision when the
    others need every trick, else bounds, the exact table, a sure exit of
    the counted player's when he is on lead
    (sure_exit_lead), the leads refuted without search (see lead_refuted),
    then the other leads. Their bounds read whole suits, so patterns
    would rarely serve other positions (measured: no fewer nodes): the
    answers count as relying on every card."""
    cdef uint64_t key, a
    cdef uint8_t ctx = s.ctx_base | <uint8_t>leader
    cdef uint16_t lens
    cdef int lo = 0, hi = left, first = -1, best = 255, c
    cdef uint32_t alive = s.hand[0] | s.hand[1] | s.hand[2]
    cdef Entry* e
    cdef Entry* b
    if target == left:
        return answer(no_exit(s, leader) if decl else all_forced_off(s, leader), alive)
    key = position_key(s, byte_counts(alive), &lens)
    b = tt_bucket(s, key, lens, ctx)
    ps_prefetch(b)
    # never_wins first (the cheapest test off lead, and it cannot hold with
    # no_exit or must_win_now, so the order changes no answer).
    if (never_wins_on(s) if decl else never_wins_off(s)):
        return answer(False, alive)     # he takes none, and target >= 1
    if decl and no_exit(s, leader):
        return answer(True, alive)      # he takes all `left` >= target tricks
    if target == 1:
        if must_win_now(s, leader):
            return answer(True, alive)
    e = tt_probe(b, key, lens, ctx)
    if e != NULL:
        lo = e.lo
        hi = e.hi
        if lo >= target:
            return answer(True, alive)
        if hi < target:
            return answer(False, alive)
        if e.move != 255:
            first = absolute_move(s, e.move)
    # He is on lead with one card that breaks never_wins' matching and a
    # sure exit to follow it: at most one trick (one_excess_exit).
    if decl and target >= 2:
        c = one_excess_exit(s)
        if c >= 0:
            tt_store(s, b, e, key, lens, ctx, left, lo, 1, relative_move(s, c))
            return answer(False, alive)
    # He is on lead and they need all tricks but one: a sure exit after which
    # they cannot force every trick settles it without search (round 13,
    # with the same test inside lead_refuted: -20% misère nodes, -3%
    # instructions, -3 to -8% time in blocks).
    if decl and target == left - 1 and left >= 3:
        c = sure_exit_lead(s, target, left)
        if c >= 0:
            tt_store(s, b, e, key, lens, ctx, left, lo, target - 1, relative_move(s, c))
            return answer(False, alive)
    # An opponent on lead: each lead of his is refuted without search just
    # before it would be searched (lead_refuted), from never_wins, the
    # take-all test, a bound the table holds for the start after the trick,
    # and so on; if every lead is, so is this start (round 9, one short of
    # all: -26% misère nodes, -12% time; round 11, further from all: -24%
    # median misère nodes, -7% instructions, -5 to -7% time). Before each
    # lead rather than all at once, since a lead that cuts off ends the loop
    # (round 17, one short of all too).
    a = search_leads(s, leader, target, left, first, alive, &best, False,
                     not decl and left >= 3, decl, 0, NULL)
    if (a >> 32) != 0:
        lo = target
    else:
        hi = target - 1
    tt_store(s, b, e, key, lens, ctx, left, lo, hi, best)
    return answer((a >> 32) != 0, alive)


cdef inline uint64_t trick_start(Search* s, int leader, int target) noexcept nogil:
    """A normal trick start: the answers that need no search, then the
    game's or the misère's own start."""
    cdef int left = ps_popcount(s.hand[leader])
    cdef uint32_t cr
    cdef bint r
    if target <= 0:
        return answer(True, 0)
    if target > left:
        return answer(False, 0)
    if left == 1:
        s.nodes += 1
        r = (last_trick(s, leader, &cr) == s.declarer) >= target
        return answer(r, cr)
    if s.decl_max:
        return game_start(s, leader, target, left)
    if left <= 4:
        # Two to four cards each: the solved ending (ENDINGS, ENDINGS4).
        s.nodes += 1
        return answer(ending_tricks(s, leader, left) >= target, 0)
    return exact_start(s, leader, target, left)


# ---------------------------------------------------------------------------
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
# bench/fit_game_guess.py write them).
cdef extern from "_misere_guess.h":
    const int16_t PS_MISERE_GUESS[9844]
cdef extern from "_game_guess.h":
    const int8_t PS_GAME_GUESS[78734]


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

    Games: the same kind of fit, from 2,000,000 random games
    (bench/fit_game_guess.py): a weight per suit for its layout, from a
    table for the trump suit, one for no-trump suits and six for side suits
    by the declarer's trump count (0-5 or more), and one per no-trump or
    trumps and who leads, in 40ths of a trick, plus one trick, rounded
    down. It is the value or one above for 92% of games held out from the
    fit, against 70-72% for round 7's formula (the declarer's top cards,
    points 4-3-2-1, trump lengths). Round 23, the bench's contracts (seed
    2026): median nodes -6.1% (-4.0% and -1.6% on seeds 2027 and 9),
    engine instructions -1.1%, median of the per-deal times 0.955-0.981
    of the formula's (seed 2027: 0.982); a deal whose guess does not
    change runs about 1% slower in this build (code layout).

    Misère: a fitted weight per suit for its layout (suit_layout) and one
    for who leads, from 600,000 random misères (bench/fit_misere_guess.py),
    plus one trick, rounded down. The driver needs two probes when the
    guess is the value or one above it: this guess is one of those for 78%
    of misères held out from the fit, against about 50% for round 15's
    formula (a fit on three counts per suit). Round 23, on the bench's
    1,000 misères (seed 2027): median nodes -8.6% (-2.1% and -10.0% on
    seeds 2026 and 9), engine instructions -2.3% (300 misères), per-deal
    median time 0.974-0.986 of round 22's. The probes it saves revisit
    positions that the table already holds, so they were cheap nodes.
    """
    cdef uint32_t h = s.hand[s.declarer]
    cdef uint32_t o1 = s.hand[SEAT3[s.declarer + 1]], o2 = s.hand[SEAT3[s.declarer + 2]]
    cdef int x, g, side
    if not s.decl_max:
        g = PS_MISERE_GUESS[9841 + (leader - s.declarer + 3) % 3] + 1000
        for x in range(4):
            g += PS_MISERE_GUESS[suit_layout((h >> (8 * x)) & 0xFF, (o1 >> (8 * x)) & 0xFF,
                                             (o2 >> (8 * x)) & 0xFF)]
        return g // 1000 if g > 0 else 0
    if s.trump < 0:
        g = PS_GAME_GUESS[78731 + (leader - s.declarer + 3) % 3] + 40
        for x in range(4):
            g += PS_GAME_GUESS[9841 + suit_layout((h >> (8 * x)) & 0xFF, (o1 >> (8 * x)) & 0xFF,
                                                  (o2 >> (8 * x)) & 0xFF)]
        return g // 40 if g > 0 else 0
    side = suit_count(h, s.trump)
    side = 19682 + 9841 * (side if side < 5 else 5)
    g = PS_GAME_GUESS[78728 + (leader - s.declarer + 3) % 3] + 40
    for x in range(4):
        g += PS_GAME_GUESS[(0 if x == s.trump else side)
                           + suit_layout((h >> (8 * x)) & 0xFF, (o1 >> (8 * x)) & 0xFF,
                                         (o2 >> (8 * x)) & 0xFF)]
    return g // 40 if g > 0 else 0


cdef int root_value_from(Search* s, Root* rt, int lo, int hi, int guess) noexcept nogil:
    """Exact value in [lo, hi] by probes stepping from ``guess`` towards it:
    two probes when the guess is right, one more per trick it is off.
    Measured with guess_tricks against bisection on random deals: contracts
    -10% median nodes and -12% median time, misères -14% median nodes and
    -12% median time (bench/README.md, round 7)."""
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
        # what costs is the probes that miss the per-core L2 cache (512 KiB
        # here), since one table is used solve after solve. Round 10, at 1 MiB
        # (against 512 KiB each): a 128 KiB pattern table, contracts -10% time
        # (+1% mean nodes) and best-of-66 games -4%; a 256 KiB exact table,
        # misère -4% time and full tables -9% (+2% nodes). A single solve
        # uses half of the exact table (see _setup).
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
        # half the table they sit in fewer lines (round 18, misère 0.962-0.998
        # of the time in blocks of 200 deals, four seeds; 0.925 and 0.973 in
        # two sets of twelve alternated processes), while the discards'
        # searches share much more (their heaviest full tables took +26%
        # nodes in 128 KiB). An entry holds its whole key, so a bucket found
        # under either mask is exact.
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
        # Measured on random deals: in misère the static heuristic is weak and
        # history ordering saves ~30% of nodes; in games it only breaks ties.
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
        # of short suits (measured: -3 to -9% game nodes, -8 to -23% misère
        # nodes against ordering by rank alone).
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


def machine_probe(uint64_t rounds):
    """Run ``rounds`` rounds of a plain compute loop without the GIL.

    No search: the bench times it on one thread and on all cores to gauge
    what the host gives parallel threads at the moment (see ps_spin).
    Returns a sum of the loop's results (it shows that the loop ran; what
    keeps the compiler from skipping the loop is in ps_spin)."""
    cdef uint64_t r
    with nogil:
        r = ps_spin(rounds)
    return r


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
