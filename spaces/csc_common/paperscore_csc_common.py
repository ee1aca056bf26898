# GENERATED from shared/paperscore/csc_common.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Chinese spelling check as papers score it: every published convention by name, each
equal to one project's released evaluation code (ReaLiSe, SCOPE, SpellGCN, PLOME,
CRASpell, Confusionset-guided Pointer Networks, FASPell, CSCD-NS, pycorrector, PaddleNLP,
LEMON), with the quirks that shaped its published numbers, side by side from one pass.

Statistics: one row of counts per sentence (COLUMNS), from the predicted and gold edits of
paperscore.csc; every figure of every preset is a ratio of column sums (PRESETS says which).
A preset reads the edits in its own way only where its code does (a length mismatch,
SpellGCN's first-position punctuation); presets that read them alike share one table.
"""

from typing import NamedTuple

import numpy as np

from .paperscore_core import (
    check_flags,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    compared_files,
    divide,
    harmonic_mean,
    input_error,
    isin,
    signature,
    with_references,
)
from .paperscore_csc import (
    LENGTH_MISMATCH,
    LabelFile,
    corpus,
    extract_edits,
    isin_sentence,
    label_edits,
    label_input,
    match,
    read_sources,
)
from . import paperscore_csc_llm as csc_llm
from .paperscore_family import Batch, Family, evaluate, scoring_options
from .paperscore_parse import add_reply_arguments, check_parser_options, get_parser, parser_id, read_replies, read_reply_file

CHAR_SUBSETS = ("all", "erroneous")
SPACE = "csc_common"
EXTRA_INPUTS = ("sources",)  # compared inputs beside the systems, kept out of signatures


class Preset(NamedTuple):
    """The counting rules of one project's evaluation code (see the card's table).

    sentence: None (no sentence level), "paper" (ReaLiSe: P over every sentence with an
    edit), "official" (P over right answers and flagged error-free sentences), "string"
    (pycorrector: whole strings, correction only) or "change" (LEMON: any change of an
    erroneous sentence is a detection). char: None, "all_edits" (correction P over every
    predicted edit), "detected" (over correctly detected positions) or "membership" (the
    Pointer-Net recall). sentence_epsilon, char_epsilon: added to the P/R denominators of
    that level (0: the zero-division policy); f1_epsilon: added to P + R in F1 (0: F1 = 0
    when P + R = 0). accuracy: the level has one. length: how the
    code meets a sentence whose length differs from its source (see _edit_views).
    quirks: "position_zero" (SpellGCN's untouched erroneous sentence is one detection FP),
    "first_punctuation" (SpellGCN drops a predicted 。/， at the first position), "joint"
    (SpellGCN's dc_joint line), "correction2" (CRASpell's second correction precision),
    "false_positive_rate" (LEMON), "rounding" (CSCD-NS: percentages to 3 decimals), "f0.5"
    (F0.5 beside each F1, from the same P and R: the scripts print none, but ChERRANT and
    the 2024-25 text-correction contests rank by it)."""

    sentence: str = None
    accuracy: bool = False
    char: str = None
    char_subset: str = "all"
    sentence_epsilon: float = 0.0
    char_epsilon: float = 0.0
    f1_epsilon: float = 0.0
    length: str = "error"
    quirks: frozenset = frozenset()
    normalize: tuple = ()  # csc_llm.NORMALIZATIONS the code applies before scoring


PRESETS = {
    "realise": Preset("paper", accuracy=True, length="shorter"),
    "scope": Preset("paper", accuracy=True, char="detected", length="shorter"),
    "spellgcn": Preset("paper", char="detected", char_subset="erroneous", f1_epsilon=1e-8, quirks=frozenset({"position_zero", "first_punctuation", "joint"})),
    "plome": Preset("paper", char="detected", char_subset="erroneous", char_epsilon=1e-3, f1_epsilon=1e-13),
    "craspell": Preset(char="detected", char_epsilon=1e-3, f1_epsilon=1e-13, quirks=frozenset({"correction2"})),
    "pointer": Preset(char="membership", length="longer"),
    "faspell": Preset("paper", accuracy=True, char="all_edits", length="zip"),
    # FASPell test_unit(strict=False) = ECSpell compute_metrics(strict=False): any change of an erroneous sentence detects it
    "faspell_nonstrict": Preset("change", accuracy=True, char="all_edits", length="zip"),
    "cscd_ns": Preset("paper", char="all_edits", f1_epsilon=1e-10, quirks=frozenset({"rounding"})),
    "pycorrector": Preset("string", accuracy=True, length="whole"),
    "paddle": Preset("official", f1_epsilon=1e-9),
    "lemon": Preset("change", sentence_epsilon=1e-12, f1_epsilon=1e-12, length="whole", quirks=frozenset({"false_positive_rate"})),
    # LLM correctors: every sentence aligned (csc_llm); "errant_target" keys an edit on its target span too
    "simple_csc": Preset("paper", char="all_edits", f1_epsilon=1e-10, length="errant", normalize=csc_llm.OWN_NORMALIZATION, quirks=frozenset({"rounding", "false_positive_rate", "f0.5"})),
    # C-LLM calcuate_metric.py: difflib's equal-length replacements of Chinese characters projected onto the source, then CSCD-NS
    "cllm": Preset("paper", char="all_edits", f1_epsilon=1e-10, length="project", quirks=frozenset({"rounding", "f0.5"})),
    "msllm": Preset("paper", char="all_edits", f1_epsilon=1e-10, length="errant_target", normalize=csc_llm.OWN_NORMALIZATION + ("drop_unequal", "ignore_punct", "ignore_letters"), quirks=frozenset({"rounding", "false_positive_rate", "f0.5"})),
}  # fmt: skip
ERRANT = ("errant", "errant_target")  # the length rules of presets that align every sentence
ALIGNING = ERRANT + ("project",)  # length rules that rewrite equal-length sentences too
VARIANTS = tuple(PRESETS)

# The per-sentence counts every figure is a ratio of.
COLUMNS = (
    "sentences",
    "gold_sentences",  # with a gold edit
    "predicted_sentences",  # with a predicted edit
    "detected_sentences",  # with a predicted edit, at exactly the gold positions
    "corrected_sentences",  # with a predicted edit, exactly the gold edits
    "detection_hits",  # right for the detection accuracy (ReaLiSe: same positions, two empty sets included)
    "correction_hits",  # right for the correction accuracy (same edits; FASPell: the same string)
    "clean_flagged",  # error-free with a predicted edit
    "untouched_erroneous",  # with a gold edit and no predicted edit
    "gold_chars",
    "predicted_chars",
    "predicted_chars_erroneous",  # predicted edits of sentences with a gold edit
    "position_hits",  # predicted positions that are gold positions
    "exact_hits",  # predicted (position, char) pairs that are gold pairs
    "membership_misses",  # Pointer-Net FN: gold chars not among the chars predicted at hit positions
)
# (a, b): a <= b in every row (a sentence or edit counts in a only where it counts in b)
CHECKS = (
    ("gold_sentences", "sentences"), ("predicted_sentences", "sentences"), ("detected_sentences", "predicted_sentences"),
    ("corrected_sentences", "detected_sentences"), ("detection_hits", "sentences"), ("correction_hits", "sentences"),
    ("clean_flagged", "predicted_sentences"), ("untouched_erroneous", "gold_sentences"),
    ("exact_hits", "predicted_chars"), ("exact_hits", "gold_chars"), ("position_hits", "predicted_chars"),
)  # fmt: skip
DE = np.array([ord("地"), ord("得")])
FIRST_PUNCTUATION = np.array([ord("。"), ord("，")])


def corpora(**corpora):
    """The corpus arguments (predictions, references, sources, ...) as lists, each through
    csc.corpus (a bare string is an error, not one sentence per character); sources may
    be None (label lines)."""
    return {name: values if values is None and name == "sources" else corpus(values, name) for name, values in corpora.items()}


# Conventions with published code that no preset reproduces, refused by name with the reason.
REFUSED = {
    "cllm_cherrant": (
        "C-LLM's default --mode cherrant projects predictions with ChERRANT's `parallel_to_m2.py -g word`, "
        "whose edits follow the words of the LTP 4.1 neural segmenter (model weights this package does not "
        "install); a character-level restatement would give other numbers, so it is not offered: "
        "variant 'cllm' is C-LLM's difflib mode"
    ),
}  # fmt: skip


def check_options(variant, char_subset, length_mismatch, remove_de, labels=False):
    """The presets a call scores: all of them for "all" (from label lines, those that
    read sentence pairs)."""
    if isinstance(variant, str) and variant in REFUSED:
        raise ValueError(f"variant: {variant!r}: {REFUSED[variant]}")
    check_choice("variant", variant, VARIANTS + ("all",))
    if variant != "all" and PRESETS[variant].length in ERRANT:
        if length_mismatch is not None:
            raise ValueError(f"length_mismatch: variant {variant!r} reads every sentence as its code does; it takes no length_mismatch")
        if labels:
            raise ValueError(f"sources: variant {variant!r} aligns sentences, it cannot read label lines (pass sources)")
        if remove_de:
            raise ValueError(f"remove_de: variant {variant!r} is not scored with ReaLiSe's SIGHAN13 post-processing")
    if char_subset is not None:
        check_choice("char_subset", char_subset, CHAR_SUBSETS)
        if variant != "all" and PRESETS[variant].char is None:
            raise ValueError(f"char_subset: variant {variant!r} has no character level")
    if length_mismatch is not None:
        check_choice("length_mismatch", length_mismatch, LENGTH_MISMATCH)
    check_flags(remove_de=remove_de)
    if variant != "all":
        return (variant,)
    return tuple(v for v in VARIANTS if not labels or PRESETS[v].length not in ERRANT)


def check_ignore_chars(ignore_chars, labels):
    """ignore_chars as a str ("" for None); refused with label lines (no source characters)."""
    if ignore_chars is None or ignore_chars == "":
        return ""
    if not isinstance(ignore_chars, str):
        raise ValueError(f"ignore_chars: {ignore_chars!r} is not a string of characters")
    if labels:
        raise ValueError("ignore_chars: label lines have no source characters (pass sources)")
    return "".join(sorted(set(ignore_chars)))


# ---------------------------------------------------------------------------------------
# Edits, read as each preset's code reads them


def _view(preset, length_mismatch):
    """What sets a preset's edits apart: its length rule and SpellGCN's punctuation drop.
    C-LLM always projects the predictions (equal-length ones too); length_mismatch, if
    given, is then the rule for its references ("project/<rule>", by default its assert)."""
    if preset.length == "project":
        rule = f"project/{length_mismatch or 'error'}"
    else:
        rule = length_mismatch or preset.length
    return (rule, "first_punctuation" in preset.quirks)


def _edit_views(predictions, references, sources, views, remove_de, ignore=frozenset()):
    """{view: (predicted Edits, gold Edits, strings or None)}, one edit
    extraction for all views unless some sentence's length differs from its source.

    Length rules: "error", "truncate", "whole", "align" (paperscore.csc); the presets' own:
    "shorter" (ReaLiSe cuts the source to a shorter prediction and asserts on a longer
    one), "longer" (the Pointer-Net code indexes prediction and reference by the source:
    a shorter one fails, a longer one is cut), "zip" (FASPell zips the three strings,
    yet its accuracy compares whole strings)."""
    if label_input(sources):
        _, predicted, gold = label_edits(predictions, references)
        by_rule = {rule: (predicted, gold, None) for rule, _ in views}
    else:
        check_same_length(predictions, references)
        rules = {rule for rule, _ in views}
        # "align" is every preset's rule or none's (length_mismatch=); it reads equal lengths as "truncate" does
        first = "align" if "align" in rules else "truncate"
        predicted, gold = extract_edits(sources, predictions, references, length_mismatch=first)
        lengths = [np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) for texts in (sources, predictions, references)]
        differ = np.flatnonzero((lengths[1] != lengths[0]) | (lengths[2] != lengths[0]))
        by_rule = {}
        for rule in sorted(rules):
            if rule.startswith("project/"):  # C-LLM: every prediction projected onto its source first
                (projected,) = extract_edits(sources, csc_llm.projected(sources, predictions), names=("predictions",))
                (reference,) = extract_edits(sources, references, names=("references",), length_mismatch=rule.split("/")[1])
                by_rule[rule] = (projected, reference, None)
            elif not len(differ) or rule == "align":
                by_rule[rule] = (predicted, gold, None)
            else:
                by_rule[rule] = _length_rule(rule, predictions, references, sources, lengths, differ, (predicted, gold))
        if ignore:
            by_rule = _without_ignored(by_rule, sources, ignore)
    out, done = {}, {}
    for rule, first_punctuation in views:
        predicted, gold, strings = by_rule[rule]
        drop = np.zeros(len(predicted.char), dtype=bool)
        if remove_de:  # ReaLiSe's and SCOPE's SIGHAN13 post-processing: predicted 地/得 edits go
            drop |= isin(predicted.char, DE)
        if first_punctuation:  # SpellGCN's label writer skips a predicted 。/， at the first position
            drop |= (predicted.position == 1) & isin(predicted.char, FIRST_PUNCTUATION)
        if drop.any():
            predicted = predicted.keep(~drop)
        # Views that read the edits alike share one object, hence one block of the table.
        key = (id(predicted), id(gold), id(strings))
        out[rule, first_punctuation] = done.setdefault(key, (predicted, gold, strings))
    return out


def _without_ignored(by_rule, sources, ignore):
    """Each rule's edits without those of a source character in `ignore` (an edit at a
    position of its source; under "whole" and "align", an edit of a sentence of another
    length is kept). Edits read alike stay one object."""
    lengths = np.fromiter(map(len, sources), dtype=np.int64, count=len(sources))
    starts = np.cumsum(lengths) - lengths
    points = np.frombuffer("".join(sources).encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    wanted = np.array(sorted(map(ord, ignore)), dtype=np.int64)
    done = {}

    def kept(edits):
        if id(edits) not in done:
            inside = (edits.position >= 1) & (edits.position <= lengths[edits.sentence])
            char = np.where(inside, points[np.where(inside, starts[edits.sentence] + edits.position - 1, 0)] if len(points) else -1, -1)
            done[id(edits)] = edits.keep(~isin(char, wanted))
        return done[id(edits)]

    return {rule: (kept(p), kept(g), strings) for rule, (p, g, strings) in by_rule.items()}


def _length_rule(rule, predictions, references, sources, lengths, differ, truncated):
    source, predicted, reference = lengths
    if rule in ("error", "whole"):
        return (*extract_edits(sources, predictions, references, length_mismatch=rule), None)  # "error" raises
    if rule == "shorter":
        _refuse("predictions", np.flatnonzero(predicted > source), predicted, source, "more than", "ReaLiSe asserts on a longer prediction")
        # ReaLiSe's gold comes as label lines, edits of the source's characters: a reference
        # sentence of another length has no such reading (cutting it would drop gold edits).
        _refuse("references", np.flatnonzero(reference != source), reference, source, "not as many as", "ReaLiSe's gold edits are edits of the source's characters")
    elif rule == "longer":
        for name, side in (("predictions", predicted), ("references", reference)):
            _refuse(name, np.flatnonzero(side < source), side, source, "fewer than", "the Pointer-Net code indexes it by its source")
    elif rule == "zip":
        common = np.minimum(np.minimum(source, predicted), reference)
        cut = [edits.keep(edits.position <= common[edits.sentence]) for edits in truncated]
        equal = np.array([predictions[i] == references[i] for i in differ.tolist()], dtype=bool)
        return (*cut, (differ, equal))
    return (*truncated, None)


def _refuse(name, where, side, source, relation, why):
    if len(where):
        i = int(where[0])
        raise input_error(
            name, i,
            f"has {side[i]} characters, {relation} sources[{i}] ({source[i]}): {why} "
            "(pass length_mismatch='truncate', 'whole' or 'align' to score such sentences)",
        )  # fmt: skip


def statistics(predicted, gold, strings=None, change=False):
    """The (n, len(COLUMNS)) counts of each sentence. `strings`, (sentences, whether the
    prediction equals the reference), replaces the edit comparison in the accuracies of
    those sentences (FASPell zips the strings, but its accuracy compares them whole).
    change: any change of an erroneous sentence is right for the detection accuracy too
    (FASPell non-strict: the reference, or a detection)."""
    m = match(predicted, gold)
    flagged, erroneous = m.predicted > 0, m.gold > 0
    # Pointer-Net recall: a gold position of a sentence with a correctly detected position
    # is missed when its gold char is not among the chars predicted at those positions.
    hit = predicted.keep(m.hit)
    known = isin_sentence(gold.sentence, gold.char, hit.sentence, hit.char)
    misses = np.bincount(gold.sentence[~known], minlength=gold.n) * (m.position_hits > 0)
    detected, corrected = flagged & m.same_positions, flagged & m.same_edits
    detection_hits, correction_hits = m.same_positions, m.same_edits
    if strings is not None:
        where, equal = strings
        correction_hits = correction_hits.copy()
        correction_hits[where] = equal
        detection_hits = detection_hits.copy()
        detection_hits[where] = equal | detected[where]
    if change:
        detection_hits = correction_hits | (flagged & erroneous)
    columns = [
        np.ones(gold.n, dtype=bool), erroneous, flagged, detected, corrected, detection_hits, correction_hits,
        flagged & ~erroneous, erroneous & ~flagged, m.gold, m.predicted, m.predicted * erroneous,
        m.position_hits, m.exact_hits, misses,
    ]  # fmt: skip
    return np.stack(columns, axis=1, dtype=np.int64)


# ---------------------------------------------------------------------------------------
# Figures from column sums


def _round3(values):
    """round(value, 3) as Python rounds it (from the decimal value, not by scaling)."""
    return np.asarray(np.frompyfunc(lambda v: round(v, 3), 1, 1)(np.asarray(values, dtype=float)), dtype=float)


def _fraction(percent):
    """A percentage printed to 3 decimals as the fraction it stands for: the float nearest
    that decimal over 100 (55.556 / 100 alone is 0.5555599999999999, round(..., 5) 0.55556)."""
    return round(percent / 100, 5)


def _fractions(percents):
    """_fraction of each value of an array."""
    return np.asarray(np.frompyfunc(_fraction, 1, 1)(np.asarray(percents, dtype=float)), dtype=float)


def _prf(tp, n_predicted, n_gold, preset, epsilon, zd, beta=1.0):
    """Precision, recall and F1 (F-beta) as the preset's code computes them."""
    if epsilon:
        precision, recall = tp / (n_predicted + epsilon), tp / (n_gold + epsilon)
    else:
        precision, recall = divide(tp, n_predicted, zd), divide(tp, n_gold, zd)
    b2 = beta * beta  # F-beta = (1 + b2) P R / (b2 P + R): F1 for beta 1
    if "rounding" in preset.quirks:  # CSCD-NS: P and R in percent to 3 decimals, F1 from those
        p, r = _round3(precision * 100), _round3(recall * 100)
        return _fractions(p), _fractions(r), _fractions(_round3((1 + b2) * p * r / (b2 * p + r + preset.f1_epsilon)))
    if preset.f1_epsilon:
        return precision, recall, (1 + b2) * precision * recall / (b2 * precision + recall + preset.f1_epsilon)
    if beta != 1:
        return precision, recall, divide((1 + b2) * precision * recall, b2 * precision + recall, 0.0)
    return precision, recall, harmonic_mean(precision, recall)


