"""csc_sighan against the official tools: the toy evaluations shipped with the SIGHAN 2013
and 2015 releases (reproduced to the byte, Part 1 and Part 2), figures printed by the jars
on constructed cases, hand derivations where the official definition and the paper-common
one part ways, properties, every input error and the command line."""

import json
import math
import random
import re

import numpy as np
import pytest
from conftest import DATA, without_references
from hypothesis import given, settings
from hypothesis import strategies as st

from paperscore import cli
from paperscore.core import read_lines
from paperscore.csc import LabelFile, apply_edits, extract_edits, format_label_lines, parse_label_lines, parse_test_input
from paperscore.csc_sighan import COLUMNS, KEYS, compute, jar_number, report

SIGHAN15, SIGHAN13 = DATA / "sighan15", DATA / "sighan13"
NAN = math.nan


def lines(path):
    return read_lines(path, str(path))


def official(path):
    """A shipped evaluation file, its CRLF line ends (written on Windows) made LF."""
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12


def assert_figures(result, expected):
    for key, value in expected.items():
        assert same(result[key], value), (key, result[key], value)


# ---------------------------------------------------------------------------------------
# The official toy evaluations


TOY15 = dict(predictions=lines(SIGHAN15 / "SIGHAN15_Toy_Result.txt"), references=lines(SIGHAN15 / "SIGHAN15_Toy_Truth.txt"))


def test_sighan15_toy_figures():
    """SIGHAN15_Toy_{Result,Truth}.txt, sentence by sentence (truth | result):
    B2-1452-2  0 | 0                           TN, TN
    B1-0201-1  3生 26直 35關 | 3生 25直 35關   FN, FN (position 26 answered as 25)
    C1-1849-1  0 | 0                           TN, TN
    A2-1051-3  15舞 | 15舞                     TP, TP
    B2-0369-1  16炭 48作 | 16炭 48做           TP, FN (做 is not among the gold 炭, 作)
    B1-0370-2  49已 | 0                        FN, FN
    B2-1444-1  0 | 8天                         FP, FP
    A2-1457-6  45是 | 45是                     TP, TP
    B1-1462-7  33有 | 0                        FN, FN
    B2-1475-4  17考 18慮 | 17考 18慮           TP, TP
    Detection TP 4, FP 1, TN 2, FN 3; correction TP 3, FP 1, TN 2, FN 4. F1 = 2TP/(2TP+FP+FN)."""
    result = compute(**TOY15, return_counts=True)
    assert_figures(result, {
        "false_positive_rate": 1 / 3,
        "detection_accuracy": 6 / 10, "detection_precision": 4 / 5, "detection_recall": 4 / 7, "detection_f1": 8 / 12,
        "correction_accuracy": 5 / 10, "correction_precision": 3 / 4, "correction_recall": 3 / 7, "correction_f1": 6 / 11,
    })  # fmt: skip
    assert [result[k] for k in COLUMNS["2015"]] == [4, 1, 2, 3, 3, 1, 2, 4]
    # The printed figures of SIGHAN15_Toy_Evaluation.txt, Part 1.
    assert [jar_number(result[k]) for k in KEYS["2015"]] == ["0.3333", "0.6", "0.8", "0.5714", "0.6667", "0.5", "0.75", "0.4286", "0.5455"]


def test_sighan15_toy_report_is_the_shipped_evaluation_file():
    """Every figure of Part 1 and every list of Part 2 (truth order, the result's edits)."""
    assert report(**TOY15) == official(SIGHAN15 / "SIGHAN15_Toy_Evaluation.txt")


def test_sighan15_toy_per_sentence_classes_are_the_part2_lists():
    result = compute(**TOY15, per_sentence=True)
    assert result["detection_classes"] == ["TN", "FN", "TN", "TP", "TP", "FN", "FP", "TP", "FN", "TP"]
    assert result["correction_classes"] == ["TN", "FN", "TN", "TP", "FN", "FN", "FP", "TP", "FN", "TP"]
    assert result["predicted_edits"][4] == [[16, "炭"], [48, "做"]] and result["reference_edits"][4] == [[16, "炭"], [48, "作"]]


def test_sighan13_toy_subtask1():
    """Toy_SubTask1 (truth | result): 0022 43,76 | 43,55,80 (flagged, wrong locations);
    0023 0 | 10 (false alarm); 0024 0 | 0; 0025 72,79 | 72,79; 0026 103 | 103.
    Clean 2, erroneous 3, flagged 4. FAR 1/2; detection: right decisions 4/5, P 3/4, R 3/3;
    locations: exact sets (0024 included) 3/5, exact on erroneous 2: P 2/4, R 2/3."""
    result = compute(lines(SIGHAN13 / "Toy_SubTask1_Result.txt"), lines(SIGHAN13 / "Toy_SubTask1_Truth.txt"), version="2013", subtask=1)
    assert_figures(result, {
        "false_alarm_rate": 1 / 2, "detection_accuracy": 4 / 5, "detection_precision": 3 / 4, "detection_recall": 1.0,
        "detection_f1": 2 * 0.75 / 1.75, "location_accuracy": 3 / 5, "location_precision": 2 / 4,
        "location_recall": 2 / 3, "location_f1": 2 * (1 / 2) * (2 / 3) / (1 / 2 + 2 / 3),
    })  # fmt: skip
    text = report(lines(SIGHAN13 / "Toy_SubTask1_Result.txt"), lines(SIGHAN13 / "Toy_SubTask1_Truth.txt"), version="2013", subtask=1)
    # (its first five lines end in CRLF, as the jar writes them: see the CLI test below)
    assert text.replace("\r\n", "\n") == official(SIGHAN13 / "Toy_SubTask1_Evaluation.txt")


def test_sighan13_toy_subtask2():
    """Toy_SubTask2 (truth | result): 00366 1倘 | 1蘶 (location right, correction wrong);
    00367 10的 | 10的; 00368 39,63,89 | 39,63 (wrong locations); 00369 16炭 48作 |
    16炭 48作; 00370 49已 | missing (the 2013 jar reads it as "no correction").
    Location 3/5, correction 2/5, correction precision 2 right of 4 returned."""
    predictions, references = lines(SIGHAN13 / "Toy_SubTask2_Result.txt"), lines(SIGHAN13 / "Toy_SubTask2_Truth.txt")
    result = compute(predictions, references, version="2013", subtask=2)
    assert_figures(result, {"location_accuracy": 3 / 5, "correction_accuracy": 2 / 5, "correction_precision": 2 / 4})
    text = report(predictions, references, version="2013", subtask=2)
    assert text == official(SIGHAN13 / "Toy_SubTask2_Evaluation.txt")


# ---------------------------------------------------------------------------------------
# Constructed cases, with the figures the original jars printed for them (run locally as
# black boxes: java -jar sighan15csc.jar / sighan7csc.jar -i result -t truth)

