"""csc_common against each project's own evaluation code.

Expected figures come from the projects' released evaluation functions, run locally on the
cases below (ReaLiSe src/metric_core.py and remove_de.py; SCOPE metrics/metric_core.py;
SpellGCN run_spellgcn.py, its label writer and metric block under Python 2.7; PLOME
finetune_src/tagging_eval.py; CRASpell src/tagging_eval.py; Pointer Networks
utils/evaluation_metrics.py and pycorrector's copy macbert/evaluate_util.py; FASPell
faspell.py test_unit with pycorrector's compute_corrector_prf_faspell for F1; CSCD-NS
evaluation/evaluate.py; pycorrector compute_sentence_level_prf; PaddleNLP
sighan_evaluate.py as pycorrector ships it; LEMON run.py Metrics), each figure written
here as the tool computed it, beside a hand derivation of the counts. Where the original
raises ZeroDivisionError the expected value is the zero-division policy's.
"""

import json
import math
import os
import random
import subprocess
import sys

import numpy as np
import pytest
import csc_align_naive as naive
from conftest import DATA, ROOT, without_references
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paperscore import cli, compare, csc, csc_common, csc_llm
from paperscore.core import read_lines
from paperscore.csc import apply_edits, extract_edits, format_label_lines, parse_label_lines, parse_test_input
from paperscore.csc_common import ALIGNING, COLUMNS, ERRANT, PRESETS, VARIANTS, compute

SIGHAN15 = DATA / "sighan15"
NAN = math.nan
ZD = "policy"  # the original divides by zero here
READS_LABELS = tuple(v for v in VARIANTS if PRESETS[v].length not in ERRANT)  # simple_csc and msllm need sentences
POSITIONAL = tuple(v for v in VARIANTS if PRESETS[v].length not in ALIGNING)  # and C-LLM projects every sentence


def lines(path):
    return read_lines(path, str(path))


def assert_figures(result, expected, zero_division=0.0):
    """The figures of `expected`, and no other key (the sentence false-positive rate, which
    every preset reports, checked only where `expected` names it: MIXED has it for all)."""
    if not any(key.endswith("sentence_false_positive_rate") for key in expected):
        result = without_fpr(result)
    assert set(result) == set(expected), set(result) ^ set(expected)
    for key, value in expected.items():
        value = zero_division if value == ZD else value
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(result[key]), key
        else:
            assert result[key] == pytest.approx(value, abs=1e-15), (key, result[key], value)


def without_fpr(result):
    return {key: value for key, value in result.items() if not key.endswith("sentence_false_positive_rate")}


def triples(rows):
    sources, references, predictions = map(list, zip(*rows))
    return dict(sources=sources, references=references, predictions=predictions)


# ---------------------------------------------------------------------------------------
# The SIGHAN15 toy files: the paper-common figures of ReaLiSe


TOY15 = dict(predictions=lines(SIGHAN15 / "SIGHAN15_Toy_Result.txt"), references=lines(SIGHAN15 / "SIGHAN15_Toy_Truth.txt"))


def test_sighan15_toy_under_realise_gives_the_paper_common_figures():
    """SIGHAN15_Toy_{Result,Truth}.txt (label lines). 6 sentences carry a predicted edit
    (B1-0201-1, A2-1051-3, B2-0369-1, B2-1444-1, A2-1457-6, B2-1475-4), 7 a gold edit.
    Detection TP 4 (A2-1051-3, B2-0369-1, A2-1457-6, B2-1475-4): P 4/6, R 4/7; correction
    TP 3 (B2-0369-1 has 做 for 作): P 3/6, R 3/7. Accuracy: equal position lists 6/10
    (the two TN too), equal edit lists 5/10. ReaLiSe's metric_core.py on the same files
    prints 60.0, 66.66666666666666, 57.14285714285714, 61.53846153846153 and 50.0, 50.0,
    42.857142857142854, 46.15384615384615 (percent). The official jar: P 0.8 and 0.75."""
    result = compute(**TOY15)
    assert_figures(result, {
        "sentence_detection_accuracy": 0.6, "sentence_detection_precision": 4 / 6,
        "sentence_detection_recall": 4 / 7, "sentence_detection_f1": 2 * (4 / 6) * (4 / 7) / (4 / 6 + 4 / 7),
        "sentence_correction_accuracy": 0.5, "sentence_correction_precision": 0.5,
        "sentence_correction_recall": 3 / 7, "sentence_correction_f1": 2 * 0.5 * (3 / 7) / (0.5 + 3 / 7),
    })  # fmt: skip
    printed = [60.0, 66.66666666666666, 57.14285714285714, 61.53846153846153, 50.0, 50.0, 42.857142857142854, 46.15384615384615]
    assert [value * 100 for value in without_fpr(result).values()] == printed
    # 3 error-free sentences (B2-1452-2, C1-1849-1, B2-1444-1), 1 flagged (B2-1444-1)
    assert result["sentence_false_positive_rate"] == 1 / 3
    assert (round(result["sentence_detection_f1"], 3), round(result["sentence_correction_f1"], 3)) == (0.615, 0.462)


def test_sighan15_toy_char_level_of_scope():
    """Positions (truth | result): B1-0201-1 {3,26,35} | {3,25,35}; A2-1051-3 {15} | {15};
    B2-0369-1 {16,48} | {16,48} (48 做, not 作); B2-1444-1 {} | {8}; A2-1457-6 {45} | {45};
    B2-1475-4 {17,18} | {17,18}; B1-0370-2 {49}, B1-1462-7 {33} missed. Predicted 10,
    gold 11, position hits 8, exact 7. Detection P 8/10, R 8/11; correction (over the
    correctly detected positions) P 7/8, R 7/11. SCOPE's metric_core.py prints
    char-detect-f1 76.1904761904762 and char-correct-f1 73.68421052631578."""
    result = compute(**TOY15, variant="scope")
    assert result["char_detection_precision"] == 8 / 10 and result["char_detection_recall"] == 8 / 11
    assert result["char_correction_precision"] == 7 / 8 and result["char_correction_recall"] == 7 / 11
    assert (result["char_detection_f1"] * 100, result["char_correction_f1"] * 100) == (76.1904761904762, 73.68421052631578)


def test_paddle_on_the_toy_gives_the_official_precision():
    """PaddleNLP's port divides by TP + flagged error-free sentences, as the jar does: 4/5
    and 3/4 (no containment quirk matters on the toy)."""
    result = compute(**TOY15, variant="paddle")
    assert (result["sentence_detection_precision"], result["sentence_correction_precision"]) == (0.8, 0.75)


# ---------------------------------------------------------------------------------------
# One corpus where every preset disagrees with another

