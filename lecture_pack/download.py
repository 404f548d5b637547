"""The tour page's "Download this lecture": the file built once per live address, and kept.

The build is heavy (every step's views at every slider value: minutes), so it runs in the
background (:mod:`server.ahead`), one step after the other, and each step takes its own
turn in the server's queue: the students' work waits at most one step's turn behind it,
never the whole build, and the lecturer's page stays free while it goes on (the tour page
follows its progress). Where work ahead is turned off (``KPCA_PREPARE_AHEAD=0``) the
person who asks waits for it instead (:func:`lecture_file` computes the steps then).
"""

from __future__ import annotations

from functools import partial

from classroom.tour import STEPS, TourStep, main_steps
from lecture_pack import build, html
from server import ahead
from server.admission import queued
from server.costs import Estimate
from shell.caches import bounded_cache, inputs_of
from words.i18n import DEFAULT_LANGUAGE, _, use_language

# What a step costs: the whole build (ten steps, 60 frames in all, the two
# USPS pages at their defaults) took 85 s of wall clock on the shared 2-core machine at
# load 2–4 (``python -m lecture_pack --json``): a step's share is a lower bound, and the
# queue learns the rest.
STEP_SECONDS = 8.0
PLAN = "the offline lecture"


def lecture_steps() -> tuple[TourStep, ...]:
    """The steps the file holds: the tour's lecture."""
    return main_steps()


# A step's data is at most ~1.5 MB (its figures at every slider value): the file's steps
# for two addresses. A step holds its sentences: its language is part of the key.
@bounded_cache(max_entries=2 * 10)
def built_step(number: int, base_url: str, language: str = DEFAULT_LANGUAGE) -> dict:
    """Step ``number`` of the file in ``language``, its links pointing back to the app at
    ``base_url``, built in its own turn in the server's queue. The language is passed in:
    the build runs in a background thread, which has none of its own."""
    step = STEPS[number - 1]
    n = len(inputs_of(step.settings()).X)
    with queued(n, copies=2, estimate=Estimate(STEP_SECONDS, at_least=True),
                what=f"step {number} of the offline lecture"), use_language(language):
        return build.build_tour_step(number, step, base_url=base_url)


# Each entry is the file itself (~4.5 MB: benchmarks/bench_lecture_pack.py): one per address
# and language the app is reached at.
@bounded_cache(max_entries=2)
def lecture_file(base_url: str, language: str = DEFAULT_LANGUAGE) -> bytes:
    """The offline lecture in ``language``, its links pointing back to the app at
    ``base_url``."""
    steps = [built_step(STEPS.index(step) + 1, base_url, language) for step in lecture_steps()]
    with use_language(language):
        return html.render(build.assemble(steps, base_url)).encode("utf-8")


def plan_name(base_url: str, language: str = DEFAULT_LANGUAGE) -> str:
    return f"{PLAN} for {base_url}" + ("" if language == DEFAULT_LANGUAGE else f" in {language}")


def start(base_url: str, language: str = DEFAULT_LANGUAGE) -> ahead.Plan | None:
    """Build the file for ``base_url`` in ``language`` (the asking session's) in the
    background, a step at a time; None where work ahead is turned off. A finished build is
    started again (it failed somewhere, or its file has left the cache: the steps still
    cached are reads)."""
    name = plan_name(base_url, language)
    ahead.forget(name)
    numbers = [STEPS.index(step) + 1 for step in lecture_steps()]
    jobs = [(f"step {number}", partial(built_step, number, base_url, language))
            for number in numbers]
    return ahead.prepare(name, [*jobs, ("the file", partial(_file_of_built, base_url,
                                                            language))])


def _file_of_built(base_url: str, language: str) -> None:
    """The file, from steps all built (a step that failed is not tried again here)."""
    numbers = [STEPS.index(step) + 1 for step in lecture_steps()]
    if missing := [n for n in numbers if built_step.cached(n, base_url, language) is None]:
        raise RuntimeError(f"step {', '.join(map(str, missing))} not built")
    lecture_file(base_url, language)


def progress(base_url: str, language: str = DEFAULT_LANGUAGE) -> ahead.Plan | None:
    """How far the file's build for ``base_url`` in ``language`` has got, if it was started."""
    return ahead.progress(plan_name(base_url, language))


def job_title(label: str) -> str:
    """A job's label in a plan ("step 3", "the file") in the language of this run."""
    if label.startswith("step ") and label[5:].isdigit():
        return _("step {number}").format(number=label[5:])
    return _("the file") if label == "the file" else label


def status(plan: ahead.Plan) -> str:
    """The tour page's line about the build, from its progress (in this run's language)."""
    if not plan.finished:
        steps = plan.total - 1
        return _("Preparing the offline lecture in the background: {done} of {steps} steps "
                 "built… You can go on with the lecture meanwhile.").format(
            done=min(plan.done, steps), steps=steps)
    if not plan.failed:
        return _("The offline lecture is ready.")
    return _("The offline lecture could not be prepared ({failed} failed; the server's log "
             "says why). Press the button to try again.").format(
        failed=", ".join(job_title(label) for label in plan.failed))