JAR_CASES = {
    # The containment quirk: gold {2:们, 7:园}; a swap and a repeated 们 are correction TPs.
    "quirk": ("2015", None, "a, 2, 园, 7, 们\nb, 2, 们, 7, 们\nc, 2, 们, 7, 园\nd, 0", "a, 2, 们, 7, 园\nb, 2, 们, 7, 园\nc, 2, 们, 7, 园\nd, 0", """\
False Positive Rate = 0 (0/1)

Detection Level
	Accuracy = 1 (4/4)
	Precision = 1 (3/3)
	Recall = 1 (3/3)
	F1-Score = 1 ((2*1*1)/(1+1))

Correction Level
	Accuracy = 1 (4/4)
	Precision = 1 (3/3)
	Recall = 1 (3/3)
	F1-Score = 1 ((2*1*1)/(1+1))
"""),
    # a: right position, wrong char (detection TP, correction FN); b: wrong position (FN,
    # FN); d: clean, flagged (FP); e: missed (FN). P = R = 0 at correction: F1 = 0/0 = NaN.
    "wrong_on_erroneous": ("2015", None, "a, 3, 甲\nb, 4, 乙\nc, 0\nd, 5, 丙\ne, 0", "a, 3, 丁\nb, 2, 乙\nc, 0\nd, 0\ne, 1, 戊", """\
False Positive Rate = 0.5 (1/2)

Detection Level
	Accuracy = 0.4 (2/5)
	Precision = 0.5 (1/2)
	Recall = 0.3333 (1/3)
	F1-Score = 0.4 ((2*0.5*0.3333)/(0.5+0.3333))

Correction Level
	Accuracy = 0.2 (1/5)
	Precision = 0 (0/1)
	Recall = 0 (0/3)
	F1-Score = NaN ((2*0*0)/(0+0))
"""),
    # No error anywhere: P and R are 0/0.
    "all_clean": ("2015", None, "a, 0\nb, 0", "a, 0\nb, 0", """\
False Positive Rate = 0 (0/2)

Detection Level
	Accuracy = 1 (2/2)
	Precision = NaN (0/0)
	Recall = NaN (0/0)
	F1-Score = NaN ((2*NaN*NaN)/(NaN+NaN))

Correction Level
	Accuracy = 1 (2/2)
	Precision = NaN (0/0)
	Recall = NaN (0/0)
	F1-Score = NaN ((2*NaN*NaN)/(NaN+NaN))
"""),
    # 13 right of 32: 0.40625 is printed rounded half up.
    "thirteen_of_32": ("2015", None,
        "\n".join(f"s{i:02d}, 0" for i in range(32)),
        "\n".join(f"s{i:02d}, 0" if i < 13 else f"s{i:02d}, 1, 甲" for i in range(32)), """\
False Positive Rate = 0 (0/13)

Detection Level
	Accuracy = 0.4063 (13/32)
	Precision = NaN (0/0)
	Recall = 0 (0/19)
	F1-Score = NaN ((2*NaN*0)/(NaN+0))

Correction Level
	Accuracy = 0.4063 (13/32)
	Precision = NaN (0/0)
	Recall = 0 (0/19)
	F1-Score = NaN ((2*NaN*0)/(NaN+0))
"""),
    # 57 false alarms on 800 clean sentences: the double 57/800 lies just below 0.07125,
    # yet the jar prints 0.0713 (it rounds the shortest decimal form, not the exact double).
    "fifty_seven_of_800": ("2015", None,
        "\n".join(f"c{i:03d}, {'2, 甲' if i < 57 else '0'}" for i in range(800)),
        "\n".join(f"c{i:03d}, 0" for i in range(800)), """\
False Positive Rate = 0.0713 (57/800)

Detection Level
	Accuracy = 0.9288 (743/800)
	Precision = 0 (0/57)
	Recall = NaN (0/0)
	F1-Score = NaN ((2*0*NaN)/(0+NaN))

Correction Level
	Accuracy = 0.9288 (743/800)
	Precision = 0 (0/57)
	Recall = NaN (0/0)
	F1-Score = NaN ((2*0*NaN)/(0+NaN))
"""),
    # 2013 subtask 1 (positions only). Truth | result: a 3 | 3; b 1 | 0 (missed);
    # c 2 | 2,5 (flagged, wrong locations); d 0 | 4 (false alarm); e 0 | missing (no error).
    "subtask1": ("2013", 1, "a, 3\nb, 0\nc, 2, 5\nd, 4", "a, 3\nb, 1\nc, 2\nd, 0\ne, 0", """\
False-Alarm Rate = 0.5 (1/2)
Detection Accuracy = 0.6 (3/5)
Detection Precision = 0.6667 (2/3)
Detection Recall = 0.6667 (2/3)
Detection F-Score = 0.6667 (2*0.6667*0.6667/(0.6667+0.6667))
Error Location Accuracy = 0.4 (2/5)
Error Location Precision = 0.3333 (1/3)
Error Location Recall = 0.3333 (1/3)
Error Location F-Score = 0.3333 (2*0.3333*0.3333/(0.3333+0.3333))
"""),
    # 2013 subtask 2. a: swapped characters fail (aligned comparison); c: clean truth,
    # dropped from the scored sentences, but its returned correction counts in the
    # precision denominator; d: right location, wrong char; e: missing.
    "subtask2": ("2013", 2, "a, 3, 丁, 4, 丙\nb, 2, 乙\nc, 5, 戊\nd, 1, 甲", "a, 4, 丁, 3, 丙\nb, 2, 乙\nc, 0\nd, 1, 乙\ne, 6, 己", """\
Location Accuracy = 0.75 (3/4)
Correction Accuracy = 0.25 (1/4)
Correction Precision = 0.25 (1/4)
"""),
    # Lines whose first non-blank character is # are skipped by every jar (their file
    # reader drops them), wherever they are: P2 is then a false alarm, P1 a hit.
    "comments": ("2015", None, "# comment, 3, 甲\nP1, 2, 甲\n  #x, 2, 乙\nP2, 5, 丁\n#P3, 4, 丙\nP3, 0", "#truth\nP1, 2, 甲\nP2, 0\nP3, 0", """\
False Positive Rate = 0.5 (1/2)

Detection Level
	Accuracy = 0.6667 (2/3)
	Precision = 0.5 (1/2)
	Recall = 1 (1/1)
	F1-Score = 0.6667 ((2*0.5*1)/(0.5+1))

Correction Level
	Accuracy = 0.6667 (2/3)
	Precision = 0.5 (1/2)
	Recall = 1 (1/1)
	F1-Score = 0.6667 ((2*0.5*1)/(0.5+1))
"""),
    "comments_subtask1": ("2013", 1, "# c\nP1, 2\n  #x, 4\nP2, 0\nP3, 3", "P1, 2\nP2, 0\nP3, 0", """\
False-Alarm Rate = 0.5 (1/2)
Detection Accuracy = 0.6667 (2/3)
Detection Precision = 0.5 (1/2)
Detection Recall = 1 (1/1)
Detection F-Score = 0.6667 (2*0.5*1/(0.5+1))
Error Location Accuracy = 0.6667 (2/3)
Error Location Precision = 0.5 (1/2)
Error Location Recall = 1 (1/1)
Error Location F-Score = 0.6667 (2*0.5*1/(0.5+1))
"""),
    # The 2013 jar keys a result line's corrections on its pid before trimming: `P1 ,`
    # keeps its location (right) but its correction is not found (wrong), while it still
    # counts as returned: correction precision 1/2 (the 2014/2015 jars trim: 2/2).
    "pid_space_2013": ("2013", 2, "P1 , 2, 甲\nP2, 3, 乙", "P1, 2, 甲\nP2, 3, 乙", """\
Location Accuracy = 1 (2/2)
Correction Accuracy = 0.5 (1/2)
Correction Precision = 0.5 (1/2)
"""),
    "pid_space_2015": ("2015", None, "P1 , 2, 甲\nP2, 3, 乙", "P1, 2, 甲\nP2, 3, 乙", """\
False Positive Rate = NaN (0/0)

Detection Level
	Accuracy = 1 (2/2)
	Precision = 1 (2/2)
	Recall = 1 (2/2)
	F1-Score = 1 ((2*1*1)/(1+1))

Correction Level
	Accuracy = 1 (2/2)
	Precision = 1 (2/2)
	Recall = 1 (2/2)
	F1-Score = 1 ((2*1*1)/(1+1))
"""),
}


