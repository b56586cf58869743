"""One SPRT over several arena runs of the same test (`ekonos arena --sprt … --json` files),
behind `ekonos lab pool-sprt`.

    ekonos lab pool-sprt benchmarks/results/2026-11-23-level5-300000-vs-level4-2p-seed7{6,7,8}.json

A long SPRT is run in shards: the same two bots and the same test, each shard on new deals
(`--seed`), stopped by the clock rather than by a decision.  Each file keeps its units' outcome
histogram (`sprt.outcomes`), and a GSPRT's log-likelihood ratio depends only on those counts,
so the shards pool exactly.  Printed: after each file, in the order given, the units and games
so far, the pooled LLR against its bounds, the Elo estimate with its 95% interval and the
state (H1, H0 or continue).  Within a shard the order of its units is not kept, so the pooled
test is checked at the end of each shard, not after every unit.  A run without `--sprt` between
two bots keeps the same histogram (`tally`, since 2026-11-28): it pools with shards of a test,
or, given `--sprt ELO0,ELO1`, with other runs like it; `--sprt` also re-reads shards under other
bounds (the LLR needs only the counts; a shard that stopped at its own bound stopped early).
Last, each bot's win share over every shard's games with its interval over all their blocks
(the arena writes each bot's blocks since 2026-11-29), what a target like "31% of the wins as
one seat against three" is read from.  A shard that repeats another's deals is refused.
A target read again as shards are added is looked at more than once, and each look with a
95% interval is another 5% chance of a false "met": `--looks K` also prints the interval
widened to Pocock's constant for K looks (the repeated-significance boundary that keeps the
chance over all K at 5%, two-sided; exact for looks at equal steps of games).

`--by win` pools a test by the win instead (`search.lab.sprt`, Luce's model): each shard's units
are then its whole blocks' shares of the wins, read from the bots' blocks (runs since
2026-11-29, with or without a test of their own), and a shard's own bounds count only when its
own test was by the win.

Bots are compared by their full specs: a level's spec changes when the levels are refit, so a
file names its levels' specs (`specs`, written by the arena since session 27).  An older file
that names a level without its spec is refused unless `--spec LABEL=SPEC` says what the label
meant where that run was made (the level definitions at its commit, `git show C:search/bots.py`).
A model or network named by a path compares by the name its content gives it (a file named
`eval-…`/`net-…` is that name, since a named file whose bytes do not hash to it is refused), so
a shard run with `model=/abs/path/eval-….json` pools with one run as `model=rel/eval-….json`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ekonos.errors import EkonosError
from ekonos.files import FileError, read_bounded
from search.lab.arena import Z95, clustered_interval, resolved
from search.registry import recorded_spec
from search.bots import ISMCTSBot, names_level
from search.lab.sprt import BYS, Sprt, model_for_players
from search import evaluation, network

#: Parameters naming a file that is compared by its content's name, with that name's pattern,
#: the function naming a file's bytes and the largest such file read.
BY_CONTENT = {"model": (evaluation.NAME, evaluation.name_of_bytes, evaluation.MAX_MODEL_BYTES),
              "net": (network.NAME, network.name_of_bytes, network.MAX_NET_BYTES)}

#: The largest `arena --json` result read: a real one is a few KB.
MAX_RESULT_BYTES = 16 << 20

#: The most seat-games of one bot in one arena block (six players, six games, every seat).
MAX_SEATS = 36

#: Pocock's constant for K looks at an overall 5%, two-sided (Pocock 1977; Jennison & Turnbull,
#: *Group Sequential Methods*, table 2.1): the z of each look's interval.
POCOCK = {1: Z95, 2: 2.178, 3: 2.289, 4: 2.361, 5: 2.413, 6: 2.453, 7: 2.485, 8: 2.512,
          9: 2.535, 10: 2.555}

#: What must match for two runs to be one test: their units, and the bounds of those that ran one.
UNITS = ("test", "base", "model", "players", "by", "odds")
BOUNDS = ("elo0", "elo1", "alpha", "beta")
SAME = UNITS + BOUNDS


@dataclass(frozen=True)
class Step:
    """The pooled test after one more shard."""
    units: int
    games: int
    llr: float
    lower: float
    upper: float
    elo: float
    elo_ci: tuple[float, float]
    state: str


def bot_of(run: dict, label: str, k: int, given: dict[str, str]) -> str:
    """The canonical spec that `label` of run k stands for: from `given` (--spec), else the file's
    own record, else the label itself when it is a spec (ValueError for a bare level name)."""
    recorded = run.get("specs")
    text = given.get(label) or (recorded.get(label) if isinstance(recorded, dict) else None)
    if not isinstance(text, str):
        if names_level(label.partition("@")[0]):
            raise ValueError(f"run {k} names {label!r} without its spec (the file is older than "
                             f"the arena's record of specs): say what it was with --spec "
                             f"{label}=SPEC")
        text = label
    canonical = as_of_then if label in given else recorded_spec
    for spec in (text, by_content(text)):    # a model file not here: by its name, if shipped
        try:                    # a text from the file, written by any version, reads as it meant
            return by_content(canonical(spec))
        except EkonosError:
            pass
    return by_content(text)                      # not a spec here: compared as written


def as_of_then(text: str) -> str:
    """A `--spec` text (what a label meant where an older run was made, as that commit's level
    definitions wrote it) in canonical form: today's defaults, except the evaluation's model,
    which those definitions left to the default of their time, the model shipped until specs
    named theirs (`ISMCTSBot.FORMER_MODEL`); a text naming its model keeps it."""
    spec = resolved(text)
    if "model=" in text:
        return spec
    return _with_values(spec, lambda key, value:
                        ISMCTSBot.FORMER_MODEL if key == "model" else value)


def by_content(spec: str) -> str:
    """`spec` with each model or network path (`BY_CONTENT`) replaced by its content's name: the
    file's stem when it is such a name, else the name of the file's bytes when it can be read;
    a path that is neither stays as written."""
    return _with_values(spec, _content_name)


def _content_name(key: str, value: str) -> str:
    """The name of the file `value` of parameter `key` when `key` names a file (`by_content`)."""
    if key not in BY_CONTENT:
        return value
    pattern, name_of, limit = BY_CONTENT[key]
    stem = Path(value).stem
    if pattern.fullmatch(stem):
        return stem
    if Path(value).is_file():
        try:
            return name_of(read_bounded(value, limit, f"{key} file"))
        except FileError:                         # unreadable: compared as written
            pass
    return value


def _with_values(spec: str, change) -> str:
    """`spec` (NAME:KEY=VALUE,...) with each value replaced by `change(key, value)`."""
    name, colon, rest = spec.partition(":")
    if not colon:
        return spec
    items = []
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        items.append(f"{key}{eq}{change(key, value)}" if eq else item)
    return f"{name}:{','.join(items)}"


def sprt_of(run: dict, k: int, given: dict[str, str], by: str = "score") -> dict:
    """Run k's SPRT record, or the units of a run without one (``tally``, written by the arena
    for two bots since 2026-11-28: no bounds, ``elo0`` and the rest None), with its two bots as
    canonical specs (`bot_of`); ValueError when the run has neither.  By the win, the units of
    its whole blocks (`win_units`)."""
    if by == "win":
        s = win_units(run, k)
    else:
        s = _units(run, by)
        if s is None:
            raise ValueError(f"run {k} has no SPRT and no tally of its units by score (it was "
                             "run without --json, or without --sprt before the arena kept them)")
        if s is not run.get("sprt"):                     # a tally: a run without --sprt
            s = dict(s, **{key: None for key in BOUNDS})
        s = dict(s, by="score", odds=1.0)
    return dict(s, test=bot_of(run, s["test"], k, given), base=bot_of(run, s["base"], k, given),
                players=run.get("players"))


def win_units(run: dict, k: int) -> dict:
    """Run k's units by the win: for each whole block (both bots' seat-games filling every seat
    of every game of the block; a block cut short by a stop is left out), the test bot's share
    of the block's wins, as a histogram like a test's ``outcomes``; the odds, test seats per
    base seat; the run's own bounds when its own test was by the win, else None."""
    test, base = _blocks_of(run, k, "test"), _blocks_of(run, k, "base")
    if test is None or base is None:
        raise ValueError(f"run {k} keeps no blocks (made before the arena wrote them, "
                         "2026-11-29): it cannot be read by the win")
    players = run.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
        raise ValueError(f"run {k} says no player count from 2 to 6")
    if len(test) != len(base):
        raise ValueError(f"run {k}: the two bots' blocks do not match ({len(test)} and "
                         f"{len(base)})")
    counts: dict[float, int] = {}
    odds = None
    for (won, seats), (lost, others) in zip(test, base):
        if seats + others != players * players:
            continue                                     # a block cut short
        if not others or won + lost == 0:
            raise ValueError(f"run {k}: a whole block without a base seat or without a win")
        if odds is not None and seats / others != odds:
            raise ValueError(f"run {k}: its blocks seat the bots in different numbers")
        odds = seats / others
        key = round(won / (won + lost), 12)
        counts[key] = counts.get(key, 0) + 1
    if odds is None:
        raise ValueError(f"run {k} has no whole block")
    own = run.get("sprt") if isinstance(run.get("sprt"), dict) else {}
    bounds = {key: own.get(key) if own.get("by") == "win" else None for key in BOUNDS}
    units = sum(counts.values())
    return {"test": _label(run, "test"), "base": _label(run, "base"),
            "model": model_for_players(players), "by": "win", "odds": odds,
            "games": units * players, "units": units,
            "outcomes": [[v, counts[v]] for v in sorted(counts)], **bounds}


