# GENERATED from shared/paperscore/csc_sighan.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""The official SIGHAN Chinese spelling check evaluation, exactly as the bake-off jars
compute it: the 2014/2015 sentence-level confusion matrix (sighan15csc.jar, clp14csc.jar)
and the SIGHAN 2013 subtask 1 and 2 metrics (sighan7csc.jar), from sentence triples or
from the label lines the jars read, with the jars' detailed report.

Statistics: one row of 0/1 flags per sentence (its cell of the confusion matrix, or the
2013 counts it enters); every number is a ratio of the column sums.
"""

import math
import re

import numpy as np

from .paperscore_core import (
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_same_length,
    check_zero_division,
    compared_files,
    divide,
    harmonic_mean,
    read_lines,
    short_repr,
    signature,
    with_references,
)
from .paperscore_csc import (
    LENGTH_MISMATCH,
    LabelFile,
    checked_columns,
    corpus,
    extract_edits,
    label_edits,
    label_input,
    label_names,
    match,
    read_sources,
)
from .paperscore_family import Batch, Family, evaluate, scoring_options
from .paperscore_parse import add_reply_arguments, check_parser_options, get_parser, parse as parse_texts, parser_id, read_replies, read_reply_file

VERSIONS = ("2013", "2014", "2015")
CORRECTION_MATCH = ("subset", "exact", "set")
# The per-sentence flags of each definition; they are also the keys of return_counts.
COLUMNS = {
    "2015": (
        "detection_tp", "detection_fp", "detection_tn", "detection_fn",
        "correction_tp", "correction_fp", "correction_tn", "correction_fn",
    ),
    "2013-1": (
        "clean_sentences", "erroneous_sentences", "flagged_sentences", "false_alarms",
        "detection_hits", "detection_right", "location_right", "location_hits",
    ),
    "2013-2": ("scored_sentences", "returned_sentences", "location_right", "correction_right"),
}  # fmt: skip
# The figures of each definition, in the order the jars print them.
KEYS = {
    "2015": (
        "false_positive_rate",
        "detection_accuracy", "detection_precision", "detection_recall", "detection_f1",
        "correction_accuracy", "correction_precision", "correction_recall", "correction_f1",
    ),
    "2013-1": (
        "false_alarm_rate",
        "detection_accuracy", "detection_precision", "detection_recall", "detection_f1",
        "location_accuracy", "location_precision", "location_recall", "location_f1",
    ),
    "2013-2": ("location_accuracy", "correction_accuracy", "correction_precision"),
}  # fmt: skip
CLASSES = ("TP", "FP", "TN", "FN")
SPACE = "csc_sighan"
EXTRA_INPUTS = ("sources",)  # compared inputs beside the systems, kept out of signatures


def definition(version, subtask, correction_match="subset"):
    """"2015" (the 2014 and 2015 jars share their logic), "2013-1" or "2013-2", once the
    options are checked."""
    version = check_choice("version", str(version), VERSIONS)
    check_choice("correction_match", correction_match, CORRECTION_MATCH)
    if version != "2013":
        if subtask is not None:
            raise ValueError(f"subtask: {subtask!r} is only for version='2013'")
        return "2015"
    if str(subtask) not in ("1", "2"):
        raise ValueError(f"subtask: {subtask!r} is not 1 or 2 (version='2013' has two subtasks)")
    if correction_match != "subset":
        raise ValueError("correction_match: only for versions 2014 and 2015 (SIGHAN 2013 subtask 2 compares aligned pairs)")
    return f"2013-{subtask}"


# ---------------------------------------------------------------------------------------
# Inputs: sentence triples, or label lines when there are no sources


def check_columns(columns):
    """The Space's batch check: each corpus given through corpus(), then csc.checked_columns."""
    given = {name: corpus(columns[name], name) for name in ("predictions", "references", "sources") if columns.get(name) is not None}
    return checked_columns({**columns, **given})


