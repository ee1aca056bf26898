# GENERATED from shared/paperscore/faithfulness.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""ERASER's faithfulness numbers (DeYoung et al. 2020; jayded/eraserbenchmark
`rationale_benchmark/metrics.py`, `score_classifications` and `compute_aopc_scores`), from
the class probabilities a model gives each example three ways, as ERASER's results JSONL
holds them: on the full input (`classification_scores`), without the rationale
(`comprehensiveness_classification_scores`) and on the rationale alone
(`sufficiency_classification_scores`); and, for AOPC, the same two for the top k% of the
tokens at each k (`thresholded_scores`). No model runs here.

For the predicted class ŷ (ERASER's `classification`; by default the argmax of the full
input's probabilities, the first on ties):
- comprehensiveness = mean over examples of p(ŷ | full) - p(ŷ | without the rationale);
- sufficiency = mean of p(ŷ | full) - p(ŷ | the rationale alone);
- *_aopc: the same differences averaged over the thresholds k and the examples (ERASER's
  default k: 1, 5, 10, 20, 50 %), with *_aopc_points the mean at each k;
- *_entropy: mean of H(full) - H(without / alone); *_kl: mean of KL(without / alone ||
  full), natural logarithms, each distribution first scaled to sum 1 (scipy.stats.entropy,
  which ERASER calls).
"""

import json

import numpy as np

from .paperscore_core import NESTED_TOO_DEEP, encode_rows, input_error, read_lines, signature
from .paperscore_family import Family
from .paperscore_state import State

AOPC_THRESHOLDS = (0.01, 0.05, 0.1, 0.2, 0.5)  # ERASER's --aopc_thresholds default
KEYS = ("comprehensiveness", "sufficiency", "comprehensiveness_entropy", "comprehensiveness_kl", "sufficiency_entropy", "sufficiency_kl")


def _probabilities(values, argument, shape=None):
    """A float array of probability rows, each in [0, 1]; ValueError naming the example."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (ValueError, TypeError):
        raise input_error(argument, None, "expected one row of class probabilities per example (numbers, all rows of one length)") from None
    if array.ndim < 2 or (shape is not None and array.shape != shape):
        expected = "(examples, classes)" if shape is None else str(shape)
        raise input_error(argument, None, f"has shape {array.shape}, expected {expected}")
    bad = ~((array >= 0) & (array <= 1))
    if bad.any():
        where = np.argwhere(bad)[0]
        raise input_error(argument, where[0], f"{array[tuple(where)].item()!r} is not a probability in [0, 1]")
    return array


def _entropy(p):
    """scipy.stats.entropy of each row: scaled to sum 1, -sum p log p, 0 log 0 = 0."""
    p = p / p.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(p > 0, p * np.log(p), 0.0).sum(-1)


def _kl(p, q):
    """scipy.stats.entropy(p, q) of each row pair: both scaled to sum 1, sum p log(p / q),
    a term with p = 0 is 0, with p > 0 = q infinite."""
    p, q = p / p.sum(-1, keepdims=True), q / q.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, p * np.log(p / q), 0.0).sum(-1)


def compute(full, without, alone, predicted=None, thresholded_without=None, thresholded_alone=None, aopc_thresholds=AOPC_THRESHOLDS, per_example=False, return_signature=False):
    """ERASER's comprehensiveness, sufficiency, their AOPC, entropy and KL variants.

    full, without, alone: per example, the class probabilities on the full input, without
    the rationale and on the rationale alone, shape (examples, classes).
    predicted: the class index ŷ of each example (default: the argmax of `full`).
    thresholded_without, thresholded_alone: for AOPC, shape (examples, len(aopc_thresholds),
    classes): the probabilities without / with only the top k% of tokens, k in
    aopc_thresholds order (both or neither).
    """
    per, deltas = example_terms(full, without, alone, predicted, thresholded_without, thresholded_alone, aopc_thresholds)
    result = {key: float(per[key].mean()) for key in KEYS}
    if deltas:
        result["aopc_thresholds"] = check_thresholds(aopc_thresholds)
        for name, values in deltas.items():
            result[f"{name}_aopc"] = float(values.mean())
            result[f"{name}_aopc_points"] = values.mean(0).tolist()
    if per_example:
        result["per_example"] = [{key: float(values[i]) for key, values in per.items()} for i in range(len(per["comprehensiveness"]))]
    if return_signature:
        result["signature"] = signature("rationale_f1", measure="eraser_faithfulness", aopc_thresholds=check_thresholds(aopc_thresholds) if deltas else None)
    return result


