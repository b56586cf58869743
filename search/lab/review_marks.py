"""Do the review's marks survive a deeper look?  (`ekonos lab review-marks`)

Each game is reviewed twice, every seat: at the default budget with one seed, and at `factor`
times that budget with another seed.  A mark of the first review is *confirmed* when the deep
review marks the same decision at least as severely (a mistake the deep review calls a blunder
is confirmed; one it calls an inaccuracy, or leaves unmarked, is not), and *kept* when the deep
review marks it at all.  Marks the deep review gives where the first gave none are counted as
*new*.  The table is per mark kind, with the totals over the blunders and mistakes, and over all.

The reviews are whatever `search.review.review_game` is in the tree that runs this (the
comparison reads only each decision's `ply`, `seat` and `mark`), so the same command measures
the review before and after a change.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ekonos import State
from ekonos.moves import Move

#: Mark kinds, least severe first (a rank: a deeper mark of at least the rank confirms).
KINDS = ("inaccuracy", "mistake", "blunder")


def severity(mark: str | None) -> int:
    """0 for no mark, then 1-3 by KINDS."""
    return 0 if mark is None else KINDS.index(mark) + 1


@dataclass(frozen=True)
class Row:
    """One line of the table: marks of the first review of `kind` (or a group of kinds)."""

    kind: str
    marks: int           # marks of the first review
    confirmed: int       # the deep review marks them at least as severely
    same: int            # ... with the same mark
    kept: int            # ... with any mark
    new: int             # marks of the deep review of this kind where the first gave none

    @property
    def rate(self) -> float | None:
        return self.confirmed / self.marks if self.marks else None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "marks": self.marks, "confirmed": self.confirmed,
                "same": self.same, "kept": self.kept, "new": self.new,
                "confirmed_share": None if self.rate is None else round(self.rate, 3)}


def compare(pairs: Iterable[tuple[Sequence, Sequence]]) -> list[Row]:
    """The table from (first review's decisions, deep review's decisions) of each game: rows
    per kind (most severe first), then "blunder+mistake" and "all"."""
    first_marks: list[tuple[int, int]] = []          # (first severity, deep severity)
    new = {k: 0 for k in KINDS}
    for shallow, deep in pairs:
        deep_by = {(d.ply, d.seat): severity(d.mark) for d in deep}
        for d in shallow:
            s, t = severity(d.mark), deep_by.get((d.ply, d.seat), 0)
            if s:
                first_marks.append((s, t))
            elif t:
                new[KINDS[t - 1]] += 1

    def row(name: str, kinds: set[int]) -> Row:
        chosen = [(s, t) for s, t in first_marks if s in kinds]
        return Row(name, len(chosen), sum(t >= s for s, t in chosen),
                   sum(t == s for s, t in chosen), sum(t > 0 for _, t in chosen),
                   sum(new[KINDS[k - 1]] for k in kinds))

    rows = [row(k, {i}) for i, k in reversed(list(enumerate(KINDS, 1)))]
    return rows + [row("blunder+mistake", {2, 3}), row("all", {1, 2, 3})]


def reproduce(games: Sequence[tuple[State, Sequence[Move], int]], factor: int = 16,
              seeds: tuple[int, int] = (0, 1), workers: int = 2,
              iterations: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> dict:
    """Review each (start, moves, ply0) game at `iterations` (None: the review's default)
    with seeds[0], and at `factor` times that with seeds[1]; the table (`compare`), the
    budgets, and the seconds each review took."""
    import time

    from search import review
    base = review.DEFAULT_ITERATIONS if iterations is None else iterations
    pairs, seconds = [], []
    for i, (start, moves, ply0) in enumerate(games):
        timed = []
        for budget, seed in ((base, seeds[0]), (base * factor, seeds[1])):
            t0 = time.perf_counter()
            result = review.review_game(start, moves, iterations=budget, seed=seed, ply0=ply0,
                                        workers=workers)
            timed.append((result, time.perf_counter() - t0))
        pairs.append((timed[0][0].decisions, timed[1][0].decisions))
        seconds.append([round(t, 1) for _, t in timed])
        if progress is not None:
            progress(i + 1, len(games))
    rows = compare(pairs)
    return {"iterations": base, "factor": factor, "seeds": list(seeds),
            "games": len(games), "decisions": sum(len(a) for a, _ in pairs),
            "seconds": seconds, "rows": [r.to_dict() for r in rows],
            "by_method": by_method(pairs), "details": details(pairs)}


def _look(d) -> dict:
    return {"method": d.method, "mark": d.mark, "loss": d.loss, "low": d.low, "high": d.high}


def details(pairs: Iterable[tuple[Sequence, Sequence]], floor: float = 2.0) -> list[dict]:
    """Each decision that either review found to lose `floor` points or more (or marked): its
    game, ply and seat, and each review's method, mark, loss and interval, for a later look at
    other marking rules without searching again."""
    out = []
    for game, (shallow, deep) in enumerate(pairs):
        deep_by = {(d.ply, d.seat): d for d in deep}
        for d in shallow:
            e = deep_by.get((d.ply, d.seat))
            if e is not None and (d.mark or e.mark or max(d.loss, e.loss) >= floor):
                out.append({"game": game, "ply": d.ply, "seat": d.seat,
                            "first": _look(d), "deep": _look(e)})
    return out


def by_method(pairs: Iterable[tuple[Sequence, Sequence]]) -> dict[str, dict[str, int]]:
    """The first review's marks by how they were made (`second` look, or `exact`), and how many
    of each the deep review confirms."""
    out: dict[str, dict[str, int]] = {}
    for shallow, deep in pairs:
        deep_by = {(d.ply, d.seat): severity(d.mark) for d in deep}
        for d in shallow:
            if d.mark:
                row = out.setdefault(d.method, {"marks": 0, "confirmed": 0})
                row["marks"] += 1
                row["confirmed"] += deep_by.get((d.ply, d.seat), 0) >= severity(d.mark)
    return out


def table_lines(result: dict) -> list[str]:
    """The table as text lines."""
    out = [f"{result['games']} games, {result['decisions']} decisions; first review "
           f"{result['iterations']} iterations (seed {result['seeds'][0]}), deep "
           f"{result['iterations'] * result['factor']} (seed {result['seeds'][1]})",
           f"{'mark':16s} {'marks':>5s} {'confirmed':>9s} {'share':>6s} {'same':>5s} "
           f"{'kept':>5s} {'new':>5s}"]
    for r in result["rows"]:
        share = "—" if r["confirmed_share"] is None else f"{r['confirmed_share']:.0%}"
        out.append(f"{r['kind']:16s} {r['marks']:5d} {r['confirmed']:9d} {share:>6s} "
                   f"{r['same']:5d} {r['kept']:5d} {r['new']:5d}")
    for method, row in sorted(result.get("by_method", {}).items()):
        out.append(f"marks by the {method} look: {row['marks']}, {row['confirmed']} confirmed")
    return out
