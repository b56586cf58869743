# Information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012) at C level over the
# engine's C API (ekonos/_core.pxd); flat Monte Carlo is in _flat.pyx.
#
# - One tree of the searching seat's information sets; a fresh determinization every iteration
#   (ek_determinize: the hands the searcher cannot see are re-dealt, the chance stream reseeded).
# - Selection only among children legal in the current determinization, with availability
#   counts in UCB (subset-armed bandit).
# - A reward vector per seat; each node stores the statistics of the seat that moved into it,
#   so each mover maximises its own entry (max^n style).
# - Card turns are decomposed: first the card (a pseudo-action NUM_ACTIONS + card), then what
#   to do with it.  This cuts the ~250-way branching of a card turn to <=6 then <=48.
# - The reward of a finished playout is the blend of win share and score margin (_playout.pxd),
#   the playouts light (ε-greedy); what was measured against them is in docs/strength.md.
# - Nodes live in one preallocated array of structs addressed by index (no Python object per node);
#   the array grows by a checked realloc (never past `node_limit`) and is freed only in
#   __dealloc__.  A failed growth (at `node_limit`, or out of memory) makes `iterate` return -1:
#   the loop stops there, `full` is set and `run` returns what the tree holds (a bounded tree,
#   never a MemoryError in the middle of a search).
# - The nogil loop runs in batches of BATCH iterations: between two, `stopping` (set by stop(),
#   from any thread) is read, and on the main thread the signal handlers run (Ctrl-C), so a
#   search stops within a batch and raises KeyboardInterrupt, its tree readable.  The batches
#   cut the loop only: the iterations and their random stream are the same.
# - Everything in the loop is nogil/noexcept and allocates nothing per iteration; a search object
#   is used by one thread at a time, so root parallelism runs one Searcher per thread and merges
#   root statistics in Python (search.bots).
# - Playouts and their scoring live in _playout.pxd (shared with flat Monte Carlo, inlined here).
# - `horizon` > 0: a playout stops when that many rounds after the root's have begun, and the
#   learned evaluation (_eval.pxd) scores the position; `plain`: no buy-back of a share sold
#   this turn below the root (the position of two passes).
# - Engine constants come from _core.pxd (cimported), never as literals.
# - The node layout and the Searcher's fields are declared in _ismcts.pxd (the C contract).
# - With a value network (`net`, _net.pxd): the position where the playout stops (the horizon,
#   or the end of the tree when `rollout` is off) is scored by the network from the side of the
#   seat to move there, instead of the linear model.
# - `forced` (root=halving, search.bots): every iteration takes one given root move, through
#   its card pseudo-node, so a driver can share the budget among the root moves.

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset, memcmp
from libc.math cimport sqrt, log, isfinite
from libc.stdint cimport uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.exc cimport PyErr_CheckSignals
import threading

from ekonos._bits cimport ctz
from ekonos._core cimport (EkState, CoreState, ek_legal, ek_apply, ek_determinize,
                           ek_legal_card, rng_seed, rng_below, rng_next,
                           NUM_ACTIONS, NCARDS, CARD_SUBS, A_CARD, MAX_LEGAL, MAXP,
                           STEP_CARD, STEP_BUY, STEP_OVER, NCOMP, A_BUY, SOLD_UNDOABLE)
from search._playout cimport outcome, playout, REWARD_BLEND, POLICY_LIGHT, LIGHT_EPS
from search._eval cimport (EvalModel, NFEAT, MAX_ROUNDS, MAX_BETA, company_features, evaluate,
                           has_cell)
from search._net cimport Net, NetWeights, fill_model, net_evaluate

# What the end of a playout is worth to a seat: 0.75 x its win share + 0.25 x (1/2 + 1/2 tanh(its
# score margin over the best other seat / SCALE)) (_playout.pxd `rewards`).
cdef double BLEND = 0.25
cdef double SCALE = 10.0


