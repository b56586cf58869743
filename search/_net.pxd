# The value network at C speed: what a seat sees, encoded (`net_inputs`), and a small multilayer
# perceptron over it (`net_forward`), for the search to score a position with (_ismcts.pyx) and
# for self-play to record (search/learn/).  The weights come from a model file
# (search/network.py loads and checks it; search/learn/ trains it).
#
# Seat-relative: a position is encoded from one seat's side, its perspective p; relative seat j
# is seat (p + j) % n, so one network serves every seat of every player count.  The inputs are
# the public state (R21) and p's own hand, never another hand: `net_inputs` reads d.hand[p]
# only, so a position whose other hands are re-dealt encodes the same.
#
# The network: inputs -> h1 (ReLU) -> h2 (ReLU) -> NET_OUTPUTS: a win logit per relative seat
# (a softmax over the n seats present gives the win shares) and each relative seat's final score
# over SCORE_SCALE.  Weight rows are per input (w1[i] is the h1 weights of input i), so the first
# layer adds the rows of the inputs present (about a fifth of them are nonzero), NNUE-like, and
# every layer's inner loop runs over a contiguous row (SIMD-friendly).
#
# Inline, nogil, noexcept and allocation-free, like _eval.pxd.

from libc.math cimport exp
from libc.stdint cimport uint64_t

from ekonos._bits cimport popcount, ctz
from ekonos._core cimport (EkState, ek_tables, ek_column, ek_score, NCOMP, NSPACES, NCARDS, MAXP,
                           NUM_STEPS, MAX_TILES, MAX_SHARES, STEP_OVER, SOLD_UNDOABLE)
from search._playout cimport rewards, GROWTH_CHOICE, GROWTH_FORCED
from search._eval cimport (NFEAT, MAX_ROUNDS, EvalModel, company_features, evaluate,
                           rounds_left)

# What a network is trained for: setup.py hashes the text between the two marker lines below
# into EK_NET_FEATURES_HASH; a network file records the hash it was trained for, and
# search/network.py refuses a network of another.  Change an input: new self-play data, retrain.
# -- net features: begin ----------------------------------------------------------------------
cdef enum:
    SCORE_SCALE = 30                            # what a score is divided by (inputs, outputs)
    GROWTH_LEVELS = GROWTH_FORCED + 1           # a growth track reads 0 to GROWTH_FORCED
    HAND_SCALE = 8                              # what a hand's size is divided by
    XLEFT_SCALE = GROWTH_CHOICE                 # what expansion actions left are divided by
    ROUNDS_MAX = 6                              # the most rounds a game has (R2, 2 players)
    NI_TILES = 0                                # company c on space s: c * NSPACES + s
    NI_PROTECTED = NI_TILES + NCOMP * NSPACES   # space s holds a protected tile
    NI_GROWTH = NI_PROTECTED + NSPACES          # company c's growth track at g: c * GROWTH_LEVELS + g
    NI_COLUMN = NI_GROWTH + NCOMP * GROWTH_LEVELS           # company c's market column / MAX_SHARES
    NI_VALUE = NI_COLUMN + NCOMP                # company c's tiles / MAX_TILES
    NI_SHARES = NI_VALUE + NCOMP                # relative seat j's shares of c / MAX_SHARES: j*NCOMP+c
    NI_COINS = NI_SHARES + MAXP * NCOMP         # relative seat j's coins / SCORE_SCALE
    NI_SCORE = NI_COINS + MAXP                  # relative seat j's score now / SCORE_SCALE
    NI_HAND_SIZE = NI_SCORE + MAXP              # relative seat j's cards in hand / HAND_SCALE
    NI_PRESIDENT = NI_HAND_SIZE + MAXP          # company c's president is relative seat j: c*MAXP+j
    NI_HAND = NI_PRESIDENT + NCOMP * MAXP       # card k is in the perspective's own hand
    NI_DISCARD = NI_HAND + NCARDS               # card k was played this round (public, R8)
    NI_PLAYERS = NI_DISCARD + NCARDS            # n players: NI_PLAYERS + n - 2
    NI_ROUNDS_LEFT = NI_PLAYERS + MAXP - 1      # rounds left r (this one included): + r - 1
    NI_STEP = NI_ROUNDS_LEFT + ROUNDS_MAX                # the step the position waits for
    NI_TO_MOVE = NI_STEP + NUM_STEPS            # the seat to move, relative
    NI_TURN = NI_TO_MOVE + MAXP                 # the seat whose turn it is, relative
    NI_START = NI_TURN + MAXP                   # the round's start player, relative
    NI_TURN_CARD = NI_START + MAXP              # card k was played this turn
    NI_XCOMPANY = NI_TURN_CARD + NCARDS         # company c expands (or is being sold)
    NI_XLEFT = NI_XCOMPANY + NCOMP              # expansion actions left / XLEFT_SCALE
    NI_SOLD = NI_XLEFT + 1                      # a share was sold this turn
    NI_UNDO = NI_SOLD + 1                       # buying c back would undo this turn's sale
    NI_CANDIDATES = NI_UNDO + NCOMP             # relative seat j is a tied successor candidate
    # what the linear evaluation reads (_eval.pxd company_features, whose code this hash covers
    # too), given whole: feature k >= 1 of company c / its scale, and per relative seat j the sum
    # over the companies of j's shares / MAX_SHARES x feature k (its stake in what k measures:
    # k = 1, the tiles, makes the score now without the coins)
    NCF = NFEAT - 1                             # company features but the constant
    NI_COMPANY = NI_CANDIDATES + MAXP           # c * NCF + k - 1
    NI_STAKE = NI_COMPANY + NCOMP * NCF         # j * NCF + k - 1
    NET_INPUTS = NI_STAKE + MAXP * NCF
    MAX_ACTIVE = NET_INPUTS                     # inputs a position may set (bound of the lists)


