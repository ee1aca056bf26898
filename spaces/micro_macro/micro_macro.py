"""micro_macro: multi-class precision, recall and F1 (micro, macro, weighted) equal to
sklearn, with the event-detection conventions of MAVEN and JMEE by name."""

import datasets
import evaluate

# What the vendored package imports, named here for evaluate's dependency check at load time.
import numpy
import scipy.sparse

# evaluate copies only the sibling files this script imports: a line for each vendored module.
from .paperscore_core import VERSION
from .paperscore_family import Family
from .paperscore_event_spans import RULES, read_corpus
from .paperscore_micro_macro import HABITS, check_inputs, compute
from .paperscore_parse import get_parser
from .paperscore_space import SpaceMetric, from_json, to_json
from .paperscore_state import State
from .paperscore_trainer import trainer_metrics

_CITATION = """\
@inproceedings{wang-etal-2020-maven,
    title = "{MAVEN}: A Massive General Domain Event Detection Dataset",
    author = "Wang, Xiaozhi and Wang, Ziqi and Han, Xu and Jiang, Wangyi and Han, Rong and Liu, Zhiyuan and Li, Juanzi and Li, Peng and Lin, Yankai and Zhou, Jie",
    booktitle = "Proceedings of EMNLP 2020",
    year = "2020",
    pages = "1652--1671",
}
@article{pedregosa2011scikit,
    title = {Scikit-learn: Machine Learning in {P}ython},
    author = {Pedregosa, F. and Varoquaux, G. and Gramfort, A. and others},
    journal = {Journal of Machine Learning Research},
    volume = {12},
    pages = {2825--2830},
    year = {2011},
}
"""

_DESCRIPTION = """\
Accuracy and micro, macro and weighted precision, recall and F1 over classes, computed
from one confusion matrix and equal to sklearn's precision_recall_fscore_support to 1e-12.
Classes can be left out of the averages (an NA class, as MAVEN does), and the conventions
of event-detection papers are presets: convention="maven" (NA left out; micro P != R) and
convention="jmee" (only gold-event tokens scored; macro P, macro R, micro F1 reported).
Labels may be ints or strings, one per example or one sequence per example (token
classification, with ignore_index=-100 positions of the references dropped).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one label per example (int or str), or one sequence of labels per example.
    references: same layout as predictions.
    labels: the classes scored and their order (default: every observed class, sorted).
    negative_labels: classes left out of the micro, macro and weighted averages.
    convention: None, "maven" or "jmee" (see the card).
    zero_division: the value of a 0/0 ratio: 0.0 (default), 1.0 or "nan" (sklearn's
        np.nan: NaN classes are left out of the macro mean).
    ignore_index: reference positions with this value are not scored (default -100).
    per_class: add "per_class": {label: {precision, recall, f1, support}}.
    confusion_matrix: add "labels" and "confusion_matrix" (rows: references).
    confidence_level, n_resamples, seed: add bootstrap "<key>_low" / "<key>_high".
    return_signature: add "signature", the reproducibility string.
    parse: predictions are what a seq2seq model writes, references OmniEvent items
        ({"text", "events", "negative_triggers"}), read by this parser and put onto each
        item's candidates: omnievent_s2s (OmniEvent's conversion) or omnievent_s2s_strict
        (the strict offset policy; see the card). Adds parse_failures,
        parse_failure_examples and unplaced_triggers.
    strict: a prediction the parser cannot read is a ValueError.
    types: the event type names (OmniEvent's type2id keys); required by omnievent_s2s.
    spans: "textee" or "oneie": span-level event detection instead; each example a list of
        [start, end, type] triggers, or {"triggers": [...]} / {"events": [{"trigger":
        [start, end, type], "arguments": [[start, end, role], ...]}]} with optional
        "doc_id", "wnd_id"; counted as TextEE's scorer (sets per window) or OneIE's
        score_graphs (lists). Returns trigger_id_*, trigger_cls_* (and argument_id_*,
        argument_cls_*, with "textee" argument_attached_id_* / _cls_*) precision, recall,
        f1, predicted, gold, matched.
    scheme: "bio": with spans=, examples are BIO tag sequences (seqeval's reading).
Returns:
    accuracy, micro_precision, micro_recall, micro_f1, macro_precision, macro_recall,
    macro_f1, weighted_precision, weighted_recall, weighted_f1 (floats in [0, 1]); with
    convention="jmee" also precision (= macro P), recall (= macro R), f1 (= micro F1).
Examples:
    >>> metric = evaluate.load("paperscore/micro_macro")
    >>> result = metric.compute(predictions=[1, 1, 1, 0, 2, 0, 0], references=[0, 0, 1, 1, 2, 2, 2], negative_labels=[0])
    >>> print(round(result["micro_precision"], 4), round(result["micro_recall"], 4), round(result["micro_f1"], 4))
    0.5 0.4 0.4444
"""

