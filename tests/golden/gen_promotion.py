#!/usr/bin/env python3
"""Golden promotion table for rlx's dtypes (src/tensor/dtype.ts promoteTypes), made by NumPy.

For every pair of the dtypes rlx has that NumPy has too (all but bfloat16),
this records np.result_type(a, b) of the two array dtypes, as NumPy 1.24
names it. tests/ops/promotion.test.ts compares rlx's table with it; the one
documented deviation (int8 with uint8 is int16 in NumPy; rlx has no int16 and
gives int32) is written out in the test, not here, so this file stays NumPy's.

Regenerate (deterministic; needs NumPy 1.24, the system one at /usr/bin/python3):

    /usr/bin/python3 tests/golden/gen_promotion.py

which rewrites tests/golden/promotion.json next to this file.
"""
import json
import os

import numpy as np

# The rlx dtypes NumPy has, in rlx's order (bfloat16 has no NumPy dtype).
DTYPES = ['bool', 'int8', 'uint8', 'int32', 'float16', 'float32', 'float64', 'complex64', 'complex128']


def main():
    table = {a: {b: str(np.result_type(np.dtype(a), np.dtype(b))) for b in DTYPES} for a in DTYPES}
    out = {
        'numpy': np.__version__,
        'note': 'np.result_type(a, b) for array dtypes a, b; regenerate with tests/golden/gen_promotion.py',
        'dtypes': DTYPES,
        'table': table,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'promotion.json')
    with open(path, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    for a in DTYPES:
        print(a, [table[a][b] for b in DTYPES])


if __name__ == '__main__':
    main()
