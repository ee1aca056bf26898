"""Cases that every way of loading this Space must reproduce (evaluate's `tests.py`
template), expected values derived by hand in the comments."""

Q = "food | good | food#taste | pos"
R = "staff | rude | service#general | neg"
S = "price | high | price#level | neg"

test_cases = [
    {
        # The original card's example (S = 1, n = 1, m = 2) and a Chinese quad: target
        # 服务/服务态度 ROUGE-L 2/3 (LCS 2 of 2 and 4 characters), opinion 很好/好 2/3, aspect
        # and polarity equal: degree (2/3 + 2/3 + 1 + 1)/4 = 5/6. Totals S = 11/6, n = 2, m = 3:
        # P = 11/12, R = 11/18, F1 = 2 S/(n + m) = 11/15; score = (1/2 + 5/6)/2 = 2/3.
        # Exact: 1 hit, n = 2, m = 3: P = 1/2, R = 1/3, F1 = 2/5 (the original prints 0.4).
        "predictions": [Q, "服务 | 很好 | 服务#态度 | 正面"],
        "references": [f"{Q} & service | bad | service#general | neg", "服务态度 | 好 | 服务#态度 | 正面"],
        "kwargs": {"legacy_keys": True},
        "result": {
            "optimal_precision": 11 / 12,
            "optimal_recall": 11 / 18,
            "optimal_f1": 11 / 15,
            "optimal_score": 2 / 3,
            "exact_precision": 1 / 2,
            "exact_recall": 1 / 3,
            "exact_f1": 2 / 5,
            "f1 of exact match": 0.4,
            "f1 of optimal match of weight (1, 1, 1, 1)": 11 / 15,
            "score of optimal match of weight (1, 1, 1, 1)": 2 / 3,
        },
    },
    {
        # Several references. Sample 1: "a | b | c | pos & d | e | f | neg" scores 1/2 (S = 1,
        # m = 2) and "a | q | c | neg" scores 1/2 too (degree 2/4, m = 1): a tie, the first
        # counts. Sample 2: exact. S = 2, n = 2, m = 3: P = 1, R = 2/3, F1 = 4/5;
        # score (1/2 + 1)/2 = 3/4; exact the same P, R, F1.
        "predictions": ["a | b | c | pos", R],
        "references": [["a | b | c | pos & d | e | f | neg", "a | q | c | neg"], [R]],
        "kwargs": {},
        "result": {"optimal_precision": 1, "optimal_recall": 2 / 3, "optimal_f1": 4 / 5, "optimal_score": 3 / 4, "exact_f1": 4 / 5},
    },
    {
        # ASQP's list counting: sample 1 predicts Q twice against gold Q: 2 hits (n 2, m 1);
        # sample 2 predicts R against gold R, S: 1 hit (n 1, m 2). 3 hits, n = m = 3: P = R = 1.
        # The optimal match stays one-to-one: S = 1 + 1 (R/S has degree 1/4, R/R 1):
        # P = R = F1 = 2/3; score (1/2 + 1/2)/2 = 1/2.
        "predictions": [f"{Q} & {Q}", R],
        "references": [Q, f"{R} & {S}"],
        "kwargs": {"duplicates": "list"},
        "result": {"exact_precision": 1, "exact_recall": 1, "optimal_f1": 2 / 3, "optimal_score": 1 / 2},
    },
]

# An input the demo must reject with a message, and keep serving afterwards:
# 1 prediction line against the example's 3 reference lines.
demo_bad_input = {"predictions": "food | good | food#taste | pos"}
demo_error = "differ in length"

# An input beyond a limit stated on the page (50 quads per sample), refused before any work.
demo_over_limit = {"predictions": " & ".join(["food | good | food#taste | pos"] * 51)}
demo_limit_error = "at most 50 per sample"