MIXED = [
    # source, reference, prediction        |D| |G| hits exact
    ("他門很好", "他們很好", "他們很好"),  # 1 1 1 1  corrected
    ("我門走吧", "我們走吧", "我悶走吧"),  # 1 1 1 0  right position, wrong char
    ("吃了早菜", "吃了早餐", "吃乐早菜"),  # 1 1 0 0  wrong position
    ("今天很熱", "今天很熱", "今天很熟"),  # 1 0 0 0  false alarm on an error-free sentence
    ("我很高興", "我很高興", "我很高興"),  # 0 0 0 0  left alone
    ("我门去公圆", "我们去公园", "我们去公圆"),  # 1 2 1 1  partial detection
    ("身體建康", "身體健康", "身體建康"),  # 0 1 0 0  untouched erroneous sentence
    ("我门去公圆", "我们去公园", "我园去公们"),  # 2 2 2 0  right positions, chars swapped
]
# Sentences: 8; with a predicted edit 6 (rows 1-4, 6, 8); with a gold edit 6 (1-3, 6-8);
# detected (right positions) 3 (1, 2, 8); corrected 1 (1); equal position lists 4 (1, 2, 5, 8),
# equal edit lists 2 (1, 5); flagged error-free 1 (4); untouched erroneous 1 (7).
# Characters: predicted 7 (6 in erroneous sentences), gold 8, position hits 5, exact 2.
# Pointer-Net misses: row 2 (們 not among {悶}), row 6 (园 not among {们}); row 8's gold
# 们 and 园 are both among the predicted {园, 们}: 2 misses.
PAPER_SENTENCE_LEVEL = {
    "sentence_detection_accuracy": 0.5, "sentence_detection_precision": 0.5, "sentence_detection_recall": 0.5,
    "sentence_detection_f1": 0.5, "sentence_correction_accuracy": 0.25, "sentence_correction_precision": 0.16666666666666666,
    "sentence_correction_recall": 0.16666666666666666, "sentence_correction_f1": 0.16666666666666666,
}  # fmt: skip
EXPECTED = {
    # ReaLiSe: P over the 6 changed sentences, R over the 6 erroneous: det 3/6, 3/6; cor 1/6, 1/6.
    "realise": PAPER_SENTENCE_LEVEL,
    # SCOPE (its sentence level printed the same): char det 5/7, 5/8; cor over the
    # correctly detected positions 2/5, R 2/8.
    "scope": {
        **PAPER_SENTENCE_LEVEL,
        "char_detection_precision": 0.7142857142857143, "char_detection_recall": 0.625, "char_detection_f1": 0.6666666666666666,
        "char_correction_precision": 0.4, "char_correction_recall": 0.25, "char_correction_f1": 0.3076923076923077,
    },
    # SpellGCN: F1 with +1e-8; char level on the erroneous sentences: predicted 6, plus 1
    # FP for the untouched row 7 (its `pid, 0` read as position 0): det P 5/7; dc_joint
    # 2/(6 + 1e-8), 2/(8 + 1e-8).
    "spellgcn": {
        "sentence_detection_precision": 0.5, "sentence_detection_recall": 0.5, "sentence_detection_f1": 0.4999999950000001,
        "sentence_correction_precision": 0.16666666666666666, "sentence_correction_recall": 0.16666666666666666,
        "sentence_correction_f1": 0.16666666166666683,
        "char_detection_precision": 0.7142857142857143, "char_detection_recall": 0.625, "char_detection_f1": 0.6666666616888889,
        "char_correction_precision": 0.4, "char_correction_recall": 0.25, "char_correction_f1": 0.3076923029585799,
        "char_joint_precision": 0.33333333277777777, "char_joint_recall": 0.24999999968749997, "char_joint_f1": 0.2857142804081633,
    },
    # PLOME: sentence F1 +1e-13; char level on the erroneous sentences with +0.001:
    # det 5/6.001, 5/8.001; cor 2/5.001, 2/8.001.
    "plome": {
        "sentence_detection_precision": 0.5, "sentence_detection_recall": 0.5, "sentence_detection_f1": 0.49999999999995004,
        "sentence_correction_precision": 0.16666666666666666, "sentence_correction_recall": 0.16666666666666666,
        "sentence_correction_f1": 0.16666666666661667,
        "char_detection_precision": 0.8331944675887352, "char_detection_recall": 0.6249218847644045, "char_detection_f1": 0.7141836880445162,
        "char_correction_precision": 0.3999200159968006, "char_correction_recall": 0.2499687539057618, "char_correction_f1": 0.30764497769569177,
    },
    # CRASpell: PLOME's char level on every sentence (det 5/7.001), correction-2 2/7.001.
    "craspell": {
        "char_detection_precision": 0.714183688044565, "char_detection_recall": 0.6249218847644045, "char_detection_f1": 0.6665777896279999,
        "char_correction_precision": 0.3999200159968006, "char_correction_recall": 0.2499687539057618, "char_correction_f1": 0.30764497769569177,
        "char_correction2_precision": 0.285673475217826, "char_correction2_f1": 0.26663111585117,
    },
    # Pointer Networks: cor P 2/5, R 2/(2 + 2 misses) = 0.5 (by membership, row 8 misses nothing).
    "pointer": {
        "char_detection_precision": 0.7142857142857143, "char_detection_recall": 0.625, "char_detection_f1": 0.6666666666666666,
        "char_correction_precision": 0.4, "char_correction_recall": 0.5, "char_correction_f1": 0.4444444444444445,
    },
    # FASPell (strict): char correction over every predicted edit: 2/7, 2/8.
    "faspell": {
        **PAPER_SENTENCE_LEVEL,  # FASPell's fractions and pycorrector's F1 print the same
        "char_detection_precision": 0.7142857142857143, "char_detection_recall": 0.625, "char_detection_f1": 0.6666666666666666,
        "char_correction_precision": 0.2857142857142857, "char_correction_recall": 0.25, "char_correction_f1": 0.26666666666666666,
    },
    # FASPell non-strict: any change of an erroneous sentence detects it (rows 1-3, 6, 8):
    # detection P 5/6, R 5/6; its accuracy counts those and the equal strings (rows 1, 5):
    # 6/8. Correction and characters as strict FASPell.
    "faspell_nonstrict": {
        **PAPER_SENTENCE_LEVEL,
        "sentence_detection_accuracy": 0.75, "sentence_detection_precision": 0.8333333333333334,
        "sentence_detection_recall": 0.8333333333333334, "sentence_detection_f1": 0.8333333333333334,
        "char_detection_precision": 0.7142857142857143, "char_detection_recall": 0.625, "char_detection_f1": 0.6666666666666666,
        "char_correction_precision": 0.2857142857142857, "char_correction_recall": 0.25, "char_correction_f1": 0.26666666666666666,
    },
    # CSCD-NS: percentages rounded to 3 decimals (16.667, 71.429, 28.571), F1 from those.
    "cscd_ns": {
        "sentence_detection_precision": 0.5, "sentence_detection_recall": 0.5, "sentence_detection_f1": 0.5,
        "sentence_correction_precision": 0.16667, "sentence_correction_recall": 0.16667, "sentence_correction_f1": 0.16667,
        "char_detection_precision": 0.71429, "char_detection_recall": 0.625, "char_detection_f1": 0.66667,
        "char_correction_precision": 0.28571, "char_correction_recall": 0.25, "char_correction_f1": 0.26666,
    },
    # simple-csc and MSLLM calculate_metric (run in place on these triples; every
    # alignment here is the positional one): CSCD-NS's figures, plus "sentence fpr" 50.0
    # (1 flagged of 2 error-free).
    "simple_csc": (LLM_FIGURES := {
        "sentence_detection_precision": 0.5, "sentence_detection_recall": 0.5, "sentence_detection_f1": 0.5,
        "sentence_correction_precision": 0.16667, "sentence_correction_recall": 0.16667, "sentence_correction_f1": 0.16667,
        "char_detection_precision": 0.71429, "char_detection_recall": 0.625, "char_detection_f1": 0.66667,
        "char_correction_precision": 0.28571, "char_correction_recall": 0.25, "char_correction_f1": 0.26666,
        "sentence_false_positive_rate": 0.5,
        # F0.5 = 1.25 P R / (0.25 P + R) from the rounded percentages, rounded: P = R gives
        # P; 1.25·71.429·62.5/(17.85725 + 62.5) = 69.445 (69.4449...); 1.25·28.571·25/
        # (7.14275 + 25) = 27.777 (27.7769...)
        "sentence_detection_f0.5": 0.5, "sentence_correction_f0.5": 0.16667,
        "char_detection_f0.5": 0.69445, "char_correction_f0.5": 0.27777,
    }),
    "msllm": LLM_FIGURES,
    # C-LLM chuli + calculate_metric (run in place): difflib leaves every prediction here as
    # it is (its replacements are of one Chinese character each), so CSCD-NS's figures.
    "cllm": {
        "sentence_detection_precision": 0.5, "sentence_detection_recall": 0.5, "sentence_detection_f1": 0.5,
        "sentence_correction_precision": 0.16667, "sentence_correction_recall": 0.16667, "sentence_correction_f1": 0.16667,
        "char_detection_precision": 0.71429, "char_detection_recall": 0.625, "char_detection_f1": 0.66667,
        "char_correction_precision": 0.28571, "char_correction_recall": 0.25, "char_correction_f1": 0.26666,
        "sentence_detection_f0.5": 0.5, "sentence_correction_f0.5": 0.16667,
        "char_detection_f0.5": 0.69445, "char_correction_f0.5": 0.27777,  # (as simple_csc's)
    },
    # pycorrector: whole strings; TP 1 (row 1), FP 1 (row 4 only), FN 5: P 1/2, R 1/6, Acc 2/8.
    "pycorrector": {
        "sentence_correction_accuracy": 0.25, "sentence_correction_precision": 0.5,
        "sentence_correction_recall": 0.16666666666666666, "sentence_correction_f1": 0.25,
    },
    # PaddleNLP: P over TP + flagged error-free: det 3/4, cor 1/2; F1 with +1e-9.
    "paddle": {
        "sentence_detection_precision": 0.75, "sentence_detection_recall": 0.5, "sentence_detection_f1": 0.5999999995199999,
        "sentence_correction_precision": 0.5, "sentence_correction_recall": 0.16666666666666666, "sentence_correction_f1": 0.24999999962500002,
    },
    # LEMON: any change of an erroneous sentence detects it (rows 1-3, 6, 8: 5/6), 1e-12
    # in every denominator; FPR 1/2.
    "lemon": {
        "sentence_detection_precision": 0.8333333333331945, "sentence_detection_recall": 0.8333333333331945,
        "sentence_detection_f1": 0.8333333333326944, "sentence_correction_precision": 0.16666666666663887,
        "sentence_correction_recall": 0.16666666666663887, "sentence_correction_f1": 0.16666666666613889,
        "sentence_false_positive_rate": 0.49999999999975,
    },
}  # fmt: skip
# Every preset reports the sentence false-positive rate; where its code prints none it is
# flagged error-free / error-free sentences: row 4 of rows 4 and 5, 1/2.
for _figures in EXPECTED.values():
    _figures.setdefault("sentence_false_positive_rate", 0.5)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_preset_reproduces_its_projects_code(variant):
    assert_figures(compute(**triples(MIXED), variant=variant), EXPECTED[variant])


def test_variant_all_is_every_preset_side_by_side():
    result = compute(**triples(MIXED), variant="all")
    expected = {f"{variant}/{key}": value for variant in VARIANTS for key, value in EXPECTED[variant].items()}
    assert_figures(result, expected)


def test_counts_are_the_hand_derived_ones():
    counts = compute(**triples(MIXED), return_counts=True)
    assert [counts[key] for key in COLUMNS] == [8, 6, 6, 3, 1, 4, 2, 1, 1, 8, 7, 6, 5, 2, 2]


# ---------------------------------------------------------------------------------------
# Where the conventions part ways, case by case


SHORTER = [
    ("我門去", "我們去", "我們"),  # one character lost; the edit (2, 們) is in the prefix
    ("好的", "好的", "好"),  # error-free, one character lost
    ("他門很好", "他們很好", "他們很好"),
    ("今天很熱", "今天很熱", "今天很熱"),
]


def test_shorter_predictions_each_as_its_code_reads_them():
    """ReaLiSe cuts the source to the prediction: rows 1 and 2 compare 我門 with 我們 and 好
    with 好, so all is right. FASPell zips the three strings alike, yet its accuracy
    compares whole strings (rows 1, 2 are not equal): correction accuracy 2/4, detection
    accuracy 3/4 (row 1's positions are right). pycorrector and LEMON compare whole
    strings: rows 1 and 2 are changed and wrong. PLOME and CSCD-NS assert equal lengths;
    the Pointer-Net code indexes the prediction by the source (IndexError)."""
    data = triples(SHORTER)
    assert set(without_fpr(compute(**data)).values()) == {1.0}
    assert_figures(compute(**data, variant="faspell"), {
        "sentence_detection_accuracy": 0.75, "sentence_detection_precision": 1.0, "sentence_detection_recall": 1.0, "sentence_detection_f1": 1.0,
        "sentence_correction_accuracy": 0.5, "sentence_correction_precision": 1.0, "sentence_correction_recall": 1.0, "sentence_correction_f1": 1.0,
        "char_detection_precision": 1.0, "char_detection_recall": 1.0, "char_detection_f1": 1.0,
        "char_correction_precision": 1.0, "char_correction_recall": 1.0, "char_correction_f1": 1.0,
    })  # fmt: skip
    # pycorrector: TP 1 (row 3), FP 1 (row 2), FN 1 (row 1), TN 1.
    assert_figures(compute(**data, variant="pycorrector"), {
        "sentence_correction_accuracy": 0.5, "sentence_correction_precision": 0.5, "sentence_correction_recall": 0.5, "sentence_correction_f1": 0.5,
    })  # fmt: skip
    # LEMON: changed 3 (rows 1-3), erroneous 2, detected (changed erroneous) 2, corrected 1.
    assert_figures(compute(**data, variant="lemon"), {
        "sentence_detection_precision": 0.6666666666664445, "sentence_detection_recall": 0.9999999999995,
        "sentence_detection_f1": 0.7999999999991999, "sentence_correction_precision": 0.33333333333322224,
        "sentence_correction_recall": 0.49999999999975, "sentence_correction_f1": 0.39999999999936,
        "sentence_false_positive_rate": 0.49999999999975,
    })  # fmt: skip
    for variant in ("plome", "cscd_ns", "craspell", "spellgcn", "paddle"):
        with pytest.raises(ValueError, match=r"predictions\[0\]: has 2 characters but sources\[0\] has 3"):
            compute(**data, variant=variant)
    with pytest.raises(ValueError, match=r"predictions\[0\]: has 2 characters, fewer than sources\[0\] \(3\): the Pointer-Net code"):
        compute(**data, variant="pointer")
    # Told to, every preset truncates (here: realise's reading for all).
    assert compute(**data, variant="plome", length_mismatch="truncate")["sentence_correction_recall"] == 1.0


def test_longer_predictions():
    """我門去 -> 我們去 answered 我們去了. ReaLiSe asserts; the Pointer-Net code reads the
    source's length only (all right); FASPell zips (all right) but its correction accuracy
    compares strings (2/3); pycorrector and LEMON see a wrong whole string."""
    data = triples([("我門去", "我們去", "我們去了"), ("他門很好", "他們很好", "他們很好"), ("今天很熱", "今天很熱", "今天很熱")])
    with pytest.raises(ValueError, match=r"predictions\[0\]: has 4 characters, more than sources\[0\] \(3\): ReaLiSe asserts"):
        compute(**data)
    assert set(without_fpr(compute(**data, variant="pointer")).values()) == {1.0}
    assert compute(**data, variant="faspell")["sentence_correction_accuracy"] == 2 / 3
    assert compute(**data, variant="faspell")["sentence_correction_f1"] == 1.0
    assert_figures(compute(**data, variant="pycorrector"), {
        "sentence_correction_accuracy": 0.6666666666666666, "sentence_correction_precision": 1.0,
        "sentence_correction_recall": 0.5, "sentence_correction_f1": 0.6666666666666666,
    })  # fmt: skip
    lemon = compute(**data, variant="lemon")
    assert (lemon["sentence_detection_precision"], lemon["sentence_correction_precision"]) == (0.9999999999995, 0.49999999999975)
    # "whole" for every preset: the sentence is one wrong edit; "truncate": its prefix is right.
    assert compute(**data, length_mismatch="whole")["sentence_correction_precision"] == 0.5
    assert compute(**data, length_mismatch="truncate")["sentence_correction_precision"] == 1.0


# Sentences an LLM corrector might return (source, reference, prediction), worked by hand
# under length_mismatch="align" in the test below and in the card.
ALIGN_CASES = [
    ("我門去", "我們去", "我們去了"),  # 們 right, 了 inserted at the end: a wrong answer
    ("他們們很好", "他們很好", "他們很好"),  # the doubled 們 deleted, as the reference does
    ("今天很熱", "今天很熱", "今天很熱啊"),  # 啊 inserted in an error-free sentence
    ("我很好", "我很好", "我很好"),  # left alone
    ("我門去", "我們去", "我們去"),  # a substitution, corrected
]


