# NumPy side of benchmarks/probes/matmul-overhead.mjs: CPU time and minor faults per call.
import numpy as np, resource, sys
n=int(sys.argv[1]); reps=50
rng=np.random.default_rng(1); a=rng.standard_normal((n,n)); b=rng.standard_normal((n,n)); c=np.empty((n,n))
def m(name,f):
    for _ in range(3): f()
    r0=resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(reps): f()
    r1=resource.getrusage(resource.RUSAGE_SELF)
    print(f"  {name:28s} cpu {((r1.ru_utime-r0.ru_utime)+(r1.ru_stime-r0.ru_stime))/reps*1e6:.0f} µs (sys {(r1.ru_stime-r0.ru_stime)/reps*1e6:.0f}), faults {(r1.ru_minflt-r0.ru_minflt)/reps:.0f}")
print(f"numpy n={n} (1 thread)")
m('a @ b', lambda: a@b); m('matmul(out=c)', lambda: np.matmul(a,b,out=c))
