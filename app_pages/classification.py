"""Classification: a linear classifier on kernel principal components, and Table 1 of the paper."""

import streamlit as st

from lessons.classification import table1 as table1_view
from lessons.classification import view
from shell.page import page_data
from shell.sidebar import current_settings, standardise_hint
from words.i18n import _, format_number

st.title(_("Classification on kernel principal components"))
st.write(_(
    "Kernel PCA's classic claim: a *linear* classifier trained on nonlinear components "
    "beats the same classifier on the raw inputs. Train one here on the kernel from the "
    "sidebar, and compare it with linear PCA and with no features at all."
))

settings = current_settings()
data = page_data(settings)[0]  # a clear message and stop when the data cannot be loaded
if data.y is None:
    st.info(
        _("Classification needs class labels, and this dataset has none. Pick a dataset "
          "with classes in the sidebar (USPS, iris, circles, moons…), or upload a CSV and "
          "choose its label column."),
        icon=":material/label_off:",
    )
    st.stop()

n = len(data.X)
k, classifier, C = view.controls(view.n_train_of(settings, n), settings.dataset == "usps")
split, result, seconds = view.run(settings, n, k, classifier, C)
n_features = split.X_train.shape[1]

st.header(_("1 · Training and test data"))
view.split_section(split)
# The Explorer's hint, here too: unscaled features leave the classifiers almost only the
# widest (issue 23: wine's 29.6 % against 33.3 %, 0 % and 2.1 % once standardised).
standardise_hint(split.X_train, settings.standardize, key="cls_standardise")

st.header(_("2 · Test error: kernel PCA, linear PCA, raw inputs"))
view.errors_section(result, settings, classifier, C, n_features, split.y_test)

st.header(_("3 · Which classes are confused"))
confusion_col, digits_col = st.columns([2, 3]) if split.image_shape else (st.container(), None)
with confusion_col:
    view.confusion_section(result, split)
if digits_col is not None:
    with digits_col:
        view.misclassified_section(result, split)

st.header(_("4 · Error against the number of components"))
view.curve_section(result, settings, classifier, n_features, k)

st.header(_("5 · The pipeline, as code"))
view.code_section(result, split)

st.header(_("6 · The paper's Table 1, reproduced"))
st.write(_(
    "Schölkopf, Smola & Müller (1998) extracted polynomial kernel components from 3,000 "
    "USPS digits and trained a linear SVM on them. Their test errors next to ours, "
    "computed by `benchmarks/reproduce_table1.py` with the same pipeline as above:"
))
table1_view.table_section(table1_view.load_table())
st.caption(_("Everything above this section took {seconds} s to compute (cached "
             "afterwards).").format(seconds=format_number(seconds, ".2f")))
