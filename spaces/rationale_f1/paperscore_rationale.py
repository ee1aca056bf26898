# GENERATED from shared/paperscore/rationale.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Rationale token metrics as rationalization papers compute them: the rationale class's
precision, recall and F1 summed over the corpus (DMR, FR, MGR, DAR), the true micro and
macro F1 over both classes, per-example means (A2R; ERASER's instance macro), ERASER's
span-level IOU F1 and its per-example AUPRC of soft scores.

Input: one sequence of 0/1 selections or soft scores in [0, 1] per example, against
reference sequences of 0/1 where `ignore_index` (-100) marks padding, as a transformers
Trainer passes them (lists of lists or 2-D arrays).

Statistics: one row per example (token counts tp / predicted / gold / scored; the example's
precision, recall, F1, span-level IOU precision and recall and AUPRC, NaN where the example
does not enter that mean). Corpus numbers are ratios of summed counts, the others weighted
means of the rows, so shards merge by adding rows and the bootstrap resamples them.
"""

import itertools

import numpy as np

from .paperscore_core import (
    as_corpus,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    divide,
    encode_rows,
    harmonic_mean,
    INT64,
    input_error,
    parse_value,
    position,
    prf,
    read_lines,
    read_values,
    signature,
    with_references,
)
from .paperscore_family import Batch, Family, evaluate, paired_table, scoring_options
from .paperscore_parse import PARSERS, check_parser_options, get_parser, parse_rationales, parser_id

THRESHOLD_RULES = (">=", ">")
RATIONALE_PARSERS = sorted(parser.name for parser in PARSERS.values() if parser.family == "rationale_f1")
PARSE_KEYS = ("parse_failures", "parse_failure_examples", "quotes", "unmatched_quotes")
SPACE = "rationale_f1"
EXTRA_INPUTS = ("sources",)  # compared inputs beside the systems, kept out of signatures
KEYS = (
    "precision", "recall", "f1", "sparsity",
    "micro_f1", "macro_f1",
    "example_precision", "example_recall", "example_f1",
    "iou_precision", "iou_recall", "iou_f1",
    "iou_micro_precision", "iou_micro_recall", "iou_micro_f1",
)  # fmt: skip
# What users of evaluate's f1 and of sklearn pass out of habit, and what to do instead: the
# Space's error (its `habits`) and the command's say so.
HABITS = {
    "average": (
        "every average is returned at once: precision / recall / f1 are the rationale class's over the corpus "
        "(what DMR, FR, MGR and DAR print as micro), micro_f1 the true micro F1 over both classes (token accuracy), "
        "macro_f1 the mean of the two classes' F1s, example_precision / example_recall / example_f1 the per-example means (A2R, ERASER)"
    ),
    "pos_label": "the positive class is the rationale (1): precision, recall and f1 are its numbers; micro_f1 and macro_f1 cover both classes",
}
# Columns of the per-example statistics: four token counts, six means' terms (NaN: the
# example is not part of that mean), three span counts.
COLUMNS = ("tp", "predicted", "gold", "tokens", "precision", "recall", "f1", "iou_precision", "iou_recall", "auprc", "predicted_spans", "gold_spans", "matched_spans")


# ---------------------------------------------------------------------------------------
# Inputs


def _numbers(values, argument):
    """One side as (flat numeric array, tokens per example). Accepts a 2-D array or a
    sequence of 1-D sequences, ragged or not; anything else is an error naming where."""
    if isinstance(values, np.ndarray) and values.dtype != object:
        if values.ndim != 2 and values.size:
            hint = "; pass the rationale class's scores, e.g. probabilities[..., 1]" if values.ndim == 3 else ""
            raise input_error(argument, None, f"expected one sequence of tokens per example (2 dimensions), got an array of shape {values.shape}{hint}")
        flat, lengths = values.reshape(-1), np.full(len(values), values.shape[-1] if values.ndim == 2 else 0)
    else:
        for index, example in enumerate(values):
            if not isinstance(example, (list, tuple, np.ndarray)):
                raise input_error(argument, index, f"expected a sequence of numbers, got {type(example).__name__} {example!r:.60}")
        lengths = np.fromiter(map(len, values), np.int64, len(values))
        try:
            if len(lengths) and (lengths == lengths[0]).all():
                array = np.asarray(values)  # one 2-D conversion
                flat = array.reshape(-1) if array.ndim == 2 else None  # deeper: not tokens
            elif all(isinstance(example, np.ndarray) for example in values):
                flat = np.concatenate(values) if len(values) else np.zeros(0)
            else:
                flat = np.asarray(list(itertools.chain.from_iterable(values)))
        except ValueError:  # nested deeper than tokens
            flat = None
    if flat is None or flat.ndim != 1 or len(flat) != lengths.sum() or (flat.dtype.kind not in "biuf" and flat.size):
        raise _first_non_number(values, argument)
    return flat, lengths


def _first_non_number(values, argument):
    for index, example in enumerate(values):
        for position, value in enumerate(example):
            if not isinstance(value, (int, float, np.integer, np.floating, np.bool_)):
                return input_error(argument, f"{index}][{position}", f"expected a number, got {type(value).__name__} {value!r:.60}")
            if isinstance(value, int) and not INT64[0] <= value <= INT64[1]:  # numpy holds it as an object
                return input_error(argument, f"{index}][{position}", f"{value} is outside the 64-bit integer range")
    return input_error(argument, None, "expected one sequence of numbers per example")


def _check_number(argument, value, low, high, why=""):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not low <= value <= high:
        raise ValueError(f"{argument}: {value!r} is not a number in [{low:g}, {high:g}]{why}")


def _corpora(predictions, references):
    """Both corpora as compute() reads them: torch tensors (a bool mask too) and lists of
    them as numpy (core.as_corpus); a bare string, None, a set or a generator refused."""
    return as_corpus(predictions, "predictions"), as_corpus(references, "references")


def check_inputs(predictions, references):
    """What evaluate's features would silently coerce: one sequence of numbers per example
    on both sides, as many predictions as references, and whole-number references (the
    int feature truncates 0.5 to 0; the float feature reads the string "0.5" as 0.5). The
    metric script runs this on every batch before evaluate encodes it; compute() then
    checks the values. Returns the corpora as numpy where they were tensors, and the
    predictions as float64 (a 2-D array when every example is as long)."""
    predictions, references = _corpora(predictions, references)
    check_same_length(predictions, references)
    pred, pred_lengths = _numbers(predictions, "predictions")
    ref, lengths = _numbers(references, "references")
    if ref.dtype.kind == "f":
        fractional = np.flatnonzero(ref != np.round(ref))
        if len(fractional):
            raise input_error("references", position(fractional[0], lengths), f"{ref[fractional[0]].item()!r} is not 0, 1 or an ignore_index")
    if not isinstance(predictions, np.ndarray):
        # as compute() reads them: evaluate's float feature refuses a bool among floats
        floats = pred.astype(np.float64)
        if len(pred_lengths) and (pred_lengths == pred_lengths[0]).all():
            predictions = floats.reshape(len(pred_lengths), pred_lengths[0])  # one tolist() for evaluate
        else:
            predictions = np.split(floats, np.cumsum(pred_lengths)[:-1]) if len(pred_lengths) else []
    return predictions, references


def scored_tokens(predictions, references, ignore_index=-100, widths=False):
    """The scored tokens: (scores, gold, tokens per example), flat, in example order; with
    widths=True also each reference's length as given, padding included.

    Reference positions equal to ignore_index are not scored. A prediction as long as its
    reference is aligned with it position by position (what it holds at unscored
    positions is not read); one as long as the reference's scored positions lists the
    scored tokens only; any other length is an error."""
    if ignore_index is not None and (isinstance(ignore_index, bool) or not isinstance(ignore_index, (int, np.integer))):
        raise ValueError(f"ignore_index: {ignore_index!r} is not an integer or None")
    predictions, references = _corpora(predictions, references)
    check_same_length(predictions, references)
    pred, pred_lengths = _numbers(predictions, "predictions")
    ref, ref_lengths = _numbers(references, "references")
    keep = ref != ignore_index if ignore_index is not None else np.ones(len(ref), dtype=bool)
    bad = keep & (ref != 0) & (ref != 1)
    if bad.any():
        i = np.flatnonzero(bad)[0]
        raise input_error("references", position(i, ref_lengths), f"{ref[i].item()!r} is not 0, 1 or ignore_index {ignore_index}")
    scored = _segment_sums(keep, ref_lengths)
    aligned = pred_lengths == ref_lengths
    if aligned.all():
        use = keep
    else:
        compact = ~aligned & (pred_lengths == scored)
        if not (aligned | compact).all():
            i = int(np.flatnonzero(~(aligned | compact))[0])
            raise input_error("predictions", i, f"has {pred_lengths[i]} tokens but references[{i}] has {ref_lengths[i]} ({scored[i]} once ignore_index positions are removed)")
        use = np.ones(len(pred), dtype=bool)
        use[np.repeat(aligned, pred_lengths)] = keep[np.repeat(aligned, ref_lengths)]
    scores_ = pred[use].astype(float, copy=False)
    bad = ~((scores_ >= 0) & (scores_ <= 1))  # NaN fails both comparisons
    if bad.any():
        i = np.flatnonzero(use)[np.flatnonzero(bad)[0]]
        raise input_error("predictions", position(i, pred_lengths), f"{pred[i].item()!r} is not a 0/1 selection or a score in [0, 1]")
    return (scores_, (ref == 1)[keep], scored) + ((ref_lengths,) if widths else ())


def select(scores, threshold=0.5, threshold_rule=">="):
    """The selected tokens: score >= threshold (DMR) or score > threshold (FR, MGR, DAR)."""
    return scores >= threshold if threshold_rule == ">=" else scores > threshold


def select_top(scores, lengths, widths, ratio):
    """A2R's selection (`_eval_att_rationale`: torch.topk of int(padded width * ratio)
    tokens): in each example the int(width * ratio) highest-scored tokens (all of them if
    fewer are scored), the earlier token first among equal scores."""
    owner = np.repeat(np.arange(len(lengths)), lengths)
    order = np.lexsort((-scores, owner))  # by example, then by falling score; stable: earlier first
    rank = np.empty(len(scores), dtype=np.int64)
    rank[order] = np.arange(len(scores)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    count = (np.asarray(widths, dtype=np.float64) * ratio).astype(np.int64)  # int() of a positive float
    return rank < count[owner]


# ---------------------------------------------------------------------------------------
# Per-example statistics


def _segment_sums(values, lengths):
    """Sum of each example's run of values (one pass; empty examples sum to 0, which
    np.add.reduceat alone would not give them)."""
    out = np.zeros(len(lengths), dtype=np.int64)
    full = lengths > 0
    if full.any():
        out[full] = np.add.reduceat(values, (np.cumsum(lengths) - lengths)[full], dtype=np.int64)
    return out


def spans(flags, lengths):
    """(starts, ends) of the maximal runs of True tokens, ends exclusive, in the flat
    coordinates of the concatenated examples; a run never crosses an example boundary."""
    ends = np.cumsum(lengths)[lengths > 0]
    first, last = ends - lengths[lengths > 0], ends - 1
    start = flags.copy()
    start[1:] &= ~flags[:-1]
    start[first] = flags[first]
    end = flags.copy()
    end[:-1] &= ~flags[1:]
    end[last] = flags[last]
    return np.flatnonzero(start), np.flatnonzero(end) + 1


def iou_matches(predicted, gold, iou_threshold=0.5):
    """For each predicted span, whether its best IOU (|intersection| / |union| of token
    ranges) against the gold spans reaches iou_threshold, as ERASER's partial match.

    Spans on each side are disjoint and sorted, so a predicted span overlaps a contiguous
    range of gold spans, and all overlapping pairs number at most len(predicted) + len(gold)."""
    (p_start, p_end), (g_start, g_end) = predicted, gold
    first = np.searchsorted(g_end, p_start, side="right")  # first gold ending after the start
    stop = np.searchsorted(g_start, p_end, side="left")  # golds starting before the end
    count = np.maximum(stop - first, 0)
    pair = np.repeat(np.arange(len(p_start)), count)
    other = first[pair] + np.arange(len(pair)) - np.repeat(np.cumsum(count) - count, count)
    # Overlapping ranges: the union is one range too.
    inter = np.minimum(p_end[pair], g_end[other]) - np.maximum(p_start[pair], g_start[other])
    union = np.maximum(p_end[pair], g_end[other]) - np.minimum(p_start[pair], g_start[other])
    matched = np.zeros(len(p_start), dtype=bool)
    matched[pair[inter / union >= iou_threshold]] = True
    return matched


def example_auprc(scores, gold, lengths):
    """Each example's area under its precision-recall curve, as sklearn's
    precision_recall_curve followed by auc (ERASER): a point at every distinct score, from
    (recall 0, precision 1), joined by trapezoids. An example without gold tokens has
    recall 1 at every point (sklearn's convention), so its area is 0.5. NaN for an example
    without tokens.

    Linear but for one sort of each example's tokens: O(tokens log length)."""
    n, total = len(lengths), len(scores)
    # Score and gold flag in one int64 per token, so that sorting needs no index: a score in
    # [0, 1] as its float64 bits (which order as the values do, once + 0.0 has made -0.0
    # into 0.0), at most 0x3FF0000000000000 < 2^62, shifted left by one with the gold flag
    # in the freed bit (< 2^63: no overflow), negated to put the highest score first.
    packed = np.add(scores, 0.0, dtype=np.float64).view(np.int64) << 1
    packed |= gold
    np.negative(packed, out=packed)
    # Each example sorted: the examples of one length as the rows of one 2-D array, the
    # examples taken in order of length (the areas are put back in their order at the end).
    by_length = np.argsort(lengths, kind="stable")
    starts = np.cumsum(lengths) - lengths
    ranked, done, block = np.empty(total, dtype=np.int64), 0, None
    for group in np.split(by_length, np.flatnonzero(np.diff(lengths[by_length])) + 1):
        length = lengths[group[0]] if len(group) else 0
        if length:
            block = packed[starts[group][:, None] + np.arange(length)]
            block.sort(axis=1)
            ranked[done : done + block.size] = block.ravel()
            done += block.size
    del packed, block  # the arrays of one token each are let go as soon as they are used
    np.negative(ranked, out=ranked)
    hits = (ranked & 1).astype(bool)
    ranked >>= 1
    lengths = lengths[by_length]
    starts = np.cumsum(lengths) - lengths
    full = lengths > 0
    last = np.empty(total, dtype=bool)  # the last token of each distinct score: a point
    last[:-1] = ranked[1:] != ranked[:-1]
    last[(starts + lengths - 1)[full]] = True
    del ranked
    at = np.flatnonzero(last)
    points = _segment_sums(last, lengths)
    del last
    hits_before = np.concatenate(([0], np.cumsum(hits)))
    del hits
    true_pos = hits_before[at + 1]
    true_pos -= np.repeat(hits_before[starts], points)
    positives = np.repeat(hits_before[starts + lengths] - hits_before[starts], points)
    del hits_before
    at += 1
    at -= np.repeat(starts, points)  # the tokens ranked down to each point
    precision = true_pos / at
    del at
    recall = true_pos / np.maximum(positives, 1)
    recall[positives == 0] = 1.0
    del true_pos, positives
    # (recall - previous recall) * (previous precision + precision) / 2, each example's
    # first point after (0, 1); summed in order by bincount, as the plain definition does.
    first = (np.cumsum(points) - points)[points > 0]
    terms = np.empty_like(precision)
    terms[1:] = precision[:-1]
    terms[first] = 1.0
    terms += precision
    del precision
    rise = np.empty_like(recall)
    rise[1:] = recall[:-1]
    rise[first] = 0.0
    np.subtract(recall, rise, out=rise)
    del recall
    terms *= rise
    del rise
    terms /= 2
    area = np.bincount(np.repeat(np.arange(n), points), terms, minlength=n)
    out = np.empty(n)
    out[by_length] = np.where(full, area, np.nan)
    return out


def _owners(starts, lengths):
    """How many of the spans starting at `starts` (flat coordinates) each example holds."""
    return np.bincount(np.searchsorted(np.cumsum(lengths), starts, side="right"), minlength=len(lengths))


def statistics(scores, gold, lengths, threshold=0.5, threshold_rule=">=", iou_threshold=0.5, zero_division=0.0, with_auprc=True, selected=None):
    """The per-example rows, shape (n_examples, len(COLUMNS)), and the span counts.

    An example with neither gold nor selected tokens is left out of the per-example token
    means (ERASER scores only annotated or predicted documents); IOU precision averages
    over the examples with predicted spans, IOU recall over those with gold spans
    (ERASER's macro partial match)."""
    selected = select(scores, threshold, threshold_rule) if selected is None else selected
    tp = _segment_sums(selected & gold, lengths)
    predicted = _segment_sums(selected, lengths)
    truth = _segment_sums(gold, lengths)
    precision, recall, f1 = prf(tp, predicted, truth, zero_division)
    neither = (predicted + truth) == 0
    predicted_spans, gold_spans = spans(selected, lengths), spans(gold, lengths)
    matched = iou_matches(predicted_spans, gold_spans, iou_threshold)
    counts = {
        "predicted_spans": _owners(predicted_spans[0], lengths),
        "gold_spans": _owners(gold_spans[0], lengths),
        "matched_spans": _owners(predicted_spans[0][matched], lengths),
    }
    columns = [
        tp, predicted, truth, lengths,
        np.where(neither, np.nan, precision), np.where(neither, np.nan, recall), np.where(neither, np.nan, f1),
        counts["matched_spans"] / np.where(counts["predicted_spans"] > 0, counts["predicted_spans"], np.nan),
        counts["matched_spans"] / np.where(counts["gold_spans"] > 0, counts["gold_spans"], np.nan),
        example_auprc(scores, gold, lengths) if with_auprc else np.full(len(lengths), np.nan),
        counts["predicted_spans"], counts["gold_spans"], counts["matched_spans"],
    ]  # fmt: skip
    return np.column_stack(columns).astype(float).reshape(len(lengths), len(COLUMNS)), counts


# ---------------------------------------------------------------------------------------
# Reduction


MEANS = slice(4, 10)  # COLUMNS' per-example terms (NaN: not in that mean)
AUPRC = COLUMNS.index("auprc")
# The sums every figure is a ratio of: the token counts, each mean's terms summed and the
# examples in it, the span counts.
TOTALS = (*COLUMNS[:4], *(f"{c}_sum" for c in COLUMNS[MEANS]), *(f"{c}_examples" for c in COLUMNS[MEANS]), *COLUMNS[10:])


def totals(weights, rows):
    """TOTALS for each row of example weights (r, n_examples): shape (r, len(TOTALS))."""
    values = rows[:, MEANS]
    valid = ~np.isnan(values)
    return np.concatenate([weights @ rows[:, :4], weights @ np.where(valid, values, 0.0), weights @ valid, weights @ rows[:, 10:13]], axis=-1)


def figures(sums, zero_division=0.0, with_auprc=True):
    """Every number from TOTALS sums (..., len(TOTALS)): arrays of shape (...)."""
    sums = np.moveaxis(np.asarray(sums, dtype=float), -1, 0)
    tp, predicted, gold, tokens = sums[:4]
    precision, recall, f1 = prf(tp, predicted, gold, zero_division)
    negatives = tokens - predicted - gold + tp
    _, _, f1_negative = prf(negatives, tokens - predicted, tokens - gold, zero_division)
    means = divide(sums[4:10], sums[10:16], zero_division)
    predicted_spans, gold_spans, matched_spans = sums[16:19]
    iou_micro_precision, iou_micro_recall = divide(matched_spans, predicted_spans, zero_division), divide(matched_spans, gold_spans, zero_division)
    both = np.stack([f1_negative, f1])
    out = {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "sparsity": divide(predicted, tokens, zero_division),
        "micro_f1": divide(tp + negatives, tokens, zero_division),
        # the mean of the two classes' F1s, as sklearn's macro with labels=[0, 1]
        "macro_f1": divide(np.where(np.isnan(both), 0.0, both).sum(0), (~np.isnan(both)).sum(0), zero_division),
        "example_precision": means[0],
        "example_recall": means[1],
        "example_f1": means[2],
        "iou_precision": means[3],
        "iou_recall": means[4],
        "iou_f1": harmonic_mean(means[3], means[4]),
        # ERASER's partial match "micro": matched / predicted and matched / gold spans, summed
        "iou_micro_precision": iou_micro_precision,
        "iou_micro_recall": iou_micro_recall,
        "iou_micro_f1": harmonic_mean(iou_micro_precision, iou_micro_recall),
    }
    if with_auprc:
        out["auprc"] = means[5]
    return out


def summarise(weights, rows, zero_division=0.0, with_auprc=True):
    """Every number for each row of example weights (r, n_examples): arrays of shape (r,)."""
    return figures(totals(weights, rows), zero_division, with_auprc)


# ---------------------------------------------------------------------------------------
# The metric


def _check_options(threshold, threshold_rule, iou_threshold, auprc):
    check_choice("threshold_rule", threshold_rule, THRESHOLD_RULES)
    _check_number("threshold", threshold, 0, 1)
    _check_number("iou_threshold", iou_threshold, 0.5, 1, ": below 0.5 two predicted spans can match one gold span, and ERASER's recall can pass 1")
    if not (auprc is None or isinstance(auprc, (bool, np.bool_))):  # 1 == True would pass check_choice
        raise ValueError(f"auprc: {auprc!r} is not None, True or False")


def _check_top_k(top_k_ratio, threshold, threshold_rule):
    if top_k_ratio is not None:
        _check_number("top_k_ratio", top_k_ratio, 0, 1)
        if threshold != 0.5 or threshold_rule != ">=":
            raise ValueError(f"{'threshold' if threshold != 0.5 else 'threshold_rule'}: not used with top_k_ratio, which selects the top tokens instead")


def _soft(values):
    return bool(((values != 0) & (values != 1)).any())


def headline(**options):
    """What `paperscore compare` compares by default."""
    return family(**{name: value for name, value in options.items() if name in SCORING}).headline()


SCORING = ("threshold", "threshold_rule", "iou_threshold", "ignore_index", "auprc", "zero_division", "parse", "strict", "top_k_ratio")


def family(**options):
    """rationale_f1's statistics (paperscore.family) for compute()'s scoring options."""
    return RationaleFamily(scoring_options(compute, options, SCORING, "rationale"))


class RationaleFamily(Family):
    """rationale_f1's statistics: per example its COLUMNS row (four token counts, six
    per-example terms, NaN where the example is not in that mean, three span counts); the
    totals are TOTALS: the counts, and per mean the sum of its terms and how many examples
    enter it. The records: whether a soft score was seen (auprc=None reports AUPRC only
    then, as compute does: the rows always hold the AUPRC terms, since a later batch may be
    soft) and, with parse=, whether the references are gold quotes (compute refuses a
    corpus of both kinds). A2R's top_k_ratio selects within each example, so it merges as
    the threshold does."""

    name = "rationale"
    inputs = ("sources",)
    REPORT_SUMS = ("quotes", "unmatched_quotes")  # with parse=, beside parse_failures
    counts = tuple(not name.endswith("_sum") for name in TOTALS)

    def __init__(self, options):
        o = options
        _check_options(o["threshold"], o["threshold_rule"], o["iou_threshold"], o["auprc"])
        o["zero_division"] = check_zero_division(o["zero_division"])
        check_parser_options(o["parse"], o["strict"])
        if o["parse"] is not None:
            o["parse"] = parser_id(get_parser(o["parse"], "rationale_f1"))
        _check_top_k(o["top_k_ratio"], o["threshold"], o["threshold_rule"])
        super().__init__(o)

    def width(self):
        return len(COLUMNS)

    def headline(self):
        return "f1"

    def read(self, predictions, references, sources=None, every_auprc=True):
        """(Batch, the span counts per example); every_auprc=False: AUPRC terms only where
        this batch alone reports them (compute's one batch)."""
        o = self.options
        check_parser_options(o["parse"], o["strict"], sources=sources is not None)
        report = None
        if o["parse"] is not None:
            predictions, references, report = _parsed(predictions, references, sources, o["parse"], o["strict"])
        values, gold, lengths, widths = scored_tokens(predictions, references, o["ignore_index"], widths=True)
        soft = _soft(values)
        with_auprc = o["auprc"] is not False and (every_auprc or soft or o["auprc"])
        selected = None if o["top_k_ratio"] is None else select_top(values, lengths, widths, o["top_k_ratio"])
        rows, spans_per_example = statistics(values, gold, lengths, o["threshold"], o["threshold_rule"], o["iou_threshold"], o["zero_division"], with_auprc, selected)
        records = {"soft": soft, "gold_quotes": None if report is None or not len(rows) else "references" in report}
        return Batch(rows, report, records), spans_per_example

    def rows(self, predictions, references, sources=None):
        return self.read(predictions, references, sources)[0]

    def with_auprc(self, records):
        return bool(records and records["soft"]) if self.options["auprc"] is None else self.options["auprc"]

    def totals(self, table, weights=None):
        if weights is None:
            return totals(np.ones((1, len(table))), table)[0]
        return totals(np.asarray(weights, dtype=float), table)

    def example_totals(self, table):
        values = table[:, MEANS]
        valid = ~np.isnan(values)
        return np.concatenate([table[:, :4], np.where(valid, values, 0.0), valid, table[:, 10:13]], axis=1)

    def reduce(self, sums, records=None):
        return figures(sums, self.options["zero_division"], self.with_auprc(records))

    def _scored(self, table, counts, records):
        """The rows compute resamples: without AUPRC terms where it reports none."""
        if self.with_auprc(records):
            return table, counts
        table = table.copy()
        table[:, AUPRC] = np.nan
        return paired_table(table, counts, np.arange(table.shape[1]))

    def resampling(self, table, counts, records=None):
        table, counts = self._scored(table, counts, records)
        return counts, lambda weights: self.reduce(self.totals(table, weights), records)

    def paired_records(self, *records):
        """AUPRC only where every system gives soft scores (unless `auprc` says otherwise)."""
        return {"soft": all(r["soft"] for r in records), "gold_quotes": records[0]["gold_quotes"]}

    def paired(self, *batches):
        records = self.paired_records(*(batch.records for batch in batches))
        tables = [batch.table if self.with_auprc(records) else np.where(np.arange(batch.table.shape[1]) == AUPRC, np.nan, batch.table) for batch in batches]
        return [encode_rows(table) for table in tables], lambda weights, table: self.reduce(self.totals(table, weights), records)

    def _merge_records(self, mine, theirs, where):
        kind = {True: "gold quotes (texts)", False: "0/1 per token"}
        if None not in (mine["gold_quotes"], theirs["gold_quotes"]) and mine["gold_quotes"] != theirs["gold_quotes"]:
            raise ValueError(f"{where}: references are {kind[theirs['gold_quotes']]}, but the state holds references given as {kind[mine['gold_quotes']]}; give every reference as gold quotes or every one as 0/1 per token")
        quotes = mine["gold_quotes"] if theirs["gold_quotes"] is None else theirs["gold_quotes"]
        return {"soft": mine["soft"] or theirs["soft"], "gold_quotes": quotes}

    def load_records(self, data):
        if data is None:
            return None
        if not (isinstance(data, dict) and set(data) == {"soft", "gold_quotes"} and isinstance(data["soft"], bool) and (data["gold_quotes"] is None or isinstance(data["gold_quotes"], bool) and self.options["parse"] is not None)):
            raise ValueError(f"records: {data!r:.80} is not {{\"soft\": true or false, \"gold_quotes\": true, false or null (null without parse=)}}")
        return dict(data)

    def check(self, sums, where):
        c = dict(zip(TOTALS, np.moveaxis(np.asarray(sums), -1, 0)))
        rules = [("tp", "predicted"), ("tp", "gold"), ("predicted", "tokens"), ("gold", "tokens"), ("matched_spans", "predicted_spans"), ("matched_spans", "gold_spans")]
        rules += [(f"{c_}_sum", f"{c_}_examples") for c_ in COLUMNS[MEANS]]  # each term is in [0, 1]
        for small, large in rules:
            if (c[small] > c[large] + 1e-9 * np.maximum(1, c[large])).any():
                raise ValueError(f"{where}: {small} above {large}, which no corpus gives")


def input_tokens(sources, count):
    """Each example's input tokens: a text split on white space, or a list of strings."""
    if sources is None:
        raise ValueError("sources: parse= places the quotes on the input's tokens; pass sources, one text (split on white space) or list of tokens per example")
    sources = as_corpus(sources, "sources")
    if len(sources) != count:
        raise ValueError(f"sources and predictions differ in length: {len(sources)} against {count} examples")
    tokens = []
    for index, source in enumerate(sources):
        if isinstance(source, str):
            tokens.append(source.split())
        elif isinstance(source, (list, tuple, np.ndarray)) and all(isinstance(token, str) for token in source):
            tokens.append(list(source))
        else:
            raise input_error("sources", index, f"expected a text or a list of token strings, got {type(source).__name__} {source!r:.60}")
    return tokens


def _parsed(predictions, references, sources, parse, strict):
    """(predictions, references, report) with the model texts read by the parser `parse`
    onto the tokens of `sources`: every prediction, and references given as texts (gold
    quotes, as a seq2seq model's labels are) strictly, since a gold quote that matches
    nothing is a broken reference; references given as 0/1 lists must have one entry per
    token."""
    parser = get_parser(parse, "rationale_f1")
    predictions, references = _corpora(predictions, references)
    check_same_length(predictions, references)
    for index, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise input_error("predictions", index, f"is a {type(prediction).__name__}, not a model reply for the parser {parse}")
    tokens = input_tokens(sources, len(predictions))
    masks, report = parse_rationales(predictions, tokens, parser, strict)
    texts = [isinstance(reference, str) for reference in references]
    if any(texts) and not all(texts):
        first = texts.index(not texts[0])
        raise input_error("references", first, f"is {'a text' if texts[first] else 'a list'} but references[0] is {'a text' if texts[0] else 'a list'}; give every reference as gold quotes (texts) or every one as 0/1 per token")
    if all(texts) and texts:
        gold, _ = parse_rationales(references, tokens, parser, strict=True, argument="references")
        return masks, gold, {**report, "references": "quotes"}
    for index, (reference, words) in enumerate(zip(references, tokens)):
        if hasattr(reference, "__len__") and len(reference) != len(words):
            raise input_error("references", index, f"has {len(reference)} entries but sources[{index}] has {len(words)} tokens")
    return masks, references, report


def compute(
    predictions,
    references,
    sources=None,
    threshold=0.5,
    threshold_rule=">=",
    iou_threshold=0.5,
    ignore_index=-100,
    auprc=None,
    zero_division=0.0,
    per_example=False,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
    parse=None,
    strict=False,
    top_k_ratio=None,
):
    """Rationale token metrics; see the module docstring and the Space card.

    predictions: one sequence per example of 0/1 selections or soft scores in [0, 1];
    references: one sequence per example of 0/1, ignore_index marking unscored positions.
    Lists, 2-D numpy arrays or torch tensors (a bool mask is 0/1), or lists of 1-d ones.
    threshold, threshold_rule: a token is selected when score >= threshold (DMR) or
    score > threshold (FR, MGR, DAR). iou_threshold: ERASER's partial-match IOU, in
    [0.5, 1]. auprc: None adds "auprc" when some score is neither 0 nor 1; True or False
    force it on or off.
    parse: a rationale parser of paperscore.parse (quotes_exact, quotes_normalized,
    quotes_fuzzy): predictions are model texts quoting the input, placed on the tokens of
    `sources` (one text, split on white space, or list of tokens per example); references
    are 0/1 per token, or gold quotes (texts) placed by the same parser, strictly. The
    result adds parse_failures, parse_failure_examples (0-based), quotes and
    unmatched_quotes; the signature names the parser. strict: a quote that matches
    nothing is a ValueError instead.
    top_k_ratio: A2R's selection instead of a threshold: in each example the
    int(width * top_k_ratio) highest-scored tokens, width = the reference's length as
    given (its padded width), the earlier token first among equal scores.
    """
    fam = family(threshold=threshold, threshold_rule=threshold_rule, iou_threshold=iou_threshold, ignore_index=ignore_index, auprc=auprc, zero_division=zero_division, parse=parse, strict=strict, top_k_ratio=top_k_ratio)
    zero_division = fam.options["zero_division"]
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples, seed)
    batch, spans_per_example = fam.read(predictions, references, sources, every_auprc=False)
    rows, report, with_auprc = batch.table, batch.report, fam.with_auprc(batch.records)
    result = evaluate(fam, batch, confidence_level, n_resamples, seed)
    if per_example:
        result["per_example"] = _details(rows, spans_per_example, zero_division, with_auprc)
    if report:
        result.update({key: report[key] for key in PARSE_KEYS})
    if return_signature:
        parsing = {"parse": report["parser"], **({"references": "quotes"} if "references" in report else {})} if report else {}
        result["signature"] = signature(
            "rationale_f1",
            **parsing,
            **({"top_k_ratio": float(top_k_ratio)} if top_k_ratio is not None else {"threshold": float(threshold), "threshold_rule": threshold_rule}),
            iou_threshold=float(iou_threshold),
            ignore_index=ignore_index,
            zero_division=zero_division,
            **bootstrap_options(confidence_level, n_resamples, seed),
        )
        result["signature"] = with_references(result["signature"], references)
    return result


