# Trick starts: the answers that need no search, the tables, then the leads.
#
# game_start (games) and exact_start (misère, all-pass, five cards or more
# each) test the bounds, probe their table, search the leads
# (search_leads) and store the bound just proven; trick_start dispatches,
# reading two to four cards each from the solved endings.
#
# Invariants: a start's answer is "tricks from here >= target" for the
# position with this leader; a game's answer holds for every position with
# the same leader, context and suit lengths per seat that agrees on the
# cards it returns (the pattern semantics of game_start); a misère answer
# relies on every card.

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
    # left and the same target (a "killer"; misère does without: it costs
    # nodes there).
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
        # trick and then cashes enough is not searched. Tested when its
        # first lead comes up, since a lead that cuts off ends the loop and
        # the tests of the suits after it are then never needed.
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
        # the trick gives it to them, so it is not searched.
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
            # cards (the fitted orders read the history in levels).
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
    # the bounds while it is on its way (the key is computed before the
    # quick tricks for that reason, though they often answer alone).
    # Each hand's suit lengths, counted once here for the key, the shape and
    # both quick_tricks.
    cnt[0] = byte_counts(s.hand[0])
    cnt[1] = byte_counts(s.hand[1])
    cnt[2] = byte_counts(s.hand[2])
    key = position_key(s, cnt[0] + cnt[1] + cnt[2], &lens)
    shape = position_shape(s, lens, ctx, cnt)
    pb = pt_bucket(s, shape)
    for i in range(0, <int>(PBUCKET * sizeof(PEntry)), 64):
        ps_prefetch((<char*>pb) + i)
    # Sure tricks bound the value: the side on lead cashing its winners, and
    # each side's trump tricks (see sure_trump_tricks: a matching, tighter
    # than counting only the trumps above all of the other side's).
    n = quick_tricks(s, leader, cnt, &n_side, &tops, &qs)
    # The leader's own sure tricks decide most bounded positions; next the
    # table (its bucket has arrived by now), and only then the dearer
    # bounds (the order changes the time, never the answer).
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
    # Counting bounds (DDS's "later tricks" taken further): how often the
    # side that must win tricks can be made to lead the suits where the
    # other side holds top cards.
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
    would rarely serve other positions (they save no nodes here): the
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
    # they cannot force every trick settles it without search (the same
    # test serves lead_refuted one trick ahead).
    if decl and target == left - 1 and left >= 3:
        c = sure_exit_lead(s, target, left)
        if c >= 0:
            tt_store(s, b, e, key, lens, ctx, left, lo, target - 1, relative_move(s, c))
            return answer(False, alive)
    # An opponent on lead: each lead of his is refuted without search just
    # before it would be searched (lead_refuted), from never_wins, the
    # take-all test, a bound the table holds for the start after the trick,
    # and so on; if every lead is, so is this start. Before each lead
    # rather than all at once, since a lead that cuts off ends the loop.
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