def _level(out, name, accuracy, preset, *counts):
    """The figures of one level from its (tp, n_predicted, n_gold, epsilon, zd); F0.5
    beside F1 for the presets with "f0.5"."""
    if accuracy is not None:
        out[f"{name}_accuracy"] = accuracy
    out.update(zip((f"{name}_precision", f"{name}_recall", f"{name}_f1"), _prf(*counts[:3], preset, *counts[3:])))
    if "f0.5" in preset.quirks:  # ChERRANT's and the 2024-25 text-correction contests' F0.5
        out[f"{name}_f0.5"] = _prf(*counts[:3], preset, *counts[3:], beta=0.5)[2]


def figures(variant, sums, zero_division=0.0, char_subset=None):
    """Every figure of one preset from column sums of shape (..., len(COLUMNS))."""
    zd = check_zero_division(zero_division)
    preset = PRESETS[variant]
    c = dict(zip(COLUMNS, np.moveaxis(np.asarray(sums, dtype=float), -1, 0)))
    n, gold, flagged = c["sentences"], c["gold_sentences"], c["predicted_sentences"]
    out = {}
    eps = preset.sentence_epsilon
    accuracy = (lambda hits: divide(c[hits], n, zd)) if preset.accuracy else (lambda hits: None)
    if preset.sentence in ("paper", "change"):
        detected = c["detected_sentences"] if preset.sentence == "paper" else gold - c["untouched_erroneous"]
        _level(out, "sentence_detection", accuracy("detection_hits"), preset, detected, flagged, gold, eps, zd)
        _level(out, "sentence_correction", accuracy("correction_hits"), preset, c["corrected_sentences"], flagged, gold, eps, zd)
    elif preset.sentence == "official":
        for level, tp in (("detection", c["detected_sentences"]), ("correction", c["corrected_sentences"])):
            _level(out, f"sentence_{level}", None, preset, tp, tp + c["clean_flagged"], gold, eps, zd)
    elif preset.sentence == "string":
        tp = c["corrected_sentences"]
        _level(out, "sentence_correction", accuracy("correction_hits"), preset, tp, tp + c["clean_flagged"], gold, eps, zd)
    if "false_positive_rate" in preset.quirks:
        if "rounding" in preset.quirks:  # simple-csc: in percent to 3 decimals, over clean + 1e-10
            out["sentence_false_positive_rate"] = _fractions(_round3(100 * c["clean_flagged"] / (n - gold + 1e-10)))
        else:
            out["sentence_false_positive_rate"] = c["clean_flagged"] / (n - gold + eps)
    else:  # the code prints none: flagged error-free / error-free sentences (0/0: the policy)
        out["sentence_false_positive_rate"] = divide(c["clean_flagged"], n - gold, zd)
    if preset.char:
        predicted = c["predicted_chars_erroneous" if (char_subset or preset.char_subset) == "erroneous" else "predicted_chars"]
        hits, exact, gold_chars = c["position_hits"], c["exact_hits"], c["gold_chars"]
        eps = preset.char_epsilon
        false_alarms = c["untouched_erroneous"] if "position_zero" in preset.quirks else 0
        _level(out, "char_detection", None, preset, hits, predicted + false_alarms, gold_chars, eps, zd)
        if preset.char == "all_edits":
            _level(out, "char_correction", None, preset, exact, predicted, gold_chars, eps, zd)
        else:
            recall_base = exact + c["membership_misses"] if preset.char == "membership" else gold_chars
            _level(out, "char_correction", None, preset, exact, hits, recall_base, eps, zd)
        if "joint" in preset.quirks:  # SpellGCN's dc_joint line (Python 2: its zips are lists)
            _level(out, "char_joint", None, preset, exact, predicted, gold_chars, 1e-8, zd)
        if "correction2" in preset.quirks:  # CRASpell's correction-2: P over every predicted edit
            precision, _, f1 = _prf(exact, predicted, gold_chars, preset, eps, zd)
            out.update(char_correction2_precision=precision, char_correction2_f1=f1)
    return out


