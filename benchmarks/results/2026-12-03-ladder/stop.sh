#!/bin/bash
# usage: stop.sh HH:MM -- SIGINT every "ekonos arena" at that time (today, UTC)
now=$(date +%s); at=$(date -d "$1" +%s); sleep $((at - now)); pkill -INT -f "ekonos arena"
