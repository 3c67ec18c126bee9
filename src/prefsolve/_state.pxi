# The search state: one struct per Solver, passed by pointer to every
# search function (no globals change during a search, so solvers in
# different threads share nothing but the constant tables).
#
# Invariants while a search runs:
# * hand[s] are the cards seat s still holds; cards played in finished
#   tricks are gone, the current trick's cards are in the callers' ``table``
#   mask. A function that plays a card restores the hand before returning.
# * talon[talon_pos:n_talon] are the talon cards still to lead tricks
#   (all-pass), in order; next_trick advances talon_pos and restores it.
# * declarer, trump, decl_max and ctx_base are fixed for a solve; ctx_base
#   holds what a table entry's context needs besides the leader.
# * hist and killer only order moves: no answer depends on them.

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
