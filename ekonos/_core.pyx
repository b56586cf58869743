# The Ekonos rules engine, C level.  Every rule of docs/rules.md that moves pieces lives here, once.
# Rule ids in comments point to docs/rules.md.  The contract is `_core.pxd`.

from libc.string cimport memset, memcmp, memcpy
from libc.stdint cimport uint64_t, int8_t, int32_t, uint8_t

from ekonos._bits cimport popcount, ctz, bit, select_bit
from ekonos import rules as _rules
from ekonos.rules import Company, Step, VARIANTS

cdef uint64_t FULL = ((<uint64_t>1) << NSPACES) - 1
cdef EkTables T


# ---------------------------------------------------------------------------------------------
# RNG: xoshiro256** (Blackman & Vigna), seeded through splitmix64.  Deterministic on every
# platform: the same seed gives the same game bit for bit.

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef void rng_seed(uint64_t* st, uint64_t seed) noexcept nogil:
    cdef uint64_t z
    cdef int i
    for i in range(4):
        seed = seed + 0x9E3779B97F4A7C15ULL
        z = seed
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        st[i] = z ^ (z >> 31)


cdef uint64_t rng_next(uint64_t* st) noexcept nogil:
    cdef uint64_t result = rotl(st[1] * 5, 7) * 9
    cdef uint64_t t = st[1] << 17
    st[2] ^= st[0]
    st[3] ^= st[1]
    st[1] ^= st[2]
    st[0] ^= st[3]
    st[2] ^= t
    st[3] = rotl(st[3], 45)
    return result


cdef int rng_below(uint64_t* st, int n) noexcept nogil:
    """Uniform integer in [0, n) for n < 2**31 (Lemire's multiply-shift on the top 32 bits)."""
    return <int>(((rng_next(st) >> 32) * <uint64_t>n) >> 32)


# ---------------------------------------------------------------------------------------------
# Small queries

cdef uint64_t ek_empty_spaces(const EkState* s) noexcept nogil:
    cdef uint64_t occ = 0
    cdef int c
    for c in range(NCOMP):
        occ |= s.tiles[c]
    return FULL & ~occ


cdef int ek_column(const EkState* s, int company) noexcept nogil:
    cdef int q, n = 0
    for q in range(s.nplayers):
        n += s.shares[q][company]
    return n


cdef int ek_tokens(const EkState* s, int seat) noexcept nogil:
    """R17: shares plus presidency markers on the board."""
    cdef int c, n = 0
    for c in range(NCOMP):
        n += s.shares[seat][c] + (s.president[c] == seat)
    return n


cdef int ek_score(const EkState* s, int seat) noexcept nogil:
    """R19: sum of shares x company value (tiles on the map), plus coins."""
    cdef int c, n = s.coins[seat]
    for c in range(NCOMP):
        n += s.shares[seat][c] * popcount(s.tiles[c])
    return n


cdef uint64_t ek_xplace_mask(const EkState* s) noexcept nogil:
    """R13a: spaces adjacent to the company's tiles at the start of the expansion that are empty or
    hold an unprotected tile of another company; only while the company has fewer than 10 tiles."""
    cdef int c = s.xcompany
    cdef uint64_t m = s.xfrom, adj = 0
    if popcount(s.tiles[c]) >= MAX_TILES:
        return 0
    while m:
        adj |= T.neigh[ctz(m)]
        m &= m - 1
    return adj & ~s.tiles[c] & ~s.protected


cdef inline uint64_t xprotect_mask(const EkState* s) noexcept nogil:
    """R13b: unprotected tiles of the expanding company (including ones placed this expansion)."""
    return s.tiles[s.xcompany] & ~s.protected


cdef inline int buy_check(const EkState* s, int p, int c, int tokens) noexcept nogil:
    """R16 and R17 for one company: WHY_LEGAL, or why seat p cannot buy a share of c.  `tokens`
    is ek_tokens(s, p) (computed once by callers that check every company).  The one statement
    of who may buy: the move generator, the forced-step test and the reasons all call it.
    R17: the buy takes a token for the share, and one more for the presidency marker when it
    makes p president (R18a no president; R18b p's shares + 1 beat the president's, as buy()
    decides); with 4-6 players the buyer may not end with more than TOKEN_LIMIT.  A buy takes at
    most two tokens, so the marker is looked at only from TOKEN_LIMIT - 1 tokens on (the move
    generator runs this for every company at every buy step)."""
    cdef int col = ek_column(s, c), pres, takes
    if col >= MAX_SHARES:
        return WHY_COLUMN_FULL
    if s.nplayers >= 4 and tokens >= TOKEN_LIMIT - 1:
        pres = s.president[c]
        takes = 1 + (pres < 0 or (pres != p and s.shares[p][c] + 1 > s.shares[pres][c]))
        if tokens + takes > TOKEN_LIMIT:
            return WHY_TOKEN_LIMIT
    if s.coins[p] < col + 1:
        return WHY_CANNOT_AFFORD
    return WHY_LEGAL


# ---------------------------------------------------------------------------------------------
# Legal actions (always in ascending action order)

cdef inline int card_actions(const EkState* s, int card, uint64_t empty, int* out) noexcept nogil:
    """The actions of playing `card` (R9, R10), ascending; `empty` is ek_empty_spaces(s)."""
    cdef int n = 0, t = T.card_top[card], base = A_CARD + card * CARD_SUBS
    cdef uint64_t m
    if popcount(s.tiles[t]) < MAX_TILES:                   # R9a
        m = empty
        while m:
            out[n] = base + ctz(m)
            n += 1
            m &= m - 1
    m = s.tiles[t] & ~s.protected                          # R9b
    while m:
        out[n] = base + NSPACES + ctz(m)
        n += 1
        m &= m - 1
    out[n] = base + 2 * NSPACES                            # R10
    out[n + 1] = base + 2 * NSPACES + 1
    return n + 2


