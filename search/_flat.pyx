# Determinized flat Monte Carlo (PIMC), the `flat` bot: at C level over the engine's C API
# (ekonos/_core.pxd) and the playouts of search/_playout.pxd, shared with the tree search;
# and `light_move`, the light playout policy's move for a view (what the playouts play).

from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t
from libc.math cimport isfinite

from ekonos._core cimport (EkState, CoreState, ek_legal, ek_apply, ek_determinize, rng_seed,
                           ek_count_legal, MAX_LEGAL, MAXP, STEP_OVER)
from search._playout cimport outcome, playout, light_action, REWARD_WIN

cdef enum:
    RNG_WORDS = 4                       # xoshiro256** state words (EkState.rng)


def flat_search(CoreState view, int observer, long playouts, uint64_t seed, str policy):
    """Determinized flat Monte Carlo (PIMC): the root's legal actions share `playouts` in turn,
    each playout on a fresh determinization.  Returns {action: [visits, win_sum, score_sum]}."""
    cdef int legal[MAX_LEGAL]
    cdef int n, i, pol
    cdef long k
    cdef uint64_t rng[RNG_WORDS]
    cdef EkState d
    cdef double reward[MAXP]
    cdef double win[MAXP]
    cdef double score[MAXP]
    cdef double* wins
    cdef double* scores
    cdef long* visits
    if policy not in ("random", "light"):
        raise ValueError(f"policy must be random or light, got {policy!r}")
    pol = ("random", "light").index(policy)
    if playouts <= 0:
        raise ValueError(f"playouts must be positive, got {playouts}")
    if view.s.step == STEP_OVER:
        raise ValueError("the game is over")
    if not 0 <= observer < view.s.nplayers:
        raise IndexError(f"observer {observer} is not a seat of this position")
    n = ek_legal(&view.s, legal)
    if n == 0:
        raise ValueError("no legal action: the hand of the seat to move is unknown")
    rng_seed(rng, seed)
    wins = <double*>malloc(n * sizeof(double))
    scores = <double*>malloc(n * sizeof(double))
    visits = <long*>malloc(n * sizeof(long))
    if wins == NULL or scores == NULL or visits == NULL:
        free(wins); free(scores); free(visits)
        raise MemoryError()
    try:
        for i in range(n):
            wins[i] = 0
            scores[i] = 0
            visits[i] = 0
        with nogil:
            for k in range(playouts):
                i = k % n
                d = view.s
                ek_determinize(&d, observer, rng)
                ek_apply(&d, legal[i])
                playout(&d, pol, rng, 0)
                outcome(&d, REWARD_WIN, 0.0, 10.0, reward, win, score)
                visits[i] += 1
                wins[i] += win[observer]
                scores[i] += score[observer]
        return {legal[i]: [visits[i], wins[i], scores[i]] for i in range(n)}
    finally:
        free(wins)
        free(scores)
        free(visits)


def light_move(CoreState view, uint64_t seed, double eps=0.0):
    """The move the light playout policy (_playout.pxd `light_action`) makes for the seat to move
    in `view`, with `eps` its rate of uniformly random moves (the playouts use 0.1; 0 shows its
    own choice).  It reads the mover's hand and public facts only.  The same view and seed give
    the same move; a space it draws at random is drawn from `seed`."""
    cdef uint64_t rng[RNG_WORDS]
    cdef EkState d = view.s
    if not (isfinite(eps) and 0 <= eps <= 1):
        raise ValueError(f"eps must be from 0 to 1, got {eps!r}")
    if view.s.step == STEP_OVER:
        raise ValueError("the game is over")
    if ek_count_legal(&d) == 0:
        raise ValueError("no legal action: the hand of the seat to move is unknown")
    rng_seed(rng, seed)
    return light_action(&d, rng, eps)