def ratios(sums, variants, blocks, zero_division=0.0, char_subset=None):
    """The figures of `variants` from the column sums of the table (one block of COLUMNS
    per view); keys prefixed `<variant>/` when there are several."""
    out = {}
    for variant, start in zip(variants, blocks):
        values = figures(variant, sums[..., start : start + len(COLUMNS)], zero_division, char_subset)
        out.update(values if len(variants) == 1 else {f"{variant}/{k}": v for k, v in values.items()})
    return out


def _table(predictions, references, sources, variants, length_mismatch, remove_de, shared=True, normalize=None, ignore_chars=""):
    """(per-sentence table, each variant's block start, {variant: (predicted, gold)}: Edits,
    or for the LLM presets functions giving lists of edits). shared: presets whose edits came out alike
    share one block of COLUMNS; otherwise one block per way of reading them, so that two
    systems' tables line up (paired tests). normalize: the csc_llm steps for every preset
    (None: none, and the LLM presets' own); a sentence dropped scores a row of zeros.
    ignore_chars: source characters whose edits no preset scores."""
    tables, blocks, edits, cache = {}, [], {}, {}  # cache: the sentences normalised (csc_llm.normalized)

    def add(key, make):
        if key not in tables:
            tables[key] = (len(tables) * len(COLUMNS), *make())
        blocks.append(tables[key][0])
        return tables[key][2]

    old = [variant for variant in variants if PRESETS[variant].length not in ERRANT]
    if old:
        texts = _normalized(predictions, references, sources, normalize or (), cache)
        views = {variant: _view(PRESETS[variant], length_mismatch) for variant in old}
        found = _edit_views(*texts[:3], set(views.values()), remove_de, csc_llm.ignored(normalize or (), ignore_chars))
    for variant in variants:
        preset = PRESETS[variant]
        if preset.length in ERRANT:
            steps = preset.normalize if normalize is None else normalize
            p, r, s, scored = _normalized(predictions, references, sources, steps, cache)
            target, ignore = preset.length == "errant_target", csc_llm.ignored(steps, ignore_chars)

            def make():
                rows, groups = csc_llm.statistics(p, r, s, COLUMNS, target, ignore)
                return _dropped(rows, scored, groups)

            edits[variant] = add(("errant", target, ignore, steps), make)
        else:
            view, change = found[views[variant]], preset.sentence == "change"
            key = (id(view) if shared else views[variant], change)
            add(key, lambda: _dropped(statistics(*view, change=change), texts[3], view[:2]))
            edits[variant] = view[:2]
    parts = [table for _, table, _ in tables.values()]
    rows = np.hstack(parts) if len(parts) > 1 else parts[0]
    return rows, blocks, edits