def check_thresholds(aopc_thresholds):
    """The AOPC thresholds as floats: distinct increasing fractions in (0, 1]."""
    if isinstance(aopc_thresholds, (str, bytes, dict)) or not hasattr(aopc_thresholds, "__iter__") or not all(isinstance(k, (int, float, np.integer, np.floating)) and not isinstance(k, bool) for k in aopc_thresholds):
        raise ValueError(f"aopc_thresholds: {aopc_thresholds!r:.60} is not a list of fractions")
    thresholds = [float(k) for k in aopc_thresholds]
    if not thresholds or sorted(set(thresholds)) != thresholds or not all(0 < k <= 1 for k in thresholds):
        raise ValueError(f"aopc_thresholds: {aopc_thresholds!r} are not distinct increasing fractions in (0, 1]")
    return thresholds


def example_terms(full, without, alone, predicted=None, thresholded_without=None, thresholded_alone=None, aopc_thresholds=AOPC_THRESHOLDS):
    """(per, deltas) of compute()'s arguments, checked: per example each of KEYS' terms
    (and with thresholded scores "*_aopc", its mean over the thresholds); deltas: with
    thresholded scores, {"comprehensiveness", "sufficiency"}: the (examples, thresholds)
    AOPC differences, else empty. Every number of compute() is a mean of these."""
    full = _probabilities(full, "full")
    examples, classes = full.shape
    if not examples:
        raise ValueError("full: no examples; the means are undefined")
    without = _probabilities(without, "without", full.shape)
    alone = _probabilities(alone, "alone", full.shape)
    if predicted is None:
        predicted = full.argmax(-1)
    else:
        predicted = np.asarray(predicted)
        if predicted.shape != (examples,) or predicted.dtype.kind not in "iu" or ((predicted < 0) | (predicted >= classes)).any():
            raise ValueError(f"predicted: expected {examples} class indices in [0, {classes}), got {predicted!r:.80}")
    rows = np.arange(examples)
    top = full[rows, predicted]
    per = {
        "comprehensiveness": top - without[rows, predicted],
        "sufficiency": top - alone[rows, predicted],
        "comprehensiveness_entropy": _entropy(full) - _entropy(without),
        "comprehensiveness_kl": _kl(without, full),
        "sufficiency_entropy": _entropy(full) - _entropy(alone),
        "sufficiency_kl": _kl(alone, full),
    }
    if (thresholded_without is None) != (thresholded_alone is None):
        raise ValueError(f"{'thresholded_alone' if thresholded_alone is None else 'thresholded_without'}: AOPC needs both thresholded_without and thresholded_alone")
    deltas = {}
    if thresholded_without is not None:
        shape = (examples, len(check_thresholds(aopc_thresholds)), classes)
        for name, values in (("comprehensiveness", thresholded_without), ("sufficiency", thresholded_alone)):
            array = _probabilities(values, f"thresholded_{'without' if name == 'comprehensiveness' else 'alone'}", shape)
            deltas[name] = top[:, None] - array[rows, :, predicted]
            per[f"{name}_aopc"] = deltas[name].mean(1)
    return per, deltas


# ---------------------------------------------------------------------------------------
# ERASER's results JSONL


