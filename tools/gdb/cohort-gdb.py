# Loads cohort's gdb extension by hand: `source <prefix>/share/cohort/gdb/cohort-gdb.py`
# (programs linked with cohort load it themselves where gdb's auto-load allows).
import os
import sys

import gdb

_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)
import cohort_gdb  # noqa: E402

cohort_gdb.register(gdb.current_objfile())
