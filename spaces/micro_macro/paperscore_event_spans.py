# GENERATED from shared/paperscore/event_spans.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Span-level event detection as ACE05, MAVEN and TextEE papers report it: trigger
identification and classification, argument identification and classification (and
TextEE's "attached" variants, keyed by the trigger), over span tuples.

Two counting rules, each a repository's scorer restated:
- "textee" (ej0cl6/TextEE TextEE/scorer.py, compute_ED_* / compute_E2E_*): each measure
  compares the SET of its tuples over the corpus, keyed by (doc_id, wnd_id): a repeated
  tuple counts once, and examples with the same ids are one window.
- "oneie" (OneIE's score_graphs, as TextEE/models/OneIE/scorer.py carries it): per
  example, every predicted trigger in the list counts (a repeated one twice); it is
  identified when a gold trigger has its span, classified when the FIRST such gold
  trigger has its type. Arguments are, per example, the set of (start, end, event type,
  role): identified when a gold argument has the same span and event type, classified
  when it has the role too.

Statistics: per unit (a window under "textee", an example under "oneie") the predicted,
gold and matched counts of each measure, so shards merge by adding rows and the bootstrap
resamples units.
"""

import numpy as np

from .paperscore_core import (
    as_corpus,
    as_floats,
    bootstrap_intervals,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    compress_rows,
    input_error,
    prf,
    signature,
)

RULES = ("textee", "oneie")
SCHEMES = (None, "bio")
TRIGGER_MEASURES = ("trigger_id", "trigger_cls")
ARGUMENT_MEASURES = ("argument_id", "argument_cls")
ATTACHED_MEASURES = ("argument_attached_id", "argument_attached_cls")
MEASURES = TRIGGER_MEASURES + ARGUMENT_MEASURES + ATTACHED_MEASURES
COUNTS = ("predicted", "gold", "matched")  # a row: these three for each measure, in order


# ---------------------------------------------------------------------------------------
# Inputs: one example per window (or sentence)


def _span(value, argument, where, what):
    """(start, end, label) of a [start, end, label] list: int offsets, start < end (end
    excluded, as TextEE's token offsets), a str label."""
    if not (isinstance(value, (list, tuple)) and len(value) == 3):
        raise input_error(argument, where, f"{what} {value!r:.60} is not [start, end, label]")
    start, end, label = value
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in (start, end)) or not isinstance(label, str):
        raise input_error(argument, where, f"{what} {value!r:.60} is not [int start, int end, str label]")
    if not 0 <= start < end:
        raise input_error(argument, where, f"{what} {value!r:.60}: the span is empty, reversed or negative (start < end, end excluded)")
    return int(start), int(end), label


def bio_spans(tags, argument, index):
    """[start, end, type] of each trigger in a BIO tag sequence, read as seqeval's
    get_entities reads it (its default, conlleval-like mode): a chunk starts at B-X, or at
    an I-X that does not continue a chunk of type X; it ends before O, B-, or a tag of
    another type. Tags other than O, B-TYPE and I-TYPE are an error."""
    spans, start, kind = [], None, None
    for i, tag in enumerate([*tags, "O"]):
        if tag == "O":
            head, name = "O", None
        elif isinstance(tag, str) and tag[:2] in ("B-", "I-") and len(tag) > 2:
            head, name = tag[0], tag[2:]
        else:
            raise input_error(argument, f"{index}][{i}", f"{tag!r} is not a BIO tag (O, B-TYPE or I-TYPE)")
        if start is not None and (head != "I" or name != kind):
            spans.append([start, i, kind])
            start = None
        if head == "B" or (head == "I" and start is None):
            start, kind = i, name
    return spans


def read_example(example, argument, index, scheme):
    """(ids or None, triggers, events or None) of one example: a list of [start, end, type]
    triggers; {"triggers": [...]} (TextEE's ED); {"events": [{"trigger": [start, end,
    type], "arguments": [[start, end, role], ...]}, ...]} (TextEE's E2E); either object may
    hold "doc_id" and "wnd_id". scheme "bio": a sequence of BIO tags."""
    if scheme == "bio":
        if isinstance(example, str) or not isinstance(example, (list, tuple, np.ndarray)):
            raise input_error(argument, index, f"is a {type(example).__name__}, not a sequence of BIO tags")
        return None, [tuple(span) for span in bio_spans(list(example), argument, index)], None
    ids = None
    if isinstance(example, dict):
        unknown = set(example) - {"doc_id", "wnd_id", "triggers", "events"}
        if unknown or ("triggers" in example) == ("events" in example):
            raise input_error(argument, index, f"is an object with the keys {sorted(example)}; expected \"triggers\" or \"events\", and optionally \"doc_id\", \"wnd_id\"")
        if "doc_id" in example or "wnd_id" in example:
            ids = (example.get("doc_id"), example.get("wnd_id"))
            if not all(isinstance(i, (str, int)) and not isinstance(i, bool) for i in ids):
                raise input_error(argument, index, f"doc_id and wnd_id {ids!r:.60} are not both strings or ints")
        if "events" in example:
            return ids, None, _events(example["events"], argument, index)
        example = example["triggers"]
    if isinstance(example, (str, dict)) or not isinstance(example, (list, tuple)):
        raise input_error(argument, index, f"is a {type(example).__name__}, not a list of [start, end, type] triggers")
    return ids, [_span(t, argument, index, f"trigger {n + 1}") for n, t in enumerate(example)], None


def _events(events, argument, index):
    if not isinstance(events, (list, tuple)):
        raise input_error(argument, index, f"\"events\" is a {type(events).__name__}, not a list")
    read = []
    for number, event in enumerate(events, 1):
        if not (isinstance(event, dict) and set(event) == {"trigger", "arguments"} and isinstance(event["arguments"], (list, tuple))):
            raise input_error(argument, index, f"event {number} {event!r:.60} is not {{\"trigger\": [start, end, type], \"arguments\": [...]}}")
        trigger = _span(event["trigger"], argument, index, f"event {number}: trigger")
        read.append((trigger, [_span(a, argument, index, f"event {number}: argument {n + 1}") for n, a in enumerate(event["arguments"])]))
    return read


def read_corpus(predictions, references, scheme=None):
    """Both sides read, each example checked against its reference: the same form (triggers
    or events) and, where the prediction names them, the same ids (TextEE asserts it).
    Returns (units, pred, gold, with_events): per example its unit key, then per side
    (triggers, events) per example."""
    predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
    check_same_length(predictions, references)
    units, pred, gold, forms = [], [], [], set()
    for index, (p, r) in enumerate(zip(predictions, references)):
        if scheme == "bio" and not isinstance(p, str) and hasattr(p, "__len__") and hasattr(r, "__len__") and len(p) != len(r):
            raise input_error("predictions", index, f"has {len(p)} tags but references[{index}] has {len(r)}")
        p_ids, p_triggers, p_events = read_example(p, "predictions", index, scheme)
        r_ids, r_triggers, r_events = read_example(r, "references", index, scheme)
        if (p_events is None) != (r_events is None):
            raise input_error("predictions", index, f"holds {'events' if p_events is not None else 'triggers'} but references[{index}] holds {'events' if r_events is not None else 'triggers'}")
        if p_ids is not None and p_ids != r_ids:
            raise input_error("predictions", index, f"doc_id, wnd_id {p_ids!r} differ from references[{index}]'s {r_ids!r}")
        forms.add(r_events is not None)
        units.append(("ids", r_ids) if r_ids is not None else ("example", index))
        pred.append((p_triggers, p_events))
        gold.append((r_triggers, r_events))
    if len(forms) > 1:
        raise ValueError("references: some examples hold events and others only triggers; give every example in one form")
    return units, pred, gold, forms == {True}


# ---------------------------------------------------------------------------------------
# Tuples of each measure


def _triggers(example):
    triggers, events = example
    return triggers if events is None else [trigger for trigger, _ in events]


def measure_tuples(example, with_events):
    """{measure: list of tuples} of one example, TextEE's keys without (doc_id, wnd_id)."""
    triggers = _triggers(example)
    out = {"trigger_id": [t[:2] for t in triggers], "trigger_cls": list(triggers)}
    if with_events:
        events = example[1]
        out["argument_id"] = [(t[2], a[0], a[1]) for t, arguments in events for a in arguments]
        out["argument_cls"] = [(t[2], a[0], a[1], a[2]) for t, arguments in events for a in arguments]
        out["argument_attached_id"] = [(*t, a[0], a[1]) for t, arguments in events for a in arguments]
        out["argument_attached_cls"] = [(*t, *a) for t, arguments in events for a in arguments]
    return out


class Coder(dict):
    """One int code per distinct tuple, across both sides."""

    def codes(self, values):
        return np.fromiter((self.setdefault(v, len(self)) for v in values), np.int64, len(values))


def _flat(lists, coder):
    """(unit index per item, code per item) of per-unit lists of tuples."""
    sizes = np.fromiter(map(len, lists), np.int64, len(lists))
    codes = coder.codes([v for values in lists for v in values])
    return np.repeat(np.arange(len(lists)), sizes), codes


def _keys(unit, codes, width):
    """unit * width + code: below 2^62, as units and codes each number fewer than the tuples
    (and examples) held in memory, < 2^31."""
    return unit * width + codes


def textee_rows(units, pred, gold, with_events):
    """(rows, n_units): per window, predicted / gold / matched distinct tuples of each
    measure (TextEE's sets, which (doc_id, wnd_id) keys split by window)."""
    index = {}
    unit = np.fromiter((index.setdefault(u, len(index)) for u in units), np.int64, len(units))
    n = len(index)
    measures = MEASURES if with_events else TRIGGER_MEASURES
    rows = np.zeros((n, 3 * len(measures)), dtype=np.int64)
    p_tuples = [measure_tuples(e, with_events) for e in pred]
    g_tuples = [measure_tuples(e, with_events) for e in gold]
    for m, measure in enumerate(measures):
        coder = Coder()
        flat = [_flat([t[measure] for t in tuples], coder) for tuples in (p_tuples, g_tuples)]
        width = max(len(coder), 1)
        p_keys, g_keys = (np.unique(_keys(unit[where], codes, width)) for where, codes in flat)
        matched = np.intersect1d(p_keys, g_keys, assume_unique=True)
        for c, keys in enumerate((p_keys, g_keys, matched)):
            rows[:, 3 * m + c] = np.bincount(keys // width, minlength=n)
    return rows, n


def oneie_rows(pred, gold, with_events):
    """(rows, n): per example, OneIE's score_graphs counts (see the module docstring)."""
    n = len(pred)
    measures = TRIGGER_MEASURES + (ARGUMENT_MEASURES if with_events else ())
    rows = np.zeros((n, 3 * len(measures)), dtype=np.int64)
    coder, types = Coder(), Coder()
    p_unit, p_span = _flat([[t[:2] for t in _triggers(e)] for e in pred], coder)
    g_unit, g_span = _flat([[t[:2] for t in _triggers(e)] for e in gold], coder)
    p_type = types.codes([t[2] for e in pred for t in _triggers(e)])
    g_type = types.codes([t[2] for e in gold for t in _triggers(e)])
    width = max(len(coder), 1)
    p_keys, g_keys = _keys(p_unit, p_span, width), _keys(g_unit, g_span, width)
    first_keys, first = np.unique(g_keys, return_index=True)  # the first gold trigger of each span
    found = np.isin(p_keys, first_keys)
    place = np.searchsorted(first_keys, p_keys[found])
    right = np.zeros(len(p_keys), dtype=bool)
    right[found] = g_type[first[place]] == p_type[found]
    rows[:, 0] = rows[:, 3] = np.bincount(p_unit, minlength=n)
    rows[:, 1] = rows[:, 4] = np.bincount(g_unit, minlength=n)
    rows[:, 2] = np.bincount(p_unit[found], minlength=n)
    rows[:, 5] = np.bincount(p_unit[right], minlength=n)
    if with_events:
        sides, coder = [], Coder()
        for side in (pred, gold):  # per example the set of (start, end, event type, role)
            arguments = [list({(a[0], a[1], t[2], a[2]) for t, args in e[1] for a in args}) for e in side]
            unit, full = _flat(arguments, coder)
            sides.append((unit, full, coder.codes([a[:3] for args in arguments for a in args])))
        width = max(len(coder), 1)
        (p_unit, p_full, p_span), (g_unit, g_full, g_span) = sides
        identified = np.isin(_keys(p_unit, p_span, width), _keys(g_unit, g_span, width))
        classified = np.isin(_keys(p_unit, p_full, width), _keys(g_unit, g_full, width))
        rows[:, 6] = rows[:, 9] = np.bincount(p_unit, minlength=n)
        rows[:, 7] = rows[:, 10] = np.bincount(g_unit, minlength=n)
        rows[:, 8] = np.bincount(p_unit[identified], minlength=n)
        rows[:, 11] = np.bincount(p_unit[classified], minlength=n)
    return rows, n


def ratios(sums, measures, zero_division):
    """P, R, F1 of each measure from summed rows (r, 3 * measures): arrays of shape (r,)."""
    out = {}
    for m, measure in enumerate(measures):
        p, r, f = prf(sums[:, 3 * m + 2], sums[:, 3 * m], sums[:, 3 * m + 1], zero_division)
        out.update({f"{measure}_precision": p, f"{measure}_recall": r, f"{measure}_f1": f})
    return out


def statistics(predictions, references, rule="textee", scheme=None):
    """(rows, measures): the per-unit counts compute() sums."""
    check_choice("rule", rule, RULES)
    check_choice("scheme", scheme, SCHEMES)
    units, pred, gold, with_events = read_corpus(predictions, references, scheme)
    if rule == "textee":
        rows, _ = textee_rows(units, pred, gold, with_events)
        measures = MEASURES if with_events else TRIGGER_MEASURES
    else:
        rows, _ = oneie_rows(pred, gold, with_events)
        measures = TRIGGER_MEASURES + (ARGUMENT_MEASURES if with_events else ())
    return rows, measures


def compute(predictions, references, rule="textee", scheme=None, zero_division=0.0, confidence_level=None, n_resamples=1000, seed=None, return_signature=False):
    """Trigger identification / classification and (events given) argument identification /
    classification P, R, F1, with the predicted, gold and matched counts of each
    (`<measure>_predicted` ...). rule "textee": sets of tuples per (doc_id, wnd_id) window,
    and the attached argument measures; "oneie": OneIE's list counting. scheme "bio":
    examples are BIO tag sequences (triggers only)."""
    zero_division = check_zero_division(zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples, seed)
    rows, measures = statistics(predictions, references, rule, scheme)
    sums = rows.sum(0)
    result = as_floats({key: value[0] for key, value in ratios(sums[None].astype(float), measures, zero_division).items()})
    for m, measure in enumerate(measures):
        result.update({f"{measure}_{count}": int(sums[3 * m + c]) for c, count in enumerate(COUNTS)})
    if confidence_level is not None:
        distinct, counts = compress_rows(rows)
        result.update(bootstrap_intervals(counts, lambda w: ratios(w @ distinct, measures, zero_division), confidence_level, n_resamples, seed))
    if return_signature:
        result["signature"] = signature("micro_macro", spans=rule, scheme=scheme, zero_division=zero_division, **bootstrap_options(confidence_level, n_resamples, seed))
    return result
