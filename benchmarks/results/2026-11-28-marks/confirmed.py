"""A first_vs_deep.py / deep_share.py run against the lab run whose deep marks it used: every
mark, confirmed (the deep review marks the decision at least as severely) or not, with both
losses and intervals, and the shares confirmed.
  python3 benchmarks/results/2026-11-28-marks/confirmed.py LAB.json RUN.json [-v]"""
import json,sys
lab=json.load(open(sys.argv[1])); d=json.load(open(sys.argv[2]))
det={(e['game'],e['ply'],e['seat']):e for e in lab['details']}
order={'blunder':3,'mistake':2,'inaccuracy':1,None:0}
n=ok=bm=bmok=0
for m in d['marks']:
    e=det.get((m['game'],m['ply'],m['seat'])); dp=e['deep'] if e else None
    good = bool(dp and order[dp['mark']]>=order[m['mark']])
    n+=1; ok+=good
    if order[m['mark']]>=2: bm+=1; bmok+=good
    if '-v' in sys.argv: print('OK ' if good else 'BAD', m['mark'][:5], 'first %.1f [%.1f,%.1f]'%(m['loss'],m['low'],m['high']), m['method'], 'ref', dp and (dp['mark'], dp['loss'], dp['low'], dp['high']))
print(f"all {ok}/{n}  blunder+mistake {bmok}/{bm}  seconds {d['seconds']}")
