"""The learned block model: features per block, a small tree ensemble, context smoothing (see decide.py)."""