FIELDS = ("classification", "classification_scores", "comprehensiveness_classification_scores", "sufficiency_classification_scores")


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def read_eraser_results(path_or_lines, aopc_thresholds=AOPC_THRESHOLDS, argument="results"):
    """ERASER's results JSONL (a path, "-" for standard input, or its lines) as compute()'s
    arguments and the hard rationales: {"labels": the classes in sorted order, "full",
    "without", "alone", "predicted" (the index of each line's "classification"),
    "thresholded_without", "thresholded_alone" (at `aopc_thresholds`, when the lines have
    "thresholded_scores"), "annotation_ids", "hard_rationales": per line {docid:
    [(start_token, end_token), ...]} in the file's order}. Blank lines are skipped. Every
    problem is a ValueError naming `argument` and the line (1-based): not a JSON object,
    a field another line has missing (ERASER requires every optional field on every line
    or none), a class missing from a line's scores, a score that is not a number in
    [0, 1], a threshold missing or given twice in its thresholded_scores, a malformed
    rationale span."""
    if isinstance(path_or_lines, str):
        lines, where = read_lines(path_or_lines, argument, allow_empty=True), f"{argument}: {'standard input' if path_or_lines == '-' else path_or_lines} line"
    else:
        lines, where = list(path_or_lines), f"{argument}: line"
    instances = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                instance = json.loads(line)
            except ValueError:
                raise ValueError(f"{where} {number} is not JSON") from None
            except RecursionError:
                raise ValueError(f"{where} {number}: {NESTED_TOO_DEEP}") from None
            if not isinstance(instance, dict):
                raise ValueError(f"{where} {number} is a JSON {type(instance).__name__}, not an object (one result a line)")
            missing = [field for field in FIELDS if field not in instance]
            if missing:
                raise ValueError(f"{where} {number} lacks {missing[0]!r}")
            instances.append((number, instance))
    if not instances:
        raise ValueError(f"{argument}: no lines")
    first = instances[0][1]["classification_scores"]
    labels = sorted(first) if isinstance(first, dict) else []

    def row(scores, number, field):
        if not isinstance(scores, dict) or not labels or sorted(scores) != labels:
            raise ValueError(f"{where} {number} {field} has the classes {sorted(scores) if isinstance(scores, dict) else scores!r:.80}, not {labels} (a JSON object of class: probability)")
        for label in labels:
            if not _is_number(scores[label]) or not 0 <= scores[label] <= 1:
                raise ValueError(f"{where} {number} {field} {label!r}: {scores[label]!r:.40} is not a probability in [0, 1]")
        return [scores[label] for label in labels]

    out = {"labels": labels, "annotation_ids": [instance.get("annotation_id") for _, instance in instances], "lines": [number for number, _ in instances]}
    seen = {}
    for number, instance in instances:  # ERASER refuses a repeated annotation_id; compare pairs by them
        if "annotation_id" in instance:
            key = json.dumps(instance["annotation_id"])
            if key in seen:
                raise ValueError(f"{where} {number} repeats the annotation_id {instance['annotation_id']!r:.80} of line {seen[key]}")
            seen[key] = number
    for key, field in (("full", "classification_scores"), ("without", "comprehensiveness_classification_scores"), ("alone", "sufficiency_classification_scores")):
        out[key] = [row(instance[field], number, field) for number, instance in instances]
    predicted = []
    for number, instance in instances:
        if not isinstance(instance["classification"], str) or instance["classification"] not in labels:
            raise ValueError(f"{where} {number} classification {instance['classification']!r:.80} is not one of {labels}")
        predicted.append(labels.index(instance["classification"]))
    out["predicted"] = predicted
    with_thresholds = ["thresholded_scores" in instance for _, instance in instances]
    if any(with_thresholds):
        if not all(with_thresholds):
            raise ValueError(f"{where} {instances[with_thresholds.index(False)][0]} lacks 'thresholded_scores', which other lines have")
        for key in ("thresholded_without", "thresholded_alone"):
            out[key] = []
        for number, instance in instances:
            by_threshold = {}
            scores = instance["thresholded_scores"]
            for score in scores if isinstance(scores, list) else [scores]:
                if not isinstance(score, dict) or not _is_number(score.get("threshold")):
                    raise ValueError(f"{where} {number} thresholded_scores: {score!r:.80} is not an object with a numeric 'threshold' (a list of them)")
                if score["threshold"] in by_threshold:
                    raise ValueError(f"{where} {number} thresholded_scores give the threshold {score['threshold']} twice")
                by_threshold[score["threshold"]] = score
            missing = [k for k in aopc_thresholds if k not in by_threshold]
            if missing:
                raise ValueError(f"{where} {number} thresholded_scores lack the threshold {missing[0]} (thresholds given: {sorted(by_threshold)}; choose them with aopc_thresholds, --aopc-thresholds)")
            for key, field in (("thresholded_without", "comprehensiveness_classification_scores"), ("thresholded_alone", "sufficiency_classification_scores")):
                for k in aopc_thresholds:
                    if field not in by_threshold[k]:
                        raise ValueError(f"{where} {number} thresholded_scores[{k}] lacks {field!r}")
                out[key].append([row(by_threshold[k][field], number, f"thresholded_scores[{k}] {field}") for k in aopc_thresholds])
    out["hard_rationales"] = [_hard_rationales(instance.get("rationales", []), f"{where} {number}") for number, instance in instances]
    return out


