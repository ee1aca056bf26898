# GENERATED from shared/paperscore/space.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""What every Space's evaluate.Metric class shares: `class X(SpaceMetric, evaluate.Metric)`.

evaluate encodes each batch with the module's features before the metric sees it, and the
encoding coerces silently: an int feature truncates 0.7 to 0 and reads "5" as 5, a string
feature turns a number, or a span [0, 1], into text. So every batch first goes through the
Space's `check_batch(columns)`, which raises ValueError for anything the features would
change, and may complete the columns (CSC's label lines come without sources). Inputs
named in `optional_inputs` may be left out of compute() and add_batch().

And `metric.trainer_metrics(...)`: a compute_metrics function for transformers' Trainer.
"""

from .paperscore_trainer import trainer_metrics

_PLURAL = {"prediction": "predictions", "reference": "references"}
_SINGULAR = {plural: singular for singular, plural in _PLURAL.items()}


class SpaceMetric:
    optional_inputs = ()

    def check_batch(self, columns):
        """The columns of a batch ({feature name: list}), checked; the Space overrides this."""
        return columns

    def compute(self, **inputs):
        """Compute the metric (see the module's description); optional inputs may be left out."""
        inputs = {**{name: None for name in self.optional_inputs}, **inputs}
        given = [inputs.get(name) for name in ("predictions", "references")]
        if self.writer is None and all(value is None for value in given):
            raise ValueError("nothing to compute: pass predictions and references, or add_batch them first")
        if self.writer is None and all(value is not None and len(value) == 0 for value in given):
            # evaluate cannot store an empty corpus: score it directly (zero-division values)
            options = {name: value for name, value in inputs.items() if name not in self._feature_names()}
            return self._compute(**{name: [] for name in self._feature_names()}, **options)
        return super().compute(**inputs)

    def add_batch(self, **columns):
        """Add a batch of examples, checked before evaluate encodes them (an empty batch adds nothing)."""
        columns = {**{name: None for name in self.optional_inputs}, **columns}
        if columns.get("predictions") is not None and columns.get("references") is not None:
            columns = self.check_batch(columns)
            if not len(columns["predictions"]):
                return
        super().add_batch(**columns)

    def add(self, **example):
        """Add one example, checked before evaluate encodes it."""
        columns = {name: [None] for name in self.optional_inputs}
        columns.update({_PLURAL.get(name, name): [value] for name, value in example.items()})
        columns = self.check_batch(columns)
        super().add(**{_SINGULAR.get(name, name): values[0] for name, values in columns.items()})

    def trainer_metrics(self, tokenizer=None, label_names=None, logits="argmax", postprocess=None, ignore_index=-100, **options):
        """A compute_metrics function for transformers' Trainer (see paperscore.trainer)."""
        return trainer_metrics(self, tokenizer, label_names, logits, postprocess, ignore_index, **options)
