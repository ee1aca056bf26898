"""micro_macro's numbers the straightforward way, one label pair at a time in plain Python,
written from the definitions (sklearn's precision_recall_fscore_support with `labels`,
MAVEN's NA left out, JMEE's gold-event-only scoring): the tests' second opinion on the
package's coded, counted path.

Only valid input: the refusals are the package's own tests' business.
"""

import math

NA = {"maven": {int: 0, str: "None"}, "jmee": {int: 0, str: "O"}}


def _same_kind(label, ignore_index):
    return ignore_index is not None and isinstance(label, str) == isinstance(ignore_index, str)


def pairs(predictions, references, ignore_index=-100):
    """[(example, reference, prediction)] of the scored positions: a sequence per example
    or one label per example; a reference equal to ignore_index (of the labels' kind) is
    not scored."""
    kept = []
    for example, (prediction, reference) in enumerate(zip(predictions, references)):
        nested = isinstance(reference, (list, tuple))
        for r, p in zip(reference, prediction) if nested else [(reference, prediction)]:
            if _same_kind(r, ignore_index) and r == ignore_index:
                continue
            kept.append((example, r, p))
    return kept


def ratio(a, b, zero_division):
    return a / b if b else zero_division


def mean(values, weights, zero_division):
    """The mean of the values that are not NaN, weighted (all-zero weights: plain)."""
    kept = [(v, w) for v, w in zip(values, weights) if not math.isnan(v)]
    if not kept:
        return zero_division
    total = sum(w for _, w in kept)
    if total == 0:
        return sum(v for v, _ in kept) / len(kept)
    return sum(v * w for v, w in kept) / total


def setup(kept, labels, negative_labels, convention):
    """(classes in order, the scored ones, the negatives, the counted pairs)."""
    observed = sorted({r for _, r, _ in kept} | {p for _, _, p in kept})
    kind = type(observed[0]) if observed else int
    negatives = list(negative_labels) if negative_labels is not None else ([NA[convention][kind]] if convention else [])
    classes = list(labels) + [c for c in observed if c not in labels] if labels is not None else observed
    listed = labels if labels is not None else observed
    scored = [c for c in listed if convention == "jmee" or c not in negatives]
    counted = [x for x in kept if not (convention == "jmee" and x[1] in negatives)]
    return classes, scored, negatives, counted


def example_rows(kept, scored, n_examples, negatives, convention):
    """Each example alone, its non-zero statistics {column: count}: per scored class tp,
    predicted and gold (columns class, width + class, 2 width + class), then correct and
    total (the last two columns)."""
    place = {c: i for i, c in enumerate(scored)}
    width = len(scored)
    rows = [{} for _ in range(n_examples)]
    for example, r, p in kept:
        if convention == "jmee" and r in negatives:
            continue
        row = rows[example]
        columns = [3 * width + 1] + ([3 * width] if r == p else [])
        if r == p and r in place:
            columns.append(place[r])
        if p in place:
            columns.append(width + place[p])
        if r in place:
            columns.append(2 * width + place[r])
        for column in columns:
            row[column] = row.get(column, 0) + 1
    return rows


def scores(predictions, references, labels=None, negative_labels=None, convention=None, zero_division=0.0, ignore_index=-100, with_matrix=True):
    """Every number compute() returns, per_class, the confusion matrix (with_matrix), the
    scored pairs and each example's statistics alone (example_rows)."""
    zd = math.nan if zero_division == "nan" else float(zero_division)
    kept = pairs(predictions, references, ignore_index)
    classes, scored, negatives, counted = setup(kept, labels, negative_labels, convention)
    tp, predicted, gold = ({c: 0 for c in classes} for _ in range(3))
    matrix = {}
    correct = 0
    for _, r, p in counted:
        matrix[r, p] = matrix.get((r, p), 0) + 1
        predicted[p] += 1
        gold[r] += 1
        if r == p:
            tp[r] += 1
            correct += 1
    out = {"accuracy": ratio(correct, len(counted), zd)}
    s_tp, s_pred, s_gold = (sum(d[c] for c in scored) for d in (tp, predicted, gold))
    micro = (ratio(s_tp, s_pred, zd), ratio(s_tp, s_gold, zd), ratio(2 * s_tp, s_pred + s_gold, zd))
    per_class = {
        c: (ratio(tp[c], predicted[c], zd), ratio(tp[c], gold[c], zd), ratio(2 * tp[c], predicted[c] + gold[c], zd))
        for c in scored
    }
    for k, name in enumerate(("precision", "recall", "f1")):
        out[f"micro_{name}"] = micro[k]
        values = [per_class[c][k] for c in scored]
        out[f"macro_{name}"] = mean(values, [1] * len(values), zd)
        out[f"weighted_{name}"] = mean(values, [gold[c] for c in scored], zd)
    out["per_class"] = {
        c: {"precision": v[0], "recall": v[1], "f1": v[2], "support": gold[c]} for c, v in per_class.items()
    }
    out["labels"] = classes
    if with_matrix:
        out["confusion_matrix"] = [[matrix.get((a, b), 0) for b in classes] for a in classes]
    if convention == "jmee":
        out.update(precision=out["macro_precision"], recall=out["macro_recall"], f1=out["micro_f1"])
    out["pairs"] = kept
    out["rows"] = example_rows(kept, scored, len(references), negatives, convention)
    return out
