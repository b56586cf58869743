"""The games of the marks measurement: 8 games, 4 of 3 players and 4 of 4, the AI seats at
LEVEL, the person's seat played by a level-1 AI (people err: so do these), written as
`ekonos play` records them.
Run: .venv/bin/python benchmarks/results/2026-11-25-marks/make_games.py OUTDIR [LEVEL [SEED]]
(SEED 100 by default: the AI seats' seeds SEED+i, the person's SEED+100+i; 2026-11-26-marks
used 300 for a second, held-out set of games)."""
import json
import sys
from pathlib import Path

from cli.record import write_record
from cli.session import GameSession
from ekonos.moves import Move

out = Path(sys.argv[1])
level = int(sys.argv[2]) if len(sys.argv) > 2 else 2
base = int(sys.argv[3]) if len(sys.argv) > 3 else 100
out.mkdir(parents=True, exist_ok=True)
for i, players in enumerate([3, 4] * 4):
    s = GameSession.new(ai=players - 1, level=level, seed=base + i)
    person = GameSession.new(ai=players - 1, level=min(level, 1), seed=base + 100 + i).bots[1]
    while not s.state.is_over():
        if s.human_to_move():
            s.decide(Move.from_action(person.choose(s.state.view(s.human), seed=len(s.decisions))))
        else:
            s.play_ai()
    moves = [d.move for d in s.decisions]
    record = write_record(s.state, s.start, moves, human=s.human, level=level, ai_seed=base + i,
                          ply0=0)
    (out / f"game-{i + 1}-{players}p.json").write_text(json.dumps(record))
    print(i + 1, players, len(moves), flush=True)