def the_test(tests: list[dict], bounds: tuple[float, float] | None) -> dict:
    """The pooled test of these records (`sprt_of`), as `Sprt`'s arguments: `bounds` with the
    first SPRT's alpha and beta (0.05 without one), else the first SPRT's own."""
    first = next((t for t in tests if t["elo0"] is not None), None)
    if bounds is None and first is None:
        raise ValueError("no run ran an SPRT: say which test to pool them into with --sprt "
                         "ELO0,ELO1")
    alpha, beta = (first["alpha"], first["beta"]) if first else (0.05, 0.05)
    elo0, elo1 = bounds if bounds is not None else (first["elo0"], first["elo1"])
    return {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": tests[0]["model"],
            "by": tests[0]["by"], "odds": tests[0]["odds"]}


def pool(runs: list[dict], given: dict[str, str] | None = None,
         bounds: tuple[float, float] | None = None, by: str = "score") -> list[Step]:
    """The pooled test after each run in turn (ValueError when they are not the same test, or
    when the test had already been decided before a run).  `given`: label -> spec, what a
    label that a file does not resolve stands for.  `bounds` (ELO0, ELO1): the test to run over
    the pooled units, whatever the runs' own bounds; without it, the runs that ran an SPRT must
    agree on theirs, and at least one must have run one (runs without one pool with them).
    `by`: what a unit scores, ``score`` or ``win`` (`search.lab.sprt`)."""
    return _pool(records(runs, given, by), bounds)


