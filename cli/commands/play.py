"""`ekonos play`: a game against the AI in the terminal.

The game itself is a `cli.session.GameSession` (seats, AI turns, undo/redo, the record,
autosave); this module is the terminal around it: the click command, prompts read with
`input_fn`, rich rendering (the board from cli/render/, the rest from cli/panels.py), a spinner
while an AI thinks, and saving on Ctrl-C, end of input and `quit`.  `TerminalGame` takes its
input function and console from the caller, so tests drive whole games with scripted answers.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from typing import Callable

import click
from rich.console import Console
from rich.markup import escape

from ekonos import State
from ekonos.errors import InvalidMoveError, MoveError
from search.bots import LEVELS

from cli import output, render, storage
from cli.busy import BESIDE, WATCH, open_beside
from cli.busy import choose as busy_choice, refusal as busy_refusal, watch as busy_watch
from cli.errors import InputError
from cli.options import level_option, seed_option, variant_option
from cli.grammar import Command, interpret
from cli.panels import full_list, log_table, step_question
from cli.screen import prompt_screen
from cli.events import (AutosaveFailed, DecisionMade, Event, GameOver, RecordFailed,
                        RoundStarted)
from cli.commands.review import offer_review
from cli.commands.rules import RULES
from cli.narration import move_label
from cli.presentation import level_text, levels_summary
from cli.session import GameSession, NothingToRedo, NothingToUndo, SessionError
from ekonos.moves import MoveKind

HELP = """\
[bold]Decide[/] by typing
  • at the card step: the card, a verb and a space or a company:
      `22 p 12` place card 22's company on 12 · `22 pr 32` protect 32
      `22 g pan` grow Panda · or the [bold cyan]number[/] of a growth in your hand
  • at the other steps: the [bold cyan]number[/] of a decision, or its words:
      `e`/`w` expand or wait · `p 14`, `pr 14`, `s` place, protect, stop
      `s cro`, `b pan` (or `cro`) sell or buy · `n` pass · a name: successor
  • `h1`, `h2`, `h3`: a row of the last hint
  • the notation anywhere: `play 7 place 12`, `sell Crown`, `pass`, ... (any
    case, companies by 3 letters or more; `#2 g hyd`: the 2nd card of the hand)
[bold]Commands[/]
  help    this text                rules   the rules in one screen
  list    every legal decision     hint    the AI's advice (then h1, h2, h3)
  undo    your previous decision   redo    what undo took back
  show    the board again          log     the decisions so far (`log all`)
  save F  save the game in F       quit    save and leave
