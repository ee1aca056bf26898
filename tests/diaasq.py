"""DiaASQ's test sets (tests/data/quad_match/, MIT) as sentiment quads and quad strings.

DiaASQ stores each triplet as [t_start, t_end, a_start, a_end, o_start, o_end, polarity,
target, aspect, opinion]: target-aspect-opinion order. quad_match strings are target |
opinion | aspect | polarity, so the elements are re-ordered. Entries whose polarity is -1
(a target and aspect without an opinion) are not sentiment quads and are left out; an
implicit (empty) target or aspect is written NULL, as ASQP writes implicit aspects.
"""

import json
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