def _details(rows, spans_per_example, zero_division, with_auprc):
    tp, predicted, gold, tokens = rows[:, :4].T
    precision, recall, f1 = prf(tp, predicted, gold, zero_division)
    out = []
    for i in range(len(rows)):
        row = {"tokens": int(tokens[i]), "gold": int(gold[i]), "predicted": int(predicted[i]), "tp": int(tp[i])}
        row.update(precision=float(precision[i]), recall=float(recall[i]), f1=float(f1[i]))
        row.update({key: int(value[i]) for key, value in spans_per_example.items()})
        if with_auprc:
            row["auprc"] = float(rows[i, COLUMNS.index("auprc")])
        out.append(row)
    return out


# ---------------------------------------------------------------------------------------
# Command line: paperscore rationale --predictions FILE --references FILE

COMMAND = "rationale"
HELP = "rationale token P/R/F1 (DMR, FR, A2R), micro / macro F1, ERASER's IOU F1 and AUPRC"


def add_options(parser):
    """The scoring options, shared by this command and `paperscore compare rationale`."""
    parser.add_argument("--threshold", type=float, default=0.5, help="a score at this threshold (see --threshold-rule) selects the token")
    parser.add_argument("--threshold-rule", choices=THRESHOLD_RULES, default=">=", help=">= as DMR (default), > as FR/MGR/DAR")
    parser.add_argument("--iou-threshold", type=float, default=0.5, help="overlap (IOU) at which a predicted span matches a gold one, for ERASER's IOU F1")
    parser.add_argument("--ignore-index", type=int, default=-100, help="reference value marking padding: those positions are not scored")
    parser.add_argument("--no-auprc", action="store_true", help="skip AUPRC even for soft scores")
    parser.add_argument("--top-k-ratio", type=float, help="A2R's selection instead of a threshold: in each example the int(width * ratio) highest scores (width: the reference line's length, padding included)")
    parser.add_argument("--parse", choices=RATIONALE_PARSERS, metavar="NAME", help=f"the outputs hold model replies quoting the input, one a line (a line that is a JSON string is that string), placed on the --sources tokens by this policy: {', '.join(RATIONALE_PARSERS)}; --references may then hold gold quotes (texts) instead of 0/1 lists")
    parser.add_argument("--sources", help="with --parse: the input of each example, one a line: a text (split on white space) or a JSON list of tokens")
    parser.add_argument("--strict", action="store_true", help="with --parse: a quote that matches no tokens is an error")