cdef int ek_legal_card(const EkState* s, int card, int* out) noexcept nogil:
    """The legal actions of playing `card` at a card step (the card must be in the hand)."""
    return card_actions(s, card, ek_empty_spaces(s), out)


cdef int ek_legal(const EkState* s, int* out) noexcept nogil:
    cdef int n = 0, p = s.to_move, c, tokens
    cdef uint64_t hm, m, empty
    if s.step == STEP_CARD:
        empty = ek_empty_spaces(s)
        hm = s.hand[p] if (s.known >> p) & 1 else 0
        while hm:
            n += card_actions(s, ctz(hm), empty, out + n)
            hm &= hm - 1
    elif s.step == STEP_EXPAND_CHOICE:                     # R11 at 4
        out[0] = A_EXPAND
        out[1] = A_WAIT
        n = 2
    elif s.step == STEP_EXPAND:                            # R13
        m = ek_xplace_mask(s)
        while m:
            out[n] = A_XPLACE + ctz(m)
            n += 1
            m &= m - 1
        m = xprotect_mask(s)
        while m:
            out[n] = A_XPROTECT + ctz(m)
            n += 1
            m &= m - 1
        out[n] = A_XSTOP
        n += 1
    elif s.step == STEP_SELL:                              # R15
        for c in range(NCOMP):
            if s.shares[p][c] > 0:
                out[n] = A_SELL + c
                n += 1
        out[n] = A_SELL_PASS
        n += 1
    elif s.step == STEP_BUY:                               # R16, R17
        tokens = ek_tokens(s, p) if s.nplayers >= 4 else 0     # R17 binds 4-6 players
        for c in range(NCOMP):
            if buy_check(s, p, c, tokens) == WHY_LEGAL:
                out[n] = A_BUY + c
                n += 1
        out[n] = A_BUY_PASS
        n += 1
    elif s.step == STEP_SUCCESSOR:                         # R18c
        for c in range(s.nplayers):
            if (s.candidates >> c) & 1:
                out[n] = A_SUCC + c
                n += 1
    return n


cdef inline int card_count(const EkState* s, int card, uint64_t empty) noexcept nogil:
    cdef int t = T.card_top[card]
    cdef int n = 2 + popcount(s.tiles[t] & ~s.protected)
    if popcount(s.tiles[t]) < MAX_TILES:
        n += popcount(empty)
    return n


cdef int ek_count_legal(const EkState* s) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef int n = 0, p = s.to_move
    cdef uint64_t hm, empty
    if s.step != STEP_CARD:
        return ek_legal(s, buf)
    if not (s.known >> p) & 1:
        return 0
    empty = ek_empty_spaces(s)
    hm = s.hand[p]
    while hm:
        n += card_count(s, ctz(hm), empty)
        hm &= hm - 1
    return n


cdef int ek_nth_legal(const EkState* s, int k) noexcept nogil:
    """The k-th legal action (0-based, ascending order) without building the list."""
    cdef int buf[MAX_LEGAL]
    cdef int card, cnt, t, nplace, base
    cdef uint64_t hm, empty, prot
    if s.step != STEP_CARD:
        ek_legal(s, buf)
        return buf[k]
    empty = ek_empty_spaces(s)
    hm = s.hand[s.to_move]
    while hm:
        card = ctz(hm)
        hm &= hm - 1
        cnt = card_count(s, card, empty)
        if k >= cnt:
            k -= cnt
            continue
        base = A_CARD + card * CARD_SUBS
        t = T.card_top[card]
        nplace = popcount(empty) if popcount(s.tiles[t]) < MAX_TILES else 0
        if k < nplace:
            return base + select_bit(empty, k)
        k -= nplace
        prot = s.tiles[t] & ~s.protected
        if k < popcount(prot):
            return base + NSPACES + select_bit(prot, k)
        return base + 2 * NSPACES + (k - popcount(prot))
    return -1


cdef bint ek_is_legal(const EkState* s, int action) noexcept nogil:
    return ek_why_illegal(s, action) == WHY_LEGAL


cdef int ek_action_step(int a) noexcept nogil:
    if a < A_EXPAND:
        return STEP_CARD
    if a <= A_WAIT:
        return STEP_EXPAND_CHOICE
    if a <= A_XSTOP:
        return STEP_EXPAND
    if a <= A_SELL_PASS:
        return STEP_SELL
    if a <= A_BUY_PASS:
        return STEP_BUY
    return STEP_SUCCESSOR


