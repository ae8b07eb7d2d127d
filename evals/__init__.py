"""The evaluation harness: gold Q&A items, metrics, a runner with reports and a CI gate.

`evals.metrics` holds the pure per-answer metrics, `evals.score` per-item scoring,
aggregation and the gate, `evals.run` the command (`python -m evals`), `evals.report` the
output files and `evals.degraded` deliberately broken backends that the gate must catch.
"""