def _hard_rationales(rationales, where):
    """{docid: [(start_token, end_token), ...]} of one line's `rationales`."""
    spans = {}
    for rationale in rationales if isinstance(rationales, list) else [rationales]:
        if not isinstance(rationale, dict) or not isinstance(rationale.get("docid"), str):
            raise ValueError(f"{where} rationales: {rationale!r:.80} is not an object with a 'docid' string (a list of them)")
        docid, predictions = rationale["docid"], rationale.get("hard_rationale_predictions") or []
        if docid in spans:  # ERASER: one entry per document
            raise ValueError(f"{where} rationales name the document {docid!r} twice")
        spans[docid] = []
        for span in predictions if isinstance(predictions, list) else [predictions]:
            start, end = (span.get("start_token"), span.get("end_token")) if isinstance(span, dict) else (None, None)
            if not all(isinstance(t, int) and not isinstance(t, bool) for t in (start, end)) or not 0 <= start <= end:
                raise ValueError(f"{where} hard_rationale_predictions of {docid!r}: {span!r:.80} is not a span {{'start_token': s, 'end_token': e}} with 0 <= s <= e")
            spans[docid].append((start, end))
        ordered = sorted(span for span in set(spans[docid]) if span[0] < span[1])  # empty spans overlap nothing
        for (start, end), (next_start, next_end) in zip(ordered, ordered[1:]):
            if next_start < end:  # ERASER refuses overlapping spans
                raise ValueError(f"{where} hard_rationale_predictions of {docid!r}: the spans [{start}, {end}) and [{next_start}, {next_end}) overlap")
    return spans


def compute_results(path_or_lines, aopc_thresholds=AOPC_THRESHOLDS, per_example=False, argument="results"):
    """compute() of ERASER's results JSONL (read_eraser_results' arguments), with its
    signature; with per_example, each row also names its "line" and "annotation_id"."""
    read = read_eraser_results(path_or_lines, aopc_thresholds, argument)
    result = compute(**_inputs(read), aopc_thresholds=aopc_thresholds, per_example=per_example, return_signature=True)
    if per_example:
        result["per_example"] = [{"line": line, "annotation_id": key, **row} for line, key, row in zip(read["lines"], read["annotation_ids"], result["per_example"])]
    return result


# ---------------------------------------------------------------------------------------
# Paired comparison of two systems' results (paperscore.compare's tests)


def _inputs(results):
    """compute()'s arguments from read_eraser_results' dict."""
    keys = ("full", "without", "alone", "predicted", "thresholded_without", "thresholded_alone")
    return {key: results.get(key) for key in keys}


def paired_statistics(results_a, results_b, aopc_thresholds=AOPC_THRESHOLDS):
    """Each system's per-example values (compute()'s per_example: every number is their
    mean, so the bootstrap resamples examples) and the reducer, the weighted mean. results:
    read_eraser_results' dicts (or paths) of two systems on the same examples: the same
    annotation_ids in the same order, else a ValueError naming the first line that differs."""
    results = [read_eraser_results(r, aopc_thresholds) if isinstance(r, str) else r for r in (results_a, results_b)]
    ids_a, ids_b = (r["annotation_ids"] for r in results)
    if len(ids_a) != len(ids_b):
        raise ValueError(f"results_b: {len(ids_b)} examples, but results_a has {len(ids_a)}")
    differ = [number for number, (a, b) in enumerate(zip(ids_a, ids_b), 1) if a != b]
    if differ:
        raise ValueError(f"results_b: line {differ[0]} is annotation_id {ids_b[differ[0] - 1]!r}, but results_a's is {ids_a[differ[0] - 1]!r}: pair the same examples in the same order")
    tables, names = [], None
    for r in results:
        per = compute(**_inputs(r), aopc_thresholds=aopc_thresholds, per_example=True)["per_example"]
        if names is not None and list(per[0]) != names:
            raise ValueError("results_a, results_b: one has thresholded_scores (AOPC) and the other not")
        names = list(per[0])
        tables += encode_rows([[example[key] for key in names] for example in per])  # coded by value: p-values do not depend on line order

    def reduce(weights, rows):
        weights = np.asarray(weights, dtype=float)
        with np.errstate(invalid="ignore"):  # an infinite KL: compare_results refuses it first
            means = (weights @ rows) / weights.sum(-1, keepdims=True)
        return {key: means[:, k] for k, key in enumerate(names)}

    return (*tables, reduce)