def edits(predictions, references, sources, kind, length_mismatch="error", correction_match="subset"):
    """(pids or None, predicted Edits, gold Edits, {opaque position text: code}).
    Without sources, predictions and references are label lines, matched by pid (the
    jars' input); the 2013 jar reads their positions as strings, and in subtask 2 loses
    the characters of a result pid written with a space before its comma (see
    csc.parse_label_lines). CCL2022's script (correction_match="set") also keeps positions
    as strings: one it would read otherwise than the jars is refused."""
    predictions, references = corpus(predictions, "predictions"), corpus(references, "references")
    sources = None if sources is None else corpus(sources, "sources")
    if label_input(sources):
        opaque = {} if kind != "2015" or correction_match == "set" else None
        pids, predicted, gold = label_edits(predictions, references, kind != "2015", kind == "2013-1", opaque, kind == "2013-2")
        if kind == "2015" and correction_match == "set":
            _check_ccl(opaque, label_names(predictions, references))
        if kind == "2013-2" and (gold.char == 0).any():
            # where the 2013 jar fails (a NullPointerException in subtask 2) instead of scoring
            pid = pids[int(gold.sentence[np.argmax(gold.char == 0)])]
            name = label_names(predictions, references)[1]
            raise ValueError(f"{name}: pid {short_repr(pid, 40)} is written with white space before its comma, on which the SIGHAN 2013 jar fails in subtask 2")
        return pids, predicted, gold, opaque or {}
    check_same_length(predictions, references)
    predicted, gold = extract_edits(sources, predictions, references, length_mismatch=length_mismatch)
    return None, predicted, gold, {}


def _check_ccl(opaque, names):
    """Refuse a position that CCL2022-CLTC's eval_char_level.py reads otherwise than the
    jars: one not written as the plain number a jar reads (it compares position strings:
    02 is not 2)."""
    if opaque:
        text = next(iter(opaque))
        raise ValueError(f"{names[0]} or {names[1]}: position {short_repr(text, 30)} has leading zeros or is beyond 2147483647; correction_match='set' (CCL2022) compares positions as strings, the jars as numbers")


def statistics(m, kind, correction_match="subset"):
    """The (n, k) 0/1 rows of COLUMNS[kind] from a csc.Match."""
    gold, flagged, same = m.gold > 0, m.predicted > 0, m.same_positions
    if kind == "2015":
        # FP only from error-free sentences; wrong positions or characters on an erroneous
        # sentence are FN. The jar's correction check: the predicted characters are a
        # subset of the gold ones (so swapped corrections pass).
        # CCL2022-CLTC's eval_char_level.py ("set"): the two sets of characters are equal.
        if correction_match == "set":
            corrected = same & m.chars_in_gold & m.gold_in_predicted  # (match(..., both_ways=True))
        else:
            corrected = same & (m.chars_in_gold if correction_match == "subset" else m.same_edits)
        detected = gold & same
        clean, false_alarm = ~gold & ~flagged, ~gold & flagged
        columns = [detected, false_alarm, clean, gold & ~detected, gold & corrected, false_alarm, clean, gold & ~corrected]
    elif kind == "2013-1":
        columns = [~gold, gold, flagged, flagged & ~gold, flagged & gold, flagged == gold, same, same & gold]
    else:  # 2013-2 scores only sentences with gold errors (the jar drops the others)
        columns = [gold, flagged, same & gold, m.same_edits & gold]
    return np.stack(columns, axis=1, dtype=np.int64)


def _f1(precision, recall, zero_division):
    f1 = harmonic_mean(precision, recall)
    if math.isnan(zero_division):  # 2PR/(P+R) with P = R = 0 is 0/0: NaN in the jar's doubles
        f1 = np.where(np.add(precision, recall) == 0, math.nan, f1)
    return f1


