"""lighteval (0.13): paperscore's corpus figures as a CorpusLevelMetric.

    from paperscore.harness_lighteval import corpus_metric
    quads = corpus_metric("quad_match", parse="asqp_paraphrase", duplicates="list", figures=["exact_f1"])
    LightevalTaskConfig(..., metrics=[quads])

Per sample the metric prepares the family's statistics (harness.document) from the
model's first text (ModelResponse.final_text[0]) and the Doc: the reference is
`doc.specific["reference"]` when the task's prompt function puts one there, else the gold
text (doc.get_golds()[0]); the family's inputs (`sources`, `tokens`, `texts`) come from
`doc.specific` under those names. At the end the statistics are merged and computed once:
the figures named (default every number compute() gives) and their intervals
(`<figure>_low`, `<figure>_high`: paperscore's bootstrap over samples, confidence_level
0.95 by default; None: no interval).

The corpus function returns a dict of figures, so lighteval reports them by name and
computes no stderr for them: its bootstrap stderr of a corpus metric is the standard error
of the mean of its replicates (their SD / sqrt(draws)), not their SD (the bootstrap's
standard error): sqrt(draws) times too small, 32 times at its default 1,000 draws.
"""

from lighteval.metrics.metrics_corpus import CorpusLevelComputation
from lighteval.metrics.sample_preparator import Preparator
from lighteval.metrics.utils.metric_utils import CorpusLevelMetric
from lighteval.tasks.requests import SamplingMethod

from . import harness


class Statistics(Preparator):
    """One sample's statistics of `family` (see the module docstring)."""

    def __init__(self, family, options):
        self.family, self.options = family, options

    def prepare(self, doc, model_response, **kwargs):
        specific = doc.specific or {}
        reference = specific["reference"] if "reference" in specific else doc.get_golds()[0]
        inputs = {name: specific[name] for name in harness.inputs(self.family) if name in specific}
        return harness.document(self.family, model_response.final_text[0], reference, self.options, **inputs)


class Corpus(CorpusLevelComputation):
    """The named figures of every sample's statistics merged and computed once."""

    def __init__(self, figures, bootstrap):
        self.figures, self.bootstrap = figures, bootstrap

    def compute_corpus(self, items):
        result = harness.corpus(items, **self.bootstrap)
        return {name: result[name] for name in self.figures}


def corpus_metric(family, figures=None, name=None, confidence_level=harness.BOOTSTRAP["confidence_level"], n_resamples=harness.BOOTSTRAP["n_resamples"], seed=harness.BOOTSTRAP["seed"], **options):
    """A CorpusLevelMetric reporting `figures` of `family` (a Space name) with these
    compute() options; `name` (default "paperscore_<family>") is the metric's name in
    lighteval, the figures are reported under their own names."""
    names = harness.figures(family, options, confidence_level, figures)
    return CorpusLevelMetric(
        metric_name=name or f"paperscore_{family}",
        higher_is_better=True,
        category=SamplingMethod.GENERATIVE,
        sample_level_fn=Statistics(family, options),
        corpus_level_fn=Corpus(names, harness.bootstrap(confidence_level, n_resamples, seed)),
    )