cdef int ek_why_illegal(const EkState* s, int a) noexcept nogil:
    """WHY_LEGAL (0) when `a` is legal, else the first rule it breaks, with the same predicates
    as the generator above (tests check the two agree on every action of many positions)."""
    cdef int p = s.to_move, card, sub, t, sp, c
    if a < 0 or a >= NUM_ACTIONS:
        return WHY_NOT_AN_ACTION
    if s.step == STEP_OVER:
        return WHY_GAME_OVER
    if ek_action_step(a) != s.step:
        return WHY_WRONG_STEP
    if s.step == STEP_CARD:                                # R8-R10
        card = a // CARD_SUBS
        sub = a - card * CARD_SUBS
        t = T.card_top[card]
        if not (s.known >> p) & 1:
            return WHY_HAND_UNKNOWN
        if not (s.hand[p] >> card) & 1:
            return WHY_NOT_IN_HAND
        if sub < NSPACES:                                  # R9a
            if not (ek_empty_spaces(s) >> sub) & 1:
                return WHY_SPACE_TAKEN
            if popcount(s.tiles[t]) >= MAX_TILES:
                return WHY_NO_TILE_LEFT
        elif sub < 2 * NSPACES:                            # R9b
            sp = sub - NSPACES
            if not (s.tiles[t] >> sp) & 1:
                return WHY_NO_TILE_TO_PROTECT
            if (s.protected >> sp) & 1:
                return WHY_ALREADY_PROTECTED
        return WHY_LEGAL
    if s.step == STEP_EXPAND:                              # R13
        c = s.xcompany
        if a < A_XPROTECT:
            sp = a - A_XPLACE
            if (ek_xplace_mask(s) >> sp) & 1:
                return WHY_LEGAL
            if popcount(s.tiles[c]) >= MAX_TILES:
                return WHY_NO_TILE_LEFT
            if (s.protected >> sp) & 1:
                return WHY_TILE_PROTECTED
            if (s.tiles[c] >> sp) & 1:
                return WHY_ALREADY_OWN
            return WHY_NOT_ADJACENT
        if a < A_XSTOP:
            sp = a - A_XPROTECT
            if (xprotect_mask(s) >> sp) & 1:
                return WHY_LEGAL
            if not (s.tiles[c] >> sp) & 1:
                return WHY_NO_TILE_TO_PROTECT
            return WHY_ALREADY_PROTECTED
        return WHY_LEGAL
    if s.step == STEP_SELL:                                # R15
        if a == A_SELL_PASS or s.shares[p][a - A_SELL] > 0:
            return WHY_LEGAL
        return WHY_NO_SHARE
    if s.step == STEP_BUY:                                 # R16, R17
        if a == A_BUY_PASS:
            return WHY_LEGAL
        return buy_check(s, p, a - A_BUY, ek_tokens(s, p))
    if s.step == STEP_SUCCESSOR:                           # R18c
        if (s.candidates >> (a - A_SUCC)) & 1:
            return WHY_LEGAL
        return WHY_NOT_CANDIDATE
    return WHY_LEGAL                                       # expand-choice: expand or wait


cdef int ek_forced(const EkState* s) noexcept nogil:
    """The only legal action when a step has exactly one (then it is never asked for), else -1."""
    cdef int p = s.to_move, c, tokens
    if s.step == STEP_SELL:
        for c in range(NCOMP):
            if s.shares[p][c] > 0:
                return -1
        return A_SELL_PASS
    if s.step == STEP_BUY:
        tokens = ek_tokens(s, p) if s.nplayers >= 4 else 0     # R17 binds 4-6 players
        for c in range(NCOMP):
            if buy_check(s, p, c, tokens) == WHY_LEGAL:
                return -1
        return A_BUY_PASS
    if s.step == STEP_EXPAND:
        if ek_xplace_mask(s) == 0 and xprotect_mask(s) == 0:
            return A_XSTOP
        return -1
    return -1


# ---------------------------------------------------------------------------------------------
# State transitions

cdef void deal_round(EkState* s) noexcept nogil:
    """R4: shuffle all 36 cards, deal the round's hands, pay the round's coins."""
    cdef int8_t cards[NCARDS]
    cdef int8_t tmp
    cdef int i, j, p, n = s.nplayers, h = T.hand_cards[s.nplayers]
    cdef uint64_t m
    for i in range(NCARDS):
        cards[i] = i
    for i in range(n * h):                     # partial Fisher-Yates: only the dealt prefix matters
        j = i + rng_below(s.rng, NCARDS - i)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    for p in range(n):
        m = 0
        for i in range(p * h, p * h + h):
            m |= bit(cards[i])
        s.hand[p] = m
        s.hand_size[p] = h
        s.coins[p] += T.round_coins[n]
    memset(s.discard, 0, sizeof(s.discard))     # keep equal states byte-equal
    s.ndiscard = 0
    s.known = <uint8_t>((1 << n) - 1)


cdef inline void begin_turn(EkState* s, int p) noexcept nogil:
    s.step = STEP_CARD
    s.to_move = p
    s.turn_player = p
    s.turn_card = -1
    s.sold = 0
    s.xcompany = -1
    s.xactions_left = 0
    s.xfrom = 0
    s.candidates = 0


cdef void ek_new_game(EkState* s, int nplayers, int variant, uint64_t seed) noexcept nogil:
    cdef int c
    memset(s, 0, sizeof(EkState))                          # R3
    s.nplayers = nplayers
    s.variant = variant
    for c in range(NCOMP):
        s.president[c] = -1
    rng_seed(s.rng, seed)
    s.round = 1
    s.start_player = rng_below(s.rng, nplayers)
    deal_round(s)
    begin_turn(s, s.start_player)


cdef inline void goto_sell(EkState* s) noexcept nogil:
    s.step = STEP_SELL
    s.to_move = s.turn_player


cdef inline void goto_buy(EkState* s) noexcept nogil:
    s.step = STEP_BUY
    s.to_move = s.turn_player


cdef inline int decider(const EkState* s, int company) noexcept nogil:
    """R11/R12: the company's president, or the player of the card when it has none."""
    return s.president[company] if s.president[company] >= 0 else s.turn_player


cdef void begin_expansion(EkState* s, int company, int actions) noexcept nogil:
    s.xcompany = company
    s.xactions_left = actions
    s.xfrom = s.tiles[company]                              # R13: adjacency fixed at the start
    s.step = STEP_EXPAND
    s.to_move = decider(s, company)


cdef void end_expansion(EkState* s) noexcept nogil:
    s.growth[s.xcompany] = 0                                 # R11: the track returns to 0
    s.xcompany = -1
    s.xactions_left = 0
    s.xfrom = 0
    goto_sell(s)


cdef void grow(EkState* s, int company) noexcept nogil:
    """R10, R11."""
    s.growth[company] += 1
    if s.growth[company] == 4:
        s.xcompany = company
        s.step = STEP_EXPAND_CHOICE
        s.to_move = decider(s, company)
    elif s.growth[company] == 6:
        begin_expansion(s, company, 3)
    else:
        goto_sell(s)


