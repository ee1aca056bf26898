"""Inspect (inspect-ai 0.3.145): paperscore's corpus figures from a scorer and a metric.

    from paperscore.harness_inspect import paperscore
    Task(dataset=samples, solver=generate(), scorer=paperscore("quad_match", parse="asqp_paraphrase"))

The scorer `paperscore(family, figures=None, confidence_level=0.95, n_resamples=1000,
seed=0, **options)` gives each sample a Score carrying the sample's statistics in its
metadata (harness.document: the family's one-document state as a dict), read from the
model's completion and the sample: the reference is `metadata["reference"]` when the
sample has one, else its target text; the family's inputs (`sources`, `tokens`, `texts`)
come from the sample's metadata under those names. Its metric `corpus` merges every
sample's statistics and computes once, reporting the figures named (default every number
compute() gives) under their own names, with their intervals (paperscore's bootstrap over
samples). A Score's value is 1, the sample counting once: a corpus figure has no
per-sample value to average. With several epochs Inspect's reducers keep the first
epoch's metadata, so the first epoch's outputs are scored. Pass `score_display=False` to
eval(): Inspect's live display computes the metric on the samples done so far, which some
options refuse (micro_macro's convention="maven" before an NA label is seen).
"""

from inspect_ai.scorer import SampleScore, Score, metric, scorer

from . import harness


@metric
def corpus():
    """The figures of every sample's statistics merged and computed once (the scorer's
    choice of figures and bootstrap, from each Score's metadata)."""

    def compute(scores: list[SampleScore]):  # the annotation: Inspect passes SampleScores, not the Scores of its old protocol
        settings = [{k: v for k, v in s.score.metadata.items() if k != "statistics"} for s in scores]
        if any(s != settings[0] for s in settings):
            raise ValueError("scores: the samples were scored with different figures or bootstrap settings")
        result = harness.corpus([s.score.metadata["statistics"] for s in scores], **settings[0]["bootstrap"])
        return {name: result[name] for name in settings[0]["figures"]}

    return compute


@scorer(metrics=[corpus()])
def paperscore(family, figures=None, confidence_level=harness.BOOTSTRAP["confidence_level"], n_resamples=harness.BOOTSTRAP["n_resamples"], seed=harness.BOOTSTRAP["seed"], **options):
    """Each sample's statistics of `family` (a Space name) with these compute() options
    (see the module docstring)."""
    settings = {"figures": harness.figures(family, options, confidence_level, figures), "bootstrap": harness.bootstrap(confidence_level, n_resamples, seed)}

    async def score(state, target):
        metadata = state.metadata or {}
        reference = metadata["reference"] if "reference" in metadata else target.text
        inputs = {name: metadata[name] for name in harness.inputs(family) if name in metadata}
        statistics = harness.document(family, state.output.completion, reference, options, **inputs)
        return Score(value=1, answer=state.output.completion, metadata={"statistics": statistics, **settings})

    return score