cdef enum:
    CF_TILES = 1                                # company_features' numbering (_eval.pxd)
    CF_GROWTH = 2
    CF_FRONTIER = 4
    CF_EMPTY = 5
    CF_COLUMN = 6


cdef inline float feature_scale(int k) noexcept nogil:
    """What company feature k is divided by (company_features: 1 tiles, 2 growth, 3 unprotected
    tiles, 4 frontier, 5 empty spaces, 6 market column, 7 exposed tiles)."""
    if k == CF_GROWTH:
        return GROWTH_FORCED
    if k == CF_FRONTIER or k == CF_EMPTY:
        return NSPACES
    if k == CF_COLUMN:
        return MAX_SHARES
    return MAX_TILES


cdef inline int rel(int seat, int p, int n) noexcept nogil:
    """Seat `seat` relative to perspective p among n seats."""
    return (seat - p + n) % n


cdef inline int net_inputs(const EkState* d, int p, int* idx, float* val) noexcept nogil:
    """The inputs of position d from seat p's side, as the nonzero ones: their indices (rising)
    and values; returns how many.  Reads the public state and d.hand[p], no other hand."""
    cdef int k = 0, c, j, q, n = d.nplayers, s, left
    cdef uint64_t m
    for c in range(NCOMP):
        m = d.tiles[c]
        while m:
            s = ctz(m)
            m &= m - 1
            idx[k] = NI_TILES + c * NSPACES + s; val[k] = 1; k += 1
    m = d.protected
    while m:
        s = ctz(m)
        m &= m - 1
        idx[k] = NI_PROTECTED + s; val[k] = 1; k += 1
    for c in range(NCOMP):
        idx[k] = NI_GROWTH + c * GROWTH_LEVELS + d.growth[c]; val[k] = 1; k += 1
    for c in range(NCOMP):
        if ek_column(d, c):
            idx[k] = NI_COLUMN + c; val[k] = <float>ek_column(d, c) / MAX_SHARES; k += 1
    for c in range(NCOMP):
        if d.tiles[c]:
            idx[k] = NI_VALUE + c; val[k] = <float>popcount(d.tiles[c]) / MAX_TILES; k += 1
    for j in range(n):
        q = (p + j) % n
        for c in range(NCOMP):
            if d.shares[q][c]:
                idx[k] = NI_SHARES + j * NCOMP + c; val[k] = <float>d.shares[q][c] / MAX_SHARES
                k += 1
    for j in range(n):
        q = (p + j) % n
        if d.coins[q]:
            idx[k] = NI_COINS + j; val[k] = <float>d.coins[q] / <float>SCORE_SCALE; k += 1
    for j in range(n):
        q = (p + j) % n
        s = ek_score(d, q)
        if s:
            idx[k] = NI_SCORE + j; val[k] = <float>s / <float>SCORE_SCALE; k += 1
    for j in range(n):
        q = (p + j) % n
        if d.hand_size[q]:
            idx[k] = NI_HAND_SIZE + j; val[k] = <float>d.hand_size[q] / HAND_SCALE; k += 1
    for c in range(NCOMP):
        if d.president[c] >= 0:
            idx[k] = NI_PRESIDENT + c * MAXP + rel(d.president[c], p, n); val[k] = 1; k += 1
    m = d.hand[p]
    while m:
        s = ctz(m)
        m &= m - 1
        idx[k] = NI_HAND + s; val[k] = 1; k += 1
    m = 0
    for j in range(d.ndiscard):
        m |= (<uint64_t>1) << d.discard[j]
    while m:
        s = ctz(m)
        m &= m - 1
        idx[k] = NI_DISCARD + s; val[k] = 1; k += 1
    idx[k] = NI_PLAYERS + n - 2; val[k] = 1; k += 1
    left = ek_tables().rounds[n] - d.round + 1
    if 1 <= left <= ROUNDS_MAX:
        idx[k] = NI_ROUNDS_LEFT + left - 1; val[k] = 1; k += 1
    idx[k] = NI_STEP + d.step; val[k] = 1; k += 1
    if d.to_move >= 0:
        idx[k] = NI_TO_MOVE + rel(d.to_move, p, n); val[k] = 1; k += 1
    if d.turn_player >= 0:
        idx[k] = NI_TURN + rel(d.turn_player, p, n); val[k] = 1; k += 1
    idx[k] = NI_START + rel(d.start_player, p, n); val[k] = 1; k += 1
    if d.turn_card >= 0:
        idx[k] = NI_TURN_CARD + d.turn_card; val[k] = 1; k += 1
    if 0 <= d.xcompany < NCOMP:
        idx[k] = NI_XCOMPANY + d.xcompany; val[k] = 1; k += 1
    if d.xactions_left > 0:
        idx[k] = NI_XLEFT; val[k] = <float>d.xactions_left / XLEFT_SCALE; k += 1
    if d.sold:
        idx[k] = NI_SOLD; val[k] = 1; k += 1
        if d.sold >= SOLD_UNDOABLE:
            idx[k] = NI_UNDO + d.sold - SOLD_UNDOABLE; val[k] = 1; k += 1
    for q in range(n):
        if d.candidates & (1 << q):
            idx[k] = NI_CANDIDATES + rel(q, p, n); val[k] = 1; k += 1
    cdef double f[NFEAT]
    cdef float cf[NCOMP][NFEAT]
    cdef float stake
    cdef int e
    for c in range(NCOMP):
        company_features(d, c, f)
        for e in range(1, NFEAT):
            cf[c][e] = <float>f[e] / feature_scale(e)
            if cf[c][e] != 0:
                idx[k] = NI_COMPANY + c * NCF + e - 1; val[k] = cf[c][e]; k += 1
    for j in range(n):
        q = (p + j) % n
        for e in range(1, NFEAT):
            stake = 0
            for c in range(NCOMP):
                stake += <float>d.shares[q][c] / MAX_SHARES * cf[c][e]
            if stake != 0:
                idx[k] = NI_STAKE + j * NCF + e - 1; val[k] = stake; k += 1
    return k
