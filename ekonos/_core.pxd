# The C-level contract of the Ekonos engine.  `search/` cimports this; Python code uses the
# `CoreState` wrapper (or the friendlier `ekonos.State`).
#
# Conventions: companies, spaces, cards and seats are 0-based here (card n of
# docs/rules.md is bit n-1).
# Bit helpers shared with search/ are in `_bits.pxd`.
#
# Every function below is nogil/noexcept and allocates nothing: a state is a fixed-size struct and a
# copy is a struct assignment (memcpy).
#
# Integer actions come from one fixed table (see ACTION TABLE); a legal list is always ascending.

from libc.stdint cimport uint64_t, int8_t, int32_t, uint8_t

cdef enum:
    NCOMP = 6
    NSPACES = 36
    NCARDS = 36
    MAXP = 6
    MAX_TILES = 10
    MAX_SHARES = 8
    TOKEN_LIMIT = 18
    SOLD_UNDOABLE = 2        # EkState.sold: SOLD_UNDOABLE + c when buying c back undoes the sale
    MAX_LEGAL = 320          # a card step has at most 6 x (36 + 10 + 2) = 288 actions

    # ACTION TABLE -------------------------------------------------------------------------------
    CARD_SUBS = 74           # per card: place on space s (0-35), protect s (36-71), grow bottom b (72-73)
    A_CARD = 0               # A_CARD + card * CARD_SUBS + sub
    A_EXPAND = 2664          # expand-choice: expand now
    A_WAIT = 2665            # expand-choice: wait (track stays at 4)
    A_XPLACE = 2666          # expand: place on space s  (+ s)
    A_XPROTECT = 2702        # expand: protect space s  (+ s)
    A_XSTOP = 2738           # expand: stop early
    A_SELL = 2739            # sell: company c (+ c)
    A_SELL_PASS = 2745
    A_BUY = 2746             # buy: company c (+ c)
    A_BUY_PASS = 2752
    A_SUCC = 2753            # successor: seat q (+ q)
    NUM_ACTIONS = 2759

    # STEPS (the decision the state waits for) -----------------------------------------------------
    STEP_CARD = 0
    STEP_EXPAND_CHOICE = 1
    STEP_EXPAND = 2
    STEP_SELL = 3
    STEP_BUY = 4
    STEP_SUCCESSOR = 5
    STEP_OVER = 6

    NUM_STEPS = 7

    VARIANT_RULEBOOK = 0
    VARIANT_BGA = 1

    # WHY AN ACTION IS NOT LEGAL (ek_why_illegal; 0 = legal) ---------------------------------------
    WHY_LEGAL = 0
    WHY_NOT_AN_ACTION = 1        # outside the action table
    WHY_GAME_OVER = 2
    WHY_WRONG_STEP = 3           # an action of another step
    WHY_HAND_UNKNOWN = 4         # card step, but the position does not know the hand
    WHY_NOT_IN_HAND = 5
    WHY_SPACE_TAKEN = 6          # place (card): the space is not empty
    WHY_NO_TILE_LEFT = 7         # the company has all its tiles on the map
    WHY_NO_TILE_TO_PROTECT = 8   # protect: the space holds no tile of the company
    WHY_ALREADY_PROTECTED = 9
    WHY_NOT_ADJACENT = 10        # expansion place: not adjacent at the start (R13)
    WHY_TILE_PROTECTED = 11      # expansion place: the space holds a protected tile
    WHY_ALREADY_OWN = 12         # expansion place: the space already holds the company's tile
    WHY_NO_SHARE = 13            # sell: the seat owns no share of the company
    WHY_COLUMN_FULL = 14         # buy: 8 shares in the column
    WHY_TOKEN_LIMIT = 15         # buy: R17
    WHY_CANNOT_AFFORD = 16       # buy: not enough coins
    WHY_NOT_CANDIDATE = 17       # successor: not among the tied players
    NUM_WHY = 18


