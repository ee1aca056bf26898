"""DiaASQ's test sets (tests/data/quad_match/, MIT) as sentiment quads and quad strings.

DiaASQ stores each triplet as [t_start, t_end, a_start, a_end, o_start, o_end, polarity,
target, aspect, opinion]: target-aspect-opinion order. quad_match strings are target |
opinion | aspect | polarity, so the elements are re-ordered. Entries whose polarity is -1
(a target and aspect without an opinion) are not sentiment quads and are left out; an
implicit (empty) target or aspect is written NULL, as ASQP writes implicit aspects.
"""

import json
import random
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "quad_match"


def quad(triplet):
    target, aspect, opinion = triplet[7:10]
    return (target or "NULL", opinion, aspect or "NULL", triplet[6])


def dialogues(language):
    """Per dialogue, its quads (tuples of 4 strings) in the file's order."""
    with open(DATA / f"diaasq_{language}_test.json", encoding="utf-8") as handle:
        data = json.load(handle)
    return [[quad(t) for t in dialogue["triplets"] if t[6] != -1] for dialogue in data]


def quad_string(quads):
    return " & ".join(" | ".join(q) for q in quads)


def released(language):
    """The released test set's dialogues as DiaASQ's gold file holds them."""
    with open(DATA / f"diaasq_{language}_test.json", encoding="utf-8") as handle:
        return json.load(handle)


# ---------------------------------------------------------------------------------------
# Random dialogues and predictions in DiaASQ's file format, for the differential test
# against its run_eval.py (tests/diaasq_reference.py). random.Random with a seed draws the
# same dialogues on every Python, so the test regenerates what the script scored.

PAIRS = {"ta": (0, 1, 2, 3), "to": (0, 1, 4, 5), "ao": (2, 3, 4, 5)}
POLARITIES = ("pos", "neg", "neu", "doubt", "amb", "other", "POS", "")
WORDS = ("手机", "好", "12x", "续航", "battery", "is", "not", "great", "，", "Wi-Fi", "[", "允悲", "]")


def _span(rng, tokens):
    """A (start, end) span, end exclusive, or (-1, -1) for an implicit element; now and then
    a lone -1 (DiaASQ skips any triplet with a -1) or an end past the dialogue."""
    if not tokens or rng.random() < 0.15:
        return [-1, -1] if rng.random() < 0.9 or not tokens else [rng.randrange(tokens), -1]
    start = rng.randrange(tokens)
    return [start, start + rng.choice((1, 1, 2, 3, 5)) if rng.random() < 0.95 else tokens + 3]


def _triplet(rng, tokens):
    spans = _span(rng, tokens) + _span(rng, tokens) + _span(rng, tokens)
    polarity = rng.choice(POLARITIES)
    if -1 in spans and rng.random() < 0.3:
        polarity = -1  # DiaASQ's target-aspect pair without an opinion
    return spans + [polarity, rng.choice(WORDS), rng.choice(("", *WORDS)), rng.choice(WORDS)]


def _repeat(rng, items):
    """items with some entries repeated, in a shuffled order."""
    items = items + [list(rng.choice(items)) for _ in range(rng.randrange(3))] if items else items
    rng.shuffle(items)
    return items


def random_dialogue(rng, doc_id):
    """A gold dialogue: utterances of 0-12 tokens (white space of several kinds between
    them), replies of any shape (a thread tree, or arbitrary integers), triplets with
    implicit elements, repeats, and element lists with their texts."""
    utterances = rng.randint(1, 8)
    sentences = [rng.choice((" ", "  ", "\t", " \u3000")).join(rng.choice(WORDS) for _ in range(rng.randrange(13))) for _ in range(utterances)]
    if rng.random() < 0.7:
        replies = [-1] + [rng.randint(-1, i - 1) for i in range(1, utterances)]
    else:
        replies = [rng.randint(-3, 9) for _ in range(utterances + rng.randrange(2))]
    tokens = sum(len(s.split()) for s in sentences)
    triplets = _repeat(rng, [_triplet(rng, tokens) for _ in range(rng.randrange(9))])
    lists = {}
    for key, at in (("targets", 0), ("aspects", 2), ("opinions", 4)):
        spans = [t[at : at + 2] + [t[7 + at // 2]] for t in triplets if -1 not in t[at : at + 2]]
        spans += [_span(rng, tokens) + ["x"] for _ in range(rng.randrange(2))]
        lists[key] = _repeat(rng, [s + ["pos"] if key == "opinions" else s for s in spans])
    return {"doc_id": doc_id, "sentences": sentences, "replies": replies, "triplets": triplets, **lists}


def _nudge(rng, triplet, tokens):
    """A near miss: one span index moved by one (kept a valid start), or the polarity changed."""
    t = list(triplet)
    k = rng.randrange(7)
    if k == 6 or not tokens:
        t[6] = rng.choice(POLARITIES)
    elif t[k] != -1:
        t[k] = min(max(t[k] + rng.choice((-1, 1)), 0), tokens - 1 if k % 2 == 0 else tokens + 3)
    return t


def random_prediction(rng, gold, lists=True):
    """A prediction for `gold` as DiaASQ's save2file writes one: triplets kept, dropped,
    nudged, repeated, made implicit or made up, and (lists) element and pair lists drawn
    from its triplets and the gold's, with near misses."""
    tokens = sum(len(s.split()) for s in gold["sentences"])
    triplets = [t for t in gold["triplets"] if rng.random() < 0.7]
    triplets = [_nudge(rng, t, tokens) if rng.random() < 0.3 else list(t) for t in triplets]
    triplets += [_triplet(rng, tokens) for _ in range(rng.randrange(3))]
    prediction = {"doc_id": gold["doc_id"], "triplets": _repeat(rng, triplets)}
    if lists:
        for key in ("targets", "aspects", "opinions"):
            spans = [s[:2] for s in gold[key] if rng.random() < 0.7] + [_span(rng, tokens) for _ in range(rng.randrange(2))]
            prediction[key] = _repeat(rng, [[s[0], s[1] + (rng.random() < 0.2)] for s in spans])
        for key, pick in PAIRS.items():
            pairs = [[t[k] for k in pick] for t in gold["triplets"] + triplets if rng.random() < 0.6]
            prediction[key] = _repeat(rng, [p if rng.random() < 0.9 else [p[0], p[1], p[2], p[3] + 1] for p in pairs])
    return prediction


def random_corpora(seed, dialogues):
    """Corpora of 1-30 random dialogues, `dialogues` in all: (gold, predictions) pairs, the
    predictions in another order (DiaASQ pairs them by doc_id); a corpus in five gives
    triplets alone (no element or pair lists, which DiaASQ's own code cannot score)."""
    rng = random.Random(seed)
    corpora, made = [], 0
    while made < dialogues:
        size = min(rng.randint(1, 30), dialogues - made)
        gold = [random_dialogue(rng, f"{made + i:05d}") for i in range(size)]
        lists = rng.random() < 0.8
        predictions = [random_prediction(rng, g, lists) for g in gold]
        rng.shuffle(predictions)
        corpora.append((gold, predictions))
        made += size
    return corpora


def with_pairs(gold):
    """A gold dialogue as a perfect prediction: its triplets and element lists, and the pair
    lists of its triplets without -1 (what DiaASQ derives from gold)."""
    out = {"doc_id": gold["doc_id"], "triplets": gold["triplets"], **{k: gold[k] for k in ("targets", "aspects", "opinions")}}
    out.update({key: [[t[k] for k in pick] for t in gold["triplets"] if all(t[k] != -1 for k in pick)] for key, pick in PAIRS.items()})
    return out