def _normalized(predictions, references, sources, steps, cache=None):
    """(predictions, references, sources, scored) after csc_llm.normalized."""
    if not steps:
        return predictions, references, sources, None
    if label_input(sources):
        raise ValueError("normalize: label lines are not sentences (pass sources to normalize)")
    s, p, r, scored = csc_llm.normalized(sources, predictions, references, steps, cache)
    if scored is not None:  # a dropped sentence is read as three empty strings (then its row zeroed)
        s, p, r = ([text if keep else "" for text, keep in zip(side, scored.tolist())] for side in (s, p, r))
    return p, r, s, scored


def _dropped(rows, scored, edits=None):
    """The rows with those of unscored sentences zero, and the edits."""
    if scored is not None:
        rows = rows * scored[:, None]
    return rows, edits


# ---------------------------------------------------------------------------------------
# compute


CLASSES = {
    # (flagged, erroneous, right) -> class; a wrong answer on an erroneous sentence is both
    # an FP and an FN where P is over every changed sentence, only an FN where it is not.
    "paper": {(1, 1, 1): "TP", (1, 1, 0): "FP+FN", (1, 0, 0): "FP", (0, 1, 0): "FN", (0, 0, 1): "TN"},
    "official": {(1, 1, 1): "TP", (1, 1, 0): "FN", (1, 0, 0): "FP", (0, 1, 0): "FN", (0, 0, 1): "TN"},
}


