"""torchmetrics (1.9) / Lightning: a paperscore family as a torchmetrics.Metric.

    from paperscore.harness_torchmetrics import PaperscoreMetric
    f1 = PaperscoreMetric("micro_macro", figure="micro_f1", convention="maven")
    f1.update(predicted_labels, gold_labels)       # in validation_step
    self.log("val_micro_f1", f1, on_epoch=True)    # Lightning calls compute() at the epoch's end
    MetricCollection({"micro_f1": ..., "macro_f1": ...})

update(predictions, references, **inputs) takes what the family's State.update takes
(CSC sources=, coref tokens=, rationale sources= with parse=; tensors of labels are read
as numpy). compute() returns the figure (a scalar tensor, what self.log needs), or with
figure=None a dict of every number compute() gives (MetricCollection flattens it); a
figure "<name>_low" / "<name>_high" is its bootstrap interval over the examples
(confidence_level, n_resamples, seed; the states then keep their rows). torch's
float64, as paperscore's floats.

The statistics are paperscore states, synced by the states' own merge: the metric's state
is a list of uint8 tensors, each the JSON of a State.to_dict() followed by a newline (one
per update: a few hundred bytes beside the update's own statistics), reduced by
concatenation; torchmetrics
all-gathers them under DDP (uneven lengths and ranks without data included) and compute()
splits the lines, merges them in rank order and computes once: every rank gets the
figures of one compute() over every rank's examples. forward(), merge_state(), reset(),
state_dict() and MetricCollection's compute groups work on it as on any list state.
"""

import json

import torch
import torchmetrics

from . import harness, state

TORCHMETRICS_OPTIONS = ("compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn", "distributed_available_fn", "sync_on_compute", "compute_with_cache")


def _encode(one):
    return torch.tensor(bytearray(json.dumps(one.to_dict()).encode() + b"\n"), dtype=torch.uint8)


def _decode(tensors):
    """The states of concatenated JSON lines (a state holds no raw newline: JSON escapes it)."""
    if isinstance(tensors, torch.Tensor):
        tensors = [tensors]
    data = b"".join(bytes(t.to(torch.uint8).cpu().tolist()) for t in tensors)  # a rank without data gathers as float
    return [state.from_dict(json.loads(line)) for line in data.splitlines() if line]


class PaperscoreMetric(torchmetrics.Metric):
    """A paperscore family's figure(s) over every update, on every rank (see the module
    docstring). family: a Space name; options: its compute() options, and torchmetrics'
    own (TORCHMETRICS_OPTIONS: sync_on_compute, process_group, ...)."""

    full_state_update = False
    higher_is_better = True

    def __init__(self, family, figure=None, confidence_level=harness.BOOTSTRAP["confidence_level"], n_resamples=harness.BOOTSTRAP["n_resamples"], seed=harness.BOOTSTRAP["seed"], **options):
        super().__init__(**{name: options.pop(name) for name in TORCHMETRICS_OPTIONS if name in options})
        interval = figure is None or figure.endswith(("_low", "_high"))
        self.family, self.options, self.figure = family, options, figure
        self.bootstrap = harness.bootstrap(confidence_level if interval else None, n_resamples, seed)
        self.names = harness.figures(family, options, self.bootstrap.get("confidence_level"))  # checks the options
        if figure is not None and figure not in self.names:
            raise ValueError(f"figure: {figure!r} is not a figure of {family} with these options ({', '.join(self.names)})")
        self.add_state("statistics", default=[], dist_reduce_fx="cat")

    def _new(self):
        return harness.new(self.family, keep_rows=bool(self.bootstrap), **self.options)

    def update(self, predictions, references, **inputs):
        self.statistics.append(_encode(self._new().update(predictions, references, **inputs)).to(self.device))

    def compute(self):
        states = _decode(self.statistics)
        result = (state.merge(*states) if states else self._new()).compute(**self.bootstrap)
        if self.figure is not None:
            return torch.tensor(result[self.figure], dtype=torch.float64)
        return {name: torch.tensor(result[name], dtype=torch.float64) for name in self.names}
