# The value network's Python face (the C contract and the inline code are in _net.pxd): `Net`
# holds a network's weights in one aligned block, read-only once made, shared by every searcher
# that scores with it (search/_ismcts.pyx `Searcher.net`); `net_inputs_of` gives a position's
# inputs from one seat's side, for recording self-play (search/learn/).  search/network.py makes
# a Net from a network file.

from libc.stdlib cimport free
from libc.math cimport isfinite
from ekonos._core cimport CoreState, MAXP, STEP_OVER
from search._playout cimport REWARD_WIN
from search._eval cimport EvalModel, NFEAT, MAX_ROUNDS, MAX_BETA
from search._net cimport (NetWeights, NET_INPUTS, NI_TILES, NI_PROTECTED, NI_GROWTH, NI_COLUMN,
                          NI_VALUE, NI_SHARES, NI_COINS, NI_SCORE, NI_HAND_SIZE, NI_PRESIDENT,
                          NI_HAND, NI_DISCARD, NI_PLAYERS, NI_ROUNDS_LEFT, NI_STEP, NI_TO_MOVE,
                          NI_TURN, NI_START, NI_TURN_CARD, NI_XCOMPANY, NI_XLEFT, NI_SOLD,
                          NI_UNDO, NI_CANDIDATES, NI_COMPANY, NI_STAKE, NCF, NET_OUTPUTS, MAX_ACTIVE, MAX_HIDDEN,
                          SCORE_SCALE, net_inputs, net_forward, net_evaluate,
                          feature_scale)
import numpy as np

cdef extern from "stdlib.h":
    int posix_memalign(void** memptr, size_t alignment, size_t size) nogil

cdef extern from *:
    const char* EK_NET_FEATURES_HASH    # setup.py: a hash of _net.pxd's input code