def run_cli(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("case", list(JAR_CASES))
def test_the_cli_prints_what_the_jar_prints(case, tmp_path, capsys):
    """The command prints the jar's figures line for line (2014/2015 with their heading),
    then the signature; with --zero-division nan, the jar's NaN."""
    version, subtask, result_text, truth_text, printed = JAR_CASES[case]
    (tmp_path / "result.txt").write_text(result_text + "\n", encoding="utf-8")
    (tmp_path / "truth.txt").write_text(truth_text + "\n", encoding="utf-8")
    argv = ["sighan", "-i", str(tmp_path / "result.txt"), "-t", str(tmp_path / "truth.txt"), "--version", version, "--zero-division", "nan"]
    code, out, _ = run_cli(argv + (["--subtask", str(subtask)] if subtask else []), capsys)
    assert code == 0
    heading = "SIGHAN 2015 Bakeoff: Chinese Spelling Check Task\n\n" + "=" * 58 + "\nPart 1: Overall Performance\n" + "=" * 58 + "\n\n"
    expected = (heading if version == "2015" else "") + printed + ("\n\n" if version == "2015" else "\n")
    body, signature = out.split("signature: ")
    assert body == expected
    assert signature.startswith(f"csc_sighan|version:{version}|")


def test_the_jar_report_of_a_constructed_2015_case(tmp_path):
    """Part 2 of the jar's report for "wrong_on_erroneous": the result's edits (or 0) per
    cell, in truth order; an empty cell is a line with a tab."""
    _, _, result_text, truth_text, _ = JAR_CASES["wrong_on_erroneous"]
    text = report(result_text.split("\n"), truth_text.split("\n"), zero_division="nan")
    assert text.endswith("""\
==========================================================
Part 2: Details
==========================================================

Detection Level

	#TP:
	(a, 3)

	#FP:
	(d, 5)

	#TN:
	(c, 0)

	#FN:
	(b, 4) | (e, 0)


Correction Level

	#TP:
	

	#FP:
	(d, 5, 丙)

	#TN:
	(c, 0)

	#FN:
	(a, 3, 甲) | (b, 4, 乙) | (e, 0)

""")


def test_the_jar_report_of_a_constructed_2013_case():
    """sighan7csc.jar -s 1 on 12 sentences: lists sorted by pid, ten items a line."""
    truth = [f"c{i:02d}, 0" for i in range(6)] + [f"e{i:02d}, 3" for i in range(6)]
    result = [f"c{i:02d}, {'0' if i else '5'}" for i in range(6)] + [f"e{i:02d}, {'3' if i < 5 else '4'}" for i in range(6)]
    random.Random(1).shuffle(truth)
    text = report(result, truth, version="2013", subtask=1)
    assert text.startswith("[SIGHAN-7] Bake-off: Chinese Spelling Check Task\r\n\r\n" + "=" * 58 + "\r\nPart 1: Overall Performance\r\n" + "=" * 58 + "\r\n\n")
    assert text.replace("\r\n", "\n") == """\
[SIGHAN-7] Bake-off: Chinese Spelling Check Task

==========================================================
Part 1: Overall Performance
==========================================================

False-Alarm Rate = 0.1667 (1/6)
Detection Accuracy = 0.9167 (11/12)
Detection Precision = 0.8571 (6/7)
Detection Recall = 1 (6/6)
Detection F-Score = 0.9231 (2*0.8571*1/(0.8571+1))
Error Location Accuracy = 0.8333 (10/12)
Error Location Precision = 0.7143 (5/7)
Error Location Recall = 0.8333 (5/6)
Error Location F-Score = 0.7692 (2*0.7143*0.8333/(0.7143+0.8333))


==========================================================
Part 2: Details
==========================================================

# of all testing sentences: 12
c00 | c01 | c02 | c03 | c04 | c05 | e00 | e01 | e02 | e03 | 
e04 | e05 | 

# of testing sentences with errors: 6
e00 | e01 | e02 | e03 | e04 | e05 | 

# of testing sentences without errors: 6
c00 | c01 | c02 | c03 | c04 | c05 | 

# of sentences the system return as with errors: 7
c00 | e00 | e01 | e02 | e03 | e04 | e05 | 

# of sentences with false positive error detection results: 1
c00 | 

# of sentences with correctly error detected results: 6
e00 | e01 | e02 | e03 | e04 | e05 | 

# of sentences with correctly detected results: 11
c01 | c02 | c03 | c04 | c05 | e00 | e01 | e02 | e03 | e04 | 
e05 | 

# of sentences with correct location detection: 10
(c01,0) | (c02,0) | (c03,0) | (c04,0) | (c05,0) | (e00,3) | (e01,3) | (e02,3) | (e03,3) | (e04,3) | 

# of sentences with correct error locations: 5
(e00,3) | (e01,3) | (e02,3) | (e03,3) | (e04,3) | """


def test_the_2013_jar_reads_positions_as_strings():
    """sighan7csc.jar -s 2 on four sentences. x: the official subtask 2 truth's malformed
    line (01279, `10, 憤, , 挫`), answered identically: right. y: the same truth answered
    with 10 only: the empty position is missed. z: 010 is not the string 10. w: right;
    its report lists positions in string order, 10 before 9. LA = CA = CP = 2/4."""
    predictions = ["x, 10, 憤, , 挫", "y, 10, 憤", "z, 010, 憤", "w, 10, 甲, 9, 乙"]
    references = ["x, 10, 憤, , 挫", "y, 10, 憤, , 挫", "z, 10, 憤", "w, 9, 乙, 10, 甲"]
    assert report(predictions, references, version=2013, subtask=2).endswith("""\
Location Accuracy = 0.5 (2/4)
Correction Accuracy = 0.5 (2/4)
Correction Precision = 0.5 (2/4)


==========================================================
Part 2: Details
==========================================================

# of all testing sentences: 4
w | x | y | z | 

# of sentences the system returns corrections: 4
w | x | y | z | 

# of sentences correctly detected the error location: 2
(w,10,9) | (x,,10) | 

# of sentences correctly corrected the error: 2
(w,10,甲,9,乙) | (x,,挫,10,憤) | """)
    # The 2014/2015 jars read positions as integers (010 is 10) and stop on an empty one.
    assert compute(["z, 010, 憤"], ["z, 10, 憤"])["correction_recall"] == 1.0
    with pytest.raises(ValueError, match=r"references\[0\]: position '' \(it is not a positive integer\)"):
        compute(["x, 10, 憤"], ["x, 10, 憤, , 挫"])


def test_jar_number_rounds_half_up_from_the_shortest_decimal():
    # 1/32 = 0.03125 exactly: half up gives 0.0313 (Python's "%.4f" would give 0.0312);
    # 69/800 is the double just below 0.08625 and prints 0.0863 in the jar.
    assert [jar_number(x) for x in (1 / 32, 69 / 800, 0.6, 1.0, 0.0, 2 / 3, NAN)] == ["0.0313", "0.0863", "0.6", "1", "0", "0.6667", "NaN"]


# ---------------------------------------------------------------------------------------
# Where the official definition and the paper-common one (ReaLiSe and its copies) differ

# 5 sentences: source, reference, prediction.
DIVERGE = [
    ("他門很好", "他們很好", "他們很好"),  # corrected: TP, TP
    ("我門走吧", "我們走吧", "我悶走吧"),  # right position, wrong char: detection TP, correction FN
    ("吃了早菜", "吃了早餐", "吃乐早菜"),  # wrong position: FN, FN
    ("今天很熱", "今天很熱", "今天很熟"),  # clean, changed: FP, FP
    ("我很高興", "我很高興", "我很高興"),  # clean, untouched: TN, TN
]


def test_official_precision_counts_only_false_alarms_on_clean_sentences():
    """Official: detection TP 2 (rows 1, 2), FP 1 (row 4), FN 1 (row 3), TN 1:
    P = 2/3, R = 2/3, Acc = 3/5; correction TP 1, FP 1, FN 2, TN 1: P = 1/2, R = 1/3, Acc 2/5.
    The paper-common definition divides by every sentence with an edit (rows 1-4): its
    detection P is 2/4 and its correction P 1/4; the recalls are the same. Rows 2 and 3 are
    FN only in the official matrix, FP and FN in the paper-common count."""
    sources, references, predictions = map(list, zip(*DIVERGE))
    result = compute(predictions, references, sources)
    assert_figures(result, {
        "false_positive_rate": 1 / 2,
        "detection_accuracy": 3 / 5, "detection_precision": 2 / 3, "detection_recall": 2 / 3, "detection_f1": 2 / 3,
        "correction_accuracy": 2 / 5, "correction_precision": 1 / 2, "correction_recall": 1 / 3, "correction_f1": 2 / 5,
    })  # fmt: skip
    assert result["detection_precision"] != 2 / 4 and result["correction_precision"] != 1 / 4


def test_containment_quirk_and_the_exact_comparison():
    """Gold 们 at 2 and 园 at 7. Swapped (园 at 2, 们 at 7) and doubled (们 at both) are
    correction TPs for the jar ("subset"); only the identical one is with "exact". A third
    sentence is clean and untouched. subset: correction TP 3 -> P = R = 1.
    exact: TP 1, FN 2 -> P = 1/1, R = 1/3, accuracy (1 + 1)/4."""
    sources = ["我门去公圆", "我门去公圆", "我门去公圆", "好"]
    references = ["我们去公园", "我们去公园", "我们去公园", "好"]
    predictions = ["我园去公们", "我们去公们", "我们去公园", "好"]
    assert_figures(compute(predictions, references, sources), {"correction_precision": 1.0, "correction_recall": 1.0, "correction_accuracy": 1.0})
    exact = compute(predictions, references, sources, correction_match="exact")
    assert_figures(exact, {"correction_precision": 1.0, "correction_recall": 1 / 3, "correction_accuracy": 2 / 4, "detection_recall": 1.0})


def test_sighan15_toy_under_the_paper_common_reading_differs():
    """On the toy, 6 sentences carry a predicted edit (B1-0201-1, A2-1051-3, B2-0369-1,
    B2-1444-1, A2-1457-6, B2-1475-4): the paper-common precisions would be 4/6 and 3/6
    (F1 0.615 and 0.462); the official ones are 4/5 and 3/4."""
    result = compute(**TOY15)
    assert (round(result["detection_precision"], 3), round(result["correction_precision"], 3)) == (0.8, 0.75)
    assert round(result["detection_f1"], 3) != 0.615 and round(result["correction_f1"], 3) != 0.462


# ---------------------------------------------------------------------------------------
# Sentences, label lines and a per-sentence reading of the definition agree


def per_sentence_official(sources, predictions, references, correction_match="subset"):
    """The 2014/2015 jar, one sentence at a time, with Python sets (the definition, not the
    vectorised code): the tp/fp/tn/fn counts per level."""
    counts = dict.fromkeys(COLUMNS["2015"], 0)
    for source, prediction, reference in zip(sources, predictions, references):
        gold = {i: c for i, (s, c) in enumerate(zip(source, reference)) if s != c}
        result = {i: c for i, (s, c) in enumerate(zip(source, prediction)) if s != c}
        if not gold:
            cell = "fp" if result else "tn"
            counts[f"detection_{cell}"] += 1
            counts[f"correction_{cell}"] += 1
        elif result.keys() == gold.keys():
            counts["detection_tp"] += 1
            right = set(result.values()) <= set(gold.values()) if correction_match == "subset" else result == gold
            counts["correction_tp" if right else "correction_fn"] += 1
        else:
            counts["detection_fn"] += 1
            counts["correction_fn"] += 1
    return counts


ALPHABET = "甲乙丙丁"


@st.composite
def corpora(draw, min_size=0):
    n = draw(st.integers(min_size, 12))
    sources = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=5), min_size=n, max_size=n))

    def variant(source):
        return "".join(draw(st.sampled_from(ALPHABET)) if draw(st.integers(0, 3)) == 0 else c for c in source)

    references = [variant(s) for s in sources]
    predictions = [draw(st.sampled_from([s, r, variant(s), variant(r)])) for s, r in zip(sources, references)]
    return sources, predictions, references