cdef void sell(EkState* s, int p, int c) noexcept nogil:
    """R15 then R18c-e."""
    cdef int col = ek_column(s, c), q, best = -1, before = s.president[c], after
    cdef uint8_t cand = 0
    s.coins[p] += col
    s.shares[p][c] -= 1
    s.sold = 1
    if s.president[c] == p:
        if col == 1:
            s.president[c] = -1                              # R18d
        else:
            for q in range(s.nplayers):
                if q == p:
                    continue
                if s.shares[q][c] > best:
                    best = s.shares[q][c]
                    cand = <uint8_t>(1 << q)
                elif s.shares[q][c] == best:
                    cand |= <uint8_t>(1 << q)
            if best > s.shares[p][c]:                        # R18c
                if popcount(cand) == 1:
                    s.president[c] = ctz(cand)
                else:
                    s.step = STEP_SUCCESSOR
                    s.to_move = p
                    s.candidates = cand
                    s.xcompany = c
                    return
    # would buying c back (R16, R18a-b) restore the presidency too?  The coins and shares would.
    after = s.president[c]
    if after < 0 or (after != p and s.shares[p][c] + 1 > s.shares[after][c]):
        after = p
    if after == before:
        s.sold = SOLD_UNDOABLE + c
    goto_buy(s)


cdef void buy(EkState* s, int p, int c) noexcept nogil:
    """R16 then R18a-b."""
    cdef int col = ek_column(s, c), pres = s.president[c]
    s.coins[p] -= col + 1
    s.shares[p][c] += 1
    if pres < 0 or (pres != p and s.shares[p][c] > s.shares[pres][c]):
        s.president[c] = p


cdef void end_turn(EkState* s) noexcept nogil:
    """R5: next seat clockwise with cards; R19: the game ends after the last round; R6: next
    start."""
    cdef int p = s.turn_player, n = s.nplayers, i, q
    for i in range(1, n + 1):
        q = (p + i) % n
        if s.hand_size[q] > 0:
            begin_turn(s, q)
            return
    if s.round >= T.rounds[n]:
        begin_turn(s, -1)
        s.step = STEP_OVER
        return
    s.round += 1
    if s.variant == VARIANT_BGA:
        s.start_player = p
    else:
        s.start_player = (s.start_player + 1) % n
    deal_round(s)
    begin_turn(s, s.start_player)


cdef void ek_apply_one(EkState* s, int a) noexcept nogil:
    cdef int p = s.to_move, card, sub, t, sp, c
    if a < A_EXPAND:                                         # R7-R10
        card = a // CARD_SUBS
        sub = a - card * CARD_SUBS
        s.hand[p] &= ~bit(card)
        s.hand_size[p] -= 1
        s.discard[s.ndiscard] = card
        s.ndiscard += 1
        s.turn_card = card
        t = T.card_top[card]
        if sub < NSPACES:
            s.tiles[t] |= bit(sub)
            goto_sell(s)
        elif sub < 2 * NSPACES:
            s.protected |= bit(sub - NSPACES)
            goto_sell(s)
        else:
            grow(s, T.card_bot[card][sub - 2 * NSPACES])
    elif a == A_EXPAND:
        begin_expansion(s, s.xcompany, 2)
    elif a == A_WAIT:
        s.xcompany = -1
        goto_sell(s)
    elif a < A_XPROTECT:
        sp = a - A_XPLACE
        for c in range(NCOMP):                               # a replaced tile returns to supply
            s.tiles[c] &= ~bit(sp)
        s.tiles[s.xcompany] |= bit(sp)
        s.xactions_left -= 1
        if s.xactions_left == 0:
            end_expansion(s)
    elif a < A_XSTOP:
        s.protected |= bit(a - A_XPROTECT)
        s.xactions_left -= 1
        if s.xactions_left == 0:
            end_expansion(s)
    elif a == A_XSTOP:
        end_expansion(s)
    elif a < A_SELL_PASS:
        sell(s, p, a - A_SELL)
    elif a == A_SELL_PASS:
        goto_buy(s)
    elif a < A_BUY_PASS:
        buy(s, p, a - A_BUY)
        end_turn(s)
    elif a == A_BUY_PASS:
        end_turn(s)
    else:
        s.president[s.xcompany] = a - A_SUCC
        s.candidates = 0
        s.xcompany = -1
        goto_buy(s)


cdef void ek_apply(EkState* s, int a) noexcept nogil:
    cdef int f
    ek_apply_one(s, a)
    while True:
        f = ek_forced(s)
        if f < 0:
            return
        ek_apply_one(s, f)


cdef int ek_random_playout(EkState* s, uint64_t* rng) noexcept nogil:
    """Uniformly random legal decisions to the end of the game; returns the decisions made."""
    cdef int n, made = 0
    while s.step != STEP_OVER:
        n = ek_count_legal(s)
        if n == 0:
            break
        ek_apply(s, ek_nth_legal(s, rng_below(rng, n)))
        made += 1
    return made


cdef void ek_determinize(EkState* s, int observer, uint64_t* rng) noexcept nogil:
    """R21: re-deal every hand the observer cannot see, at its size, from the cards the observer
    cannot account for (not in its own hand, not played this round); reseed the chance stream so
    later deals are unknown too.  Public information and the observer's hand do not change."""
    cdef int8_t pool[NCARDS]
    cdef int8_t tmp
    cdef int npool = 0, i, j, q, k = 0
    cdef uint64_t seen = 0
    cdef bint keep_own = observer >= 0 and ((s.known >> observer) & 1)
    for i in range(s.ndiscard):
        seen |= bit(s.discard[i])
    if keep_own:
        seen |= s.hand[observer]
    for i in range(NCARDS):
        if not (seen >> i) & 1:
            pool[npool] = i
            npool += 1
    for q in range(s.nplayers):
        if q == observer and keep_own:
            continue
        s.hand[q] = 0
        for i in range(s.hand_size[q]):
            if k >= npool:          # only after an illegal apply_unchecked: no card left to deal
                break
            j = k + rng_below(rng, npool - k)
            tmp = pool[k]
            pool[k] = pool[j]
            pool[j] = tmp
            s.hand[q] |= bit(pool[k])
            k += 1
    s.known = <uint8_t>((1 << s.nplayers) - 1)
    rng_seed(s.rng, rng_next(rng))