def test_align_worked_example():
    """Edits (prefix, then suffix of the rest, kept; see paperscore.csc):
    1: predicted {2 們, 了 before 4}, gold {2 們}; 2: both {delete 們 at 3} (prefix 他們,
    suffix 很好); 3: predicted {啊 before 5}, gold {}; 4: none; 5: both {2 們}.
    realise: gold sentences 1, 2, 5 (3); predicted 1, 2, 3, 5 (4); detected (same
    positions, the insertion counting whole) 2, 5; corrected 2, 5.
    Detection P 2/4, R 2/3; correction the same. Accuracy: same positions (empty sets
    included) 2, 4, 5 -> 3/5; same edits 2, 4, 5 -> 3/5.
    scope, character level: predicted edits 2 + 1 + 1 + 1 = 5, gold 3; hits: 們 in 1, the
    deletion in 2, 們 in 5 = 3, all exact. Detection P 3/5, R 3/3; correction P 3/3 (over
    hits), R 3/3.
    pycorrector (P over right answers + flagged error-free sentences): TP 2 (2, 5), flagged
    error-free 1 (3): P 2/3, R 2/3, accuracy (TP + untouched clean) (2 + 1)/5."""
    data = triples(ALIGN_CASES)
    realise = compute(**data, length_mismatch="align")
    assert_figures(realise, {
        "sentence_detection_accuracy": 3 / 5, "sentence_detection_precision": 2 / 4, "sentence_detection_recall": 2 / 3, "sentence_detection_f1": 4 / 7,
        "sentence_correction_accuracy": 3 / 5, "sentence_correction_precision": 2 / 4, "sentence_correction_recall": 2 / 3, "sentence_correction_f1": 4 / 7,
    })  # fmt: skip
    scope = compute(**data, variant="scope", length_mismatch="align")
    assert (scope["char_detection_precision"], scope["char_detection_recall"]) == (3 / 5, 1.0)
    assert (scope["char_correction_precision"], scope["char_correction_recall"]) == (1.0, 1.0)
    pycorrector = compute(**data, variant="pycorrector", length_mismatch="align")
    assert (pycorrector["sentence_correction_precision"], pycorrector["sentence_correction_recall"]) == (2 / 3, 2 / 3)
    assert pycorrector["sentence_correction_accuracy"] == 3 / 5
    edits = compute(**data, length_mismatch="align", per_sentence=True)
    assert edits["predicted_edits"] == [[[2, "們"], [4, "<insert before: 了>"]], [[3, "<delete: 們>"]], [[5, "<insert before: 啊>"]], [], [[2, "們"]]]
    assert edits["reference_edits"] == [[[2, "們"]], [[3, "<delete: 們>"]], [], [], [[2, "們"]]]
    assert edits["sentence_correction_classes"] == ["FP+FN", "TP", "FP", "TN", "TP"]
    signed = compute(**data, length_mismatch="align", return_signature=True)["signature"]
    assert "|length_mismatch:align|" in signed


def test_align_a_sentence_with_an_insertion_is_never_corrected_unless_it_is_the_reference():
    """Under every preset: 我門去 -> 我們去了 answered 我們去啊 (the 們 right, another
    insertion) and 我們去 (the insertion missing) are never corrected; 我們去了 is."""
    data = triples([("我門去", "我們去了", "我們去啊"), ("我門去", "我們去了", "我們去"), ("我門去", "我們去了", "我們去了")])
    result = compute(**data, variant="all", length_mismatch="align", return_counts=True)
    for variant in POSITIONAL:  # (simple_csc and msllm align by their own rule, tested with them)
        assert result[f"{variant}/corrected_sentences"] == 1, variant
        assert result[f"{variant}/correction_hits"] == 1, variant


def rewritten_corpus(n, seed, lengths=(0, 1, 5, 20, 40, 60)):
    """n (sources, predictions, references) as an LLM might rewrite them: sources of
    `lengths` characters (0 to 60) from 300 CJK characters plus punctuation, Latin and a space (many
    distinct strings, some repeated); each prediction 10 random character operations
    (insert, delete, substitute) away from its source; each reference 0 to 2 away."""
    rng = random.Random(seed)
    alphabet = [chr(c) for c in range(0x4E00, 0x4E00 + 300)] + list("，。a1 ")

    def changed(text, times):
        text = list(text)
        for _ in range(times):
            op, i = rng.random(), rng.randrange(len(text) + 1)
            if op < 0.35 or i == len(text):
                text.insert(i, rng.choice(alphabet))
            elif op < 0.6:
                del text[i]
            else:
                text[i] = rng.choice(alphabet)
        return "".join(text)

    sources, predictions, references = [], [], []
    for _ in range(n):
        source = sources[rng.randrange(len(sources))] if sources and rng.random() < 0.05 else "".join(rng.choices(alphabet, k=rng.choice(lengths)))
        sources.append(source)
        predictions.append(changed(source, 10))
        references.append(changed(source, rng.choice([0, 1, 2])))
    return dict(sources=sources, predictions=predictions, references=references)


# Run alone in a fresh interpreter: the growth of its peak resident memory while every
# preset scores the corpus under "align".
PEAK_GROWTH = """
import json, resource, sys
from paperscore.csc_common import compute
data = json.load(open(sys.argv[1], encoding="utf-8"))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
compute(**data, variant="all", length_mismatch="align")
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_align_ten_thousand_rewritten_sentences_in_bounded_memory(tmp_path):
    """Issue 28: 10,000 sentences with 10 changed characters each once needed gigabytes.
    The alignment keeps one byte per cell of a batch of at most csc.ALIGN_CELLS cells and
    one row of distances, so its peak does not grow with the corpus: every preset on this
    corpus stays below the peak the interpreter reached loading it (growth 0; the code
    before the bound: 55 MB more).
    Its edits equal the plain-loop alignment (tests/csc_align_naive.py) on the first 1,000
    sentences, and each sentence's row of counts in the batch equals that sentence scored alone."""
    data = rewritten_corpus(10_000, seed=28)
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "shared")}
    growth_kib = int(subprocess.run([sys.executable, "-c", PEAK_GROWTH, str(path)], capture_output=True, text=True, env=env, check=True).stdout)
    assert growth_kib < 40 * 1024, growth_kib
    rows, blocks, edits = csc_common._table(data["predictions"], data["references"], data["sources"], POSITIONAL, "align", False)
    predicted, gold = edits["realise"]
    for k, (source, prediction, reference, found, expected) in enumerate(zip(data["sources"], data["predictions"], data["references"], predicted.groups(), gold.groups())):
        if k == 1000:
            break
        assert naive.from_groups(found) == naive.aligned_edits(source, prediction), k
        assert naive.from_groups(expected) == naive.aligned_edits(source, reference), k
    for k in random.Random(0).sample(range(10_000), 40):
        alone, alone_blocks, _ = csc_common._table(*([data[name][k]] for name in ("predictions", "references", "sources")), POSITIONAL, "align", False)
        for start, alone_start in zip(blocks, alone_blocks):
            assert (rows[k, start : start + len(COLUMNS)] == alone[0, alone_start : alone_start + len(COLUMNS)]).all(), k


def test_align_refuses_a_rewrite_beyond_its_limit_by_name(monkeypatch):
    """A 20,000-character sentence whose middle 10,000 characters are rewritten (10,001
    against 10,000 after the common prefix and suffix: 10,002 x 10,001 cells, more than
    ALIGN_LIMIT) is refused before any work, naming the sentence; once took 38 s and
    2.2 GB. At the limit itself (lowered here to 12 x 11 cells) a middle goes through,
    one cell more is refused."""
    source = "甲" * 5000 + "乙" * 10_000 + "甲" * 5000
    rewritten = "甲" * 5000 + "丙" * 10_001 + "甲" * 5000
    data = dict(sources=["我門去", source], predictions=["我們去了", rewritten], references=["我們去", source])
    message = (
        r"predictions\[1\]: differs from sources\[1\] in 10,001 characters against 10,000 \(after their common prefix "
        r"and suffix\): aligning them takes 100,030,002 cells, more than the 67,108,864 allowed; split the text into sentences"
    )
    with pytest.raises(ValueError, match=message):
        compute(**data, length_mismatch="align")
    monkeypatch.setattr(csc, "ALIGN_LIMIT", 12 * 11)
    fits = dict(sources=["甲" * 10], predictions=["乙" * 11], references=["甲" * 10])
    assert compute(**fits, length_mismatch="align", return_counts=True)["predicted_chars"] == 10 + 1  # 10 substitutions, 1 insertion
    with pytest.raises(ValueError, match=r"predictions\[0\]: differs from sources\[0\] in 12 characters against 10 .* takes 143 cells"):
        compute(**{**fits, "predictions": ["乙" * 12]}, length_mismatch="align")


LLM = json.loads((DATA / "csc_common" / "llm_presets.json").read_text(encoding="utf-8"))
PRINTED = {"p": "precision", "r": "recall", "f1": "f1"}


def printed_percents(printed):
    """simple-csc's printed keys ("sentence detection p", ..., "sentence fpr") as ours, in percent."""
    out = {}
    for key, value in printed.items():
        if key == "sentence fpr":
            out["sentence_false_positive_rate"] = value
        else:
            level, kind, measure = key.split(" ")
            out[f"{level}_{kind}_{PRINTED[measure]}"] = value
    return out


def printed_figures(printed):
    """printed_percents as fractions."""
    return {key: value / 100 for key, value in printed_percents(printed).items()}


@pytest.mark.parametrize("case", LLM["corpora"], ids=lambda case: case["variant"])
def test_llm_presets_equal_their_calculate_metric(case):
    """tests/data/csc_common/README.md: simple-csc's and MSLLM's calculate_metric, run in
    place, on random unequal-length corpora (normalize=(): calculate_metric itself, without
    main's preprocessing)."""
    own = ("ignore_punct", "ignore_letters") if case["variant"] == "msllm" else ()  # (the ignore its main passes)
    result = compute(case["predictions"], case["references"], case["sources"], variant=case["variant"], normalize=own)
    expected = printed_figures(case["printed"])
    assert {key: result[key] for key in expected} == pytest.approx(expected, abs=1e-12)
    assert {key for key in result if not key.endswith("_f0.5")} == set(expected)  # (F0.5: the code prints none)


@pytest.mark.parametrize("case", LLM["main"], ids=lambda case: case["variant"])
def test_llm_presets_equal_their_main_with_run_sh_flags(case):
    """Raw lines through main() with each run.sh's flags (clean_text, half-width, spaces;
    MSLLM: also unequal gold pairs dropped, punctuation and Latin letters ignored) = the
    preset's defaults."""
    result = compute(case["predictions"], case["references"], case["sources"], variant=case["variant"])
    expected = printed_figures(case["printed"])
    assert {key: result[key] for key in expected} == pytest.approx(expected, abs=1e-12)


CLLM = json.loads((DATA / "csc_common" / "cllm.json").read_text(encoding="utf-8"))
CLLM_KEYS = {"S_D_": "sentence_detection_", "S_C_": "sentence_correction_", "C_D_": "char_detection_", "C_C_": "char_correction_"}


@pytest.mark.parametrize("case", CLLM)
def test_cllm_equals_its_chuli_and_calculate_metric(case):
    """tests/data/csc_common/README.md: C-LLM's input_process (chuli: difflib projection)
    and calculate_metric run in place on random corpora whose predictions change length."""
    result = compute(case["predictions"], case["references"], case["sources"], variant="cllm")
    expected = {CLLM_KEYS[key[:4]] + PRINTED[key[4:]]: value / 100 for key, value in case["printed"].items()}
    assert {k: v for k, v in without_fpr(result).items() if not k.endswith("_f0.5")} == pytest.approx(expected, abs=1e-12)


def test_rounded_presets_give_the_printed_decimals_exactly():
    """Every figure of simple_csc, msllm and cllm is the float nearest the decimal their code
    printed, over 100 (33.333 -> 0.33333, where 33.333 / 100 is 0.33332999999999996), on
    every corpus of both fixtures; F0.5 likewise from the printed P and R: 1.25 P R /
    (0.25 P + R + 1e-10) in percent, rounded to 3 decimals as F1, over 100."""
    from decimal import Decimal

    def as_printed(percent):
        return float(Decimal(repr(percent)) / 100)

    cases = [(case, case["variant"], ("ignore_punct", "ignore_letters") if case["variant"] == "msllm" else (), printed_percents(case["printed"])) for case in LLM["corpora"]]
    cases += [(case, "cllm", None, {CLLM_KEYS[key[:4]] + PRINTED[key[4:]]: value for key, value in case["printed"].items()}) for case in CLLM]
    inexact = 0  # figures whose percent / 100 is not the nearest float (the old reading)
    for case, variant, own, percents in cases:
        result = compute(case["predictions"], case["references"], case["sources"], variant=variant, normalize=own)
        for key, percent in percents.items():
            assert result[key] == as_printed(percent), (key, result[key], percent)
            inexact += percent / 100 != as_printed(percent)
        for level in ("sentence_detection", "sentence_correction", "char_detection", "char_correction"):
            p, r = percents[f"{level}_precision"], percents[f"{level}_recall"]
            assert result[f"{level}_f0.5"] == as_printed(round(1.25 * p * r / (0.25 * p + r + 1e-10), 3)), (level, p, r)
    assert inexact > 50


