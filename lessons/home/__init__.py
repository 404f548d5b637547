"""The home page: what kernel PCA is, the classroom presets, the map of the lessons."""
