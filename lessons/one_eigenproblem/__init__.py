"""One eigenproblem: classical MDS, Isomap, Laplacian eigenmaps and spectral clustering
as kernel PCA on the matrix each builds."""
