"""Comparisons: one module per family, each a public function of a frame that returns a result."""
