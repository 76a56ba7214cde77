"""Problem models and solvers for mobius-puzzles.

Covers the surfaces a crossword lives on, crossword grids, lights and fill
solvers, slider boards, solvability and slider solvers, all behind the one
`Solver` protocol of `mobius.cpmodel.solver`. Leaves out packs, exports, benchmarks
and the command line, which live in the layers above.
"""