# -- net features: end ------------------------------------------------------------------------


cdef enum:
    NET_OUTPUTS = 2 * MAXP      # win logits of relative seats 0-5, then their scores / SCORE_SCALE
    MAX_HIDDEN = 1024           # the widest hidden layer a network file may have


ctypedef struct NetWeights:
    int h1, h2                  # hidden widths
    const EvalModel* base       # the linear evaluation the network corrects, or NULL: its
                                # logits (beta x expected score) and expected scores are added
    const float* w1             # [NET_INPUTS][h1]
    const float* b1             # [h1]
    const float* w2             # [h1][h2]
    const float* b2             # [h2]
    const float* w3             # [h2][NET_OUTPUTS]
    const float* b3             # [NET_OUTPUTS]


cdef inline void net_forward(const NetWeights* w, const int* idx, const float* val, int k,
                             float* out) noexcept nogil:
    """The network's NET_OUTPUTS outputs for the inputs given as nonzero (index, value) pairs."""
    cdef float a[MAX_HIDDEN]
    cdef float b[MAX_HIDDEN]
    cdef int i, u, h1 = w.h1, h2 = w.h2
    cdef float x
    cdef const float* row
    for u in range(h1):
        a[u] = w.b1[u]
    for i in range(k):
        x = val[i]
        row = w.w1 + <long>idx[i] * h1
        for u in range(h1):
            a[u] += x * row[u]
    for u in range(h2):
        b[u] = w.b2[u]
    for i in range(h1):
        x = a[i]
        if x > 0:
            row = w.w2 + <long>i * h2
            for u in range(h2):
                b[u] += x * row[u]
    for u in range(NET_OUTPUTS):
        out[u] = w.b3[u]
    for i in range(h2):
        x = b[i]
        if x > 0:
            row = w.w3 + <long>i * NET_OUTPUTS
            for u in range(NET_OUTPUTS):
                out[u] += x * row[u]