"Since your turn" lists what the others did since your last decision; the map
shows the spaces they changed in CAPITALS.
The game is saved after every decision in {autosave}."""


class QuitGame(Exception):
    """The person asked to stop."""


class TerminalGame:
    """A `GameSession` played in a terminal: `run()` plays to the end or until the person quits.

    `input_fn(prompt)` returns one line (raising EOFError at the end of input); `console` is
    where everything is printed."""

    def __init__(self, session: GameSession, console: Console | None = None,
                 input_fn: Callable[[str], str] | None = None,
                 typed_ahead: Callable[[], list[str]] | None = None, verbose: bool = False):
        self.session = session
        self.verbose = verbose                  # the AI's spec beside its level
        self.console = console or Console()
        self.input_fn = input_fn or (lambda prompt: self.console.input(prompt))
        # what was typed before a question (taken off the terminal's input): dropped when a
        # step of the person's was taken for them, so it cannot answer the next one
        self.typed_ahead = typed_ahead or (output.typed_ahead if input_fn is None
                                           else (lambda: []))
        self._skipped: tuple[str, ...] = ()     # the person's steps taken since the last prompt
        self._shown: int | None = None          # the version shown with the board
        session.subscribe(self._on_event)
        for note in session.notes:
            self.console.print(f"[yellow]Note:[/] {escape(note)}")
        kept = session.kept_unfinished
        if kept is not None:
            self.console.print(f"[yellow]Note:[/] your unfinished game was kept in "
                               f"[bold]{escape(str(kept))}[/]; resume it with:")
            self.console.print(resume_command(kept), soft_wrap=True, markup=False)

    @classmethod
    def new_game(cls, console: Console | None = None, input_fn=None, **kwargs) -> "TerminalGame":
        return cls(GameSession.new(**kwargs), console=console, input_fn=input_fn)

    @classmethod
    def load(cls, path, console: Console | None = None, input_fn=None,
             **kwargs) -> "TerminalGame":
        return cls(GameSession.load(path, **kwargs), console=console, input_fn=input_fn)

    @property
    def state(self) -> State:
        return self.session.state

    # -- what the session tells ---------------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        c = self.console
        s = self.session
        if isinstance(event, DecisionMade):
            d = event.decision
            self._skipped += d.skipped
            if not event.human and d.move.kind is MoveKind.PASS and not d.reason.endswith(
                    "buy skipped"):
                return                     # an AI's pass changes nothing: not worth a line
            style = "bold green" if event.human else "bold"
            c.print(f"[{style}]{escape(s.names[d.seat])}[/]: "
                    f"[bold]{escape(move_label(d.move, s.names))}[/] — "
                    f"{escape(d.reason)}")
        elif isinstance(event, RoundStarted):
            c.rule(f"Round {event.round} of {event.rounds}: new hands, "
                   f"+{event.coins} coins each")
        elif isinstance(event, AutosaveFailed):
            c.print(f"[red]Could not autosave: {escape(event.reason)}.[/] The game goes on "
                    "in memory; you will be asked where to save it when you leave.")
        elif isinstance(event, RecordFailed):
            c.print(f"[red]Could not save the game record to {escape(str(event.path))}: "
                    f"{escape(event.reason)}[/]")

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (or until the person quits).  Returns the exit status (0)."""
        s = self.session
        if s.state.is_over():              # a finished game loaded: show its end again
            self._finish()
            return 0
        spec = f" [dim]({escape(LEVELS[s.level])})[/]" if self.verbose else ""
        self.console.print(f"[bold]Ekonos[/]: {self._players_line()} — {level_text(s.level)}"
                           f"{spec}, seed {s.state.seed}. Type `help` for help.")
        if s.autosave is not None and s.autosave_error is not None:
            self.console.print(f"[red]Autosave is off: {escape(s.autosave_error)}.[/] Use "
                               "`save FILE` to keep the game.")
        while True:
            try:
                while not s.state.is_over():
                    if s.human_to_move():
                        self._human_decision()
                    else:
                        self._ai_decision()
                self._finish()
                return 0
            except QuitGame:
                self._goodbye()
                return 0
            except EOFError:
                self.console.print()
                self._goodbye("End of input.", ask=False)
                return 0
            except KeyboardInterrupt:
                if self._offer_quit():
                    return 0

    def _players_line(self) -> str:
        s = self.session
        return ", ".join(f"{escape(n)}{' (you)' if q == s.human else ''}"
                         for q, n in enumerate(s.names))

    def _offer_quit(self) -> bool:
        s = self.session
        s.autosave_now()
        where = f" (saved in {s.autosave})" if s.autosave_ok else ""
        self.console.print(f"\n[yellow]Interrupted{where}.[/]")
        try:
            answer = self.input_fn("Save and quit? \\[Y/n] ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            answer = "y"
        if answer in ("n", "no"):
            self._shown = None
            return False
        self._goodbye()
        return True

    def _goodbye(self, why: str = "", ask: bool = True) -> None:
        """Leaving: the game is in the autosave, or (when that cannot be written) the person is
        asked for a file, unless the input has ended (`ask` False)."""
        s = self.session
        s.autosave_now()
        lead = f"{why} " if why else ""
        if s.autosave_ok:
            self.console.print(f"{lead}Game saved in [bold]{escape(str(s.autosave))}[/]. "
                               "Resume with:")
            self.console.print(resume_command(s.autosave), soft_wrap=True, markup=False)
            return
        if s.autosave is not None:
            self.console.print(f"{lead}[red]The game is not saved: the autosave failed "
                               f"({escape(s.autosave_error or '')}).[/]")
        else:
            self.console.print(f"{lead}The game is not saved (no autosave file).")
        if ask:
            self._ask_where()

    def _ai_decision(self) -> None:
        s = self.session
        turn = s.ai_turn()
        name = s.names[turn.seat]
        with self.console.status(f"{escape(name)} is thinking…", spinner="dots"):
            move = turn.think()
        s.commit(turn, move)

    def _show(self, hint: dict | None = None) -> None:
        """The prompt's screen (cli.screen): the table, what the others did since your last
        decision, the hand (or `hint` beside the table), the question, in the richest form
        that fits the terminal with the prompt line below it."""
        self.console.print(self.screen(hint=hint)[1])
        self._shown = self.session.version

    def screen(self, width: int | None = None, height: int | None = None,
               hint: dict | None = None):
        """(layout, renderable) of the decision prompt for a terminal of `width` × `height`
        (the console's by default); one line is left for the prompt."""
        s = self.session
        return prompt_screen(self.console, s.state, s.human, s.decisions, width, height, hint)

    def _drop_typed_ahead(self) -> None:
        """After a step of the person's was taken for them, what they typed ahead (meant for
        it) is dropped with a note, never read as the answer to the next question."""
        skipped, self._skipped = self._skipped, ()
        lines = self.typed_ahead() if skipped else []
        if lines:
            steps = " and ".join(skipped)
            self.console.print("[yellow]Dropped what you typed ahead[/] ("
                               + ", ".join(f"`{escape(line.strip())}`" for line in lines)
                               + f"): your {steps} step{'s were' if len(skipped) > 1 else ' was'}"
                               " taken for you (nothing to choose). Answer the question below.")

    def _human_decision(self) -> None:
        s = self.session
        self._drop_typed_ahead()
        if self._shown != s.version:
            self._show()
        else:
            self.console.print(f"[bold green]{step_question(s.state, s.human)}[/]")
        while True:
            line = self.input_fn(f"{escape(s.names[s.human])} › ")
            try:
                got = interpret(line, s.state, s.hint_moves())
            except MoveError as e:
                if not line.strip():
                    self.console.print("[dim]Type a decision, a number, or `help`.[/]")
                    continue
                self.console.print(f"[red]✗ {escape(e.reason)}[/]")
                if not isinstance(e, InvalidMoveError) and 0 < len(e.legal) <= 8:
                    self.console.print("[dim]legal here: " + ", ".join(e.legal) + "[/]")
                continue
            if isinstance(got, Command):
                if self._command(got):
                    return
                continue
            s.decide(got)
            return

    def _command(self, cmd: Command) -> bool:
        """Run an in-game command.  True when the position changed (undo, redo)."""
        c = self.console
        s = self.session
        if cmd.name == "help":
            c.print(HELP.format(autosave=escape(str(s.autosave)) if s.autosave_ok
                                else "(no autosave)"))
        elif cmd.name == "rules":
            c.print(RULES)
        elif cmd.name == "list":
            c.print(full_list(s.state))
        elif cmd.name == "show":
            self._show()
        elif cmd.name == "log":
            self._log(all_moves=cmd.arg.strip().lower() == "all")
        elif cmd.name == "hint":
            with c.status("Thinking about your position…", spinner="dots"):
                result = s.hint(top=3)
            self._show(hint=result)
        elif cmd.name == "save":
            self._save(cmd.arg)
        elif cmd.name in ("undo", "redo"):
            try:
                moved = s.undo() if cmd.name == "undo" else s.redo()
            except (NothingToUndo, NothingToRedo) as e:
                c.print(f"[red]✗ {escape(str(e))}[/]")
                return False
            done = {"undo": "Undone", "redo": "Redone"}[cmd.name]
            c.print(f"{done}: " + ", ".join(f"{escape(s.names[d.seat])} "
                                            f"{escape(move_label(d.move, s.names))}"
                                            for d in moved))
            return True
        elif cmd.name == "quit":
            raise QuitGame
        return False

    def _save(self, arg: str) -> bool:
        """`save FILE`: never creates a folder, never replaces a file without a yes."""
        c = self.console
        if not arg:
            c.print("[red]✗ save needs a file name: `save mygame.json`[/]")
            return False
        try:
            try:
                self.session.save(arg)
            except storage.TargetExists as e:
                if not self._confirm(f"{escape(str(e.path))} exists. Replace it? \\[y/N] "):
                    c.print("Not saved.")
                    return False
                self.session.save(arg, overwrite=True)
        except storage.StorageError as e:
            c.print(f"[red]✗ could not save to {escape(arg)}: {escape(str(e))}[/]")
            return False
        c.print(f"Saved to [bold]{escape(arg)}[/]. Resume with:")
        c.print(resume_command(arg), soft_wrap=True, markup=False)
        return True

    def _confirm(self, question: str) -> bool:
        """A yes/no question whose default (Enter, end of input, Ctrl-C) is no."""
        try:
            answer = self.input_fn(question)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return False
        return answer.strip().lower() in ("y", "yes")

    def _ask_where(self) -> None:
        """The autosave is off: ask for a file to keep the game in (Enter: leave it)."""
        while True:
            try:
                answer = self.input_fn("Save it to (a file name; Enter to leave without "
                                       "saving): ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                answer = ""
            if not answer:
                self.console.print("Game not saved.")
                return
            if self._save(answer):
                return

    def _log(self, all_moves: bool = False) -> None:
        decisions = list(self.session.decisions)
        shown = decisions if all_moves else decisions[-30:]
        if not shown:
            self.console.print("[dim]No decisions yet.[/]")
            return
        self.console.print(log_table(shown, self.session.names))
        if not all_moves and len(decisions) > 30:
            self.console.print(f"[dim]last 30 of {len(decisions)}; `log all` shows all[/]")

    def _finish(self) -> None:
        s = self.session
        st = s.state
        self.console.print(render.play_board(st, self.console.width))
        self.console.print(render.scorepad(st))
        winners = [st.names[q] for q in st.winners()]
        if s.human in st.winners():
            verdict = "You win!" if len(winners) == 1 else f"A shared win: {', '.join(winners)}."
        else:
            verdict = f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}."
        self.console.print(f"[bold]{escape(verdict)}[/]")
        over: GameOver | None = s.over
        if over is not None and over.saved:
            self.console.print("Game record saved in " + " and ".join(map(str, over.saved)) + ".")
        elif over is not None and (s.autosave is not None or s.record_dir is not None):
            # every save failed (a full disk, the folder gone): the game is only in memory
            self.console.print("[red]The game is not saved anywhere yet.[/]")
            self._ask_where()
        offer_review(self.console, self.session, self.input_fn,
                     over.saved[0] if over is not None and over.saved else None,
                     ekonos_command())


# ---------------------------------------------------------------------------------------------
# The command

def ekonos_command() -> str:
    """How to run this program again from a shell, as it was started here: `ekonos` when that
    name on the PATH is this very program; else the full path of the `ekonos` that is running
    (a `.venv/bin/ekonos` not on the PATH); else, when started as `python -m cli.main` (or
    from tests), this Python with `-m cli.main`."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) == "ekonos":
        here = shutil.which(argv0) if os.sep not in argv0 else argv0
        on_path = shutil.which("ekonos")
        if here and on_path and os.path.realpath(on_path) == os.path.realpath(here):
            return "ekonos"
        if here:
            return shlex.quote(os.path.abspath(here))
    return f"{shlex.quote(sys.executable)} -m cli.main"


def resume_command(path) -> str:
    """The shell command that resumes the game saved in `path`, as it runs when pasted."""
    return f"{ekonos_command()} play --load {shlex.quote(str(os.path.abspath(path)))}"


@click.command(epilog="\b\nExamples:\n  ekonos play --ai 3 --level 3\n"
                      "  ekonos play --ai 1 --name Ada --seat 1 --seed 42\n"
                      "  ekonos play --load ~/.local/share/ekonos/autosave.json")
@click.option("--ai", type=click.IntRange(1, 5), default=None, metavar="N",
              help="AI opponents, 1-5 (default 3): a game of N+1 players.")
@level_option(help=f"AI strength (default 3): {levels_summary()}.  With --load: changes the "
                   "saved level.")
@seed_option(help="Seed of the deals and the AI (default: random).")
@click.option("--name", default=None, help="Your name (default: You).")
@click.option("--seat", type=click.IntRange(0, 5), default=None, metavar="K",
              help="Your seat, 0-N (default 0; seat order is turn order).")
@variant_option(default=None, help="Start-player rule of later rounds (default rulebook).")
@click.option("--load", "load", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Resume a game saved by `ekonos play` (or play on from any position file).")
@click.option("--verbose", is_flag=True, help="Also show the AI's search spec beside its level.")
def play(ai, level, seed, name, seat, variant, load, verbose):
    """Play Ekonos against the AI in the terminal.

    Type `help` at any prompt for the notation, the short forms and the commands (hint, undo,
    redo, save FILE, show, log, list, quit).  The game is saved after every decision in
    $EKONOS_DATA_DIR, else $XDG_DATA_HOME/ekonos, else ~/.local/share/ekonos (autosave.json);
    finished games are kept in its games/ folder.
    """
    game = make_game(ai=ai, level=level, seed=seed, name=name, seat=seat, variant=variant,
                     load=load, verbose=verbose)
    if game is None:                     # another process plays there; watched, or left
        return 0
    try:
        return game.run()
    finally:
        game.session.close()


def make_game(ai=None, level=None, seed=None, name=None, seat=None, variant=None, load=None,
              console: Console | None = None, input_fn=None,
              verbose: bool = False) -> TerminalGame | None:
    """Flags -> a TerminalGame with the data folder's autosave (exit status 2, one line, for
    bad flags or a bad file).  When another process plays the data folder's game
    (cli.busy): asked in a terminal (None when the person watched it or quit), an error
    otherwise."""
    console = console or Console()
    auto = storage.autosave_path()

    def build(autosave):
        kwargs = dict(autosave=autosave, record_dir=storage.games_dir(), owner="ekonos play")
        if load is not None:
            return GameSession.load(load, level=level, seat=seat, **kwargs)
        return GameSession.new(ai=3 if ai is None else ai, level=3 if level is None else level,
                               seed=seed, name=name, seat=0 if seat is None else seat,
                               variant=variant or "rulebook", **kwargs)
    try:
        if load is not None:
            given = [flag for flag, v in (("--ai", ai), ("--seed", seed), ("--name", name),
                                          ("--variant", variant)) if v is not None]
            if given:
                raise click.UsageError(f"{', '.join(given)} cannot be used with --load: the "
                                       "saved game fixes them (--level and --seat may change)")
        try:
            session = build(auto)
        except storage.AutosaveBusy as busy:
            if load is not None or (input_fn is None and not sys.stdin.isatty()):
                raise InputError(busy_refusal(busy, load is not None)) from None
            choice = busy_choice(busy, console, input_fn or console.input)
            if choice == WATCH:
                busy_watch(auto, console)
            if choice != BESIDE:
                return None
            session = open_beside(build, auto)
    except SessionError as e:
        if e.setting is not None:
            raise click.BadParameter(str(e), param_hint=f"'--{e.setting}'") from None
        raise
    return TerminalGame(session, console=console, input_fn=input_fn, verbose=verbose)