def compare_results(results_a, results_b, metric_key="comprehensiveness", method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, aopc_thresholds=AOPC_THRESHOLDS):
    """paperscore.compare's paired test of two systems' ERASER results (paths or
    read_eraser_results' dicts) on one of compute()'s numbers (default comprehensiveness;
    sufficiency: lower is better). An example whose value is infinite (a KL against a
    probability of 0) is a ValueError: no difference of means is defined."""
    from .paperscore_compare import paired_test

    table_a, codes_a, table_b, codes_b, reduce = paired_statistics(results_a, results_b, aopc_thresholds)
    names = list(reduce(np.ones((1, 1)), table_a[:1]))
    if metric_key in names:
        for system, table in (("results_a", table_a), ("results_b", table_b)):
            bad = np.flatnonzero(~np.isfinite(table[:, names.index(metric_key)]))
            if len(bad):
                raise ValueError(f"{system}: line {bad[0] + 1} has {metric_key} {table[bad[0], names.index(metric_key)]}: the mean is not finite")
    result = paired_test(table_a, codes_a, table_b, codes_b, reduce, metric_key, method, n_resamples, confidence_level, seed)
    thresholds = [float(k) for k in aopc_thresholds] if "comprehensiveness_aopc" in names else None
    result["signature"] = signature("compare|rationale_f1", measure="eraser_faithfulness", metric_key=metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level, seed=seed, aopc_thresholds=thresholds)
    return result


# ---------------------------------------------------------------------------------------
# The family interface (paperscore.family): its state sums each example's terms


def family(**options):
    """faithfulness's statistics (paperscore.family): its state (FaithfulnessState)."""
    for name in options:
        if name != "aopc_thresholds":
            raise ValueError(f"{name}: not a faithfulness option (options: aopc_thresholds)")
    return FaithfulnessFamily({"aopc_thresholds": check_thresholds(options.get("aopc_thresholds", AOPC_THRESHOLDS))})


class FaithfulnessFamily(Family):
    """ERASER's faithfulness: no references (each system's results hold all the numbers
    need), no bootstrap (compute has none); its numbers are means of per-example terms,
    which its state sums. paperscore.compare tests two systems' results (compare_results)."""

    name = "faithfulness"
    intervals = False
    bounded = False  # differences of probabilities, entropies, KLs
    NO_INTERVALS = "; compare two systems' results with paperscore.compare (faithfulness.compare_results)"

    @property
    def State(self):
        return FaithfulnessState

    def headline(self):
        return "comprehensiveness"


