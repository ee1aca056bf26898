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
    encode_rows,
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
    excluded, as TextEE's token offsets), a str label. `what` names it in an error: a
    function of no argument, so that the message is written only when one is raised."""
    if type(value) in (list, tuple) and len(value) == 3:
        start, end, label = value
        if type(start) is int and type(end) is int and type(label) is str and 0 <= start < end:
            return (start, end, label)  # the common case, checked without building a message
    if not (isinstance(value, (list, tuple)) and len(value) == 3):
        raise input_error(argument, where, f"{what()} {value!r:.60} is not [start, end, label]")
    start, end, label = value
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in (start, end)) or not isinstance(label, str):
        raise input_error(argument, where, f"{what()} {value!r:.60} is not [int start, int end, str label]")
    if not 0 <= start < end:
        raise input_error(argument, where, f"{what()} {value!r:.60}: the span is empty, reversed or negative (start < end, end excluded)")
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
    return ids, [_span(t, argument, index, lambda: f"trigger {n + 1}") for n, t in enumerate(example)], None


def _events(events, argument, index):
    if not isinstance(events, (list, tuple)):
        raise input_error(argument, index, f"\"events\" is a {type(events).__name__}, not a list")
    read = []
    for number, event in enumerate(events, 1):
        if not (isinstance(event, dict) and set(event) == {"trigger", "arguments"} and isinstance(event["arguments"], (list, tuple))):
            raise input_error(argument, index, f"event {number} {event!r:.60} is not {{\"trigger\": [start, end, type], \"arguments\": [...]}}")
        trigger = _span(event["trigger"], argument, index, lambda: f"event {number}: trigger")
        read.append((trigger, [_span(a, argument, index, lambda: f"event {number}: argument {n + 1}") for n, a in enumerate(event["arguments"])]))
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
# Tuples of each measure, each led by its unit's number


def unit_tuples(examples, unit, with_events):
    """{measure: list of (unit, *TextEE's key without doc_id, wnd_id)} over the corpus."""
    out = {measure: [] for measure in (MEASURES if with_events else TRIGGER_MEASURES)}
    trigger_id, trigger_cls = out["trigger_id"], out["trigger_cls"]
    for u, (triggers, events) in zip(unit, examples):
        if events is None:
            trigger_id += [(u, t[0], t[1]) for t in triggers]
            trigger_cls += [(u, *t) for t in triggers]
            continue
        for t, arguments in events:
            trigger_id.append((u, t[0], t[1]))
            trigger_cls.append((u, *t))
            out["argument_id"] += [(u, t[2], a[0], a[1]) for a in arguments]
            out["argument_cls"] += [(u, t[2], *a) for a in arguments]
            out["argument_attached_id"] += [(u, *t, a[0], a[1]) for a in arguments]
            out["argument_attached_cls"] += [(u, *t, *a) for a in arguments]
    return out


def _per_unit(keys, n):
    """How many of `keys` (tuples led by their unit) each of n units holds: int64 counts
    of tuples held in memory, far below 2^63."""
    return np.bincount(np.fromiter((key[0] for key in keys), np.int64, len(keys)), minlength=n)


def textee_rows(units, pred, gold, with_events):
    """(rows, n_units): per window, predicted / gold / matched distinct tuples of each
    measure (TextEE's corpus sets, which their (doc_id, wnd_id) keys split by window)."""
    index = {}
    unit = [index.setdefault(u, len(index)) for u in units]
    n = len(index)
    p_tuples, g_tuples = unit_tuples(pred, unit, with_events), unit_tuples(gold, unit, with_events)
    rows = np.zeros((n, 3 * len(p_tuples)), dtype=np.int64)
    for m, measure in enumerate(p_tuples):
        predicted, expected = set(p_tuples[measure]), set(g_tuples[measure])
        for c, keys in enumerate((predicted, expected, predicted & expected)):
            rows[:, 3 * m + c] = _per_unit(keys, n)
    return rows, n


def oneie_rows(pred, gold, with_events):
    """(rows, n): per example, OneIE's score_graphs counts (see the module docstring)."""
    n = len(pred)
    measures = TRIGGER_MEASURES + (ARGUMENT_MEASURES if with_events else ())
    rows = np.zeros((n, 3 * len(measures)), dtype=np.int64)
    p_triggers, g_triggers = (unit_tuples(side, range(n), with_events)["trigger_cls"] for side in (pred, gold))
    first = {}  # (example, start, end) -> the type of the first gold trigger with that span
    for u, start, end, kind in g_triggers:
        first.setdefault((u, start, end), kind)
    found = [key for key in p_triggers if key[:3] in first]
    rows[:, 0] = rows[:, 3] = _per_unit(p_triggers, n)
    rows[:, 1] = rows[:, 4] = _per_unit(g_triggers, n)
    rows[:, 2] = _per_unit(found, n)
    rows[:, 5] = _per_unit([key for key in found if first[key[:3]] == key[3]], n)
    if with_events:
        # per example the set of (start, end, event type, role)
        p_args, g_args = ({(u, a[0], a[1], t[2], a[2]) for u, (_, events) in enumerate(side) for t, args in events for a in args} for side in (pred, gold))
        g_spans = {key[:4] for key in g_args}
        identified = [key for key in p_args if key[:4] in g_spans]
        rows[:, 6] = rows[:, 9] = _per_unit(p_args, n)
        rows[:, 7] = rows[:, 10] = _per_unit(g_args, n)
        rows[:, 8] = _per_unit(identified, n)
        rows[:, 11] = _per_unit([key for key in identified if key in g_args], n)
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
    return rows_of(rule, *read_corpus(predictions, references, scheme))


def rows_of(rule, units, pred, gold, with_events):
    """statistics() of read_corpus' reading (paperscore.state also keeps the units)."""
    if rule == "textee":
        rows, _ = textee_rows(units, pred, gold, with_events)
        measures = MEASURES if with_events else TRIGGER_MEASURES  # unit_tuples' order
    else:
        rows, _ = oneie_rows(pred, gold, with_events)
        measures = TRIGGER_MEASURES + (ARGUMENT_MEASURES if with_events else ())
    return rows, measures


def figures(sums, measures, zero_division):
    """compute()'s numbers from the summed rows: P, R, F1 and the counts of each measure."""
    result = as_floats({key: value[0] for key, value in ratios(sums[None].astype(float), measures, zero_division).items()})
    for m, measure in enumerate(measures):
        result.update({f"{measure}_{count}": int(sums[3 * m + c]) for c, count in enumerate(COUNTS)})
    return result


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
    result = figures(rows.sum(0), measures, zero_division)
    if confidence_level is not None:
        distinct, counts = compress_rows(rows)
        result.update(bootstrap_intervals(counts, lambda w: ratios(w @ distinct, measures, zero_division), confidence_level, n_resamples, seed))
    if return_signature:
        result["signature"] = signature("micro_macro", spans=rule, scheme=scheme, zero_division=zero_division, **bootstrap_options(confidence_level, n_resamples, seed))
    return result


def headline():
    """What `paperscore compare micro_macro --spans` compares by default: trigger
    classification F1, the number ED papers (MAVEN, TextEE's ED tables) lead with."""
    return "trigger_cls_f1"


def paired_statistics(references, system_a, system_b, rule="textee", scheme=None, zero_division=0.0):
    """For paperscore.compare: each system's per-unit count rows (a window under "textee",
    an example under "oneie"; the units come from the references, so both systems' rows
    line up) and the reducer."""
    zero_division = check_zero_division(zero_division)
    tables = []
    for system in (system_a, system_b):
        rows, measures = statistics(system, references, rule, scheme)
        tables += encode_rows(rows)
    return (*tables, lambda weights, table: ratios(np.asarray(weights, dtype=float) @ table, measures, zero_division))
