/* C helpers of prefsolve._core (declared in _bits.pxi and _tt.pxi).

   Portable bit operations on 32-bit card masks, a cache prefetch hint,
   the table's hash and tag loads, the suit masks, and the out-of-line and
   inlined copies of some search functions. Every function here is static
   and free of side effects on the search state. */
#ifndef PREFSOLVE_CORE_HELPERS_H
#define PREFSOLVE_CORE_HELPERS_H

#include <stdint.h>
#include <string.h>

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

/* The lowest and the highest set bit of a non-zero mask. */
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
static inline uint32_t ps_entry_tag(const void* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint16_t lens; memcpy(&lens, p, 2);
    return lens | ((uint32_t)((const uint8_t*)p)[2] << 16);
#else
    uint32_t v; memcpy(&v, p, 4); return v & 0xFFFFFFu;
#endif
}

/* A 64-bit finaliser (splitmix64) to spread table keys over buckets. */
static inline uint64_t ps_mix(uint64_t key, uint32_t ctx) {
    uint64_t h = key ^ ((uint64_t)ctx * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ULL; h ^= h >> 29;
    return h;
}

/* SUIT_MASK[x]: the cards of suit x. SEAT3[i] == i % 3 for i in 0..4: the
   seat k places after a seat, without a division. Both are C constants,
   so that the compiler folds a constant index into an immediate operand
   instead of loading a global. */
static const uint32_t SUIT_MASK[4] = {0x000000FFu, 0x0000FF00u, 0x00FF0000u, 0xFF000000u};
static const int SEAT3[5] = {0, 1, 2, 0, 1};

/* Functions kept out of line, declared here under the names Cython gives
   them (module prefsolve._core, whichever .pxi defines them): GCC inlines
   a static function called once, and these are the rare, large parts of
   small hot functions. Renaming one needs its name changed here too; a
   stale name only costs speed (GCC warns "declared static but never
   defined"). */
struct __pyx_t_9prefsolve_5_core_Search;
#if defined(__GNUC__)
static int __pyx_f_9prefsolve_5_core_all_forced_tail(struct __pyx_t_9prefsolve_5_core_Search *, int, uint32_t) __attribute__((noinline));
static int __pyx_f_9prefsolve_5_core_escapes_probe_decl(struct __pyx_t_9prefsolve_5_core_Search *, int, int) __attribute__((noinline));
static int __pyx_f_9prefsolve_5_core_escapes_probe_def(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int) __attribute__((noinline));
static int __pyx_f_9prefsolve_5_core_all_forced_off(struct __pyx_t_9prefsolve_5_core_Search *, int) __attribute__((noinline));
static int __pyx_f_9prefsolve_5_core_lead_refuted_all(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int) __attribute__((noinline));
static int __pyx_f_9prefsolve_5_core_lead_refuted_short(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int) __attribute__((noinline));
/* Copies specialised by an argument that is constant at each call
   (always_inline), so that the tests on it vanish: lead_refuted's body in
   its two versions above (whether the next trick start is one short of
   all), search_leads, and exact_start's body in exact_start's two (who is
   on lead). */
static inline int __pyx_f_9prefsolve_5_core_lead_refuted_i(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int, int) __attribute__((always_inline));
static inline uint64_t __pyx_f_9prefsolve_5_core_search_leads(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int, uint32_t, int *, int, int, int, uint32_t, uint32_t *) __attribute__((always_inline));
static inline uint64_t __pyx_f_9prefsolve_5_core_exact_start_t(struct __pyx_t_9prefsolve_5_core_Search *, int, int, int, int) __attribute__((always_inline));
static uint32_t __pyx_f_9prefsolve_5_core_run_tops_call(uint32_t, uint32_t) __attribute__((noinline));
#endif

#endif /* PREFSOLVE_CORE_HELPERS_H */
