"""Cases that every way of loading this Space must reproduce (evaluate's `tests.py`
template), expected values derived by hand in the comments. They use label lines (no
sources), each result line beside its truth line, so that any split of the lists keeps
the pairs together."""

TOY_RESULT = [
    "B2-1452-2, 0", "B1-0201-1, 3, 生, 25, 直, 35, 關", "C1-1849-1, 0", "A2-1051-3, 15, 舞", "B2-0369-1, 16, 炭, 48, 做",
    "B1-0370-2, 0", "B2-1444-1, 8, 天", "A2-1457-6, 45, 是", "B1-1462-7, 0", "B2-1475-4, 17, 考, 18, 慮",
]  # fmt: skip
TOY_TRUTH = [
    "B2-1452-2, 0", "B1-0201-1, 3, 生, 26, 直, 35, 關", "C1-1849-1, 0", "A2-1051-3, 15, 舞", "B2-0369-1, 16, 炭, 48, 作",
    "B1-0370-2, 49, 已", "B2-1444-1, 0", "A2-1457-6, 45, 是", "B1-1462-7, 33, 有", "B2-1475-4, 17, 考, 18, 慮",
]  # fmt: skip
# Eight sentences: corrected; right position, wrong char; wrong position; a false alarm;
# left alone; one of two errors found; an error left untouched; two chars swapped.
MIXED_RESULT = ["m1, 2, 們", "m2, 2, 悶", "m3, 2, 乐", "m4, 4, 熟", "m5, 0", "m6, 2, 们", "m7, 0", "m8, 2, 园, 5, 们"]
MIXED_TRUTH = ["m1, 2, 們", "m2, 2, 們", "m3, 4, 餐", "m4, 0", "m5, 0", "m6, 2, 们, 5, 园", "m7, 3, 健", "m8, 2, 们, 5, 园"]

test_cases = [
    {
        # The SIGHAN15 toy files under ReaLiSe's count: 6 sentences with a predicted edit,
        # 7 with a gold edit; 4 at the right positions, 3 corrected: detection P 4/6,
        # R 4/7; correction P 3/6, R 3/7; accuracy: equal position lists 6/10, edit lists 5/10.
        "predictions": TOY_RESULT,
        "references": TOY_TRUTH,
        "kwargs": {},
        "result": {
            "sentence_detection_accuracy": 0.6, "sentence_detection_precision": 4 / 6, "sentence_detection_recall": 4 / 7,
            "sentence_correction_accuracy": 0.5, "sentence_correction_precision": 3 / 6, "sentence_correction_recall": 3 / 7,
        },
    },  # fmt: skip
    {
        # SCOPE's character level on the toy: predicted 10 edits, gold 11, 8 at gold
        # positions, 7 exact. Detection P 8/10, R 8/11; correction over the 8 correctly
        # detected positions: P 7/8, R 7/11.
        "predictions": TOY_RESULT,
        "references": TOY_TRUTH,
        "kwargs": {"variant": "scope"},
        "result": {"char_detection_precision": 0.8, "char_detection_recall": 8 / 11, "char_correction_precision": 7 / 8, "char_correction_recall": 7 / 11},
    },
    {
        # Pointer Networks: predicted 7, gold 8, position hits 5 (m1, m2, m6, m8 x2), exact 2
        # (m1, m6). Correction P 2/5; recall by membership: misses are m2 (們 not among
        # {悶}) and m6 (园 not among {们}), m8's gold chars are both predicted: R 2/(2 + 2).
        "predictions": MIXED_RESULT,
        "references": MIXED_TRUTH,
        "kwargs": {"variant": "pointer"},
        "result": {"char_detection_precision": 5 / 7, "char_detection_recall": 5 / 8, "char_correction_precision": 0.4, "char_correction_recall": 0.5},
    },
    {
        # PaddleNLP: P over right answers plus flagged error-free sentences (m4 only):
        # detection 3/(3 + 1) (m1, m2, m8), correction 1/(1 + 1); R over 6 erroneous.
        "predictions": MIXED_RESULT,
        "references": MIXED_TRUTH,
        "kwargs": {"variant": "paddle"},
        "result": {"sentence_detection_precision": 0.75, "sentence_detection_recall": 0.5, "sentence_correction_precision": 0.5, "sentence_correction_recall": 1 / 6},
    },
]

# An input the demo must reject with a message, and keep serving afterwards:
# one predicted sentence against the example's eight references.
demo_bad_input = {"predictions": "我起床的時候。"}
demo_error = "differ in length"

# Beyond a limit stated on the page (300 characters a sentence): refused before any work.
# (The 5,000-sentence limit is checked in tests/test_csc_common.py: 5,001 lines are slow
# to type into a browser's text box.)
demo_over_limit = {"predictions": "我" * 301}
demo_limit_error = "sentence 1 has 301 characters, more than the 300 this page takes"
