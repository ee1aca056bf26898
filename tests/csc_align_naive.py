"""length_mismatch="align" the straightforward way, one sentence at a time in plain Python,
written from the rule the cards state: a sentence as long as its source is read position
by position; another is aligned with its source by keeping their longest common prefix,
then the longest common suffix of the rest, and filling the full Levenshtein table of the
middle, traced back from the end preferring keep/substitute, then delete, then insert.
The benchmark's baseline and the tests' second opinion on the vectorised alignment.
"""

import functools


def distance(a, b):
    """The Levenshtein distance (unit costs), by the textbook two-row recurrence."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row = row, [i]
        for j, y in enumerate(b, 1):
            row.append(min(previous[j - 1] + (x != y), previous[j] + 1, row[j - 1] + 1))
    return row[-1]


def aligned_edits(source, text):
    """The set of a sentence's edits: ("sub", position, char), ("delete", position, char)
    (the deleted source character), ("insert", position, string) (before source character
    `position`), positions 1-based in the source."""
    if len(source) == len(text):
        return {("sub", i, c) for i, (s, c) in enumerate(zip(source, text), 1) if s != c}
    k = 0
    while k < min(len(source), len(text)) and source[k] == text[k]:
        k += 1
    q = 0
    while q < min(len(source), len(text)) - k and source[-1 - q] == text[-1 - q]:
        q += 1
    a, b = source[k : len(source) - q], text[k : len(text) - q]
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            if i == 0 or j == 0:
                table[i][j] = i + j
            else:
                table[i][j] = min(table[i - 1][j - 1] + (a[i - 1] != b[j - 1]), table[i - 1][j] + 1, table[i][j - 1] + 1)
    edits, inserted, i, j = set(), {}, len(a), len(b)
    while i or j:
        if i and j and table[i][j] == table[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            if a[i - 1] != b[j - 1]:
                edits.add(("sub", k + i, b[j - 1]))
            i, j = i - 1, j - 1
        elif i and table[i][j] == table[i - 1][j] + 1:
            edits.add(("delete", k + i, a[i - 1]))
            i -= 1
        else:
            inserted[k + i + 1] = b[j - 1] + inserted.get(k + i + 1, "")
            j -= 1
    return edits | {("insert", position, string) for position, string in inserted.items()}


def positions(edits):
    """What a detection compares: substitutions by position, insertions and deletions whole."""
    return {edit[1] if edit[0] == "sub" else edit for edit in edits}


def realise(sources, predictions, references):
    """ReaLiSe's sentence level (every changed sentence in P's denominator) over the aligned
    edits: detected = the same positions, corrected = the same edits."""
    tp = ctp = hit = chit = flagged = erroneous = 0
    for source, prediction, reference in zip(sources, predictions, references):
        predicted, gold = aligned_edits(source, prediction), aligned_edits(source, reference)
        same, exact = positions(predicted) == positions(gold), predicted == gold
        flagged += bool(predicted)
        erroneous += bool(gold)
        hit += same
        chit += exact
        tp += bool(predicted) and same
        ctp += bool(predicted) and exact

    def ratio(a, b):
        return a / b if b else 0.0

    out = {}
    for level, right, positive in (("detection", hit, tp), ("correction", chit, ctp)):
        p, r = ratio(positive, flagged), ratio(positive, erroneous)
        out[f"sentence_{level}_accuracy"] = ratio(right, len(sources))
        out.update({f"sentence_{level}_precision": p, f"sentence_{level}_recall": r, f"sentence_{level}_f1": 2 * p * r / (p + r) if p + r else 0.0})
    return out


def from_groups(pairs):
    """A sentence's edits as paperscore lists them (Edits.groups(): (position, char), an
    insertion's char "<insert before: ...>", a deletion's "<delete: ...>") in this module's form."""
    out = set()
    for position, char in pairs:
        for kind, label in (("insert", "<insert before: "), ("delete", "<delete: ")):
            if char.startswith(label):
                out.add((kind, position, char[len(label) : -1]))
                break
        else:
            out.add(("sub", position, char))
    return out


@functools.lru_cache(maxsize=None)
def errant_edits(source, text):
    """simple-csc's alignment as its docs state it, the plain way: the full Levenshtein
    table (unit costs) where each cell records a keep when the characters are equal, else
    the first cheapest of substitute, insert, delete; traced back from the end. Returns the
    non-keeps, left to right, as (op, b, e, b', e'): source span [b, e), text span [b', e')."""
    rows, columns = len(source) + 1, len(text) + 1
    cost = [[0] * columns for _ in range(rows)]
    move = [[""] * columns for _ in range(rows)]
    for i in range(rows):
        for j in range(columns):
            if i == 0 and j == 0:
                continue
            if i == 0:
                cost[i][j], move[i][j] = j, "I"
            elif j == 0:
                cost[i][j], move[i][j] = i, "D"
            elif source[i - 1] == text[j - 1]:
                cost[i][j], move[i][j] = cost[i - 1][j - 1], "M"
            else:
                options = [(cost[i - 1][j - 1] + 1, "S"), (cost[i][j - 1] + 1, "I"), (cost[i - 1][j] + 1, "D")]
                cost[i][j], move[i][j] = min(options, key=lambda option: option[0])  # min keeps the first of equals
    out, i, j = [], rows - 1, columns - 1
    while i or j:
        op = move[i][j]
        if op in "MS":
            if op == "S":
                out.append(("S", i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
        elif op == "D":
            out.append(("D", i - 1, i, j, j))
            i -= 1
        else:
            out.append(("I", i, i, j - 1, j))
            j -= 1
    return out[::-1]


def llm_counts(source, reference, prediction, target_span=False, ignore=frozenset()):
    """One sentence's counts under the simple-csc comparison (target_span: MSLLM's): an
    edit's key is its source span (and text span), its identity the key plus its new text;
    edits of an ignored source character skipped."""
    sides = []
    for text in (reference, prediction):
        keys, identities = [], []
        for op, b, e, b2, e2 in errant_edits(source, text):
            if op != "I" and source[b] in ignore:
                continue
            key = (b, e, b2, e2) if target_span else (b, e)
            keys.append(key)
            identities.append((key, text[b2:e2]))
        sides.append((keys, identities))
    (gold_keys, gold_edits), (keys, edits) = sides
    flagged, erroneous = bool(keys), bool(gold_keys)
    return {
        "gold_sentences": int(erroneous),
        "predicted_sentences": int(flagged),
        "detected_sentences": int(flagged and set(keys) == set(gold_keys)),
        "corrected_sentences": int(flagged and set(edits) == set(gold_edits)),
        "clean_flagged": int(flagged and not erroneous),
        "gold_chars": len(gold_keys),
        "predicted_chars": len(keys),
        "position_hits": sum(key in set(gold_keys) for key in keys),
        "exact_hits": sum(edit in set(gold_edits) for edit in edits),
    }