def ratios(counts, kind, zero_division=0.0):
    """Every number of the definition from column sums of shape (..., k)."""
    zd = check_zero_division(zero_division)
    c = dict(zip(COLUMNS[kind], np.moveaxis(np.asarray(counts, dtype=float), -1, 0)))
    out = {}
    if kind == "2015":
        fp, tn = c["detection_fp"], c["detection_tn"]
        out["false_positive_rate"] = divide(fp, fp + tn, zd)
        for level in ("detection", "correction"):
            tp, fn = c[f"{level}_tp"], c[f"{level}_fn"]
            precision, recall = divide(tp, tp + fp, zd), divide(tp, tp + fn, zd)
            out[f"{level}_accuracy"] = divide(tp + tn, tp + fp + tn + fn, zd)
            out.update({f"{level}_precision": precision, f"{level}_recall": recall, f"{level}_f1": _f1(precision, recall, zd)})
    elif kind == "2013-1":
        n, flagged, erroneous = c["clean_sentences"] + c["erroneous_sentences"], c["flagged_sentences"], c["erroneous_sentences"]
        out["false_alarm_rate"] = divide(c["false_alarms"], c["clean_sentences"], zd)
        for level, right, hits in (("detection", "detection_right", "detection_hits"), ("location", "location_right", "location_hits")):
            precision, recall = divide(c[hits], flagged, zd), divide(c[hits], erroneous, zd)
            out[f"{level}_accuracy"] = divide(c[right], n, zd)
            out.update({f"{level}_precision": precision, f"{level}_recall": recall, f"{level}_f1": _f1(precision, recall, zd)})
    else:
        out["location_accuracy"] = divide(c["location_right"], c["scored_sentences"], zd)
        out["correction_accuracy"] = divide(c["correction_right"], c["scored_sentences"], zd)
        out["correction_precision"] = divide(c["correction_right"], c["returned_sentences"], zd)
    return out


def _per_sentence(rows, kind, predicted, gold):
    out = {}
    if kind == "2015":
        out["detection_classes"] = [CLASSES[i] for i in rows[:, :4].argmax(1).tolist()]
        out["correction_classes"] = [CLASSES[i] for i in rows[:, 4:].argmax(1).tolist()]
    elif kind == "2013-1":
        # The binary "has an error" decision: flagged erroneous, flagged clean, unflagged clean, unflagged erroneous.
        erroneous, flagged = rows[:, 1].astype(bool), rows[:, 2].astype(bool)
        cells = np.select([flagged & erroneous, flagged, ~erroneous], [0, 1, 2], 3)
        out["detection_classes"] = [CLASSES[i] for i in cells.tolist()]
        out["location_correct"] = rows[:, 6].astype(bool).tolist()
    else:
        scored = rows[:, 0].astype(bool).tolist()
        for key, column in (("location_correct", 2), ("correction_correct", 3)):
            out[key] = [bool(v) if s else None for v, s in zip(rows[:, column].tolist(), scored)]
    out["predicted_edits"] = [[list(pair) for pair in pairs] for pairs in predicted.groups()]
    out["reference_edits"] = [[list(pair) for pair in pairs] for pairs in gold.groups()]
    return out


