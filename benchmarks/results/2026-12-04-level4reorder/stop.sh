#!/bin/bash
# usage: stop.sh HH:MM -- SIGINT every "ekonos arena" at that time (UTC; tomorrow if already past)
now=$(date +%s); at=$(date -d "$1" +%s)
[ "$at" -le "$now" ] && at=$((at + 86400))
sleep $((at - now)) && pkill -INT -f "ekonos arena"
