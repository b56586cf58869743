#!/bin/bash
# Level 3's search with playouts to the game's end (horizon=0) against the same search scored by
# the linear model after a round (horizon=1, level 3's), at equal think time, 5 and 6 players
# (device_arena.sh with this pair; the run of 2026-11-27 had BOX=300).
# Why: a 6-player game has two rounds, so a round-1 search of level 3 is scored at the last
# round's start, where the linear model reads almost nothing (held-out 1.784 against even
# odds' 1.792): the playouts to the end might judge better for the same time.
A=horizon=0 B=horizon=1,model=eval-5ec0e708e0a8 NAME=h0-vs-h1 SEED=190 BOX=${BOX:-300} \
  exec bash "$(dirname "$0")/device_arena.sh"