def _classes(rows, preset):
    kind = "official" if preset.sentence in ("official", "string") else "paper"
    flagged, erroneous = rows[:, 2].astype(bool), rows[:, 1].astype(bool)
    out = {}
    for level, column in (("detection", 3), ("correction", 4)):
        right = rows[:, column].astype(bool) | (~flagged & ~erroneous)
        if level == "detection" and preset.sentence == "change":
            right = right | (flagged & erroneous)
        keys = zip(flagged.tolist(), erroneous.tolist(), right.tolist())
        out[f"sentence_{level}_classes"] = [CLASSES[kind][key] for key in keys]
    if preset.sentence == "string":
        del out["sentence_detection_classes"]
    return out


def compute(
    predictions,
    references,
    sources=None,
    variant="realise",
    char_subset=None,
    length_mismatch=None,
    remove_de=False,
    normalize=None,
    ignore_chars=None,
    zero_division=0.0,
    return_counts=False,
    per_sentence=False,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
    parse=None,
    strict=False,
):
    """The figures of a corrected corpus under one paper's convention, or all of them.

    predictions, references, sources: sentences, the 1-based edits being the characters
    where each differs from its source; or, without sources, label lines (`pid, 0` /
    `pid, pos, char, ...`) matched by pid.
    variant: a name of PRESETS (default "realise"), or "all" (every preset, keys prefixed
    `<variant>/`). char_subset: "all" or "erroneous" (character level over the sentences
    with a gold edit only); None: the preset's own. length_mismatch: "error", "truncate",
    "whole" or "align" for every preset (see paperscore.csc); None: each preset as its code does.
    remove_de: drop predicted edits into 地 or 得 (ReaLiSe's and SCOPE's SIGHAN13
    post-processing). normalize: csc_llm.NORMALIZATIONS to apply to the sentences before
    scoring, for every preset ("none" or (): none); None: none, except the LLM presets' own (simple_csc and
    msllm, as their run.sh does). simple_csc and msllm align every sentence (csc_llm) and
    take neither length_mismatch nor remove_de (under "all" those apply to the others);
    from label lines "all" leaves them out. cllm projects every prediction (csc_llm.projected);
    length_mismatch then reads its references. ignore_chars: a string of source characters
    whose edits no preset scores (simple-csc's `--ignore_chars`), beside the preset's or
    normalize's "ignore_punct" / "ignore_letters". zero_division: the value of a ratio its
    code would divide by zero (presets that add an epsilon keep it).
    parse: a csc parser of paperscore.parse ("csc_reply", "cllm_reply", ...): predictions
    are a corrector's replies, each read into its sentence first (then normalize and the
    length rules as for any sentence). The result adds "parse_failures" (replies the
    parser does not recognise, or that its repository would not score as read: scored as
    the sentence read, "" for paperscore's own parsers)
    and "parse_failure_examples" (the first 0-based indices); the signature names the
    parser. strict: such a reply is a ValueError instead.
    """
    fam = family(variant=variant, char_subset=char_subset, length_mismatch=length_mismatch, remove_de=remove_de, normalize=normalize, ignore_chars=ignore_chars, parse=parse, strict=strict, zero_division=zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples)
    batch, edits = fam.read(predictions, references, sources)
    labels, parsed, rows = label_input(sources), batch.report, batch.table
    variants, blocks, sums = fam.variants(labels), fam.blocks(labels), rows.sum(0)
    steps, ignore_chars = fam.steps, fam.options["ignore_chars"]
    result = evaluate(fam, batch, confidence_level, n_resamples, seed)
    if return_counts:
        for name, start in zip(variants, blocks):
            counts = dict(zip(COLUMNS, sums[start : start + len(COLUMNS)].tolist()))
            result.update(counts if len(variants) == 1 else {f"{name}/{k}": v for k, v in counts.items()})
    if per_sentence:  # the first variant's reading (for "all": realise's)
        first = variants[0]
        if PRESETS[first].sentence:
            result.update(_classes(rows[:, blocks[0] : blocks[0] + len(COLUMNS)], PRESETS[first]))
        for key, side in zip(("predicted_edits", "reference_edits"), edits[first]):
            result[key] = side() if callable(side) else [[list(pair) for pair in pairs] for pairs in side.groups()]
    if parsed:
        result.update(parse_failures=parsed["parse_failures"], parse_failure_examples=parsed["parse_failure_examples"])
    if return_signature:
        options = {"parse": parsed["parser"]} if parsed else {}
        options.update(variant=variant, char_subset=char_subset or "preset", length_mismatch=length_mismatch or "preset")
        options.update(remove_de=remove_de, normalize="+".join(steps) if steps else ("none" if steps is not None else "preset"))
        if ignore_chars:
            options["ignore_chars"] = ignore_chars
        options.update(input="labels" if labels else "sentences", zero_division=fam.options["zero_division"])
        result["signature"] = with_references(signature("csc_common", **options, **bootstrap_options(confidence_level, n_resamples, seed)), references)
    return result


