"""Training of the learned block model (`python -m worker train`); needs the `train` extra, the worker never
imports this package."""
