"""rationale_f1's numbers the straightforward way, one example at a time in plain Python,
written from the definitions: DMR's corpus sums, A2R's and ERASER's per-example means,
ERASER's partial match over sets of token positions (its `partial_match_score`), and
AUPRC per example from the definition of sklearn's precision_recall_curve + auc (ERASER's
`_auprc`; sklearn_auprc calls them). The benchmark's baseline, and the tests' second
opinion on every number and every example's statistics.

Zero division: an undefined ratio takes `zero_division` (0 as ERASER, 1, or NaN, which
leaves the example out of a mean as sklearn's zero_division=np.nan does).
"""

import math
import warnings

from sklearn.metrics import auc, precision_recall_curve

NAN = float("nan")


def unpad(predictions, references, ignore_index=-100):
    """[(scores, gold)] per example, positions whose reference is ignore_index removed."""
    examples = []
    for prediction, reference in zip(predictions, references):
        kept = [i for i, r in enumerate(reference) if r != ignore_index]
        scores = [float(prediction[i]) for i in kept] if len(prediction) == len(reference) else [float(s) for s in prediction]
        examples.append((scores, [reference[i] == 1 for i in kept]))
    return examples


def runs(flags):
    """Maximal runs of True as [start, end) pairs."""
    found, start = [], None
    for i, flag in enumerate(list(flags) + [False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            found.append((start, i))
            start = None
    return found


def ratio(a, b, zero_division=0.0):
    return a / b if b else zero_division


def example_row(scores, truth, threshold=0.5, threshold_rule=">=", iou_threshold=0.5, zero_division=0.0, with_auprc=False):
    """One example's statistics, named as rationale.COLUMNS and the span counts; NaN where
    the example is not part of a mean (no gold or selected token: the token means; no
    predicted span: IOU precision; no gold span: IOU recall; no token: AUPRC)."""
    chosen = [s >= threshold if threshold_rule == ">=" else s > threshold for s in scores]
    truth_set = {i for i, g in enumerate(truth) if g}
    chosen_set = {i for i, c in enumerate(chosen) if c}
    both = len(truth_set & chosen_set)
    row = {"tp": both, "predicted": len(chosen_set), "gold": len(truth_set), "tokens": len(scores)}
    if truth_set or chosen_set:  # ERASER's instances: annotated or predicted
        row["precision"] = ratio(both, len(chosen_set), zero_division)
        row["recall"] = ratio(both, len(truth_set), zero_division)
        row["f1"] = 2 * both / (len(chosen_set) + len(truth_set))
    else:
        row["precision"] = row["recall"] = row["f1"] = NAN
    gold_runs = [set(range(*span)) for span in runs(truth)]
    chosen_runs = runs(chosen)
    hits = 0
    for span in chosen_runs:
        tokens_of = set(range(*span))
        best = max((len(tokens_of & g) / len(tokens_of | g) for g in gold_runs), default=0.0)
        hits += best >= iou_threshold
    row["iou_precision"] = hits / len(chosen_runs) if chosen_runs else NAN
    row["iou_recall"] = hits / len(gold_runs) if gold_runs else NAN
    row["auprc"] = area_under_pr(scores, truth) if with_auprc and scores else NAN
    row.update(predicted_spans=len(chosen_runs), gold_spans=len(gold_runs), matched_spans=hits)
    return row


def area_under_pr(scores, truth):
    """ERASER's AUPRC of one example, from the definition: a point (recall, precision) at
    each distinct score, highest first, after the point (0, 1); trapezoids between them.
    Without gold tokens recall is 1 at every point (sklearn's convention)."""
    positives = sum(truth)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    points, tp = [(0.0, 1.0)], 0
    for k, i in enumerate(order):
        tp += truth[i]
        if k + 1 == len(order) or scores[order[k + 1]] != scores[i]:  # the last of its score
            points.append((tp / positives if positives else 1.0, tp / (k + 1)))
    return sum((r1 - r0) * (p1 + p0) / 2 for (r0, p0), (r1, p1) in zip(points, points[1:]))


def sklearn_auprc(scores, truth):
    """The same as ERASER computes it: sklearn's precision_recall_curve, then auc."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no gold token: sklearn warns, recall is 1
        precision, recall, _ = precision_recall_curve([int(g) for g in truth], scores)
    return auc(recall, precision)


def corpus(rows, zero_division=0.0, with_auprc=False):
    """The corpus numbers from the examples' rows: counts summed, then ratios; means of the
    per-example values that are not NaN."""
    tp, predicted, gold, tokens = (sum(row[key] for row in rows) for key in ("tp", "predicted", "gold", "tokens"))
    negatives = tokens - predicted - gold + tp

    def mean(values):
        values = [v for v in values if not math.isnan(v)]
        return sum(values) / len(values) if values else zero_division

    def means(key):
        return mean([row[key] for row in rows])

    f1_positive = ratio(2 * tp, predicted + gold, zero_division)
    f1_negative = ratio(2 * negatives, 2 * tokens - predicted - gold, zero_division)
    iou_p, iou_r = means("iou_precision"), means("iou_recall")
    out = {
        "precision": ratio(tp, predicted, zero_division),
        "recall": ratio(tp, gold, zero_division),
        "f1": f1_positive,
        "sparsity": ratio(predicted, tokens, zero_division),
        "micro_f1": ratio(tp + negatives, tokens, zero_division),
        "macro_f1": mean([f1_negative, f1_positive]),
        "example_precision": means("precision"),
        "example_recall": means("recall"),
        "example_f1": means("f1"),
        "iou_precision": iou_p,
        "iou_recall": iou_r,
        "iou_f1": NAN if math.isnan(iou_p) or math.isnan(iou_r) else ratio(2 * iou_p * iou_r, iou_p + iou_r),
    }
    if with_auprc:
        out["auprc"] = means("auprc")
    return out


def numbers(examples, threshold=0.5, threshold_rule=">=", iou_threshold=0.5, with_auprc=False, zero_division=0.0):
    """Every corpus number of the (scores, gold) examples."""
    rows = [example_row(scores, truth, threshold, threshold_rule, iou_threshold, zero_division, with_auprc) for scores, truth in examples]
    return corpus(rows, zero_division, with_auprc)