cdef void ek_hide(EkState* s, int seat) noexcept nogil:
    """R21: what `seat` sees.  Every other hand is forgotten (its size stays public) and the
    chance stream is replaced by a fixed one, because the real stream fixes every later deal."""
    cdef int q
    for q in range(MAXP):
        if q != seat:
            s.hand[q] = 0
    s.known &= <uint8_t>bit(seat)
    rng_seed(s.rng, 0)


cdef const EkTables* ek_tables() noexcept nogil:
    return &T


def _init_tables():
    """Fill the C tables from ekonos.rules, the single source of the rules' data."""
    cdef int sp, card, n
    memset(&T, 0, sizeof(EkTables))
    for sp, nbrs in _rules.ADJACENCY.items():
        for other in nbrs:
            T.neigh[sp - 1] |= bit(other - 1)
    for c in _rules.DECK:
        card = c.number - 1
        T.card_top[card] = c.top
        T.card_bot[card][0] = c.bottom[0]
        T.card_bot[card][1] = c.bottom[1]
    for n, row in _rules.PLAYER_TABLE.items():
        T.hand_cards[n] = row.cards
        T.round_coins[n] = row.coins
        T.rounds[n] = row.rounds


_init_tables()

STEP_NAMES = tuple(str(step) for step in Step)
#: EkState.sold: SOLD_UNDOABLE + c after a sale of c that buying c back would undo exactly.
SOLD_UNDO = SOLD_UNDOABLE
ACTIONS = {name: value for name, value in (
    ("CARD_SUBS", CARD_SUBS), ("A_CARD", A_CARD), ("A_EXPAND", A_EXPAND), ("A_WAIT", A_WAIT),
    ("A_XPLACE", A_XPLACE), ("A_XPROTECT", A_XPROTECT), ("A_XSTOP", A_XSTOP),
    ("A_SELL", A_SELL), ("A_SELL_PASS", A_SELL_PASS), ("A_BUY", A_BUY),
    ("A_BUY_PASS", A_BUY_PASS), ("A_SUCC", A_SUCC), ("NUM_ACTIONS", NUM_ACTIONS))}
#: Names of the WHY_* reason codes, by code (ekonos.state words them for people).
WHY_NAMES = ("legal", "not-an-action", "game-over", "wrong-step", "hand-unknown", "not-in-hand",
             "space-taken", "no-tile-left", "no-tile-to-protect", "already-protected",
             "not-adjacent", "tile-protected", "already-own", "no-share", "column-full",
             "token-limit", "cannot-afford", "not-candidate")
assert len(WHY_NAMES) == NUM_WHY and len(STEP_NAMES) == NUM_STEPS

cdef tuple _STEPS = tuple(Step)
cdef tuple _COMPANY = tuple(Company)


cdef list _spaces(uint64_t m):
    """Space numbers (1-36) of a mask, ascending."""
    cdef list out = []
    while m:
        out.append(ctz(m) + 1)
        m &= m - 1
    return out


cdef int _index(object value, int size, str what) except -1:
    """A 0-based index checked against `size` (IndexError), of any integer size (no overflow)."""
    cdef object v = _operator_index(value)
    if not 0 <= v < size:
        raise IndexError(f"{what} {v} does not exist (0-{size - 1})")
    return <int>v


cdef int _number(object value, int high, str what) except -1:
    """A 1-based number (space, card) 1..high -> its 0-based index; IndexError otherwise."""
    cdef object v = _operator_index(value)
    if not 1 <= v <= high:
        raise IndexError(f"{what} {v} does not exist (1-{high})")
    return <int>v - 1


cdef uint64_t _u64(object value, str what) except? 0:
    """A seed: an integer 0..2**64-1 (ValueError otherwise, never OverflowError)."""
    cdef object v = _operator_index(value)
    if not 0 <= v < 2**64:
        raise ValueError(f"{what} must be 0 to 2**64-1, got {v}")
    return <uint64_t>v


cdef str _struct_error(const EkState* s):
    """Why the struct could make the engine index outside an array, or None.  `_restore` and
    `_set_fields` refuse such a struct, so every CoreState holds indices the C code may use:
    seats, companies, cards and spaces in range; a card step with room in the discard; hands
    that fit MAX_LEGAL and hand sizes that fit the deck.  What a rule forbids but
    memory allows (shares of 0-8, a president with fewer shares, ...) is the position loader's
    business: an `apply_unchecked` may produce it and undo must restore it."""
    cdef int n = s.nplayers, q, c, i, sizes = 0, over
    if not 2 <= n <= MAXP:
        return f"nplayers {n} is not 2-6"
    if s.variant not in (VARIANT_RULEBOOK, VARIANT_BGA) or not 0 <= s.step < NUM_STEPS:
        return f"variant {s.variant} or step {s.step} unknown"
    over = s.step == STEP_OVER
    if not (-over <= s.to_move < MAXP and -over <= s.turn_player < n and 0 <= s.start_player < n):
        return f"seat out of range (to_move {s.to_move}, turn {s.turn_player})"
    if not -1 <= s.turn_card < NCARDS or not 0 <= s.xactions_left <= 3:
        return "turn card or actions left out of range"
    if not 0 <= s.sold < SOLD_UNDOABLE + NCOMP:
        return f"sold {s.sold} out of range"
    if not -1 <= s.xcompany < NCOMP or (s.xcompany < 0 and s.step in (
            STEP_EXPAND_CHOICE, STEP_EXPAND, STEP_SUCCESSOR)):
        return f"company {s.xcompany} out of range at step {s.step}"
    if s.candidates >> MAXP or (s.xfrom | s.protected) & ~FULL:
        return "candidates, from-spaces or protected spaces out of range"
    for c in range(NCOMP):
        if s.tiles[c] & ~FULL or not -1 <= s.president[c] < MAXP:
            return f"tiles or president of company {c} out of range"
    for q in range(n):
        if (s.hand[q] & ~FULL or popcount(s.hand[q]) > T.hand_cards[n]
                or not 0 <= s.hand_size[q] <= T.hand_cards[n]):
            return f"hand of seat {q} out of range"
        sizes += s.hand_size[q]
    if not 0 <= s.ndiscard <= NCARDS - sizes or (s.step == STEP_CARD and s.ndiscard >= NCARDS):
        return f"{s.ndiscard} cards played with {sizes} in the hands"
    for i in range(s.ndiscard):
        if not 0 <= s.discard[i] < NCARDS:
            return f"discard holds card index {s.discard[i]}"
    return None


