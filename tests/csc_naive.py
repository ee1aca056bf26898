"""csc_sighan's and csc_common's per-sentence counts the straightforward way, one sentence
at a time in plain Python, written from the definitions of the cards (spaces/csc_sighan/
README.md, spaces/csc_common/README.md) and /work/shared/specs/csc.md for equal-length
(source, prediction, reference) triples: the differential tests' second opinion on the
vectorised counts (tests/test_csc_differential.py)."""


def edits(source, text):
    """A sentence's edits: {1-based position: character} where it differs from its source."""
    if len(text) != len(source):
        raise ValueError("the oracle reads equal-length sentences only")
    return {i: c for i, (s, c) in enumerate(zip(source, text), 1) if s != c}


def sighan(source, prediction, reference, version="2015", subtask=None, correction_match="subset"):
    """One sentence's 0/1 flags under a SIGHAN definition, named as return_counts names them."""
    d, g = edits(source, prediction), edits(source, reference)
    same = d.keys() == g.keys()  # two empty sets included
    if version in ("2014", "2015"):
        if not g:  # error-free: FP if it returns edits, else TN, at both levels
            cell = "fp" if d else "tn"
            return {f"{level}_{cell}": 1 for level in ("detection", "correction")}
        detected = bool(d) and same
        if correction_match == "subset":  # the jar: the predicted characters among the gold ones
            corrected = detected and set(d.values()) <= set(g.values())
        elif correction_match == "set":  # CCL2022 track 1: the two sets of characters equal
            corrected = detected and set(d.values()) == set(g.values())
        else:
            corrected = detected and d == g
        return {f"detection_{'tp' if detected else 'fn'}": 1, f"correction_{'tp' if corrected else 'fn'}": 1}
    if subtask == 1:
        return {
            "clean_sentences": int(not g), "erroneous_sentences": int(bool(g)),
            "flagged_sentences": int(bool(d)), "false_alarms": int(bool(d) and not g),
            "detection_hits": int(bool(d) and bool(g)), "detection_right": int(bool(d) == bool(g)),
            "location_right": int(same), "location_hits": int(same and bool(g)),
        }  # fmt: skip
    # subtask 2: only sentences with gold errors are scored; precision's denominator counts
    # every sentence that returned corrections
    return {
        "scored_sentences": int(bool(g)), "returned_sentences": int(bool(d)),
        "location_right": int(bool(g) and same), "correction_right": int(bool(g) and d == g),
    }  # fmt: skip


def common(source, prediction, reference, first_punctuation=False, change=False, ignore=""):
    """One sentence's counts for csc_common's presets that read the plain position-by-position
    edits (D predicted, G gold), named as return_counts names them. first_punctuation:
    SpellGCN's label writer, which drops a predicted 。 or ， at the first position.
    change: FASPell non-strict's detection accuracy, right for the reference or for any
    change of an erroneous sentence. ignore: source characters whose edits are not scored
    (ignore_chars)."""
    d, g = edits(source, prediction), edits(source, reference)
    d, g = ({i: c for i, c in side.items() if source[i - 1] not in ignore} for side in (d, g))
    if first_punctuation and d.get(1) in ("。", "，"):
        del d[1]
    hits = d.keys() & g.keys()
    exact = {i for i in hits if d[i] == g[i]}
    # Pointer-Net recall: in a sentence with a hit, a gold position is missed when its gold
    # character is not among the characters predicted at the hit positions
    chars_at_hits = {d[i] for i in hits}
    misses = sum(c not in chars_at_hits for c in g.values()) if hits else 0
    same = d.keys() == g.keys()
    return {
        "sentences": 1, "gold_sentences": int(bool(g)), "predicted_sentences": int(bool(d)),
        "detected_sentences": int(bool(d) and same), "corrected_sentences": int(bool(d) and d == g),
        "detection_hits": int(d == g or bool(d) and bool(g)) if change else int(same), "correction_hits": int(d == g),
        "clean_flagged": int(bool(d) and not g), "untouched_erroneous": int(bool(g) and not d),
        "gold_chars": len(g), "predicted_chars": len(d), "predicted_chars_erroneous": len(d) if g else 0,
        "position_hits": len(hits), "exact_hits": len(exact), "membership_misses": misses,
    }  # fmt: skip


def summed(rows, names):
    """The column sums of per-sentence count dicts (missing names count 0)."""
    return {name: sum(row.get(name, 0) for row in rows) for name in names}
