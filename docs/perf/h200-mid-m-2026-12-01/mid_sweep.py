import os, sys, json
sys.path.insert(0, "bench/torch")
import torch, tileops_torch
from gemm_bench import median_times, rel_error, make_operands, torch_gemm, FLUSH_BYTES
flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.float32, device="cuda")
shapes = [(64,4096,7168),(128,4096,7168),(256,4096,7168),(128,2112,7168),(128,7168,2048),(512,4096,7168),(64,14336,4096),(256,4096,4096)]
tiles = ["128x256","128x128","64x256","64x128"]
res = []
for m,n,k in shapes:
    a,b = make_operands(m,n,k,False,True,torch.bfloat16)
    ref = torch_gemm(a,b,False,True)
    cb,_,_ = median_times(lambda: torch_gemm(a,b,False,True), 20, flush)
    op = tileops_torch.GemmFwdOp(trans_a=False, trans_b=True)
    out = []
    for kb in [1,2,3]:
        os.environ["XSWEEP_KBURST"] = str(kb)
        for ti in range(4):
            for s in [1,2,3,4]:
                os.environ["XSWEEP_TILE"] = str(ti); os.environ["XSWEEP_SPLITS"] = str(s)
                y = op(a,b); err = rel_error(y, ref)
                t,_,_ = median_times(lambda: op(a,b), 15, flush)
                res.append(dict(m=m,n=n,k=k,tile=tiles[ti],splits=s,kburst=kb,us=t,err=err,cublas=cb))
                if err > 1e-2: print("BAD", m,n,k,ti,s,kb,err)
                out.append((t, tiles[ti], s, kb))
    out.sort()
    print(f"{m}x{n}x{k} cublas {cb:6.1f} best: " + ", ".join(f"{t:.1f} {ti}/s{s}/kb{kb}" for t,ti,s,kb in out[:6]), flush=True)
    for kb in [1,2,3]:
        print("   kb", kb, " ".join(f"{ti}/{s}:{t:.1f}" for t,ti,s,k2 in sorted(out, key=lambda x:(x[1],x[2])) if k2==kb))
json.dump(res, open(os.environ.get("OUT","/tmp")+"/mid_sweep2.json","w"), indent=1)
