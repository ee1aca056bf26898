"""Cases that every way of loading this Space must reproduce (evaluate's `tests.py`
template), expected values derived by hand in the comments. They use the jars' label lines
(no sources), with the result in the truth's pid order so that any split of the lists
keeps each result line beside its truth line."""

test_cases = [
    {
        # SIGHAN15_Toy_{Result,Truth}.txt. Detection: TP A2-1051-3, B2-0369-1, A2-1457-6,
        # B2-1475-4; FP B2-1444-1 (clean, flagged); TN B2-1452-2, C1-1849-1; FN B1-0201-1
        # (26 answered as 25), B1-0370-2, B1-1462-7 (missed). Correction: B2-0369-1 moves
        # to FN (做 for 作). FPR 1/3; detection P 4/5, R 4/7; correction P 3/4, R 3/7,
        # accuracy (3 + 2)/10, F1 = 2*3/(2*3 + 1 + 4).
        "predictions": [
            "B2-1452-2, 0", "B1-0201-1, 3, 生, 25, 直, 35, 關", "C1-1849-1, 0", "A2-1051-3, 15, 舞",
            "B2-0369-1, 16, 炭, 48, 做", "B1-0370-2, 0", "B2-1444-1, 8, 天", "A2-1457-6, 45, 是",
            "B1-1462-7, 0", "B2-1475-4, 17, 考, 18, 慮",
        ],
        "references": [
            "B2-1452-2, 0", "B1-0201-1, 3, 生, 26, 直, 35, 關", "C1-1849-1, 0", "A2-1051-3, 15, 舞",
            "B2-0369-1, 16, 炭, 48, 作", "B1-0370-2, 49, 已", "B2-1444-1, 0", "A2-1457-6, 45, 是",
            "B1-1462-7, 33, 有", "B2-1475-4, 17, 考, 18, 慮",
        ],
        "kwargs": {},
        "result": {
            "false_positive_rate": 1 / 3, "detection_precision": 4 / 5, "detection_recall": 4 / 7,
            "correction_accuracy": 5 / 10, "correction_precision": 3 / 4, "correction_recall": 3 / 7,
            "correction_f1": 6 / 11,
        },
    },  # fmt: skip
    {
        # SIGHAN 2013 subtask 1 toy: clean 0023, 0024; flagged 0022, 0023, 0025, 0026;
        # exact locations 0024 (none), 0025, 0026. False alarms 1/2; detection accuracy
        # 4/5; location accuracy 3/5, precision 2/4, recall 2/3.
        "predictions": ["0022, 43, 55, 80", "0023, 10", "0024, 0", "0025, 72, 79", "0026, 103"],
        "references": ["0022, 43, 76", "0023, 0", "0024, 0", "0025, 72, 79", "0026, 103"],
        "kwargs": {"version": "2013", "subtask": 1},
        "result": {"false_alarm_rate": 0.5, "detection_accuracy": 0.8, "location_accuracy": 0.6, "location_precision": 0.5, "location_recall": 2 / 3},
    },
    {
        # Gold 们 at 2 and 园 at 7 in three sentences, answered swapped, doubled and right;
        # one clean sentence left alone. "exact": only the third is a correction TP; the
        # other two are FN (never FP): P = 1/1, R = 1/3, accuracy (1 + 1)/4. Detection: all right.
        "predictions": ["a, 2, 园, 7, 们", "b, 2, 们, 7, 们", "c, 2, 们, 7, 园", "d, 0"],
        "references": ["a, 2, 们, 7, 园", "b, 2, 们, 7, 园", "c, 2, 们, 7, 园", "d, 0"],
        "kwargs": {"correction_match": "exact"},
        "result": {"detection_f1": 1.0, "correction_precision": 1.0, "correction_recall": 1 / 3, "correction_accuracy": 0.5},
    },
]

# An input the demo must reject with a message, and keep serving afterwards:
# one predicted sentence against the example's ten references.
demo_bad_input = {"predictions": "我起床的時候。"}
demo_error = "differ in length"

# An input beyond the limits the page states (300 characters per sentence), refused before
# any work with this message.
demo_over_limit = {"predictions": "我" * 301}
demo_limit_error = "sentence 1 has 301 characters, more than the 300 this page takes"