def options(args):
    """compute()'s scoring options (with --parse, the parser's)."""
    if args.parse is None and (args.strict or args.sources):
        raise ValueError(f"{'--strict' if args.strict else '--sources'}: applies with --parse NAME only")
    return dict(
        threshold=args.threshold,
        threshold_rule=args.threshold_rule,
        iou_threshold=args.iou_threshold,
        ignore_index=args.ignore_index,
        auprc=False if args.no_auprc else None,
        top_k_ratio=args.top_k_ratio,
        **({"parse": args.parse, "strict": args.strict} if args.parse else {}),
    )


def add_arguments(parser):
    parser.add_argument("--predictions", required=True, help="one JSON list of 0/1 selections or scores in [0, 1] per line")
    parser.add_argument("--references", required=True, help="one JSON list of 0/1 per line, ignore-index marking padding")
    add_options(parser)
    parser.add_argument("--per-example", action="store_true", help="add each example's numbers")


def read_replies(path, argument):
    """One model reply a line, as it is; a line that is a JSON string is that string (a
    reply of several lines written as one)."""
    replies = []
    for line in read_lines(path, argument, allow_empty=True):
        value = parse_value(line) if line.lstrip().startswith('"') else None
        replies.append(value if isinstance(value, str) else line)
    return replies


