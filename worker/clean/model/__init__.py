"""The learned block model: features per block and a small tree ensemble that decides the kept blocks."""