def compute(
    predictions,
    references,
    sources=None,
    version="2015",
    subtask=None,
    correction_match="subset",
    length_mismatch="error",
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
    """The SIGHAN figures of a corrected corpus.

    predictions, references, sources: sentences, the 1-based edits being the characters
    where each differs from its source; or, without sources, the jars' label lines
    (`pid, 0` / `pid, pos, char, ...`; SIGHAN 2013 subtask 1: `pid, pos, ...`) matched by pid.
    version: "2015" (default) or "2014", the same confusion matrix; "2013" with subtask 1 or 2.
    correction_match: "subset" (the jar: the predicted characters are a subset of the gold
    ones), "exact" (aligned (position, char) pairs, as the Python ports compare) or "set"
    (CCL2022-CLTC track 1's "character level": the set of predicted characters equals the
    set of gold characters).
    length_mismatch: "error", "truncate", "whole" or "align" (see paperscore.csc).
    parse, strict: predictions are a corrector's replies read by this csc parser of
    paperscore.parse first, as in csc_common.compute ("parse_failures" in the result, the
    parser in the signature; strict: a reply the parser cannot read is a ValueError).
    """
    fam = family(version=version, subtask=subtask, correction_match=correction_match, length_mismatch=length_mismatch, parse=parse, strict=strict, zero_division=zero_division)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples)
    batch, predicted, gold = fam.read(predictions, references, sources)
    result = evaluate(fam, batch, confidence_level, n_resamples, seed)
    if return_counts:
        result.update(zip(COLUMNS[fam.kind], batch.table.sum(0).tolist()))
    if per_sentence:
        result.update(_per_sentence(batch.table, fam.kind, predicted, gold))
    parsed = batch.report
    if parsed:
        result.update(parse_failures=parsed["parse_failures"], parse_failure_examples=parsed["parse_failure_examples"])
    if return_signature:
        labels = label_input(sources)
        options = {"parse": parsed["parser"]} if parsed else {}
        options["version"] = str(version)
        if fam.kind != "2015":
            options["subtask"] = int(subtask)
        else:
            options["correction_match"] = correction_match
        options["input"] = "labels" if labels else "sentences"
        if not labels:
            options["length_mismatch"] = length_mismatch
        options["zero_division"] = fam.options["zero_division"]
        result["signature"] = with_references(signature("csc_sighan", **options, **bootstrap_options(confidence_level, n_resamples, seed)), references)
    return result


def headline(**options):
    """What `paperscore compare` compares by default: each definition's last figure."""
    return family(**{name: value for name, value in options.items() if name in SCORING}).headline()


SCORING = ("version", "subtask", "correction_match", "length_mismatch", "parse", "strict", "zero_division")


def family(**options):
    """csc_sighan's statistics (paperscore.family) for compute()'s scoring options."""
    return SighanFamily(scoring_options(compute, options, SCORING, "csc_sighan"))