from operator import index as _operator_index


cdef class CoreState:
    """Handle on one `EkState` struct, with checked, C-level read access (the typed read API that
    `ekonos.State` documents and extends).  Numbering, as in notation and position files:
    spaces 1-36, cards 1-36, companies 0-5 (`Company`), seats 0..nplayers-1.  Every method checks
    its arguments (IndexError / ValueError); none can read or write outside the struct."""

    @classmethod
    def new_game(cls, nplayers, seed=0, variant=0):
        """A new game, dealt: `nplayers` 2-6, `variant` 0 rulebook / 1 bga (R6)."""
        if not 2 <= _operator_index(nplayers) <= 6:
            raise ValueError(f"players must be 2-6, got {nplayers}")
        if _operator_index(variant) not in (VARIANT_RULEBOOK, VARIANT_BGA):
            raise ValueError(f"variant must be 0 (rulebook) or 1 (bga), got {variant}")
        cdef uint64_t seed64 = _u64(seed, "seed")
        cdef CoreState st = cls.__new__(cls)
        ek_new_game(&st.s, nplayers, variant, seed64)
        return st

    def _copy_core_from(self, CoreState other):
        self.s = other.s

    # -- the game as a whole --------------------------------------------------------------------
    @property
    def nplayers(self) -> int:
        return self.s.nplayers

    @property
    def step(self) -> Step:
        """The decision this position waits for."""
        return _STEPS[self.s.step]

    @property
    def step_name(self) -> str:
        """`str(self.step)`: the step's name in position files (`expand-choice`, ...)."""
        return STEP_NAMES[self.s.step]

    @property
    def to_move(self):
        """Seat deciding now (the president during an expansion, R11-R12); None when over."""
        return None if self.s.step == STEP_OVER else self.s.to_move

    @property
    def round(self) -> int:
        """The round being played, 1-based."""
        return self.s.round

    @property
    def rounds(self) -> int:
        """Rounds in this game (R2)."""
        return T.rounds[self.s.nplayers]

    @property
    def start_player(self) -> int:
        """The seat that started this round (R5, R6)."""
        return self.s.start_player

    @property
    def variant(self) -> str:
        """`rulebook` or `bga` (R6)."""
        return VARIANTS[self.s.variant]

    def is_over(self) -> bool:
        return self.s.step == STEP_OVER

    # -- the map --------------------------------------------------------------------------------
    def owner(self, space):
        """The company with a tile on `space` (1-36), or None when it is empty."""
        cdef int sp = _number(space, NSPACES, "space"), c
        for c in range(NCOMP):
            if (self.s.tiles[c] >> sp) & 1:
                return _COMPANY[c]
        return None

    def is_protected(self, space) -> bool:
        """True when `space` (1-36) holds a protected tile (R9b); it never changes again."""
        return bool((self.s.protected >> _number(space, NSPACES, "space")) & 1)

    def tiles(self, company) -> list:
        """The spaces (ascending) holding `company`'s tiles."""
        return _spaces(self.s.tiles[_index(company, NCOMP, "company")])

    def protected_tiles(self, company) -> list:
        """The spaces (ascending) holding `company`'s protected tiles."""
        return _spaces(self.s.tiles[_index(company, NCOMP, "company")] & self.s.protected)

    def value(self, company) -> int:
        """R19: the company's tiles on the map (what one share of it scores)."""
        return popcount(self.s.tiles[_index(company, NCOMP, "company")])

    def empty_spaces(self) -> list:
        """The spaces (ascending) without a tile."""
        return _spaces(ek_empty_spaces(&self.s))

    # -- the companies --------------------------------------------------------------------------
    def growth(self, company) -> int:
        """The company's growth track, 0-6 (R10, R11)."""
        return self.s.growth[_index(company, NCOMP, "company")]

    def president(self, company):
        """The seat presiding `company`, or None (R18)."""
        cdef int p = self.s.president[_index(company, NCOMP, "company")]
        return None if p < 0 else p

    def column(self, company) -> int:
        """Shares in the company's market column, all seats together (R15, R16)."""
        return ek_column(&self.s, _index(company, NCOMP, "company"))

    # -- the players ----------------------------------------------------------------------------
    def coins(self, seat) -> int:
        return self.s.coins[_index(seat, self.s.nplayers, "seat")]

    def shares(self, seat, company) -> int:
        """Shares of `company` held by `seat`."""
        return self.s.shares[_index(seat, self.s.nplayers, "seat")][_index(company, NCOMP,
                                                                            "company")]

    def tokens(self, seat) -> int:
        """R17: the seat's shares plus presidency markers on the board."""
        return ek_tokens(&self.s, _index(seat, self.s.nplayers, "seat"))

    def score(self, seat) -> int:
        """R19: shares x company values, plus coins (the final score once the game is over)."""
        return ek_score(&self.s, _index(seat, self.s.nplayers, "seat"))

    def scores(self) -> list:
        return [ek_score(&self.s, q) for q in range(self.s.nplayers)]

    def hand_known(self, seat) -> bool:
        """Whether this position knows the seat's hand (a view knows only its own, R21)."""
        return bool((self.s.known >> _index(seat, self.s.nplayers, "seat")) & 1)

    def hand(self, seat):
        """Card numbers (1-36, ascending) in the seat's hand, or None when it is not known."""
        cdef int q = _index(seat, self.s.nplayers, "seat")
        if not (self.s.known >> q) & 1:
            return None
        return _spaces(self.s.hand[q])      # a mask of cards reads like one of spaces

    def hand_size(self, seat) -> int:
        """Cards in the seat's hand (public, R21)."""
        return self.s.hand_size[_index(seat, self.s.nplayers, "seat")]

    @property
    def discard(self) -> list:
        """Cards (1-36) played this round, in order (R8)."""
        return [self.s.discard[i] + 1 for i in range(self.s.ndiscard)]

    # -- the turn in progress (ekonos.State.turn combines these) ----------------------------------
    @property
    def _turn_raw(self):
        """(player, card 1-36 or 0, sold, company or -1, actions left, from-spaces, candidates)."""
        cdef EkState* s = &self.s
        return (s.turn_player, s.turn_card + 1, bool(s.sold), s.xcompany, s.xactions_left,
                _spaces(s.xfrom), [q for q in range(s.nplayers) if (s.candidates >> q) & 1])

    def expansion_spaces(self) -> list:
        """During an expansion (R13a): the spaces where the company may place now."""
        if self.s.step != STEP_EXPAND:
            return []
        return _spaces(ek_xplace_mask(&self.s))

    # -- decisions ------------------------------------------------------------------------------
    def legal_actions(self) -> list:
        """The legal action numbers, ascending (empty when the game is over or the hand of the
        seat to play a card is not known)."""
        cdef int buf[MAX_LEGAL]
        cdef int i, n = ek_legal(&self.s, buf)
        return [buf[i] for i in range(n)]

    def card_actions(self, card) -> list:
        """At the card step, the legal actions of playing `card` (1-36); [] when it is not in
        the hand of the seat to move (or another step)."""
        cdef int buf[MAX_LEGAL]
        cdef int c = _number(card, NCARDS, "card"), i, n, p = self.s.to_move
        if self.s.step != STEP_CARD or not ((self.s.known >> p) & 1 and (self.s.hand[p] >> c) & 1):
            return []
        n = ek_legal_card(&self.s, c, buf)
        return [buf[i] for i in range(n)]

    def count_legal(self) -> int:
        return ek_count_legal(&self.s)

    def nth_legal(self, k):
        """The k-th legal action (0-based, ascending), without building the list."""
        cdef int i = _index(k, ek_count_legal(&self.s), "legal action")
        return ek_nth_legal(&self.s, i)

    def is_legal(self, action) -> bool:
        try:
            return ek_why_illegal(&self.s, _index(action, NUM_ACTIONS, "action")) == WHY_LEGAL
        except IndexError:
            return False

    def why_code(self, action) -> int:
        """0 when `action` is legal here, else the engine's WHY_* code (see WHY_NAMES)."""
        cdef object v = _operator_index(action)
        if not 0 <= v < NUM_ACTIONS:
            return WHY_NOT_AN_ACTION
        return ek_why_illegal(&self.s, <int>v)

    def forced_action(self):
        cdef int f = ek_forced(&self.s)
        return None if f < 0 else f

    # -- changes ------------------------------------------------------------------------------
    def apply_unchecked(self, action):
        """Apply `action`, then play every forced step, without the full legality check.

        What "unchecked" may do: the action must exist and belong to the current step (checked
        here, ValueError otherwise, so no array is ever indexed out of range); whether it is legal
        within that step is the caller's promise.  An illegal one (selling a share the seat does
        not own, ...) leaves a state the rules do not allow, never memory outside the state.
        For checked play use `ekonos.State.push`."""
        cdef int a = _index(action, NUM_ACTIONS, "action")
        if self.s.step == STEP_OVER or ek_action_step(a) != self.s.step:
            raise ValueError(f"action {a} does not belong to the {STEP_NAMES[self.s.step]} step")
        ek_apply(&self.s, a)

    def random_playout(self, seed):
        """Play uniformly random legal decisions to the end; returns the number of decisions."""
        cdef uint64_t rng[4]
        cdef int made
        rng_seed(rng, _u64(seed, "seed"))
        with nogil:
            made = ek_random_playout(&self.s, rng)
        return made

    def determinize(self, observer, seed):
        """In place: re-deal every hand `observer` cannot see (R21).  observer=-1: all hands."""
        cdef uint64_t rng[4]
        cdef int obs = -1 if observer == -1 else _index(observer, self.s.nplayers, "seat")
        rng_seed(rng, _u64(seed, "seed"))
        ek_determinize(&self.s, obs, rng)

    def _hide(self, seat):
        """In place: only what `seat` sees remains (R21; `ekonos.State.view` uses it)."""
        ek_hide(&self.s, _index(seat, self.s.nplayers, "seat"))

    # -- explicit mutators for adapters that deal cards themselves (the OpenSpiel game) ----------
    def set_hand(self, seat, cards) -> None:
        """Replace the seat's hand by `cards` (card numbers 1-36; its size follows), or forget
        it with None (the size stays).  No other rule is checked: the caller deals.  Only what
        the engine's arrays need is: a hand holds at most the round's hand size, and the hands
        and the cards played this round hold at most the 36 cards (ValueError)."""
        cdef int q = _index(seat, self.s.nplayers, "seat"), c, i, total
        cdef uint64_t m = 0
        if cards is None:
            self.s.hand[q] = 0
            self.s.known &= <uint8_t>~bit(q)
            return
        for card in cards:
            c = _number(card, NCARDS, "card")
            m |= bit(c)
        if popcount(m) > T.hand_cards[self.s.nplayers]:
            raise ValueError(f"{popcount(m)} cards: a hand holds at most "
                             f"{T.hand_cards[self.s.nplayers]} with {self.s.nplayers} players")
        total = self.s.ndiscard + popcount(m)
        for i in range(self.s.nplayers):
            if i != q:
                total += self.s.hand_size[i]
        if total > NCARDS:
            raise ValueError(f"{popcount(m)} cards: with the other hands and the cards played "
                             f"this round that makes {total} of the {NCARDS} cards")
        self.s.hand[q] = m
        self.s.hand_size[q] = popcount(m)
        self.s.known |= <uint8_t>bit(q)

    def set_start_player(self, seat) -> None:
        """Before the first card of a round: make `seat` its start player and the seat to move."""
        cdef int q = _index(seat, self.s.nplayers, "seat")
        if self.s.step != STEP_CARD or self.s.ndiscard != 0:
            raise ValueError("the start player can change only before the round's first card")
        self.s.start_player = q
        self.s.turn_player = q
        self.s.to_move = q

    def reseed_chance(self, seed) -> None:
        """Replace the chance stream of later deals by the one `seed` gives."""
        rng_seed(self.s.rng, _u64(seed, "seed"))

    @property
    def rng_state(self) -> tuple:
        """The four words of the chance stream (what position files save as `rng`)."""
        return tuple(self.s.rng[i] for i in range(4))

    # -- raw access for position files and tests ----------------------------------------------
    def _snapshot(self):
        return (<char*>&self.s)[:sizeof(EkState)]

    def _restore(self, bytes data):
        """Overwrite the struct with a `_snapshot()`; ValueError for bytes that are not one."""
        cdef EkState s
        if len(data) != sizeof(EkState):
            raise ValueError("snapshot of the wrong size")
        memcpy(&s, <char*>data, sizeof(EkState))
        why = _struct_error(&s)
        if why is not None:
            raise ValueError(f"not a snapshot of a game: {why}")
        self.s = s

    def _same_core(self, CoreState other):
        return memcmp(&self.s, &other.s, sizeof(EkState)) == 0

    def _fields(self):
        cdef EkState* s = &self.s
        d = dict(protected=s.protected, xfrom=s.xfrom, nplayers=s.nplayers, variant=s.variant,
                 round=s.round, start_player=s.start_player, step=s.step, to_move=s.to_move,
                 turn_player=s.turn_player, turn_card=s.turn_card, sold=s.sold,
                 xcompany=s.xcompany, xactions_left=s.xactions_left, candidates=s.candidates,
                 known=s.known)
        d["tiles"] = [self.s.tiles[c] for c in range(NCOMP)]
        d["hand"] = [self.s.hand[q] for q in range(MAXP)]
        d["rng"] = [self.s.rng[i] for i in range(4)]
        d["coins"] = [self.s.coins[q] for q in range(MAXP)]
        d["shares"] = [[self.s.shares[q][c] for c in range(NCOMP)] for q in range(MAXP)]
        d["president"] = [self.s.president[c] for c in range(NCOMP)]
        d["growth"] = [self.s.growth[c] for c in range(NCOMP)]
        d["hand_size"] = [self.s.hand_size[q] for q in range(MAXP)]
        d["discard"] = [self.s.discard[i] for i in range(self.s.ndiscard)]
        return d

    def _set_fields(self, d):
        """Overwrite the whole struct from a dict shaped like `_fields()` (missing lists: zero).
        ValueError, and nothing changed, when a value does not fit or the struct would let the
        engine index outside an array (`_struct_error`)."""
        cdef EkState s
        cdef int i, q, c
        memset(&s, 0, sizeof(EkState))
        if len(d["discard"]) > NCARDS:
            raise ValueError(f"{len(d['discard'])} cards in the discard")
        try:
            for c in range(NCOMP):
                s.tiles[c] = d["tiles"][c]
                s.president[c] = d["president"][c]
                s.growth[c] = d["growth"][c]
            for q in range(MAXP):
                s.hand[q] = d["hand"][q]
                s.coins[q] = d["coins"][q]
                s.hand_size[q] = d["hand_size"][q]
                for c in range(NCOMP):
                    s.shares[q][c] = d["shares"][q][c]
            for i in range(4):
                s.rng[i] = d["rng"][i]
            for i, card in enumerate(d["discard"]):
                s.discard[i] = card
            s.ndiscard = len(d["discard"])
            s.protected = d["protected"]
            s.xfrom = d["xfrom"]
            s.nplayers = d["nplayers"]
            s.variant = d["variant"]
            s.round = d["round"]
            s.start_player = d["start_player"]
            s.step = d["step"]
            s.to_move = d["to_move"]
            s.turn_player = d["turn_player"]
            s.turn_card = d["turn_card"]
            s.sold = d["sold"]
            s.xcompany = d["xcompany"]
            s.xactions_left = d["xactions_left"]
            s.candidates = d["candidates"]
            s.known = d["known"]
        except OverflowError as e:
            raise ValueError(f"a field does not fit the engine's struct: {e}") from None
        why = _struct_error(&s)
        if why is not None:
            raise ValueError(f"not a state of a game: {why}")
        self.s = s


def rng_words(seed):
    """The four words of the chance stream seeded with `seed` (as a new game seeds it)."""
    cdef uint64_t st[4]
    rng_seed(st, _u64(seed, "seed"))
    return [st[0], st[1], st[2], st[3]]


def random_playouts(CoreState start, games, seed):
    """Benchmark kernel: `games` uniformly random games from `start`, each from a copy, one core,
    no Python in the loop.  Returns the total number of decisions made."""
    cdef EkState s
    cdef uint64_t rng[4]
    cdef long total = 0
    cdef int g, ngames = _index(games, 2**31 - 1, "games")
    rng_seed(rng, _u64(seed, "seed"))
    with nogil:
        for g in range(ngames):
            s = start.s
            rng_seed(s.rng, rng_next(rng))
            total += ek_random_playout(&s, rng)
    return total
