"""Ekonos as an OpenSpiel game: `python_ekonos`, backed by this package's engine.

Importing this module registers the game with pyspiel (the optional extra:
``pip install ".[openspiel]"``); nothing else in `ekonos` imports pyspiel.

    >>> import pyspiel, ekonos.openspiel_game                      # doctest: +SKIP
    >>> game = pyspiel.load_game("python_ekonos", {"players": 4})  # doctest: +SKIP

Game parameters: ``players`` 2-6 (default 4), ``variant`` ``"rulebook"`` or ``"bga"`` (R6), and
``seed`` (default -1).  With ``seed = -1`` every deal is chance: uniform over the cards not dealt
yet.  With ``seed >= 0`` the deals are the ones the engine makes from that seed (the same cards as
``State.new(players, seed)`` and its later rounds), each chance node then having a single outcome
of probability 1, so that bots can be compared on identical deals.

Model (docs/openspiel.md says more):

* Chance: at the start of the game one chance node picks the first start player (R3, outcomes
  ``36 + seat``); at the start of every round the hands are dealt one card per chance node,
  round-robin from the round's start player (outcomes ``0-35`` = card number - 1).  Coins are
  paid by the engine when the round begins (R4), before the cards are dealt.
* Decisions are the engine's fixed integer actions (``num_distinct_actions = 2759``,
  `ekonos._core.ACTIONS`).  Steps with a single legal decision are played by the engine and never
  appear as OpenSpiel moves (docs/position-format.md).
* Information (R21): the information-state string of a seat is its perfect-recall history: the
  start player, per round the cards dealt to it, and every decision of every seat (all decisions
  are public).  The observation string is the current position as the seat sees it: the public
  state and its own hand.  Neither contains another seat's cards.
* Returns: win share.  At the end the winners (R20: highest score, ties all win) share 1 equally,
  every other seat gets 0; the game is constant-sum (sum 1).
"""
from __future__ import annotations

import random

import pyspiel

from ekonos import _core, notation
from ekonos.rules import COMPANIES, NUM_CARDS, PLAYER_TABLE, VARIANTS, Step
from ekonos.moves import Move
from ekonos.state import State

A = _core.ACTIONS
NUM_ACTIONS = A["NUM_ACTIONS"]
CARD_SUBS = A["CARD_SUBS"]
START_OUTCOME = NUM_CARDS             # chance outcome 36 + seat: the first start player
MAX_CHANCE_OUTCOMES = NUM_CARDS + 6
# A turn is at most 7 decisions: card, expand-choice + 2 growth actions or 3 at track 6, sell,
# successor, buy (forced steps are played by the engine and are not OpenSpiel moves).
MAX_DECISIONS_PER_TURN = 7
_ALL_CARDS = (1 << NUM_CARDS) - 1
_SHORT = tuple(c[:3] for c in COMPANIES)

_DEFAULTS = {"players": 4, "variant": "rulebook", "seed": -1}

GAME_TYPE = pyspiel.GameType(
    short_name="python_ekonos",
    long_name="Python Ekonos",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=dict(_DEFAULTS),
)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Engine:
    """Holds the engine state; OpenSpiel clones a Python state with `copy.deepcopy` of its
    attributes and serializes it with `pickle`, so both go through a struct copy/snapshot."""

    __slots__ = ("st",)

    def __init__(self, st: State):
        self.st = st

    def __deepcopy__(self, memo) -> "_Engine":
        return _Engine(self.st.copy())

    def __reduce__(self):
        return (_engine_from_snapshot, (self.st.nplayers, self.st._snapshot()))


def _engine_from_snapshot(nplayers: int, data: bytes) -> _Engine:
    st = State.new(players=nplayers, seed=0)
    st._restore(data)
    return _Engine(st)


