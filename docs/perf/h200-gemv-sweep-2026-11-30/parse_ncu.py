import csv, statistics, sys
d=sys.argv[1]
lines=open(d+'/ncu.csv').read().splitlines()
start=[i for i,l in enumerate(lines) if l.startswith('"ID"')][0]
rows=list(csv.reader(lines[start:]))
hdr=rows[0]; data=rows[1:]
iid=hdr.index('ID'); mn=hdr.index('Metric Name'); mv=hdr.index('Metric Value')
by={}
for r in data:
    if len(r)<=mv or not r[iid].isdigit(): continue
    by.setdefault(int(r[iid]),{})[r[mn]]=r[mv]
ids=sorted(by)
variants=[l.split() for l in open(d+'/sweep.txt') if l.startswith('shape')]
i=0
for v in variants:
    ts=[]; dr=[]
    for j in range(6):
        m=by[ids[i]]; i+=1
        if j==0: continue
        ts.append(float(m['gpu__time_duration.sum'].replace(',',''))); dr.append(float(m['dram__throughput.avg.pct_of_peak_sustained_elapsed']))
    shape=v[1]; M,N,K=map(int,shape.split('x')); gated='gated' in v
    by_=N*K*2*(2 if gated else 1)
    t=statistics.median(ts)
    print(f"{shape:>16} {'g' if gated else ' '} {v[v.index('variant')+1]:>14} grid {v[v.index('grid')+1]:>5} {t/1000:8.1f} us {by_/t/1000:5.2f} TB/s dram {statistics.median(dr):5.1f}%  err {v[-1]}")