class SighanFamily(Family):
    """csc_sighan's statistics: per sentence its 0/1 row of COLUMNS[definition], every
    column a count. Label lines (no sources) pair a result line with the truth line of its
    pid anywhere in the files, so a corpus of label lines is read in one batch: a state
    refuses to merge them with any other examples (a shard cannot tell a pid whose result
    line is in another shard from one the system left out, which the SIGHAN 2013/2014 jars
    read as "no error")."""

    name = "csc_sighan"
    inputs = ("sources",)

    def __init__(self, options):
        o = options
        o["version"] = str(o["version"])  # 2015 and "2015" are one option (compute reads str(version))
        self.kind = definition(o["version"], o["subtask"], o["correction_match"])
        check_parser_options(o["parse"], o["strict"])
        o["parse"] = None if o["parse"] is None else parser_id(get_parser(o["parse"], "csc"))
        o["zero_division"] = check_zero_division(o["zero_division"])
        super().__init__(o)
        self.counts = (True,) * len(COLUMNS[self.kind])

    def headline(self):
        return {"2015": "correction_f1", "2013-1": "location_f1", "2013-2": "correction_precision"}[self.kind]

    def read(self, predictions, references, sources=None):
        """(Batch, predicted Edits, gold Edits)."""
        o = self.options
        if o["parse"] is not None:  # replies read first: sentences only (label lines come without sources)
            predictions, sources = corpus(predictions, "predictions"), None if sources is None else corpus(sources, "sources")
        predictions, parsed = read_replies(predictions, o["parse"], o["strict"], o["parse"] is not None and label_input(sources))
        _, predicted, gold, _ = edits(predictions, references, sources, self.kind, o["length_mismatch"], o["correction_match"])  # checks the corpora first
        table = statistics(match(predicted, gold, o["correction_match"] == "set"), self.kind, o["correction_match"])
        return Batch(table, parsed or None, {"labels": label_input(sources)} if len(table) else None), predicted, gold

    def rows(self, predictions, references, sources=None):
        return self.read(predictions, references, sources)[0]

    def reduce(self, totals, records=None):
        return ratios(totals, self.kind, self.options["zero_division"])

    def _merge_records(self, mine, theirs, where):
        if mine["labels"] or theirs["labels"]:  # label lines pair by pid over the whole corpus, which a shard cannot check
            raise ValueError(
                f"{where}: label lines (sources=None) are scored in one batch: they pair a result line with the truth "
                f"line of its pid anywhere in the files, and a shard cannot tell a pid whose result line is in another shard from one the system left out "
                f"(which the SIGHAN 2013/2014 jars read as 'no error'), so merged counts could be silently wrong: give the sentences with their sources, "
                f"or score the whole label files in one update (or with csc_sighan.compute)"
            )
        return mine

    def paired_records(self, *records):
        return records[0]

    def load_records(self, data):
        if data is None or (isinstance(data, dict) and set(data) == {"labels"} and isinstance(data["labels"], bool)):
            return data
        raise ValueError(f"records: {data!r:.60} is not {{\"labels\": true or false}}")

    def check(self, totals, where):
        c = dict(zip(COLUMNS[self.kind], np.moveaxis(np.asarray(totals), -1, 0)))
        rules = {  # (a, b): a <= b; a sentence counts in a only where it counts in b
            "2015": [("correction_tp", "detection_tp"), ("detection_fp", "correction_fp"), ("correction_fp", "detection_fp"), ("detection_tn", "correction_tn"), ("correction_tn", "detection_tn")],
            "2013-1": [("detection_hits", "flagged_sentences"), ("detection_hits", "erroneous_sentences"), ("location_hits", "detection_hits"), ("false_alarms", "clean_sentences")],
            "2013-2": [("location_right", "scored_sentences"), ("correction_right", "location_right")],
        }[self.kind]
        for small, large in rules:
            if (c[small] > c[large]).any():
                raise ValueError(f"{where}: {small} above {large}, which no corpus gives")


# ---------------------------------------------------------------------------------------
# The jars' printed figures and detailed report

TITLES = {
    "2015": "SIGHAN 2015 Bakeoff: Chinese Spelling Check Task",
    "2014": "CLP 2014 Bakeoff: Chinese Spelling Check Task",
    "2013": "[SIGHAN-7] Bake-off: Chinese Spelling Check Task",
}
RULE = "=" * 58


def jar_number(value):
    """A figure as the jars print it: 4 decimals rounded half up from the double's shortest
    decimal form (13/32 = 0.40625 prints 0.4063; 57/800 = 0.07125, a double a little
    below that, prints 0.0713), trailing zeros dropped (0.6, 1), NaN."""
    from decimal import ROUND_HALF_UP, Decimal  # here: only the jar's report needs it

    if math.isnan(value):
        return "NaN"
    rounded = Decimal(repr(float(value))).quantize(Decimal("0.0001"), ROUND_HALF_UP)
    return f"{rounded:f}".rstrip("0").rstrip(".")