def records(runs: list[dict], given: dict[str, str] | None = None,
            by: str = "score") -> list[dict]:
    """Each run's `sprt_of` record (ValueError for no runs, or for a run that repeats an earlier
    one's deals: the same seed and player count, so the same games counted twice)."""
    if not runs:
        raise ValueError("no runs to pool")
    if by not in BYS:
        raise ValueError(f"a test scores by {' or '.join(BYS)}, not {by!r}")
    seen: dict[tuple, int] = {}
    for k, run in enumerate(runs, 1):
        if not isinstance(run, dict):
            continue                                   # sprt_of says what is wrong with it
        deals = (run.get("seed"), run.get("players"), run.get("variant", "rulebook"))
        if isinstance(deals[0], int) and deals in seen:
            raise ValueError(f"run {k} plays run {seen[deals]}'s deals again (seed {deals[0]}): "
                             "its games would count twice; give each shard its own --seed")
        seen[deals] = k
    return [sprt_of(run, k, given or {}, by) for k, run in enumerate(runs, 1)]


def shares(runs: list[dict], z: float = Z95
           ) -> list[tuple[str, float, int, float, float]]:
    """The win share of the test bot and of the base bot over every run's games, each as (label,
    share, seat-games, low, high): the interval `clustered_interval` over all the runs' blocks, as
    one run of them all would give, at `z` (a 95% interval by default).  Empty when a run does
    not keep its blocks (made before the arena wrote them, 2026-11-29); ValueError for a
    malformed record."""
    return [(label, *_share(wins, counts, z)) for label, wins, counts in _pooled_blocks(runs)]


