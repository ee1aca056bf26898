"""Cases that every way of loading this Space must reproduce (evaluate's `tests.py`
template), expected values derived by hand in the comments."""

test_cases = [
    {
        # Two documents, scored together (numerators and denominators summed).
        # Doc 0: key {a b c}, response {a b} {c}. Doc 1: key {x y} {z}, response {x y z}.
        # MUC recall: doc 0 keeps 1 of 2 links, doc 1 both of 1: (1 + 1)/(2 + 1).
        # MUC precision: 1 of 1 + 0 of 0, then 1 of 2: (1 + 1)/(1 + 0 + 2).
        # B3 recall: a, b 2/3, c 1/3; x, y 1, z 1: (5/3 + 3)/6 = 7/9.
        # CEAFe: doc 0 phi4({abc},{ab}) = 4/5; doc 1 phi4({xy},{xyz}) = 4/5 (z's key entity
        # gets nothing): recall 1.6 of 3 key entities, precision 1.6 of 3 response ones.
        "predictions": [[["a", "b"], ["c"]], [["x", "y", "z"]]],
        "references": [[["a", "b", "c"]], [["x", "y"], ["z"]]],
        "kwargs": {},
        "result": {"muc_recall": 2 / 3, "muc_precision": 2 / 3, "bcub_recall": 7 / 9, "ceafe_recall": 1.6 / 3, "ceafe_precision": 1.6 / 3},
    },
    {
        # Spans. Key {[0,1] [4,4]} {[6,6]}; response {[0,1] [4,4] [8,8]}, and an empty
        # second document on both sides. [8,8] is twinless: B3 precision (2/3 + 2/3 + 0)/3,
        # recall (1 + 1 + 0)/3; mention identification 2 of 3 both ways.
        "predictions": [[[[0, 1], [4, 4], [8, 8]]], []],
        "references": [[[[0, 1], [4, 4]], [[6, 6]]], []],
        "kwargs": {"metrics": ["bcub", "mentions"]},
        "result": {"bcub_precision": 4 / 9, "bcub_recall": 2 / 3, "mentions_recall": 2 / 3, "mentions_precision": 2 / 3},
    },
    {
        # CoNLL documents. Doc 0: key {[0,1] [3,3]} {[2,2]}, response {[0,1] [2,2]}.
        # Doc 1: one singleton [0,0] on both sides.
        # MUC: doc 0's key link is cut ([3,3] is missing) and its response link joins two
        # key entities: recall 0 of 1, precision 0 of 1; doc 1 has no link.
        # LEA recall: doc 0's entities keep nothing (the key singleton [2,2] is not a
        # singleton in the response); doc 1's singleton is one: (0 + 0 + 1)/(3 + 1).
        # LEA precision: (0 + 1)/(2 + 1).
        "predictions": ["w\t(5\nw\t5)\nw\t(5)\nw\t-\n", "w\t(1)\n"],
        "references": ["w\t(0\nw\t0)\nw\t(1)\nw\t(0)\n", "w\t(1)\n"],
        "kwargs": {"metrics": ["muc", "lea"]},
        "result": {"muc_recall": 0.0, "lea_recall": 1 / 4, "lea_precision": 1 / 3},
    },
    {
        # OntoNotes jsonlines lines as strings, two documents (one for each of two
        # processes). x_0's prediction is a predict.py line: the gold clusters of its input
        # ({a c}) beside its predicted_clusters ({a} {c}), which are read; y_0 is perfect.
        # MUC recall (0 + 1)/(1 + 1), precision 1/1 (x_0's singletons add 0/0).
        # B3 recall (1/2 + 1/2 + 1 + 1)/4, precision 4/4.
        "predictions": [
            '{"doc_key": "x_0", "sentences": [["a", "b", "c"]], "clusters": [[[0, 0], [2, 2]]], "predicted_clusters": [[[0, 0]], [[2, 2]]]}',
            '{"doc_key": "y_0", "sentences": [["d", "e"]], "clusters": [[[0, 0], [1, 1]]], "predicted_clusters": [[[0, 0], [1, 1]]]}',
        ],
        "references": [
            '{"doc_key": "x_0", "sentences": [["a", "b", "c"]], "clusters": [[[0, 0], [2, 2]]]}',
            '{"doc_key": "y_0", "sentences": [["d", "e"]], "clusters": [[[0, 0], [1, 1]]]}',
        ],
        "kwargs": {"metrics": ["muc", "bcub"]},
        "result": {"bcub_recall": 0.75, "bcub_precision": 1.0, "muc_recall": 0.5, "muc_precision": 1.0},
    },
]

# An input the demo must reject with a message, and keep serving afterwards: an unclosed
# mention in the response.
demo_bad_input = {"predictions": "#begin document d\nw\t(1\nw\t-\n#end document\n"}
demo_error = "opened but not closed"

# A span ending far beyond the demo's stated token limit: refused before any work (the
# demo once drew a placeholder token for every index up to the largest span end).
demo_over_limit = {"predictions": "[[[2, 10000000]]]"}
demo_limit_error = "beyond the demo's limit of 100,000 tokens"
