# Information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012) and flat Monte Carlo,
# at C level over the engine's C API (ekonos/_core.pxd).
#
# - One tree of the searching seat's information sets; a fresh determinization every iteration
#   (ek_determinize: the hands the searcher cannot see are re-dealt, the chance stream reseeded).
# - Selection only among children legal in the current determinization, with availability
#   counts in UCB (subset-armed bandit).
# - A reward vector per seat; each node stores the statistics of the seat that moved into it,
#   so each mover maximises its own entry (max^n style).
# - Card turns are decomposed (group=1): first the card (a pseudo-action NUM_ACTIONS + card),
#   then what to do with it.  This cuts the ~250-way branching of a card turn to <=6 then <=48.
# - Nodes live in one preallocated array of structs addressed by index (no Python object per node);
#   the array grows by a checked realloc (never past `node_limit`) and is freed only in
#   __dealloc__.  A failed growth makes `iterate` return -1: the nogil loop stops and `run`
#   raises MemoryError once it holds the GIL again.
# - Everything in the loop is nogil/noexcept and allocates nothing per iteration; a search object
#   is used by one thread at a time, so root parallelism runs one Searcher per thread and merges
#   root statistics in Python (search.bots).
# - Engine constants come from _core.pxd (cimported), never as literals.

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from libc.math cimport sqrt, log, tanh
from libc.stdint cimport uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from ekonos._bits cimport popcount, ctz, select_bit
from ekonos._core cimport (EkState, EkTables, CoreState, ek_legal, ek_apply, ek_score,
                           ek_determinize, ek_count_legal, ek_nth_legal, ek_column, ek_tables,
                           ek_random_playout, ek_legal_card, ek_empty_spaces, ek_xplace_mask,
                           rng_seed, rng_next, rng_below,
                           NUM_ACTIONS, NCARDS, NSPACES, NCOMP, MAX_LEGAL, CARD_SUBS, MAXP,
                           MAX_TILES,
                           STEP_CARD, STEP_EXPAND_CHOICE, STEP_EXPAND, STEP_SELL, STEP_BUY,
                           STEP_OVER, A_CARD, A_EXPAND, A_XPLACE, A_XPROTECT, A_XSTOP, A_SELL,
                           A_SELL_PASS, A_BUY, A_BUY_PASS)

cdef enum:
    NPSEUDO = NUM_ACTIONS + NCARDS      # action ids incl. the card-choice pseudo-actions
    SUB_PROTECT = NSPACES               # a card's sub-actions: place 0.., protect SUB_PROTECT..,
    SUB_GROW = 2 * NSPACES              # grow a bottom company SUB_GROW + k (_core.pxd)
    CARD_BOTTOMS = 2                    # bottom companies per card (EkTables.card_bot)
    RNG_WORDS = 4                       # xoshiro256** state words (EkState.rng)
    GROWTH_CHOICE = 4                   # R11: a track reaching 4 offers an expansion,
    GROWTH_FORCED = 6                   # reaching 6 forces one (ek_apply)
    KIND_PLACE = 0                      # light_action's card-turn candidates: place a tile,
    KIND_PROTECT = 1                    # protect one, or grow bottom k (KIND_GROW + k)
    KIND_GROW = 2
    PREALLOC_NODES = 50_000_000         # an iteration budget preallocates at most this many nodes
    NODE_LIMIT = 1 << 30                # node indices are C ints: the pool never grows past this
    REWARD_WIN = 0
    REWARD_SCORE = 1
    REWARD_BLEND = 2
    POLICY_RANDOM = 0
    POLICY_LIGHT = 1

ctypedef struct Node:
    int action          # action leading here (pseudo-action >= NUM_ACTIONS: a card chosen)
    int parent
    int first_child
    int next_sibling
    int mover           # seat that chose `action`
    int visits
    int avail           # times this node was available for selection (legal in the world)
    double reward       # sum of the mover's rewards (what UCB maximises)
    double win          # sum of the mover's win shares
    double score        # sum of the mover's final scores


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline void outcome(const EkState* d, int kind, double blend, double scale,
                         double* reward, double* win, double* score) noexcept nogil:
    """Per seat: win share (ties split, R20), final score, and the reward used by the tree."""
    cdef int q, o, n = d.nplayers, nbest = 0
    cdef double best = -1e9, other, sv
    for q in range(n):
        score[q] = ek_score(d, q)
        if score[q] > best:
            best = score[q]
            nbest = 1
        elif score[q] == best:
            nbest += 1
    for q in range(n):
        win[q] = (1.0 / nbest) if score[q] == best else 0.0
        if kind == REWARD_WIN:
            reward[q] = win[q]
            continue
        other = -1e9
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


cdef int light_action(EkState* d, uint64_t* rng, double eps) noexcept nogil:
    """Informed playout policy (a cheap greedy with epsilon-random moves).  Card turn: score each
    (card, top action | growth) by the mover's stake in the company, pick the best with a little
    noise, then a random space.  Expansion: place, else protect.  Sell when the column pays more
    than a share is worth; buy the share worth most over its price."""
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


cdef int playout(EkState* d, int policy, uint64_t* rng) noexcept nogil:
    """Play to the end with the given policy; returns the decisions made."""
    cdef int made = 0
    if policy == POLICY_RANDOM:
        return ek_random_playout(d, rng)
    while d.step != STEP_OVER:
        ek_apply(d, light_action(d, rng, 0.1))
        made += 1
    return made


