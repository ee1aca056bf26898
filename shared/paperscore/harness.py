"""The corpus figure inside evaluation harnesses: what the harness integrations share.

A harness (lm-evaluation-harness, lighteval, Inspect, a torchmetrics metric) scores one
document at a time and combines the per-document values with an aggregation, by default
their mean. A corpus metric called once per document and averaged is not the corpus
metric: the mean of per-document F1s weighs a document with one gold item as much as one
with fifty, and a document with nothing to find scores 0 or 1 by a zero-division rule. So
every integration sends, per document, the family's statistics (a one-document
paperscore.state, as its JSON-safe dict, with its per-example rows for the bootstrap) and
at the end merges them and computes once: the figures of one compute() over every
document (count figures bit for bit; sums of fractional terms within float rounding).

Intervals are paperscore's percentile bootstrap over documents (State.compute with
confidence_level). lm-evaluation-harness bootstraps only the aggregations on its own
list (a registered one gets "N/A"), and lighteval's bootstrap "stderr" of a corpus metric
is the standard error of the mean of its bootstrap replicates (their SD / sqrt(draws)),
not their SD: 32 times too small at its default 1,000 draws.

Families are named as the Spaces are: micro_macro, csc_sighan, csc_common, coref_conll,
quad_match, rationale_f1 (corefud and faithfulness read no model text). Built on
paperscore.state and paperscore.family alone; each harness module imports its harness.
"""

import numbers

from . import family as families, state

FAMILIES = ("micro_macro", "csc_sighan", "csc_common", "coref_conll", "quad_match", "rationale_f1")
# Options that choose classes, not figures: an empty state cannot check them (a label's kind
# is the data's), so the figures' names are read without them.
CLASSES = ("labels", "negative_labels")
BOOTSTRAP = {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0}  # confidence_level=None: no interval


def new(family, keep_rows=True, **options):
    """An empty state of `family` (a Space name of FAMILIES, or a family registered with
    paperscore.family.register) with its compute() options, keeping the per-document rows
    the bootstrap resamples."""
    return state.new(family, keep_rows=keep_rows, **options)


def inputs(family):
    """The per-document inputs the family reads beside predictions and references
    (CSC and rationale `sources`, coref `tokens` and `texts`)."""
    return families.get(family).inputs


def document(family, prediction, reference, options=None, **given):
    """One document's statistics: the to_dict() of a state holding that document alone.
    given: the family's per-document inputs (see inputs()), one value each."""
    one = new(family, **(options or {}))
    for name in given:
        if name not in inputs(family):
            raise ValueError(f"{name}: not an input of {family} (its inputs: {', '.join(inputs(family)) or 'none'})")
    one.update([prediction], [reference], **{name: [value] for name, value in given.items()})
    return one.to_dict()


def corpus(documents, confidence_level=BOOTSTRAP["confidence_level"], n_resamples=BOOTSTRAP["n_resamples"], seed=BOOTSTRAP["seed"]):
    """The figures of every document's statistics (document() dicts or states) merged in
    the order given and computed once; with confidence_level, their bootstrap intervals
    over documents (`<figure>_low`, `<figure>_high`)."""
    documents = [d if isinstance(d, state.State) else state.from_dict(d) for d in documents]
    if not documents:
        raise ValueError("documents: no document to score")
    return state.merge(*documents).compute(**bootstrap(confidence_level, n_resamples, seed))


def bootstrap(confidence_level, n_resamples, seed):
    """State.compute's bootstrap arguments: none without a confidence level."""
    return {} if confidence_level is None else {"confidence_level": confidence_level, "n_resamples": n_resamples, "seed": seed}


def figures(family, options=None, confidence_level=BOOTSTRAP["confidence_level"], wanted=None):
    """The names of the numbers the corpus figures hold for these options (the parse
    report's counts too; its lists of example indices left out), in compute()'s order;
    with `wanted`, those figures and their intervals only (an unknown name is an error)."""
    shape = {name: value for name, value in (options or {}).items() if name not in CLASSES}
    new(family, **(options or {}))  # checks every option
    empty = new(family, **shape).compute(**bootstrap(confidence_level, 1, 0))
    names = [name for name, value in empty.items() if isinstance(value, numbers.Number) and not isinstance(value, bool)]
    if wanted is None:
        return names
    for name in wanted:
        if name not in names or name.endswith(("_low", "_high")):
            raise ValueError(f"figures: {name!r} is not a figure of {family} with these options ({', '.join(n for n in names if not n.endswith(('_low', '_high')))})")
    return [name for name in names if name in wanted or name.endswith(("_low", "_high")) and name.rsplit("_", 1)[0] in wanted]