def _share(wins: list[float], counts: list[int], z: float) -> tuple[float, int, float, float]:
    """(share, seat-games, low, high) of one bot's pooled blocks, the interval at `z`."""
    n = sum(counts)
    return (sum(wins) / n if n else 0.0, n, *clustered_interval(wins, counts, z))


def _pooled_blocks(runs: list[dict]) -> list[tuple[str, list[float], list[int]]]:
    """(label, wins, seat-games) per block over all the runs, for the test bot and the base
    bot; empty when a run keeps no blocks."""
    out = []
    for role in ("test", "base"):
        wins, counts = [], []
        for k, run in enumerate(runs, 1):
            blocks = _blocks_of(run, k, role)
            if blocks is None:
                return []
            for w, c in blocks:
                wins.append(w)
                counts.append(c)
        out.append((_label(runs[0], role), wins, counts))
    return out


def _units(run: object, by: str | None = None) -> dict | None:
    """A run's record of its units: its SPRT (``sprt``), else its ``tally``, else None; with
    `by`, only a record of units scored that way (one written before tests were by the win is
    by score)."""
    for key in ("sprt", "tally"):
        s = run.get(key) if isinstance(run, dict) else None
        if isinstance(s, dict) and (by is None or s.get("by", "score") == by):
            return s
    return None


def _label(run: dict, role: str) -> str:
    """The label a run's record gives the bot in `role` ('test' or 'base')."""
    return _units(run)[role]


def _blocks_of(run: dict, k: int, role: str) -> list[tuple[float, int]] | None:
    """Run k's blocks of the bot in `role` ('test' or 'base'): [wins, seat-games] pairs, or None
    when the run has none.  The bot is found by its label (the record's own)."""
    label = _label(run, role)
    bots = run.get("bots")
    bot = next((b for b in bots if isinstance(b, dict) and b.get("bot") == label), None) \
        if isinstance(bots, list) else None
    if bot is None or "blocks" not in bot:
        return None
    out = []
    for pair in bot["blocks"] if isinstance(bot["blocks"], list) else [None]:
        ok = isinstance(pair, list) and len(pair) == 2 and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in pair)
        if not ok or not (pair[1] == int(pair[1]) and 0 <= pair[0] <= pair[1] <= MAX_SEATS):
            raise ValueError(f"run {k}: {label!r}'s blocks must be [wins, seat-games] "
                             f"pairs with 0 <= wins <= seat-games <= {MAX_SEATS}")
        out.append((float(pair[0]), int(pair[1])))
    return out


