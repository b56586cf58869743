# The exact end of a game: every line searched to the end, at C level over the engine's C API
# (ekonos/_core.pxd).  Only for a position whose rest is fully known to the seat that asks
# (search/exact.py decides when): no hidden card can be played any more, so one world, and the
# value of each move is exact, given how the other seats decide (max^n: each decider takes the
# move best for itself by win share, then by its own final score, then the first in the
# engine's order).

from libc.string cimport memcpy

from ekonos._core cimport EkState, CoreState, ek_legal, ek_apply, MAX_LEGAL, MAXP, STEP_OVER
from search._playout cimport outcome, REWARD_WIN

cdef enum:
    MAX_LINE = 64              # decisions of a line to the end (a last turn has about ten)


cdef struct Budget:
    long nodes                 # positions visited so far
    long limit                 # give up past this many
    int over                   # set once the limit is passed: every frame unwinds


cdef inline void leaf(const EkState* s, double* win, double* score) noexcept nogil:
    """Each seat's win share (ties split, R20) and final score in a finished game."""
    cdef double unused[MAXP]
    outcome(s, REWARD_WIN, 0.0, 1.0, unused, win, score)


cdef int solve(const EkState* s, Budget* b, double* win, double* score, int* line) noexcept nogil:
    """The value of `s` for every seat (win, score) under max^n, and its line (`line`, the
    decisions from `s` to the end; returns its length, or -1 once the budget is over)."""
    cdef int legal[MAX_LEGAL]
    cdef int child_line[MAX_LINE]
    cdef double cw[MAXP]
    cdef double cs[MAXP]
    cdef int n, i, k, mover, length = 0, best = -1
    cdef EkState c
    b.nodes += 1
    if b.nodes > b.limit:
        b.over = 1
        return -1
    if s.step == STEP_OVER:
        leaf(s, win, score)
        return 0
    mover = s.to_move
    n = ek_legal(s, legal)
    for i in range(n):
        c = s[0]
        ek_apply(&c, legal[i])
        k = solve(&c, b, cw, cs, child_line)
        if k < 0 or k + 1 > MAX_LINE:
            b.over = 1
            return -1
        if best < 0 or cw[mover] > win[mover] or \
                (cw[mover] == win[mover] and cs[mover] > score[mover]):
            best = legal[i]
            memcpy(win, cw, MAXP * sizeof(double))
            memcpy(score, cs, MAXP * sizeof(double))
            line[0] = best
            memcpy(line + 1, child_line, k * sizeof(int))
            length = k + 1
    if best < 0:                          # no legal decision: the position is not one to solve
        b.over = 1
        return -1
    return length


def solve_root(CoreState view, int seat, long limit):
    """Per legal decision of the seat to move in `view`: (action, the seat's win share, its
    final score, the line after it as actions), every line to the end; None when more than
    `limit` positions would be visited.  `view` must be a position whose rest needs no
    unknown card (search/exact.py checks it)."""
    cdef int legal[MAX_LEGAL]
    cdef int line[MAX_LINE]
    cdef double win[MAXP]
    cdef double score[MAXP]
    cdef int n, i, k
    cdef EkState c
    cdef Budget b
    if view.s.step == STEP_OVER:
        raise ValueError("the game is over")
    if not 0 <= seat < view.s.nplayers:
        raise IndexError(f"seat {seat} is not a seat of this position")
    b.nodes = 0
    b.limit = limit
    b.over = 0
    n = ek_legal(&view.s, legal)
    out = []
    for i in range(n):
        c = view.s
        with nogil:
            ek_apply(&c, legal[i])
            k = solve(&c, &b, win, score, line)
        if k < 0 or b.over:
            return None
        out.append((legal[i], win[seat], score[seat], [line[j] for j in range(k)]))
    return out, b.nodes