class FaithfulnessState(State):
    """faithfulness.compute's numbers (ERASER's comprehensiveness, sufficiency and their
    AOPC, entropy and KL): each is a mean of per-example terms (faithfulness.example_terms),
    so the state holds their sums and the number of examples; with thresholded scores, per
    threshold the sums of the AOPC differences. Kept to refuse what compute refuses over
    the union: the number of classes, whether the examples have thresholded scores, and
    (results lines) the classes' names. No bootstrap (compute has none): keep_rows=False."""

    def __init__(self, fam, keep_rows):
        super().__init__(fam, keep_rows)
        self.examples = 0
        self.classes = self.aopc = self.labels = None  # None: not seen yet
        self.sums = np.zeros(len(KEYS))
        self.deltas = np.zeros((2, len(self.options["aopc_thresholds"])))  # comprehensiveness, sufficiency: per threshold

    def _records(self, classes, aopc, labels, where):
        """Refuse what compute refuses over the union."""
        if None not in (self.classes, classes) and classes != self.classes:
            raise ValueError(f"{where}: {classes} classes, but earlier examples have {self.classes}")
        if None not in (self.aopc, aopc) and aopc != self.aopc:
            have = {True: "have thresholded scores", False: "have no thresholded scores"}
            raise ValueError(f"{where}: these examples {have[aopc]}, but earlier ones {have[self.aopc]} (AOPC needs them for every example or none)")
        if None not in (self.labels, labels) and labels != self.labels:
            raise ValueError(f"{where}: the classes are {labels}, but earlier lines' are {self.labels}")

    def _add_sums(self, examples, sums, deltas, classes, aopc, labels):
        self.examples += examples
        self.sums, self.deltas = self.sums + sums, self.deltas + deltas
        self.classes = self.classes if classes is None else classes
        self.aopc = self.aopc if aopc is None else aopc
        self.labels = self.labels if labels is None else labels

    def update(self, full, without, alone, predicted=None, thresholded_without=None, thresholded_alone=None, labels=None):
        """Add a batch: faithfulness.compute's arguments, checked as it checks them (indices
        in messages are within the batch), and `labels`, the classes' names where known
        (update_results gives them). A batch of no example adds nothing."""
        if hasattr(full, "__len__") and not len(full):
            for name, value in (("without", without), ("alone", alone), ("predicted", predicted), ("thresholded_without", thresholded_without), ("thresholded_alone", thresholded_alone)):
                if value is not None and len(value):
                    raise ValueError(f"{name}: {len(value)} examples, but full has none")
            return self
        per, deltas = example_terms(full, without, alone, predicted, thresholded_without, thresholded_alone, self.options["aopc_thresholds"])
        examples, classes = np.shape(np.asarray(full, dtype=float))
        self._records(classes, bool(deltas), labels, "update")
        zero = np.zeros(len(self.options["aopc_thresholds"]))
        summed = np.array([deltas[name].sum(0) if deltas else zero for name in ("comprehensiveness", "sufficiency")])
        self._add_sums(examples, np.array([per[key].sum() for key in KEYS]), summed, classes, bool(deltas), labels)
        return self

    def update_results(self, path_or_lines):
        """Add ERASER results lines (a path or the lines, as faithfulness.compute_results
        reads them): every shard's lines must name the same classes."""
        read = read_eraser_results(path_or_lines, self.options["aopc_thresholds"])
        return self.update(**_inputs(read), labels=read["labels"])

    def _add(self, other):
        self._records(other.classes, other.aopc, other.labels, "merge")
        self._add_sums(other.examples, other.sums, other.deltas, other.classes, other.aopc, other.labels)

    def compute(self, confidence_level=None, n_resamples=1000, seed=None):
        """faithfulness.compute's numbers over every example added (compute_results' but
        its signature)."""
        if confidence_level is not None:
            raise ValueError("confidence_level: faithfulness.compute has no bootstrap intervals; compare two systems' results with paperscore.compare (faithfulness.compare_results)")
        if not self.examples:
            raise ValueError("full: no examples; the means are undefined")
        result = {key: float(total / self.examples) for key, total in zip(KEYS, self.sums)}
        if self.aopc:
            result["aopc_thresholds"] = list(self.options["aopc_thresholds"])
            for name, totals in zip(("comprehensiveness", "sufficiency"), self.deltas):
                result[f"{name}_aopc"] = float(totals.sum() / (self.examples * len(totals)))
                result[f"{name}_aopc_points"] = (totals / self.examples).tolist()
        return result

    def _dump(self):
        from .paperscore_state import reals

        return {"examples": self.examples, "classes": self.classes, "aopc": self.aopc, "labels": self.labels, "sums": reals(self.sums), "deltas": reals(self.deltas)}

    def _load(self, data):
        from .paperscore_state import counts, field, unreals

        examples = int(counts([field(data, "examples")], "examples")[0])
        classes, aopc, labels = field(data, "classes"), field(data, "aopc"), field(data, "labels")
        if classes is not None and not (isinstance(classes, int) and not isinstance(classes, bool) and classes > 0):
            raise ValueError(f"classes: {classes!r} is not a number of classes")
        if not (aopc is None or isinstance(aopc, bool)):  # 1 == True
            raise ValueError(f"aopc: {aopc!r} is not true, false or null")
        if labels is not None and not (isinstance(labels, list) and all(isinstance(v, str) for v in labels)):
            raise ValueError(f"labels: {labels!r:.60} is not a list of class names")
        if (examples > 0) != (classes is not None) or (examples > 0) != (aopc is not None):
            raise ValueError(f"examples: {examples}, but classes is {classes!r} and aopc {aopc!r}")
        self._records(classes, aopc, labels, "from_dict")
        self._add_sums(examples, unreals(field(data, "sums"), "sums", self.sums.shape), unreals(field(data, "deltas"), "deltas", self.deltas.shape), classes, aopc, labels)


