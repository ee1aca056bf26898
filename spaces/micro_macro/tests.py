"""Cases that every way of loading this Space must reproduce (evaluate's `tests.py`
template), expected values derived by hand in the comments."""

test_cases = [
    {
        # NA = 0 left out. Non-NA predictions at 0,1,2,4 (4), non-NA gold at 2,3,4,5,6 (5),
        # right at 2 and 4: P = 2/4, R = 2/5, F1 = 2*2/(4+5). Accuracy: 2 of 7.
        "predictions": [1, 1, 1, 0, 2, 0, 0],
        "references": [0, 0, 1, 1, 2, 2, 2],
        "kwargs": {"negative_labels": [0]},
        "result": {"accuracy": 2 / 7, "micro_precision": 0.5, "micro_recall": 0.4, "micro_f1": 4 / 9},
    },
    {
        # Strings. a: gold 2, predicted 2, right 1 -> P = R = F1 = 1/2; b: gold 1,
        # predicted 1, right 0 -> 0; c: gold 1, predicted 1, right 1 -> 1.
        # macro P = R = F1 = (1/2 + 0 + 1)/3 = 1/2; micro = accuracy = 2/4.
        "predictions": ["a", "b", "a", "c"],
        "references": ["a", "a", "b", "c"],
        "kwargs": {},
        "result": {"accuracy": 0.5, "micro_f1": 0.5, "macro_precision": 0.5, "macro_recall": 0.5, "macro_f1": 0.5},
    },
    {
        # Token classification with -100 padding: scored pairs (ref, pred) = (1,1) (2,1)
        # (2,2) (0,0). Class 1: P = 1/2, R = 1; class 2: P = 1, R = 1/2; class 0: 1, 1.
        # macro P = macro R = (1/2 + 1 + 1)/3 = 5/6; accuracy 3/4.
        "predictions": [[1, 1, 2, 7], [0, 3]],
        "references": [[1, 2, 2, -100], [0, -100]],
        "kwargs": {},
        "result": {"accuracy": 0.75, "macro_precision": 5 / 6, "macro_recall": 5 / 6},
    },
]

# An input the demo must reject with a message, and keep serving afterwards:
# 2 predicted labels against the example's 12 references.
demo_bad_input = {"predictions": "Attack Attack"}
demo_error = "differ in length"

# Over the page's stated limit of 1,000 classes (MAVEN's 169 go through): 1,001 distinct
# labels on both sides, refused before any scoring.
demo_over_limit = {
    "predictions": " ".join(f"E{i}" for i in range(1_001)),
    "references": " ".join(f"E{i}" for i in range(1_001)),
}
demo_limit_error = "1,001 classes; this demo scores at most 1,000"
