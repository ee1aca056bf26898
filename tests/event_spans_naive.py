"""A plain per-example oracle of span-level event detection, written from the two scorers'
definitions (TextEE's scorer.py, OneIE's score_graphs) without numpy, for the differential
test of paperscore.event_spans. Examples are dicts (triggers or events, optional ids) or
lists of [start, end, type] triggers."""


def _events(example):
    if isinstance(example, dict) and "events" in example:
        return [(tuple(e["trigger"]), [tuple(a) for a in e["arguments"]]) for e in example["events"]]
    triggers = example["triggers"] if isinstance(example, dict) else example
    return [(tuple(t), []) for t in triggers]


def _window(example, index):
    if isinstance(example, dict) and ("doc_id" in example or "wnd_id" in example):
        return ("ids", example.get("doc_id"), example.get("wnd_id"))
    return ("example", index)


def textee_tuples(example, key):
    """TextEE's tuples of one example, each led by its window key, per measure."""
    events = _events(example)
    return {
        "trigger_id": [(key, t[0], t[1]) for t, _ in events],
        "trigger_cls": [(key, *t) for t, _ in events],
        "argument_id": [(key, t[2], a[0], a[1]) for t, args in events for a in args],
        "argument_cls": [(key, t[2], *a) for t, args in events for a in args],
        "argument_attached_id": [(key, *t, a[0], a[1]) for t, args in events for a in args],
        "argument_attached_cls": [(key, *t, *a) for t, args in events for a in args],
    }


def textee(predictions, references):
    """{measure: (predicted, gold, matched)} over the corpus, and the same per window key."""
    corpus, windows = {}, {}
    for index, (p, r) in enumerate(zip(predictions, references)):
        key = _window(r, index)
        for measure, tuples in textee_tuples(p, key).items():
            corpus.setdefault(measure, (set(), set()))[0].update(tuples)
            windows.setdefault((key, measure), (set(), set()))[0].update(tuples)
        for measure, tuples in textee_tuples(r, key).items():
            corpus.setdefault(measure, (set(), set()))[1].update(tuples)
            windows.setdefault((key, measure), (set(), set()))[1].update(tuples)

    def counts(pair):
        pred, gold = pair
        return len(pred), len(gold), len(pred & gold)

    return {m: counts(pair) for m, pair in corpus.items()}, {k: counts(pair) for k, pair in windows.items()}


def oneie_one(prediction, reference):
    """OneIE's counts of one graph: {measure: (predicted, gold, matched)}."""
    pred, gold = _events(prediction), _events(reference)
    gold_triggers = [t for t, _ in gold]
    identified = classified = 0
    for start, end, kind in (t for t, _ in pred):
        same_span = [g for g in gold_triggers if g[0] == start and g[1] == end]
        if same_span:
            identified += 1
            if same_span[0][2] == kind:
                classified += 1
    out = {"trigger_id": (len(pred), len(gold), identified), "trigger_cls": (len(pred), len(gold), classified)}
    pred_args = {(a[0], a[1], t[2], a[2]) for t, args in pred for a in args}
    gold_args = {(a[0], a[1], t[2], a[2]) for t, args in gold for a in args}
    arg_identified = sum(1 for a in pred_args if any(g[:3] == a[:3] for g in gold_args))
    arg_classified = sum(1 for a in pred_args if a in gold_args)
    out["argument_id"] = (len(pred_args), len(gold_args), arg_identified)
    out["argument_cls"] = (len(pred_args), len(gold_args), arg_classified)
    return out


def ratio(matched, total):
    return matched / total if total else 0.0


def scores(counts):
    """P, R, F1 (zero division 0, F1 from P and R as both scorers) of each measure."""
    out = {}
    for measure, (predicted, gold, matched) in counts.items():
        p, r = ratio(matched, predicted), ratio(matched, gold)
        out[measure] = (p, r, ratio(2 * p * r, p + r))
    return out
