# MAST for spaces (Finnsson & Bjornsson 2008; playout adaptation as in Tak et al. 2012), the
# `mast` parameter of the `ismcts` bot: one search keeps, per (company, space), the mean reward
# of the seats that put that company's tile there (by a card or in an expansion) in its
# iterations; a light playout that places a tile takes, with probability `p`, the legal space of
# highest mean instead of a random one.  The table lives for one search (one decision).
#
# Inline, nogil, noexcept and allocation-free, like _playout.pxd (compiled into the module that
# cimports it).

from libc.stdint cimport uint64_t
from libc.string cimport memset

from ekonos._bits cimport ctz
from ekonos._core cimport (EkState, ek_apply, ek_tables, ek_empty_spaces, ek_xplace_mask,
                           NCOMP, NSPACES, CARD_SUBS, A_CARD, A_XPLACE, STEP_CARD, STEP_EXPAND,
                           STEP_OVER)
from search._playout cimport light_action, unit, SUB_PROTECT

cdef enum:
    MAX_PLACED = 1024                   # places logged in one iteration (a game has < 400)

ctypedef struct Mast:
    double p                            # chance of the MAST space in a playout (0: off)
    double total[NCOMP][NSPACES]        # summed rewards of the placing seats
    int count[NCOMP][NSPACES]
    int placed[MAX_PLACED]              # this iteration's places: company * NSPACES + space
    int placed_by[MAX_PLACED]           # ... and the seat that placed
    int nplaced


cdef inline void mast_clear(Mast* m) noexcept nogil:
    """An empty table (a new search)."""
    memset(m.total, 0, sizeof(m.total))
    memset(m.count, 0, sizeof(m.count))
    m.nplaced = 0


cdef inline int placed_tile(const EkState* d, int a, int* space) noexcept nogil:
    """The company whose tile action `a` places in `d` (its space in `space`), or -1 when `a`
    places none.  Card and expansion places both end in the space, so ``a - space`` is the
    action with the space left out."""
    cdef int card, sub
    if d.step == STEP_CARD:
        card = (a - A_CARD) // CARD_SUBS
        sub = a - A_CARD - card * CARD_SUBS
        if sub < SUB_PROTECT:
            space[0] = sub
            return ek_tables().card_top[card]
    elif d.step == STEP_EXPAND and A_XPLACE <= a < A_XPLACE + NSPACES:
        space[0] = a - A_XPLACE
        return d.xcompany
    return -1


cdef inline void mast_note(Mast* m, int c, int sp, int seat) noexcept nogil:
    if m.nplaced < MAX_PLACED:
        m.placed[m.nplaced] = c * NSPACES + sp
        m.placed_by[m.nplaced] = seat
        m.nplaced += 1


cdef inline void mast_log(Mast* m, const EkState* d, int a) noexcept nogil:
    """Remember the tile that action `a` places in `d`, if it places one."""
    cdef int sp, c
    if m.p > 0:
        c = placed_tile(d, a, &sp)
        if c >= 0:
            mast_note(m, c, sp, d.to_move)


cdef inline int mast_space(const Mast* m, int c, uint64_t spaces) noexcept nogil:
    """The space of the non-empty mask `spaces` with the highest mean reward for company c's
    tiles; a space never tried counts as an even result (0.5); ties go to the lowest space."""
    cdef int sp, best = -1
    cdef double v, bestv = -1.0
    while spaces:
        sp = ctz(spaces)
        spaces &= spaces - 1
        v = m.total[c][sp] / m.count[c][sp] if m.count[c][sp] else 0.5
        if v > bestv:
            bestv = v
            best = sp
    return best


cdef inline int mast_playout(Mast* m, EkState* d, uint64_t* rng, int cut) noexcept nogil:
    """A light playout (as _playout.playout, `cut` too) whose places take the MAST space with
    probability `m.p`; every place is logged.  Returns the decisions made."""
    cdef int made = 0, a, c, sp, best
    cdef bint adapt
    while d.step != STEP_OVER and (cut == 0 or d.round < cut):
        a = light_action(d, rng, 0.1)
        adapt = unit(rng) < m.p
        c = placed_tile(d, a, &sp)
        if c >= 0:
            if adapt:
                best = mast_space(m, c, ek_empty_spaces(d) if d.step == STEP_CARD
                                  else ek_xplace_mask(d))
                a += best - sp
                sp = best
            mast_note(m, c, sp, d.to_move)
        ek_apply(d, a)
        made += 1
    return made


cdef inline void mast_backup(Mast* m, const double* reward) noexcept nogil:
    """Credit this iteration's places with their seats' rewards (the log is emptied when the
    next iteration starts)."""
    cdef int i, k
    for i in range(m.nplaced):
        k = m.placed[i]
        m.total[k // NSPACES][k % NSPACES] += reward[m.placed_by[i]]
        m.count[k // NSPACES][k % NSPACES] += 1