def _figures(kind, values, counts):
    """The jar's lines of overall figures (Part 1 without its heading)."""
    v = {key: jar_number(value) for key, value in values.items()}
    c = dict(zip(COLUMNS[kind], counts))
    if kind == "2015":
        fp, tn = c["detection_fp"], c["detection_tn"]
        lines = [f"False Positive Rate = {v['false_positive_rate']} ({fp}/{fp + tn})"]
        for level, name in (("detection", "Detection"), ("correction", "Correction")):
            tp, fn = c[f"{level}_tp"], c[f"{level}_fn"]
            p, r = v[f"{level}_precision"], v[f"{level}_recall"]
            lines += [
                "",
                f"{name} Level",
                f"\tAccuracy = {v[f'{level}_accuracy']} ({tp + tn}/{tp + fp + tn + fn})",
                f"\tPrecision = {p} ({tp}/{tp + fp})",
                f"\tRecall = {r} ({tp}/{tp + fn})",
                f"\tF1-Score = {v[f'{level}_f1']} ((2*{p}*{r})/({p}+{r}))",
            ]
        return lines
    if kind == "2013-1":
        n, flagged, erroneous = c["clean_sentences"] + c["erroneous_sentences"], c["flagged_sentences"], c["erroneous_sentences"]
        lines = [f"False-Alarm Rate = {v['false_alarm_rate']} ({c['false_alarms']}/{c['clean_sentences']})"]
        for level, name, right, hits in (("detection", "Detection", "detection_right", "detection_hits"), ("location", "Error Location", "location_right", "location_hits")):
            p, r = v[f"{level}_precision"], v[f"{level}_recall"]
            lines += [
                f"{name} Accuracy = {v[f'{level}_accuracy']} ({c[right]}/{n})",
                f"{name} Precision = {p} ({c[hits]}/{flagged})",
                f"{name} Recall = {r} ({c[hits]}/{erroneous})",
                f"{name} F-Score = {v[f'{level}_f1']} (2*{p}*{r}/({p}+{r}))",
            ]
        return lines
    n = c["scored_sentences"]
    return [
        f"Location Accuracy = {v['location_accuracy']} ({c['location_right']}/{n})",
        f"Correction Accuracy = {v['correction_accuracy']} ({c['correction_right']}/{n})",
        f"Correction Precision = {v['correction_precision']} ({c['correction_right']}/{c['returned_sentences']})",
    ]


def _part1(version, kind, values, counts):
    return [TITLES[version], "", RULE, "Part 1: Overall Performance", RULE, ""] + _figures(kind, values, counts) + ["", ""]


def printed(version, kind, values, counts):
    """What the jar prints without -o: Part 1 for 2014/2015, the figures alone for 2013."""
    lines = _figures(kind, values, counts) + [""] if kind != "2015" else _part1(version, kind, values, counts)
    return "\n".join(lines) + "\n"


def _java_key(text):
    return text.encode("utf-16-be")  # the order of Java's String.compareTo


def _details(kind, pids, rows, predicted, opaque):
    """Part 2: the sentences of each cell (2014/2015, in truth order, with the result's
    edits) or of each 2013 count (sorted by pid, as the 2013 jar's sets are, and each
    sentence's positions sorted as the strings the 2013 jar keeps them as)."""
    groups = predicted.groups()
    if kind != "2015":
        text = {code: position for position, code in opaque.items()}
        groups = [sorted(((text.get(p, str(p)), c) for p, c in pairs), key=lambda pair: _java_key(pair[0])) for pairs in groups]
    flags = rows.astype(bool)
    members = {name: np.flatnonzero(flags[:, k]).tolist() for k, name in enumerate(COLUMNS[kind])}
    if kind == "2015":
        lines = [RULE, "Part 2: Details", RULE, ""]
        for level, name, chars in (("detection", "Detection", False), ("correction", "Correction", True)):
            lines += [f"{name} Level", ""]
            for cell in ("tp", "fp", "tn", "fn"):
                items = [_item(pids[i], groups[i], chars, ", ") for i in members[f"{level}_{cell}"]]
                lines += [f"\t#{cell.upper()}:", "\t" + " | ".join(items), ""]
            lines.append("")
        return "\n".join(lines[:-1]) + "\n"
    if kind == "2013-1":
        sections = [
            ("# of all testing sentences", range(len(pids)), None),
            ("# of testing sentences with errors", members["erroneous_sentences"], None),
            ("# of testing sentences without errors", members["clean_sentences"], None),
            ("# of sentences the system return as with errors", members["flagged_sentences"], None),
            ("# of sentences with false positive error detection results", members["false_alarms"], None),
            ("# of sentences with correctly error detected results", members["detection_hits"], None),
            ("# of sentences with correctly detected results", members["detection_right"], None),
            ("# of sentences with correct location detection", members["location_right"], False),
            ("# of sentences with correct error locations", members["location_hits"], False),
        ]
    else:
        sections = [
            ("# of all testing sentences", members["scored_sentences"], None),
            ("# of sentences the system returns corrections", members["returned_sentences"], None),
            ("# of sentences correctly detected the error location", members["location_right"], False),
            ("# of sentences correctly corrected the error", members["correction_right"], True),
        ]
    index = {pid: i for i, pid in enumerate(pids)}
    blocks = []
    for heading, indices, chars in sections:
        order = sorted((pids[i] for i in indices), key=_java_key)
        items = order if chars is None else [_item(pid, groups[index[pid]], chars, ",") for pid in order]
        # Each item is followed by " | ", and every tenth by a line end.
        listed = "".join(f"{item} | " + ("\n" if k % 10 == 9 else "") for k, item in enumerate(items))
        blocks.append((f"{heading}: {len(items)}\n{listed}", len(items) % 10 != 0))
    # A blank line parts the sections, after ending a line left open; the last is left as it is.
    body = "".join(block + ("\n\n" if line_open else "\n") for block, line_open in blocks[:-1]) + blocks[-1][0]
    return "\n".join([RULE, "Part 2: Details", RULE, ""]) + "\n" + body