def test_simple_csc_sets_are_compared_as_sets_and_the_card_says_its_code_depends_on_the_hash_seed():
    """simple-csc's calculate_metric, run in place on these three sentences under
    PYTHONHASHSEED 0-59: sentence correction precision 100.0 under 56 seeds, 0.0 under 0, 4,
    11 and 43 (it compares tuple(set) of edits whose strings hash by seed); char correction
    precision 100.0 under all. By hand: the prediction inserts 兴 and 高 before 好 as the
    gold does, in the other order: the same set of edits, one flagged sentence, corrected."""
    sources, references, predictions = ["我很好。", "今天天气好。", "他去学校。"], ["我很高兴好。", "今天天气好。", "他去学校。"], ["我很兴高好。", "今天天气好。", "他去学校。"]
    result = compute(predictions, references, sources, variant="simple_csc")
    assert result["sentence_correction_precision"] == 1.0 and result["char_correction_precision"] == 1.0
    card = (ROOT / "spaces" / "csc_common" / "README.md").read_text(encoding="utf-8")
    assert "PYTHONHASHSEED" in card and "0, 4, 11, 43" in card


def test_cllm_projection_worked_by_hand():
    """甲乙丙 -> 乙丙丁: difflib deletes 甲 and inserts 丁 (no replacement): read as the
    source, no edit. 他門很好 -> 他們很好啊: 門 -> 們 replaced, 啊 inserted and dropped. 今天ab
    -> 今天cd: Latin letters are not replaced."""
    assert csc_llm.projected(["甲乙丙", "他門很好", "今天ab"], ["乙丙丁", "他們很好啊", "今天cd"]) == ["甲乙丙", "他們很好", "今天ab"]


def test_errant_alignment_equals_simple_csc_alignment():
    """csc.align_edits(errant=True) against simple-csc's Alignment.align_seq (fixture): each
    non-match [op, b, e, b', e'] in order."""
    pairs = LLM["alignments"]
    found = _errant_lists([p["source"] for p in pairs], [p["text"] for p in pairs])
    assert [list(map(list, edits)) for edits in found] == [p["edits"] for p in pairs]


def _errant_lists(sources, texts):
    """csc.align_edits(errant=True) as the oracle's (op, b, e, b', e') lists, per pair."""
    sentence, kind, position, char, text_start = csc.align_edits(sources, texts, errant=True)
    found = [[] for _ in sources]
    for k, op, b1, start in zip(sentence.tolist(), kind.tolist(), position.tolist(), text_start.tolist()):
        name = {csc.SUB: "S", csc.DELETE: "D", csc.INSERT: "I"}[op]
        found[k].append((name, b1 - 1, b1 - (op == csc.INSERT), start, start + (op != csc.DELETE)))
    return found


def test_clean_equals_its_rule_character_by_character():
    """clean (simple-csc's clean_text, then strip) on 2,000 texts of tricky characters
    against the rule read one character at a time: tab and line ends and Zs white space
    to a space, NUL, U+FFFD and every C* character gone, the rest (U+2028 too) kept."""
    import unicodedata

    def plain(text):
        out = ""
        for char in text:
            category = unicodedata.category(char)
            if char in "\t\n\r" or category == "Zs":
                out += " "
            elif not (char in "\x00\ufffd" or category.startswith("C")):
                out += char
        return out.strip()

    rng = random.Random(5)
    tricky = list("甲a，。 \t\n\r\x00\x7f\ufffd\u3000\u00a0\u2028\u2029\u200b\ufeff\ud800\ue000\U000e0001")
    texts = ["".join(rng.choices(tricky, k=rng.randrange(8))) for _ in range(2000)] + ["甲 乙", " 甲乙 "]
    assert csc_llm._cleaned(texts) == [plain(text) for text in texts]
    assert csc_llm._cleaned(["甲 乙", " 甲乙 "]) == ["甲 乙", "甲乙"]


def test_errant_alignment_of_every_short_pair_equals_the_plain_one():
    """Every pair of strings of 1 to 4 characters from 甲, 乙, a of equal length, and of 0
    to 3 characters of any lengths, each pair twice (the second read from the first), equals
    csc_align_naive.errant_edits: equal lengths one or two places apart (aligned as
    substitutions without the programme) and three or more (甲乙a -> 乙a甲 costs 2, not 3),
    ties such as 甲乙 -> 乙甲 (2 substitutions, or an insertion and a deletion) included."""
    import itertools

    def strings(n):
        return ["".join(chars) for chars in itertools.product("甲乙a", repeat=n)]

    pairs = [(a, b) for n in range(1, 5) for a in strings(n) for b in strings(n)]
    pairs += [(a, b) for n in range(4) for m in range(4) if n != m for a in strings(n) for b in strings(m)]
    sources, texts = [a for a, _ in pairs] * 2, [b for _, b in pairs] * 2
    found = _errant_lists(sources, texts)
    assert found[: len(pairs)] == found[len(pairs) :]
    assert found[: len(pairs)] == [naive.errant_edits(a, b) for a, b in pairs]
    assert found[pairs.index(("甲乙", "乙甲"))] == [("S", 0, 1, 0, 1), ("S", 1, 2, 1, 2)]


def _plain_projection(source, prediction):
    """C-LLM's chuli, the plain way: every opcode of difflib's SequenceMatcher (defaults)."""
    import difflib

    chars = list(source)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, source, prediction).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1 and all("\u4e00" <= c <= "\u9fa5" for c in source[i1:i2]):
            chars[i1:i2] = prediction[j1:j2]
    return "".join(chars)


def test_cllm_projection_of_one_changed_character_equals_difflib():
    """A prediction one character away from its source is projected without difflib when
    the old character is not in the prediction nor the new one in the source: every such
    pair of 1 to 5 characters from 甲乙a (new ones 丙, b) and its difflib reading agree, and
    so do those excluded (甲甲 -> 乙甲: difflib inserts 乙, deletes the last 甲). At 200
    characters difflib's autojunk junks a character in more than 1% of them: 丙 + 199 a ->
    乙 + 199 a is one replacement of the whole (a is not Chinese: kept); at 199 only 丙."""
    import itertools

    sources, predictions = [], []
    for n in range(1, 6):
        for chars in itertools.product("甲乙a", repeat=n):
            for p in range(n):
                for new in "甲乙a丙b":
                    if new != chars[p]:
                        sources.append("".join(chars))
                        predictions.append("".join(chars[:p]) + new + "".join(chars[p + 1 :]))
    assert csc_llm.projected(sources, predictions) == [_plain_projection(a, b) for a, b in zip(sources, predictions)]
    assert csc_llm.projected(["甲甲"], ["乙甲"]) == ["甲甲"]
    long = ["丙" + "a" * 198, "丙" + "a" * 199]
    assert csc_llm.projected(long, ["乙" + text[1:] for text in long]) == ["乙" + "a" * 198, "丙" + "a" * 199]


@pytest.mark.parametrize("variant", ["simple_csc", "msllm"])
def test_llm_presets_at_users_sizes_equal_a_plain_per_sentence_reading(variant):
    """10,000 rewritten sentences (rewritten_corpus: many distinct strings, empty and
    repeated ones, 0 to 25 characters, 10 operations away: a plain-loop table stays quick)
    score as csc_align_naive.llm_counts (plain loops, from the rule) summed, and each of 40
    sentences scores alone as its row in the batch."""
    data = rewritten_corpus(10_000, seed=22, lengths=(0, 1, 3, 8, 15))
    own = tuple(step for step in PRESETS[variant].normalize if step.startswith("ignore_"))  # msllm's edit filters, no text step
    ignore = csc_llm.ignored(own)
    result = compute(**data, variant=variant, normalize=own, return_counts=True)
    expected = {}
    for source, reference, prediction in zip(data["sources"], data["references"], data["predictions"]):
        for key, value in naive.llm_counts(source, reference, prediction, variant == "msllm", ignore).items():
            expected[key] = expected.get(key, 0) + value
    assert {key: result[key] for key in expected} == expected
    rows, blocks, _ = csc_common._table(data["predictions"], data["references"], data["sources"], (variant,), None, False, normalize=own)
    for k in random.Random(1).sample(range(10_000), 40):
        alone = compute(**{name: [values[k]] for name, values in data.items()}, variant=variant, normalize=own, return_counts=True)
        assert [alone[name] for name in COLUMNS] == rows[k, blocks[0] : blocks[0] + len(COLUMNS)].tolist(), k


def test_the_plain_errant_alignment_is_simple_csc_s():
    """The oracle itself against simple-csc's Alignment (fixture)."""
    assert [list(map(list, naive.errant_edits(p["source"], p["text"]))) for p in LLM["alignments"]] == [p["edits"] for p in LLM["alignments"]]


def test_llm_presets_worked_by_hand():
    """我很好 -> 我很很好: simple-csc's alignment keeps the first 我 and, at 很, prefers the
    diagonal (the first cheapest of keep, insert, delete from the end), so the insertion is
    the first 很: span (1, 1) (align's keeps the prefix 我很 and inserts before 好: (2, 2));
    the reference is the same sentence, so the prediction is corrected. Sentence 2: 他门 -> 他们 gold, the
    prediction deletes 门 (span (1, 2), no new text) against the gold substitution (1, 2,
    们): detected (same source span), not corrected. simple_csc: flagged 2, gold 2,
    detected 2, corrected 1: detection P = R = 100, correction P = R = 50; characters: 2
    predicted, 2 gold, 2 span hits, 1 exact. MSLLM keys the target span too: sentence 2's
    deletion spans (1, 1) in the prediction, the substitution (1, 2): not detected, so
    sentence detection P = R = 50 and character detection P = R = 50 (normalize=(): MSLLM's
    run.sh would drop sentence 1, whose reference changes length)."""
    data = dict(sources=["我很好", "他门"], references=["我很很好", "他们"], predictions=["我很很好", "他"])
    simple = compute(**data, variant="simple_csc", return_counts=True, per_sentence=True)
    assert (simple["sentence_detection_precision"], simple["sentence_detection_recall"]) == (1.0, 1.0)
    assert (simple["sentence_correction_precision"], simple["sentence_correction_recall"]) == (0.5, 0.5)
    assert (simple["position_hits"], simple["exact_hits"], simple["predicted_chars"], simple["gold_chars"]) == (2, 1, 2, 2)
    assert simple["predicted_edits"] == [[[2, "<insert before: 很>"]], [[2, "<delete: 门>"]]]
    msllm = compute(**data, variant="msllm", normalize=())
    assert (msllm["sentence_detection_precision"], msllm["char_detection_precision"]) == (0.5, 0.5)


def test_llm_presets_options_are_named_and_refused_where_they_do_not_apply():
    data = dict(sources=["我很好"], references=["我很好"], predictions=["我很好"])
    with pytest.raises(ValueError, match="length_mismatch: variant 'simple_csc' reads every sentence"):
        compute(**data, variant="simple_csc", length_mismatch="align")
    with pytest.raises(ValueError, match="remove_de: variant 'msllm'"):
        compute(**data, variant="msllm", remove_de=True)
    with pytest.raises(ValueError, match="sources: variant 'simple_csc' aligns sentences, it cannot read label lines"):
        compute(["1, 0"], ["1, 0"], variant="simple_csc")
    with pytest.raises(ValueError, match="normalize: 'lower' is not one of"):
        compute(**data, normalize=("lower",))
    assert "simple_csc/sentence_correction_f1" not in compute(["1, 0"], ["1, 0"], variant="all")
    signed = compute(**data, variant="msllm", return_signature=True)["signature"]
    assert "|normalize:preset|" in signed
    signed = compute(**data, variant="msllm", normalize=["halfwidth", "clean"], return_signature=True)["signature"]
    assert "|normalize:clean+halfwidth|" in signed


