"""An independent, deliberately slow reference model of the Ekonos rules, for differential tests.

Written from docs/rules.md and docs/position-format.md only: it imports nothing from `ekonos`
(the deck and the per-player-count table are typed in again from docs/rules.md; the map graph is
read from the data file board.json, which docs/rules.md names as the map's definition).  It works
on plain Python data and speaks the formats of docs/position-format.md: it reads a position dict
and answers legal decisions as canonical move texts.  Nothing here is optimised: clarity over
speed, so that a reader can check each line against the rule it cites.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

COMPANIES = ("Sunset", "Phoenix", "Panda", "Crown", "Hydra", "Gemini")

# docs/rules.md R1, the deck table typed in by hand: card number -> (top, (bottom, bottom)).
DECK = {
    1: ("Sunset", ("Panda", "Crown")), 2: ("Sunset", ("Panda", "Hydra")),
    3: ("Sunset", ("Panda", "Gemini")), 4: ("Sunset", ("Crown", "Hydra")),
    5: ("Sunset", ("Crown", "Gemini")), 6: ("Sunset", ("Hydra", "Gemini")),
    7: ("Phoenix", ("Sunset", "Crown")), 8: ("Phoenix", ("Sunset", "Hydra")),
    9: ("Phoenix", ("Sunset", "Gemini")), 10: ("Phoenix", ("Crown", "Hydra")),
    11: ("Phoenix", ("Crown", "Gemini")), 12: ("Phoenix", ("Hydra", "Gemini")),
    13: ("Panda", ("Sunset", "Phoenix")), 14: ("Panda", ("Sunset", "Hydra")),
    15: ("Panda", ("Sunset", "Gemini")), 16: ("Panda", ("Phoenix", "Hydra")),
    17: ("Panda", ("Phoenix", "Gemini")), 18: ("Panda", ("Hydra", "Gemini")),
    19: ("Crown", ("Sunset", "Phoenix")), 20: ("Crown", ("Sunset", "Panda")),
    21: ("Crown", ("Sunset", "Gemini")), 22: ("Crown", ("Phoenix", "Panda")),
    23: ("Crown", ("Phoenix", "Gemini")), 24: ("Crown", ("Panda", "Gemini")),
    25: ("Hydra", ("Sunset", "Phoenix")), 26: ("Hydra", ("Sunset", "Panda")),
    27: ("Hydra", ("Sunset", "Crown")), 28: ("Hydra", ("Phoenix", "Panda")),
    29: ("Hydra", ("Phoenix", "Crown")), 30: ("Hydra", ("Panda", "Crown")),
    31: ("Gemini", ("Phoenix", "Panda")), 32: ("Gemini", ("Phoenix", "Crown")),
    33: ("Gemini", ("Phoenix", "Hydra")), 34: ("Gemini", ("Panda", "Crown")),
    35: ("Gemini", ("Panda", "Hydra")), 36: ("Gemini", ("Crown", "Hydra")),
}

# docs/rules.md R2: players -> (cards per hand, coins per round, rounds).
TABLE = {2: (6, 12, 6), 3: (6, 12, 4), 4: (6, 12, 3), 5: (5, 10, 3), 6: (6, 12, 2)}

MAX_TILES = 10       # R9, R13
MAX_SHARES = 8       # R16
TOKEN_LIMIT = 18     # R17

BOARD_FILE = Path(__file__).resolve().parent.parent / "ekonos" / "board.json"
ADJ: dict[int, frozenset[int]] = {
    int(k): frozenset(v) for k, v in json.loads(BOARD_FILE.read_text())["adjacency"].items()}
SPACES = tuple(range(1, 37))


class NeedDeal(Exception):
    """The round ended and the next one must be dealt (pass `deal=` to `apply`)."""


class Ref:
    """A position in plain Python.  Companies are names, spaces 1-36, cards 1-36, seats 0-based."""

    def __init__(self, d: dict):
        self.n = len(d["players"])
        self.variant = d.get("variant", "rulebook")
        self.names = [p["name"] for p in d["players"]]
        self.coins = [p["coins"] for p in d["players"]]
        self.hands = [None if p["hand"] is None else set(p["hand"]) for p in d["players"]]
        self.hand_size = [len(h) if h is not None else p["hand_size"]
                          for h, p in zip(self.hands, d["players"])]
        self.round = d["round"]
        self.start = d["start_player"]
        self.to_move = d["to_move"]
        self.step = d["step"]
        self.board: dict[int, str] = {}
        self.protected: set[int] = set()
        for k, v in d["board"].items():
            self.board[int(k)] = v.rstrip("!")
            if v.endswith("!"):
                self.protected.add(int(k))
        self.growth = dict(d["growth"])
        self.shares = {c: list(d["shares"][c]) for c in COMPANIES}
        self.president = dict(d["president"])
        self.discard = list(d["discard"])
        t = d.get("turn")
        self.turn = None
        if t is not None:
            self.turn = {"player": t["player"], "card": t["card"], "sold": t.get("sold", False)}
            exp = t.get("expansion")
            if exp is not None:
                self.turn["company"] = exp["company"]
                if "actions_left" in exp:
                    self.turn["left"] = exp["actions_left"]
                    self.turn["from"] = set(exp["from"])
            if "candidates" in t:
                self.turn["candidates"] = set(t["candidates"])
                self.turn["company"] = t.get("company")

    # -- small queries ---------------------------------------------------------------------------
    def tiles(self, company: str) -> set[int]:
        return {s for s, c in self.board.items() if c == company}

    def column(self, company: str) -> int:
        return sum(self.shares[company])

    def tokens(self, seat: int) -> int:
        """R17: shares plus presidency markers."""
        return (sum(self.shares[c][seat] for c in COMPANIES)
                + sum(1 for c in COMPANIES if self.president[c] == seat))

    def buy_tokens(self, seat: int, company: str) -> int:
        """R17: the tokens a buy takes: the share, plus the presidency marker when the buy makes
        the buyer president (R18a: no president; R18b: strictly more shares than the president
        once the share is bought)."""
        pres = self.president[company]
        becomes = pres is None or (pres != seat and self.shares[company][seat] + 1
                                   > self.shares[company][pres])
        return 2 if becomes else 1

    def score(self, seat: int) -> int:
        """R19."""
        return self.coins[seat] + sum(self.shares[c][seat] * len(self.tiles(c)) for c in COMPANIES)

    def decider(self, company: str) -> int:
        """R11 (the president) / R12 (no president: the player of the card)."""
        p = self.president[company]
        return self.turn["player"] if p is None else p

    # -- legal decisions (canonical texts of docs/position-format.md) ----------------------------
    def legal(self) -> list[str]:
        out: list[str] = []
        if self.step == "card":
            hand = self.hands[self.to_move]
            if hand is None:
                return out
            empty = [s for s in SPACES if s not in self.board]
            for card in sorted(hand):
                top, bottom = DECK[card]
                if len(self.tiles(top)) < MAX_TILES:                              # R9a
                    out += [f"play {card} place {s}" for s in empty]
                out += [f"play {card} protect {s}" for s in sorted(self.tiles(top))
                        if s not in self.protected]                                # R9b
                out += [f"play {card} grow {b}" for b in bottom]                   # R10
        elif self.step == "expand-choice":                                         # R11 at 4
            out = ["expand", "wait"]
        elif self.step == "expand":                                                # R13
            b = self.turn["company"]
            if len(self.tiles(b)) < MAX_TILES:
                near = set()
                for s in self.turn["from"]:
                    near |= ADJ[s]
                for s in sorted(near):
                    holder = self.board.get(s)
                    if holder is None or (holder != b and s not in self.protected):
                        out.append(f"place {s}")
            out += [f"protect {s}" for s in sorted(self.tiles(b)) if s not in self.protected]
            out.append("stop")
        elif self.step == "sell":                                                  # R15
            out = [f"sell {c}" for c in COMPANIES if self.shares[c][self.to_move] > 0]
            out.append("pass")
        elif self.step == "buy":                                                   # R16, R17
            p = self.to_move
            out = [f"buy {c}" for c in COMPANIES
                   if self.column(c) < MAX_SHARES and self.coins[p] >= self.column(c) + 1
                   and (self.n < 4 or self.tokens(p) + self.buy_tokens(p, c) <= TOKEN_LIMIT)]
            out.append("pass")
        elif self.step == "successor":                                             # R18c
            out = [f"successor {q}" for q in sorted(self.turn["candidates"])]
        return out

    # -- transitions ----------------------------------------------------------------------------
    def apply(self, text: str, deal=None) -> "Ref":
        """A new Ref after `text` (which must be legal) and every forced step after it.
        `deal(ref)` -> list of hands (sets of cards) is called when a new round starts."""
        assert text in self.legal(), (text, self.step)
        r = copy.deepcopy(self)
        r._apply(text, deal)
        while r.step != "over":
            moves = r.legal()
            if len(moves) != 1:       # a single legal decision is taken at once (position format)
                break
            r._apply(moves[0], deal)
        return r

    def _goto(self, step: str) -> None:
        self.step = step
        self.to_move = self.turn["player"]

    def _apply(self, text: str, deal) -> None:
        w = text.split()
        if w[0] == "play":                                                          # R7-R10
            card, kind, arg = int(w[1]), w[2], w[3]
            p = self.to_move
            self.hands[p].discard(card)
            self.hand_size[p] -= 1
            self.discard.append(card)                                               # R8
            self.turn = {"player": p, "card": card, "sold": False}
            top = DECK[card][0]
            if kind == "place":
                self.board[int(arg)] = top
                self._goto("sell")
            elif kind == "protect":
                self.protected.add(int(arg))
                self._goto("sell")
            else:
                self._grow(arg)
        elif w[0] == "expand":
            self._begin_expansion(self.turn["company"], 2)
        elif w[0] == "wait":                                                        # R11
            del self.turn["company"]
            self._goto("sell")
        elif w[0] == "place":                                                       # R13a
            s = int(w[1])
            self.board[s] = self.turn["company"]   # a replaced tile simply leaves the map
            self._used_growth_action()
        elif w[0] == "protect":                                                     # R13b
            self.protected.add(int(w[1]))
            self._used_growth_action()
        elif w[0] == "stop":
            self._end_expansion()
        elif w[0] == "sell":
            self._sell(w[1])
        elif w[0] == "buy":
            self._buy(w[1])
            self._end_turn(deal)
        elif w[0] == "pass":
            if self.step == "sell":
                self._goto("buy")
            else:
                self._end_turn(deal)
        elif w[0] == "successor":
            company = self.turn.pop("company")
            self.president[company] = int(w[1])
            del self.turn["candidates"]
            self._goto("buy")
        else:
            raise AssertionError(text)

    def _grow(self, b: str) -> None:                                                # R10, R11
        self.growth[b] += 1
        if self.growth[b] == 4:
            self.turn["company"] = b
            self.step = "expand-choice"
            self.to_move = self.decider(b)
        elif self.growth[b] == 6:
            self._begin_expansion(b, 3)
        else:
            self._goto("sell")

    def _begin_expansion(self, b: str, actions: int) -> None:
        self.turn["company"] = b
        self.turn["left"] = actions
        self.turn["from"] = self.tiles(b)          # R13: adjacency as at the start
        self.step = "expand"
        self.to_move = self.decider(b)

    def _used_growth_action(self) -> None:
        self.turn["left"] -= 1
        if self.turn["left"] == 0:
            self._end_expansion()

    def _end_expansion(self) -> None:
        self.growth[self.turn["company"]] = 0                                      # R11, R14
        for k in ("company", "left", "from"):
            del self.turn[k]
        self._goto("sell")

    def _sell(self, c: str) -> None:                                                # R15, R18
        p = self.to_move
        self.coins[p] += self.column(c)
        self.shares[c][p] -= 1
        self.turn["sold"] = True
        if self.president[c] == p:
            if self.column(c) == 0:
                self.president[c] = None                                            # R18d
            else:
                others = {q: self.shares[c][q] for q in range(self.n) if q != p}
                best = max(others.values())
                if best > self.shares[c][p]:                                        # R18c
                    tied = {q for q, v in others.items() if v == best}
                    if len(tied) == 1:
                        self.president[c] = tied.pop()
                    else:
                        self.turn["candidates"] = tied
                        self.turn["company"] = c
                        self._goto("successor")
                        return
        # R18e: a non-president's sale changes nothing
        self._goto("buy")

    def _buy(self, c: str) -> None:                                                 # R16, R18
        p = self.to_move
        self.coins[p] -= self.column(c) + 1
        self.shares[c][p] += 1
        pres = self.president[c]
        if pres is None:                                                            # R18a
            self.president[c] = p
        elif pres != p and self.shares[c][p] > self.shares[c][pres]:                # R18b
            self.president[c] = p

    def _end_turn(self, deal) -> None:                                             # R5, R6, R19
        p = self.turn["player"]
        self.turn = None
        if any(self.hand_size):
            self.step = "card"
            self.to_move = (p + 1) % self.n
            self.turn = None
            assert self.hand_size[self.to_move] > 0
            return
        rounds = TABLE[self.n][2]
        if self.round == rounds:
            self.step = "over"
            self.to_move = None
            return
        if deal is None:
            raise NeedDeal()
        self.round += 1
        self.start = p if self.variant == "bga" else (self.start + 1) % self.n
        cards, coins, _ = TABLE[self.n]
        hands = deal(self)
        assert len(hands) == self.n and all(len(h) == cards for h in hands)
        self.hands = [set(h) for h in hands]
        self.hand_size = [cards] * self.n
        self.coins = [c + coins for c in self.coins]                                # R4
        self.discard = []
        self.step = "card"
        self.to_move = self.start

    # -- comparison ------------------------------------------------------------------------------
    def public_key(self) -> tuple:
        """Everything the rules define (hands included when known), for comparing with a
        position dict read back from the engine through `key_of_position`."""
        t = None
        if self.turn is not None and self.step not in ("card", "over"):
            t = (self.turn["player"], self.turn["card"], bool(self.turn["sold"]),
                 self.turn.get("company"), self.turn.get("left"),
                 tuple(sorted(self.turn.get("from", ()))) if "from" in self.turn else None,
                 tuple(sorted(self.turn.get("candidates", ()))) or None)
        return (self.n, self.variant, tuple(self.coins),
                tuple(None if h is None else tuple(sorted(h)) for h in self.hands),
                tuple(self.hand_size), self.round, self.start, self.to_move, self.step,
                tuple(sorted(self.board.items())), tuple(sorted(self.protected)),
                tuple(self.growth[c] for c in COMPANIES),
                tuple(tuple(self.shares[c]) for c in COMPANIES),
                tuple(self.president[c] for c in COMPANIES), tuple(self.discard), t)


def key_of_position(d: dict) -> tuple:
    """`Ref(d).public_key()` without any transition: the same key read from a position dict."""
    return Ref(d).public_key()


def perft(ref: Ref, depth: int) -> int:
    """Number of decision sequences of length `depth` (forced steps are not decisions)."""
    if depth == 0:
        return 1
    moves = ref.legal()
    if depth == 1:
        return len(moves)
    return sum(perft(ref.apply(m), depth - 1) for m in moves)
