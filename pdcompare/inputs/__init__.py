"""Frames in, validated arrays out: scores, ``cv_results_``, predictions and the CV design."""
