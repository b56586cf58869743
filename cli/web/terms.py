"""The words of the board that a new player asks about, each with the rule it comes from
(docs/rules.md ids): the page shows them as tooltips on the terms and in its help panel."""
from __future__ import annotations

#: term -> (rule ids, what it means, in a sentence or two)
TERMS: dict[str, tuple[str, str]] = {
    "top": ("R9", "A card's top company: place one of its tiles on an empty space, or protect "
                  "one of its tiles."),
    "bottom": ("R10", "A card's two bottom companies: grow one of them (its track +1) instead "
                      "of the top action."),
    "growth": ("R10-R11", "The growth track, 0-6. Reaching 4: the president may expand now (2 "
                          "actions) or wait. Reaching 6: the president must expand (3 actions)."
                          " Then the track goes back to 0."),
    "expansion": ("R13", "Each action places a tile next to the company's tiles (on an empty "
                         "space or over another company's unprotected tile) or protects one."),
    "in reach": ("R11, R13", "A company at growth 4 or 5 is one or two growths from a forced "
                             "expansion: these are the spaces it could take, from the map now."),
    "protected": ("R9b", "A protected tile never changes again: no expansion can take it."),
    "tiles": ("R19", "A company's tiles on the map: its value, what each share scores at the "
                     "end."),
    "column": ("R15-R16", "The company's market column: shares bought by all players, at most "
                          "8."),
    "sell pays": ("R15", "Selling a share pays as many coins as there are shares in the column."),
    "next": ("R16", "The price of the next share: the shares in the column + 1."),
    "president": ("R18", "The player with the most shares (ties keep the president); takes the "
                         "company's expansion decisions. No president: the card's player does "
                         "(R12)."),
    "tokens": ("R17", "Shares and presidency markers on the board; with 4-6 players at most "
                      "18 each."),
    "coins": ("R4, R19", "Money: each round's income is added; coins count in the score."),
    "score": ("R19", "Shares times the company's tiles, plus coins; the highest wins (R20)."),
}