cdef class Net:
    """A value network's weights in one aligned block (_net.pxd `NetWeights`): w1 [NET_INPUTS,
    h1], b1 [h1], w2 [h1, h2], b2 [h2], w3 [h2, NET_OUTPUTS], b3 [NET_OUTPUTS], float32; and
    `base`, the (theta, beta) of a linear evaluation whose reading the network corrects, or
    None.
    Checked (ValueError): the shapes, the widths (1 to MAX_HIDDEN) and that every weight is a
    finite number.  search/network.py makes one from a network file."""

    def __cinit__(self):
        self.buf = NULL

    def __dealloc__(self):
        free(self.buf)

    def __init__(self, w1, b1, w2, b2, w3, b3, base=None):
        arrays = [np.ascontiguousarray(a, dtype=np.float32) for a in (w1, b1, w2, b2, w3, b3)]
        w1, b1, w2, b2, w3, b3 = arrays
        if w1.ndim != 2 or w1.shape[0] != NET_INPUTS:
            raise ValueError(f"w1 must be {NET_INPUTS} x h1, got shape {w1.shape}")
        h1 = w1.shape[1]
        if w2.ndim != 2 or w2.shape[0] != h1:
            raise ValueError(f"w2 must be {h1} x h2, got shape {w2.shape}")
        h2 = w2.shape[1]
        if not (1 <= h1 <= MAX_HIDDEN and 1 <= h2 <= MAX_HIDDEN):
            raise ValueError(f"hidden widths must be 1 to {MAX_HIDDEN}, got {h1} and {h2}")
        want = {"b1": (h1,), "b2": (h2,), "w3": (h2, NET_OUTPUTS), "b3": (NET_OUTPUTS,)}
        for name, a in zip(("b1", "b2", "w3", "b3"), (b1, b2, w3, b3)):
            if a.shape != want[name]:
                raise ValueError(f"{name} must have shape {want[name]}, got {a.shape}")
        for name, a in zip(("w1", "b1", "w2", "b2", "w3", "b3"), arrays):
            if not np.isfinite(a).all():
                raise ValueError(f"{name} holds a number that is not finite")
        total = sum(a.size for a in arrays)
        cdef void* p = NULL
        if posix_memalign(&p, 64, total * sizeof(float)) != 0:
            raise MemoryError("no memory for the network's weights")
        free(self.buf)
        self.buf = <float*>p
        cdef float[::1] dst = <float[:total]>self.buf
        offsets = []
        at = 0
        for a in arrays:
            np.asarray(dst)[at:at + a.size] = a.ravel()
            offsets.append(at)
            at += a.size
        self.w.base = NULL
        if base is not None:            # (theta, beta) of the linear evaluation it corrects
            fill_model(&self.base_model, base[0], base[1])
            self.w.base = &self.base_model
        o1, o2, o3, o4, o5, o6 = offsets
        self.w.h1 = h1
        self.w.h2 = h2
        self.w.w1 = self.buf + <long>o1
        self.w.b1 = self.buf + <long>o2
        self.w.w2 = self.buf + <long>o3
        self.w.b2 = self.buf + <long>o4
        self.w.w3 = self.buf + <long>o5
        self.w.b3 = self.buf + <long>o6

    @property
    def widths(self):
        """(h1, h2)."""
        return (self.w.h1, self.w.h2)

    def outputs(self, CoreState view, int seat):
        """The raw outputs for `view` from `seat`'s side (whose hand the view must know): win
        logits of relative seats 0-5, then their scores / SCORE_SCALE (a seat not in the game:
        what the network says, unused)."""
        cdef int idx[MAX_ACTIVE]
        cdef float val[MAX_ACTIVE]
        cdef float out[NET_OUTPUTS]
        cdef int k
        _check_side(view, seat)
        k = net_inputs(&view.s, seat, idx, val)
        net_forward(&self.w, idx, val, k, out)
        return [out[u] for u in range(NET_OUTPUTS)]

    def evaluate(self, CoreState view):
        """Per seat the win share and final score the network gives the position, read from the
        side of the seat to move (as the search reads it at a leaf)."""
        cdef double reward[MAXP]
        cdef double win[MAXP]
        cdef double score[MAXP]
        _check_side(view, view.s.to_move)
        net_evaluate(&view.s, &self.w, REWARD_WIN, 0.0, 1.0, reward, win, score)
        return ([win[q] for q in range(view.s.nplayers)],
                [score[q] for q in range(view.s.nplayers)])


    def evaluate_many(self, CoreState view, long count):
        """Evaluate `view` `count` times in a nogil loop, as the search does at a leaf (the
        benchmark of one evaluation's cost); returns the last win share of the seat to move."""
        cdef double reward[MAXP]
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef long i
        _check_side(view, view.s.to_move)
        if count < 1:
            raise ValueError("count must be at least 1")
        with nogil:
            for i in range(count):
                net_evaluate(&view.s, &self.w, REWARD_WIN, 0.0, 1.0, reward, win, score)
        return win[view.s.to_move]

    def forward(self, x):
        """The raw outputs (as `outputs`) of recorded input vectors: x float32 [N, NET_INPUTS]
        (or one vector) through the search's own C pass over the nonzero inputs; float32
        [N, NET_OUTPUTS].  Self-play data keeps inputs, not positions (search/learn/)."""
        a = np.ascontiguousarray(x, dtype=np.float32)
        one = a.ndim == 1
        if a.shape[a.ndim - 1:] != (NET_INPUTS,) or a.ndim > 2:
            raise ValueError(f"inputs must be N x {NET_INPUTS}, got shape {a.shape}")
        a = a.reshape(-1, NET_INPUTS)
        out = np.empty((a.shape[0], NET_OUTPUTS), dtype=np.float32)
        cdef const float[:, ::1] xv = a
        cdef float[:, ::1] ov = out
        cdef int idx[MAX_ACTIVE]
        cdef float val[MAX_ACTIVE]
        cdef Py_ssize_t r, i
        cdef int k
        with nogil:
            for r in range(xv.shape[0]):
                k = 0
                for i in range(NET_INPUTS):
                    if xv[r, i] != 0:
                        idx[k] = <int>i
                        val[k] = xv[r, i]
                        k += 1
                net_forward(&self.w, idx, val, k, &ov[r, 0])
        return out[0] if one else out


    @property
    def has_base(self):
        """Does the network correct a linear evaluation (its outputs added to the base's)?"""
        return self.w.base != NULL