class EkonosGame(pyspiel.Game):
    """`python_ekonos`: see the module docstring."""

    def __init__(self, params=None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        players, variant, seed = int(p["players"]), str(p["variant"]), int(p["seed"])
        if players not in PLAYER_TABLE:
            raise ValueError(f"players must be 2-6, got {players}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        if not -1 <= seed < 2**63:
            raise ValueError(f"seed must be -1 (deals are chance) or 0 to 2**63-1, got {seed}")
        row = PLAYER_TABLE[players]
        turns = players * row.cards * row.rounds
        self.nplayers, self.variant, self.seed = players, variant, seed
        self.hand_cards = row.cards
        self._max_chance = 1 + turns
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_DECISIONS_PER_TURN * turns)
        super().__init__(GAME_TYPE, info, {"players": players, "variant": variant,
                                           "seed": seed})

    def new_initial_state(self, *args):
        if args:
            raise ValueError("python_ekonos has no initial state from a string or struct")
        return EkonosState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self._max_chance

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return EkonosObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class EkonosState(pyspiel.State):
    """One history of `python_ekonos`.

    Attributes (all plain data, so OpenSpiel's clone/serialize work): `_eng` the engine state;
    `_start_pending`; `_start` (this round's start player); the deal in progress, `_deal_k` of
    `_deal_total` cards; `_dealt` (masks per seat of this round's deal) and, with a fixed seed,
    `_fixed` (the outcomes the engine's stream gives, in deal order);
    `_played` (masks of the cards each seat played this round); `_info` (information-state string
    per seat), `_mark` (where this round starts in each) and `_round_pub` (this round's decisions).
    """

    def __init__(self, game: EkonosGame):
        super().__init__(game)
        n = game.nplayers
        self._n = n
        self._h = game.hand_cards
        self._variant = game.variant
        self._seeded = game.seed >= 0
        st = State.new(players=n, seed=game.seed if self._seeded else 0, variant=game.variant)
        self._eng = _Engine(st)
        self._round = st.round
        self._start = -1
        self._start_pending = True
        self._deal_k = 0
        self._deal_total = 0
        self._dealt = [0] * n
        self._played = [0] * n
        self._fixed = [START_OUTCOME + st.to_move] if self._seeded else []
        self._info = [f"p{q}" for q in range(n)]
        self._mark = [0] * n
        self._round_pub = ""

    # -- OpenSpiel API ------------------------------------------------------------------------
    def current_player(self) -> int:
        st = self._eng.st
        if st.is_over():
            return pyspiel.PlayerId.TERMINAL
        if self.is_dealing():
            return pyspiel.PlayerId.CHANCE
        return st.to_move

    def is_terminal(self) -> bool:
        return self._eng.st.is_over()

    def _legal_actions(self, player):
        return self._eng.st.legal_actions()

    def chance_outcomes(self):
        if self._seeded:
            return [(self._fixed[0 if self._start_pending else self._deal_k], 1.0)]
        if self._start_pending:
            return [(START_OUTCOME + q, 1.0 / self._n) for q in range(self._n)]
        taken = 0
        for m in self._dealt:
            taken |= m
        left = _bits(_ALL_CARDS & ~taken)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action):
        if self._start_pending:
            q = action - START_OUTCOME
            if not 0 <= q < self._n:
                raise ValueError(f"chance outcome {action} is not a start player")
            self._eng.st.set_start_player(q)
            self._start_pending = False
            self._info = [s + f" S{q}" for s in self._info]
            self._begin_deal()
        elif self._deal_k < self._deal_total:
            q = (self._start + self._deal_k) % self._n
            if not 0 <= action < NUM_CARDS or any(m >> action & 1 for m in self._dealt):
                raise ValueError(f"chance outcome {action} is not an undealt card")
            self._dealt[q] |= 1 << action
            self._info[q] += f" +{action + 1}"
            self._deal_k += 1
            if self._deal_k == self._deal_total:
                self._finish_deal()
        else:
            st = self._eng.st
            if not st.is_legal(action):
                raise ValueError(f"action {action} is not legal here: {st.why_illegal(action)}")
            seat = st.to_move
            st.apply_unchecked(action)
            card = Move.from_action(action).card
            if card is not None:
                self._played[seat] |= 1 << (card - 1)
            tok = f" {seat}:{action}"
            self._info = [s + tok for s in self._info]
            self._round_pub += tok
            if not st.is_over() and st.round != self._round:
                self._begin_deal()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if action >= START_OUTCOME:
                return f"start player {action - START_OUTCOME}"
            return f"deal card {action + 1}"
        return notation.action_text(action)

    def returns(self):
        st = self._eng.st
        if not st.is_over():
            return [0.0] * self._n
        winners = st.winners()
        share = 1.0 / len(winners)
        return [share if q in winners else 0.0 for q in range(self._n)]

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state drawn from `player_id`'s information set: every card that seat has not seen
        (other hands, this round's deals to others, cards still to be dealt with a fixed seed)
        is re-dealt uniformly; public information and the seat's own cards are kept.
        `probability_sampler` (as OpenSpiel's ISMCTS passes: a callable giving a float in
        [0, 1)) seeds the draw."""
        if probability_sampler is None:
            seed = random.getrandbits(64)
        else:
            seed = 0
            for _ in range(2):
                seed = (seed << 32) | (int(probability_sampler() * 2**32) & 0xFFFFFFFF)
        new = self.clone()
        new._resample(player_id, random.Random(seed))
        return new

    def __str__(self):
        return self._text(None, private="all")

    # -- bridge to the engine -------------------------------------------------------------------
    def ekonos_state(self) -> State:
        """A copy of the engine state (every hand known).  At a chance node of a deal the hands
        are still empty in it: the cards dealt so far are only in this object."""
        return self._eng.st.copy()

    def is_dealing(self) -> bool:
        """True at the chance nodes (the first start player, the deals)."""
        return self._start_pending or self._deal_k < self._deal_total

    # -- the deal -------------------------------------------------------------------------------
    def _begin_deal(self) -> None:
        """The engine has begun a round (start player set, coins paid, hands dealt from its own
        random stream): take the hands back and deal them through chance nodes."""
        st = self._eng.st
        n, h = self._n, self._h
        if self._seeded:
            hands = [[c - 1 for c in st.hand(q)] for q in range(n)]
            start = st.start_player
            self._fixed = [hands[(start + k) % n][k // n] for k in range(n * h)]
        for q in range(n):
            st.set_hand(q, [])
        self._round = st.round
        self._start = st.start_player
        self._deal_k = 0
        self._deal_total = n * h
        self._dealt = [0] * n
        self._played = [0] * n
        self._mark = [len(s) for s in self._info]
        tok = f" r{self._round}"
        self._info = [s + tok for s in self._info]
        self._round_pub = ""

    def _finish_deal(self) -> None:
        st = self._eng.st
        for q in range(self._n):
            st.set_hand(q, [c + 1 for c in _bits(self._dealt[q])])
        if self._seeded:
            self._fixed = []

    # -- resampling ----------------------------------------------------------------------------
    def _resample(self, p: int, rng: random.Random) -> None:
        st = self._eng.st
        n = self._n
        if st.is_over():
            return
        if self._start_pending:
            # Nothing has happened yet; with a fixed seed the start player and the first deal
            # are the engine's, unknown to everyone: draw another engine stream.
            if self._seeded:
                new = State.new(players=n, seed=rng.getrandbits(63), variant=self._variant)
                self._eng = _Engine(new)
                self._fixed = [START_OUTCOME + new.to_move]
            return
        st.reseed_chance(rng.getrandbits(64))               # later deals: unknown to everyone
        if self._deal_k < self._deal_total:
            # During a deal: re-deal the cards the others got so far, and (fixed seed) redraw the
            # rest of the deal, from the cards `p` has not received.
            pool = _bits(_ALL_CARDS & ~self._dealt[p])
            rng.shuffle(pool)
            for q in range(n):
                if q != p:
                    k = bin(self._dealt[q]).count("1")
                    self._dealt[q] = sum(1 << c for c in pool[:k])
                    del pool[:k]
                    self._rebuild_info(q, rng)
            if self._seeded:
                # cards still to come, in deal order; `pool` holds the cards nobody has yet
                self._fixed[self._deal_k:] = pool[:self._deal_total - self._deal_k]
            return
        st.determinize(p, rng.getrandbits(64))
        for q in range(n):
            if q != p:
                self._dealt[q] = self._played[q] | sum(1 << (c - 1) for c in st.hand(q))
                self._rebuild_info(q, rng)

    def _rebuild_info(self, q: int, rng: random.Random) -> None:
        """Rewrite this round's part of seat q's information-state string after its cards were
        resampled (the order a seat received its cards in is drawn at random)."""
        cards = _bits(self._dealt[q])
        rng.shuffle(cards)
        own = "".join(f" +{c + 1}" for c in cards)
        self._info[q] = f"{self._info[q][:self._mark[q]]} r{self._round}{own}{self._round_pub}"

    # -- text -----------------------------------------------------------------------------------
    def _text(self, seat: int | None, private: str = "single") -> str:
        """The position as `seat` sees it: public state, plus its own hand (`private="single"`),
        every hand (`"all"`) or none (`"none"`)."""
        st = self._eng.st
        n = self._n
        dealing = self.is_dealing()
        lines = []
        head = f"{'seat ' + str(seat) + ' | ' if seat is not None else ''}" \
               f"players {n} {st.variant} | round {st.round}/{st.rounds}"
        if self._start_pending:
            lines.append(f"{head} | choosing the start player")
        else:
            head += f" start {st.start_player}"
            if dealing:
                lines.append(f"{head} | dealing card {self._deal_k + 1} of {self._deal_total}")
            elif st.is_over():
                lines.append(f"{head} | over | scores {' '.join(map(str, st.scores()))}")
            else:
                turn = st.turn
                line = (f"{head} | {st.step} to_move {st.to_move} "
                        f"turn {turn.player if turn else st.to_move}")
                if turn is not None:
                    line += f" card {turn.card} sold {int(turn.sold)}"
                    exp = turn.expansion
                    company = exp.company if exp is not None else turn.selling
                    if company is not None:
                        line += f" company {COMPANIES[company]}"
                    if st.step is Step.EXPAND:
                        line += (f" actions {exp.actions_left} from "
                                 + ",".join(map(str, exp.start_spaces)))
                    if st.step is Step.SUCCESSOR:
                        line += " candidates " + ",".join(map(str, turn.candidates))
                lines.append(line)
        sizes = ([bin(m).count("1") for m in self._dealt] if dealing
                 else [st.hand_size(q) for q in range(n)])
        lines.append("coins " + " ".join(str(st.coins(q)) for q in range(n))
                     + " | hand sizes " + " ".join(map(str, sizes)))
        board = []
        for c in range(6):
            for sp in st.tiles(c):
                board.append((sp, f"{sp}{_SHORT[c]}{'!' if st.is_protected(sp) else ''}"))
        lines.append("board " + " ".join(t for _, t in sorted(board)))
        lines.append("growth " + " ".join(f"{_SHORT[c]}{st.growth(c)}" for c in range(6)))
        lines.append("shares " + " ".join(
            f"{_SHORT[c]}:" + ",".join(str(st.shares(q, c)) for q in range(n))
            + f"/p{'-' if st.president(c) is None else st.president(c)}" for c in range(6)))
        lines.append("discard " + " ".join(map(str, st.discard)))

        def hand_of(q: int) -> list[int]:
            if dealing:
                return [c + 1 for c in _bits(self._dealt[q])]
            return st.hand(q) or []
        if private == "all":
            for q in range(n):
                lines.append(f"hand {q}: " + " ".join(map(str, hand_of(q))))
        elif private == "single" and seat is not None:
            lines.append("hand: " + " ".join(map(str, hand_of(seat))))
        return "\n".join(lines)


class EkonosObserver:
    """Strings only (no tensors).  Perfect recall: the information-state history; otherwise the
    current position.  Private info: the observing seat's cards (default), none, or all."""

    def __init__(self, iig_obs_type):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public_info = iig_obs_type.public_info
        kind = iig_obs_type.private_info
        self.private = ("all" if kind == pyspiel.PrivateInfoType.ALL_PLAYERS else
                        "none" if kind == pyspiel.PrivateInfoType.NONE else "single")
        if not self.public_info:
            raise ValueError("python_ekonos observers always include the public information")
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if not self.perfect_recall:
            return state._text(player, self.private)
        if self.private == "single":
            return state._info[player]
        if self.private == "none":
            return " ".join(t for t in state._info[player].split(" ") if not t.startswith("+"))
        return " || ".join(state._info)


pyspiel.register_game(GAME_TYPE, EkonosGame)