def headline(**options):
    """What `paperscore compare` compares by default: sentence-level correction F1, or
    character-level where a preset has no sentence level; realise's under variant="all"."""
    return family(**{name: value for name, value in options.items() if name in SCORING}).headline()


SCORING = ("variant", "char_subset", "length_mismatch", "remove_de", "normalize", "ignore_chars", "parse", "strict", "zero_division")


def family(**options):
    """csc_common's statistics (paperscore.family) for compute()'s scoring options."""
    return CscFamily(scoring_options(compute, options, SCORING, "csc_common"))


class CscFamily(Family):
    """csc_common's statistics: per sentence one block of COLUMNS (counts) per way of
    reading the edits, laid out from the options alone (and whether the input is label
    lines), so that every batch's rows line up. Label lines (no sources) pair lines by pid
    over the whole corpus: a corpus of them is read in one batch, and a state refuses to
    merge them with other examples (as csc_sighan's)."""

    name = "csc_common"
    inputs = ("sources",)

    def __init__(self, options):
        o = options
        check_options(o["variant"], o["char_subset"], o["length_mismatch"], o["remove_de"])
        self.steps = None if o["normalize"] is None else csc_llm.check_normalize(o["normalize"])
        o["ignore_chars"] = check_ignore_chars(o["ignore_chars"], False)
        check_parser_options(o["parse"], o["strict"])
        o["parse"] = None if o["parse"] is None else parser_id(get_parser(o["parse"], "csc"))
        o["zero_division"] = check_zero_division(o["zero_division"])
        super().__init__(o)

    @property
    def counts(self):  # made on demand: the empty table's layout (compute needs none)
        return (True,) * self.width()

    def variants(self, labels=False):
        o = self.options
        return check_options(o["variant"], o["char_subset"], o["length_mismatch"], o["remove_de"], labels)

    def _layout(self, labels):
        return _table([], [], None if labels else [], self.variants(labels), self.options["length_mismatch"], self.options["remove_de"], shared=False, normalize=self.steps)

    def blocks(self, labels=False):
        return self._layout(labels)[1]

    def width(self, labels=False):
        return self._layout(labels)[0].shape[1]

    def headline(self):
        variant = self.options["variant"]
        if variant == "all":
            return "realise/sentence_correction_f1"
        return "char_correction_f1" if variant in ("craspell", "pointer") else "sentence_correction_f1"

    def read(self, predictions, references, sources=None):
        """(Batch, {variant: (predicted, gold)}: the edits each preset read)."""
        o = self.options
        predictions, references, sources = corpora(predictions=predictions, references=references, sources=sources).values()
        labels = label_input(sources)
        predictions, parsed = read_replies(predictions, o["parse"], o["strict"], labels)
        variants = self.variants(labels)
        check_ignore_chars(o["ignore_chars"], labels)
        rows, _, edits = _table(predictions, references, sources, variants, o["length_mismatch"], o["remove_de"], shared=False, normalize=self.steps, ignore_chars=o["ignore_chars"])
        return Batch(rows, parsed or None, {"labels": labels} if len(rows) else None), edits

    def rows(self, predictions, references, sources=None):
        return self.read(predictions, references, sources)[0]

    def reduce(self, totals, records=None):
        labels = bool(records and records["labels"])
        o = self.options
        return ratios(totals, self.variants(labels), self.blocks(labels), o["zero_division"], o["char_subset"])

    def _merge_records(self, mine, theirs, where):
        if mine["labels"] or theirs["labels"]:
            raise ValueError(
                f"{where}: label lines (sources=None) are scored in one batch: they pair lines by pid anywhere in the files, and a shard "
                f"cannot tell a pid whose line is in another shard from one the system left out, so merged counts could be silently wrong: "
                f"give the sentences with their sources, or score the whole label files in one update (or with csc_common.compute)"
            )
        return mine

    def paired_records(self, *records):
        return records[0]

    def load_records(self, data):
        if data is None or (isinstance(data, dict) and set(data) == {"labels"} and isinstance(data["labels"], bool)):
            return data
        raise ValueError(f"records: {data!r:.60} is not {{\"labels\": true or false}}")

    def check(self, totals, where):
        totals = np.asarray(totals)
        for start in self.blocks():
            c = dict(zip(COLUMNS, np.moveaxis(totals[:, start : start + len(COLUMNS)], -1, 0)))
            for small, large in CHECKS:
                if (c[small] > c[large]).any():
                    raise ValueError(f"{where}: {small} above {large}, which no corpus gives")