def _sources(args):
    """--sources, which --parse needs (the tokens the quotes are placed on)."""
    if not args.sources:
        raise ValueError("--sources: --parse places the quotes on the input's tokens; give the inputs, one a line")
    return read_values(args.sources, "--sources")


def run(args):
    scoring = options(args)
    if args.parse is None:
        predictions, inputs = read_values(args.predictions, "--predictions"), {}
    else:
        predictions, inputs = read_replies(args.predictions, "--predictions"), {"sources": _sources(args)}
    return compute(predictions, read_values(args.references, "--references"), per_example=args.per_example, **inputs, **scoring, **args.common)


def read_compare(args):
    """The inputs of `paperscore compare rationale`: with --parse, the systems' replies
    (one a line) and --sources."""
    references = read_values(args.references, "--references")
    if args.parse is None:
        return {"references": references, "system_a": read_values(args.system_a, "--system-a"), "system_b": read_values(args.system_b, "--system-b")}
    return {"references": references, "system_a": read_replies(args.system_a, "--system-a"), "system_b": read_replies(args.system_b, "--system-b"), "sources": _sources(args)}


def table(result):
    """The command line's table, with the per-example rows numbered from 0."""
    from .paperscore_cli import table as plain

    if "per_example" in result:
        result = {**result, "per_example": dict(enumerate(result["per_example"]))}
    return plain(result)