@settings(max_examples=300, deadline=None)
@given(corpora(), st.sampled_from(["subset", "exact"]))
def test_counts_equal_a_per_sentence_reading_of_the_jar(corpus, correction_match):
    sources, predictions, references = corpus
    result = compute(predictions, references, sources, correction_match=correction_match, return_counts=True)
    assert {k: result[k] for k in COLUMNS["2015"]} == per_sentence_official(sources, predictions, references, correction_match)


@settings(max_examples=150, deadline=None)
@given(corpora(), st.sampled_from([("2015", None), ("2013", 1), ("2013", 2)]), st.randoms(use_true_random=False))
def test_label_lines_in_any_order_give_what_sentences_give(corpus, definition, rng):
    """Write the edits as label lines (the jars' files), shuffle the result lines (matched
    by pid): the same figures as from the sentences."""
    sources, predictions, references = corpus
    version, subtask = definition
    pids = [f"B2-{i:04d}-1" for i in range(len(sources))]
    predicted, gold = extract_edits(sources, predictions, references)
    positions_only = subtask == 1
    result_lines = format_label_lines(pids, predicted, positions_only)
    rng.shuffle(result_lines)
    options = dict(version=version, subtask=subtask, zero_division="nan", return_counts=True)
    from_labels = compute(result_lines, format_label_lines(pids, gold, positions_only), **options)
    from_sentences = compute(predictions, references, sources, **options)
    assert from_labels.keys() == from_sentences.keys()
    assert all(same(from_labels[k], from_sentences[k]) for k in from_labels)


@settings(max_examples=150, deadline=None)
@given(corpora(), st.sampled_from([("2015", None), ("2013", 1), ("2013", 2)]), st.sampled_from([0.0, 1.0]))
def test_figures_lie_in_the_unit_interval(corpus, definition, zero_division):
    result = compute(corpus[1], corpus[2], corpus[0], version=definition[0], subtask=definition[1], zero_division=zero_division)
    assert all(0.0 <= v <= 1.0 for v in result.values())


@settings(max_examples=100, deadline=None)
@given(corpora(min_size=1))
def test_perfect_predictions_score_one(corpus):
    sources, _, references = corpus
    result = compute(references, references, sources, zero_division=1.0)
    # FP = 0; with no clean sentence FPR is 0/0 and takes the policy's value.
    assert result["false_positive_rate"] == (0.0 if any(s == r for s, r in zip(sources, references)) else 1.0)
    assert all(result[k] == 1.0 for k in KEYS["2015"][1:])
    assert all(v == 1.0 for v in compute(references, references, sources, version="2013", subtask=2, zero_division=1.0).values())


