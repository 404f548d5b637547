"""De-noising: clean real USPS digits with kernel PCA and a pre-image, against linear PCA."""

import streamlit as st

import datasets
from kpca_core import fixed_point_preimage, kwok_tsang_preimage
from lessons.denoising import caches as compute
from lessons.denoising import experiment as dn
from lessons.denoising import view
from server.memory import guard_memory
from shell import findings
from shell.page import refusal_text
from shell.source import show_source
from words.i18n import N_, _

st.title(_("De-noising digits"))
st.write(_(
    "Keep only the first m principal components of a noisy digit and map it back: for "
    "linear PCA the noise lives mostly in the components you drop. Kernel PCA works in "
    "feature space, where a noisy digit also leaves the span of the training digits, and "
    "the projection removes that part at any m (section 4 measures which of the two does "
    "the work); and it raises a new problem — getting back to an image at all."
))
st.caption(_(
    "This lesson always uses the USPS digits and the RBF kernel, with its own settings "
    "below (the sidebar's settings belong to the other pages). Defaults follow Mika et "
    "al. (1999): γ = 1/128, Gaussian σ = 0.5 or speckle p = 0.4, clean training digits."
))



def without_usps(error: datasets.UspsUnavailableError) -> None:
    st.error(_("{error}\n\nThe other pages work without the USPS digits.").format(
        error=refusal_text(error)))
    st.stop()


st.header(_("1 · Digits, noise and model"))
try:
    settings = view.controls()  # reads the training digits (the RBF width's choices)
except datasets.UspsUnavailableError as error:
    without_usps(error)
# The kernel PCA fit keeps its eigenvectors, α and the training coordinates (n × (n − 1)
# each); the learned pre-image then solves one more n × n system in place.
guard_memory(settings.n_train, copies=compute.PEAK_COPIES,
             what=N_("the kernel matrices of the training digits"))

try:
    curves = compute.compute_all(settings)
except datasets.UspsUnavailableError as error:
    without_usps(error)
except ValueError as error:  # e.g. k larger than the number of training digits
    st.error(_("These settings do not work: {error}").format(error=error))
    st.stop()
view.noise_check(settings)

st.header(_("2 · Why kernel PCA needs a pre-image"))
st.markdown(_(
    "Linear PCA projects a digit onto a flat subspace of pixel space; the projection *is* "
    "an image, so reconstructing it is one matrix product. Kernel PCA projects φ(x), the "
    "digit's image in feature space, onto the first m kernel principal axes. That "
    "projection P<sub>m</sub>φ(x) is a combination of many training digits' feature "
    "vectors, and such a combination is in general the image of **no** digit at all: "
    "there is no z with φ(z) = P<sub>m</sub>φ(x). A *pre-image* is the z whose φ(z) comes "
    "closest, and each method finds it differently:\n\n"
    "- **learned**: a kernel ridge regression (ridge α) from the m coordinates of the "
    "training digits back to the digits (scikit-learn's `fit_inverse_transform`);\n"
    "- **fixed point** (Mika et al.): iterate z ← Σᵢ cᵢ k(z, xᵢ) xᵢ / Σᵢ cᵢ k(z, xᵢ) "
    "from the noisy digit, restart from the nearest training digit if it fails;\n"
    "- **Kwok–Tsang** (regularised): turn feature-space distances to the k nearest "
    "training digits into pixel distances, then place z by multidimensional scaling. Those "
    "distances come from a point that is the image of no digit, so they contradict each "
    "other; where the original method divides by tiny singular values, KPCA Lab's solves a "
    "Tikhonov-regularised (trust-region) system that keeps z among its neighbours."),
    unsafe_allow_html=True,
)

st.header(_("3 · Original, noisy, PCA and kernel PCA"))
view.digit_grid(settings, curves)

st.header(_("4 · Error against the clean digits, for every m"))
st.write(_(
    "One PCA and one kernel PCA fit with all n − 1 components serve every m below, up to "
    "the number of training digits; each curve reconstructs all the test digits at every "
    "m. The star marks each method's best m; the time is for the whole curve."
))
noisy_error = dn.mse(compute.noisy_test(settings.test_key, settings.noise_key),
                     compute.test_digits(*settings.test_key)[0])
stored = compute.stored_result()
live_col, stored_col = st.columns(2) if stored else (st.container(), None)
with live_col:
    view.curves_chart(settings, curves, noisy_error, columns=2 if stored else 1)
    comparison = view.comparison_text(curves, settings.method, settings.noise)
    st.markdown(comparison)
    st.markdown(view.noise_text(compute.noise_split(settings), curves[settings.method],
                                compute.stored_result(), settings.noise))
    findings.publish("denoising", comparison.replace("**", ""))  # the tour's answer
if stored_col is not None:
    with stored_col:
        view.stored_chart(stored, settings.noise, settings.width)
if stored is not None:
    st.dataframe(view.stored_table(stored), hide_index=True, width="stretch")
    st.caption(view.stored_text(stored))

st.header(_("5 · Clean digits: worse reconstruction, better de-noising"))
view.clean_section(settings, curves)

show_source(fixed_point_preimage, kwok_tsang_preimage,
            label=N_("The kpca_core pre-image code behind this page"))