cdef inline void net_evaluate(const EkState* d, const NetWeights* w, int kind, double blend,
                              double scale, double* reward, double* win,
                              double* score) noexcept nogil:
    """Per seat, as `outcome` of a finished game: the network's win share and final score of
    position d (not over), read from the side of the seat to move; then the reward.  With a
    base, the network's outputs correct the linear evaluation's: its logits are added to beta
    x the base's expected scores, its scores to the base's."""
    cdef int idx[MAX_ACTIVE]
    cdef float val[MAX_ACTIVE]
    cdef float out[NET_OUTPUTS]
    cdef double logit[MAXP]
    cdef double base_score[MAXP]
    cdef int n = d.nplayers, p = d.to_move, j, q, k, r
    cdef double top = -1e300, total = 0, e, beta = 0
    if p < 0:
        p = 0
    k = net_inputs(d, p, idx, val)
    net_forward(w, idx, val, k, out)
    for q in range(n):
        base_score[q] = 0
    if w.base != NULL:              # reward and win of the base are overwritten below
        evaluate(d, w.base, kind, blend, scale, reward, win, base_score)
        r = rounds_left(d)
        if 1 <= r <= MAX_ROUNDS:
            beta = w.base.beta[n][r]
    for j in range(n):
        q = (p + j) % n
        logit[j] = out[j] + beta * base_score[q]
        if logit[j] > top:
            top = logit[j]
    for j in range(n):
        q = (p + j) % n
        e = exp(logit[j] - top)
        win[q] = e
        total += e
        score[q] = base_score[q] + out[MAXP + j] * <double>SCORE_SCALE
    for q in range(n):
        win[q] /= total
    rewards(n, kind, blend, scale, win, score, reward)


cdef class Net:
    """A value network's weights (_net.pyx), read-only once made: searchers on several threads
    share one."""
    cdef float* buf                     # every weight, one aligned block
    cdef NetWeights w
    cdef EvalModel base_model           # the base's weights (w.base points here when it has one)


cdef int fill_model(EvalModel* m, theta, beta) except -1