def test_normalize_applies_to_every_preset_and_drops_sentences_by_row():
    """Full-width ＡＢ and a space: after clean + halfwidth + no_spaces the prediction equals
    the reference (realise: corrected); drop_unequal leaves out the pair whose reference
    changes length (its row all zeros: 1 sentence scored)."""
    data = dict(sources=["甲乙ＡＢ", "丙丁"], references=["甲丙AB", "丙丁戊"], predictions=["甲丙 ＡＢ", "丙丁"])
    result = compute(**data, normalize=["clean", "halfwidth", "no_spaces"], length_mismatch="whole", return_counts=True)
    assert (result["sentence_correction_precision"], result["sentence_correction_recall"]) == (1.0, 0.5)
    dropped = compute(**data, normalize=["clean", "halfwidth", "no_spaces", "drop_unequal"], return_counts=True)
    assert (dropped["sentences"], dropped["sentence_correction_f1"]) == (1, 1.0)


FASPELL = json.loads((DATA / "csc_conventions" / "faspell_nonstrict.json").read_text(encoding="utf-8"))["faspell_nonstrict"]
FASPELL_KEYS = {"char_p": "char_{}_precision", "char_r": "char_{}_recall", "sent_p": "sentence_{}_precision", "sent_r": "sentence_{}_recall", "sent_a": "sentence_{}_accuracy"}


def test_faspell_nonstrict_equals_faspell_and_ecspell_run_in_place():
    """iqiyi/FASPell test_unit(strict=False) (its printed fractions) and Aopolin-Lv/ECSpell
    compute_metrics(strict=False) (its ε 1e-8 sentence figures) on 2,000 random corpora of
    triples of unequal lengths too (tests/data/csc_conventions/README.md): every figure of
    faspell_nonstrict; the strict faspell preset differs on many of them."""
    differ = 0
    for case in FASPELL:
        sources, references, predictions = map(list, zip(*case["triples"]))
        ours = compute(predictions, references, sources, variant="faspell_nonstrict")
        level = None
        for line in case["faspell_printed"].splitlines():
            if line.endswith(":"):
                level = "correction" if line.startswith("corretion") else "detection"
                continue
            name, fraction = line.split("=")
            numerator, denominator = map(int, fraction.split("/"))
            expected = numerator / denominator if denominator else 0.0  # (FASPell prints 0/0; zero_division 0)
            assert ours[FASPELL_KEYS[name].format(level)] == pytest.approx(expected, abs=1e-12), (case, line)
        ecspell = [ours[f"sentence_{level}_{k}"] for level in ("detection", "correction") for k in ("accuracy", "precision", "recall", "f1")]
        assert ecspell == pytest.approx(case["ecspell"], abs=1e-6), case
        differ += ours != compute(predictions, references, sources, variant="faspell")
    assert differ > 300


def test_faspell_nonstrict_by_hand():
    """我門去 -> gold 我們去; the prediction 你門去 changes the wrong character. Strict FASPell:
    flagged, not detected (positions {1} against {2}): detection P = R = 0, accuracy 0/2
    with the clean second sentence 1/2. Non-strict: any change of an erroneous sentence is a
    detection: P = 1/1, R = 1/1, accuracy 2/2; correction is the same in both (0)."""
    data = triples([("我門去", "我們去", "你門去"), ("好", "好", "好")])
    strict, loose = (compute(**data, variant=v) for v in ("faspell", "faspell_nonstrict"))
    assert (strict["sentence_detection_precision"], strict["sentence_detection_accuracy"]) == (0.0, 0.5)
    assert (loose["sentence_detection_precision"], loose["sentence_detection_recall"], loose["sentence_detection_accuracy"]) == (1.0, 1.0, 1.0)
    assert loose["sentence_correction_f1"] == strict["sentence_correction_f1"] == 0.0


def test_f05_beside_f1_in_the_llm_presets_by_hand():
    """F0.5 = 1.25 P R / (0.25 P + R) from the P and R each preset prints (simple-csc: in
    percent, rounded to 3 decimals, then the F rounded). Three sentences, gold 甲->乙 in each;
    the prediction corrects sentence 1, puts 丙 in sentence 2, corrects sentence 3 and changes
    its 丁 as well: character correction P = 2/4 = 50.0, R = 2/3 = 66.667; F1 = 2·50·66.667/
    116.667 = 57.143, F0.5 = 1.25·50·66.667/(12.5 + 66.667) = 4166.6875/79.167 = 52.632
    (52.6316...). Not in the other presets (their code and papers print F1 only)."""
    data = dict(sources=["甲", "甲", "甲丁"], references=["乙", "乙", "乙丁"], predictions=["乙", "丙", "乙戊"])
    for variant in ("simple_csc", "msllm", "cllm"):
        result = compute(**data, variant=variant)
        assert (result["char_correction_precision"], result["char_correction_recall"]) == (0.5, 0.66667), variant
        assert (result["char_correction_f1"], result["char_correction_f0.5"]) == (0.57143, 0.52632), variant
        assert {key.removesuffix("_f0.5") for key in result if key.endswith("_f0.5")} == {f"{u}_{l}" for u in ("sentence", "char") for l in ("detection", "correction")}
    assert not [key for key in compute(**data, variant="all") if key.endswith("_f0.5") and key.split("/")[0] not in ("simple_csc", "msllm", "cllm")]


def test_cllm_cherrant_mode_is_refused_by_name():
    """C-LLM's ChERRANT mode runs `parallel_to_m2.py -g word` (ktlKTL/C-LLM calcuate_metric.py
    process_txt), which needs LTP's neural word segmenter: refused with the reason, never
    approximated."""
    with pytest.raises(ValueError, match=r"variant: 'cllm_cherrant': C-LLM's default --mode cherrant .* LTP 4.1 .* variant 'cllm' is C-LLM's difflib mode"):
        compute(["甲"], ["甲"], ["甲"], variant="cllm_cherrant")


SIMPLIFIED = json.loads((DATA / "csc_conventions" / "simple_csc_simplified.json").read_text(encoding="utf-8"))


def test_simplified_and_ignore_chars_equal_simple_csc_main_run_in_place():
    """simple-csc's main() with --to_simplified (opencc 1.4.2) --to_halfwidth --ignore_space
    and a random --ignore_chars, run in place on 200 corpora of traditional and simplified
    characters, full-width letters, spaces (tests/data/csc_conventions/README.md): every
    printed figure; 44 of them score otherwise without the two options."""
    for case in SIMPLIFIED:
        result = compute(case["predictions"], case["references"], case["sources"], variant="simple_csc", normalize=("clean", "simplified", "halfwidth", "no_spaces"), ignore_chars=case["ignore_chars"])
        expected = printed_figures(case["printed"])
        assert {key: result[key] for key in expected} == pytest.approx(expected, abs=1e-12), case


def test_simplified_needs_the_opencc_extra(monkeypatch):
    """Without the optional opencc package the step is refused, naming the extra; it is off
    unless named (no preset names it)."""
    monkeypatch.setitem(sys.modules, "opencc", None)  # (import opencc then raises ImportError)
    data = dict(sources=["他們"], references=["他們"], predictions=["他們"])
    with pytest.raises(ValueError, match=r"normalize: 'simplified' needs the opencc package, .*paperscore\[opencc\]"):
        compute(**data, normalize=("simplified",))
    assert compute(**data, variant="all")["realise/sentence_correction_accuracy"] == 1.0
    assert not any("simplified" in preset.normalize for preset in PRESETS.values())


def test_simplified_by_hand():
    """The source 他們在臺灣, gold 他們在台灣 (one edit, 4 台), prediction 他们在台湾 (three
    edits: 2 们, 4 台, 5 湾): as written, flagged and wrong. Under OpenCC t2s all three read
    他们在台湾: no edit on either side, a true negative (accuracy 1, nothing flagged)."""
    from opencc import OpenCC

    assert OpenCC("t2s").convert("他們在臺灣") == "他们在台湾" == OpenCC("t2s").convert("他們在台灣")
    data = dict(sources=["他們在臺灣"], references=["他們在台灣"], predictions=["他们在台湾"])
    plain = compute(**data, return_counts=True)
    assert (plain["predicted_chars"], plain["gold_chars"], plain["sentence_correction_accuracy"]) == (3, 1, 0.0)
    converted = compute(**data, normalize=("simplified",), return_counts=True, return_signature=True)
    assert (converted["predicted_chars"], converted["gold_chars"], converted["sentence_correction_accuracy"]) == (0, 0, 1.0)
    assert "|normalize:simplified|" in converted["signature"]


def test_ignore_chars_and_punctuation_by_hand():
    """我門好， -> gold 我們好，; the prediction 我們好。 also changes the comma: realise reads
    edits {2 們, 4 。} against {2 們}: flagged, not detected. With ignore_punct (or
    ignore_chars="，") the edit of the source's ， is not scored: corrected (P = R = 1). With
    ignore_chars="門" the 們 edits go on both sides: the prediction's 。 alone against no
    gold edit is a false alarm (FPR 1/1). Signed; label lines have no source characters."""
    data = dict(sources=["我門好，"], references=["我們好，"], predictions=["我們好。"])
    assert compute(**data)["sentence_correction_precision"] == 0.0
    # (simple_csc's own halfwidth step makes the source's ， a , first, as its main does)
    for variant, options in (("realise", dict(normalize=("ignore_punct",))), ("scope", dict(ignore_chars="，")), ("simple_csc", dict(ignore_chars=",")), ("realise", dict(ignore_chars="，"))):
        assert compute(**data, variant=variant, **options)["sentence_correction_precision"] == 1.0, (variant, options)
    assert compute(**data, variant="simple_csc", ignore_chars="，")["sentence_correction_precision"] == 0.0
    result = compute(**data, ignore_chars="門", return_counts=True, return_signature=True)
    assert (result["gold_chars"], result["predicted_chars"], result["sentence_false_positive_rate"]) == (0, 1, 1.0)
    assert "|ignore_chars:門|" in result["signature"]
    letters = compute(sources=["ab甲"], references=["ab乙"], predictions=["ac乙"], normalize=("ignore_letters",))
    assert letters["sentence_correction_f1"] == 1.0
    with pytest.raises(ValueError, match="ignore_chars: label lines have no source characters"):
        compute(["1, 0"], ["1, 0"], ignore_chars="，")
    with pytest.raises(ValueError, match="ignore_chars: 3 is not a string"):
        compute(**data, ignore_chars=3)


VISUAL_C3 = json.loads((DATA / "csc_conventions" / "visual_c3.json").read_text(encoding="utf-8"))
VISUAL_C3_NAMES = {"Sentence": "sentence", "Char": "char", "Detection": "detection", "Correction": "correction", "Bie": "misspelled", "Cuo": "faked", "p": "precision", "r": "recall", "f1": "f1"}


def test_visual_c3_equals_its_eval_run_in_place():
    """THUKElab/Visual-C3 eval.py calculate_metric, run in place on 600 random corpora of
    sources with faked characters (X), a corrected stream and an OCR stream marking X
    (tests/data/csc_conventions/README.md): its 24 printed figures (percent)."""
    for case in VISUAL_C3:
        ours = csc_common.visual_c3(case["predictions"], case["references"], case["sources"], case["ocr_predictions"])
        expected = {"_".join(VISUAL_C3_NAMES[part] for part in key.split("_")): value / 100 for key, value in case["printed"].items()}
        assert ours == pytest.approx(expected, abs=1e-12), case


