# A learned evaluation of a position at the start of a round (the `horizon` parameter of the
# `ismcts` bot): playouts stop when a later round begins and the position is scored by a model
# fitted on self-play games (search/learn/ fits it, search/models/ holds the shipped one).
#
# The model, per player count n and rounds left r (the round just dealt included):
# - each company's final value (R19: its tiles) is its tiles now plus a linear function of the
#   company's features (`company_features`): theta[n][r] . f(c);
# - each seat's expected final score is its coins plus its shares times those values;
# - the win shares are a softmax of the expected scores with a fitted sharpness beta[n][r]
#   (conditional logit: who wins depends only on the differences of the scores).
# At a round's start every hand has just been dealt and nothing of it is read: the features are
# public (R21), so an evaluation never sees a hand, whatever the determinization.
#
# Inline, nogil, noexcept and allocation-free, like _playout.pxd.

from libc.math cimport exp
from libc.stdint cimport uint64_t

from ekonos._bits cimport popcount, ctz
from ekonos._core cimport (EkState, EkTables, ek_tables, ek_empty_spaces, ek_column, STEP_OVER,
                           NCOMP, MAXP, MAX_TILES)
from search._playout cimport outcome, rewards

# What a model is fitted for: setup.py hashes the text between the two marker lines below
# (sha256, line endings normalised) into EK_FEATURES_HASH; a model file records the hash it was
# fitted for, and search/evaluation.py refuses a model of another.  Change a feature: retrain
# (`ekonos learn sample`, `ekonos learn fit`).
# -- features: begin --------------------------------------------------------------------------
cdef enum:
    NFEAT = 8           # company_features: see there


cdef inline void company_features(const EkState* d, int c, double* f) noexcept nogil:
    """The features of company c: 1, its tiles, its growth track, its unprotected tiles, its
    frontier (spaces next to its tiles that a tile of it could take: empty, or an unprotected
    tile of another company), the empty spaces of the map, its market column, and its exposed
    tiles (unprotected ones next to a tile of another company)."""
    cdef const EkTables* T = ek_tables()
    cdef uint64_t mine = d.tiles[c], near = 0, others = 0, m, soft, exposed = 0
    cdef int k, s
    for k in range(NCOMP):
        if k != c:
            others |= d.tiles[k]
    m = mine
    while m:
        s = ctz(m)
        m &= m - 1
        near |= T.neigh[s]
        if T.neigh[s] & others:
            exposed |= (<uint64_t>1) << s
    soft = mine & ~d.protected
    f[0] = 1.0
    f[1] = popcount(mine)
    f[2] = d.growth[c]
    f[3] = popcount(soft)
    f[4] = popcount(near & ~mine & (ek_empty_spaces(d) | (others & ~d.protected)))
    f[5] = popcount(ek_empty_spaces(d))
    f[6] = ek_column(d, c)
    f[7] = popcount(exposed & soft)
# -- features: end ----------------------------------------------------------------------------


cdef enum:
    MAX_ROUNDS = 6      # the most rounds of a game (R2, 2 players)
    MAX_BETA = 100      # the sharpest softmax a model may ask for (exp(beta * score) stays finite)


ctypedef struct EvalModel:
    double theta[MAXP + 1][MAX_ROUNDS + 1][NFEAT]   # [players][rounds left][feature]
    double beta[MAXP + 1][MAX_ROUNDS + 1]


cdef inline int rounds_left(const EkState* d) noexcept nogil:
    """Rounds still to play, the current one included."""
    return ek_tables().rounds[d.nplayers] - d.round + 1


cdef inline bint has_cell(const EvalModel* model, const EkState* d, int cut) noexcept nogil:
    """Does the model score the start of round `cut` of d's game?  (A model may leave out a
    player count: its playouts then run to the end.)"""
    cdef int r = ek_tables().rounds[d.nplayers] - cut + 1
    return 1 <= r <= MAX_ROUNDS and model.beta[d.nplayers][r] > 0


cdef inline void evaluate(const EkState* d, const EvalModel* model, int kind, double blend,
                          double scale, double* reward, double* win, double* score) noexcept nogil:
    """Per seat, as `outcome` of a finished game: the expected win share, the expected final
    score, and the reward the tree maximises (win share, score margin through tanh, a blend)."""
    cdef int n = d.nplayers, r = rounds_left(d), c, q, k
    cdef double f[NFEAT]
    cdef double value[NCOMP]
    cdef double v, top = -1e300, total = 0
    cdef const double* th = model.theta[n][r]
    for c in range(NCOMP):
        company_features(d, c, f)
        v = f[1]
        for k in range(NFEAT):
            v += th[k] * f[k]
        value[c] = 0 if v < 0 else (MAX_TILES if v > MAX_TILES else v)
    for q in range(n):
        v = d.coins[q]
        for c in range(NCOMP):
            v += d.shares[q][c] * value[c]
        score[q] = v
        if v > top:
            top = v
    for q in range(n):
        win[q] = exp(model.beta[n][r] * (score[q] - top))
        total += win[q]
    for q in range(n):
        win[q] /= total
    rewards(n, kind, blend, scale, win, score, reward)

