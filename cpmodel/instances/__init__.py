"""Instance files others can run: MiniZinc (`minizinc.py`), XCSP3 (`xcsp3.py`)
and DIMACS CNF (`dimacs.py`), for both puzzle families.

Covers: one `instance_text(problem, format, …)` per family that picks the
writer; every writer returns text and touches no disk (the CLI writes the
file). Leaves out: solving those files (the backends in `cpmodel/crossword`
and `cpmodel/slider` run the same models) and reading them back.
"""