def test_visual_c3_by_hand():
    """Source 甲X丙 (X: a faked character), reference 甲乙丁: a faked error at 2, a misspelled
    one at 3. The OCR stream marks 2 (甲X丙) and the prediction reads 甲乙丁: faked detected
    and corrected, misspelled detected (3 changed, the OCR has no X there) and corrected
    (the prediction equals the reference outside the faked position): every P and R 100.
    A second sentence 乙乙 -> 乙乙 that the prediction changes to 乙甲: a misspelled false
    alarm: misspelled sentence P = 1/2 (50.0), R = 1/1; F1 = 2·50·100/150 = 66.667; faked
    untouched: P = R = 100, and with no faked error nor hit R is 100 (its rule)."""
    result = csc_common.visual_c3(["甲乙丁", "乙甲"], ["甲乙丁", "乙乙"], ["甲X丙", "乙乙"], ["甲X丙", "乙乙"])
    assert (result["sentence_correction_misspelled_precision"], result["sentence_correction_misspelled_recall"], result["sentence_correction_misspelled_f1"]) == (0.5, 1.0, 0.66667)
    assert (result["char_detection_faked_precision"], result["char_correction_faked_recall"], result["sentence_correction_faked_f1"]) == (1.0, 1.0, 1.0)
    assert (result["char_detection_misspelled_precision"], result["char_detection_misspelled_recall"]) == (0.5, 1.0)
    nothing = csc_common.visual_c3(["甲"], ["甲"], ["甲"], ["甲"])
    assert (nothing["char_detection_faked_precision"], nothing["char_detection_faked_recall"]) == (0.0, 1.0)
    with pytest.raises(ValueError, match=r"ocr_predictions\[0\]: has 2 characters, sources\[0\] 3: Visual-C3 asserts equal lengths"):
        csc_common.visual_c3(["甲乙丁"], ["甲乙丁"], ["甲X丙"], ["甲X"])


def test_references_of_another_length():
    """ReaLiSe's gold is label lines, edits of the source's characters: the reference 我們去了
    for the source 我門去 has no such reading, and cutting it would silently drop the 了.
    The Pointer-Net code reads the reference by the source's length: 們 at 2, predicted
    right, so every figure is 1."""
    data = triples([("我門去", "我們去了", "我們去"), ("今天很熱", "今天很熱", "今天很熱")])
    for variant in ("realise", "scope"):
        with pytest.raises(ValueError, match=r"references\[0\]: has 4 characters, not as many as sources\[0\] \(3\)"):
            compute(**data, variant=variant)
    assert set(without_fpr(compute(**data, variant="pointer")).values()) == {1.0}


DE = [
    ("他跑的很快", "他跑得很快", "他跑得很快"),  # a right 得, removed too
    ("我慢慢的走", "我慢慢的走", "我慢慢地走"),  # a wrong 地 on an error-free sentence, removed
    ("他門很好", "他們很好", "他們很好"),
    ("今天很熱", "今天很熱", "今天很熱"),
]


def test_remove_de_is_realises_sighan13_post_processing():
    """Without it: changed 3, erroneous 2, right 2: P 2/3, R 1. With it (ReaLiSe's and
    SCOPE's remove_de.py on the label file): rows 1 and 2 are left unchanged: P 1/1,
    R 1/2, F1 2/3; SCOPE's char level likewise 1/1, 1/2."""
    data = triples(DE)
    plain = compute(**data)
    assert (plain["sentence_correction_precision"], plain["sentence_correction_recall"]) == (2 / 3, 1.0)
    removed = compute(**data, remove_de=True)
    assert_figures(removed, {
        "sentence_detection_accuracy": 0.75, "sentence_detection_precision": 1.0, "sentence_detection_recall": 0.5,
        "sentence_detection_f1": 0.6666666666666666, "sentence_correction_accuracy": 0.75, "sentence_correction_precision": 1.0,
        "sentence_correction_recall": 0.5, "sentence_correction_f1": 0.6666666666666666,
    })  # fmt: skip
    scope = compute(**data, variant="scope", remove_de=True)
    assert (scope["char_detection_precision"], scope["char_correction_recall"], scope["char_correction_f1"]) == (1.0, 0.5, 0.6666666666666666)
    # Label lines too; the gold is never touched.
    pids = ["00001", "00002", "00003", "00004"]
    predicted, gold = extract_edits(data["sources"], data["predictions"], data["references"])
    assert compute(format_label_lines(pids, predicted), format_label_lines(pids, gold), remove_de=True) == removed


def test_spellgcn_skips_a_predicted_punctuation_mark_at_the_first_position():
    """今天好 answered 。天好: SpellGCN's label writer skips it, so the sentence is untouched
    (TN): everything right, F1 = 2/(2 + 1e-8) as its code computes; realise counts a FP."""
    data = triples([("今天好", "今天好", "。天好"), ("他門很好", "他們很好", "他們很好")])
    result = compute(**data, variant="spellgcn")
    assert result["sentence_correction_precision"] == 1.0 and result["sentence_correction_f1"] == 0.999999995
    assert result["char_joint_f1"] == 0.9999999850000002
    assert compute(**data)["sentence_correction_precision"] == 0.5


NEGATIVE = [("今天很熱", "今天很熱", "今天很熱"), ("我很高興", "我很高興", "我很高興")]


@pytest.mark.parametrize("zero_division", [0.0, 1.0, NAN])
def test_an_all_negative_corpus_takes_the_policy_where_the_code_divides_by_zero(zero_division):
    """Nothing to correct and nothing changed. ReaLiSe, SCOPE, SpellGCN, FASPell and
    CSCD-NS raise ZeroDivisionError for every P and R (the policy), accuracy is 2/2;
    pycorrector, PaddleNLP and the Pointer-Net code return 0 on an empty denominator (the
    policy, 0 by default); PLOME's and CRASpell's +0.001 and LEMON's +1e-12 give 0 whatever
    the policy; SpellGCN's dc_joint adds 1e-8 (0)."""
    result = compute(**triples(NEGATIVE), variant="all", zero_division="nan" if math.isnan(zero_division) else zero_division)
    zd = zero_division
    f1_of_policy = NAN if math.isnan(zd) else 2 * zd * zd / (zd + zd) if zd else 0.0  # 2PR/(P+R), 0 when P+R = 0
    for key, value in result.items():
        variant, name = key.split("/")
        if name.endswith("accuracy") or name == "sentence_false_positive_rate":
            expected = 1.0 if name.endswith("accuracy") else 0.0
        elif variant in ("lemon", "craspell") or name.startswith("char_joint") or (variant == "plome" and name.startswith("char")):
            expected = 0.0
        elif variant in ("spellgcn", "plome", "paddle", "cscd_ns") and name.endswith("f1"):
            expected = NAN if math.isnan(zd) else zd  # 2PR/(P+R+eps): P = R = zd gives zd (to 1e-8)
        elif name.endswith("f1"):
            expected = f1_of_policy
        else:
            expected = zd
        if math.isnan(expected):
            assert math.isnan(value), key
        else:
            assert value == pytest.approx(expected, abs=1e-7), (key, value, expected)


def test_an_all_negative_corpus_with_a_false_alarm():
    """One error-free sentence changed: P = 0/1 = 0 for the paper presets, R = 0/0 (policy);
    LEMON's FPR 1/(2 + 1e-12)."""
    data = triples([("今天很熱", "今天很熱", "今天很熟"), ("我很高興", "我很高興", "我很高興")])
    result = compute(**data, variant="all", zero_division=1.0)
    assert result["realise/sentence_correction_precision"] == 0.0 and result["realise/sentence_correction_recall"] == 1.0
    assert result["realise/sentence_correction_accuracy"] == 0.5
    assert result["lemon/sentence_false_positive_rate"] == 0.49999999999975
    assert result["plome/char_detection_precision"] == 0.0  # erroneous sentences only: 0/(0 + 0.001)
    assert result["scope/char_detection_precision"] == 0.0  # every sentence: 0/1


def test_char_subset_decides_which_sentences_enter_the_character_level():
    """MIXED under PLOME's code on all 8 sentences: the false alarm of row 4 joins the
    detection denominator, 5/(7 + 0.001); SCOPE on the erroneous ones only: 5/6."""
    data = triples(MIXED)
    assert compute(**data, variant="plome", char_subset="all")["char_detection_precision"] == 5 / 7.001
    assert compute(**data, variant="scope", char_subset="erroneous")["char_detection_precision"] == 5 / 6
    # SpellGCN over all sentences: its position-0 FP stays, 5/(7 + 1).
    assert compute(**data, variant="spellgcn", char_subset="all")["char_detection_precision"] == 5 / 8


def test_per_sentence_classes_and_edits():
    """MIXED under the paper-common count: a wrong answer on an erroneous sentence is FP
    and FN; under the official-style count of PaddleNLP and pycorrector, only FN."""
    result = compute(**triples(MIXED), per_sentence=True)
    assert result["sentence_detection_classes"] == ["TP", "TP", "FP+FN", "FP", "TN", "FP+FN", "FN", "TP"]
    assert result["sentence_correction_classes"] == ["TP", "FP+FN", "FP+FN", "FP", "TN", "FP+FN", "FN", "FP+FN"]
    assert result["predicted_edits"][7] == [[2, "园"], [5, "们"]] and result["reference_edits"][6] == [[3, "健"]]
    paddle = compute(**triples(MIXED), variant="paddle", per_sentence=True)
    assert paddle["sentence_correction_classes"] == ["TP", "FN", "FN", "FP", "TN", "FN", "FN", "FN"]
    lemon = compute(**triples(MIXED), variant="lemon", per_sentence=True)
    assert lemon["sentence_detection_classes"] == ["TP", "TP", "TP", "FP", "TN", "TP", "FN", "TP"]
    assert "sentence_detection_classes" not in compute(**triples(MIXED), variant="pycorrector", per_sentence=True)
    assert "sentence_detection_classes" not in compute(**triples(MIXED), variant="pointer", per_sentence=True)


# ---------------------------------------------------------------------------------------
# Properties

ALPHABET = "甲乙丙丁地得。"


@st.composite
def corpora(draw, min_size=0):
    n = draw(st.integers(min_size, 10))
    sources = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=5), min_size=n, max_size=n))

    def variant(source):
        return "".join(draw(st.sampled_from(ALPHABET)) if draw(st.integers(0, 3)) == 0 else c for c in source)

    references = [variant(s) for s in sources]
    predictions = [draw(st.sampled_from([s, r, variant(s), variant(r)])) for s, r in zip(sources, references)]
    return sources, predictions, references


def per_sentence_realise(sources, predictions, references):
    """ReaLiSe's sentence level written the obvious way, one sentence at a time."""
    tp = ctp = targ = pred = hit = chit = 0
    for s, p, r in zip(sources, predictions, references):
        gold = sorted((i, c) for i, (a, c) in enumerate(zip(s, r), 1) if a != c)
        mine = sorted((i, c) for i, (a, c) in enumerate(zip(s, p), 1) if a != c)
        same = [i for i, _ in gold] == [i for i, _ in mine]
        targ, pred = targ + bool(gold), pred + bool(mine)
        hit, chit = hit + same, chit + (gold == mine)
        tp, ctp = tp + (bool(mine) and same), ctp + (bool(mine) and gold == mine)
    return [hit, tp, ctp, chit, targ, pred]


@settings(max_examples=200, deadline=None)
@given(corpora())
def test_counts_equal_a_per_sentence_reading_of_realise(corpus):
    sources, predictions, references = corpus
    counts = compute(predictions, references, sources, return_counts=True)
    names = ["detection_hits", "detected_sentences", "corrected_sentences", "correction_hits", "gold_sentences", "predicted_sentences"]
    assert [counts[k] for k in names] == per_sentence_realise(sources, predictions, references)


@settings(max_examples=100, deadline=None)
@given(corpora(), st.sampled_from([0.0, 1.0]))
def test_figures_lie_in_the_unit_interval(corpus, zero_division):
    result = compute(corpus[1], corpus[2], corpus[0], variant="all", zero_division=zero_division)
    assert all(0.0 <= v <= 1.0 for v in result.values())