# ---------------------------------------------------------------------------------------
# Command line: paperscore faithfulness RESULTS.jsonl, and
# paperscore compare faithfulness --system-a A.jsonl --system-b B.jsonl (no references:
# each system's results hold all the numbers need)

COMMAND = "faithfulness"
SPACE = "faithfulness"  # its name in `paperscore compare` (the numbers belong to the rationale_f1 Space)
HELP = "ERASER's comprehensiveness, sufficiency and their AOPC from its results JSONL (DeYoung et al. 2020)"
COMMON_OPTIONS = False  # nothing divides by zero, no bootstrap: its own output options below
REFERENCES = False  # compare: two systems' results files, no --references, no --zero-division


def headline(**options):
    return family(**options).headline()


def parse_thresholds(text):
    """AOPC thresholds written as text ("0.01, 0.05, 0.1"): distinct increasing fractions
    in (0, 1], else a ValueError."""
    try:
        thresholds = tuple(float(item) for item in text.split(","))
    except ValueError:
        thresholds = ()
    if not thresholds or sorted(set(thresholds)) != list(thresholds) or not all(0 < k <= 1 for k in thresholds):
        raise ValueError(f"aopc_thresholds: {text!r:.80} is not a comma-separated list of distinct increasing fractions in (0, 1]")
    return thresholds


def _threshold_argument(text):
    import argparse

    try:
        return parse_thresholds(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_options(parser):
    """The options shared by this command and `paperscore compare faithfulness`."""
    parser.add_argument("--aopc-thresholds", type=_threshold_argument, default=AOPC_THRESHOLDS, help="the k of AOPC, fractions of the tokens, comma-separated; each line's thresholded_scores must hold them (default 0.01,0.05,0.1,0.2,0.5, ERASER's)")


def options(args):
    return {"aopc_thresholds": args.aopc_thresholds}


def add_arguments(parser):
    from .paperscore_cli import add_output_arguments

    parser.add_argument("results", metavar="RESULTS", help="ERASER's results JSONL, one instance a line (its classification, classification_scores, comprehensiveness_ and sufficiency_classification_scores, optionally thresholded_scores), - for standard input")
    add_options(parser)
    parser.add_argument("--per-example", action="store_true", help="add each line's numbers (blank lines skipped)")
    add_output_arguments(parser)
    parser.add_argument("--metric-key", help="the number -b prints (default comprehensiveness)")


def run(args):
    return compute_results(args.results, args.aopc_thresholds, args.per_example, "RESULTS")


def read_compare(args):
    """The inputs of `paperscore compare faithfulness`: two results files."""
    files = (("system_a", "--system-a"), ("system_b", "--system-b"))
    return {"references": None, **{name: read_eraser_results(getattr(args, name), args.aopc_thresholds, flag) for name, flag in files}}


def table(result):
    """The numbers, AOPC at each threshold as a table, the per-example rows, the signature."""
    from .paperscore_cli import table as plain

    thresholds = result.get("aopc_thresholds")
    rest = {key: value for key, value in result.items() if key not in ("aopc_thresholds", "comprehensiveness_aopc_points", "sufficiency_aopc_points", "per_example", "signature")}
    if thresholds:
        rest["aopc_points"] = {f"k={k:g}": {name: result[f"{name}_aopc_points"][i] for name in ("comprehensiveness", "sufficiency")} for i, k in enumerate(thresholds)}
    if "per_example" in result:
        rest["per_example (by line)"] = {row["line"]: {key: value for key, value in row.items() if key != "line"} for row in result["per_example"]}
    return plain({**rest, "signature": result["signature"]})