@settings(max_examples=100, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_order_of_sentences_does_not_matter(corpus, rng):
    order = list(range(len(corpus[0])))
    rng.shuffle(order)
    shuffled = [[column[i] for i in order] for column in corpus]
    assert compute(shuffled[1], shuffled[2], shuffled[0]) == compute(corpus[1], corpus[2], corpus[0])


@settings(max_examples=100, deadline=None)
@given(corpora(), st.lists(st.integers(0, 12), max_size=3))
def test_shards_add_up_to_one_pass(corpus, cuts):
    sources, predictions, references = corpus
    bounds = [0] + sorted(min(c, len(sources)) for c in cuts) + [len(sources)]
    total = dict.fromkeys(COLUMNS["2015"], 0)
    for a, b in zip(bounds, bounds[1:]):
        shard = compute(predictions[a:b], references[a:b], sources[a:b], return_counts=True)
        for key in total:
            total[key] += shard[key]
    whole = compute(predictions, references, sources, return_counts=True)
    assert total == {k: whole[k] for k in total}


# ---------------------------------------------------------------------------------------
# Options


def test_zero_division_policies_on_an_all_clean_corpus():
    """No erroneous sentence and no false alarm: P, R (0/0) and their F1 take the policy's
    value; FPR = 0/2 and accuracy = 2/2 are defined."""
    for policy, value in ((0.0, 0.0), (1.0, 1.0), ("nan", NAN)):
        result = compute(["好", "對"], ["好", "對"], ["好", "對"], zero_division=policy)
        assert result["false_positive_rate"] == 0.0 and result["detection_accuracy"] == 1.0
        assert all(same(result[f"{level}_{m}"], value) for level in ("detection", "correction") for m in ("precision", "recall", "f1"))


def test_f1_of_two_zeros_is_zero_unless_nan_is_asked_for():
    """wrong_on_erroneous at correction level: P = 0/1, R = 0/3, F1 = 2*0*0/(0+0): 0 by
    default, NaN as the jar's doubles give with zero_division="nan"."""
    _, _, result_text, truth_text, _ = JAR_CASES["wrong_on_erroneous"]
    assert compute(result_text.split("\n"), truth_text.split("\n"))["correction_f1"] == 0.0
    assert math.isnan(compute(result_text.split("\n"), truth_text.split("\n"), zero_division="nan")["correction_f1"])


def test_length_mismatch_options():
    """Source 我門去, reference 我們去. A shorter prediction 我們 (one character lost):
    "error" refuses it; "truncate" compares 我門 with 我們, the edit (2, 們) matches: TP;
    "whole" compares strings: 我們 != 我們去, so the sentence is changed but wrong:
    detection FN, correction FN. A clean sentence 好的 predicted as 好 is a false alarm under
    "whole" and, under "truncate" (好 against 好), untouched."""
    sources, references, predictions = ["我門去", "好的"], ["我們去", "好的"], ["我們", "好"]
    with pytest.raises(ValueError, match=r"predictions\[0\]: has 2 characters but sources\[0\] has 3"):
        compute(predictions, references, sources)
    truncate = compute(predictions, references, sources, length_mismatch="truncate", return_counts=True)
    assert [truncate[k] for k in COLUMNS["2015"]] == [1, 0, 1, 0, 1, 0, 1, 0]
    whole = compute(predictions, references, sources, length_mismatch="whole", return_counts=True)
    assert [whole[k] for k in COLUMNS["2015"]] == [0, 1, 0, 1, 0, 1, 0, 1]
    # Whole strings equal on both sides (a reference that also changed length) are a TP.
    assert compute(["我們去了"], ["我們去了"], ["我門去"], length_mismatch="whole")["correction_recall"] == 1.0


def test_2013_per_sentence_details():
    _, _, result_text, truth_text, _ = JAR_CASES["subtask1"]
    result = compute(result_text.split("\n"), truth_text.split("\n"), version=2013, subtask=1, per_sentence=True)
    # truth order a b c d e: flagged erroneous, missed, flagged erroneous (wrong place), false alarm, clean
    assert result["detection_classes"] == ["TP", "FN", "TP", "FP", "TN"]
    assert result["location_correct"] == [True, False, False, False, True]
    _, _, result_text, truth_text, _ = JAR_CASES["subtask2"]
    result = compute(result_text.split("\n"), truth_text.split("\n"), version="2013", subtask="2", per_sentence=True)
    assert result["location_correct"] == [True, True, None, True, False]
    assert result["correction_correct"] == [False, True, None, False, False]


def test_bootstrap_intervals_are_reproducible_and_bracket_the_estimate():
    rng = np.random.default_rng(0)
    pids, sources = parse_test_input(lines(SIGHAN15 / "SIGHAN15_CSC_TestInput.txt"), "input")
    _, gold = parse_label_lines(lines(SIGHAN15 / "SIGHAN15_CSC_TestTruth.txt"), "truth")
    references = apply_edits(sources, gold)
    # 60% of the erroneous sentences corrected, a false alarm on 15% of the clean ones
    predictions = [
        (r if rng.random() < 0.6 else s) if s != r else (("的" if s[0] != "的" else "地") + s[1:] if rng.random() < 0.15 else s)
        for s, r in zip(sources, references)
    ]
    kwargs = dict(confidence_level=0.9, n_resamples=300, seed=3)
    result = compute(predictions, references, sources, **kwargs)
    assert result == compute(predictions, references, sources, **kwargs)
    for key in KEYS["2015"]:
        assert result[f"{key}_low"] < result[key] < result[f"{key}_high"], key
    # Nothing is resampled but rows: an all-clean corpus has FPR 0 on every resample.
    clean = compute(sources[:5], sources[:5], sources[:5], **kwargs)
    assert clean["false_positive_rate_low"] == clean["false_positive_rate_high"] == 0.0
    # The recall spread is the binomial one over the 550 erroneous sentences.
    half = (result["detection_recall_high"] - result["detection_recall_low"]) / 2
    r = result["detection_recall"]
    assert half == pytest.approx(1.645 * math.sqrt(r * (1 - r) / 550), rel=0.25)


def test_signature_names_the_definition():
    assert without_references(compute(["a, 0"], ["a, 0"], return_signature=True)["signature"]).startswith(
        "csc_sighan|version:2015|correction_match:subset|input:labels|zero_division:0|paperscore:"
    )
    signed = without_references(compute(["我"], ["我"], ["我"], version="2013", subtask=2, zero_division="nan", return_signature=True)["signature"])
    assert signed.startswith("csc_sighan|version:2013|subtask:2|input:sentences|length_mismatch:error|zero_division:nan|")


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((["我"], ["我"], ["我"]), {"version": "2016"}, "version: '2016' is not one of"),
        ((["我"], ["我"], ["我"]), {"subtask": 1}, "subtask: 1 is only for version='2013'"),
        ((["我"], ["我"], ["我"]), {"version": 2013}, "subtask: None is not 1 or 2"),
        ((["我"], ["我"], ["我"]), {"version": 2013, "subtask": 3}, "subtask: 3 is not 1 or 2"),
        ((["我"], ["我"], ["我"]), {"correction_match": "sets"}, "correction_match: 'sets' is not one of"),
        ((["我"], ["我"], ["我"]), {"version": 2013, "subtask": 2, "correction_match": "exact"}, "correction_match: only for versions 2014 and 2015"),
        ((["我"], ["我"], ["我"]), {"zero_division": "warn"}, "zero_division"),
        ((["我"], ["我"], ["我"]), {"confidence_level": 95}, "confidence_level"),
        ((["我"], ["我"], ["我"]), {"length_mismatch": "zip"}, "length_mismatch: 'zip' is not one of"),
        ((["我", "你"], ["我"], ["我", "你"]), {}, "predictions and references differ in length: 2 against 1"),
        ((["我", 5], ["我", "你"], ["我", "你"]), {}, r"predictions\[1\]: expected a sentence \(str\), got int 5"),
        ((["我們"], ["我"], ["我"]), {}, r"predictions\[0\]: has 2 characters but sources\[0\] has 1"),
        ((["我", "你"], ["我", "你"], ["我", None]), {}, r"sources\[1\]: mixes sentences and None"),
        ((["a, 0"], ["我喜歡"], None), {}, r"references\[0\]: '我喜歡' is not a label line"),
        ((["a, 0", "c, 0"], ["a, 0", "b, 0"], None), {}, r"predictions: 1 pids not in the truth: 'c'; 1 truth pids missing: 'b'"),
        ((["a, 0"], ["a, 0", "b, 0"], None), {}, r"predictions: 1 truth pids missing: 'b'"),
        ((["a, 0"], ["a, 0", "b, 0", "a, 2, 甲"], None), {}, r"references\[2\]: pid 'a' is already on references\[0\]"),
        ((["a, 2, 甲"], ["a, 2"], None), {"version": 2013, "subtask": 2}, r"references\[0\]: position '2' has no character"),
    ],
)
def test_bad_input_is_a_value_error_that_says_where(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(*args, **kwargs)


def test_report_needs_one_pid_per_sentence():
    with pytest.raises(ValueError, match="pids: 1 names for 2 sentences"):
        report(["我", "你"], ["我", "你"], ["我", "你"], pids=["x"])
    # By default sentences are named by their line numbers.
    assert "(2, 1, 他)" in report(["我", "他"], ["我", "他"], ["我", "你"])


# ---------------------------------------------------------------------------------------
# Command line


def toy_args(version="2015", subtask=None):
    if version == "2013":
        names = (f"Toy_SubTask{subtask}_Result.txt", f"Toy_SubTask{subtask}_Truth.txt")
        return ["-i", str(SIGHAN13 / names[0]), "-t", str(SIGHAN13 / names[1]), "--version", "2013", "--subtask", str(subtask)]
    return ["-i", str(SIGHAN15 / "SIGHAN15_Toy_Result.txt"), "-t", str(SIGHAN15 / "SIGHAN15_Toy_Truth.txt")]


@pytest.mark.parametrize(
    "args, evaluation",
    [
        (toy_args(), SIGHAN15 / "SIGHAN15_Toy_Evaluation.txt"),
        (toy_args("2013", 1), SIGHAN13 / "Toy_SubTask1_Evaluation.txt"),
        (toy_args("2013", 2), SIGHAN13 / "Toy_SubTask2_Evaluation.txt"),
    ],
)
def test_cli_writes_the_jars_report(args, evaluation, tmp_path, capsys):
    code, out, _ = run_cli(["sighan", *args, "-o", str(tmp_path / "report.txt")], capsys)
    assert code == 0
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") == official(evaluation)
    # stdout: the jar's figures (Part 1 of the report; the 2013 jar prints the figures only)
    part1 = official(evaluation).split("=" * 58 + "\nPart 2")[0]
    figures = part1 if "2015" in part1 else part1.split("=" * 58 + "\n\n")[1][:-1]
    assert out.split("signature: ")[0] == figures


@pytest.mark.parametrize("bom_on", ["-i", "-t", "both"])
def test_a_byte_order_mark_is_read_as_the_jars_read_it(bom_on, tmp_path, capsys):
    """The jars' file reader drops a UTF-8 byte-order mark at the start of a file (the
    2015 jar, run on the toy files with one prepended to the result, the truth or both,
    prints the toy figures unchanged; a mark inside a file is part of the pid there)."""
    files = {"-i": SIGHAN15 / "SIGHAN15_Toy_Result.txt", "-t": SIGHAN15 / "SIGHAN15_Toy_Truth.txt"}
    argv = ["sighan"]
    for flag, path in files.items():
        data = path.read_bytes()
        if bom_on in (flag, "both"):
            data = b"\xef\xbb\xbf" + data
        (tmp_path / path.name).write_bytes(data)
        argv += [flag, str(tmp_path / path.name)]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    assert out.split("signature: ")[0] == official(SIGHAN15 / "SIGHAN15_Toy_Evaluation.txt").split("=" * 58 + "\nPart 2")[0]
    (tmp_path / "inner.txt").write_text("P2, 0\n\ufeffP1, 2, 甲\n", encoding="utf-8")
    (tmp_path / "truth.txt").write_text("P1, 2, 甲\nP2, 0\n", encoding="utf-8")
    code, _, err = run_cli(["sighan", "-i", str(tmp_path / "inner.txt"), "-t", str(tmp_path / "truth.txt")], capsys)
    assert code == 1 and "1 pids not in the truth: '\\ufeffP1'" in err


def test_the_2013_subtask1_report_heading_ends_in_crlf_as_the_jar_writes_it(tmp_path, capsys):
    """sighan7csc.jar -s 1 -o, run on the toy files, writes the report's first five lines
    (title, blank, rule, "Part 1", rule) with CRLF and every other line with LF; the
    shipped Toy_SubTask1_Evaluation.txt, saved on Windows, is CRLF throughout."""
    code, _, _ = run_cli(["sighan", *toy_args("2013", 1), "-o", str(tmp_path / "report.txt")], capsys)
    assert code == 0
    lines = official(SIGHAN13 / "Toy_SubTask1_Evaluation.txt").split("\n")
    expected = "\r\n".join(lines[:5] + [""]) + "\n".join(lines[5:])
    assert (tmp_path / "report.txt").read_bytes() == expected.encode("utf-8")
    # Subtask 2's report (the jar's, on its toy files) is LF throughout.
    run_cli(["sighan", *toy_args("2013", 2), "-o", str(tmp_path / "report2.txt")], capsys)
    assert b"\r" not in (tmp_path / "report2.txt").read_bytes()


def test_comment_lines_are_skipped_through_the_api_too():
    assert compute(["# a system's note", "b, 2, 乙", "a, 0"], ["a, 0", "#", "b, 2, 乙"], return_counts=True)["detection_tp"] == 1
    with pytest.raises(ValueError, match=r"predictions\[2\]: pid 'a' is already on predictions\[0\]"):
        compute(["a, 0", "# x", "a, 0"], ["a, 0"])


def test_cli_json_is_what_compute_returns(capsys):
    code, out, _ = run_cli(["sighan", *toy_args(), "--json"], capsys)
    assert code == 0
    assert json.loads(out) == compute(**TOY15, return_counts=True, return_signature=True)


def test_cli_scores_sentence_files_named_by_the_test_input(tmp_path, capsys):
    """The DIVERGE sentences, the sources as an official test input file: the report names
    them by pid."""
    sources, references, predictions = map(list, zip(*DIVERGE))
    (tmp_path / "input.txt").write_text("".join(f"(pid=X-{i})\t{s}\n" for i, s in enumerate(sources)), encoding="utf-8")
    (tmp_path / "pred.txt").write_text("\n".join(predictions) + "\n", encoding="utf-8")
    (tmp_path / "gold.txt").write_text("\n".join(references), encoding="utf-8")
    argv = ["sighan", "--sources", str(tmp_path / "input.txt"), "--predictions", str(tmp_path / "pred.txt"), "--references", str(tmp_path / "gold.txt")]
    code, out, _ = run_cli(argv + ["-o", str(tmp_path / "report.txt"), "--json"], capsys)
    assert code == 0
    assert json.loads(out) == compute(predictions, references, sources, return_counts=True, return_signature=True)
    text = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert "\t#FP:\n\t(X-3, 4, 熟)\n" in text and "\t#FN:\n\t(X-1, 2, 悶) | (X-2, 2, 乐)\n" in text
    # plain sources: sentences are named 1, 2, 3, ...
    (tmp_path / "plain.txt").write_text("\n".join(sources), encoding="utf-8")
    argv[2] = str(tmp_path / "plain.txt")
    assert run_cli(argv + ["-o", str(tmp_path / "report.txt")], capsys)[0] == 0
    assert "\t#FP:\n\t(4, 4, 熟)\n" in (tmp_path / "report.txt").read_text(encoding="utf-8")


def test_cli_bootstrap_intervals_follow_the_figures(capsys):
    code, out, _ = run_cli(["sighan", *toy_args(), "--confidence-level", "0.9", "--seed", "1", "--n-resamples", "50"], capsys)
    assert code == 0 and "detection_f1_low = " in out and "bootstrap:50@0.9|seed:1" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-i", "{result}"], "give either -i RESULT -t TRUTH, or --sources, --predictions and --references"),
        (["--sources", "{result}", "--predictions", "{result}"], "give either"),
        (["-i", "{result}", "-t", "{truth}", "--predictions", "{result}"], "give either"),
        (["-i", "{unbalanced}", "-t", "{truth}"], r"-i: 1 truth pids missing: 'b'"),
        (["-i", "{result}", "-t", "{bad}"], r"-t line 2: position 'x' \(it is not a positive integer\)"),
        (["-i", "{result}", "-t", "{blank}"], r"-t line 1: 'x' is not a label line"),  # (line 2, blank, is skipped)
        (["-i", "{result}", "-t", "{truth}", "--version", "2013"], "subtask: None is not 1 or 2"),
        (["-i", "{result}", "-t", "{missing}"], r"-t: cannot read .*missing.txt"),
        (["-i", "{result}", "-t", "{truth}", "-o", "{folder}"], "-o: cannot write"),
        (["--sources", "{result}", "--predictions", "{result}", "--references", "{blank}"], r"--references: .* line 2 is empty"),
    ],
)
def test_cli_errors_exit_1_with_the_reason(argv, message, tmp_path, capsys):
    files = {"result": "a, 0\nb, 3, 甲\n", "truth": "a, 0\nb, 3, 乙\n", "unbalanced": "a, 0\n", "blank": "x\n\ny\n", "bad": "a, 0\nb, x, 甲\n"}
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    paths = {name: str(tmp_path / f"{name}.txt") for name in list(files) + ["missing"]}
    paths["folder"] = str(tmp_path)
    code, out, err = run_cli(["sighan", *(a.format(**paths) for a in argv)], capsys)
    assert code == 1 and out == ""
    assert err.startswith("paperscore sighan: error: ")
    assert __import__("re").search(message, err), err