@settings(max_examples=60, deadline=None)
@given(corpora(min_size=1))
def test_perfect_predictions(corpus):
    """1 for the presets that add no epsilon anywhere; within 1e-3 of 1 for the others.
    (A correction into 。 at the first character is one SpellGCN's writer drops.)"""
    sources, _, references = corpus
    if all(s == r for s, r in zip(sources, references)):
        references = [("乙" if s[0] != "乙" else "甲") + s[1:] for s in sources]  # something to correct
    assume(not any(r[0] == "。" != s[0] for s, r in zip(sources, references)))
    result = compute(references, references, sources, variant="all")
    for key, value in result.items():
        variant, name = key.split("/")
        if variant in ("cllm", "msllm"):
            continue  # their code skips edits of some characters (non-Chinese; punctuation, Latin letters): tested with them
        if name == "sentence_false_positive_rate":
            assert value == 0.0
        elif variant in ("realise", "scope", "pointer", "faspell", "cscd_ns", "pycorrector"):
            assert value == 1.0, key
        else:
            assert 1 - 1e-3 < value <= 1.0, key


@settings(max_examples=60, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_order_of_sentences_does_not_matter(corpus, rng):
    order = list(range(len(corpus[0])))
    rng.shuffle(order)
    shuffled = [[column[i] for i in order] for column in corpus]
    assert compute(shuffled[1], shuffled[2], shuffled[0], variant="all") == compute(corpus[1], corpus[2], corpus[0], variant="all")


@settings(max_examples=60, deadline=None)
@given(corpora(), st.lists(st.integers(0, 10), max_size=3))
def test_shards_add_up_to_one_pass(corpus, cuts):
    sources, predictions, references = corpus
    bounds = [0] + sorted(min(c, len(sources)) for c in cuts) + [len(sources)]
    total = dict.fromkeys(COLUMNS, 0)
    for a, b in zip(bounds, bounds[1:]):
        shard = compute(predictions[a:b], references[a:b], sources[a:b], variant="spellgcn", return_counts=True)
        for key in total:
            total[key] += shard[key]
    whole = compute(predictions, references, sources, variant="spellgcn", return_counts=True)
    assert total == {k: whole[k] for k in COLUMNS}


@settings(max_examples=60, deadline=None)
@given(corpora(), st.booleans())
def test_all_equals_each_preset_alone(corpus, remove_de):
    sources, predictions, references = corpus
    together = compute(predictions, references, sources, variant="all", remove_de=remove_de)
    for variant in VARIANTS:
        # remove_de applies to the positional presets only (the LLM ones refuse it alone)
        alone = compute(predictions, references, sources, variant=variant, remove_de=remove_de and variant in READS_LABELS)
        assert alone == {key.split("/")[1]: v for key, v in together.items() if key.startswith(variant + "/")}


@settings(max_examples=60, deadline=None)
@given(corpora(), st.sampled_from(POSITIONAL))  # (C-LLM projects sentences)
def test_label_lines_give_what_sentences_give(corpus, variant):
    sources, predictions, references = corpus
    pids = [f"{i:05d}" for i in range(len(sources))]
    predicted, gold = extract_edits(sources, predictions, references)
    from_labels = compute(format_label_lines(pids, predicted)[::-1], format_label_lines(pids, gold), variant=variant)
    assert from_labels == compute(predictions, references, sources, variant=variant)


# ---------------------------------------------------------------------------------------
# Options, bootstrap, signature, errors


def test_bootstrap_intervals_are_reproducible_and_bracket_the_estimate():
    rng = np.random.default_rng(0)
    _, sources = parse_test_input(lines(SIGHAN15 / "SIGHAN15_CSC_TestInput.txt"), "input")
    _, gold = parse_label_lines(lines(SIGHAN15 / "SIGHAN15_CSC_TestTruth.txt"), "truth")
    references = apply_edits(sources, gold)
    predictions = [(r if rng.random() < 0.6 else s) if s != r else (("的" if s[0] != "的" else "地") + s[1:] if rng.random() < 0.15 else s) for s, r in zip(sources, references)]
    kwargs = dict(variant="all", confidence_level=0.9, n_resamples=200, seed=3)
    result = compute(predictions, references, sources, **kwargs)
    assert result == compute(predictions, references, sources, **kwargs)
    for key in ("realise/sentence_correction_f1", "scope/char_correction_f1", "lemon/sentence_false_positive_rate", "pointer/char_detection_precision"):
        assert result[f"{key}_low"] < result[key] < result[f"{key}_high"], key
    # The recall spread is the binomial one over the 550 erroneous sentences.
    half = (result["realise/sentence_detection_recall_high"] - result["realise/sentence_detection_recall_low"]) / 2
    r = result["realise/sentence_detection_recall"]
    assert half == pytest.approx(1.645 * math.sqrt(r * (1 - r) / 550), rel=0.25)


def test_signature_names_the_convention():
    signed = without_references(compute(**TOY15, return_signature=True)["signature"])
    assert signed.startswith("csc_common|variant:realise|char_subset:preset|length_mismatch:preset|remove_de:no|normalize:preset|input:labels|zero_division:0|paperscore:")
    signed = without_references(compute(**triples(MIXED), variant="all", char_subset="all", length_mismatch="whole", remove_de=True, zero_division="nan", return_signature=True)["signature"])
    assert signed.startswith("csc_common|variant:all|char_subset:all|length_mismatch:whole|remove_de:yes|normalize:preset|input:sentences|zero_division:nan|")


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((["我"], ["我"], ["我"]), {"variant": "bert"}, "variant: 'bert' is not one of"),
        ((["我"], ["我"], ["我"]), {"variant": "pycorrector", "char_subset": "all"}, "char_subset: variant 'pycorrector' has no character level"),
        ((["我"], ["我"], ["我"]), {"char_subset": "positive"}, "char_subset: 'positive' is not one of"),
        ((["我"], ["我"], ["我"]), {"length_mismatch": "zip"}, "length_mismatch: 'zip' is not one of"),
        ((["我"], ["我"], ["我"]), {"remove_de": "yes"}, "remove_de: expected True or False, got str 'yes'"),
        ((["我"], ["我"], ["我"]), {"zero_division": "warn"}, "zero_division"),
        ((["我"], ["我"], ["我"]), {"confidence_level": 95}, "confidence_level"),
        ((["我", "你"], ["我"], ["我", "你"]), {}, "predictions and references differ in length: 2 against 1"),
        ((["我", 5], ["我", "你"], ["我", "你"]), {}, r"predictions\[1\]: expected a sentence \(str\), got int 5"),
        ((["我"], ["我"], ["我", "你"]), {}, "differ in length"),
        ((["我們"], ["我"], ["我"]), {"variant": "plome"}, r"predictions\[0\]: has 2 characters but sources\[0\] has 1"),
        ((["我"], ["我們"], ["我們"]), {"variant": "pointer"}, r"predictions\[0\]: has 1 characters, fewer than sources\[0\] \(2\)"),
        ((["我們"], ["我"], ["我"]), {"variant": "all"}, r"predictions\[0\]: has 2 characters"),
        ((["我", "你"], ["我", "你"], ["我", None]), {}, r"sources\[1\]: mixes sentences and None"),
        ((["a, 0"], ["我喜歡"], None), {}, r"references\[0\]: '我喜歡' is not a label line"),
        ((["a, 0", "c, 0"], ["a, 0", "b, 0"], None), {}, r"predictions: 1 pids not in the truth: 'c'; 1 truth pids missing: 'b'"),
        ((["a, 2, 甲, 2, 乙"], ["a, 0"], None), {}, r"predictions\[0\]: position 2 is given twice"),
    ],
)
def test_bad_input_is_a_value_error_that_says_where(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(*args, **kwargs)


# ---------------------------------------------------------------------------------------
# Paired significance (paperscore compare)


def spelling(n=300):
    """SIGHAN15 test sentences: A changes nothing, B makes every gold correction."""
    _, sources = parse_test_input(lines(SIGHAN15 / "SIGHAN15_CSC_TestInput.txt"), "input")
    _, gold = parse_label_lines(lines(SIGHAN15 / "SIGHAN15_CSC_TestTruth.txt"), "truth")
    references = apply_edits(sources, gold)[:n]
    return references, sources[:n], list(references), sources[:n]


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_compare_under_every_preset(method):
    references, weak, strong, sources = spelling()
    for key in ("realise/sentence_correction_f1", "pointer/char_correction_f1", "lemon/sentence_detection_f1"):
        same = compare.compare("csc_common", references, weak, weak, sources=sources, variant="all", metric_key=key, method=method, n_resamples=200, seed=0)
        assert same["p_value"] == 1.0 and same["difference"] == 0.0
        better = compare.compare("csc_common", references, weak, strong, sources=sources, variant="all", metric_key=key, method=method, n_resamples=200, seed=0)
        assert better["p_value"] == pytest.approx(1 / 201) and better["difference"] > 0.5
        result = compute(strong, references, sources, variant="all")
        assert better["score_b"] == pytest.approx(result[key], abs=1e-12)
        assert better["score_a"] == pytest.approx(compute(weak, references, sources, variant="all")[key], abs=1e-12)


def test_compare_lines_up_systems_that_spellgcn_reads_apart():
    """System A answers 。 at the first character of an error-free sentence (SpellGCN's
    writer drops it, realise counts it), system B does not: both tables still line up."""
    references, weak, strong, sources = spelling(100)
    odd = ["。" + s[1:] if s == r and s[0] != "。" else r for s, r in zip(sources, references)]
    for key in ("realise/sentence_correction_precision", "spellgcn/sentence_correction_precision"):
        result = compare.compare("csc_common", references, odd, strong, sources=sources, variant="all", metric_key=key, n_resamples=20, seed=0)
        assert result["score_a"] == compute(odd, references, sources, variant="all")[key]
    assert result["score_a"] == 1.0  # SpellGCN: nothing wrong is left


def test_compare_on_a_mixed_system_equals_compute_for_every_key():
    references, weak, strong, sources = spelling(200)
    mixed = [s if i % 3 else r for i, (s, r) in enumerate(zip(weak, strong))]
    options = dict(sources=sources, variant="craspell", char_subset="erroneous")
    result = compare.compare("csc_common", references, weak, mixed, metric_key="char_correction2_f1", n_resamples=50, seed=1, **options)
    assert result["score_b"] == compute(mixed, references, **options)["char_correction2_f1"]
    assert "variant:craspell" in result["signature"] and "char_subset:erroneous" in result["signature"]
    # CRASpell has no sentence level: the default compared number is its char correction F1
    default = compare.compare("csc_common", references, weak, mixed, n_resamples=10, **options)
    assert default["metric_key"] == "char_correction_f1"
    assert default["score_b"] == compute(mixed, references, **options)["char_correction_f1"]


# ---------------------------------------------------------------------------------------
# Command line


def run_cli(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path, rows):
    path.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    return str(path)


def test_cli_reads_sentences_pairs_and_label_lines_alike(tmp_path, capsys):
    data = triples(MIXED)
    src = write(tmp_path / "src.txt", data["sources"])
    ref = write(tmp_path / "ref.txt", data["references"])
    pred = write(tmp_path / "pred.txt", data["predictions"])
    pairs = write(tmp_path / "pairs.tsv", [f"{s}\t{r}" for s, r in zip(data["sources"], data["references"])])
    numbered = write(tmp_path / "numbered.tsv", [f"{i}\t{s}\t{p}" for i, (s, p) in enumerate(zip(data["sources"], data["predictions"]))])
    test_input = write(tmp_path / "input.txt", [f"(pid=A-{i})\t{s}" for i, s in enumerate(data["sources"])])
    expected = compute(**data, variant="all", return_signature=True)
    for argv in (
        ["--sources", src, "--predictions", pred, "--references", ref],
        ["--sources", test_input, "--predictions", pred, "--references", ref],
        ["--predictions", pred, "--references", pairs],
        ["--predictions", numbered, "--references", pairs],
        ["--sources", src, "--predictions", numbered, "--references", ref],
    ):
        code, out, err = run_cli(["csc", *argv, "--variant", "all", "--json"], capsys)
        assert code == 0, err
        assert json.loads(out) == expected
    predicted, gold = extract_edits(data["sources"], data["predictions"], data["references"])
    pids = [f"B-{i}" for i in range(len(MIXED))]
    labels = (write(tmp_path / "result.txt", format_label_lines(pids, predicted)), write(tmp_path / "truth.txt", format_label_lines(pids, gold)))
    code, out, _ = run_cli(["csc", "--predictions", labels[0], "--references", labels[1], "--variant", "scope", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == compute(format_label_lines(pids, predicted), format_label_lines(pids, gold), variant="scope", return_signature=True)


def test_cli_ignore_chars_and_normalize_steps(tmp_path, capsys):
    """--ignore-chars and the new --normalize steps reach compute as the Python call."""
    data = dict(sources=["我門好，"], references=["我們好，"], predictions=["我們好。"])
    files = {name: write(tmp_path / f"{name}.txt", values) for name, values in data.items()}
    argv = ["csc", "--sources", files["sources"], "--predictions", files["predictions"], "--references", files["references"], "--json"]
    code, out, err = run_cli(argv + ["--ignore-chars", "，"], capsys)
    assert code == 0, err
    assert json.loads(out) == compute(**data, ignore_chars="，", return_signature=True)
    assert json.loads(out)["sentence_correction_precision"] == 1.0
    code, out, err = run_cli(argv + ["--normalize", "ignore_punct", "ignore_letters"], capsys)
    assert code == 0 and json.loads(out) == compute(**data, normalize=("ignore_punct", "ignore_letters"), return_signature=True)



def test_normalize_none_is_the_same_word_in_python_and_on_the_command_line(tmp_path, capsys):
    """compute(normalize="none") raised where `--normalize none` worked: both are no step,
    as normalize=() (simple_csc's own steps would drop the space: by hand, the space
    inserted after 好 is one more edit, a false one, so P 1/2 without normalisation)."""
    data = dict(sources=["我門好"], references=["我們好"], predictions=["我們好 "])
    files = {name: write(tmp_path / f"{name}.txt", values) for name, values in data.items()}
    argv = ["csc", "--sources", files["sources"], "--predictions", files["predictions"], "--references", files["references"], "--variant", "simple_csc", "--json"]
    code, out, err = run_cli(argv + ["--normalize", "none"], capsys)
    assert code == 0, err
    for none in ("none", ["none"], ()):
        assert json.loads(out) == compute(**data, variant="simple_csc", normalize=none, return_signature=True)
    assert json.loads(out)["char_correction_precision"] == 0.5 and compute(**data, variant="simple_csc")["char_correction_precision"] == 1.0
    with pytest.raises(ValueError, match="normalize: 'none' means no step and goes alone"):
        compute(**data, normalize=("none", "clean"))
    code, _, err = run_cli(argv + ["--normalize", "none", "clean"], capsys)
    assert code == 1 and "'none' means no step and goes alone" in err

def test_cli_prints_every_preset_side_by_side(capsys):
    code, out, _ = run_cli(["csc", "--predictions", str(SIGHAN15 / "SIGHAN15_Toy_Result.txt"), "--references", str(SIGHAN15 / "SIGHAN15_Toy_Truth.txt"), "--variant", "all"], capsys)
    assert code == 0
    header, *rows = out.split("\n\nsignature: ")[0].split("\n")
    assert header.split() == [v for v in VARIANTS if v not in ("simple_csc", "msllm")]  # label lines: the LLM presets need sentences
    cells = {row.split()[0]: row.split()[1:] for row in rows}
    assert cells["sentence_detection_precision"][0] == "0.6667" and cells["sentence_detection_precision"][VARIANTS.index("paddle")] == "0.8000"
    assert cells["sentence_detection_accuracy"][VARIANTS.index("spellgcn")] == "-"
    assert "signature: csc_common|variant:all|" in out
    code, out, _ = run_cli(["csc", "--predictions", str(SIGHAN15 / "SIGHAN15_Toy_Result.txt"), "--references", str(SIGHAN15 / "SIGHAN15_Toy_Truth.txt")], capsys)
    assert "sentence_detection_precision   0.666667" in out and "signature: csc_common|variant:realise|" in out


def test_cli_compare_csc(tmp_path, capsys):
    references, weak, strong, sources = spelling(200)
    pairs = write(tmp_path / "pairs.tsv", [f"{s}\t{r}" for s, r in zip(sources, references)])
    a, b = write(tmp_path / "a.txt", weak), write(tmp_path / "b.txt", strong)
    argv = ["compare", "csc", "--references", pairs, "--system-a", a, "--system-b", b, "--variant", "all", "--metric-key", "scope/char_detection_f1", "--n-resamples", "100", "--seed", "2", "--json"]
    code, out, err = run_cli(argv, capsys)
    assert code == 0, err
    printed = json.loads(out)
    expected = compare.compare("csc_common", references, weak, strong, sources=sources, metric_key="scope/char_detection_f1", n_resamples=100, seed=2, variant="all", char_subset=None, length_mismatch=None, remove_de=False)
    assert printed == expected and printed["score_b"] == 1.0
    assert printed["signature"].startswith("compare|csc_common|metric_key:scope/char_detection_f1|")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--sources", "{src}", "--predictions", "{pred}", "--references", "{pairs}"], r"--references: the source on line 2 is not the one --sources gives"),
        (["--predictions", "{short}", "--references", "{pairs}"], r"--references: 2 lines but --predictions gives 1 sources"),
        (["--predictions", "{bad}", "--references", "{pairs}"], r"--predictions: .*bad.txt line 1 is not `src<TAB>sentence`"),
        (["--predictions", "{pred}", "--references", "{ref}"], r"--references line 1: '我們' is not a label line"),
        (["--predictions", "{pred}", "--references", "{missing}"], r"--references: cannot read"),
        (["--sources", "{src}", "--predictions", "{pred}", "--references", "{ref}", "--variant", "pointer", "--char-subset", "erroneous"], None),
    ],
)
def test_cli_errors_exit_1_with_the_reason(argv, message, tmp_path, capsys):
    files = {"src": ["我門", "好"], "ref": ["我們", "好"], "pred": ["我們", "好"], "pairs": ["我門\t我們", "好了\t好了"], "short": ["我門\t我們"], "bad": ["a\tb\tc\td"]}
    paths = {name: write(tmp_path / f"{name}.txt", rows) for name, rows in files.items()}
    paths["missing"] = str(tmp_path / "missing.txt")
    code, out, err = run_cli(["csc", *(a.format(**paths) for a in argv)], capsys)
    if message is None:
        assert code == 0 and "char_correction_recall" in out
        return
    assert code == 1 and out == ""
    assert err.startswith("paperscore csc: error: ")
    assert __import__("re").search(message, err), err


# ---------------------------------------------------------------------------------------
# The Space's metric through evaluate

_metric = []


def space_metric():
    if not _metric:
        import evaluate
        from conftest import SPACES_DIR

        _metric.append(evaluate.load(str(SPACES_DIR / "csc_common"), keep_in_memory=True))
    return _metric[0]


@settings(max_examples=15, deadline=None)
@given(corpora(min_size=1), st.lists(st.integers(0, 10), max_size=3))
def test_batches_added_through_evaluate_equal_one_pass(corpus, cuts):
    sources, predictions, references = corpus
    bounds = [0] + sorted(min(c, len(sources)) for c in cuts) + [len(sources)]
    metric = space_metric()
    for a, b in zip(bounds, bounds[1:]):
        if b > a:
            metric.add_batch(sources=sources[a:b], predictions=predictions[a:b], references=references[a:b])
    assert metric.compute(variant="all") == compute(predictions, references, sources, variant="all")


def test_the_space_scores_label_lines_and_checks_types():
    metric = space_metric()
    assert metric.compute(**TOY15) == compute(**TOY15)
    with pytest.raises(ValueError, match=r"predictions\[1\]: expected a sentence \(str\), got int 3"):
        metric.add_batch(predictions=["我", 3], references=["我", "你"], sources=["我", "你"])


def test_the_metric_script_takes_exactly_the_package_arguments():
    import inspect

    parameters = list(inspect.signature(type(space_metric())._compute).parameters.values())[1:]
    assert parameters == list(inspect.signature(compute).parameters.values())


# ---------------------------------------------------------------------------------------
# Corpus arguments (issue 15) and configuration names (issue 11)


def test_a_bare_string_is_not_a_corpus():
    """'我們很壞' as predictions would be scored one character per sentence (correction F1
    0.667 in the issue's report); it is an error naming the argument, in the package, in
    compare and through evaluate (compute, add_batch)."""
    for bad in ("predictions", "references", "sources"):
        data = {"predictions": ["我們很壞"], "references": ["我們很好"], "sources": ["我門很壞"]}
        data[bad] = data[bad][0]
        with pytest.raises(ValueError, match=rf"^{bad}: expected a list of examples, got a str"):
            compute(**data)
        with pytest.raises(ValueError, match=rf"^{bad}: expected a list of examples, got a str"):
            space_metric().compute(**data)
        with pytest.raises(ValueError, match=rf"^{bad}: expected a list of examples, got a str"):
            space_metric().add_batch(**data)
    with pytest.raises(ValueError, match=r"^system_a: expected a list of examples, got a str"):
        compare.compare("csc_common", ["我們很好"], "我們很好", ["我們很好"], sources=["我門很好"], n_resamples=10)
    for bad in (None, 5, {"我們很好"}, (s for s in ["我們很好"])):
        with pytest.raises(ValueError, match=r"^predictions: expected a list of examples, got"):
            compute(bad, ["我們很好"], ["我門很好"])


def test_numpy_and_tuples_are_corpora():
    sources, references, predictions = ["他門很好", "我門走吧"], ["他們很好", "我們走吧"], ["他們很好", "我悶走吧"]
    expected = compute(predictions, references, sources)
    assert compute(np.array(predictions), tuple(references), np.array(sources)) == expected


@pytest.mark.parametrize("name", [*READS_LABELS, "all"])  # (simple_csc, msllm need sources: variant=)
def test_a_config_name_is_the_variant(name):
    import evaluate
    from conftest import SPACES_DIR

    data = triples(MIXED)
    configured = evaluate.load(str(SPACES_DIR / "csc_common"), config_name=name, keep_in_memory=True)
    assert configured.compute(**data) == compute(**data, variant=name)
    # an explicit argument wins over the configuration
    assert configured.compute(**data, variant="paddle") == compute(**data, variant="paddle")


def test_an_unknown_config_name_lists_the_variants():
    import evaluate
    from conftest import SPACES_DIR

    with pytest.raises(ValueError, match="config_name: 'sighan' is not a configuration of this metric") as raised:
        evaluate.load(str(SPACES_DIR / "csc_common"), config_name="sighan")
    for name in (*READS_LABELS, "all"):
        assert repr(name) in str(raised.value)


def test_align_from_the_command_line_and_in_compare(tmp_path, capsys):
    """ALIGN_CASES from files: realise's hand-derived figures (test_align_worked_example);
    compare's score under align is the same correction F1, 4/7, for both systems."""
    data = triples(ALIGN_CASES)
    files = {name: write(tmp_path / f"{name}.txt", data[name]) for name in ("sources", "predictions", "references")}
    code, out, err = run_cli(["csc", *(f"--{name}={path}" for name, path in files.items()), "--length-mismatch", "align", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert (result["sentence_correction_precision"], result["sentence_correction_recall"]) == (0.5, 2 / 3)
    assert "|length_mismatch:align|" in result["signature"]
    compared = compare.compare("csc_common", data["references"], data["predictions"], data["predictions"], sources=data["sources"], length_mismatch="align", n_resamples=10, seed=0)
    assert compared["score_a"] == compared["score_b"] == pytest.approx(4 / 7, abs=1e-15)


def test_the_demo_takes_sighan15_and_refuses_more_sentences_than_its_limit():
    """The page's stated limits count sentences (5,000 a box), not characters: SIGHAN15's
    1,100 test sentences go through; 5,001 are refused by name before any work."""
    from conftest import load_app

    app = load_app("csc_common")
    sources = [line.split("\t", 1)[1] for line in (DATA / "sighan15" / "SIGHAN15_CSC_TestInput.txt").read_text(encoding="utf-8").splitlines() if line]
    boxes = {"predictions": "\n".join(sources), "sources": "\n".join(sources), "references": "\n".join(sources)}
    assert len(app.sentence_lines(boxes["predictions"])) >= 1_099
    app.check_limits(**boxes)
    with pytest.raises(ValueError, match="predictions: 5,001 sentences, more than the 5,000 this page takes"):
        app.check_limits(**{**boxes, "predictions": "\n".join(["我"] * 5_001)})
