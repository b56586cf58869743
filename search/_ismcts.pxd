# The C contract of the search (like scikit-learn's _tree.pxd): the node layout and the
# Searcher's fields and C methods.  The implementation and its design notes are in _ismcts.pyx.

from libc.stdint cimport uint64_t
from ekonos._core cimport EkState, NUM_ACTIONS, NCARDS
from search._eval cimport EvalModel
from search._net cimport Net, NetWeights

cdef enum:
    NPSEUDO = NUM_ACTIONS + NCARDS      # action ids incl. the pseudo-actions (a card chosen)
    RNG_WORDS = 4                       # xoshiro256** state words (EkState.rng)
    PREALLOC_NODES = 50_000_000         # an iteration budget preallocates at most this many nodes
    NODE_LIMIT = 1 << 30                # node indices are C ints: the pool never grows past this
    BATCH = 256                         # iterations between two looks at `stopping` and signals

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


cdef class Searcher:
    cdef object __weakref__             # a Stop group holds searchers weakly (search/roots.py)
    cdef Node* nodes
    cdef int n_nodes
    cdef int cap
    cdef int* mark
    cdef int stamp
    cdef uint64_t rng[RNG_WORDS]
    cdef EkState root
    cdef int observer
    cdef public double c                # UCB exploration constant
    cdef public long iterations_done
    cdef public long decisions_simulated
    cdef public int node_limit          # the most nodes the tree may hold (a memory bound)
    cdef public bint see_all            # measurement only (the `cheat` bot): never re-deal hands
    cdef public int horizon             # rounds a playout may begin before it is evaluated (0: off)
    cdef public double eps              # the light playouts' rate of random moves ...
    cdef public int epsmask             # ... in games of these player counts (bit n: n players)
    cdef public bint plain              # never a buy back that undoes this turn's sale
    cdef EvalModel model                # the learned evaluation (_eval.pxd), set by set_model
    cdef Net net_obj                    # the value network (_net.pxd), or None: see `net`
    cdef NetWeights netw                # its weights (pointers into net_obj)
    cdef public bint rollout            # with a network: play out (to the horizon) before it scores
    cdef public int forced              # a root move every iteration must take (-1: free)
    cdef int stopping                   # set by stop() from any thread, read between batches
    cdef public bint full               # the last run stopped at node_limit (or out of memory)

    cdef int reserve(self, int need) noexcept nogil
    cdef int add_node(self, int parent, int action, int mover) noexcept nogil
    cdef int tree_legal(self, const EkState* d, int node, int* out) noexcept nogil
    cdef int iterate(self) noexcept nogil
    cdef int best_child(self, int node) noexcept
