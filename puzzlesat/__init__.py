"""puzzlesat: combinatorial puzzles compiled to SAT, CP-SAT and exact cover."""

import time as _time

#: when this process imported puzzlesat: a module file changed after that may
#: not be the code running (:func:`puzzlesat.cluster.code_fingerprint`)
IMPORTED_AT = _time.time()
