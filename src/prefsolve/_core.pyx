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

# One C translation unit built from parts, in this order (each part says
# what it holds and the invariants it keeps). The order is the order of
# the generated C: later parts call earlier ones, and Cython resolves the
# few forward references (the endings read the search state, play and
# trick_start call each other).
include "_bits.pxi"         # cards as bits: C helpers, per-suit lookup tables
include "_endings.pxi"      # misère and all-pass endings of 1-4 cards, solved once
include "_state.pxi"        # the search state (struct Search)
include "_tt.pxi"           # transposition tables: exact and pattern entries
include "_order.pxi"        # move ordering: static scores, fitted misère scores, history
include "_play.pxi"         # the cards of a trick: play, play_misere, next_trick
include "_bounds.pxi"       # bounds without search: quick tricks, misère refutations
include "_start.pxi"        # trick starts: bounds, the tables, the leads
include "_driver.pxi"       # roots, first guesses and the null-window driver
include "_solver.pxi"       # the Solver class: Python's entry to the search