# ---------------------------------------------------------------------------------------
# Error types: Visual-C3 (THUKElab/Visual-C3 eval.py calculate_metric)

FAKED = "X"  # Visual-C3 writes a faked (non-existent) character of the source as X


def visual_c3(predictions, references, sources, ocr_predictions):
    """Visual-C3's figures, split by error type: a gold edit of a source character other
    than X is a misspelled character, of an X a faked one. predictions: the corrected
    sentences; ocr_predictions: the same sentences with X where the system finds a faked
    character (Visual-C3's second stream). Per position: a misspelled edit is predicted
    where the prediction differs from a source character other than X and the OCR stream
    has no X there (detected where the source is wrong, corrected where it equals the
    reference); a faked one where the OCR stream has X (detected where the source has X,
    corrected where also the prediction equals the reference). A sentence is detected
    when its predicted positions of a type equal the gold ones (some predicted), corrected
    when besides the prediction equals the reference at those faked positions (faked) or
    everywhere but at the gold faked positions (misspelled). P and R in percent + 1e-10,
    R 100 when there is neither a hit nor a gold edit, rounded to 3 decimals, F1 from
    them, as its compute_p_r_f1; returned as fractions."""
    texts = corpora(predictions=predictions, references=references, sources=sources, ocr_predictions=ocr_predictions)
    n = len(texts["sources"])
    for name, values in texts.items():
        if len(values) != n:
            raise ValueError(f"{name}: {len(values)} sentences, sources has {n}")
    counts = {f"{unit}_{level}_{kind}": [0, 0, 0] for unit in ("sentence", "char") for level in ("detection", "correction") for kind in ("misspelled", "faked")}
    for i, (s, t, p, o) in enumerate(zip(texts["sources"], texts["references"], texts["predictions"], texts["ocr_predictions"])):
        for name, text in (("references", t), ("predictions", p), ("ocr_predictions", o)):
            if len(text) != len(s):
                raise input_error(name, i, f"has {len(text)} characters, sources[{i}] {len(s)}: Visual-C3 asserts equal lengths")
        gold = {"misspelled": [], "faked": []}
        found = {"misspelled": [], "faked": []}
        for k, (a, b, c, d) in enumerate(zip(s, t, p, o)):
            if a != b:
                gold["faked" if a == FAKED else "misspelled"].append(k)
            if a != c and a != FAKED and d != FAKED:
                found["misspelled"].append(k)
                _add(counts, "char", "misspelled", a != b, c == b)
            if d == FAKED:
                found["faked"].append(k)
                _add(counts, "char", "faked", a == FAKED, c == b and a == FAKED)
        for kind in ("misspelled", "faked"):
            for level in ("detection", "correction"):
                counts[f"char_{level}_{kind}"][2] += len(gold[kind])
                counts[f"sentence_{level}_{kind}"][2] += bool(gold[kind])
            if found[kind]:
                detected = found[kind] == gold[kind]
                if kind == "faked":
                    corrected = detected and all(p[k] == t[k] for k in gold["faked"])
                else:
                    corrected = detected and all(c == b for k, (b, c) in enumerate(zip(t, p)) if k not in gold["faked"])
                _add(counts, "sentence", kind, detected, corrected)
    out = {}
    for key, (hits, predicted, errors) in counts.items():
        precision, recall = hits / (predicted + 1e-10) * 100, hits / (errors + 1e-10) * 100
        if hits == errors == 0:
            recall = 100.0
        f1 = round(2 * precision * recall / (precision + recall + 1e-10), 3)
        out.update({f"{key}_precision": _fraction(round(precision, 3)), f"{key}_recall": _fraction(round(recall, 3)), f"{key}_f1": _fraction(f1)})
    return out


def _add(counts, unit, kind, detected, corrected):
    """One predicted edit (char) or flagged sentence of a type: [hits, predicted, gold]."""
    for level, hit in (("detection", detected), ("correction", corrected)):
        counts[f"{unit}_{level}_{kind}"][0] += bool(hit)
        counts[f"{unit}_{level}_{kind}"][1] += 1


