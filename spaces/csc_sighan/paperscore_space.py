# GENERATED from shared/paperscore/space.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""What every Space's evaluate.Metric class shares: `class X(SpaceMetric, evaluate.Metric)`.

evaluate encodes each batch with the module's features before the metric sees it, and the
encoding coerces silently: an int feature truncates 0.7 to 0 and reads "5" as 5, a string
feature turns a number, or a span [0, 1], into text. So every batch first goes through the
Space's `check_batch(columns)`, which raises ValueError for anything the features would
change, and may complete the columns (CSC's label lines come without sources). Inputs
named in `optional_inputs` may be left out of compute() and add_batch().

`configs` maps each configuration name to compute() option defaults, so that
`evaluate.load(space, config_name="maven")` reaches a convention where no compute
arguments can be passed (evaluate's `combine` and `evaluator`); explicit arguments win.
A batch that evaluate itself cannot store (a lone surrogate, an int beyond int64) is a
ValueError naming the example, and leaves the metric as it was before the call.

An argument compute() does not take is a ValueError listing the ones it takes (evaluate
would raise a TypeError naming `_compute()`); for the habits of evaluate's f1 and of
sklearn (`average`, `pos_label`, `sample_weight`) it also says what to do instead: the
generic HABITS below, or the Space's own `habits` (which keys hold each average, ...).

And `metric.trainer_metrics(...)`: a compute_metrics function for transformers' Trainer.
"""

import inspect
import json
import sys
from contextlib import contextmanager

import numpy as np

from .paperscore_core import INT64, as_corpus
from .paperscore_parse import get_parser
from .paperscore_trainer import trainer_metrics

_PLURAL = {"prediction": "predictions", "reference": "references"}
# What a user of evaluate's f1 or of sklearn passes out of habit, and what this metric does
# instead; a Space's `habits` says it for its own numbers.
HABITS = {
    "average": "every average this metric reports is returned at once, each under its own key (see the card's Output Values)",
    "pos_label": "this metric has no positive class to choose (see the card's Output Values)",
    "sample_weight": "examples are not weighted: every example counts once",
}
_SINGULAR = {plural: singular for singular, plural in _PLURAL.items()}


# One encoder for every value of a batch: json.dumps with options builds a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, default=lambda array: array.tolist())


def to_json(values):
    """Each value as its JSON text (numpy arrays and scalars as Python values): how a Space
    stores examples that no one datasets feature holds without coercing them."""
    return list(map(_ENCODER.encode, values))


def from_json(texts):
    """The values back from to_json's texts, read by one json.loads call."""
    return json.loads(f"[{','.join(texts)}]")


def _unstorable(columns):
    """Where and why evaluate cannot store `columns`: "predictions[3]: ...", or None."""

    def problem(value):
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as error:
                return f"{value[error.start]!r} at character {error.start} is a lone surrogate, not text"
        elif isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
            return f"{value} is outside the 64-bit integer range"
        elif isinstance(value, (list, tuple)):
            return next(filter(None, map(problem, value)), None)
        return None

    for name, values in columns.items():
        for index, value in enumerate(values if isinstance(values, (list, tuple)) else []):
            found = problem(value)
            if found:
                return f"{name}[{index}]: {found}"
    return None


def _as_lists(values):
    """A checked column as Python lists for evaluate to encode: the same values (int64 and
    float64 items convert exactly), which evaluate encodes 1.1-3x faster than numpy arrays."""
    if isinstance(values, np.ndarray):
        return values.tolist()
    if isinstance(values, list) and any(isinstance(value, np.ndarray) for value in values):
        return [value.tolist() if isinstance(value, np.ndarray) else value for value in values]
    return values


def from_arrow(values):
    """A column as evaluate hands it to _compute() in a Space whose MetricInfo says
    format="arrow": a list of numbers per example as numpy (one 2-D array when every example
    is as long, else a list of 1-D arrays; the values exactly as stored), any other column
    as Python values, which is what evaluate's default format gives at twice the cost.
    Anything else (compute() with nothing stored passes lists) is returned as it is."""
    if not hasattr(values, "to_pylist"):  # not pyarrow
        return values
    # loaded already, as `values` is one of its arrays: no import statement, which evaluate
    # would read as a dependency the Space must list (it comes with datasets)
    pa = sys.modules["pyarrow"]

    column = values.combine_chunks() if hasattr(values, "combine_chunks") else values
    kind = column.type
    if not (pa.types.is_list(kind) or pa.types.is_large_list(kind)) or not pa.types.is_primitive(kind.value_type) or column.null_count:
        return column.to_pylist()
    flat = column.flatten()
    if flat.null_count:
        return column.to_pylist()
    flat = flat.to_numpy(zero_copy_only=False)
    lengths = np.diff(np.asarray(column.offsets))
    if len(lengths) and (lengths == lengths[0]).all():
        return flat.reshape(len(lengths), lengths[0])
    return np.split(flat, np.cumsum(lengths)[:-1]) if len(lengths) else []


class SpaceMetric:
    optional_inputs = ()
    configs = {}  # config_name -> compute() option defaults ("default": none)
    habits = {}  # argument -> what to do instead, for this Space (over HABITS)
    parser_family = None  # the paperscore.parse family whose parsers parse= names
    # "arrow": evaluate's compute() hands _compute() the stored columns as pyarrow arrays,
    # for the Space to read through from_arrow (evaluate's default builds Python lists, the
    # largest cost of a compute() on numbers). Set on the instance: MetricInfo refuses a
    # format beside Sequence features.
    stored_format = None
    # Examples with empty predictions and references that check_batch held back rather than
    # store (evaluate would infer a label type from them); they count only when nothing
    # else was stored.
    _held_empty = 0

    def __init__(self, config_name=None, **kwargs):
        if config_name not in (None, "default") and config_name not in self.configs:
            if not isinstance(config_name, str):
                raise ValueError(f"config_name: expected a string, got {type(config_name).__name__}")
            valid = ", ".join(map(repr, ["default", *self.configs]))
            raise ValueError(f"config_name: {config_name!r} is not a configuration of this metric (valid: {valid})")
        super().__init__(config_name=config_name, **kwargs)
        if self.stored_format:
            self.info.format = self.stored_format

    def fresh(self):
        """A new empty instance with this one's configuration, kept in memory: a demo scores
        each request on its own, so one request cannot affect another (or another thread's)."""
        return type(self)(config_name=self.config_name, keep_in_memory=True)

    def check_batch(self, columns):
        """The columns of a batch ({feature name: list}), checked; the Space overrides this."""
        return columns

    def compute(self, **inputs):
        """Compute the metric (see the module's description); optional inputs may be left out."""
        inputs = {**{name: None for name in self.optional_inputs}, **self.configs.get(self.config_name, {}), **inputs}
        features = self._feature_names()
        options = {name: value for name, value in inputs.items() if name not in features}
        self._check_arguments(options)
        if inputs.get("predictions") is None and inputs.get("references") is None:
            if self.writer is None and not self._held_empty:
                raise ValueError("nothing to compute: pass predictions and references, or add_batch them first")
        else:
            self.add_batch(**{name: inputs.get(name) for name in features})
        held, self._held_empty = self._held_empty, 0
        if self.writer is None:
            # nothing stored (an empty corpus, or only examples held back), which evaluate
            # cannot compute: score it directly
            return self._compute(**{name: [[]] * held for name in features}, **options)
        return super().compute(**options)

    def _check_arguments(self, options):
        """An argument _compute() does not take: a ValueError listing those it takes."""
        taken = [name for name in inspect.signature(self._compute).parameters if name not in self._feature_names()]
        unknown = [name for name in options if name not in taken]
        if unknown:
            habit = {**HABITS, **self.habits}.get(unknown[0])
            raise ValueError(f"{unknown[0]}: not an argument of {self.name} (it takes {', '.join(taken)})" + (f"; {habit}" if habit else ""))

    def add_batch(self, **columns):
        """Add a batch of examples, checked before evaluate encodes them (an empty batch adds nothing)."""
        columns = {**{name: None for name in self.optional_inputs}, **columns}
        columns.update(self._corpora(columns))
        if columns.get("predictions") is not None and columns.get("references") is not None:
            columns = self.check_batch(columns)
            if not len(columns["predictions"]):
                return
        columns = {name: _as_lists(values) for name, values in columns.items()}
        with self._storing(columns):
            super().add_batch(**columns)

    def add(self, **example):
        """Add one example, checked before evaluate encodes it."""
        columns = {name: [None] for name in self.optional_inputs}
        columns.update({_PLURAL.get(name, name): [value] for name, value in example.items()})
        columns = self.check_batch({**columns, **self._corpora(columns)})
        if not len(columns["predictions"]):
            return  # the Space found nothing to store (see its check_batch)
        with self._storing(columns):
            super().add(**{_SINGULAR.get(name, name): values[0] for name, values in columns.items()})

    def _corpora(self, inputs):
        """The corpus columns among `inputs` through core.as_corpus (tensors and numpy as
        lists take them; None, a number, a set, a bare string refused by name); an optional
        input left out stays None."""
        names = [name for name in self._feature_names() if name in inputs]
        return {name: as_corpus(inputs[name], name) for name in names if not (inputs[name] is None and name in self.optional_inputs)}

    @contextmanager
    def _storing(self, columns):
        """evaluate's encoding of checked columns: what it cannot store becomes a ValueError
        naming the example, and a first batch that fails leaves no half-made writer behind
        (which would make the next call, in another format, be refused)."""
        first = self.writer is None
        try:
            yield
        except Exception as error:
            if first and self.writer is not None:
                self._drop_writer()
            found = _unstorable(columns) if isinstance(error, (ValueError, OverflowError)) else None
            if found:  # evaluate's own message names neither the example nor the problem
                raise ValueError(found) from None
            raise

    def _drop_writer(self):
        try:
            self.writer.close()
        except Exception:  # nothing was written; the writer may not have a stream yet
            pass
        if getattr(self, "filelock", None) is not None:
            self.filelock.release()
        self.writer = self.buf_writer = self.selected_feature_format = None
        self.cache_file_name = self.filelock = None

    def trainer_metrics(self, tokenizer=None, label_names=None, logits="argmax", postprocess=None, ignore_index=-100, skip_special_tokens=True, references=None, **options):
        """A compute_metrics function for transformers' Trainer (see paperscore.trainer)."""
        self._check_arguments(options)  # now, not at the end of the first evaluation
        if options.get("parse") is not None:
            get_parser(options["parse"], self.parser_family)
        return trainer_metrics(self, tokenizer, label_names, logits, postprocess, ignore_index, skip_special_tokens, references, **options)