cdef class Searcher:
    """One search tree for one seat.  Not thread-safe: one Searcher per thread."""
    cdef Node* nodes
    cdef int n_nodes
    cdef int cap
    cdef int* mark
    cdef int stamp
    cdef uint64_t rng[RNG_WORDS]
    cdef EkState root
    cdef int observer
    cdef public double c
    cdef public int group
    cdef public int reward_kind
    cdef public double blend
    cdef public double scale
    cdef public int policy
    cdef public long iterations_done
    cdef public long decisions_simulated
    cdef public int node_limit          # the most nodes the tree may hold (a memory bound)

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

    def __init__(self, *, double c, int group, str reward, double blend, str policy,
                 double scale=10.0):
        """The parameters of the `ismcts` bot (search.bots.ISMCTSBot.Params, which holds their
        defaults and documents them); `scale` is the score margin that tanh maps to a reward."""
        if reward not in ("win", "score", "blend"):
            raise ValueError(f"reward must be win, score or blend, got {reward!r}")
        if policy not in ("random", "light"):
            raise ValueError(f"policy must be random or light, got {policy!r}")
        self.node_limit = NODE_LIMIT
        self.c = c
        self.group = group
        self.reward_kind = ("win", "score", "blend").index(reward)
        self.blend = blend
        self.scale = scale
        self.policy = ("random", "light").index(policy)

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
        """Legal edges out of `node` in world `d`: with grouping, a card turn is first the card
        (pseudo-actions), then the actions of the chosen card."""
        cdef int k = 0
        cdef uint64_t hm
        if not self.group or d.step != STEP_CARD:
            return ek_legal(d, out)
        if self.nodes[node].action >= NUM_ACTIONS:
            return ek_legal_card(d, self.nodes[node].action - NUM_ACTIONS, out)
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
        cdef int node = 0, n, ch, ntried, best, k, i = 0, a, child
        cdef double v, bestv, lg
        cdef double reward[MAXP]
        cdef double win[MAXP]
        cdef double score[MAXP]
        cdef Node* nd
        ek_determinize(&d, self.observer, self.rng)
        while d.step != STEP_OVER:
            n = self.tree_legal(&d, node, legal)
            if n == 0:
                break
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
        self.decisions_simulated += playout(&d, self.policy, self.rng)
        outcome(&d, self.reward_kind, self.blend, self.scale, reward, win, score)
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
            uint64_t seed=0):
        """Search `view` for `observer`: `iterations` (reproducible) or `seconds` (wall clock).
        MemoryError when the tree cannot grow (the statistics so far stay readable)."""
        cdef double deadline
        cdef long it = 0
        cdef int failed = 0
        if iterations <= 0 and seconds <= 0:
            raise ValueError("give a positive iteration or time budget")
        if view.s.step == STEP_OVER:
            raise ValueError("the game is over")
        self.root = view.s
        self.observer = observer
        rng_seed(self.rng, seed)
        self.n_nodes = 0
        self.stamp = 0
        memset(self.mark, 0, NPSEUDO * sizeof(int))
        self.iterations_done = 0
        self.decisions_simulated = 0
        if iterations > 0 and self.reserve(
                <int>min(iterations + 2, PREALLOC_NODES, self.node_limit)) < 0:
            raise MemoryError("no memory for the search tree")
        if self.add_node(-1, -1, -1) < 0:
            raise MemoryError("no memory for the search tree")
        with nogil:
            if iterations > 0:
                while it < iterations:
                    if self.iterate() < 0:
                        failed = 1
                        break
                    it += 1
            else:
                deadline = now_seconds() + seconds
                while True:
                    if self.iterate() < 0:
                        failed = 1
                        break
                    it += 1
                    if (it & 31) == 0 and now_seconds() >= deadline:
                        break
        self.iterations_done = it
        if failed:
            raise MemoryError(f"the search tree cannot grow past {self.n_nodes} nodes "
                              f"(after {it} iterations)")

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
        action, visits, win (sum), score (sum), line (most-visited continuation, real actions)."""
        out = []
        cdef int ch = self.nodes[0].first_child, g
        while ch >= 0:
            if self.nodes[ch].action >= NUM_ACTIONS:
                g = self.nodes[ch].first_child
                while g >= 0:
                    out.append(self._move(g, line_length))
                    g = self.nodes[g].next_sibling
            else:
                out.append(self._move(ch, line_length))
            ch = self.nodes[ch].next_sibling
        out.sort(key=lambda m: (-m["visits"], m["action"]))
        return out

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


def flat_search(CoreState view, int observer, long playouts, uint64_t seed, str policy):
    """Determinized flat Monte Carlo (PIMC): the root's legal actions share `playouts` in turn,
    each playout on a fresh determinization.  Returns {action: [visits, win_sum, score_sum]}."""
    cdef int legal[MAX_LEGAL]
    cdef int n, i, pol = ("random", "light").index(policy)
    cdef long k
    cdef uint64_t rng[RNG_WORDS]
    cdef EkState d
    cdef double reward[MAXP]
    cdef double win[MAXP]
    cdef double score[MAXP]
    cdef double* wins
    cdef double* scores
    cdef long* visits
    if view.s.step == STEP_OVER:
        raise ValueError("the game is over")
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
                playout(&d, pol, rng)
                outcome(&d, REWARD_WIN, 0.0, 10.0, reward, win, score)
                visits[i] += 1
                wins[i] += win[observer]
                scores[i] += score[observer]
        return {legal[i]: [visits[i], wins[i], scores[i]] for i in range(n)}
    finally:
        free(wins)
        free(scores)
        free(visits)