_metric = []


def space_metric():
    """The Space's metric through evaluate, loaded once for the property test below."""
    if not _metric:
        import evaluate
        from conftest import SPACES_DIR

        _metric.append(evaluate.load(str(SPACES_DIR / "csc_sighan"), keep_in_memory=True))
    return _metric[0]


@settings(max_examples=20, deadline=None)
@given(corpora(min_size=1), st.lists(st.integers(0, 12), max_size=3))
def test_batches_added_through_evaluate_equal_one_pass(corpus, cuts):
    sources, predictions, references = corpus
    bounds = [0] + sorted(min(c, len(sources)) for c in cuts) + [len(sources)]
    metric = space_metric()
    for a, b in zip(bounds, bounds[1:]):
        if b > a:
            metric.add_batch(sources=sources[a:b], predictions=predictions[a:b], references=references[a:b])
    assert metric.compute(return_counts=True) == compute(predictions, references, sources, return_counts=True)


def test_the_metric_script_takes_exactly_the_package_arguments():
    import inspect

    parameters = list(inspect.signature(type(space_metric())._compute).parameters.values())[1:]
    assert parameters == list(inspect.signature(compute).parameters.values())


# The presets each configuration name stands for (spaces/csc_sighan/csc_sighan.py), written
# out here so that a renamed or changed preset fails.
PRESETS = {
    "sighan15": ({"version": "2015"}, "SIGHAN15"),
    "sighan14": ({"version": "2014"}, "SIGHAN15"),
    "sighan15_exact": ({"version": "2015", "correction_match": "exact"}, "SIGHAN15"),
    "sighan13_subtask1": ({"version": "2013", "subtask": 1}, "Toy_SubTask1"),
    # (the subtask 2 toy result lacks a line, which evaluate's equal columns cannot hold)
    "sighan13_subtask2": ({"version": "2013", "subtask": 2}, "pid_space_2013"),
}


def toy_lines(stem):
    if stem in JAR_CASES:
        return [text.split("\n") for text in JAR_CASES[stem][2:4]]
    folder = SIGHAN15 if stem == "SIGHAN15" else SIGHAN13
    prefix = "SIGHAN15_Toy" if stem == "SIGHAN15" else stem
    return lines(folder / f"{prefix}_Result.txt"), lines(folder / f"{prefix}_Truth.txt")


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_configuration_name_is_its_preset_on_the_toy_files(name):
    import evaluate
    from conftest import SPACES_DIR

    preset, stem = PRESETS[name]
    predictions, references = toy_lines(stem)
    metric = evaluate.load(str(SPACES_DIR / "csc_sighan"), config_name=name, keep_in_memory=True)
    assert metric.compute(predictions=predictions, references=references) == compute(predictions, references, **preset)
    assert metric.fresh().compute(predictions=predictions, references=references) == compute(predictions, references, **preset)
    # figures the 2013 jar printed: the toy evaluation's false-alarm rate; the pid-space case
    figure = {"sighan13_subtask1": ("false_alarm_rate", 0.5), "sighan13_subtask2": ("correction_precision", 0.5)}.get(name)
    if figure:
        assert metric.compute(predictions=predictions, references=references)[figure[0]] == figure[1]


def test_an_unknown_configuration_name_lists_the_valid_ones():
    import evaluate
    from conftest import SPACES_DIR

    with pytest.raises(ValueError, match=r"config_name: 'sighan16' is not a configuration .*'sighan15', 'sighan14', 'sighan15_exact', 'sighan13_subtask1', 'sighan13_subtask2'"):
        evaluate.load(str(SPACES_DIR / "csc_sighan"), config_name="sighan16")


@pytest.mark.parametrize(
    "args, message",
    [
        # A bare string would be scored one character per sentence (correction F1 0.667
        # where the one-sentence list gives 0.0): issue 15.
        (("我們很壞", ["我們很好"], ["我門很壞"]), r"predictions: expected a list of examples, got a str \(to score one example, pass \['我們很壞'\]\)"),
        ((["我們很壞"], "我們很好", ["我門很壞"]), r"references: expected a list of examples, got a str"),
        ((["我們很壞"], ["我們很好"], "我門很壞"), r"sources: expected a list of examples, got a str"),
        ((["我們很壞"], ["我們很好"], 5), r"sources: expected a list of examples, got int"),
        ((None, ["a, 0"], None), r"predictions: expected a list of examples, got NoneType"),
        (({"a, 0"}, ["a, 0"], None), r"predictions: expected a list of examples, got set"),
    ],
)
def test_a_corpus_that_is_not_a_list_of_examples_is_an_error(args, message):
    with pytest.raises(ValueError, match=message):
        compute(*args)
    if args[0] is not None:  # (SpaceMetric passes a None corpus on to evaluate unchecked)
        with pytest.raises(ValueError, match=message.split(":")[0] + ": expected"):
            space_metric().fresh().compute(**dict(zip(("predictions", "references", "sources"), args)))
    assert compute(["我們很壞"], ["我們很好"], ["我門很壞"])["correction_f1"] == 0.0


def test_numpy_arrays_of_strings_are_corpora():
    arrays = [np.array(x) for x in (["我們很壞"], ["我們很好"], ["我門很壞"])]
    assert compute(*arrays) == compute(["我們很壞"], ["我們很好"], ["我門很壞"])
    assert space_metric().fresh().compute(predictions=arrays[0], references=arrays[1], sources=arrays[2]) == compute(*arrays)


# White space in every field, as the jars read it: tests/data/sighan_spaces/cases.json, from
# generate.py there (random label pairs with one white space character before or after a pid,
# a `0`, a position or a correction; what the 2015, 2014 and 2013 jars printed for each).
SPACE_CASES = json.loads((DATA / "sighan_spaces" / "cases.json").read_text(encoding="utf-8"))


def _jar_figures(printed):
    """The jar's standard output without the 2013 jar's log lines (`\t[Info] ...`) and CRs."""
    return "".join(line for line in printed.replace("\r", "").splitlines(keepends=True) if not line.startswith("\t["))


