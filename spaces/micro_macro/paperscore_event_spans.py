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
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    input_error,
    prf,
    signature,
    with_references,
)
from .paperscore_family import Batch, Family, evaluate, paired_table

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
    fam = family(spans=rule, scheme=scheme, zero_division=zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples, seed)
    result = evaluate(fam, fam.rows(predictions, references), confidence_level, n_resamples, seed)
    if return_signature:
        result["signature"] = with_references(signature("micro_macro", spans=rule, scheme=scheme, zero_division=fam.options["zero_division"], **bootstrap_options(confidence_level, n_resamples, seed)), references)
    return result


def headline():
    """What `paperscore compare micro_macro --spans` compares by default: trigger
    classification F1, the number ED papers (MAVEN, TextEE's ED tables) lead with."""
    return "trigger_cls_f1"


def family(spans="textee", scheme=None, zero_division=0.0):
    """The statistics (paperscore.family) of micro_macro(spans=..., scheme=...)."""
    check_choice("spans", spans, RULES)
    check_choice("scheme", scheme, SCHEMES)
    fam = SpansFamily({"spans": spans, "scheme": scheme, "zero_division": check_zero_division(zero_division)})
    fam.bounded = spans == "textee"  # OneIE counts a repeated trigger twice: recall can pass 1
    return fam


class SpansFamily(Family):
    """Span-level event detection's statistics: per unit (a window under "textee", an
    example under "oneie") the predicted, gold and matched counts of every measure of
    MEASURES (a corpus of triggers alone, or a rule with fewer measures, fills the leading
    columns and leaves the rest 0). Its records keep two corpus-wide rules: whether the
    references hold events or triggers alone (compute refuses a corpus of both), and under
    "textee" the (doc_id, wnd_id) of every window seen: TextEE counts a window's tuples as
    one set, which sums cannot rebuild, so a window's examples must all be in one batch
    (one seen again in a later update or another shard is refused)."""

    name = "micro_macro"
    counts = (True,) * (3 * len(MEASURES))

    def headline(self):
        return headline()

    def rows(self, predictions, references):
        o = self.options
        units, pred, gold, with_events = read_corpus(predictions, references, o["scheme"])
        rows, _ = rows_of(o["spans"], units, pred, gold, with_events)
        windows = list(dict.fromkeys(key for kind, key in units if kind == "ids")) if o["spans"] == "textee" else []
        records = {"events": with_events, "windows": windows} if units else None
        return Batch(np.pad(rows, ((0, 0), (0, self.width() - rows.shape[1]))).astype(float), None, records)

    def measures(self, records):
        return rows_of(self.options["spans"], [], [], [], bool(records and records["events"]))[1]

    def reduce(self, totals, records=None):
        measures = self.measures(records)
        return ratios(np.asarray(totals, dtype=float)[..., : 3 * len(measures)], measures, self.options["zero_division"])

    def figures(self, totals, records=None):
        measures = self.measures(records)
        return figures(np.asarray(totals, dtype=np.int64)[: 3 * len(measures)], measures, self.options["zero_division"])

    def resampling(self, table, counts, records=None):
        measures = self.measures(records)
        table, counts = paired_table(table, counts, np.arange(3 * len(measures)))  # compute's rows hold its measures alone
        return counts, lambda weights: ratios(weights @ table, measures, self.options["zero_division"])

    def _merge_records(self, mine, theirs, where):
        if mine["events"] != theirs["events"]:
            form = {True: "events", False: "triggers alone"}
            raise ValueError(f"{where}: the references hold {form[theirs['events']]}, but earlier ones hold {form[mine['events']]}; give every example in one form (compute refuses a corpus of both)")
        seen = set(map(tuple, mine["windows"]))
        again = next((key for key in theirs["windows"] if tuple(key) in seen), None)
        if again is not None:
            raise ValueError(
                f"{where}: the window doc_id, wnd_id {tuple(again)!r} is also in an earlier update or shard: TextEE counts a window's tuples as one set "
                f"(a tuple repeated across its examples counts once), which a state cannot rebuild from counts; give each window's examples in one update"
            )
        return {"events": mine["events"], "windows": mine["windows"] + theirs["windows"]}

    def paired_records(self, *records):
        return records[0]

    def dump_records(self, records):
        return None if records is None else {"events": records["events"], "windows": [list(key) for key in records["windows"]]}

    def load_records(self, data):
        if data is None:
            return None
        if not (isinstance(data, dict) and set(data) == {"events", "windows"} and isinstance(data["events"], bool) and isinstance(data["windows"], list)):
            raise ValueError(f"records: {data!r:.80} is not {{\"events\": true or false, \"windows\": [...]}}")
        keys = []
        for i, key in enumerate(data["windows"]):
            if not (isinstance(key, list) and len(key) == 2 and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in key)):
                raise input_error("windows", i, f"{key!r:.60} is not a [doc_id, wnd_id] pair of strings or ints")
            keys.append(tuple(key))
        if len(set(keys)) != len(keys):
            raise ValueError("windows: lists a window twice")
        return {"events": data["events"], "windows": keys}

    def check(self, totals, where):
        c = np.asarray(totals).reshape(len(totals), -1, 3)
        if (c[..., 2] > c[..., 0]).any():  # OneIE counts a repeated trigger twice: matched may pass gold
            raise ValueError(f"{where}: a matched count above the predicted count, which no corpus gives")