_SEQUENCE = {"str": datasets.Value("string"), "int": datasets.Value("int64")}
_JSON = "json"  # the one field of an example that travels as its JSON text


def _as_json(values):
    return [{_JSON: text} for text in to_json(values)]


_ITEMS = ("OmniEvent items", False)
_SPANS = ("span records", False)


def _record(value):
    """Whether an example can be a span record: an object, or a list of lists or objects."""
    return isinstance(value, dict) or (isinstance(value, (list, tuple)) and all(isinstance(item, (list, tuple, dict)) for item in value))


def _records(columns):
    """Whether a batch holds span records: every example on both sides can be one, and one
    is not empty (anything else goes to the label checks, which name the first bad label)."""
    sides = [columns["predictions"], columns["references"]]
    if not all(isinstance(side, (list, tuple)) and all(map(_record, side)) for side in sides):
        return False
    return any(isinstance(value, dict) or len(value) for side in sides for value in side)


def _describe(found):
    if found == _ITEMS:
        return "model texts with OmniEvent items"
    if found == _SPANS:
        return "span records (triggers or events)"
    kind, nested = found
    return f"sequences of {kind} labels" if nested else f"{kind} labels"


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MicroMacro(SpaceMetric, evaluate.Metric):
    parser_family = "micro_macro"  # parse=NAME: one of its parsers (checked by trainer_metrics at once)
    # evaluate.load(..., config_name="maven") for evaluate's combine and evaluator, which
    # pass no compute arguments; explicit arguments still win.
    # "textee", "oneie": span-level event detection (span records) under that paper's scorer.
    configs = {"maven": {"convention": "maven"}, "jmee": {"convention": "jmee"}, **{rule: {"spans": rule} for rule in RULES}}
    habits = HABITS  # what evaluate's f1 and sklearn users pass out of habit (the package's words)

    def _info(self):
        # A string first: evaluate would otherwise read the string "5" as the int 5.
        features = [
            datasets.Features({"predictions": value, "references": value})
            for value in (
                _SEQUENCE["str"],
                _SEQUENCE["int"],
                datasets.Sequence(_SEQUENCE["str"]),
                datasets.Sequence(_SEQUENCE["int"]),
            )
        ]
        # Model texts with OmniEvent items (parse=), and span records (spans=): each item or
        # record travels as its JSON text in a one-field object (chosen by
        # _infer_feature_from_example: a sequence feature would take it as its keys).
        json_text = {_JSON: _SEQUENCE["str"]}
        features += [datasets.Features({"predictions": _SEQUENCE["str"], "references": json_text}), datasets.Features({"predictions": json_text, "references": json_text})]
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=features,
            homepage="https://huggingface.co/spaces/paperscore/micro_macro",
            codebase_urls=["https://github.com/THU-KEG/MAVEN-dataset", "https://github.com/231sm/Reasoning_In_EE"],
            reference_urls=["https://scikit-learn.org/stable/modules/generated/sklearn.metrics.precision_recall_fscore_support.html"],
        )

    def check_batch(self, columns):
        references = columns["references"]
        if isinstance(references, (list, tuple)) and references and isinstance(references[0], dict) and "text" in references[0]:
            return self._check_items(columns)
        if _records(columns):
            return self._check_records(columns)
        # tensors become numpy here, so evaluate stores what compute() would read
        predictions, references, found = check_inputs(columns["predictions"], columns["references"])
        columns = {**columns, "predictions": predictions, "references": references}
        if found[1] and not any(map(len, predictions)) and not any(map(len, references)):
            # only empty sequences: no label to score, and no label type for evaluate to
            # infer from them (it would guess, and refuse the batches around them)
            self._held_empty += len(references)
            return {**columns, "predictions": [], "references": []}
        # evaluate stores every batch in the first one's feature: later string labels would
        # be read as ints ("2" as 2) without a word.
        if self.writer is not None and len(columns["references"]) and found != self._format:
            raise ValueError(f"this batch holds {_describe(found)}, but earlier batches held {_describe(self._format)}")
        if len(columns["references"]):
            self._format = found
        return columns

    def _infer_feature_from_example(self, example):
        """The JSON-text features for what check_batch wrapped, evaluate's choice otherwise."""
        if isinstance(example["references"], dict):
            return self.features[-1 if isinstance(example["predictions"], dict) else -2]
        return super()._infer_feature_from_example(example)

    def _check_items(self, columns):
        """Model texts with OmniEvent items: each item as its JSON text."""
        predictions, references = columns["predictions"], columns["references"]
        for index, (text, item) in enumerate(zip(predictions, references)):
            if not isinstance(text, str):
                raise ValueError(f"predictions[{index}]: is a {type(text).__name__}, not a model text (references are OmniEvent items)")
            if not isinstance(item, dict):
                raise ValueError(f"references[{index}]: is a {type(item).__name__}, but references[0] is an OmniEvent item")
        if self.writer is not None and self._format != _ITEMS:
            raise ValueError(f"this batch holds model texts and OmniEvent items, but earlier batches held {_describe(self._format)}")
        self._format = _ITEMS
        return {**columns, "references": _as_json(references)}

    def _check_records(self, columns):
        """Span records (triggers or events), read by the package now: each as its JSON text."""
        read_corpus(columns["predictions"], columns["references"])
        if self.writer is not None and self._format != _SPANS:
            raise ValueError(f"this batch holds span records, but earlier batches held {_describe(self._format)}")
        self._format = _SPANS
        return {**columns, "predictions": _as_json(columns["predictions"]), "references": _as_json(columns["references"])}

    def trainer_metrics(self, *arguments, **options):
        """SpaceMetric.trainer_metrics; the event parsers read T5's markers, which the
        decoding keeps (as OmniEvent decodes)."""
        if options.get("parse") is not None:
            options.setdefault("skip_special_tokens", False)
        return super().trainer_metrics(*arguments, **options)

    def _compute(
        self,
        predictions,
        references,
        labels=None,
        negative_labels=None,
        convention=None,
        zero_division=0.0,
        ignore_index=-100,
        per_class=False,
        confusion_matrix=False,
        confidence_level=None,
        n_resamples=1000,
        seed=None,
        return_signature=False,
        parse=None,
        strict=False,
        types=None,
        spans=None,
        scheme=None,
    ):
        # Every argument goes to the package unchanged (a test keeps the signatures equal);
        # OmniEvent items come back from their JSON text.
        arguments = {name: value for name, value in locals().items() if name != "self"}
        for name in ("predictions", "references"):
            if arguments[name] and isinstance(arguments[name][0], dict) and _JSON in arguments[name][0]:
                arguments[name] = from_json([value[_JSON] for value in arguments[name]])
        return compute(**arguments)