def _item(pid, pairs, chars, sep):
    fields = [str(p) if not chars else f"{p}{sep}{c}" for p, c in pairs] or ["0"]
    return "(" + sep.join([pid] + fields) + ")"


def report(
    predictions,
    references,
    sources=None,
    pids=None,
    version="2015",
    subtask=None,
    correction_match="subset",
    length_mismatch="error",
    zero_division=0.0,
):
    """The jar's detailed report (its -o file): Part 1, the overall figures, and Part 2,
    the sentences behind each count. `pids` name the sentences of sentence input
    (default: 1, 2, 3, ...); label lines carry their own."""
    kind = definition(version, subtask, correction_match)
    label_pids, predicted, gold, opaque = edits(predictions, references, sources, kind, length_mismatch, correction_match)
    pids = label_pids or (list(pids) if pids is not None else [str(i) for i in range(1, gold.n + 1)])
    if len(pids) != gold.n:
        raise ValueError(f"pids: {len(pids)} names for {gold.n} sentences")
    rows = statistics(match(predicted, gold, correction_match == "set"), kind, correction_match)
    counts = rows.sum(0).tolist()
    values = ratios(np.array(counts), kind, zero_division)
    lines = _part1(str(version), kind, values, counts)
    # The 2013 jar ends the first five lines of its subtask 1 report (title to rule) in CRLF.
    crlf = 5 if kind == "2013-1" else 0
    part1 = "\r\n".join(lines[:crlf] + [""]) + "\n".join(lines[crlf:]) + "\n"
    return part1 + _details(kind, pids, rows, predicted, opaque)


# ---------------------------------------------------------------------------------------
# Command line: a drop-in for the jars
#   paperscore sighan -i RESULT -t TRUTH [-o REPORT] [--version 2013 --subtask 1|2]
#   paperscore sighan --sources FILE --predictions FILE --references FILE

COMMAND = "sighan"
HELP = "Chinese spelling check, the official SIGHAN 2013/2014/2015 evaluation (a drop-in for the jars)"


def add_options(parser):
    """The sources and the scoring options, shared by this command and `paperscore compare
    sighan` (whose files are label lines, or sentences when --sources is given)."""
    parser.add_argument("--sources", help="the input sentences (or an official test input file, `(pid=ID)<TAB>sentence`)")
    parser.add_argument("--version", choices=VERSIONS, default="2015", help="bake-off year (default 2015; 2014 is the same logic)")
    parser.add_argument("-s", "--subtask", type=int, choices=(1, 2), help="SIGHAN 2013 subtask (required with --version 2013)")
    parser.add_argument("--correction-match", choices=CORRECTION_MATCH, default="subset", help="subset: the predicted characters are a subset of the gold ones (the jar); exact: aligned (position, char) pairs; set: the two sets of characters are equal (CCL2022 track 1)")
    parser.add_argument("--length-mismatch", choices=LENGTH_MISMATCH, default="error", help="a sentence of another length than its source: error, truncate (compare the common prefix), whole (one edit for the sentence) or align (substitutions, insertions and deletions from a minimal alignment)")