cdef extern from *:
    """
    static inline int ek_flag_get(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void ek_flag_set(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int ek_flag_get(int* p) noexcept nogil
    void ek_flag_set(int* p, int v) noexcept nogil


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int on_the_way(int* legal, int n, int f) noexcept nogil:
    """Keep only the edge of `legal` on the way to the real action `f`: f itself or its card's
    pseudo-action (1 edge, first); none: all n edges."""
    cdef int i, x
    cdef bint card = A_CARD <= f < A_CARD + NCARDS * CARD_SUBS
    for i in range(n):
        x = legal[i]
        if x == f or card and x == NUM_ACTIONS + (f - A_CARD) // CARD_SUBS:
            legal[0] = x
            return 1
    return n


cdef class Searcher:
    """One search tree for one seat.  Not thread-safe: one Searcher per thread."""
    def __cinit__(self):
        self.cap = 1024
        self.nodes = <Node*>malloc(self.cap * sizeof(Node))
        self.mark = <int*>malloc(NPSEUDO * sizeof(int))
        if self.nodes == NULL or self.mark == NULL:
            raise MemoryError()
        memset(self.mark, 0, NPSEUDO * sizeof(int))

    def __dealloc__(self):
        free(self.nodes)
        free(self.mark)

    def __init__(self, *, double c):
        """`c`, the UCB exploration constant (search.bots.ISMCTSBot.Params holds the defaults
        and documents every parameter; `horizon` and `plain` are set as attributes).  Checked
        here too, since a NaN would make selection read outside the tree."""
        if not (isfinite(c) and c >= 0):
            raise ValueError(f"c must be a finite number >= 0, got {c!r}")
        self.node_limit = NODE_LIMIT
        self.c = c
        self.horizon = 0
        self.plain = 0
        self.forced = -1
        self.eps = LIGHT_EPS
        self.epsmask = -1
        self.rollout = 1
        self.net_obj = None

    @property
    def net(self):
        """The value network (a `Net`) that scores the position where a playout stops, or
        None: the linear model at the horizon, the game's end without one."""
        return self.net_obj

    @net.setter
    def net(self, Net value):
        self.net_obj = value
        if value is not None:
            self.netw = value.w

    def set_model(self, theta, beta):
        """The learned evaluation's weights: theta[players][rounds left] (NFEAT numbers each,
        players 0-MAXP, rounds left 0-MAX_ROUNDS) and beta[players][rounds left], beta >= 0.
        Checked (ValueError, the model unchanged): a NaN reward would make selection read
        outside the tree."""
        fill_model(&self.model, theta, beta)

    def evaluate(self, CoreState view):
        """The learned evaluation of a position (as at a playout's cut): per seat the expected
        win share and final score."""
        cdef double reward[MAXP]
        cdef double win[MAXP]
        cdef double score[MAXP]
        if view.s.step == STEP_OVER:
            raise ValueError("the game is over")
        evaluate(&view.s, &self.model, REWARD_BLEND, BLEND, SCALE, reward, win, score)
        return ([win[q] for q in range(view.s.nplayers)],
                [score[q] for q in range(view.s.nplayers)])

    cdef int reserve(self, int need) noexcept nogil:
        """Checked growth of the node pool; 0 on success, -1 when memory is exhausted or the
        pool would pass `node_limit`."""
        cdef int newcap
        cdef Node* p
        if need > self.node_limit:
            return -1
        if need <= self.cap:
            return 0
        newcap = self.cap
        while newcap < need:
            newcap = newcap * 2 if newcap <= self.node_limit // 2 else self.node_limit
        p = <Node*>realloc(self.nodes, newcap * sizeof(Node))
        if p == NULL:
            return -1
        self.nodes = p
        self.cap = newcap
        return 0

    cdef int add_node(self, int parent, int action, int mover) noexcept nogil:
        cdef int i
        cdef Node* nd
        if self.reserve(self.n_nodes + 1) < 0:
            return -1
        i = self.n_nodes
        self.n_nodes += 1
        nd = &self.nodes[i]
        nd.action = action
        nd.parent = parent
        nd.first_child = -1
        nd.mover = mover
        nd.visits = 0
        nd.avail = 1
        nd.reward = 0
        nd.win = 0
        nd.score = 0
        if parent >= 0:
            nd.next_sibling = self.nodes[parent].first_child
            self.nodes[parent].first_child = i
        else:
            nd.next_sibling = -1
        return i

    cdef int tree_legal(self, const EkState* d, int node, int* out) noexcept nogil:
        """Legal edges out of `node` in world `d`: a card turn is first the card (pseudo-actions),
        then the actions of the chosen card."""
        cdef int k = 0, act = self.nodes[node].action
        cdef uint64_t hm
        if d.step != STEP_CARD:
            return ek_legal(d, out)
        if act >= NUM_ACTIONS:                      # a card: what to do with it
            return ek_legal_card(d, act - NUM_ACTIONS, out)
        hm = d.hand[d.to_move]
        while hm:
            out[k] = NUM_ACTIONS + (ctz(hm))
            k += 1
            hm &= hm - 1
        return k

    cdef int iterate(self) noexcept nogil:
        """One iteration: determinize, select, expand one node, play out, back up.  Returns 0,
        or -1 when a node cannot be allocated (the iteration is abandoned, nothing backed up)."""
        cdef EkState d = self.root
        cdef int legal[MAX_LEGAL]
        cdef int node = 0, n, ch, ntried, best, k, i = 0, a, child, cut = 0
        cdef double v, bestv, lg
        cdef double reward[MAXP]
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef Node* nd
        cdef bint rootward = self.forced >= 0
        if self.see_all:                # every hand is known: only later deals stay unknown
            rng_seed(d.rng, rng_next(self.rng))
        else:
            ek_determinize(&d, self.observer, self.rng)
        while d.step != STEP_OVER:
            n = self.tree_legal(&d, node, legal)
            if n == 0:
                break
            if self.plain and d.step == STEP_BUY and d.sold >= SOLD_UNDOABLE:
                # a sale, then its buy back: the position of two passes, never worth a line
                for i in range(n):
                    if legal[i] == A_BUY + d.sold - SOLD_UNDOABLE:
                        n -= 1
                        legal[i] = legal[n]
                        break
            if rootward:                # only the edge on the way to the forced root move
                if node and self.nodes[node].action < NUM_ACTIONS:
                    rootward = 0
                else:
                    n = on_the_way(legal, n, self.forced)
            self.stamp += 1
            for i in range(n):
                self.mark[legal[i]] = self.stamp
            best = -1
            bestv = -1e300
            ntried = 0
            ch = self.nodes[node].first_child
            while ch >= 0:
                nd = &self.nodes[ch]
                if self.mark[nd.action] == self.stamp:
                    self.mark[nd.action] = -self.stamp
                    nd.avail += 1
                    ntried += 1
                    lg = log(<double>nd.avail)
                    v = nd.reward / nd.visits + self.c * sqrt(lg / nd.visits)
                    if v > bestv:
                        bestv = v
                        best = ch
                ch = nd.next_sibling
            if ntried < n:                                    # expand one untried edge
                k = rng_below(self.rng, n - ntried)
                for i in range(n):
                    if self.mark[legal[i]] == self.stamp:
                        if k == 0:
                            break
                        k -= 1
                a = legal[i]
                child = self.add_node(node, a, d.to_move)
                if child < 0:
                    return -1
                if a < NUM_ACTIONS:
                    ek_apply(&d, a)
                    self.decisions_simulated += 1
                node = child
                break
            node = best
            a = self.nodes[best].action
            if a < NUM_ACTIONS:
                ek_apply(&d, a)
                self.decisions_simulated += 1
        if self.net_obj is None or self.rollout:
            if self.horizon > 0:
                cut = self.root.round + self.horizon
                if self.net_obj is None and not has_cell(&self.model, &d, cut):
                    cut = 0                                 # no model there: play to the end
            self.decisions_simulated += playout(
                &d, POLICY_LIGHT, self.rng, cut,
                self.eps if (self.epsmask >> d.nplayers) & 1 else LIGHT_EPS)
        if d.step == STEP_OVER:
            outcome(&d, REWARD_BLEND, BLEND, SCALE, reward, win, score)
        elif self.net_obj is not None:
            net_evaluate(&d, &self.netw, REWARD_BLEND, BLEND, SCALE, reward, win, score)
        else:
            evaluate(&d, &self.model, REWARD_BLEND, BLEND, SCALE, reward, win, score)
        while node > 0:
            nd = &self.nodes[node]
            nd.visits += 1
            nd.reward += reward[nd.mover]
            nd.win += win[nd.mover]
            nd.score += score[nd.mover]
            node = nd.parent
        self.nodes[0].visits += 1
        return 0

    def run(self, CoreState view, int observer, long iterations=0, double seconds=0.0,
            uint64_t seed=0, bint more=False):
        """Search `view` for `observer`: `iterations` (reproducible) or `seconds` (wall clock).
        `more`: go on with the tree and random stream of the last run, on the same view (the
        seed is unused).  When the tree cannot grow (`node_limit`, or no memory) the search
        ends there and `full` is set: the statistics so far are the answer.  KeyboardInterrupt
        when stop() was called (before or during the run) or, on the main thread, on Ctrl-C:
        the tree stays readable, `iterations_done` counts what ran."""
        cdef double deadline = 0.0
        cdef long it = 0, end
        cdef int over = 0, stopped = 0
        cdef bint timed = iterations <= 0
        if more and (self.n_nodes == 0 or observer != self.observer
                     or memcmp(&self.root, &view.s, sizeof(EkState)) != 0):
            raise ValueError("more=True goes on with the last run's tree: the same view and seat")
        if not more:
            self.n_nodes = 0                # a failed call leaves an empty tree, never a stale one
            self.iterations_done = 0
            self.decisions_simulated = 0
            self.full = 0
        if not isfinite(seconds) or seconds < 0:
            raise ValueError(f"seconds must be a finite number >= 0, got {seconds!r}")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("give a positive iteration or time budget")
        if view.s.step == STEP_OVER:
            raise ValueError("the game is over")
        if not 0 <= observer < view.s.nplayers:
            raise IndexError(f"observer {observer} is not a seat of this position")
        if self.see_all and view.s.known != (1 << view.s.nplayers) - 1:
            raise ValueError("see_all needs a position that knows every hand")
        if ek_flag_get(&self.stopping):
            raise KeyboardInterrupt("the search was stopped")
        main = threading.current_thread() is threading.main_thread()
        self.root = view.s
        self.observer = observer
        if not more:
            rng_seed(self.rng, seed)
        self.stamp = 0
        memset(self.mark, 0, NPSEUDO * sizeof(int))
        if iterations > 0:                  # a failure here is no error: the pool grows as needed
            self.reserve(<int>min(self.n_nodes + iterations + 2, PREALLOC_NODES, self.node_limit))
        if not more and self.add_node(-1, -1, -1) < 0:
            raise MemoryError("no memory for the search tree")
        if timed:
            deadline = now_seconds() + seconds
        try:
            while not over:
                with nogil:
                    end = it + BATCH
                    while it < end:
                        if not timed and it >= iterations:
                            over = 1
                            break
                        if self.iterate() < 0:
                            self.full = 1
                            over = 1
                            break
                        it += 1
                        # the clock after every iteration (about 20 ns against 3-20 us): a timed
                        # run overshoots by one iteration at most, even in the many short runs
                        # of timed halving (a slice of a few hundred microseconds per root move)
                        if timed and now_seconds() >= deadline:
                            over = 1
                            break
                    stopped = ek_flag_get(&self.stopping)
                if stopped:
                    raise KeyboardInterrupt("the search was stopped")
                if main:
                    PyErr_CheckSignals()        # Ctrl-C: KeyboardInterrupt from here
        finally:
            self.iterations_done += it

    def stop(self):
        """Stop the search: a run under way (on any thread) ends within a batch of iterations,
        and every later run at once, with KeyboardInterrupt.  For good: a stopped Searcher
        searches no more (make a new one)."""
        ek_flag_set(&self.stopping, 1)

    @property
    def stopped(self):
        return bool(ek_flag_get(&self.stopping))

    def children(self, int action):
        """The actions the tree holds right below the root's child `action` (none: [])."""
        cdef int ch = self.nodes[0].first_child if self.n_nodes else -1, g
        while ch >= 0 and self.nodes[ch].action != action:
            ch = self.nodes[ch].next_sibling
        out = []
        g = self.nodes[ch].first_child if ch >= 0 else -1
        while g >= 0:
            out.append(self.nodes[g].action)
            g = self.nodes[g].next_sibling
        return sorted(out)

    @property
    def node_count(self):
        return self.n_nodes

    cdef int best_child(self, int node) noexcept:
        cdef int ch = self.nodes[node].first_child, best = -1, bv = -1
        while ch >= 0:
            if self.nodes[ch].visits > bv:
                bv = self.nodes[ch].visits
                best = ch
            ch = self.nodes[ch].next_sibling
        return best

    def root_moves(self, int line_length=8):
        """The root's decisions (card pseudo-nodes flattened into real actions) as dicts:
        action, visits, win (sum), score (sum) and line (most-visited continuation, real
        actions), the most visited first."""
        out = []
        if self.n_nodes == 0:                   # no search has run (or it failed at once)
            return out
        self._flatten(0, line_length, out)
        out.sort(key=lambda m: (-m["visits"], m["action"]))
        return out

    def _flatten(self, int node, int line_length, list out):
        cdef int ch = self.nodes[node].first_child
        while ch >= 0:
            if self.nodes[ch].action >= NUM_ACTIONS:
                self._flatten(ch, line_length, out)
            else:
                out.append(self._move(ch, line_length))
            ch = self.nodes[ch].next_sibling

    def _move(self, int node, int line_length):
        line = []
        cdef int cur = self.best_child(node)
        while cur >= 0 and len(line) < line_length and self.nodes[cur].visits > 0:
            if self.nodes[cur].action < NUM_ACTIONS:
                line.append(self.nodes[cur].action)
            cur = self.best_child(cur)
        nd = self.nodes[node]
        return {"action": nd.action, "visits": nd.visits, "win": nd.win, "score": nd.score,
                "line": line}


def company_features_of(CoreState st):
    """The learned evaluation's features of each company (_eval.pxd `company_features`), for
    fitting its model: six lists of NFEAT numbers."""
    cdef double f[NFEAT]
    out = []
    for c in range(NCOMP):
        company_features(&st.s, c, f)
        out.append([f[k] for k in range(NFEAT)])
    return out


#: The bytes of one node of the tree (what `node_limit` multiplies).
NODE_BYTES = sizeof(Node)
#: The most nodes a tree may hold whatever the memory (node indices are C ints).
MAX_NODES = NODE_LIMIT
#: The light playouts' rate of uniformly random moves where `eps` does not apply.
PLAYOUT_EPS = LIGHT_EPS

EVAL_FEATURES = NFEAT
EVAL_MAX_ROUNDS = MAX_ROUNDS
EVAL_MAX_BETA = MAX_BETA


cdef extern from *:
    const char* EK_FEATURES_HASH    # setup.py: a hash of _eval.pxd's feature code
#: The feature definition this build computes; a model file must name the same.
EVAL_FEATURES_HASH = EK_FEATURES_HASH.decode("ascii")
