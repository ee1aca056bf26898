"""Cases that every way of loading this Space must reproduce (evaluate's `tests.py`
template), expected values derived by hand in the comments."""

test_cases = [
    {
        # The seed's example and [1,1,0,0] against [1,0,0,0]. Corpus: TP 2 + 1, predicted
        # 4 + 2, gold 3 + 1: P = 3/6, R = 3/4, F1 = 6/10. Per example: F1s 4/7 and 2/3,
        # mean 13/21. Tokens right: 7 + 3 of 14. Class 0: TN 5 + 2 = 7, predicted 8,
        # gold 10: F1 = 14/18; macro = (7/9 + 3/5)/2 = 31/45.
        "predictions": [[0, 0, 0, 1, 1, 0, 1, 1, 0, 0], [1, 1, 0, 0]],
        "references": [[0, 0, 0, 1, 0, 1, 0, 1, 0, 0], [1, 0, 0, 0]],
        "kwargs": {},
        "result": {"precision": 0.5, "recall": 0.75, "f1": 0.6, "example_f1": 13 / 21, "micro_f1": 10 / 14, "macro_f1": 31 / 45},
    },
    {
        # Soft scores with -100 padding: scored tokens [0.9, 0.4, 0.6] against [1, 0, 0]
        # and [0.2, 0.7] against [0, 1]. Selected (>= 0.5): tokens 0, 2 and 1: TP 2,
        # predicted 3, gold 2: P = 2/3, R = 1, F1 = 4/5; sparsity 3/5. Both examples rank
        # their gold tokens first: AUPRC 1 each.
        "predictions": [[0.9, 0.4, 0.6, -100], [0.2, 0.7]],
        "references": [[1, 0, 0, -100], [0, 1]],
        "kwargs": {},
        "result": {"precision": 2 / 3, "recall": 1.0, "f1": 0.8, "sparsity": 0.6, "auprc": 1.0},
    },
    {
        # Scores at exactly 0.5 under FR's strict rule: selected are token 2 of the first
        # example and token 1 of the second: TP 1, predicted 2, gold 3: P = 1/2, R = 1/3,
        # F1 = 2/5. IOU: the first example's span [2,3) matches gold [2,3) (P 1/1, R 1/2);
        # the second's [1,2) misses gold [0,1) (P 0/1, R 0/1): mean P 1/2, mean R 1/4,
        # IOU F1 = 2 (1/2)(1/4) / (3/4) = 1/3.
        "predictions": [[0.5, 0.5, 0.7, 0.2], [0.5, 1.0]],
        "references": [[1, 0, 1, 0], [1, 0]],
        "kwargs": {"threshold_rule": ">"},
        "result": {"precision": 0.5, "recall": 1 / 3, "f1": 0.4, "iou_precision": 0.5, "iou_recall": 0.25, "iou_f1": 1 / 3},
    },
]

# An input the demo must reject with a message, and keep serving afterwards: the first
# text has 12 tokens, its prediction 11.
demo_bad_input = {"predictions": "01110000111\n00111000000000\n11100000011"}
demo_error = "predictions (example 1): has 11 tokens but references (example 1) has 12"

# Over the page's stated limit of 200,000 tokens per box.
demo_over_limit = {"predictions": "0" * 200_001}
demo_limit_error = "predictions: 200,001 tokens; this demo takes at most 200,000 per box"
