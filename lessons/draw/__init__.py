"""Draw your own data: points clicked onto a plane, and kernel PCA of them after each edit."""
