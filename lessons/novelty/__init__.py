"""Novelty detection: kernel PCA fitted on normal data flags new points by their
reconstruction error in feature space (Hoffmann 2007)."""