ctypedef struct EkState:
    uint64_t tiles[NCOMP]        # spaces holding each company's tiles
    uint64_t protected           # spaces holding a protected tile
    uint64_t hand[MAXP]          # cards in each hand (meaningful only for seats in `known`)
    uint64_t rng[4]              # xoshiro256** state for shuffles and deals (R3, R4)
    uint64_t xfrom               # expansion: spaces of the company's tiles at its start (R13)
    int32_t coins[MAXP]
    int8_t shares[MAXP][NCOMP]   # [seat][company]; a column's size is the sum over seats
    int8_t president[NCOMP]      # seat, or -1
    int8_t growth[NCOMP]         # 0-6
    int8_t hand_size[MAXP]       # authoritative count (a hand may be unknown)
    int8_t discard[NCARDS]       # cards played this round, in order (R8)
    int8_t ndiscard
    int8_t nplayers
    int8_t variant
    int8_t round                 # 1-based
    int8_t start_player
    int8_t step
    int8_t to_move               # seat that decides now; -1 when over
    int8_t turn_player           # seat whose turn it is
    int8_t turn_card             # card played this turn, -1 before
    int8_t sold                  # 0: no share sold this turn; 1: one was; SOLD_UNDOABLE + c: a
                                 # share of c was, and buying c back restores the position
    int8_t xcompany              # company expanding (expand-choice, expand) or being sold (successor)
    int8_t xactions_left
    uint8_t candidates           # successor: bitmask of the tied seats
    uint8_t known                # bitmask of seats whose hand is known


# Tables filled once at import from ekonos.rules -------------------------------------------------
ctypedef struct EkTables:
    uint64_t neigh[NSPACES]
    int8_t card_top[NCARDS]
    int8_t card_bot[NCARDS][2]
    int8_t hand_cards[7]
    int8_t round_coins[7]
    int8_t rounds[7]


# RNG (xoshiro256**, seeded with splitmix64) ------------------------------------------------------
cdef void rng_seed(uint64_t* st, uint64_t seed) noexcept nogil
cdef uint64_t rng_next(uint64_t* st) noexcept nogil
cdef int rng_below(uint64_t* st, int n) noexcept nogil

# The engine --------------------------------------------------------------------------------------
cdef void ek_new_game(EkState* s, int nplayers, int variant, uint64_t seed) noexcept nogil
cdef int ek_legal(const EkState* s, int* out) noexcept nogil
cdef int ek_legal_card(const EkState* s, int card, int* out) noexcept nogil  # card step, one card
cdef uint64_t ek_empty_spaces(const EkState* s) noexcept nogil
cdef uint64_t ek_xplace_mask(const EkState* s) noexcept nogil   # R13a spaces of the expansion
cdef int ek_count_legal(const EkState* s) noexcept nogil
cdef int ek_nth_legal(const EkState* s, int k) noexcept nogil
cdef bint ek_is_legal(const EkState* s, int action) noexcept nogil
cdef int ek_why_illegal(const EkState* s, int action) noexcept nogil  # a WHY_* code, 0 if legal
cdef int ek_action_step(int action) noexcept nogil         # the STEP_* an action belongs to
cdef void ek_apply(EkState* s, int action) noexcept nogil   # unchecked; then auto-plays forced steps
cdef void ek_apply_one(EkState* s, int action) noexcept nogil  # unchecked; no auto-play
cdef int ek_forced(const EkState* s) noexcept nogil        # the single legal action, or -1
cdef int ek_score(const EkState* s, int seat) noexcept nogil
cdef int ek_tokens(const EkState* s, int seat) noexcept nogil
cdef int ek_column(const EkState* s, int company) noexcept nogil
cdef int ek_random_playout(EkState* s, uint64_t* rng) noexcept nogil  # returns decisions made
cdef void ek_determinize(EkState* s, int observer, uint64_t* rng) noexcept nogil
cdef void ek_hide(EkState* s, int seat) noexcept nogil       # R21: only `seat`'s view remains
cdef const EkTables* ek_tables() noexcept nogil


cdef class CoreState:
    cdef EkState s
