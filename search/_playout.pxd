# Playouts and their outcome, shared by the tree search and flat Monte Carlo (search/_ismcts.pyx
# cimports them): a determinized game is played to its end by a policy, then scored per seat.
#
# - POLICY_RANDOM: uniform over legal actions (the engine's ek_random_playout).
# - POLICY_LIGHT: a cheap greedy with epsilon-random moves (`light_action`).
# - `outcome`: per seat the win share (ties split, R20), the final score and the reward the tree
#   maximises (win share, score margin through tanh, or a blend).
#
# Everything is inline, nogil and noexcept, and allocates nothing (like ekonos/_bits.pxd, the code
# compiles into the module that cimports it).  Engine constants come from _core.pxd.

from libc.math cimport tanh
from libc.stdint cimport uint64_t

from ekonos._bits cimport popcount, ctz, select_bit
from ekonos._core cimport (EkState, EkTables, ek_legal, ek_apply, ek_score, ek_count_legal,
                           ek_nth_legal, ek_column, ek_tables, ek_random_playout,
                           ek_empty_spaces, ek_xplace_mask, rng_next, rng_below,
                           NSPACES, NCOMP, MAX_LEGAL, CARD_SUBS, MAX_TILES,
                           STEP_CARD, STEP_EXPAND_CHOICE, STEP_EXPAND, STEP_SELL, STEP_BUY,
                           STEP_OVER, A_CARD, A_EXPAND, A_WAIT, A_XPLACE, A_XPROTECT, A_XSTOP,
                           A_SELL, A_SELL_PASS, A_BUY, A_BUY_PASS)

cdef enum:
    SUB_PROTECT = NSPACES               # a card's sub-actions: place 0.., protect SUB_PROTECT..,
    SUB_GROW = 2 * NSPACES              # grow a bottom company SUB_GROW + k (_core.pxd)
    CARD_BOTTOMS = 2                    # bottom companies per card (EkTables.card_bot)
    GROWTH_CHOICE = 4                   # R11: a track reaching 4 offers an expansion,
    GROWTH_FORCED = 6                   # reaching 6 forces one (ek_apply)
    KIND_PLACE = 0                      # light_action's card-turn candidates: place a tile,
    KIND_PROTECT = 1                    # protect one, or grow bottom k (KIND_GROW + k)
    KIND_GROW = 2
    REWARD_WIN = 0
    REWARD_SCORE = 1
    REWARD_BLEND = 2
    POLICY_RANDOM = 0
    POLICY_LIGHT = 1

cdef extern from *:
    """
    #define LIGHT_EPS 0.1   /* the light playouts' rate of uniformly random moves (`eps`) */
    """
    const double LIGHT_EPS


cdef inline void outcome(const EkState* d, int kind, double blend, double scale,
                         double* reward, double* win, double* score) noexcept nogil:
    """Per seat: win share (ties split, R20), final score, and the reward used by the tree."""
    cdef int q, n = d.nplayers, nbest = 0
    cdef double best = -1e9
    for q in range(n):
        score[q] = ek_score(d, q)
        if score[q] > best:
            best = score[q]
            nbest = 1
        elif score[q] == best:
            nbest += 1
    for q in range(n):
        win[q] = (1.0 / nbest) if score[q] == best else 0.0
    rewards(n, kind, blend, scale, win, score, reward)


cdef inline void rewards(int n, int kind, double blend, double scale, const double* win,
                         const double* score, double* reward) noexcept nogil:
    """Per seat the reward the tree maximises, from its win share and (expected) final score:
    the win share, the score margin over the best opponent through tanh, or a blend."""
    cdef int q, o
    cdef double other, sv
    for q in range(n):
        if kind == REWARD_WIN:
            reward[q] = win[q]
            continue
        other = -1e300
        for o in range(n):
            if o != q and score[o] > other:
                other = score[o]
        sv = 0.5 + 0.5 * tanh((score[q] - other) / scale)   # margin over the best opponent
        reward[q] = sv if kind == REWARD_SCORE else (1.0 - blend) * win[q] + blend * sv


cdef inline double unit(uint64_t* rng) noexcept nogil:
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int pick_bit(uint64_t m, uint64_t* rng) noexcept nogil:
    """A uniformly random set bit of a non-zero mask."""
    return select_bit(m, rng_below(rng, popcount(m)))


cdef inline double stake(const EkState* d, int p, int c) noexcept nogil:
    """How much seat p gains when company c gains a tile: its shares minus half the largest
    holding of another seat (helping a rival's company is worth less)."""
    cdef int q, other = 0
    for q in range(d.nplayers):
        if q != p and d.shares[q][c] > other:
            other = d.shares[q][c]
    return d.shares[p][c] - 0.5 * other


cdef inline double share_worth(const EkState* d, int c, double left) noexcept nogil:
    """Expected final value of one share of c: its tiles now plus what its track promises."""
    return popcount(d.tiles[c]) + left * (1.0 + 0.5 * d.growth[c])


