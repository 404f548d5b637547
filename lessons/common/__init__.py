"""What two or three lessons share: γ in motion, the γ hint, the kernel-matrix figures and
the Explorer's cached analysis. It imports no lesson; every lesson may import it."""