def test_white_space_in_every_field_is_read_as_the_jars_read_it(tmp_path, capsys):
    """Every case: paperscore prints the jar's figures line for line, or refuses naming a
    line (`-t line 2: ...`) or the pids that differ (or, in 2013 subtask 2, a truth pid
    spaced before its comma: the jar fails on it); never other figures. Where the jar
    fails (an exception, `Unbalanced!`), paperscore refuses. The list API agrees with the
    file: the same figures or an error."""
    outcomes = {"same": 0, "refused": 0}
    for case in SPACE_CASES:
        version, _, subtask = case["version"].partition("-")
        files = {}
        for name in ("result", "truth"):
            files[name] = tmp_path / f"{name}.txt"
            files[name].write_bytes(case[name].encode("utf-8"))
        options = ["--version", version, "--zero-division", "nan"] + (["--subtask", subtask] if subtask else [])
        code, out, err = run_cli(["sighan", "-i", str(files["result"]), "-t", str(files["truth"]), *options], capsys)
        where = f"{case['version']} {case['space']} {case['where']} {case['field']} in {case['side']}"
        try:
            lines = [case[name].removeprefix("\ufeff").split("\n")[:-1] for name in ("result", "truth")]  # (a file's byte-order mark is no part of it)
            listed = compute(*lines, version=version, subtask=subtask or None, zero_division="nan")
        except ValueError:
            listed = None
        if code == 0:
            assert case["jar"] != "failed", where
            assert out.split("signature: ")[0] == _jar_figures(case["jar"]), where
            assert listed is not None and same_figures(listed, compute(LabelFile(files["result"], "-i"), LabelFile(files["truth"], "-t"), version=version, subtask=subtask or None, zero_division="nan")), where
            outcomes["same"] += 1
        else:
            assert re.search(r"error: -[it] line \d+: |error: -i: \d+ (pids not in the truth|truth pids missing)|error: -t: pid .* white space before its comma", err), (where, err)
            assert listed is None, where
            outcomes["refused"] += 1
    # Most cases are read as the jars read them (a space the jars trim, a kept space in a
    # pid on both sides, a 2013 position read as a string); the rest are refused.
    assert outcomes["same"] > 300 and outcomes["refused"] > 100, outcomes


def same_figures(a, b):
    return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)


def sighan_error(tmp_path, capsys, truth, result):
    """What `paperscore sighan -i result -t truth` writes to standard error on these texts,
    where it must refuse them (exit 1, nothing on standard output)."""
    (tmp_path / "truth.txt").write_text(truth, encoding="utf-8")
    (tmp_path / "result.txt").write_text(result, encoding="utf-8")
    code, out, err = run_cli(["sighan", "-i", str(tmp_path / "result.txt"), "-t", str(tmp_path / "truth.txt")], capsys)
    assert code == 1 and out == ""
    return err


def test_a_unicode_space_after_a_correction_is_refused_by_name(tmp_path, capsys):
    """Issue 22's files: the 2015 jar keeps U+3000 in the correction `甲\u3000` (it trims only
    up to U+0020), so the correction does not match, and prints correction accuracy 0.6667,
    precision 1, recall 0.5, F1 0.6667. paperscore refuses the line by name (a correction
    is one character), never the 1/1/1/1 that trimming the space would give."""
    truth = "P1, 2, 甲\nP2, 0\nP3, 1, 乙, 3, 丙\n"
    err = sighan_error(tmp_path, capsys, truth, truth.replace("甲", "甲\u3000"))
    assert "-i line 1: the correction at position 2 is '甲\\u3000', not one character (the jars trim only the characters up to U+0020)" in err
    with pytest.raises(ValueError, match=r"predictions\[0\]: the correction at position 2 is '甲\\u3000'"):
        compute(truth.replace("甲", "甲\u3000").splitlines(), truth.splitlines())


def test_a_unicode_space_after_no_error_is_refused_by_what_it_is(tmp_path, capsys):
    """`P2, 0\u3000`: the jars trim only up to U+0020, so the line holds two fields, `P2`
    and `0\u3000`, which they read as no error, as every line of two fields (specs: an even
    field count). paperscore refuses it as it refuses `P2, 3`, saying what the field is
    and what the jars do, not that a position lacks its character."""
    truth = "P1, 2, 甲\nP2, 0\n"
    err = sighan_error(tmp_path, capsys, truth, truth.replace("P2, 0", "P2, 0\u3000"))
    assert "-i line 2: 'P2, 0\\u3000': the field after the pid is '0\\u3000', not 0: the jars trim only the characters up to U+0020 and keep U+3000 in it (then read any line of two fields as no error); write `pid, 0`" in err
    with pytest.raises(ValueError, match=r"references\[1\]: 'P2, \\xa00': the field after the pid is '\\xa00', not 0: .* keep U\+00A0 in it"):
        compute(truth.splitlines(), ["P1, 2, 甲", "P2, \xa00"])


def test_blank_lines_and_leading_zeros_are_read_as_the_jars_read_them(tmp_path, capsys):
    """The jars skip lines that are blank once trimmed, anywhere in a file: a file holding
    a byte-order mark and a line end is empty as an empty file and a byte-order mark alone
    are (the 2015 jar prints NaN (0/0) throughout for two such files); a blank line inside a result changes nothing
    (`P1, 0` / blank / `P2, 2, 甲` against the same lines without the blank: the 2015 jar
    prints false positive rate 0 (0/1), detection accuracy 1 (2/2)). A position written with
    5,000 leading zeros is the Java int after them (the 2015 jar: correction accuracy 1 (1/1))."""
    for name, data in (("empty", b""), ("bom", b"\xef\xbb\xbf"), ("bom_newline", b"\xef\xbb\xbf\n"), ("newlines", b"\n \n\r\n"), ("blank", "P1, 0\n\nP2, 2, 甲\n".encode()), ("plain", "P1, 0\nP2, 2, 甲\n".encode()), ("zeros", ("P1, " + "0" * 5000 + "5, 甲\n").encode()), ("five", "P1, 5, 甲\n".encode())):
        (tmp_path / f"{name}.txt").write_bytes(data)
    empty = ["False Positive Rate = NaN (0/0)", "\tAccuracy = NaN (0/0)"]  # one rule for the four empty files
    for result, truth, lines in (("bom_newline", "bom_newline", empty), ("empty", "bom_newline", empty), ("bom", "empty", empty), ("bom_newline", "bom", empty), ("newlines", "bom_newline", ["\tAccuracy = NaN (0/0)"]), ("blank", "plain", ["False Positive Rate = 0 (0/1)", "\tAccuracy = 1 (2/2)"]), ("zeros", "five", ["\tAccuracy = 1 (1/1)", "\tPrecision = 1 (1/1)"])):
        code, out, err = run_cli(["sighan", "-i", str(tmp_path / f"{result}.txt"), "-t", str(tmp_path / f"{truth}.txt"), "--zero-division", "nan"], capsys)
        assert code == 0, err
        assert all(line in out.splitlines() for line in lines), (result, out)


def test_long_values_are_cut_in_messages(tmp_path, capsys):
    """A 1 MB correction, a 1 MB line that is no label line, 1 MB pids the truth lacks, a
    position of 5,000 digits: each error names its line or pids in a few hundred
    characters, not the megabyte (issue 22 and 28: a 10 MB line was quoted whole)."""
    big = "甲" * (1 << 20)
    files = {"truth": "P1, 2, 甲\n", "char": f"P1, 2, {big}\n", "line": big + "\n", "pids": "".join(f"{k}{big[:200_000]}, 0\n" for k in range(12)), "digits": "P1, " + "9" * 5000 + ", 甲\n"}
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    for name, message in (("char", "-i line 1: the correction at position 2 is '甲甲"), ("line", "-i line 1: '甲甲"), ("pids", "-i: 12 pids not in the truth: '0甲甲"), ("digits", "-i line 1: position '999")):
        code, out, err = run_cli(["sighan", "-i", str(tmp_path / f"{name}.txt"), "-t", str(tmp_path / "truth.txt")], capsys)
        assert code == 1 and message in err and len(err) < 1000, (name, err[:300])
        code, out, err = run_cli(["csc", "--predictions", str(tmp_path / f"{name}.txt"), "--references", str(tmp_path / "truth.txt")], capsys)
        assert code == 1 and message.replace("-i", "--predictions") in err and len(err) < 1000, (name, err[:300])


# ---------------------------------------------------------------------------------------
# correction_match="set": CCL2022-CLTC track 1 "character level" (issue 22)

CCL = json.loads((DATA / "csc_conventions" / "ccl2022.json").read_text(encoding="utf-8"))["ccl2022_char_level"]


def test_set_match_equals_the_ccl2022_script_run_in_place():
    """blcuicall/CCL2022-CLTC @ ebba1d16 metrics/track1/eval_char_level.py, run on 1,500
    random label corpora (tests/data/csc_conventions/README.md): every figure (its percent,
    unrounded) equals correction_match="set"; on many of them "subset" (the jar) differs."""
    differ = 0
    for case in CCL:
        ours = compute(case["result"], case["truth"], correction_match="set")
        for level in ("detection", "correction"):
            for name, value in case[level].items():
                assert ours[f"{level}_{name.lower()}"] * 100 == pytest.approx(value, rel=1e-12, abs=1e-9), (case, level, name)
        differ += ours != compute(case["result"], case["truth"], correction_match="subset")
    assert differ > 50


