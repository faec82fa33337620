"""Benchmarks, the load run and CI's production-shape scripts: tools that measure the game,
kept out of the apps. Run each from the repository's root as ``.venv/bin/python -m bench.NAME``
(README "Benchmarks")."""
