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
    # ERASER's micro partial match: span counts summed over the corpus
    matched, spans_p, spans_g = (sum(row[key] for row in rows) for key in ("matched_spans", "predicted_spans", "gold_spans"))
    micro_p, micro_r = ratio(matched, spans_p, zero_division), ratio(matched, spans_g, zero_division)
    out.update(iou_micro_precision=micro_p, iou_micro_recall=micro_r, iou_micro_f1=NAN if math.isnan(micro_p) or math.isnan(micro_r) else ratio(2 * micro_p * micro_r, micro_p + micro_r))
    if with_auprc:
        out["auprc"] = means("auprc")
    return out


def numbers(examples, threshold=0.5, threshold_rule=">=", iou_threshold=0.5, with_auprc=False, zero_division=0.0):
    """Every corpus number of the (scores, gold) examples."""
    rows = [example_row(scores, truth, threshold, threshold_rule, iou_threshold, zero_division, with_auprc) for scores, truth in examples]
    return corpus(rows, zero_division, with_auprc)


# ---------------------------------------------------------------------------------------
# Quotes placed on tokens (paperscore.parse's rationale policies), by brute force over
# every run of tokens: written from the card's definitions, not from the package's search.


def plain_normalized(text):
    """NFKC, case folded, every punctuation (category P*) and white-space character dropped."""
    import unicodedata

    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c)[0] != "P")


def levenshtein(a, b):
    """Edit distance, the full table."""
    table = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return table[len(a)][len(b)]


def place_quote(quote, tokens, policy):
    """(start, end) of the tokens the quote selects under `policy`, or None."""
    from fractions import Fraction

    n = len(tokens)
    if policy == "quotes_exact":
        words = quote.split()
        runs = [(i, i + len(words)) for i in range(n) if words and tokens[i : i + len(words)] == words]
        return runs[0] if runs else None
    norm = [plain_normalized(t) for t in tokens]
    wanted = plain_normalized(quote)
    if not wanted:
        return None
    # runs from a token with text to a token with text, leftmost start first, then shorter
    for i in range(n):  # leftmost start first; one joined length per start
        text = ""
        for j in range(i, n):
            text += norm[j]
            if norm[i] and norm[j] and text == wanted:
                return i, j + 1
            if len(text) > len(wanted):
                break
    if policy == "quotes_normalized":
        return None
    runs = [(i, j + 1) for i in range(n) if norm[i] for j in range(i, n) if norm[j]]
    best, found = None, None
    for i, j in runs:
        text = "".join(norm[i:j])
        similarity = 1 - Fraction(levenshtein(wanted, text), max(len(wanted), len(text)))
        if similarity >= Fraction(4, 5) and (best is None or similarity > best):
            best, found = similarity, (i, j)
    return found


def plain_quotes(reply):
    """The quotes of a reply as the card defines them: (quotes, items that are not quotes)."""
    import json

    body = reply
    if "```" in reply:  # the first fenced block: after its opening line's info string
        inside = reply[reply.index("```") + 3 :]
        k = 0
        while k < len(inside) and (inside[k].isalnum() or inside[k] in "_+-"):
            k += 1
        inside = inside[k + 1 :] if inside[k : k + 1] == "\n" else inside[k:]
        body = inside[: inside.index("```")] if "```" in inside else inside
    body = body.strip()
    if not body:
        return [], 0
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, str):
        return [value], 0
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)], sum(not isinstance(v, str) for v in value)
    if body in ("null", "true", "false") or isinstance(value, (dict, int, float)):
        return [], 1
    quoted, k = [], 0
    closing = {'"': '"', "“": "”", "「": "」", "『": "』"}
    while k < len(body):  # left to right, each quoted text taken whole
        mark = body[k]
        end = body.find(closing[mark], k + 1) if mark in closing else -1
        if end >= 0 and not (mark == '"' and "\n" in body[k + 1 : end]):
            quoted.append(body[k + 1 : end])
            k = end + 1
        else:
            k += 1
    if quoted:
        return quoted, 0
    quotes = []
    for line in body.splitlines():
        line = line.strip()
        if not line:
            continue
        digits = len(line) - len(line.lstrip("0123456789"))
        if line[0] in "-*•" and line[1:2].isspace():
            line = line[1:].lstrip()
        elif digits and line[digits : digits + 1] in (".", ")") and line[digits + 1 : digits + 2].isspace():
            line = line[digits + 1 :].lstrip()
        quotes.append(line)
    return quotes, 0


def place_reply(reply, tokens, policy):
    """(0/1 per token, quotes and items, quotes and items placed nowhere)."""
    quotes, others = plain_quotes(reply)
    mask = [0] * len(tokens)
    missed = others
    for quote in quotes:
        span = place_quote(quote, tokens, policy)
        if span is None:
            missed += 1
        else:
            for k in range(*span):
                mask[k] = 1
    return mask, len(quotes) + others, missed


# ---------------------------------------------------------------------------------------
# ERASER's faithfulness numbers, one example at a time, from the definitions in its paper
# and scipy's entropy (scaled to sum 1, natural logarithm, 0 log 0 = 0).


def plain_entropy(p, q=None):
    total_p = sum(p)
    p = [x / total_p for x in p]
    if q is None:
        return -sum(x * math.log(x) for x in p if x > 0)
    total_q = sum(q)
    q = [x / total_q for x in q]
    return sum(x * math.log(x / y) if y > 0 else math.inf for x, y in zip(p, q) if x > 0)


def plain_faithfulness(full, without, alone, predicted, thresholded_without, thresholded_alone):
    """{"examples": per example its differences, "corpus": their means (the AOPC: the mean
    over examples and thresholds; its points: the mean at each threshold)}."""
    examples = []
    for f, w, a, y, tw, ta in zip(full, without, alone, predicted, thresholded_without, thresholded_alone):
        examples.append({
            "comprehensiveness": f[y] - w[y],
            "sufficiency": f[y] - a[y],
            "comprehensiveness_entropy": plain_entropy(f) - plain_entropy(w),
            "comprehensiveness_kl": plain_entropy(w, f),
            "sufficiency_entropy": plain_entropy(f) - plain_entropy(a),
            "sufficiency_kl": plain_entropy(a, f),
            "comprehensiveness_aopc": sum(f[y] - row[y] for row in tw) / len(tw),
            "sufficiency_aopc": sum(f[y] - row[y] for row in ta) / len(ta),
        })  # fmt: skip
    corpus = {key: sum(e[key] for e in examples) / len(examples) for key in examples[0]}
    for name, rows in (("comprehensiveness", thresholded_without), ("sufficiency", thresholded_alone)):
        corpus[f"{name}_aopc_points"] = [sum(f[y] - row[k][y] for f, y, row in zip(full, predicted, rows)) / len(rows) for k in range(len(rows[0]))]
    return {"examples": examples, "corpus": corpus}
