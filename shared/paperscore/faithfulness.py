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

from .core import input_error, read_lines, signature

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
    result = {key: float(values.mean()) for key, values in per.items()}
    if (thresholded_without is None) != (thresholded_alone is None):
        raise ValueError(f"{'thresholded_alone' if thresholded_alone is None else 'thresholded_without'}: AOPC needs both thresholded_without and thresholded_alone")
    thresholds = [float(k) for k in aopc_thresholds]
    if thresholded_without is not None:
        if not thresholds or sorted(set(thresholds)) != thresholds or not all(0 < k <= 1 for k in thresholds):
            raise ValueError(f"aopc_thresholds: {aopc_thresholds!r} are not distinct increasing fractions in (0, 1]")
        shape = (examples, len(thresholds), classes)
        for name, values in (("comprehensiveness", thresholded_without), ("sufficiency", thresholded_alone)):
            array = _probabilities(values, f"thresholded_{'without' if name == 'comprehensiveness' else 'alone'}", shape)
            deltas = top[:, None] - array[rows, :, predicted]
            result[f"{name}_aopc"] = float(deltas.mean())
            result[f"{name}_aopc_points"] = deltas.mean(0).tolist()
            per[f"{name}_aopc"] = deltas.mean(1)
    if per_example:
        result["per_example"] = [{key: float(values[i]) for key, values in per.items()} for i in range(examples)]
    if return_signature:
        result["signature"] = signature("rationale_f1", measure="eraser_faithfulness", aopc_thresholds=thresholds if thresholded_without is not None else None)
    return result


# ---------------------------------------------------------------------------------------
# ERASER's results JSONL


def read_eraser_results(path_or_lines, aopc_thresholds=AOPC_THRESHOLDS):
    """ERASER's results JSONL (a path, or its lines) as compute()'s arguments and the hard
    rationales: {"labels": the classes in sorted order, "full", "without", "alone",
    "predicted" (the index of each line's "classification"), "thresholded_without",
    "thresholded_alone" (at `aopc_thresholds`, when the lines have "thresholded_scores"),
    "annotation_ids", "hard_rationales": per line {docid: [(start_token, end_token), ...]}
    in the file's order}. A line lacking a field that another line has, a class missing
    from a line's scores or a threshold missing from its thresholded_scores is a
    ValueError naming the line (ERASER requires every optional field on every line or
    none)."""
    lines = read_lines(path_or_lines, "results", allow_empty=True) if isinstance(path_or_lines, str) else list(path_or_lines)
    instances = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                instances.append((number, json.loads(line)))
            except (ValueError, RecursionError):
                raise ValueError(f"results: line {number} is not JSON") from None
    if not instances:
        raise ValueError("results: no lines")
    fields = ("classification", "classification_scores", "comprehensiveness_classification_scores", "sufficiency_classification_scores")
    for number, instance in instances:
        missing = [field for field in fields if field not in instance]
        if missing:
            raise ValueError(f"results: line {number} lacks {missing[0]!r}")
    labels = sorted(instances[0][1]["classification_scores"])

    def row(scores, number, field):
        if not isinstance(scores, dict) or sorted(scores) != labels:
            raise ValueError(f"results: line {number} {field} has the classes {sorted(scores) if isinstance(scores, dict) else scores!r:.80}, not {labels}")
        return [scores[label] for label in labels]

    out = {"labels": labels, "annotation_ids": [instance.get("annotation_id") for _, instance in instances]}
    for key, field in (("full", "classification_scores"), ("without", "comprehensiveness_classification_scores"), ("alone", "sufficiency_classification_scores")):
        out[key] = [row(instance[field], number, field) for number, instance in instances]
    predicted = []
    for number, instance in instances:
        if instance["classification"] not in labels:
            raise ValueError(f"results: line {number} classification {instance['classification']!r} is not one of {labels}")
        predicted.append(labels.index(instance["classification"]))
    out["predicted"] = predicted
    with_thresholds = ["thresholded_scores" in instance for _, instance in instances]
    if any(with_thresholds):
        if not all(with_thresholds):
            raise ValueError(f"results: line {instances[with_thresholds.index(False)][0]} lacks 'thresholded_scores', which other lines have")
        for key, field in (("thresholded_without", "comprehensiveness_classification_scores"), ("thresholded_alone", "sufficiency_classification_scores")):
            out[key] = []
            for number, instance in instances:
                by_threshold = {score["threshold"]: score for score in instance["thresholded_scores"]}
                missing = [k for k in aopc_thresholds if k not in by_threshold]
                if missing:
                    raise ValueError(f"results: line {number} thresholded_scores lack the threshold {missing[0]}")
                out[key].append([row(by_threshold[k][field], number, f"thresholded_scores[{k}] {field}") for k in aopc_thresholds])
    out["hard_rationales"] = [
        {rationale["docid"]: [(span["start_token"], span["end_token"]) for span in rationale.get("hard_rationale_predictions") or []] for rationale in instance.get("rationales", [])}
        for _, instance in instances
    ]
    return out


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
        tables += [np.array([[example[key] for key in names] for example in per]), np.arange(len(per))]

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
    from .compare import paired_test

    table_a, codes_a, table_b, codes_b, reduce = paired_statistics(results_a, results_b, aopc_thresholds)
    names = list(reduce(np.ones((1, 1)), table_a[:1]))
    if metric_key in names:
        for system, table in (("results_a", table_a), ("results_b", table_b)):
            bad = np.flatnonzero(~np.isfinite(table[:, names.index(metric_key)]))
            if len(bad):
                raise ValueError(f"{system}: line {bad[0] + 1} has {metric_key} {table[bad[0], names.index(metric_key)]}: the mean is not finite")
    result = paired_test(table_a, codes_a, table_b, codes_b, reduce, metric_key, method, n_resamples, confidence_level, seed)
    result["signature"] = signature("compare|rationale_f1", measure="eraser_faithfulness", metric_key=metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level, seed=seed)
    return result
