/* The bench's machine probe (prefsolve._probe.machine_probe).

   Eight independent sums a round, more additions than a core has integer
   units, so that the loop keeps them all busy and slows down when
   something else takes them, as the search does. The empty asm keeps
   every sum in a register and stops the loop from being folded or
   vectorised; it needs eight 64-bit registers, so other compilers and
   targets get eight xorshift chains instead (as wide, but a different
   loop). The result depends on n, so the loop cannot be skipped. */
#ifndef PREFSOLVE_PROBE_H
#define PREFSOLVE_PROBE_H

#include <stdint.h>

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

#endif /* PREFSOLVE_PROBE_H */
