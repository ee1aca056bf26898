"""rationale_f1's numbers the straightforward way, one example at a time in plain Python,
written from the definitions: DMR's corpus sums, A2R's and ERASER's per-example means,
ERASER's partial match over sets of token positions (its `partial_match_score`), and
sklearn's precision_recall_curve + auc per example for AUPRC (its `_auprc`). The
benchmark's baseline, and the tests' second opinion on the span-level numbers.

Zero division as ERASER and the package's default: an undefined ratio is 0.
"""

import warnings

from sklearn.metrics import auc, precision_recall_curve


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


def ratio(a, b):
    return a / b if b else 0.0


def f1(p, r):
    return 2 * p * r / (p + r) if p and r else 0.0


def numbers(examples, threshold=0.5, threshold_rule=">=", iou_threshold=0.5, with_auprc=False):
    tp = predicted = gold = tokens = 0
    instances, iou_p, iou_r, areas = [], [], [], []
    for scores, truth in examples:
        chosen = [s >= threshold if threshold_rule == ">=" else s > threshold for s in scores]
        truth_set = {i for i, g in enumerate(truth) if g}
        chosen_set = {i for i, c in enumerate(chosen) if c}
        both = len(truth_set & chosen_set)
        tp, predicted, gold, tokens = tp + both, predicted + len(chosen_set), gold + len(truth_set), tokens + len(scores)
        if truth_set or chosen_set:  # ERASER's instances: annotated or predicted
            p, r = ratio(both, len(chosen_set)), ratio(both, len(truth_set))
            instances.append((p, r, f1(p, r)))
        gold_runs = [set(range(*span)) for span in runs(truth)]
        hits = 0
        for span in runs(chosen):
            tokens_of = set(range(*span))
            best = max((len(tokens_of & g) / len(tokens_of | g) for g in gold_runs), default=0.0)
            hits += best >= iou_threshold
        if chosen_set:
            iou_p.append(hits / len(runs(chosen)))
        if truth_set:
            iou_r.append(hits / len(gold_runs))
        if with_auprc and scores:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # no gold token: sklearn warns, recall is 1
                precision, recall, _ = precision_recall_curve([int(g) for g in truth], scores)
            areas.append(auc(recall, precision))
    negatives = tokens - predicted - gold + tp
    p, r = ratio(tp, predicted), ratio(tp, gold)
    f1_positive = ratio(2 * tp, predicted + gold)
    f1_negative = ratio(2 * negatives, 2 * tokens - predicted - gold)
    mean = lambda values: sum(values) / len(values) if values else 0.0  # noqa: E731
    out = {
        "precision": p,
        "recall": r,
        "f1": f1_positive,
        "sparsity": ratio(predicted, tokens),
        "micro_f1": ratio(tp + negatives, tokens),
        "macro_f1": (f1_negative + f1_positive) / 2,
        "example_precision": mean([x[0] for x in instances]),
        "example_recall": mean([x[1] for x in instances]),
        "example_f1": mean([x[2] for x in instances]),
        "iou_precision": mean(iou_p),
        "iou_recall": mean(iou_r),
        "iou_f1": f1(mean(iou_p), mean(iou_r)),
    }
    if with_auprc:
        out["auprc"] = mean(areas)
    return out