cdef int fill_model(EvalModel* m, theta, beta) except -1:
    """A linear evaluation's weights into m: theta[players][rounds left] (NFEAT numbers each,
    players 0-MAXP, rounds left 0-MAX_ROUNDS) and beta[players][rounds left], beta >= 0.
    Checked (ValueError, m unchanged): a NaN reward would make selection read outside the
    tree."""
    cdef EvalModel tmp
    cdef int n, r, k
    for n in range(MAXP + 1):
        for r in range(MAX_ROUNDS + 1):
            for k in range(NFEAT):
                tmp.theta[n][r][k] = theta[n][r][k]
                if not isfinite(tmp.theta[n][r][k]):
                    raise ValueError(f"theta[{n}][{r}][{k}] is not a finite number")
            tmp.beta[n][r] = beta[n][r]
            if not (isfinite(tmp.beta[n][r]) and 0 <= tmp.beta[n][r] <= MAX_BETA):
                raise ValueError(f"beta[{n}][{r}] must be from 0 to {MAX_BETA}")
    m[0] = tmp
    return 0


def _check_side(CoreState view, int seat):
    if view.s.step == STEP_OVER:
        raise ValueError("the game is over")
    if not 0 <= seat < view.s.nplayers:
        raise IndexError(f"seat {seat} is not a seat of this position")
    if not (view.s.known >> seat) & 1:
        raise ValueError(f"the position does not know seat {seat}'s hand")


def net_inputs_of(CoreState view, int seat):
    """The network's inputs (_net.pxd `net_inputs`) of `view` from `seat`'s side: a float32
    vector of NET_INPUTS numbers.  The view must know that seat's hand; no other hand is read."""
    cdef int idx[MAX_ACTIVE]
    cdef float val[MAX_ACTIVE]
    cdef int k, i
    _check_side(view, seat)
    k = net_inputs(&view.s, seat, idx, val)
    x = np.zeros(NET_INPUTS, dtype=np.float32)
    cdef float[::1] xv = x
    for i in range(k):
        xv[idx[i]] = val[i]
    return x


#: The value network's inputs and outputs (_net.pxd), and the hash of their definition: a
#: network file must name the same.
NET_INPUT_COUNT = NET_INPUTS
NET_OUTPUT_COUNT = NET_OUTPUTS
NET_SCORE_SCALE = SCORE_SCALE
NET_MAX_HIDDEN = MAX_HIDDEN
NET_FEATURES_HASH = EK_NET_FEATURES_HASH.decode("ascii")
#: Where each group of inputs begins (_net.pxd's NI_* constants), for reading an input vector.
NET_LAYOUT = {"tiles": NI_TILES, "protected": NI_PROTECTED, "growth": NI_GROWTH,
              "column": NI_COLUMN, "value": NI_VALUE, "shares": NI_SHARES, "coins": NI_COINS,
              "score": NI_SCORE, "hand_size": NI_HAND_SIZE, "president": NI_PRESIDENT,
              "hand": NI_HAND, "discard": NI_DISCARD, "players": NI_PLAYERS,
              "rounds_left": NI_ROUNDS_LEFT, "step": NI_STEP, "to_move": NI_TO_MOVE,
              "turn": NI_TURN, "start": NI_START, "turn_card": NI_TURN_CARD,
              "xcompany": NI_XCOMPANY, "xleft": NI_XLEFT, "sold": NI_SOLD, "undo": NI_UNDO,
              "candidates": NI_CANDIDATES, "company": NI_COMPANY, "stake": NI_STAKE}
#: Company features per company (and stakes per seat) in the "company" and "stake" groups.
NET_COMPANY_FEATURES = NCF
#: What company feature k (1 to NCF, _eval.pxd company_features) is divided by in the inputs.
NET_COMPANY_SCALES = [feature_scale(k) for k in range(1, NCF + 1)]
