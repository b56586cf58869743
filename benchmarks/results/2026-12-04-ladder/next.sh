#!/bin/bash
# usage: next.sh SEED -- when one of the running ladder shards ends before stop.sh fires (its own
# test decided), run the next shard on the freed core.
cd "$(dirname "$0")"
n=$(pgrep -fc "ekonos arena")
while [ "$(pgrep -fc 'ekonos arena')" -ge "$n" ]; do sleep 30; done
pgrep -f "stop.sh" > /dev/null && exec ./runladder.sh 3 $1