def test_set_match_by_hand():
    """The truth `P1, 2, 甲, 7, 乙` / `P2, 3, 丙` (spec references-2026.md): a result
    `P1, 2, 甲, 7, 甲` has its characters {甲} inside {甲, 乙} (the jar's subset: a correction)
    but not equal to it (CCL: none); `P1, 2, 乙, 7, 甲` swaps them: the sets are equal (CCL: a
    correction) though no pair is aligned (exact: none). P2 is missed: recall 1/2 or 0/2."""
    truth = ["P1, 2, 甲, 7, 乙", "P2, 3, 丙"]
    for result, expected in ((["P1, 2, 甲, 7, 甲", "P2, 0"], {"subset": 0.5, "exact": 0.0, "set": 0.0}), (["P1, 2, 乙, 7, 甲", "P2, 0"], {"subset": 0.5, "exact": 0.0, "set": 0.5})):
        assert {m: compute(result, truth, correction_match=m)["correction_recall"] for m in expected} == expected
    # sentence triples read alike: 甲乙乙 -> reference 丙乙甲, prediction 甲乙丙 ... position sets differ: no detection
    assert compute(["丙乙甲"], ["甲乙丙"], ["乙乙乙"], correction_match="set")["correction_recall"] == 1.0
    assert compute(["丙乙甲"], ["甲乙丙"], ["乙乙乙"], correction_match="exact")["correction_recall"] == 0.0


def test_set_match_refuses_what_the_ccl2022_script_reads_otherwise(tmp_path, capsys):
    """CCL2022's script keeps positions as strings (`02` is not gold `2`, where the jars read
    the number): refused by name, never scored otherwise. (It skips lines starting with "#",
    as the jars do.)"""
    truth = ["P1, 2, 甲", "P2, 0"]
    with pytest.raises(ValueError, match=r"position '02' has leading zeros or is beyond 2147483647; correction_match='set'"):
        compute(["P1, 02, 甲", "P2, 0"], truth, correction_match="set")
    assert compute(["P1, 02, 甲", "P2, 0"], truth)["correction_recall"] == 1.0  # the jar: 02 is 2
    (tmp_path / "r.txt").write_text("P1, 2, 乙, 7, 甲\n", encoding="utf-8")
    (tmp_path / "t.txt").write_text("P1, 2, 甲, 7, 乙\n", encoding="utf-8")
    code, out, err = run_cli(["sighan", "-i", str(tmp_path / "r.txt"), "-t", str(tmp_path / "t.txt"), "--correction-match", "set", "--json"], capsys)
    assert code == 0 and json.loads(out)["correction_precision"] == 1.0 and "correction_match:set|" in json.loads(out)["signature"]


# ---------------------------------------------------------------------------------------
# The Space's demo (spaces/csc_sighan/app.py) and card


@pytest.fixture(scope="module")
def app():
    from conftest import load_app

    return load_app("csc_sighan")


def _demo_inputs(app, **changes):
    return {**app.EXAMPLE, **changes}


def test_the_demo_reads_label_lines_when_the_sources_box_is_empty(app):
    """The card's promise: with Sources empty, the boxes are the jars' label lines. The
    SIGHAN15 toy files give the toy evaluation's figures (FPR 1/3, correction F1 0.5455);
    the 2013 subtask 1 toy files the 2013 toy's (false alarm 0.5, location accuracy 0.6)."""
    toy = dict(predictions="\n".join(TOY15["predictions"]), references="\n".join(TOY15["references"]), sources="")
    headline, matrix, table = app.score(**_demo_inputs(app, **toy))
    assert jar_number(headline["false_positive_rate"]) == "0.3333" and jar_number(headline["correction_f1"]) == "0.5455"
    assert matrix["data"][0] == ["detection", 4, 1, 2, 3] and "reference edits" in table
    assert app.compute_kwargs(**_demo_inputs(app, **toy))["sources"] is None
    sub1 = dict(predictions=(SIGHAN13 / "Toy_SubTask1_Result.txt").read_text(encoding="utf-8"), references=(SIGHAN13 / "Toy_SubTask1_Truth.txt").read_text(encoding="utf-8"), sources="")
    headline, matrix, table = app.score(**_demo_inputs(app, **sub1, version="2013 subtask 1", zero_division="nan"))
    assert headline["false_alarm_rate"] == 0.5 and headline["location_accuracy"] == 0.6 and "location correct" in table
    assert ["clean_sentences", 2] in matrix["data"]


def test_the_demo_refuses_empty_boxes(app):
    import gradio as gr

    for box in ("predictions", "references"):
        with pytest.raises(gr.Error, match=f"{box}: the box is empty"):
            app.score(**_demo_inputs(app, **{box: " \n "}))


def test_the_demo_offers_what_its_messages_and_card_name(app):
    """The length error recommends length_mismatch values: the dropdown offers each; the
    card promises SIGHAN 2013 (two subtasks): the version dropdown offers both."""
    import gradio as gr

    choices = {block.label.split(" ")[0]: [value for _, value in block.choices] for block in app.demo.blocks.values() if isinstance(block, gr.Dropdown)}
    with pytest.raises(gr.Error) as error:
        app.score(**_demo_inputs(app, predictions=app.EXAMPLE["predictions"].replace("我起床的時候，吃早飯。", "我起床的時候吃早飯。")))
    named = re.findall(r"'(\w+)'", error.value.message.split("pass length_mismatch=")[1])
    assert named == ["truncate", "whole", "align"] and set(named) <= set(choices["length_mismatch"])
    assert {"2013 subtask 1", "2013 subtask 2", "2014", "2015"} <= set(choices["version"])
    headline, _, _ = app.score(**_demo_inputs(app, predictions=app.EXAMPLE["predictions"].replace("我起床的時候，吃早飯。", "我起床的時候吃早飯。"), length_mismatch="align"))
    # The first (clean) sentence, shortened, is a deletion: a flagged clean sentence. One TN
    # of the toy's three becomes an FP: FPR 2/3 (toy 1/3), detection accuracy 5/10 (toy 6/10).
    assert (headline["false_positive_rate"], headline["detection_accuracy"]) == (2 / 3, 0.5)


def test_the_cards_seq2seq_recipe_survives_a_sentence_that_changes_length():
    """The card's trainer_metrics call, run as written on generated ids where one sentence
    is one character short of its source (an untrained model writes such sentences):
    figures, not the error that stopped training; equal to compute with the same option."""
    from conftest import SPACES_DIR

    from paperscore.trainer import trainer_metrics

    card = (SPACES_DIR / "csc_sighan" / "README.md").read_text(encoding="utf-8")
    call = re.search(r"`metric\.trainer_metrics\((.*)\)`", card)[1]
    chars = "<pad>他門们很好今天熱热"

    class Tokenizer:
        pad_token_id = 0

        def batch_decode(self, rows, skip_special_tokens=True):
            return [" ".join(chars[i] for i in row if i) for row in rows]

    class Collected:
        def __init__(self):
            self.columns = {}

        def add_batch(self, **batch):
            for key, values in batch.items():
                self.columns.setdefault(key, []).extend(values)

        def compute(self, **options):
            return compute(**self.columns, **options)

    options = eval(f"dict({call})", {"tokenizer": Tokenizer()})  # noqa: S307 (the card's own text)
    compute_metrics = trainer_metrics(Collected(), **options)
    ids = {text: [chars.index(c) for c in text] for text in ("他門很好", "他们很好", "今天很熱", "今天熱", "今天很热")}
    padded = lambda texts: np.array([ids[t] + [-100] * (4 - len(ids[t])) for t in texts])  # noqa: E731

    class EvalPrediction(tuple):  # transformers': (predictions, label_ids) with .inputs
        inputs = padded(["他門很好", "今天很熱"])

    figures = compute_metrics(EvalPrediction((padded(["他们很好", "今天熱"]), padded(["他们很好", "今天很热"]))))
    expected = compute(["他们很好", "今天熱"], ["他们很好", "今天很热"], sources=["他門很好", "今天很熱"], length_mismatch="whole")
    # one sentence right, one (shortened) wrong: correction recall 1/2
    assert figures["correction_recall"] == expected["correction_recall"] == 0.5
    assert figures == {key: float(value) for key, value in expected.items()}


def test_a_2013_truth_pid_spaced_before_its_comma_is_refused_as_the_jar_fails_on_it(tmp_path, capsys):
    """sighan7csc.jar -s 2 with the truth `P1 , 2, 甲` / `P2, 3, 甲` against itself stops with
    a NullPointerException (Eval.S2, run locally): it keys the truth's corrections on the
    untrimmed pid. The same files are refused here, naming the pid; the 2014/2015 jars trim
    (the pid_space_2015 case above)."""
    (tmp_path / "truth.txt").write_text("P1 , 2, 甲\nP2, 3, 甲\n", encoding="utf-8")
    argv = ["sighan", "-i", str(tmp_path / "truth.txt"), "-t", str(tmp_path / "truth.txt"), "--version", "2013", "--subtask", "2"]
    code, out, err = run_cli(argv, capsys)
    assert code == 1 and "-t: pid 'P1' is written with white space before its comma" in err
    with pytest.raises(ValueError, match="references: pid 'P1' is written with white space"):
        compute(["P1, 2, 甲", "P2, 3, 甲"], ["P1 , 2, 甲", "P2, 3, 甲"], version="2013", subtask=2)
    # subtask 1 has no corrections to lose: truth `P1 , 2` / `P2, 3` against `P1, 2` / `P2, 3`,
    # the jar prints error location accuracy 1 (2/2)
    assert compute(["P1, 2", "P2, 3"], ["P1 , 2", "P2, 3"], version="2013", subtask=1)["location_accuracy"] == 1.0