def options(args):
    return dict(version=args.version, subtask=args.subtask, correction_match=args.correction_match, length_mismatch=args.length_mismatch)


def add_arguments(parser):
    files = parser.add_argument_group("label files, as the jars read them")
    files.add_argument("-i", "--result", help="system result: `pid, 0` or `pid, pos, char, ...` per line")
    files.add_argument("-t", "--truth", help="ground truth, same format")
    sentences = parser.add_argument_group("sentence files, one sentence per line, in the same order (with --sources)")
    sentences.add_argument("--predictions", help="the system's corrected sentences")
    sentences.add_argument("--references", help="the gold corrected sentences")
    parser.add_argument("-o", "--report", help="write the jar's detailed report (Part 1 and Part 2) to this file")
    add_options(parser)
    add_reply_arguments(parser)


def _inputs(args):
    """(compute keyword arguments for the inputs, pids for the report)."""
    sentence_files = (args.sources, args.predictions, args.references)
    if args.result or args.truth:
        if not (args.result and args.truth) or any(sentence_files):
            raise ValueError("give either -i RESULT -t TRUTH, or --sources, --predictions and --references")
        return dict(predictions=LabelFile(args.result, "-i"), references=LabelFile(args.truth, "-t")), None
    if not all(sentence_files):
        raise ValueError("give either -i RESULT -t TRUTH, or --sources, --predictions and --references")
    pids, sources = read_sources(args.sources)
    replies = read_reply_file(args)
    predictions = read_lines(args.predictions, "--predictions") if replies is None else replies
    return dict(sources=sources, predictions=predictions, references=read_lines(args.references, "--references")), pids


def run(args):
    inputs, pids = _inputs(args)
    parsing = {} if args.parse is None else dict(parse=args.parse, strict=args.strict)
    result = compute(**inputs, **options(args), return_counts=True, **parsing, **args.common)
    if args.report:
        if parsing:  # the report lists the sentences read from the replies
            inputs["predictions"] = parse_texts(inputs["predictions"], args.parse)[0]
        text = report(**inputs, pids=pids, **options(args), zero_division=args.common["zero_division"])
        try:
            with open(args.report, "w", encoding="utf-8") as handle:  # platform line ends, as the jar writes
                handle.write(text)
        except OSError as error:
            raise ValueError(f"-o: cannot write {args.report}: {error.strerror}") from None
    return result


def read_compare(args):
    """The inputs of `paperscore compare sighan`: label files (result files against the
    truth, read as `paperscore sighan` reads them), or with --sources one sentence per line."""
    read = read_lines if args.sources else LabelFile
    inputs = {name: read(path, flag) for name, path, flag in compared_files(args)}
    inputs["sources"] = read_sources(args.sources)[1] if args.sources else None
    return inputs


def table(result):
    """The figures exactly as the jar prints them, then any bootstrap intervals and the
    signature."""
    # The signature records the definition the figures follow.
    version = re.search(r"\|version:(\d+)", result["signature"])[1]
    subtask = re.search(r"\|subtask:(\d)", result["signature"])
    kind = definition(version, subtask and int(subtask[1]))
    counts = [result[key] for key in COLUMNS[kind]]
    values = {key: result[key] for key in KEYS[kind]}
    intervals = [f"{key} = {result[key]:.4f}\n" for key in result if key.endswith(("_low", "_high"))]
    return printed(version, kind, values, counts) + "".join(intervals) + f"signature: {result['signature']}"