cdef inline int light_action(EkState* d, uint64_t* rng, double eps) noexcept nogil:
    """Informed playout policy (a cheap greedy with epsilon-random moves).  Card turn: score each
    (card, top action | growth) by the mover's stake in the company, pick the best with a little
    noise, then a random space.  A growth to 4: expand.  Expansion: place, else protect.  Sell
    when the column pays more than a share is worth; buy the share worth most over its price."""
    cdef const EkTables* T = ek_tables()
    cdef int p = d.to_move, card, t, b, c, q, k, n, best_a = -1, col
    cdef uint64_t hm, empty, m
    cdef double v, best_v = -1e300, left
    cdef int buf[MAX_LEGAL]
    if unit(rng) < eps:
        n = ek_count_legal(d)
        return ek_nth_legal(d, rng_below(rng, n))
    left = (T.rounds[d.nplayers] - d.round + 1.0) / T.rounds[d.nplayers]
    if d.step == STEP_CARD:
        empty = ek_empty_spaces(d)
        hm = d.hand[p]
        while hm:                                   # best_a: card * CARD_SUBS + KIND_*
            card = ctz(hm)
            hm &= hm - 1
            t = T.card_top[card]
            if empty and popcount(d.tiles[t]) < MAX_TILES:
                v = stake(d, p, t) + 0.3 * unit(rng)
                if v > best_v:
                    best_v = v
                    best_a = card * CARD_SUBS + KIND_PLACE
            if d.tiles[t] & ~d.protected:
                v = 0.2 * stake(d, p, t) + 0.3 * unit(rng)
                if v > best_v:
                    best_v = v
                    best_a = card * CARD_SUBS + KIND_PROTECT
            for k in range(CARD_BOTTOMS):
                b = T.card_bot[card][k]
                v = 0.35 * stake(d, p, b) * left
                if d.growth[b] + 1 == GROWTH_CHOICE or d.growth[b] + 1 == GROWTH_FORCED:
                    # this growth triggers an expansion
                    v += stake(d, p, b) * (1.5 if d.growth[b] + 1 == GROWTH_FORCED else 1.0)
                v += 0.3 * unit(rng)
                if v > best_v:
                    best_v = v
                    best_a = card * CARD_SUBS + KIND_GROW + k
        card = best_a // CARD_SUBS
        k = best_a - card * CARD_SUBS
        if k == KIND_PLACE:                         # place on a random empty space
            return A_CARD + card * CARD_SUBS + pick_bit(empty, rng)
        if k == KIND_PROTECT:                       # protect a random unprotected tile
            return (A_CARD + card * CARD_SUBS + SUB_PROTECT
                    + pick_bit(d.tiles[T.card_top[card]] & ~d.protected, rng))
        return A_CARD + card * CARD_SUBS + SUB_GROW + (k - KIND_GROW)
    if d.step == STEP_EXPAND_CHOICE:
        return A_EXPAND
    if d.step == STEP_EXPAND:
        c = d.xcompany
        m = ek_xplace_mask(d)
        if m:
            return A_XPLACE + pick_bit(m, rng)
        m = d.tiles[c] & ~d.protected
        if m:
            return A_XPROTECT + pick_bit(m, rng)
        return A_XSTOP
    if d.step == STEP_SELL:
        for c in range(NCOMP):
            if d.shares[p][c] > 0:
                col = ek_column(d, c)
                v = col - share_worth(d, c, left)
                if v > 1.0 and v > best_v:
                    best_v = v
                    best_a = A_SELL + c
        return best_a if best_a >= 0 else A_SELL_PASS
    if d.step == STEP_BUY:
        n = ek_legal(d, buf)
        for k in range(n - 1):                                      # the pass is last
            c = buf[k] - A_BUY
            v = share_worth(d, c, left) - (ek_column(d, c) + 1) + 0.5 * unit(rng)
            if v > best_v:
                best_v = v
                best_a = buf[k]
        return best_a if best_v > -0.5 else A_BUY_PASS
    n = ek_count_legal(d)
    return ek_nth_legal(d, rng_below(rng, n))


cdef inline int playout(EkState* d, int policy, uint64_t* rng, int cut,
                        double eps=LIGHT_EPS) noexcept nogil:
    """Play with the given policy to the end, or (cut > 0) until round `cut` begins; returns
    the decisions made.  `eps`: the light policy's rate of uniformly random moves."""
    cdef int made = 0
    if policy == POLICY_RANDOM and cut == 0:
        return ek_random_playout(d, rng)
    while d.step != STEP_OVER and (cut == 0 or d.round < cut):
        if policy == POLICY_RANDOM:
            ek_apply(d, ek_nth_legal(d, rng_below(rng, ek_count_legal(d))))
        else:
            ek_apply(d, light_action(d, rng, eps))
        made += 1
    return made