# ---------------------------------------------------------------------------------------
# Command line:
#   paperscore csc --sources FILE --predictions FILE --references FILE [--variant NAME|all]
#   paperscore csc --references SRC_TAB_TGT --predictions FILE
#   paperscore csc --predictions RESULT_LABELS --references TRUTH_LABELS

COMMAND = "csc"
HELP = "Chinese spelling check as papers score it: ReaLiSe, SCOPE, SpellGCN, PLOME, ... side by side (--variant all)"


def add_options(parser):
    """The sources and the scoring options, shared by this command and `paperscore compare csc`."""
    parser.add_argument("--sources", help="the input sentences, one a line (or an official test input file, `(pid=ID)<TAB>sentence`)")
    parser.add_argument("--variant", choices=VARIANTS + ("all",), default="realise", help="whose evaluation code to follow (default realise; all: every one)")
    parser.add_argument("--char-subset", choices=CHAR_SUBSETS, help="character level over all sentences or the erroneous ones (default: the preset's)")
    parser.add_argument("--length-mismatch", choices=LENGTH_MISMATCH, help="sentences of another length than their source (default: as each preset's code)")
    parser.add_argument("--remove-de", action="store_true", help="drop predicted edits into 地/得 (ReaLiSe's SIGHAN13 post-processing)")
    parser.add_argument(
        "--normalize", nargs="+", choices=csc_llm.NORMALIZATIONS + ("none",),
        help="sentence normalisation before scoring, for every preset (default: none, the LLM presets their own; none: none at all)",
    )  # fmt: skip
    parser.add_argument("--ignore-chars", help="source characters whose edits no preset scores (simple-csc's --ignore_chars)")


def options(args):
    out = dict(variant=args.variant, char_subset=args.char_subset, length_mismatch=args.length_mismatch, remove_de=args.remove_de)
    if args.ignore_chars is not None:
        out["ignore_chars"] = args.ignore_chars
    if args.normalize is not None:  # (not given: as the Python call without it)
        out["normalize"] = tuple(args.normalize)
    return out


def add_arguments(parser):
    parser.add_argument("--predictions", required=True, help="corrected sentences, one a line (or `src<TAB>prediction`), or label lines `pid, pos, char, ...`")
    parser.add_argument("--references", required=True, help="gold sentences, one a line, or `src<TAB>tgt` (or `id<TAB>src<TAB>tgt`), or label lines")
    add_options(parser)
    add_reply_arguments(parser)


def _sentence_file(path, flag):
    """(sources or None, sentences) of a file of sentences or of `src<TAB>sentence` lines
    (`id<TAB>src<TAB>sentence` too); without tabs, the file (LabelFile) as it is: label
    lines, or with sources its lines."""
    file = LabelFile(path, flag)
    end = file.data.find(b"\n")  # of the first line
    if b"\t" not in file.data[: end if end >= 0 else None]:
        return None, file
    sources, sentences = [], []
    for number, line in enumerate(file.lines(), 1):
        fields = line.split("\t")
        if len(fields) not in (2, 3):
            raise ValueError(f"{flag}: {path} line {number} is not `src<TAB>sentence` (nor `id<TAB>src<TAB>sentence`)")
        sources.append(fields[-2])
        sentences.append(fields[-1])
    return sources, sentences


def _inputs(sources_path, files):
    """{sources, name: sentences or label lines} from the command line's files: sources
    from --sources or from `src<TAB>...` files (which must agree); none: label lines."""
    sources = read_sources(sources_path)[1] if sources_path else None
    inputs, origin = {}, "--sources"
    for name, path, flag in files:
        own, inputs[name] = _sentence_file(path, flag)
        if own is None:
            continue
        if sources is None:
            sources, origin = own, flag
            continue
        for number, (a, b) in enumerate(zip(sources, own), 1):
            if a != b:
                raise ValueError(f"{flag}: the source on line {number} is not the one {origin} gives")
        if len(own) != len(sources):
            raise ValueError(f"{flag}: {len(own)} lines but {origin} gives {len(sources)} sources")
    if sources is not None:  # a file without tabs holds sentences
        inputs = {name: value.lines() if isinstance(value, LabelFile) else value for name, value in inputs.items()}
    inputs["sources"] = sources
    return inputs


def run(args):
    replies = read_reply_file(args)  # --parse: the predictions are replies, never `src<TAB>...`
    files = (("predictions", args.predictions, "--predictions"), ("references", args.references, "--references"))
    inputs = _inputs(args.sources, files if replies is None else files[1:])
    if replies is not None:
        inputs.update(predictions=replies, parse=args.parse, strict=args.strict)
    return compute(**inputs, **options(args), **args.common)


def read_compare(args):
    """The inputs of `paperscore compare csc`: the same files as the csc command reads."""
    return _inputs(args.sources, compared_files(args))


def table(result):
    """The figures of one variant, or of every variant side by side, then the signature."""
    from .paperscore_cli import table as plain

    variants = list(dict.fromkeys(key.split("/")[0] for key in result if "/" in key))
    if not variants:
        return plain(result)
    names = list(dict.fromkeys(key.split("/", 1)[1] for key in result if "/" in key and isinstance(result[key], float)))
    names.sort(key=lambda name: not name.startswith("sentence"))  # sentence level first (stable)
    width, cell = max(len(name) for name in names), max(13, 2 + max(map(len, variants)))
    lines = [" " * width + "".join(f"{v:>{cell}}" for v in variants)]
    for name in names:
        cells = [result.get(f"{v}/{name}") for v in variants]
        lines.append(name.ljust(width) + "".join(f"{'-':>{cell}}" if x is None else f"{x:{cell}.4f}" for x in cells))
    lines += ["", f"signature: {result['signature']}"]
    return "\n".join(lines)

