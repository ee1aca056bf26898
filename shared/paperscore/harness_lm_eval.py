"""lm-evaluation-harness (0.4.13): paperscore's corpus figures in a task YAML.

Importing this module registers, in lm-eval's registries:
- the filter "paperscore": each document's model text with the document fields the family
  reads, `[text, {name: doc[field]}]`; its arguments map names to fields: `reference`
  (else the task's target, doc_to_target, is the reference) and the family's inputs
  (`sources` for csc_sighan, csc_common and rationale_f1 with parse=; `tokens`, `texts`
  for coref_conll);
- the metric "paperscore": per document the family's statistics (harness.document), one
  item per figure; its YAML keys are `family` (a Space name), `figures` (default: every
  number compute() gives), the bootstrap's `confidence_level` (default 0.95; null: no
  interval), `n_resamples` (1000), `seed` (0), and any option of the family's compute()
  (convention, parse, ...);
- the aggregation "paperscore" (the metric's default): the figure of every document's
  statistics merged and computed once, never a mean of per-document figures.

Each figure is a row of lm-eval's table, its interval two more (`<figure>_low`,
`<figure>_high`: paperscore's bootstrap over documents). lm-eval's own stderr column says
N/A: it bootstraps only the aggregations on its own list.

A task YAML names a function of this module, which imports it (and so registers the
above) when lm-eval loads the task, e.g. `custom_dataset: !function
paperscore.harness_lm_eval.local_file`. `python -m paperscore.harness_lm_eval` prints the
folder of the ready-made tasks (lm_eval --include_path).
"""

import json
from pathlib import Path

from lm_eval.api.filter import Filter
from lm_eval.api.registry import register_aggregation, register_filter, register_metric

from . import harness
from .core import read_json_values

TASKS = Path(__file__).resolve().parent / "lm_eval_tasks"


@register_filter("paperscore")
class DocumentFields(Filter):
    """Each document's first model text with the fields the family reads, as a list
    [text, {name: value}] (a list, so that lm-eval leaves the target as it is)."""

    def __init__(self, **fields):
        self.fields = fields

    def apply(self, resps, docs):
        out = []
        for index, (resp, doc) in enumerate(zip(resps, docs)):
            missing = [field for field in self.fields.values() if field not in doc]
            if missing:
                raise ValueError(f"paperscore filter: document {index} has no field {missing[0]!r} (its fields: {', '.join(doc)})")
            text = resp if isinstance(resp, str) else resp[0]  # after take_first, or the raw responses
            out.append([text, {name: doc[field] for name, field in self.fields.items()}])
        return out


_last = [None, None]  # the last (key, figures) computed: every figure's aggregation reads the same documents


@register_aggregation("paperscore")
def corpus(items):
    """The corpus figure of one metric's items (the "paperscore" metric's)."""
    first = items[0]
    key = json.dumps([first["bootstrap"], [item["statistics"] for item in items]], sort_keys=True)
    if _last[0] != key:
        _last[:] = [key, harness.corpus([item["statistics"] for item in items], **first["bootstrap"])]
    return _last[1][first["figure"]]


@register_metric(metric="paperscore", higher_is_better=True, output_type="generate_until", aggregation="paperscore")
def paperscore(references, predictions, family=None, figures=None, confidence_level=harness.BOOTSTRAP["confidence_level"], n_resamples=harness.BOOTSTRAP["n_resamples"], seed=harness.BOOTSTRAP["seed"], **options):
    """One document's statistics, as one item per figure (see the module docstring)."""
    if family is None:
        raise ValueError("family: the paperscore metric needs `family:` in its metric_list entry (" + ", ".join(harness.FAMILIES) + ")")
    (gold,), (prediction,) = references, predictions
    if not (isinstance(prediction, list) and len(prediction) == 2 and isinstance(prediction[1], dict)):
        raise ValueError("predictions: the paperscore metric reads each document through the filter `paperscore` (filter_list: - name: paperscore, filter: [{function: take_first}, {function: paperscore, ...}])")
    text, fields = prediction
    inputs = dict(fields)
    reference = inputs.pop("reference", gold)
    statistics = harness.document(family, text, reference, options, **inputs)
    boot = harness.bootstrap(confidence_level, n_resamples, seed)
    names = harness.figures(family, options, confidence_level, figures)
    return {name: {"figure": name, "bootstrap": boot, "statistics": statistics} for name in names}


def local_file(file=None, split="test", **metadata):
    """lm-eval's custom_dataset: the JSON-lines file (or JSON array) that --metadata names
    under the key `file` (a task's dataset_kwargs), as the task's `split`: a list of the
    file's objects, read as they are (no Arrow schema: DiaASQ's triplets mix numbers and
    strings)."""
    if file is None:
        raise ValueError("dataset_kwargs: the task needs `file:`, the --metadata key that names its local file")
    if file not in metadata:
        raise ValueError(f"--metadata: name this task's local JSON-lines file, e.g. --metadata '{{\"{file}\": \"/data/{file}.jsonl\"}}' (no dataset is downloaded)")
    documents = read_json_values(metadata[file], file, objects=True)
    for index, value in enumerate(documents):
        if not isinstance(value, dict):
            raise ValueError(f"{file}: {metadata[file]} item {index} is a {type(value).__name__}, not a JSON object (one document a line)")
    return {split: Documents(documents)}


class Documents(list):
    """A task's documents as the file holds them, with the one attribute of a datasets
    Dataset lm-eval reads (`features`: the field names)."""

    @property
    def features(self):
        return dict.fromkeys(name for document in self for name in document)


if __name__ == "__main__":
    print(TASKS)