def _pool(tests: list[dict], bounds: tuple[float, float] | None) -> list[Step]:
    params = the_test(tests, bounds)
    want = dict(params, test=tests[0]["test"], base=tests[0]["base"],
                players=tests[0]["players"])
    test = Sprt(**params)
    out = []
    for k, s in enumerate(tests, 1):
        same = SAME if bounds is None and s["elo0"] is not None else UNITS
        differ = [key for key in same if s[key] != want[key]]
        if differ:
            raise ValueError(f"run {k} is not the same test as the pool's: "
                             + ", ".join(f"{key} {s[key]!r} against {want[key]!r}"
                                         for key in differ))
        if test.state != "continue":
            raise ValueError(f"run {k} cannot be added: the pooled test already accepted "
                             f"{test.state} after run {k - 1} ({test.games} games), which is "
                             "its verdict: a decided test takes no more games (the runs before "
                             "it alone give its figures).  Runs pool in the order given: put a "
                             "run whose own test stopped at a bound last")
        test.add_outcomes(s["outcomes"], int(s["games"]))
        est = test.elo()
        out.append(Step(test.units, test.games, test.llr, test.lower, test.upper, est.elo,
                        (est.low, est.high), test.state))
    return out


def parse_given(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """`LABEL=SPEC` texts as a label -> spec dict (ValueError naming a malformed one).  A label
    may itself be a spec with parameters (`ismcts:iterations=25000,model=a.json`): the text is
    split at the first '=' after which a bot spec follows, else at the first '='."""
    given = {}
    for item in items:
        cuts = [i for i, ch in enumerate(item) if ch == "="]
        if not cuts:
            raise ValueError(f"--spec {item!r}: give LABEL=SPEC")
        at = next((i for i in cuts if item[:i].strip() and _names_a_bot(item[i + 1:])), cuts[0])
        label, text = item[:at].strip(), item[at + 1:].strip()
        if not label or not text:
            raise ValueError(f"--spec {item!r}: give LABEL=SPEC")
        given[label] = text
    return given


def _names_a_bot(text: str) -> bool:
    """Does `text` read as a bot spec (`resolved` takes it)?"""
    try:
        resolved(text.strip())
    except EkonosError:
        return False
    return True


def report(names: list[str], runs: list[dict], given: dict[str, str] | None = None,
           bounds: tuple[float, float] | None = None, by: str = "score",
           looks: int = 1) -> list[str]:
    """The lines printed for runs of one test (their file names in `names`): the test, then the
    pooled state after each run, then the win shares, with their interval over `looks` looks
    too when it is more than one (`POCOCK`).  ValueError (or KeyError, TypeError on a malformed
    record) when they are not runs of one test, or for a number of looks not in `POCOCK`."""
    if looks not in POCOCK:
        raise ValueError(f"looks must be 1 to {max(POCOCK)}, not {looks!r}")
    tests = records(runs, given, by)
    steps = _pool(tests, bounds)
    t = the_test(tests, bounds)
    scored = (f", by the win (Elo from the win rate per seat, {t['odds']:g} test seats to 1)"
              if by == "win" else "")
    out = [f"{tests[0]['test']} against {tests[0]['base']}: SPRT({t['elo0']:g}, {t['elo1']:g}), "
           f"{t['model']}{scored}"]
    for name, st in zip(names, steps):
        out.append(f"{name}: {st.games} games, LLR {st.llr:+.2f} ({st.lower:+.2f}, "
                   f"{st.upper:+.2f}), Elo {st.elo:+.0f} [{st.elo_ci[0]:+.0f}, "
                   f"{st.elo_ci[1]:+.0f}], {st.state}")
    players = runs[0].get("players")
    pooled = _pooled_blocks(runs)
    if not pooled:
        out.append("win shares: not pooled, a run keeps no blocks (made before 2026-11-29)")
    parity = f" (parity {100 / players:.1f}%)" if isinstance(players, int) and players else ""
    for label, wins, counts in pooled:
        share, n, low, high = _share(wins, counts, Z95)
        over = ""
        if looks > 1:
            wide = clustered_interval(wins, counts, POCOCK[looks])
            over = f"; over {looks} looks [{100 * wide[0]:.1f}, {100 * wide[1]:.1f}]"
        out.append(f"win share of {label}: {100 * share:.1f}% [{100 * low:.1f}, "
                   f"{100 * high:.1f}] of {n} seat-games{parity}{over}")
    return out
