"""quad_match: hand-derived cases for every rule, rouge-score and brute force as references,
DiaASQ as real Chinese and English data, properties, errors and the command line."""

import functools
import html
import itertools
import json
import random
import re
import types
import warnings

import diaasq
import numpy as np
import pytest
from conftest import without_references
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score.rouge_scorer import RougeScorer

from paperscore import cli
from paperscore.quad import KEYS, TUPLE_LENS, Tokenizer, best_assignment, compute, rouge_l, tokenize

CARD_PRED = ["food | good | food#taste | pos"]
CARD_REF = ["food | good | food#taste | pos & service | bad | service#general | neg"]


def headline(result):
    return {key: result[key] for key in KEYS}


def close(result, expected):
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-12), key


# ---------------------------------------------------------------------------------------
# ROUGE-L and its tokens


def test_tokens_are_cjk_characters_and_letter_digit_runs():
    assert tokenize("服务很好 Wi-Fi 6") == ("服", "务", "很", "好", "Wi", "Fi", "6")
    assert tokenize("黑鲨4 pro") == ("黑", "鲨", "4", "pro")
    assert tokenize("X70Pro+ café") == ("X70Pro", "café")
    assert tokenize("すごく良い 좋아요") == ("す", "ご", "く", "良", "い", "좋", "아", "요")


def test_rouge_scores_chinese_where_rouge_scores_default_tokenizer_cannot():
    # The bug the original card's choice of library invites: rouge-score's default tokenizer
    # keeps only [a-z0-9] runs, so Chinese has no tokens and even identical strings score 0.
    default = RougeScorer(["rougeL"])
    assert default.score("服务很好", "服务很好")["rougeL"].fmeasure == 0
    assert default.score("服务很好", "服务好")["rougeL"].fmeasure == 0
    # Characters as tokens: LCS(服务很好, 服务好) = 3 -> P = 3/3, R = 3/4, F = 2*(3/4)/(7/4) = 6/7.
    assert rouge_l("服务很好", "服务好") == pytest.approx(6 / 7, abs=1e-15)
    assert rouge_l("服务很好", "服务很好") == 1.0


def test_identical_strings_score_exactly_one_even_without_tokens():
    assert rouge_l("!!", "!!") == 1.0
    assert rouge_l("!!", "??") == 0.0  # no tokens on either side: nothing in common
    assert rouge_l("好!", "好") == 1.0  # the same tokens


def test_rouge_hand_derivations():
    # great food / food: LCS 1 -> P = 1, R = 1/2 -> F = 2/3 (the spec's partial-match case)
    assert rouge_l("great food", "food") == pytest.approx(2 / 3, abs=1e-15)
    # 真我大师探索版 (7 characters) / 大师探索 (4): LCS 4 -> P = 1, R = 4/7 -> F = (8/7)/(11/7) = 8/11
    assert rouge_l("真我大师探索版", "大师探索") == pytest.approx(8 / 11, abs=1e-15)
    # case is kept, as the original's rouge_chinese keeps it
    assert rouge_l("Food", "food") == 0.0
    # order matters (subsequence): a b c / c b a: LCS 1 -> P = R = 1/3
    assert rouge_l("a b c", "c b a") == pytest.approx(1 / 3, abs=1e-15)


words = st.lists(st.sampled_from(["服", "务", "好", "很", "food", "good", "Food", "12x", "-", " "]), max_size=7).map("".join)


@settings(max_examples=300, deadline=None)
@given(words, words)
def test_rouge_equals_rouge_score_with_the_cjk_tokenizer(a, b):
    """rouge-score itself, called directly with our tokenizer, is the reference."""
    expected = 1.0 if a == b else RougeScorer(["rougeL"], tokenizer=Tokenizer()).score(a, b)["rougeL"].fmeasure
    assert rouge_l(a, b) == expected == rouge_l(b, a)


lower_words = st.lists(st.sampled_from(["food", "good", "very", "bad", "staff", "x1"]), min_size=1, max_size=6).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(lower_words, lower_words)
def test_rouge_equals_rouge_scores_own_tokenizer_on_lowercase_english(a, b):
    """Where the two tokenizers agree (lowercase ASCII words), rouge-score's default is a
    second, independent reference."""
    assert rouge_l(a, b) == pytest.approx(RougeScorer(["rougeL"]).score(a, b)["rougeL"].fmeasure, abs=1e-15)


# ---------------------------------------------------------------------------------------
# The optimal assignment


def brute_force(matrix):
    """The largest total over every injection of the shorter side into the longer: the
    m!/(m-n)! enumeration the original card describes."""
    n, m = matrix.shape
    if n > m:
        return brute_force(matrix.T)
    if n == 0:
        return 0.0
    return max(sum(matrix[i, j] for i, j in enumerate(chosen)) for chosen in itertools.permutations(range(m), n))


matrices = st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
    lambda shape: st.lists(
        st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 1 / 3, 2 / 3, 0.9]) | st.floats(0, 1),
        min_size=shape[0] * shape[1],
        max_size=shape[0] * shape[1],
    ).map(lambda values: np.array(values).reshape(shape))
)


@settings(max_examples=400, deadline=None)
@given(matrices)
def test_assignment_total_equals_brute_force_over_all_injections(matrix):
    rows, columns = best_assignment(matrix)
    assert len(rows) == min(matrix.shape)
    assert len(set(rows.tolist())) == len(rows) and len(set(columns.tolist())) == len(columns)
    assert matrix[rows, columns].sum() == pytest.approx(brute_force(matrix), abs=1e-12)


# ---------------------------------------------------------------------------------------
# Hand-derived cases


def test_the_metric_cards_example():
    # degrees [1, 0] (every element of ref 1 equal, every element of ref 2 different);
    # S = 1, n = 1, m = 2: P = 1, R = 1/2, F1 = 2/3; score = S / max(n, m) = 1/2.
    # Exact: 1 hit of 1 predicted and 2 gold: F1 = 2/3.
    r = compute(CARD_PRED, CARD_REF, legacy_keys=True)
    close(r, {"optimal_precision": 1, "optimal_recall": 0.5, "optimal_f1": 2 / 3, "optimal_score": 0.5, "exact_f1": 2 / 3})
    assert (round(r["exact_f1"], 4), round(r["optimal_f1"], 4), r["optimal_score"]) == (0.6667, 0.6667, 0.5)
    # The original's keys and printed values, exactly as its card shows them.
    assert {k: v for k, v in r.items() if " " in k} == {
        "f1 of exact match": 0.6667,
        "f1 of optimal match of weight (1, 1, 1, 1)": 0.6666666666666666,
        "score of optimal match of weight (1, 1, 1, 1)": 0.5,
    }


def test_partial_match_in_english():
    # pred 1 / ref 1: target great food / food 2/3, opinion, aspect, polarity 1 -> (2/3 + 3)/4 = 11/12
    # pred 2 / ref 2: staff/service 0, rude/bad 0, aspect 1, pos/neg 0 -> 1/4
    # pred 1 / ref 2: 0; pred 2 / ref 1: only polarity pos = pos -> 1/4
    # best total: 11/12 + 1/4 = 7/6 (the other way: 0 + 1/4). n = m = 2: P = R = F1 = score = 7/12.
    pred = ["great food | good | food#taste | pos & staff | rude | service#general | pos"]
    r = compute(pred, CARD_REF, details=True)
    close(r, {"optimal_precision": 7 / 12, "optimal_recall": 7 / 12, "optimal_f1": 7 / 12, "optimal_score": 7 / 12, "exact_f1": 0})
    first = r["samples"][0]["alignment"][0]
    assert first["similarity"] == {"target": pytest.approx(2 / 3), "opinion": 1.0, "aspect": 1.0, "polarity": 1.0}
    assert first["degree"] == pytest.approx(11 / 12)


def test_more_predictions_than_references():
    # 3 predicted (perfect, junk, opinion wrong) against 1 reference: the perfect one is
    # matched, S = 1: P = 1/3, R = 1, F1 = 2*1/(3 + 1) = 1/2; score = 1/3. Exact: 1 hit, the same.
    pred = ["food | good | food#taste | pos & x | y | z | neg & food | bad | food#taste | pos"]
    r = compute(pred, ["food | good | food#taste | pos"])
    close(r, {"optimal_precision": 1 / 3, "optimal_recall": 1, "optimal_f1": 0.5, "optimal_score": 1 / 3})
    close(r, {"exact_precision": 1 / 3, "exact_recall": 1, "exact_f1": 0.5})


def test_fewer_predictions_than_references_uses_the_best_partner():
    # one prediction, opinion wrong, against refs A (aspect wrong too) and B (only opinion wrong):
    # degree to A = 2/4, to B = 3/4; the assignment takes B: S = 3/4, n = 1, m = 2:
    # P = 3/4, R = 3/8, F1 = 2*(3/4)/3 = 1/2; score = (3/4)/2 = 3/8.
    pred = ["food | bad | food#taste | pos"]
    ref = ["food | good | food#style | pos & food | good | food#taste | pos"]
    close(compute(pred, ref), {"optimal_precision": 0.75, "optimal_recall": 0.375, "optimal_f1": 0.5, "optimal_score": 0.375})


def test_weights_drop_and_weigh_elements():
    # aspect differs; weight 0 drops it: degree (1 + 1 + 1)/3 = 1; exact match ignores weights.
    r = compute(["food | good | food#style | pos"], ["food | good | food#taste | pos"], weights=(1, 1, 0, 1))
    close(r, {"optimal_f1": 1, "exact_f1": 0})
    # target and aspect equal, opinion (nice/good) and polarity differ; weights (2, 1, 1, 0):
    # (2*1 + 1*0 + 1*1 + 0*0) / (2 + 1 + 1 + 0) = 3/4
    r = compute(["food | nice | food#taste | neg"], ["food | good | food#taste | pos"], weights=(2, 1, 1, 0))
    close(r, {"optimal_f1": 0.75, "optimal_score": 0.75})


@pytest.mark.parametrize("tuple_len", TUPLE_LENS + ("0", "1", "2", "02", "12", "123", "3210", "20"))
def test_every_tuple_len_maps_its_fields_to_their_elements(tuple_len):
    # The original's codes, the other subsets (issue 23: ASQP, MvP and ACOS report every
    # subset of the elements), and fields in another order.
    # Weights 1, 2, 4, 8 on target, opinion, aspect, polarity make the degree tell which
    # element a field is. The reference's fields are t, o, a, p in the code's order; the
    # prediction gets the last field wrong ("wrong" shares no token with any of them), so
    # degree = (sum of the code's weights - the last one's) / (sum of the code's weights).
    weights = (1, 2, 4, 8)
    names = {"0": "t", "1": "o", "2": "a", "3": "p"}
    ref = " | ".join(names[c] for c in tuple_len)
    pred = " | ".join([names[c] for c in tuple_len[:-1]] + ["wrong"])
    total = sum(weights[int(c)] for c in tuple_len)
    expected = (total - weights[int(tuple_len[-1])]) / total
    r = compute([pred], [ref], tuple_len=tuple_len, weights=weights)
    close(r, {"optimal_f1": expected, "optimal_score": expected, "exact_f1": 0})
    # a four-field quad is malformed for a shorter code (and the reverse): it matches nothing
    full = "t | o | a | p"
    if tuple_len != "0123":
        assert compute([full], [ref], tuple_len=tuple_len)["optimal_precision"] == 0


def test_a_single_element_tuple_len():
    # "1", opinions alone: 很好 / 好 is ROUGE-L 2/3 (LCS 1 of 2 and 1 characters), so
    # S = 2/3 + 1 (好 / 好) over n = m = 2; exact: 1 hit of 2. "2", categories: a label,
    # exact only: 1 of 2.
    r = compute(["很好 & 好"], ["好 & 好"], tuple_len="1")
    close(r, {"optimal_f1": (2 / 3 + 1) / 2, "exact_f1": 1 / 2})
    close(compute(["服务#态度 & 价格"], ["服务#态度 & 价格#水平"], tuple_len="2"), {"optimal_f1": 1 / 2, "exact_f1": 1 / 2})


def test_tuple_len_03_card_style():
    # food | pos against food | pos & staff | neg: as the card example, 2/3, 2/3, 1/2
    r = compute(["food | pos"], ["food | pos & staff | neg"], tuple_len="03")
    close(r, {"exact_f1": 2 / 3, "optimal_f1": 2 / 3, "optimal_score": 0.5})


def test_several_references_count_the_best_one_ties_to_the_first():
    pred = ["a | b | c | pos"]
    # A: contains the quad and one more: S = 1, m = 2, score 1/2, exact hit 1.
    # B: target and aspect equal only: degree 2/4, m = 1, score 1/2. A tie.
    a, b = "a | b | c | pos & d | e | f | neg", "a | q | c | neg"
    # [A, B]: A counted: P = 1, R = 1/2, F1 = 2/3; exact F1 = 2/3.
    close(compute(pred, [[a, b]]), {"optimal_f1": 2 / 3, "optimal_recall": 0.5, "optimal_score": 0.5, "exact_f1": 2 / 3})
    # [B, A]: B counted: S = 1/2, n = m = 1: P = R = F1 = 1/2; exact F1 = 0.
    close(compute(pred, [[b, a]]), {"optimal_f1": 0.5, "optimal_recall": 0.5, "optimal_score": 0.5, "exact_f1": 0})
    # C (only the quad itself) scores 1 and wins wherever it stands.
    r = compute(pred, [[a, "a | b | c | pos", b]], details=True)
    close(r, {"optimal_f1": 1, "exact_f1": 1})
    assert r["samples"][0]["reference"] == 1


def test_malformed_predictions_count_and_match_nothing():
    # 3 elements where 4 are needed, and an empty element: both count in n with degree 0.
    # S = 1 (the good quad), n = 3, m = 1: P = 1/3, R = 1, F1 = 1/2; score 1/3.
    pred = ["food | good | pos & food | good | food#taste | pos & food |  | food#taste | pos"]
    r = compute(pred, ["food | good | food#taste | pos"], details=True)
    close(r, {"optimal_precision": 1 / 3, "optimal_recall": 1, "optimal_f1": 0.5, "optimal_score": 1 / 3, "exact_precision": 1 / 3})
    rows = r["samples"][0]["alignment"]
    assert [row.get("malformed") for row in rows] == [None, "has 3 elements where tuple_len needs 4", "has an empty element 2"]
    assert rows[1]["reference"] is None and rows[1]["degree"] == 0.0


def test_malformed_quads_under_the_duplicate_policies():
    # pred: the malformed "a | b" twice and the gold quad: multiset n = 3, 1 hit -> P = 1/3;
    # set: equal malformed texts are one item, n = 2 -> P = 1/2.
    pred, gold = ["a | b & a | b & a | b | c | d"], ["a | b | c | d"]
    assert compute(pred, gold)["exact_precision"] == pytest.approx(1 / 3)
    assert compute(pred, gold, duplicates="set")["exact_precision"] == pytest.approx(1 / 2)


def test_a_lone_surrogate_separates_tokens():
    # "a\ud800b" is the tokens a, b (a surrogate is no letter); "好x" against "好": LCS 1,
    # P = 1/2, R = 1, F1 = 2/3; degree (1 + 2/3 + 1 + 1) / 4 = 11/12.
    r = compute(["a\ud800b | 好x | y | z"], ["a\ud800b | 好 | y | z"])
    close(r, {"optimal_f1": 11 / 12, "exact_f1": 0.0})
    assert rouge_l("a\ud800b", "b") == pytest.approx(2 / 3)


def test_a_malformed_prediction_never_equals_a_well_formed_reference_quad():
    # "x" has 1 element where 4 are needed: it matches nothing, so no exact hit (P = R = 0),
    # whatever the codes of the well-formed quads ("a | a | a | b": elements 0 0 0 1).
    for duplicates in ("multiset", "list", "set"):
        assert compute(["x"], ["a | a | a | b"], duplicates=duplicates)["exact_f1"] == 0.0
        assert compute(["x & a | a | a | b"], ["a | a | a | b"], duplicates=duplicates)["exact_precision"] == 0.5


def test_empty_samples_follow_the_documented_policy():
    ref = "food | good | food#taste | pos"
    # no prediction against one quad: FN 1, score 0
    close(compute([""], [ref]), {"optimal_recall": 0, "optimal_precision": 0, "optimal_score": 0})
    # one prediction against no quad: FP 1, score 0
    close(compute([ref], ["  "]), {"optimal_precision": 0, "optimal_score": 0})
    # both empty: a perfect sample (score 1) that adds nothing to the counts
    r = compute(["", ref], ["", ref])
    close(r, {"optimal_f1": 1, "optimal_score": 1, "exact_f1": 1})
    # a corpus of only empty samples: P/R/F1 are 0/0, which zero_division decides
    close(compute([""], [""]), {"optimal_f1": 0, "exact_f1": 0, "optimal_score": 1})
    close(compute([""], [""], zero_division=1.0), {"optimal_f1": 1, "exact_f1": 1})
    # no samples at all
    close(compute([], []), {"optimal_f1": 0, "optimal_score": 0})
    assert np.isnan(compute([], [], zero_division="nan")["optimal_score"])


def test_chinese_character_level_match():
    # target 服务 / 服务态度: LCS 2, P = 1, R = 1/2 -> 2/3; opinion 很好 / 好: 2/3; aspect and
    # polarity equal: degree (2/3 + 2/3 + 1 + 1)/4 = 5/6.
    r = compute(["服务 | 很好 | 服务#态度 | 正面"], ["服务态度 | 好 | 服务#态度 | 正面"])
    close(r, {"optimal_f1": 5 / 6, "optimal_score": 5 / 6, "exact_f1": 0})
    # every element exact: (0 + 0 + 1 + 1)/4 = 1/2
    close(compute(["服务 | 很好 | 服务#态度 | 正面"], ["服务态度 | 好 | 服务#态度 | 正面"], similarity="exact"), {"optimal_f1": 0.5})


@pytest.mark.parametrize(
    "duplicates, expected",
    [
        # pred q, q against gold q, r
        ("multiset", (1 / 2, 1 / 2)),  # one-to-one: 1 hit; n = 2, m = 2
        ("list", (2 / 2, 2 / 2)),  # ASQP: each predicted q is in the gold list: 2 hits; n = 2, m = 2
        ("set", (1 / 1, 1 / 2)),  # DiaASQ: {q} & {q, r}: 1 hit; n = 1, m = 2
    ],
)
def test_duplicate_quads_under_each_policy(duplicates, expected):
    q, other = "food | good | food#taste | pos", "staff | rude | service#general | neg"
    r = compute([f"{q} & {q}"], [f"{q} & {other}"], duplicates=duplicates)
    assert (r["exact_precision"], r["exact_recall"]) == pytest.approx(expected)
    # the optimal match is one-to-one whatever the exact rule: S = 1 + degree(q, other) = 1
    close(r, {"optimal_precision": 0.5, "optimal_recall": 0.5})


def test_list_counting_lets_recall_pass_one_as_in_the_asqp_code():
    # q predicted twice against gold q: 2 hits over 1 gold quad. This is what the ASQP/MvP/ACOS
    # membership count gives; the default one-to-one count does not.
    q = "food | good | food#taste | pos"
    with pytest.warns(UserWarning, match=r"1 exact hits come from predicted quads repeated beyond their gold copies \(predictions\[0\]\)"):
        assert compute([f"{q} & {q}"], [q], duplicates="list")["exact_recall"] == 2.0
    assert compute([f"{q} & {q}"], [q])["exact_recall"] == 1.0


def test_list_counting_warns_naming_the_samples_and_counts_the_repeated_hits():
    # The issue's case: a correct quad printed three times. Sample 0: q x3 against gold q:
    # 3 hits, 2 beyond the one gold copy; 1: q against q: 1 hit; 2: q x2 against q x2: 2
    # hits, none repeated (two gold copies); 3-8: q x2 against q: 2 hits, 1 repeated each;
    # 9: r against q: none. Hits 3 + 1 + 2 + 6*2 = 18 over n = 3 + 1 + 2 + 12 + 1 = 19 and
    # m = 1 + 1 + 2 + 6 + 1 = 11: P = 18/19, R = 18/11 > 1; repeated 2 + 6 = 8, in samples
    # 0, 3, 4, 5, 6 (named) and 7, 8 ("2 more").
    q, r = "food | good | food#taste | pos", "x | y | z | neg"
    pred = [f"{q} & {q} & {q}", q, f"{q} & {q}", *[f"{q} & {q}"] * 6, r]
    gold = [q, q, f"{q} & {q}", *[q] * 6, q]
    with pytest.warns(UserWarning, match=r"8 exact hits .*\(predictions\[0\], predictions\[3\], predictions\[4\], predictions\[5\], predictions\[6\] and 2 more samples\)") as caught:
        result = compute(pred, gold, duplicates="list")
    assert len(caught) == 1
    assert result["exact_repeated_hits"] == 8
    close(result, {"exact_precision": 18 / 19, "exact_recall": 18 / 11})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no repeated quad beyond its gold copies: no warning
        assert compute([f"{q} & {q}"], [f"{q} & {q}"], duplicates="list")["exact_repeated_hits"] == 0
        assert "exact_repeated_hits" not in compute(pred, gold)


def test_separators_and_white_space():
    # elements stripped; custom separators
    r = compute(["food|good|food#taste|pos ;; staff|bad|service#general|neg"], ["  food | good | food#taste | pos  "], sep_token1=";;", sep_token2="|")
    close(r, {"optimal_precision": 0.5, "optimal_recall": 1})


def test_legacy_keys_use_the_weights_as_given():
    r = compute(CARD_PRED, CARD_REF, weights=[1.0, 1, 0, 1], legacy_keys=True)
    assert "f1 of optimal match of weight (1.0, 1, 0, 1)" in r and "score of optimal match of weight (1.0, 1, 0, 1)" in r


# ---------------------------------------------------------------------------------------
# DiaASQ: real Chinese and English quads


@pytest.fixture(scope="module", params=["zh", "en"])
def dialogues(request):
    return diaasq.dialogues(request.param)


def test_diaasq_fixture_reorders_target_aspect_opinion():
    # the first zh triplet: [26, 33, 39, 42, 42, 44, "pos", "真我大师探索版", "性价比", "更好"]
    assert diaasq.dialogues("zh")[0][0] == ("真我大师探索版", "更好", "性价比", "pos")
    assert diaasq.dialogues("en")[0][0] == ("12X", "not high", "cost-effective", "neg")
    assert sum(map(len, diaasq.dialogues("zh"))) == 826  # 891 triplets, 65 without a polarity


def test_diaasq_gold_against_itself_is_perfect(dialogues):
    gold = [diaasq.quad_string(d) for d in dialogues]
    for duplicates in ("multiset", "list", "set"):
        r = compute(gold, gold, duplicates=duplicates)
        assert headline(r) == dict.fromkeys(KEYS, 1.0)


def test_diaasq_unknown_polarity_scores_three_quarters(dialogues):
    # Every polarity replaced by one found nowhere: no pair can score above 3/4, and each
    # quad against its own copy scores exactly 3/4, so S = 3m/4 in every dialogue.
    gold = [diaasq.quad_string(d) for d in dialogues]
    pred = [diaasq.quad_string([q[:3] + ("unknown",) for q in d]) for d in dialogues]
    close(compute(pred, gold), {"optimal_precision": 0.75, "optimal_recall": 0.75, "optimal_score": 0.75, "exact_f1": 0})


def test_diaasq_dropped_and_spurious_quads(dialogues):
    gold = [diaasq.quad_string(d) for d in dialogues]
    # Every other quad dropped: each kept quad meets its copy (degree 1, the most a pair can
    # have): S = n, P = 1, R = sum n / sum m; exact the same.
    kept = [d[::2] for d in dialogues]
    n, m = sum(map(len, kept)), sum(map(len, dialogues))
    expected = {"optimal_precision": 1, "optimal_recall": n / m, "exact_precision": 1, "exact_recall": n / m}
    close(compute([diaasq.quad_string(d) for d in kept], gold), expected)
    # One junk quad added per dialogue (no shared token or label): S = m, n = m + 100.
    junk = "qqq | zzz | xxx | unknown"
    pred = [f"{diaasq.quad_string(d)} & {junk}" for d in dialogues]
    close(compute(pred, gold), {"optimal_precision": m / (m + len(dialogues)), "optimal_recall": 1})


def test_diaasq_real_spans_shortened():
    # 真我大师探索版 predicted as 大师探索: ROUGE-L 8/11 (see test_rouge_hand_derivations);
    # degree (8/11 + 3)/4 = 41/44.
    q = diaasq.dialogues("zh")[0][0]
    r = compute([diaasq.quad_string([("大师探索",) + q[1:]])], [diaasq.quad_string([q])])
    close(r, {"optimal_f1": 41 / 44})
    # Realme Master Exploration edition -> Master Exploration: LCS 2 of 4 and 2 tokens:
    # P = 1, R = 1/2, F = 2/3; degree (2/3 + 3)/4 = 11/12.
    q = diaasq.dialogues("en")[0][1]
    r = compute([diaasq.quad_string([("Master Exploration",) + q[1:]])], [diaasq.quad_string([q])])
    close(r, {"optimal_f1": 11 / 12})


# ---------------------------------------------------------------------------------------
# Properties, against a plain re-implementation


def reference_implementation(predictions, references):
    """(S, n, m, score) summed the slow, obvious way: rouge-score per pair, brute force over
    injections. Single references, default options."""
    scorer = RougeScorer(["rougeL"], tokenizer=Tokenizer())

    def similarity(x, y, free_text):
        if x == y:
            return 1.0
        return scorer.score(y, x)["rougeL"].fmeasure if free_text else 0.0

    def parse(text):
        return [tuple(e.strip() for e in q.split(" | ")) for q in text.split(" & ")] if text.strip() else []

    totals = np.zeros(4)
    for prediction, reference in zip(predictions, references):
        p, g = parse(prediction), parse(reference)
        matrix = np.array(
            [[0.0 if len(x) != 4 or "" in x else sum(similarity(a, b, k < 2) for k, (a, b) in enumerate(zip(x, y))) / 4 for y in g] for x in p]
        ).reshape(len(p), len(g))
        s = brute_force(matrix)
        totals += (s, len(p), len(g), s / max(len(p), len(g)) if p or g else 1.0)
    return totals


TARGETS = ["food", "great food", "Food", "服务", "服务态度", "黑鲨4", "NULL"]
OPINIONS = ["good", "very good", "很好", "好", "bad", "较差"]
quads = st.tuples(st.sampled_from(TARGETS), st.sampled_from(OPINIONS), st.sampled_from(["f#t", "s#g", "NULL"]), st.sampled_from(["pos", "neg"]))
samples = st.lists(st.lists(quads, max_size=4).map(diaasq.quad_string), min_size=1, max_size=6)
corpora = st.integers(1, 6).flatmap(lambda k: st.tuples(*[st.lists(st.lists(quads, max_size=4).map(diaasq.quad_string), min_size=k, max_size=k)] * 2))


@settings(max_examples=150, deadline=None)
@given(corpora)
def test_equals_the_plain_reimplementation(corpus):
    predictions, references = corpus
    s, n, m, score = reference_implementation(predictions, references)
    r = compute(predictions, references)
    assert r["optimal_precision"] == pytest.approx(s / n if n else 0.0, abs=1e-12)
    assert r["optimal_recall"] == pytest.approx(s / m if m else 0.0, abs=1e-12)
    assert r["optimal_score"] == pytest.approx(score / len(predictions), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(corpora, st.sampled_from(["multiset", "set"]), st.sampled_from(["rouge_l", "exact"]))
def test_every_number_lies_in_zero_one(corpus, duplicates, similarity):
    r = compute(*corpus, duplicates=duplicates, similarity=similarity)
    assert all(0 <= r[key] <= 1 for key in KEYS)
    # exact match is the strictest soft match: each exact hit is a pair of degree 1
    assert r["exact_f1"] <= r["optimal_f1"] + 1e-12 or duplicates == "set"


@settings(max_examples=100, deadline=None)
@given(samples)
def test_predicting_the_references_is_perfect(references):
    r = compute(references, references, zero_division=1.0)
    assert headline(r) == dict.fromkeys(KEYS, 1.0)


@settings(max_examples=100, deadline=None)
@given(corpora, st.randoms(use_true_random=False))
def test_order_of_samples_and_of_quads_does_not_matter(corpus, random):
    predictions, references = corpus
    order = list(range(len(predictions)))
    random.shuffle(order)

    def shuffled(text):
        pieces = text.split(" & ") if text else []
        random.shuffle(pieces)
        return " & ".join(pieces)

    moved = compute([shuffled(predictions[i]) for i in order], [shuffled(references[i]) for i in order])
    assert moved == pytest.approx(compute(predictions, references), abs=1e-12)


@pytest.fixture(scope="module")
def space_metric():
    """The Space's metric through evaluate, loaded once for the module."""
    import evaluate
    from conftest import SPACES_DIR

    return evaluate.load(str(SPACES_DIR / "quad_match"), keep_in_memory=True)


@settings(max_examples=20, deadline=None)
@given(corpora, st.lists(st.integers(0, 6), max_size=3))
def test_batches_added_through_evaluate_equal_one_pass(space_metric, corpus, cuts):
    predictions, references = corpus
    bounds = [0] + sorted(min(c, len(predictions)) for c in cuts) + [len(predictions)]
    metric = space_metric
    for start, stop in zip(bounds, bounds[1:]):
        if stop > start:
            metric.add_batch(predictions=predictions[start:stop], references=references[start:stop])
    assert metric.compute() == pytest.approx(compute(predictions, references), abs=1e-12)


def test_the_metric_script_takes_exactly_the_package_arguments(space_metric):
    import inspect

    parameters = list(inspect.signature(type(space_metric)._compute).parameters.values())[1:]
    assert parameters == list(inspect.signature(compute).parameters.values())


def test_several_references_through_evaluate(space_metric):
    metric = space_metric
    pred = ["a | b | c | pos", "a | b | c | pos"]
    refs = [["a | b | c | pos & d | e | f | neg", "a | q | c | neg"], ["a | b | c | pos"]]
    assert metric.compute(predictions=pred, references=refs) == compute(pred, refs)
    with pytest.raises(ValueError, match=r"predictions\[0\]: expected a string of quads or a list of quads, got int"):
        metric.add(prediction=5, reference="a | b | c | pos")


# ---------------------------------------------------------------------------------------
# Bootstrap, signature, details


def test_bootstrap_is_reproducible_and_brackets_the_estimate():
    gold = [diaasq.quad_string(d) for d in diaasq.dialogues("en")]
    pred = [diaasq.quad_string([q[:3] + (q[3] if i % 3 else "unknown",) for i, q in enumerate(d)]) for d in diaasq.dialogues("en")]
    r = compute(pred, gold, confidence_level=0.9, n_resamples=300, seed=3)
    assert r == compute(pred, gold, confidence_level=0.9, n_resamples=300, seed=3)
    for key in KEYS:
        assert r[f"{key}_low"] <= r[key] <= r[f"{key}_high"], key
    assert r["optimal_f1_low"] < r["optimal_f1"] < r["optimal_f1_high"]


def test_signature_names_the_options():
    r = compute(CARD_PRED, CARD_REF, tuple_len="0123", weights=(1, 1, 0, 1), duplicates="set", return_signature=True)
    assert without_references(r["signature"]).startswith("quad_match|tuple_len:0123|weights:1,1,0,1|similarity:rouge_l+cjk_char|duplicates:set|zero_division:0|paperscore:")


def test_details_mark_unmatched_quads():
    r = compute(CARD_PRED, CARD_REF, details=True)
    (sample,) = r["samples"]
    assert sample["reference"] == 0 and sample["score"] == 0.5 and sample["matched"] == 1.0 and sample["exact_hits"] == 1
    matched, unmatched = sample["alignment"]
    assert matched["prediction"] == matched["reference"] == CARD_PRED[0] and matched["degree"] == 1.0
    assert unmatched == {"prediction": None, "reference": "service | bad | service#general | neg", "similarity": None, "degree": 0.0}


# ---------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    "predictions, references, kwargs, message",
    [
        (["a | b | c | d"], ["a | b | c | d", "x"], {}, "differ in length: 1 against 2"),
        ([3], ["a | b | c | d"], {}, r"predictions\[0\]: expected a string of quads or a list of quads, got int"),
        (["x"], [None], {}, r"references\[0\]: expected a string of quads or a list of quads, got NoneType"),
        (["x"], [["a | b | c | d", 7]], {}, r"references\[0\]\[1\]: expected a string of quads or a list of quads, got int"),
        ([[["a", "b", "c", 4]]], ["a | b | c | d"], {}, r"predictions\[0\]: quad 1 holds 4, not a string"),
        ([[{"target": "a", "sentiment": "pos"}]], ["a | b | c | d"], {}, r"predictions\[0\]: quad 1 has the key 'sentiment'"),
        ([["a | b | c | d"]], ["a | b | c | d"], {}, r"predictions\[0\]: quad 1 is a str"),
        ("a | b | c | d", ["a | b | c | d"], {}, r"predictions: expected a list of examples, got a str"),
        (["x"], ["a | b | c | d"], {"weights": {1, 2, 3, 4}}, r"weights: \{1, 2, 3, 4\} is not 4 numbers"),
        (["x"], ["a | b | c | d & a | b | c"], {}, r"references\[0\]: quad 2 'a \| b \| c' has 3 elements where tuple_len needs 4"),
        (["x"], [["a | b | c | d", "a |  | c | d"]], {}, r"references\[0\]\[1\]: quad 1 'a \|  \| c \| d' has an empty element 2"),
        (["x"], ["a | b"], {"tuple_len": "0124"}, "tuple_len: '0124' is not a string of distinct digits among 0 \\(target\\)"),
        (["x"], ["a | b"], {"tuple_len": "011"}, "tuple_len: '011' is not a string of distinct digits"),
        (["x"], ["a | b"], {"tuple_len": ""}, "tuple_len: '' is not a string of distinct digits"),
        (["x"], ["a | b"], {"tuple_len": 13}, "tuple_len: 13 is not a string of distinct digits"),
        (["x"], ["a | b | c | d"], {"similarity": "bleu"}, "similarity: 'bleu' is not one of"),
        (["x"], ["a | b | c | d"], {"duplicates": "bag"}, "duplicates: 'bag' is not one of"),
        (["x"], ["a | b | c | d"], {"weights": (1, 1, 1)}, r"weights: \(1, 1, 1\) is not 4 numbers"),
        (["x"], ["a | b | c | d"], {"weights": "1111"}, "weights: '1111' is not 4 numbers"),
        (["x"], ["a | b | c | d"], {"weights": (1, -1, 1, 1)}, r"weights\[1\]: -1 is not a finite number >= 0"),
        (["x"], ["a | b | c | d"], {"weights": (1, True, 1, 1)}, r"weights\[1\]: True is not a finite number"),
        (["x"], ["a | b"], {"weights": (1, 1, 0, 0), "tuple_len": "23"}, "weights: every element of tuple_len '23' has weight 0"),
        # each finite, but the sum is inf: every degree would be inf/inf = NaN (issue 28)
        (["x"], ["a | b | c | d"], {"weights": (1e308,) * 4}, r"weights: \(1e\+308, 1e\+308, 1e\+308, 1e\+308\) sum to inf over tuple_len '0123': the sum must be a finite number"),
        (["x"], ["a | b"], {"weights": (1, 1e308, 1, 1e308), "tuple_len": "13"}, r"sum to inf over tuple_len '13'"),
        (["x"], ["a | b | c | d"], {"sep_token1": ""}, "sep_token1: '' is not a non-empty string"),
        (["x"], ["a | b | c | d"], {"sep_token2": " & "}, "sep_token2: ' & ' is also sep_token1"),
        (["x"], ["a | b | c | d"], {"zero_division": "warn"}, "zero_division"),
        (["x"], ["a | b | c | d"], {"confidence_level": 95}, "confidence_level"),
        (["x"], ["a | b | c | d"], {"confidence_level": 0.9, "n_resamples": 0}, "n_resamples"),
    ],
)
def test_bad_input_is_a_value_error_that_says_where(predictions, references, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(predictions, references, **kwargs)


# ---------------------------------------------------------------------------------------
# Command line


def run_cli(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_cli_json_is_what_compute_returns(tmp_path, capsys):
    # an empty line is a sample with no quads; a JSON list line holds several references
    pred = [CARD_PRED[0], "", "服务 | 很好 | 服务#态度 | 正面"]
    refs = [CARD_REF[0], "a | b | c | pos", ["x | y | z | neg", "服务态度 | 好 | 服务#态度 | 正面"]]
    p = write(tmp_path / "p.txt", pred)
    r = write(tmp_path / "r.txt", [refs[0], refs[1], json.dumps(refs[2], ensure_ascii=False)])
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", r, "--weights", "1,1,0,1", "--legacy-keys", "--json"], capsys)
    assert code == 0
    expected = compute(pred, [[x] if isinstance(x, str) else x for x in refs], weights=(1, 1, 0, 1), legacy_keys=True, return_signature=True)
    assert json.loads(out) == expected


def test_cli_text_lines_beginning_with_a_quotation_mark_are_quad_text(tmp_path, capsys):
    """A target in quotation marks begins a quad text line: read as written, not as JSON;
    a line that is one JSON string is still that string, and a "[" line must be JSON."""
    quoted = '"Nokia 3310" | great | phone#general | pos'
    p = write(tmp_path / "p.txt", [quoted, json.dumps("food | good | food#taste | pos")])
    r = write(tmp_path / "r.txt", [quoted, "food | good | food#taste | pos"])
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", r, "--json"], capsys)
    assert code == 0 and json.loads(out)["exact_f1"] == 1.0  # both samples: every quad a hit
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", write(tmp_path / "other.txt", ['"Nokia" 3310 | great | phone#general | pos', "x | y | z | neg"]), "--json"], capsys)
    assert code == 0 and json.loads(out)["exact_f1"] == 0.0  # the quotation marks are the element's own
    code, _, err = run_cli(["quad", "--predictions", write(tmp_path / "bad.txt", ["[food | good"]), "--references", r], capsys)
    assert code == 1 and "--predictions: " in err and "bad.txt line 1: not JSON" in err


def test_cli_table_options_and_signature(tmp_path, capsys):
    p = write(tmp_path / "p.txt", ["food | pos", "staff | neg"])
    r = write(tmp_path / "r.txt", ["food | pos & staff | neg", '"staff | neg"'])
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", r, "--tuple-len", "03", "--similarity", "exact", "--duplicates", "set", "--details"], capsys)
    assert code == 0
    # S = 1 + 1, n = 2, m = 3: P = 1, R = 2/3
    assert re.search(r"optimal_recall\s+0\.666667", out) and re.search(r"optimal_precision\s+1\.000000", out)
    assert "samples: [" in out
    assert "signature: quad_match|tuple_len:03|weights:1,1,1,1|similarity:exact|duplicates:set" in out


def test_cli_bootstrap_options_reach_compute(tmp_path, capsys):
    p = write(tmp_path / "p.txt", CARD_PRED * 3)
    r = write(tmp_path / "r.txt", CARD_REF * 3)
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", r, "--confidence-level", "0.9", "--n-resamples", "40", "--seed", "1", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and "optimal_f1_low" in result and "bootstrap:40@0.9|seed:1" in result["signature"]


@pytest.mark.parametrize(
    "ref_lines, extra, message",
    [
        (["a | b | c | pos"], [], "differ in length: 2 against 1"),
        (["a | b | c | pos", "a | b"], [], r"references\[1\]: quad 1 'a \| b' has 2 elements"),
        (["a | b | c | pos", "x | y | z | neg"], ["--weights", "1,1"], "weights: .* is not 4 numbers"),
    ],
)
def test_cli_bad_files_exit_1_with_the_reason(tmp_path, capsys, ref_lines, extra, message):
    p = write(tmp_path / "p.txt", ["a | b | c | pos", ""])
    r = write(tmp_path / "r.txt", ref_lines)
    code, out, err = run_cli(["quad", "--predictions", p, "--references", r, *extra], capsys)
    assert code == 1 and out == ""
    assert err.startswith("paperscore quad: error: ") and re.search(message, err), err


def test_a_separator_at_either_end_leaves_an_empty_malformed_quad():
    """`... | pos & ` ends with the quad separator: the empty piece after it is a predicted
    quad that matches nothing (n = 2, S = 1: P = 1/2, R = 1), instead of `pos &` standing
    for the polarity of the first quad (which would give that pair a degree of 3/4)."""
    result = compute(["food | good | food#taste | pos & "], ["food | good | food#taste | pos"], details=True)
    assert (result["optimal_precision"], result["optimal_recall"], result["exact_precision"]) == (0.5, 1.0, 0.5)
    assert result["samples"][0]["alignment"][-1]["malformed"] == "has 1 elements where tuple_len needs 4"


# ---------------------------------------------------------------------------------------
# The batched ROUGE-L, quads as data, JSON files, configurations

from paperscore.quad import IMPLICIT, rouge_l_pairs  # noqa: E402

texts = st.lists(st.sampled_from(["服", "务", "好", "很", "food", "good", "Food", "12x", "-", " ", "a ", "b "]), max_size=90).map("".join)


def assert_batch_equals_rouge_score(strings, data):
    pairs = data.draw(st.lists(st.tuples(st.integers(0, len(strings) - 1), st.integers(0, len(strings) - 1)), min_size=1, max_size=30))
    a, b = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    scorer = RougeScorer(["rougeL"], tokenizer=Tokenizer())
    expected = [scorer.score(strings[i], strings[j])["rougeL"].fmeasure for i, j in pairs]
    assert rouge_l_pairs(strings, a, b).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(texts, min_size=2, max_size=12, unique=True), st.data())
def test_batched_rouge_l_equals_rouge_score_bit_for_bit(strings, data):
    """rouge-score's fmeasure is the oracle, on Chinese, English, empty strings and
    strings longer than one 64-token word (which take rouge-score's own path)."""
    assert_batch_equals_rouge_score(strings, data)


# The first and last character of each CJK range, and characters just outside them (some
# letters, which join runs, some not): texts of CJK characters only are read as code points.
CJK_EDGES = "\u3040\u30ff\u3400\u4dbf\u4e00\u9fff\uac00\ud7af\uf900\ufaff\U00020000\U0002fa1f"
OUTSIDE = "\u303f\u3100\u4dc0\ud7b0\ud800\ufb00\U0001ffff\U0002fa20a1 "  # \ud800: a lone surrogate, as JSON may give
cjk_texts = st.text(st.sampled_from("服务好" + CJK_EDGES), max_size=80)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(cjk_texts, cjk_texts, st.text(st.sampled_from("服务" + CJK_EDGES + OUTSIDE), max_size=12)), min_size=2, max_size=12), st.data())
def test_batched_rouge_l_on_cjk_only_texts_equals_rouge_score(strings, data):
    """Texts of CJK characters only, 0-80 tokens (across the 8-, 16-, 32- and 64-bit words),
    batched with texts that hold other characters."""
    assert_batch_equals_rouge_score(strings, data)


element = st.sampled_from(["服务", "很好", "价格", "food", "good", "great food", "正面", "neg"])
implicit = st.sampled_from([None, "", IMPLICIT])
data_quads = st.lists(st.tuples(st.one_of(element, implicit), st.one_of(element, implicit), element, element), max_size=4)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(data_quads, data_quads), min_size=1, max_size=5), st.booleans())
def test_quads_as_lists_or_objects_equal_their_strings(samples, as_objects):
    def string(q):
        return " & ".join(" | ".join(e or IMPLICIT for e in quad) for quad in q)

    def data(q):
        return [dict(zip(("target", "opinion", "aspect", "polarity"), quad)) if as_objects else list(quad) for quad in q]

    pred, gold = [string(p) for p, _ in samples], [string(g) for _, g in samples]
    expected = compute(pred, gold, details=True)
    got = compute([data(p) for p, _ in samples], [data(g) for _, g in samples], details=True)
    assert got == expected


def test_data_quads_follow_tuple_len_and_a_missing_key_is_malformed():
    # tuple_len "013": a list holds target, opinion, polarity; an object gives them by name
    assert compute([[["a", "b", "pos"]]], ["a | b | pos"], tuple_len="013")["exact_f1"] == 1.0
    assert compute([[{"target": "a", "opinion": "b", "polarity": "pos"}]], ["a | b | pos"], tuple_len="013")["exact_f1"] == 1.0
    r = compute([[{"target": "a", "opinion": "b"}]], ["a | b | pos"], tuple_len="013", details=True)
    assert r["optimal_precision"] == 0.0 and r["samples"][0]["alignment"][0]["malformed"] == "has an empty element 3"


def test_diaasq_scored_from_its_own_json(tmp_path, capsys):
    """The fixture file as both sides, and a prediction file with every third quad's
    polarity changed, against the quad strings tests/diaasq.py makes."""
    source = diaasq.DATA / "diaasq_en_test.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    for dialogue in data:
        for i, t in enumerate(dialogue["triplets"]):
            if i % 3 == 0 and t[6] != -1:
                t[6] = "unknown"
    changed = tmp_path / "pred.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    gold = [diaasq.quad_string(d) for d in diaasq.dialogues("en")]
    code, out, _ = run_cli(["quad", "--format", "json", "--predictions", str(changed), "--references", str(source), "--duplicates", "set", "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    # the expected strings: tests/diaasq.py's conversion of the changed triplets
    expected_pred = [diaasq.quad_string([diaasq.quad(t) for t in d["triplets"] if t[6] != -1]) for d in data]
    assert {k: result[k] for k in KEYS} == headline(compute(expected_pred, gold, duplicates="set"))
    assert result["exact_f1"] < 1.0


def test_json_lines_bom_and_deep_nesting(tmp_path, capsys):
    pred = tmp_path / "p.jsonl"
    pred.write_bytes(b"\xef\xbb\xbf" + '[["food", null, "food#taste", "pos"]]\n[]\n'.encode())
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"quads": [{"target": "food", "opinion": "", "aspect": "food#taste", "polarity": "pos"}]}\n[["x", "y", "z", "neg"]]\n', encoding="utf-8")
    code, out, _ = run_cli(["quad", "--format", "json", "--predictions", str(pred), "--references", str(gold), "--json"], capsys)
    assert code == 0 and headline(json.loads(out)) == headline(compute(["food | NULL | food#taste | pos", ""], ["food | NULL | food#taste | pos", "x | y | z | neg"]))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for fmt in ("json", "text"):
        code, out, err = run_cli(["quad", "--format", fmt, "--predictions", str(deep), "--references", str(gold)], capsys)
        assert code == 1 and "nested too deep" in err, err


@pytest.mark.parametrize("name, preset", [("asqp", {"duplicates": "list"}), ("diaasq", {"duplicates": "set"}), ("original", {"legacy_keys": True})])
def test_configurations_are_presets(name, preset):
    import evaluate
    from conftest import SPACES_DIR

    pred, gold = [f"{CARD_PRED[0]} & {CARD_PRED[0]}"], CARD_REF
    metric = evaluate.load(str(SPACES_DIR / "quad_match"), config_name=name, keep_in_memory=True)
    assert metric.compute(predictions=pred, references=gold) == compute(pred, gold, **preset)


def test_unknown_configuration_lists_the_names():
    import evaluate
    from conftest import SPACES_DIR

    with pytest.raises(ValueError, match="'asqp', 'diaasq', 'diaasq_table', 'original'"):
        evaluate.load(str(SPACES_DIR / "quad_match"), config_name="acsa", keep_in_memory=True)


def test_quads_as_data_through_evaluate(space_metric):
    pred = [[["food", None, "food#taste", "pos"]], [{"target": "a", "opinion": "b", "aspect": "c", "polarity": "pos"}]]
    gold = ["food | NULL | food#taste | pos", [[["a", "b", "c", "pos"]], "a | q | c | neg"]]
    assert space_metric.compute(predictions=pred, references=gold) == compute(pred, gold)
    with pytest.raises(ValueError, match=r"predictions\[0\]: quad 1 holds 5"):
        space_metric.add_batch(predictions=[[["a", "b", "c", 5]]], references=["a | b | c | d"])


# ---------------------------------------------------------------------------------------
# The batch at users' sizes against the plain per-sample definition (tests/quad_naive.py)

import quad_naive  # noqa: E402

from paperscore import quad as quad_module  # noqa: E402

POLARITIES = ["pos", "neg", "neu", "正面", "负面", "中性"]
ODD = ["黑鲨4 pro", "Wi-Fi 6", "すごく良い", "좋아요", "😀好", "!!", "X70Pro+", "café", "R&D", "a|b", "NULL"]


@functools.lru_cache(maxsize=4)
def raw_corpus(size, seed, alphabet):
    """`size` samples as (gold quads, predicted quads, other references), quads as
    4-tuples, as real outputs look: 0 to 30 quads, Chinese and English targets and
    opinions, mostly short, a few over 64 tokens, implicit (NULL) ones, gold quads
    repeated; predictions that shorten, lengthen or replace elements, drop, repeat and
    add quads, or are blank; 8% of samples with 2-3 references. alphabet "wide": 3,000 Han
    characters and 500 invented words (about 80,000 distinct strings in 10,000 samples);
    "narrow": 40 and 30 (about 20,000: many quads, few strings, as issue 28's corpus)."""
    rng = random.Random(seed)
    n_han, n_words = (3000, 500) if alphabet == "wide" else (15, 8)
    han = [chr(c) for c in range(0x4E00, 0x4E00 + n_han)]
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 8))) for _ in range(n_words)]
    words += [w.capitalize() for w in words[:3]]
    aspects = [f"{a}#{b}" for a in ("food", "service", "price", "ambience", "screen") for b in ("taste", "general", "quality")] + ["服务#态度", "价格#水平", "食物#味道"]

    def text(zh):
        long = rng.random() < 0.004
        if zh:
            return "".join(rng.choices(han, k=rng.randint(65, 90) if long else rng.choice([1, 2, 2, 3, 4, 5, 6])))
        return " ".join(rng.choices(words, k=rng.randint(65, 80) if long else rng.randint(1, 4)))

    def span(zh):
        u = rng.random()
        return "NULL" if u < 0.05 else rng.choice(ODD) if u < 0.08 else text(zh)

    def changed(value, zh):
        u = rng.random()
        if u < 0.3 and len(value) > 1:
            return value[1:] if zh else value.split(" ", 1)[-1]
        if u < 0.6:
            return value + (rng.choice(han) if zh else " " + rng.choice(words))
        return span(zh)

    def predicted(gold, zh):
        out = []
        for q in gold:
            u = rng.random()
            if u < 0.1:
                continue
            q = list(q)
            if u < 0.5:
                k = rng.randrange(4)
                q[k] = changed(q[k], zh) if k < 2 else rng.choice(aspects if k == 2 else POLARITIES)
            out.append(tuple(q))
            if rng.random() < 0.05:
                out.append(tuple(q))  # a repeated quad
        out += [(span(zh), span(zh), rng.choice(aspects), rng.choice(POLARITIES)) for _ in range(rng.random() < 0.15)]
        rng.shuffle(out)
        return out

    samples = []
    for _ in range(size):
        zh = rng.random() < 0.6
        k = 0 if rng.random() < 0.05 else rng.randint(9, 30) if rng.random() < 0.02 else rng.randint(1, 8)
        gold = [(span(zh), span(zh), rng.choice(aspects), rng.choice(POLARITIES)) for _ in range(k)]
        if gold and rng.random() < 0.04:
            gold.append(gold[0])  # a repeated gold quad
        pred = [] if rng.random() < 0.05 else predicted(gold, zh)
        others = [predicted(gold, zh) for _ in range(rng.randint(1, 2))] if rng.random() < 0.08 else []
        samples.append((gold, pred, others))
    return samples


def diverse_corpus(size, seed, tuple_len="0123", data=None, alphabet="wide"):
    """raw_corpus written for tuple_len: quad strings with white space around elements
    (10% of samples: spaces, tabs, U+3000, U+2028), blank predictions as "" or "  ", malformed predictions (6% of
    samples: an element missing, one too many, an empty one, a stray separator at the
    end); `data` ("predictions" or "references") gives a third of that side's samples as
    lists and objects."""
    rng = random.Random(seed)
    names = [quad_module.ELEMENTS[int(c)] for c in tuple_len]

    def project(quads):
        return [[q[int(c)] for c in tuple_len] for q in quads]

    def string(items, padded=False):
        def pad():  # white space that str.strip removes, before or after some elements
            return rng.choice(["", "", " ", "\t", "\u3000", " \u2028"]) if padded else ""

        return " & ".join(" | ".join(pad() + e + pad() for e in q) for q in items)

    def prediction(quads, as_data):
        items = project(quads)
        malformed = rng.random() < 0.06 and items
        if malformed:
            k, u = rng.randrange(len(items)), rng.random()
            items[k] = items[k][:-1] if u < 0.3 else items[k] + ["extra"] if u < 0.6 else items[k][:-1] + [""]
        if as_data:
            return [dict(zip(names, q)) if len(q) == len(names) and rng.random() < 0.5 else q for q in items]
        if not items:
            return rng.choice(["", "  "])
        return string(items, rng.random() < 0.1) + (" & " if malformed and rng.random() < 0.2 else "")

    predictions, references = [], []
    for gold, pred, others in raw_corpus(size, seed, alphabet):
        predictions.append(prediction(pred, data == "predictions" and rng.random() < 1 / 3))
        as_data = data == "references" and rng.random() < 1 / 3
        options = [project(q) if as_data else string(project(q)) for q in [gold, *others]]
        references.append(options if others else options[0])
    return predictions, references


def batch_rows(predictions, references, **options):
    """Per sample, the STATS row of the reference the batch chose, and that reference's number."""
    options = {"weights": (1, 1, 1, 1), "tuple_len": "0123", "sep_token1": " & ", "sep_token2": " | ", "similarity": "rouge_l", "duplicates": "multiset", **options}
    pairing, rows, chosen = quad_module._score(predictions, references, **options)
    return rows[chosen], np.zeros(len(chosen), np.int64) if pairing is None else pairing.number[chosen]  # None: exact_only's path over quad texts, one reference each


EXACT_COLUMNS = [quad_module.STATS.index(k) for k in ("exact_hits", "exact_n", "exact_m", "repeated_hits")]


def assert_rows_equal_oracle(predictions, references, full, numbers, by_rule, subset, **options):
    """The batch against the plain definition, sample by sample. `full`, `numbers`: the
    full run's rows and chosen references; `by_rule`: duplicates rule -> rows of that rule.
    Every sample's n, m and exact counts under each rule equal the oracle's; on `subset`
    also its matched total, score and chosen reference (the soft match is the oracle's
    slow part). Outside the subset, a sample with several references is compared on the
    reference the batch chose (that choice is checked on the subset)."""
    soft = set(subset)
    for i, (p, r) in enumerate(zip(predictions, references)):
        if i not in soft:
            r = quad_naive.references_of(r)[numbers[i]]
            r = r if isinstance(r, str) else [r]  # alone, as one reference
        oracle = quad_naive.sample_statistics(p, r, soft=i in soft, **options)
        assert full[i, 1:3].tolist() == [oracle["n"], oracle["m"]], (i, p, r)
        for rule, rows in by_rule.items():
            assert rows[i, EXACT_COLUMNS].tolist() == list(oracle["exact"][rule]), (i, rule, p, r)
        if i in soft:
            assert oracle["reference"] == numbers[i], (i, p, r)
            assert full[i, 0] == pytest.approx(oracle["matched"], abs=1e-12) and full[i, quad_module.STATS.index("score")] == pytest.approx(oracle["score"], abs=1e-12), (i, p, r)


DIFFERENTIAL = [  # (tuple_len, weights, similarity, data side, alphabet): each a 10,000-sample batch
    ("0123", (1, 1, 1, 1), "rouge_l", None, "narrow"),
    ("0123", (2, 0.5, 0, 1), "rouge_l", "predictions", "wide"),
    ("013", (1, 3, 1, 1), "exact", "references", "wide"),
]


@pytest.mark.parametrize("tuple_len, weights, similarity, data, alphabet", DIFFERENTIAL)
def test_batch_of_ten_thousand_equals_the_per_sample_definition(tuple_len, weights, similarity, data, alphabet):
    """Issue 28: the batched exact-match codes (sample x quad key) overflowed int64 once a
    batch held enough distinct quads (a crash from 2,000 Chinese samples, and "list" counts
    silently wrong). 10,000 diverse samples, scored in full and with exact_only under each
    duplicates rule: every sample's counts, and on a subset its matched total, score and
    chosen reference, equal the plain definition; exact_only chooses the same references;
    the corpus figures equal the oracle's rows summed."""
    predictions, references = diverse_corpus(10_000, 1, tuple_len, data, alphabet)
    options = dict(tuple_len=tuple_len, weights=weights, similarity=similarity)
    subset = random.Random(0).sample(range(len(predictions)), 200)
    full, numbers = batch_rows(predictions, references, **options)
    exact, chosen = batch_rows(predictions, references, exact_only=True, **options)  # the soft match only to choose
    assert np.array_equal(chosen, numbers)
    assert np.array_equal(exact[:, [1, 2, *EXACT_COLUMNS]], full[:, [1, 2, *EXACT_COLUMNS]])
    assert_rows_equal_oracle(predictions, references, full, numbers, {"multiset": full}, subset, **options)
    single = [quad_naive.references_of(r)[0] for r in references]  # where all are strings, exact_only reads quad texts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the list rule's warning, tested on its own
        by_rule = {rule: batch_rows(predictions, single, duplicates=rule, exact_only=True, **options)[0] for rule in quad_module.DUPLICATES}
    assert_rows_equal_oracle(predictions, single, by_rule["set"], np.zeros(len(single), np.int64), by_rule, [], **options)
    oracle = [quad_naive.sample_statistics(predictions[i], references[i], **options) for i in subset]
    for rule in quad_module.DUPLICATES:  # every returned figure: the oracle's rows summed
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = compute([predictions[i] for i in subset], [references[i] for i in subset], duplicates=rule, implicit_split=True, **options)
        assert got == pytest.approx(quad_naive.figures(oracle, rule, implicit_split=True), abs=1e-12)


@pytest.mark.parametrize("tuple_len, rule", [(code, quad_module.DUPLICATES[k % 3]) for k, code in enumerate([c for c in TUPLE_LENS if c not in ("0123", "013")] + ["12", "3210"])])
def test_every_tuple_len_at_ten_thousand_samples(tuple_len, rule):
    """The other tuple_len codes (fewer columns, other codes): exact counts of 10,000
    samples, exact_only, the duplicates rules in turn."""
    predictions, references = diverse_corpus(10_000, 1, tuple_len, alphabet="narrow")
    references = [quad_naive.references_of(r)[0] for r in references]  # one each: exact_only reads quad texts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows, numbers = batch_rows(predictions, references, tuple_len=tuple_len, similarity="exact", duplicates=rule, exact_only=True)
    assert_rows_equal_oracle(predictions, references, rows, numbers, {rule: rows}, [], tuple_len=tuple_len, similarity="exact")


def test_a_sample_scored_alone_equals_its_row_in_the_batch():
    """In full, and with exact_only over quad strings (one reference each, so that the
    path over quad texts runs), under the list rule."""
    predictions, references = diverse_corpus(10_000, 1, alphabet="narrow")
    single = [r if isinstance(r, str) else r[0] for r in references]
    rows, numbers = batch_rows(predictions, references)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exact, _ = batch_rows(predictions, single, duplicates="list", exact_only=True)
        for i in random.Random(1).sample(range(len(predictions)), 150):
            alone, number = batch_rows([predictions[i]], [references[i]])
            assert alone[0].tolist() == rows[i].tolist() and number[0] == numbers[i], i
            assert batch_rows([predictions[i]], [single[i]], duplicates="list", exact_only=True)[0][0].tolist() == exact[i].tolist(), i


def test_quad_codes_stay_within_int64():
    """Integer widths. A quad's code is its row of element ids read as a base-`size`
    number: 4 columns of ids below 2^20 need 80 bits, so the codes are renumbered before
    they pass 2^62 (equal rows keep equal codes, order kept). The pairing then numbers the
    quads densely, so that (candidate x quad key) stays below candidates x quads: far
    inside int64 for any corpus that fits in memory (issue 28 overflowed here)."""
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 2**20, size=(40_000, 4))
    ids[20_000:] = ids[rng.integers(0, 20_000, 20_000)]  # repeats
    codes = quad_module._row_codes(ids, 2**20)
    assert codes.dtype == np.int64 and codes.min() >= 0
    assert np.array_equal(np.unique(ids, axis=0, return_inverse=True)[1].ravel(), np.unique(codes, return_inverse=True)[1].ravel())
    predictions, references = diverse_corpus(10_000, 1, alphabet="narrow")
    pairing = quad_module._Pairing(predictions, references, "0123", " & ", " | ")
    n_quads = len(pairing.pred.key) + len(pairing.ref.key)
    assert len(pairing.strings) ** 4 * len(pairing.n) > 2**63  # without dense keys, this corpus overflows
    assert max(pairing.pred.key.max(), pairing.ref.key.max()) < n_quads


def issue_28_corpus(size):
    """The reproducer of issue 28, as filed: short Chinese targets and opinions from 26
    characters, 1-8 quads a sample, most predicted quads close to the gold ones."""
    rng = random.Random(3)
    chars = "服务态度环境价格味道菜品位置很好不错一般太差干净贵便宜"

    def s():
        return "".join(rng.choice(chars) for _ in range(rng.randint(1, 4)))

    predictions, references = [], []
    for _ in range(size):
        g = [[s(), s(), "a", "b"] for _ in range(rng.randint(1, 8))]
        p = [[x[0] if rng.random() < 0.7 else s(), x[1], x[2], x[3]] for x in g if rng.random() < 0.9] or [g[0]]
        predictions.append(" & ".join(" | ".join(x) for x in p))
        references.append(" & ".join(" | ".join(x) for x in g))
    return predictions, references


def oracle_exact_figures(predictions, references, duplicates="multiset"):
    rows = [quad_naive.sample_statistics(p, r, soft=False) for p, r in zip(predictions, references)]
    return {k: v for k, v in quad_naive.figures(rows, duplicates).items() if k.startswith("exact")}


def test_issue_28_reproducer_through_evaluate(space_metric):
    predictions, references = issue_28_corpus(3_000)
    got = space_metric.compute(predictions=predictions, references=references)
    assert got == compute(predictions, references)
    assert {k: got[k] for k in oracle_exact_figures([], [])} == pytest.approx(oracle_exact_figures(predictions, references), abs=1e-12)


def test_issue_28_reproducer_through_the_command_line(tmp_path, capsys):
    predictions, references = issue_28_corpus(3_000)
    p, r = write(tmp_path / "p.txt", predictions), write(tmp_path / "r.txt", references)
    code, out, err = run_cli(["quad", "--predictions", p, "--references", r, "--json"], capsys)
    assert code == 0, err
    got = json.loads(out)
    assert got == compute(predictions, references, return_signature=True)
    assert {k: got[k] for k in oracle_exact_figures([], [])} == pytest.approx(oracle_exact_figures(predictions, references), abs=1e-12)


def test_json_lines_split_on_line_feeds_only(tmp_path, capsys):
    """U+2028, U+0085 (and U+2029, form feed) are valid inside a JSON string; str.splitlines
    broke such a line in two (issue 28). Blank lines (JSON white space) are still skipped."""
    pred = [[["服务\u2028态度", "很好", "服务#态度", "正面"]], [["food\x85", "good\u2029", "f\x0ct", "pos"]]]
    gold = [[["服务\u2028态度", "好", "服务#态度", "正面"]], [["food\x85", "good\u2029", "f\x0ct", "pos"]]]
    p, r = tmp_path / "p.jsonl", tmp_path / "r.jsonl"
    p.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in pred) + "\n \r\n", encoding="utf-8")
    r.write_text("\r\n".join(json.dumps(x, ensure_ascii=False) for x in gold) + "\r\n", encoding="utf-8")
    code, out, err = run_cli(["quad", "--format", "json", "--predictions", str(p), "--references", str(r), "--json"], capsys)
    assert code == 0, err
    # sample 1: opinion 很好/好 2/3, the rest equal: degree (1 + 2/3 + 1 + 1)/4 = 11/12; sample 2 exact
    assert json.loads(out)["optimal_f1"] == pytest.approx((11 / 12 + 1) / 2, abs=1e-12)
    assert json.loads(out)["exact_f1"] == 0.5


def test_demo_refuses_deeply_nested_weights_and_keeps_serving():
    """`"[" * 5000` in the weights box was an uncaught RecursionError (issue 28)."""
    import gradio as gr

    app = load_app()
    for text in ("[" * 5000, "[" * 5000 + "]" * 5000, "1, 1, 1, [1]"):
        with pytest.raises(gr.Error, match="weights: .* is not 4 comma-separated numbers"):
            app.score(**{**app.EXAMPLE, "weights": text})
    with pytest.raises(gr.Error, match="sum to inf"):
        app.score(**{**app.EXAMPLE, "weights": "1e308, 1e308, 1e308, 1e308"})
    result, _ = app.score(**{**app.EXAMPLE, "weights": "1, 1, 0, 1", "legacy_keys": True})
    assert "f1 of optimal match of weight (1, 1, 0, 1)" in result


def load_app():
    import importlib.util

    from conftest import SPACES_DIR

    spec = importlib.util.spec_from_file_location("app_quad_match", SPACES_DIR / "quad_match" / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SPACES = ["", "", " ", "\t", "\u3000", "\x85", " \u2028"]
core_quads = st.lists(st.lists(st.sampled_from(["a", "b", "服务", "a b", "NULL", "a|b", "a&b"]), min_size=4, max_size=4), max_size=3)


@st.composite
def spaced_sample(draw):
    """The same quads written twice with white space drawn around each element (and a
    stray piece now and then in the prediction)."""
    quads = draw(core_quads)

    def written():
        return " & ".join(" | ".join(draw(st.sampled_from(SPACES)) + e + draw(st.sampled_from(SPACES)) for e in q) for q in quads)

    prediction, reference = written(), written()
    return prediction + draw(st.sampled_from(["", "", " & ", " | x", " & a | b", "\t"])), reference


@settings(max_examples=150, deadline=None)
@given(st.lists(spaced_sample(), min_size=1, max_size=4))
def test_exact_only_reads_quad_strings_as_split_and_strip_do(samples):
    """exact_only reads quad strings on code points (white space stripped where it touches
    a separator or an end, without splitting elements apart): small corpora, where one
    kind of white space alone decides whether anything is stripped, against the oracle."""
    predictions, references = [p for p, _ in samples], [r for _, r in samples]
    rows = [quad_naive.sample_statistics(p, r, soft=False) for p, r in samples]
    for rule in quad_module.DUPLICATES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = compute(predictions, references, duplicates=rule, exact_only=True)
        expected = {k: v for k, v in quad_naive.figures(rows, rule).items() if k in got}
        assert got == pytest.approx(expected, abs=1e-12) and len(got) == len(expected)


def test_exact_only_runs_no_soft_match_and_gives_the_full_runs_exact_figures(monkeypatch, tmp_path, capsys):
    """Issue 26: exact figures alone must not pay for the soft match. With the pairing,
    ROUGE-L and the Hungarian algorithm made to fail, exact_only still answers, with the
    figures of the full run (bit for bit), except where a sample has several references:
    choosing among them is the soft match's job, so it runs for those samples only."""
    predictions, references = diverse_corpus(10_000, 1, alphabet="narrow")
    predictions, references = predictions[:3_000], references[:3_000]
    single = [r if isinstance(r, str) else r[0] for r in references]
    full = compute(predictions, single, duplicates="set")

    def fail(*args, **kwargs):
        raise AssertionError("the soft match ran")

    with monkeypatch.context() as patch:
        for name in ("_Pairing", "rouge_l_pairs", "best_assignment"):
            patch.setattr(quad_module, name, fail)
        got = compute(predictions, single, duplicates="set", exact_only=True)
    assert got == {k: full[k] for k in quad_module.EXACT_KEYS}
    several = [i for i, r in enumerate(references) if not isinstance(r, str)]
    expected = {k: v for k, v in compute(predictions, references).items() if k.startswith("exact")}
    calls = []
    monkeypatch.setattr(quad_module, "best_assignment", lambda block: calls.append(block.shape) or best_assignment(block))
    assert compute(predictions, references, exact_only=True) == expected
    assert 0 < len(calls) <= sum(len(quad_naive.references_of(references[i])) for i in several)
    p, r = write(tmp_path / "p.txt", predictions[:50]), write(tmp_path / "r.txt", single[:50])
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", r, "--exact-only", "--json"], capsys)
    assert code == 0 and json.loads(out) == compute(predictions[:50], single[:50], exact_only=True, return_signature=True)


def test_exact_only_refuses_what_needs_the_soft_match():
    for option in ("legacy_keys", "details"):
        with pytest.raises(ValueError, match=f"{option}: shows the soft match, which exact_only=True does not compute"):
            compute(CARD_PRED, CARD_REF, exact_only=True, **{option: True})
    with pytest.raises(ValueError, match="exact_only: expected True or False, got str 'yes'"):
        compute(CARD_PRED, CARD_REF, exact_only="yes")


def test_implicit_split_equals_acos_measure_quad_imp():
    """ACOS's figures by implicitness (NUSTM/ACOS @ 45d179a, Extract-Classify-ACOS/
    eval_metrics.py: getTextType and measureQuad_imp, run from a scratch copy on this corpus,
    quads [category, sentiment, aspect span, opinion span], "-1,-1" implicit). It printed:
    EA&EO tp 2 fp 2 fn 3 (P .5, R .4); IA&EO tp 3 fp 2 fn 0 (P .6, R 1); EA&IO tp 1 fp 0 fn 0;
    IA&IO tp 0 fp 1 fn 2; all tp 4 fp 3 fn 3. A sentence counts, whole, in every kind its
    gold quads include: s1 (EA&EO, IA&EO), s2 (EA&IO), s3 (IA&IO, EA&EO), s4 (EA&EO, not
    predicted), s5 (IA&EO)."""

    def quad(category, sentiment, aspect, opinion):
        return " | ".join(["NULL" if aspect == "-1,-1" else aspect, "NULL" if opinion == "-1,-1" else opinion, category, sentiment])

    gold = [
        [("F#Q", "pos", "1,2", "3,4"), ("S#G", "neg", "-1,-1", "5,6")],
        [("A#G", "pos", "0,1", "-1,-1")],
        [("R#G", "neg", "-1,-1", "-1,-1"), ("F#Q", "pos", "2,3", "4,5")],
        [("F#S", "pos", "1,3", "5,6")],
        [("S#G", "pos", "-1,-1", "2,3")],
    ]
    pred = [
        [("F#Q", "pos", "1,2", "3,4"), ("S#G", "neg", "-1,-1", "5,6"), ("F#P", "pos", "1,2", "-1,-1")],
        [("A#G", "pos", "0,1", "-1,-1")],
        [("R#G", "pos", "-1,-1", "-1,-1")],
        [],
        [("S#G", "pos", "-1,-1", "2,3"), ("S#P", "neg", "4,5", "6,7")],
    ]
    predictions, references = [" & ".join(quad(*q) for q in s) for s in pred], [" & ".join(quad(*q) for q in s) for s in gold]
    expected = {"ea_eo": (2, 2, 3), "ia_eo": (3, 2, 0), "ea_io": (1, 0, 0), "ia_io": (0, 1, 2)}  # tp, fp, fn
    for exact_only in (False, True):
        r = compute(predictions, references, implicit_split=True, exact_only=exact_only, duplicates="set")
        close(r, {"exact_precision": 4 / 7, "exact_recall": 4 / 7})
        for kind, (tp, fp, fn) in expected.items():
            p, rec = tp / (tp + fp) if tp + fp else 0, tp / (tp + fn) if tp + fn else 0
            close(r, {f"exact_precision_{kind}": p, f"exact_recall_{kind}": rec, f"exact_f1_{kind}": 2 * p * rec / (p + rec) if p + rec else 0})
    with pytest.raises(ValueError, match="implicit_split: tuple_len '023' must hold the target \\(0\\) and the opinion \\(1\\)"):
        compute(predictions, references, implicit_split=True, tuple_len="023")


# ---------------------------------------------------------------------------------------
# parse=: model text read by a named parser (paperscore.parse), at every entry point

# MvP's output (ZubinGou/multi-view-prompting's element markers). Sample 1: the second
# piece lacks [C] and [S], which MvP fills with "null" (reported); sample 2 has no marker
# at all, so every element is "null" (reported); its reference's aspect "it" is implicit,
# "null" too.
MVP_PRED = ["[A] pizza [O] delicious [C] food quality [S] great [SSEP] [A] service [O] slow", "garbage"]
MVP_REF = ["[A] pizza [O] delicious [C] food quality [S] great [SSEP] [A] staff [O] rude [C] service general [S] bad", "[A] it [O] nice [C] ambience general [S] great"]
# Quads: sample 1 predicts (pizza, delicious, food quality, great) and (service, slow, null,
# null) against (pizza, ...) and (staff, rude, service general, bad); sample 2 predicts
# (null, null, null, null) against (null, nice, ambience general, great).
# Soft: pizza = pizza, degree 1; service/staff share nothing, degree 0; sample 2: only
# the targets agree, degree 1/4. Matched 1.25 of 3 predicted and 3 gold quads.
# Exact: 1 hit of 3 and 3. optimal_score: mean of 1/2 and 0.25/1.
MVP_EXPECTED = {
    "optimal_precision": 1.25 / 3, "optimal_recall": 1.25 / 3, "optimal_f1": 1.25 / 3, "optimal_score": (1 / 2 + 0.25) / 2,
    "exact_precision": 1 / 3, "exact_recall": 1 / 3, "exact_f1": 1 / 3, "parse_failures": 2, "parse_failure_examples": [0, 1],
}  # fmt: skip


def test_parse_mvp_model_text_hand_derivation():
    result = compute(MVP_PRED, MVP_REF, parse="mvp", return_signature=True)
    signature = result.pop("signature")
    assert result == pytest.approx(MVP_EXPECTED, abs=1e-12)
    assert signature.startswith("quad_match|parse:mvp@1|tuple_len:0123|")


def test_parse_in_the_signature_and_references_as_quads():
    # ABSA-QUAD's ASTE template: "It is {great|bad|ok} because {aspect} is {opinion}",
    # read as (aspect, opinion, positive/negative/neutral), tuple_len "013".
    texts = ["It is great because pizza is delicious [SSEP] It is bad because staff is rude", "It is ok because"]
    gold = [[["pizza", "delicious", "positive"]], [["view", "fine", "neutral"]]]
    result = compute(texts, gold, parse="asqp_paraphrase_aste", parse_references=False, exact_only=True, return_signature=True)
    # sample 1: 1 hit, 2 predicted, 1 gold; sample 2: one empty triplet (unread), 1 gold
    assert result["exact_precision"] == pytest.approx(1 / 3) and result["exact_recall"] == pytest.approx(1 / 2)
    assert (result["parse_failures"], result["parse_failure_examples"]) == (1, [1])
    assert result["signature"].startswith("quad_match|parse:asqp_paraphrase_aste@1|parse_references:no|tuple_len:013|")
    assert "parse" not in compute(["a | b | c | d"], ["a | b | c | d"], return_signature=True)["signature"]
    assert "parse_failures" not in compute(["a | b | c | d"], ["a | b | c | d"])


def test_parse_refuses_what_would_silently_score_zero():
    with pytest.raises(ValueError, match=r"references\[0\]: is not model text .* parse_references=False"):
        compute(["It is great because pizza is delicious"], [[["pizza", "delicious", "positive"]]], parse="asqp_paraphrase_aste")
    with pytest.raises(ValueError, match="tuple_len: '0123', but the parser asqp_paraphrase_aste@1 writes '013' tuples"):
        compute(["x"], ["x"], parse="asqp_paraphrase_aste", tuple_len="0123")
    with pytest.raises(ValueError, match="parse: unknown parser 'csc_reply' for quad_match"):
        compute(["x"], ["x"], parse="csc_reply")
    # a gold text the parser cannot read is a broken reference: an error, never a quad matching nothing
    with pytest.raises(ValueError, match=r"references\[1\]: mvp@1 cannot read it: piece 1 '\[A\] it' lacks \[C\] \[S\] \[O\]"):
        compute(MVP_PRED, [MVP_REF[0], "[A] it"], parse="mvp")
    with pytest.raises(ValueError, match=r"references\[0\]\[1\]: mvp@1 cannot read it"):
        compute(MVP_PRED[:1], [[MVP_REF[0], "oops"]], parse="mvp")
    for option in (dict(strict=True), dict(parse_references=False)):
        with pytest.raises(ValueError, match=f"{next(iter(option))}: applies to model texts read by a parser; pass parse=NAME"):
            compute(["a | b | c | d"], ["a | b | c | d"], **option)


def test_parse_strict_makes_a_failure_an_error():
    with pytest.raises(ValueError, match=r"predictions\[0\]: mvp@1 cannot read it: piece 2 '\[A\] service \[O\] slow' lacks \[C\] \[S\]"):
        compute(MVP_PRED, MVP_REF, parse="mvp", strict=True)
    assert compute(MVP_PRED[:1] * 0 + [MVP_REF[0]], MVP_REF[:1], parse="mvp", strict=True)["exact_f1"] == 1.0


def test_parse_several_references_each_read():
    # sample 1's second reference equals its prediction: exact F1 1, chosen over the first
    result = compute(["[A] it [O] nice [C] ambience general [S] great"], [["[A] x [O] y [C] z [S] bad", MVP_REF[1]]], parse="mvp", details=True)
    assert result["exact_f1"] == 1.0 and result["samples"][0]["reference"] == 1


def mvp_corpus(n, seed):
    """Model texts as an MvP model writes them, mutated and broken, with gold texts."""
    rng = random.Random(seed)
    words = ["pizza", "service", "staff", "服务", "价格", "it", "null", "food quality", "great", "bad", "ok", "很好", "slow", ""]

    def render(k):
        pieces = []
        for _ in range(k):
            markers = ["[A]", "[O]", "[C]", "[S]"]
            rng.shuffle(markers)
            pieces.append(" ".join(f"{m} {rng.choice(words)}" for m in markers if rng.random() < 0.9))
        return " [SSEP] ".join(pieces)

    predictions, references = [], []
    for _ in range(n):
        text = render(rng.randint(0, 3))
        roll = rng.random()
        if roll < 0.2:
            text = text[: rng.randint(0, len(text))]
        elif roll < 0.3:
            text = rng.choice(["", "garbage", "[SSEP]", "[A]", " [O] [C] ", text * 3])
        predictions.append(text)
        gold = " [SSEP] ".join(f"[A] {rng.choice(words[:8])} [O] {rng.choice(words[8:13])} [C] {rng.choice(words[:-1])} [S] {rng.choice(words[8:11])}" for _ in range(rng.randint(1, 3)))
        references.append(gold)
    return predictions, references


def naive_parse(texts, read):
    """The per-text oracle: each text read alone, the failing indices listed."""
    structures, failed = [], []
    for index, text in enumerate(texts):
        quads, problems = read(text)
        structures.append(quads)
        if problems:
            failed.append(index)
    return structures, failed


def test_parse_equals_each_text_read_alone_at_users_sizes():
    from paperscore.parse import read_mvp

    predictions, references = mvp_corpus(10_000, 4)
    result = compute(predictions, references, parse="mvp", exact_only=True)
    parsed, failed = naive_parse(predictions, read_mvp)
    gold, gold_failed = naive_parse(references, read_mvp)
    assert gold_failed == [] and len(failed) > 1000
    expected = compute(parsed, gold, exact_only=True)
    assert result == pytest.approx({**expected, "parse_failures": len(failed), "parse_failure_examples": failed[:5]}, abs=1e-12)
    # each sample alone reports its own failure
    for index in range(40):
        alone = compute(predictions[index : index + 1], references[index : index + 1], parse="mvp", exact_only=True)
        assert alone["parse_failures"] == (index in failed)
        assert alone["exact_f1"] == compute(parsed[index : index + 1], gold[index : index + 1], exact_only=True)["exact_f1"]


def test_parse_through_the_space_compute_and_add_batch(space_metric):
    result = space_metric.compute(predictions=MVP_PRED, references=MVP_REF, parse="mvp", return_signature=True)
    assert result.pop("signature").startswith("quad_match|parse:mvp@1|")
    assert result == pytest.approx(MVP_EXPECTED, abs=1e-12)
    for prediction, reference in zip(MVP_PRED, MVP_REF):
        space_metric.add_batch(predictions=[prediction], references=[reference])
    assert space_metric.compute(parse="mvp") == pytest.approx(MVP_EXPECTED, abs=1e-12)
    with pytest.raises(ValueError, match=r"predictions\[0\]: mvp@1 cannot read it"):
        space_metric.compute(predictions=MVP_PRED, references=MVP_REF, parse="mvp", strict=True)


def test_parse_on_the_command_line(tmp_path, capsys):
    p, r = write(tmp_path / "p.txt", MVP_PRED), write(tmp_path / "r.txt", MVP_REF)
    code, out, _ = run_cli(["quad", "--predictions", p, "--references", r, "--parse", "mvp", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and result.pop("signature").startswith("quad_match|parse:mvp@1|")
    assert result == pytest.approx(MVP_EXPECTED, abs=1e-12)
    # JSON strings: a reply over several lines, and references as quads in the parser's spelling
    reply = '```json\n[{"target": "pizza", "opinion": "delicious", "aspect": "food quality", "polarity": "positive"}]\n```'
    pj, rj = tmp_path / "p.json", tmp_path / "r.json"
    pj.write_text(json.dumps([reply]), encoding="utf-8")
    rj.write_text(json.dumps([[["pizza", "delicious", "food quality", "positive"]]]), encoding="utf-8")
    code, out, _ = run_cli(["quad", "--format", "json", "--predictions", str(pj), "--references", str(rj), "--parse", "llm_json", "--references-as-quads", "--json"], capsys)
    assert code == 0 and json.loads(out)["exact_f1"] == 1.0 and json.loads(out)["parse_failures"] == 0
    code, _, err = run_cli(["quad", "--predictions", p, "--references", r, "--parse", "mvp", "--strict"], capsys)
    assert code != 0 and "predictions[0]: mvp@1 cannot read it" in err
    code, _, err = run_cli(["quad", "--predictions", p, "--references", r, "--strict"], capsys)
    assert code != 0 and "--strict: applies with --parse NAME only" in err


def test_demo_scores_model_text_with_a_chosen_parser():
    import gradio as gr

    app = load_app()
    result, table = app.score(**{**app.EXAMPLE, **app.MVP_EXAMPLE})
    assert result.pop("signature").startswith("quad_match|parse:mvp@1|")
    assert result == pytest.approx(MVP_EXPECTED, abs=1e-12)
    assert table["data"][1][1] == "service | slow | null | null"
    with pytest.raises(gr.Error, match="parse: 'nope' is not one of"):
        app.score(**{**app.EXAMPLE, "parse": "nope"})
    many = "; ".join(["(a, b, positive)"] * 60)  # 60 quads once parsed, though no " & " in sight
    with pytest.raises(gr.Error, match="predictions line 1: 60 quads; this demo takes at most 50"):
        app.score(**{**app.EXAMPLE, "predictions": many, "references": "(a, b, positive)", "parse": "gas_aste"})


# ---------------------------------------------------------------------------------------
# convention="diaasq": DiaASQ's own table, against its run_eval.py run in place
# (tests/diaasq_reference.py wrote its figures; see tests/data/quad_match/README.md)

from paperscore.quad import DIAASQ_ROWS, diaasq_counts  # noqa: E402

DIAASQ_FIGURES = json.loads((diaasq.DATA / "diaasq_reference.json").read_text(encoding="utf-8"))


def diaasq_table(result):
    """A result's rows as run_eval.py's [P, R, F1] list, None for a row not scored."""
    return [[result[f"{row}_{f}"] for f in ("precision", "recall", "f1")] if f"{row}_f1" in result else None for row in DIAASQ_ROWS]


@pytest.mark.parametrize("seed, language", [(0, "zh"), (1, "en")])
def test_diaasq_table_equals_run_eval_on_the_released_test_sets(seed, language):
    import diaasq_reference

    gold = diaasq.released(language)
    for name, predictions in diaasq_reference.released_predictions(gold, seed).items():
        expected = DIAASQ_FIGURES["released"][language][name]
        assert diaasq_table(compute(predictions, gold, convention="diaasq")) == expected, name
    # what issue 23 measured: the explicit gold quads alone are DiaASQ's perfect score
    assert DIAASQ_FIGURES["released"][language]["explicit"][DIAASQ_ROWS.index("micro")] == [1.0, 1.0, 1.0]
    assert DIAASQ_FIGURES["released"][language]["nudged"][DIAASQ_ROWS.index("micro")][2] < 0.6


def test_diaasq_table_equals_run_eval_on_random_dialogues():
    """4,000 random dialogues (tests/diaasq.py: replies of any shape, implicit elements,
    lone -1s, repeats, near misses, predictions in another order) in 249 corpora; a corpus
    without element and pair lists has only the seven quad rows, run_eval.py's there."""
    corpora = diaasq.random_corpora(DIAASQ_FIGURES["random"]["seed"], DIAASQ_FIGURES["random"]["dialogues"])
    assert len(corpora) == len(DIAASQ_FIGURES["random"]["corpora"]) == 249
    without = 0
    for (gold, predictions), expected in zip(corpora, DIAASQ_FIGURES["random"]["corpora"]):
        table = diaasq_table(compute(predictions, gold, convention="diaasq"))
        if expected["lists"]:
            assert table == expected["scores"]
        else:
            without += 1
            assert table[:6] == [None] * 6 and table[6:] == expected["scores"][6:]
    assert 20 < without < 100


def test_diaasq_each_dialogue_counts_as_scored_alone():
    gold, predictions = diaasq.random_corpora(7, 30)[0]
    result = compute(predictions, gold, convention="diaasq")
    by_id = {p["doc_id"]: p for p in predictions}
    sums = sum(diaasq_counts(by_id[g["doc_id"]], g, DIAASQ_ROWS) for g in gold)
    alone = [compute([by_id[g["doc_id"]]], [g], convention="diaasq") for g in gold]
    for j, row in enumerate(DIAASQ_ROWS):
        hits, predicted, gold_count = sums[j]
        assert result[f"{row}_precision"] == (hits / predicted if predicted else 0.0)
        assert result[f"{row}_recall"] == (hits / gold_count if gold_count else 0.0)
    # a dialogue scored alone: its recall is its own count's
    for g, r in zip(gold, alone):
        counts = diaasq_counts(by_id[g["doc_id"]], g, DIAASQ_ROWS)
        assert r["micro_recall"] == (counts[6][0] / counts[6][2] if counts[6][2] else 0.0)


def _dialogue(triplets, replies=(-1, 0, 1, 0), **lists):
    """Four utterances of three tokens each (tokens 0-2, 3-5, 6-8, 9-11)."""
    return {"doc_id": "d", "sentences": ["a b c"] * 4, "replies": list(replies), "triplets": triplets, **lists}


def test_diaasq_hand_cases():
    full = [0, 1, 3, 5, 6, 7, "pos", "t", "a", "o"]
    implicit_aspect = [0, 1, -1, -1, 9, 11, "neg", "t", "", "o"]
    # issue 23: an implicit triplet is no quad of DiaASQ's; neu and doubt are both "other"
    r = compute([_dialogue([full])], [_dialogue([full, implicit_aspect])], convention="diaasq")
    assert (r["micro_precision"], r["micro_recall"]) == (1.0, 1.0)
    r = compute([_dialogue([full[:6] + ["doubt"] + full[7:]])], [_dialogue([full[:6] + ["neu"] + full[7:]])], convention="diaasq")
    assert r["micro_f1"] == 1.0
    # spans, not texts: the same text one token over is a miss; iden ignores the polarity
    r = compute([_dialogue([[1, 2] + full[2:]])], [_dialogue([full])], convention="diaasq")
    assert r["micro_f1"] == 0.0 and r["iden_f1"] == 0.0
    r = compute([_dialogue([full[:6] + ["neg"] + full[7:]])], [_dialogue([full])], convention="diaasq")
    assert (r["micro_f1"], r["iden_f1"]) == (0.0, 1.0)
    # replies (-1, 0, 1, 0): get_token_thread's threads are [0], [1, 2], [3]. Distances:
    # 0-1: 0 + 0 + 1 = 1; 0-2: 0 + 1 + 1 = 2; 1-2: |0 - 1| = 1; 2-3: 1 + 0 + 2 = 3.
    cases = {
        "intra": [0, 1, 1, 2, 2, 3],  # all in utterance 0
        "cross_1": [0, 1, 3, 4, 4, 5],  # utterances 0, 1, 1
        "cross_2": [0, 1, 3, 4, 6, 7],  # 0, 1, 2: max(1, 1, 2)
        "cross_3": [3, 4, 6, 7, 9, 10],  # 1, 2, 3: max(1, 3, 3 (1-3: 0 + 0 + 2))
    }
    for row, spans in cases.items():
        t = spans + ["pos", "t", "a", "o"]
        r = compute([_dialogue([t])], [_dialogue([t])], convention="diaasq")
        scored = {name for name in ("intra", "inter", "cross_1", "cross_2", "cross_3") if r[f"{name}_recall"] == 1.0}
        assert scored == ({row} if row == "intra" else {"inter", row}), row
    # duplicates collapse (sets); the element and pair rows read the lists
    gold = _dialogue([full, full], targets=[[0, 1, "t"]], aspects=[[3, 5, "a"]], opinions=[[6, 7, "o", "pos"]])
    pred = _dialogue([full], targets=[[0, 1], [0, 1], [4, 5]], aspects=[], opinions=[[6, 7]], ta=[[0, 1, 3, 5]], to=[[0, 1, 6, 8]], ao=[[3, 5, 6, 7], [3, 5, 6, 7, "x"]])
    r = compute([pred], [gold], convention="diaasq")
    assert (r["micro_precision"], r["micro_recall"]) == (1.0, 1.0)
    assert (r["target_precision"], r["target_recall"]) == (0.5, 1.0)
    assert (r["aspect_precision"], r["aspect_recall"], r["aspect_f1"]) == (0.0, 0.0, 0.0)
    assert (r["ta_f1"], r["to_f1"], r["ao_f1"]) == (1.0, 0.0, 1.0)


def test_diaasq_refuses_what_its_code_cannot_read():
    full = [0, 1, 3, 5, 6, 7, "pos", "t", "a", "o"]
    gold = _dialogue([full])
    cases = [
        ([{"triplets": [full]}], [gold], r"predictions\[0\]: is \{'triplets'.*not a DiaASQ dialogue"),
        ([dict(gold, doc_id="e")], [gold], r"predictions\[0\]: doc_id 'e' is not among the references'"),
        ([gold, gold], [gold, dict(gold, doc_id="e")], r"predictions\[1\]: doc_id 'd' is also that of predictions\[0\]"),
        ([gold, gold], [gold, gold], r"references\[1\]: doc_id 'd' is also that of references\[0\]"),
        ([_dialogue([[0, 1, 3, 5, 12, 13, "pos", "", "", ""]])], [gold], r"predictions\[0\]: triplet 1 starts a span at token 12, past the 12 tokens"),
        ([_dialogue([[True, 1, 3, 5, 6, 7, "pos", "", "", ""]])], [gold], r"predictions\[0\]: triplet 1 has the span index True"),
        ([_dialogue([[0, 1, 3, 5, 6, -2, "pos", "", "", ""]])], [gold], r"span index -2"),
        ([_dialogue([full[:6] + [1] + full[7:]])], [gold], r"triplet 1 has the polarity 1, not a string"),
        ([_dialogue([full[:7]])], [gold], r"triplet 1 \[0, 1, 3, 5, 6, 7, 'pos'\] is not a list of 10 entries"),
        ([{"doc_id": "d", "triplets": []}], [{"doc_id": "d", "triplets": []}], r"references\[0\]: \(doc_id 'd'\) has no 'sentences'"),
        ([_dialogue([], replies=[-1])], [_dialogue([], replies=[-1])], r"references\[0\]: replies is not a list of integers, one per sentence \(4\)"),
        ([_dialogue([], targets=[[0]])], [_dialogue([], targets=[])], r"predictions\[0\]: targets entry 1 \[0\] does not start with 2 integer"),
        ([_dialogue([], ta=[]), _dialogue([]) | {"doc_id": "e"}], [gold, gold | {"doc_id": "e"}], r"predictions\[0\]: gives 'ta' but predictions\[1\] does not"),
        ([_dialogue([], targets=[])], [_dialogue([])], r"references\[0\]: has no 'targets', which DiaASQ's target row reads"),
    ]
    for predictions, references, message in cases:
        with pytest.raises(ValueError, match=message):
            compute(predictions, references, convention="diaasq")
    with pytest.raises(ValueError, match="duplicates: does not apply with convention='diaasq'"):
        compute([gold], [gold], convention="diaasq", duplicates="set")
    with pytest.raises(ValueError, match="convention"):
        compute([gold], [gold], convention="DiaASQ")
    with pytest.raises(ValueError, match=r'predictions\[0\]: is a DiaASQ dialogue: its own table is convention="diaasq"'):
        compute([gold], [gold])


def test_diaasq_signature_bootstrap_command_line_and_space(tmp_path, capsys, space_metric):
    gold = diaasq.released("zh")
    predictions = [diaasq.with_pairs(g) | {"triplets": g["triplets"][1:]} for g in gold]
    result = compute(predictions, gold, convention="diaasq", confidence_level=0.9, seed=3, return_signature=True)
    assert result["signature"].startswith("quad_match|convention:diaasq|zero_division:0|bootstrap:1000@0.9|seed:3|")
    assert result["micro_f1_low"] < result["micro_f1"] < result["micro_f1_high"]
    paths = {}
    for name, data in (("pred", predictions), ("gold", gold)):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, _ = run_cli(["quad", "--convention", "diaasq", "--predictions", str(paths["pred"]), "--references", str(paths["gold"]), "--json"], capsys)
    assert code == 0 and json.loads(out) == compute(predictions, gold, convention="diaasq", return_signature=True)
    code, _, err = run_cli(["quad", "--convention", "diaasq", "--format", "json", "--predictions", str(paths["pred"]), "--references", str(paths["gold"])], capsys)
    assert code == 1 and "--format: does not apply with --convention diaasq" in err
    assert space_metric.compute(predictions=predictions, references=gold, convention="diaasq") == compute(predictions, gold, convention="diaasq")


# ---------------------------------------------------------------------------------------
# Span-index quads (spans="exclusive" / "inclusive"), against tests/quad_naive.py


def span_corpus(size, seed, spans):
    """`size` samples of span-index quads as real extractor outputs look: dialogues or
    sentences of 1-400 tokens, 0-30 gold quads (5% none, some repeated), implicit targets
    and opinions (null or [-1, -1]), numpy and Python integers, lists and objects;
    predictions that move a span edge by one, drop, repeat, add, change the aspect or
    polarity, or are malformed (an element missing or one too many, an empty aspect)."""
    rng = random.Random(seed)
    aspects = ["food#quality", "service#general", "price", "屏幕", "续航", " padded "]
    last = 1 if spans == "inclusive" else 0  # an inclusive end is the last token, an exclusive one past it

    def span(tokens):
        if rng.random() < 0.1:
            return rng.choice([None, [-1, -1], (-1, -1)])
        start = rng.randrange(tokens)
        end = min(start + rng.choice([1, 1, 2, 3, 8]), tokens) - last
        return [start, end] if rng.random() < 0.9 else (np.int64(start), np.int32(end))

    def moved(value, tokens):
        if value is None or list(value) == [-1, -1]:
            return span(tokens)
        start, end = int(value[0]), int(value[1])
        if rng.random() < 0.5 and end + 1 < tokens:
            return [start, end + 1]
        return [start + 1, end] if start + 1 < end + last else [max(start - 1, 0), end]

    def written(quad):
        return dict(zip(quad_module.ELEMENTS, quad)) if rng.random() < 0.2 else list(quad)

    samples = []
    for _ in range(size):
        tokens = rng.choice([rng.randint(1, 30), rng.randint(30, 400)])
        k = 0 if rng.random() < 0.05 else rng.randint(9, 30) if rng.random() < 0.02 else rng.randint(1, 6)
        gold = [[span(tokens), span(tokens), rng.choice(aspects), rng.choice(POLARITIES)] for _ in range(k)]
        if gold and rng.random() < 0.05:
            gold.append(list(gold[0]))
        pred = []
        for q in gold:
            u = rng.random()
            if u < 0.1:
                continue
            q = list(q)
            if u < 0.45:
                j = rng.randrange(4)
                q[j] = moved(q[j], tokens) if j < 2 else rng.choice(aspects if j == 2 else POLARITIES)
            pred.append(q)
            if rng.random() < 0.05:
                pred.append(list(q))
        pred += [[span(tokens), span(tokens), rng.choice(aspects), rng.choice(POLARITIES)] for _ in range(rng.random() < 0.2)]
        if pred and rng.random() < 0.05:
            j, u = rng.randrange(len(pred)), rng.random()
            pred[j] = pred[j][:3] if u < 0.4 else pred[j] + ["extra"] if u < 0.7 else pred[j][:2] + ["", pred[j][3]]
        rng.shuffle(pred)
        samples.append(([written(q) if len(q) == 4 else q for q in pred], [written(q) for q in gold]))
    return [p for p, _ in samples], [g for _, g in samples]


@pytest.mark.parametrize("spans, seed", [("exclusive", 1), ("inclusive", 2)])
def test_span_quads_at_ten_thousand_equal_the_per_sample_definition(spans, seed):
    predictions, references = span_corpus(10_000, seed, spans)
    assert sum(map(len, references)) > 30_000
    converted = [quad_module.span_quads(side, name, "0123", spans) for side, name in ((predictions, "predictions"), (references, "references"))]
    pairing, full, _ = quad_module._score(*converted, (1, 1, 1, 1), "0123", " & ", " | ", "exact", "multiset")  # one reference each: rows are samples
    by_rule = {rule: np.column_stack(quad_module._exact_columns(pairing, rule)) for rule in quad_naive.RULES}
    oracle = [quad_naive.sample_statistics(p, r, similarity="exact", spans=spans) for p, r in zip(predictions, references)]
    for i, row in enumerate(oracle):
        assert full[i, [0, 1, 2]].tolist() == pytest.approx([row["matched"], row["n"], row["m"]], abs=1e-12), (i, predictions[i], references[i])
        assert full[i, quad_module.STATS.index("score")] == pytest.approx(row["score"], abs=1e-12), i
        for rule, rows in by_rule.items():
            assert rows[i].tolist() == list(row["exact"][rule]), (i, rule)
    # the public entry point: corpus figures, and a few samples scored alone
    result = compute(predictions, references, spans=spans, similarity="exact")
    assert headline(result) == pytest.approx(quad_naive.figures(oracle), abs=1e-12)
    for i in range(0, 10_000, 997):
        alone = compute(predictions[i : i + 1], references[i : i + 1], spans=spans, similarity="exact")
        assert headline(alone) == pytest.approx(quad_naive.figures(oracle[i : i + 1]), abs=1e-12)


def test_span_quads_hand_cases_and_errors():
    # exclusive [0, 2) is inclusive [0, 1]: the same two tokens
    gold = [[[[0, 2], [3, 4], "food", "pos"], [None, [5, 7], "price", "neg"]]]
    assert compute([[[[0, 1], [3, 3], "food", "pos"], [[-1, -1], [5, 6], "price", "neg"]]], [[[[0, 1], [3, 3], "food", "pos"], [None, [5, 6], "price", "neg"]]], spans="inclusive", similarity="exact")["exact_f1"] == 1.0
    # one edge moved: that element scores 0, the other three 1: degree 3/4 (exact 0)
    r = compute([[[[0, 3], [3, 4], "food", "pos"]]], [gold[0][:1]], spans="exclusive", similarity="exact", return_signature=True)
    assert (r["optimal_f1"], r["exact_f1"]) == (0.75, 0.0)
    assert "|spans:exclusive|" in r["signature"]
    cases = [
        ({"spans": "exclusive", "similarity": "rouge_l"}, gold, "similarity: 'rouge_l'; spans are compared by position"),
        ({"spans": "half", "similarity": "exact"}, gold, "spans"),
        ({"spans": "exclusive", "similarity": "exact"}, [[[[2, 2], [3, 4], "food", "pos"]]], r"predictions\[0\]: quad 1 target \[2, 2\] is not a token span \(0 <= start < end, end exclusive"),
        ({"spans": "inclusive", "similarity": "exact"}, [[[[3, 2], [3, 4], "food", "pos"]]], r"quad 1 target \[3, 2\] is not a token span \(0 <= start <= end, end inclusive"),
        ({"spans": "exclusive", "similarity": "exact"}, [[[[0, 2], "good", "food", "pos"]]], r"quad 1 opinion 'good' is not a \[start, end\] pair"),
        ({"spans": "exclusive", "similarity": "exact"}, [[[[0, 2], [True, 4], "food", "pos"]]], r"quad 1 opinion \[True, 4\] is not a \[start, end\] pair"),
        ({"spans": "exclusive", "similarity": "exact"}, ["0:2 | 3:4 | food | pos"], r"predictions\[0\]: is a str: with spans='exclusive' a sample is a list of quads"),
        ({}, gold, r"predictions\[0\]: quad 1 holds \[0, 2\], not a string .*spans='exclusive' or 'inclusive'"),
    ]
    for options, predictions, message in cases:
        with pytest.raises(ValueError, match=message):
            compute(predictions, gold, **options)


def test_span_quads_through_evaluate(space_metric):
    pred = [[[[0, 2], None, "food", "pos"]], [{"target": [1, 2], "opinion": [4, 6], "aspect": "a", "polarity": "neg"}]]
    gold = [[[[0, 2], [-1, -1], "food", "pos"]], [[[1, 2], [4, 5], "a", "neg"]]]
    expected = compute(pred, gold, spans="exclusive", similarity="exact")
    assert expected["exact_f1"] == 0.5 and expected["optimal_f1"] == 0.875
    assert space_metric.compute(predictions=pred, references=gold, spans="exclusive", similarity="exact") == expected


def test_span_quads_on_the_command_line(tmp_path, capsys):
    pred, gold = tmp_path / "pred.jsonl", tmp_path / "gold.jsonl"
    pred.write_text('[[[0, 2], [3, 4], "food", "pos"]]\n[]\n', encoding="utf-8")
    gold.write_text('[[[0, 2], [3, 4], "food", "pos"]]\n[[[1, 2], null, "price", "neg"]]\n', encoding="utf-8")
    code, out, _ = run_cli(["quad", "--format", "json", "--spans", "exclusive", "--similarity", "exact", "--predictions", str(pred), "--references", str(gold), "--json"], capsys)
    assert code == 0
    result = json.loads(out)
    assert (result["exact_precision"], result["exact_recall"]) == (1.0, 0.5) and "|spans:exclusive|" in result["signature"]


def test_diaasq_compare_two_systems(tmp_path, capsys):
    """paperscore compare under convention="diaasq": each system's Micro F1 is run_eval.py's
    (the fixture), and the headline compared is micro_f1."""
    import diaasq_reference

    from paperscore.compare import compare

    gold = diaasq.released("zh")
    systems = diaasq_reference.released_predictions(gold, 0)
    expected = DIAASQ_FIGURES["released"]["zh"]
    micro = DIAASQ_ROWS.index("micro")
    r = compare("quad_match", gold, systems["nudged"], systems["gold"], convention="diaasq", seed=1, n_resamples=200)
    assert (r["metric_key"], r["score_a"], r["score_b"]) == ("micro_f1", expected["nudged"][micro][2], expected["gold"][micro][2])
    assert r["p_value"] < 0.01 and "|convention:diaasq|" in r["signature"]
    paths = {}
    for name, data in (("gold", gold), ("a", systems["nudged"]), ("b", systems["explicit"])):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    argv = ["compare", "quad", "--convention", "diaasq", "--references", str(paths["gold"]), "--system-a", str(paths["a"]), "--system-b", str(paths["b"]), "--metric-key", "iden_f1", "--n-resamples", "100", "--seed", "2", "--json"]
    code, out, _ = run_cli(argv, capsys)
    result = json.loads(out)
    assert code == 0 and (result["score_a"], result["score_b"]) == (expected["nudged"][DIAASQ_ROWS.index("iden")][2], 1.0)
    code, _, err = run_cli(argv[:-1] + ["--duplicates", "set"], capsys)
    assert code == 1 and "--duplicates: does not apply with --convention diaasq" in err


def lists_corpus(size, seed, tuple_len="0123"):
    """raw_corpus with both sides as decoded quads (issue 26: exact_only from lists), one
    reference each: quads as lists or tuples; NULL written "NULL", None, "" or "  ";
    white space around elements (10% of samples); blank predictions as []; malformed
    predictions (6%: an element missing, one too many, an empty aspect or polarity, an
    empty quad)."""
    rng = random.Random(seed)

    def written(q):
        pad = rng.random() < 0.1
        out = []
        for k, e in zip(tuple_len, (q[int(c)] for c in tuple_len)):
            if e == "NULL" and k in "01":
                e = rng.choice(["NULL", None, "", "  "])
            elif pad:
                e = rng.choice(["", " ", "\t", "\u3000"]) + e + rng.choice(["", " ", "\n"])
            out.append(e)
        return tuple(out) if rng.random() < 0.3 else out

    predictions, references = [], []
    for gold, pred, _ in raw_corpus(size, seed, "wide"):
        items = [written(q) for q in pred]
        if items and rng.random() < 0.06:
            k, u = rng.randrange(len(items)), rng.random()
            items[k] = list(items[k][:-1]) if u < 0.3 else list(items[k]) + ["extra"] if u < 0.6 else [] if u < 0.7 else list(items[k][:-1]) + [rng.choice(["", " "])]
        predictions.append(items)
        references.append([written(q) for q in gold])
    return predictions, references


@pytest.mark.parametrize("tuple_len", ["0123", "013"])
def test_exact_only_from_lists_equals_the_per_sample_definition(tuple_len):
    """Issue 26: exact_only from decoded quads reads each distinct quad once (_exact_lists).
    10,000 diverse samples: every sample's counts under each duplicates rule equal the
    plain definition; the path ran; a sample scored alone equals its row."""
    predictions, references = lists_corpus(10_000, 3, tuple_len)
    assert quad_module._exact_lists(predictions, references, tuple_len) is not None  # the fast path, not the general one
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_rule = {rule: batch_rows(predictions, references, tuple_len=tuple_len, similarity="exact", duplicates=rule, exact_only=True)[0] for rule in quad_module.DUPLICATES}
        assert_rows_equal_oracle(predictions, references, by_rule["set"], np.zeros(len(references), np.int64), by_rule, [], tuple_len=tuple_len, similarity="exact")
        for i in random.Random(2).sample(range(len(predictions)), 100):
            alone = batch_rows([predictions[i]], [references[i]], tuple_len=tuple_len, duplicates="list", exact_only=True)[0]
            assert alone[0].tolist() == by_rule["list"][i].tolist(), i


GOOD_LISTS = [[["t", "o", "a", "pos"]], [], [("t", None, "a", "neg"), ["u", "NULL", "b", "pos"]]]  # what the bad sample sits among


@pytest.mark.parametrize(
    "side, bad, message",
    [
        ("references", [["a", "b", "c", " "]], r"references\[3\]: quad 1 'a \| b \| c \| ' has an empty element 4"),
        ("references", [["a", "b", None, "d"]], r"references\[3\]: quad 1 'a \| b \|  \| d' has an empty element 3"),
        ("references", [["a", "b", "c"]], r"references\[3\]: quad 1 'a \| b \| c' has 3 elements where tuple_len needs 4"),
        ("references", [["a", "b", "c", "d", "e"]], r"references\[3\]: quad 1 'a \| b \| c \| d \| e' has 5 elements where tuple_len needs 4"),
        ("references", [["a", "b", "c", "d"], []], r"references\[3\]: quad 2 '' has 0 elements where tuple_len needs 4"),  # ([[]] alone is one empty reference of several)
        ("predictions", [["a", "b", "c", 5]], r"predictions\[3\]: quad 1 holds 5, not a string"),
        # a reference's lone quad with a bad element is no quad, so its list reads as several
        # references; the message still names the quad and the element
        ("references", [["a", "b", "c", 5]], r"references\[3\]: quad 1 holds 5, not a string"),
        ("references", [["a", "b", "c", "d"], ["a", "b", [0, 1], "d"]], r"references\[3\]: quad 2 holds \[0, 1\], not a string .*spans="),
        ("predictions", [["a", "b", "c", 1.5]], r"predictions\[3\]: quad 1 holds 1.5, not a string"),
        ("predictions", [["a", b"b", "c", "d"]], r"predictions\[3\]: quad 1 holds b'b', not a string"),
        ("predictions", [["a", [0, 1], "c", "d"]], r"predictions\[3\]: quad 1 holds \[0, 1\], not a string .*spans="),
        ("predictions", ["a | b | c | d"], r"predictions\[3\]: quad 1 is a str: a quad is a list of strings"),
        ("predictions", [5], r"predictions\[3\]: quad 1 is a int: a quad is a list of strings"),
        ("predictions", 5, r"predictions\[3\]: expected a string of quads or a list of quads, got int"),
        ("references", {"doc_id": "x"}, r"references\[3\]: is a DiaASQ dialogue"),
    ],
)
def test_exact_only_from_lists_refuses_what_the_general_path_refuses(side, bad, message):
    """Issue 26: _exact_lists hands whatever it does not read (an element that is no string,
    a malformed reference quad, a quad or sample of another type) to the general path,
    which names the argument, the sample (here the fourth) and the quad: each refusal is
    the one the full run (similarity="exact", no exact_only) gives."""
    good = [list(map(list, example)) for example in GOOD_LISTS]
    sides = {"predictions": good + [[["a", "b", "c", "d"]]], "references": [list(map(list, example)) for example in GOOD_LISTS] + [[["a", "b", "c", "d"]]]}
    sides[side][3] = bad
    for options in ({"exact_only": True, "duplicates": rule} for rule in quad_module.DUPLICATES):
        with pytest.raises(ValueError, match=message):
            compute(sides["predictions"], sides["references"], **options)
    with pytest.raises(ValueError, match=message):
        compute(sides["predictions"], sides["references"], similarity="exact")


def test_malformed_quads_given_as_data_are_keyed_by_their_elements():
    """("a | b", "c", "d") and ("a", "b | c", "d") are two malformed predictions (three
    elements where tuple_len needs four) whose texts joined by sep_token2 are equal. The
    sample predicts 3 distinct quads, 1 of them gold: under every duplicates rule precision
    1/3, recall 1/1, F1 2·1/(3 + 1) = 0.5 (they once counted as one quad under "set": 1/2).
    The exact_only path over lists, the full path, and the full path's exact_only choice
    among several references agree."""
    predictions = [[["x", "y", "z", "w"], ["a | b", "c", "d"], ("a", "b | c", "d")]]
    expected = {"exact_precision": 1 / 3, "exact_recall": 1.0, "exact_f1": 0.5}
    for rule in quad_module.DUPLICATES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runs = [
                compute(predictions, [[["x", "y", "z", "w"]]], duplicates=rule, exact_only=True),
                compute(predictions, [[["x", "y", "z", "w"]]], duplicates=rule, similarity="exact"),
                compute(predictions, [[[["x", "y", "z", "w"]], [["p", "q", "r", "s"]]]], duplicates=rule, exact_only=True),  # several references: the general path
            ]
        for got in runs:
            assert {key: got[key] for key in expected} == pytest.approx(expected, abs=1e-15), rule


def odd_lists_corpus(size, seed, tuple_len, nul):
    """lists_corpus with what a reader keyed by joined text could confuse: 5% of elements
    hold a separator (" | ", " & ", "|") or, with nul, a NUL, inside or at an end (under
    white space); 5% of samples empty on both sides; predicted quads repeated (8%).
    Without nul, a null is written as a blank string instead and an empty quad as ["x"]
    (so that the NUL-joined keys are read: every element a string, every quad one)."""
    rng = random.Random(seed)
    predictions, references = lists_corpus(size, seed, tuple_len)
    marks = [" | ", " & ", "|"] + (["\0"] if nul else [])

    def odd(q):
        q = [rng.choice(["", " "]) if e is None and not nul else e for e in q] or ([] if nul else ["x"])
        q = [e if e is None or rng.random() >= 0.05 else rng.choice(["", " "]) + rng.choice([e + rng.choice(marks), rng.choice(marks) + e, e[:1] + rng.choice(marks) + e[1:]]) for e in q]
        return tuple(q) if rng.random() < 0.5 else q

    out_p, out_r = [], []
    for pred, gold in zip(predictions, references):
        if rng.random() < 0.05:
            pred, gold = [], []
        pred = [odd(q) for q in pred]
        gold = [odd(q) for q in gold]
        pred += [rng.choice(pred) for _ in range(rng.random() < 0.08 and len(pred))]
        rng.shuffle(pred)
        out_p.append(pred if rng.random() < 0.8 else tuple(pred))
        out_r.append(gold)
    return out_p, out_r


@pytest.mark.parametrize("tuple_len, nul", [("0123", True), ("12", False), ("3", False)])
def test_exact_only_from_lists_with_separators_inside_elements(tuple_len, nul):
    """Issue 26: exact_only from lists at 10,000 samples of odd_lists_corpus (separators and
    NULs inside elements, malformed and repeated predictions, empty samples, nulls, blank
    and padded elements, lists and tuples): every sample's counts under each rule equal the
    plain definition's, through the NUL-joined keys (_distinct_texts) or, with a NUL inside
    an element, the tuple keys."""
    predictions, references = odd_lists_corpus(10_000, 7, tuple_len, nul)
    quads = [q for side in (predictions, references) for example in side for q in example]
    assert (quad_module._distinct_texts(quads) is None) == nul  # which reader runs
    assert quad_module._exact_lists(predictions, references, tuple_len) is not None  # the path over lists, not the general one
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_rule = {rule: batch_rows(predictions, references, tuple_len=tuple_len, similarity="exact", duplicates=rule, exact_only=True)[0] for rule in quad_module.DUPLICATES}
    assert_rows_equal_oracle(predictions, references, by_rule["set"], np.zeros(len(references), np.int64), by_rule, [], tuple_len=tuple_len, similarity="exact")
    assert sum(map(len, predictions)) > 20_000 and sum(1 for p in predictions if not p) > 500


def test_compare_span_index_quads(tmp_path, capsys):
    """Issue 23: `compare quad` takes spans= as compute does. Each system's figure is the
    plain definition's (tests/quad_naive.py) over 2,000 span-index samples; the command line
    gives the same; spans with ROUGE-L is refused there too."""
    from paperscore.compare import compare

    predictions, references = span_corpus(2_000, 4, "inclusive")
    oracle = [quad_naive.sample_statistics(p, r, similarity="exact", spans="inclusive") for p, r in zip(predictions, references)]
    r = compare("quad_match", references, predictions, references, spans="inclusive", similarity="exact", seed=1, n_resamples=100)
    assert (r["score_a"], r["score_b"]) == (pytest.approx(quad_naive.figures(oracle)["optimal_f1"], abs=1e-12), 1.0)
    assert r["p_value"] < 0.05 and "|spans:inclusive|" in r["signature"]
    gold = [[[[0, 1], [3, 4], "food", "pos"], [None, [6, 6], "price", "neg"]], [[[2, 2], [-1, -1], "service", "pos"]]]
    a = [[[[0, 1], [3, 4], "food", "pos"]], [[[2, 2], None, "service", "neg"]]]  # one quad dropped; a polarity wrong (3/4)
    paths = {}
    for name, data in (("gold", gold), ("a", a), ("b", gold)):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(data), encoding="utf-8")
    argv = ["compare", "quad", "--format", "json", "--spans", "inclusive", "--references", str(paths["gold"]), "--system-a", str(paths["a"]), "--system-b", str(paths["b"]), "--n-resamples", "50", "--seed", "2", "--json"]
    code, out, _ = run_cli(argv + ["--similarity", "exact"], capsys)
    # optimal_f1 by hand: matched 1 + 0.75 over 2 predicted and 3 gold quads: P 0.875, R 7/12, F1 = 2PR / (P + R) = 0.7
    assert code == 0 and (json.loads(out)["score_a"], json.loads(out)["score_b"]) == (pytest.approx(0.7, abs=1e-12), 1.0)
    code, _, err = run_cli(argv, capsys)
    assert code == 1 and "spans are compared by position" in err


def test_demo_diaasq_convention_is_run_evals_table(tmp_path):
    """The demo's convention "diaasq": DiaASQ's prediction and gold files uploaded as they
    are, its 13 rows and headline Micro F1 as run_eval.py printed them (its figures, written
    by tests/diaasq_reference.py), at the page's 4 significant digits."""
    import diaasq_reference
    import gradio as gr

    app = load_app()
    gold = diaasq.released("zh")
    files = {"references": gold, "predictions": diaasq_reference.released_predictions(gold, 0)["nudged"]}
    boxes = {}
    for argument, data in files.items():
        path = tmp_path / f"{argument}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        boxes[argument] = app.upload(str(path), argument)
    inputs = {**app.EXAMPLE, **boxes, "convention": "diaasq"}
    result, top, _, _, rows = app.show(**inputs)
    expected = DIAASQ_FIGURES["released"]["zh"]["nudged"]
    micro = expected[DIAASQ_ROWS.index("micro")][2]
    assert 'data-key="micro_f1"' in top and f">{micro:.4g}<" in top and "DiaASQ run_eval.py Micro" in top
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row) for row in re.findall(r"<tr>(.*?)</tr>", rows)]
    assert [row[0].split(" ")[0] for row in cells[1:]] == list(DIAASQ_ROWS)  # DiaASQ's 13 rows, its order
    assert [row[1:] for row in cells[1:]] == [[f"{f:.4g}" for f in figures] for figures in expected]
    # the same files pasted as one JSON array each score the same
    pasted = {name: json.dumps(data, ensure_ascii=False) for name, data in files.items()}
    assert app.score(**{**inputs, **pasted})[0]["micro_f1"] == micro
    # by hand: one dialogue, two gold quads on distinct spans; the prediction gives one:
    # Micro P = 1/1, R = 1/2, F1 = 2 * 1 * 0.5 / 1.5 = 2/3; no element lists, so no Target row
    dialogue = {"doc_id": "d", "sentences": ["a b c d e f"], "replies": [-1]}
    t1, t2 = [0, 1, 1, 2, 2, 3, "pos", "a", "b", "c"], [3, 4, 4, 5, 5, 6, "neg", "d", "e", "f"]
    result, _ = app.score(**{**inputs, "references": json.dumps({**dialogue, "triplets": [t1, t2]}), "predictions": json.dumps({"doc_id": "d", "triplets": [t1]})})
    assert (result["micro_precision"], result["micro_recall"], result["micro_f1"]) == (1.0, 0.5, pytest.approx(2 / 3, abs=1e-15))
    assert "target_f1" not in result
    # errors in the page's terms: dialogues counted from 1
    two = "\n".join(json.dumps({**dialogue, "doc_id": name, "triplets": [t1]}) for name in ("d", "e"))
    with pytest.raises(gr.Error, match=r"predictions \(dialogue 2\): doc_id 'x' is not among the references'"):
        app.score(**{**inputs, "references": two, "predictions": two.replace('"e"', '"x"')})
    with pytest.raises(gr.Error, match="predictions line 2: not a JSON dialogue"):
        app.score(**{**inputs, "references": two, "predictions": two.split("\n")[0] + "\n{oops"})
    with pytest.raises(gr.Error, match="similarity: does not apply with convention diaasq"):
        app.score(**{**inputs, "similarity": "exact"})
    with pytest.raises(gr.Error, match=r"references \(dialogue 1\): 51 triplets; this demo takes at most 50"):
        app.score(**{**inputs, "references": json.dumps({**dialogue, "triplets": [t1] * 51})})
    # the uploaded gold dialogues, one a line, still read as quad strings without the convention:
    # gold against itself is every quad matched, exact F1 1
    assert app.score(**{**app.EXAMPLE, "predictions": boxes["references"], "references": boxes["references"]})[0]["exact_f1"] == 1.0


def random_blocks(size, seed):
    """`size` degree blocks of 2-9 rows and columns as the soft match makes them: mostly
    zeros, a few shared values (ties between rows and between columns), some 1s, some
    fractions; about a third with a row or column that wants its neighbour's partner."""
    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(size):
        n, m = rng.integers(2, 10, size=2)
        values = rng.choice([0.0, 0.0, 0.0, 0.25, 0.5, 0.75, 1.0, rng.random()], size=(n, m))
        blocks.append(values)
    return blocks


def test_line_optima_equal_the_hungarian_optimum():
    """_line_optima skips the Hungarian algorithm where the rows' (or columns') first
    maxima are distinct partners: on 10,000 random blocks (ties, zero rows, rectangular),
    every total it gives equals linear_sum_assignment's optimum, and it leaves NaN (the
    Hungarian algorithm) for the rest; both kinds occur."""
    blocks = random_blocks(10_000, 5)
    pairing = types.SimpleNamespace(
        n=np.array([b.shape[0] for b in blocks]), m=np.array([b.shape[1] for b in blocks]), degree=np.concatenate([b.ravel() for b in blocks])
    )
    pairing.offset = np.concatenate([[0], np.cumsum(pairing.n * pairing.m)])
    got = quad_module._line_optima(pairing, np.arange(len(blocks)))
    want = np.array([b[best_assignment(b)].sum() for b in blocks])
    solved = ~np.isnan(got)
    assert 1000 < solved.sum() < len(blocks) - 1000
    np.testing.assert_allclose(got[solved], want[solved], rtol=0, atol=1e-12)
    # A hand case: rows [1, 0.5] and [0.9, 0] both want column 0: only the Hungarian algorithm (1.4 = 0.5 + 0.9) knows.
    pairing = types.SimpleNamespace(n=np.array([2]), m=np.array([2]), degree=np.array([1, 0.5, 0.9, 0]), offset=np.array([0, 4]))
    assert np.isnan(quad_module._line_optima(pairing, np.array([0])))[0]


def test_score_table_equals_the_rows_of_the_same_quads_as_lists():
    """score_table (quads as rows of one table of distinct quads, read once) gives every
    STATS row that _score gives for the same quads as lists, at 10,000 diverse samples
    (white space, implicit targets, malformed predictions, repeats)."""
    predictions, references = lists_corpus(10_000, 4, "0123")
    table, seen = [], {}

    def rows_of(sides):
        out = []
        for example in sides:
            for q in example:
                out.append(seen.setdefault(tuple(q), len(seen)))
                if len(seen) > len(table):
                    table.append(list(q))
        return np.array(out, np.int64), np.array([len(e) for e in sides], np.int64)

    (predicted, n), (referenced, m) = rows_of(predictions), rows_of(references)
    got = quad_module.score_table(table, predicted, n, referenced, m)
    want = batch_rows(predictions, references)[0]
    np.testing.assert_array_equal(got, want)
    assert len(table) < len(predicted) + len(referenced)  # quads repeat: the table is smaller


def test_exact_only_from_lists_of_strings_keyed_by_their_text():
    """_exact_lists keys quads of strings by their elements joined by NUL (_distinct_texts):
    10,000 diverse samples with no null element and no empty quad (where that key is
    used) equal the plain definition under each rule; a NUL inside an element falls back
    to tuples, so that ("a\\0b", "c") and ("a", "b\\0c") stay two quads."""
    predictions, references = lists_corpus(10_000, 5)
    predictions = [[["" if e is None else e for e in q] or ["x"] for q in example] for example in predictions]
    references = [[["" if e is None else e for e in q] for q in example] for example in references]
    assert quad_module._distinct_texts([q for side in (predictions, references) for example in side for q in example]) is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_rule = {rule: batch_rows(predictions, references, similarity="exact", duplicates=rule, exact_only=True)[0] for rule in quad_module.DUPLICATES}
    assert_rows_equal_oracle(predictions, references, by_rule["set"], np.zeros(len(references), np.int64), by_rule, [], similarity="exact")
    assert quad_module._distinct_texts([["a\0b", "c"], ["a", "b\0c"]]) is None
    assert quad_module._distinct_texts([["a\0b"], ["a", "b"]]) is None
    assert quad_module._distinct_texts([["a", "b", "c"], ["a\0b", "c"]]) is None  # a later quad of another width under the first's key
    assert quad_module._distinct_texts([[""], []]) is None and quad_module._distinct_texts([[], [""]]) is None  # both keyed ""
    got = compute([[["a", "b", "c", "d"], ["a\0b", "c", "d"]]], [[["a", "b", "c", "d"]]], exact_only=True, duplicates="set")
    assert got["exact_precision"] == 0.5  # two predicted quads, one gold
    got = compute([[["a\0b", "c", "x", "y"]]], [[["a", "b\0c", "x", "y"]]], exact_only=True)
    assert got["exact_f1"] == 0.0


def test_demo_tuple_len_choices_are_every_subset_from_the_package():
    """The page's tuple_len list is quad.TUPLE_LEN_SUBSETS: each of the 2**4 - 1 = 15
    non-empty subsets of the four elements once (the original's nine codes first); an
    order not listed is typed and read as the package reads it."""
    import gradio as gr

    app = load_app()
    (dropdown,) = [block for block in app.demo.blocks.values() if getattr(block, "elem_id", None) == "tuple-len"]
    assert [value for _, value in dropdown.choices] == list(quad_module.TUPLE_LEN_SUBSETS)
    assert dropdown.allow_custom_value
    subsets = {frozenset(code) for code in quad_module.TUPLE_LEN_SUBSETS}
    assert len(subsets) == len(quad_module.TUPLE_LEN_SUBSETS) == 15 and set().union(*subsets) == set("0123")
    assert quad_module.TUPLE_LEN_SUBSETS[: len(TUPLE_LENS)] == TUPLE_LENS
    # target-aspect pairs ("02"): sample 1 finds 1 of 2 gold pairs, sample 2 its one: 2 hits,
    # n = 2, m = 3: P = 1, R = 2/3, F1 = 4/5
    result, _ = app.score(**{**app.EXAMPLE, "tuple_len": "02", "predictions": "food | food#taste\nstaff | service", "references": "food | food#taste & x | y\nstaff | service"})
    assert (result["exact_precision"], result["exact_recall"], result["exact_f1"]) == pytest.approx((1, 2 / 3, 4 / 5), abs=1e-12)
    assert "|tuple_len:02|" in result["signature"]
    assert "exact-match F1 of (target, aspect) tuples, tuple_len 02" in app.show(**{**app.EXAMPLE, "tuple_len": "02", "predictions": "a | b", "references": "a | b"})[1]
    # the same pair written aspect first, an order typed ("20"): 1 hit, n = 2, m = 1: F1 = 2/3
    result, _ = app.score(**{**app.EXAMPLE, "tuple_len": "20", "predictions": "food#taste | food & x | y", "references": "food#taste | food"})
    assert result["exact_f1"] == pytest.approx(2 / 3, abs=1e-12) and "|tuple_len:20|" in result["signature"]
    with pytest.raises(gr.Error, match="tuple_len: '0124' is not a string of distinct digits"):
        app.score(**{**app.EXAMPLE, "tuple_len": "0124"})


def test_demo_implicit_split_shows_acos_four_rows():
    """implicit_split: ACOS's rows EA&EO, IA&EO, EA&IO, IA&IO (measureQuad_imp's order) in a
    table before the figures. Sample 1 (gold: implicit target, explicit opinion) is hit: IA&EO
    1/1; sample 2 (explicit both) missed: EA&EO 0 of 1 predicted, 1 gold; sample 3 (both
    implicit) hit: IA&IO 1/1; no sample is EA&IO: 0/0, zero_division 0. Overall 2 hits of
    3 and 3: exact F1 2/3."""
    import gradio as gr

    app = load_app()
    inputs = {
        **app.EXAMPLE,
        "implicit_split": True,
        "predictions": "NULL | good | food#taste | pos\nfood | NULL | food#taste | pos\nNULL | NULL | food#taste | pos",
        "references": "NULL | good | food#taste | pos\nfood | bad | food#taste | pos\nNULL | NULL | food#taste | pos",
    }
    result, _, _, figures, _ = app.show(**inputs)
    assert result["exact_f1"] == pytest.approx(2 / 3, abs=1e-12)
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>", figures)
    assert rows[:4] == [
        ("EA&amp;EO (ea_eo)", "0", "0", "0"),
        ("IA&amp;EO (ia_eo)", "1", "1", "1"),
        ("EA&amp;IO (ea_io)", "0", "0", "0"),
        ("IA&amp;IO (ia_io)", "1", "1", "1"),
    ]
    assert "exact_f1_ia_eo" not in figures  # shown once, in ACOS's table
    with pytest.raises(gr.Error, match=r"implicit_split: tuple_len '23' must hold the target \(0\) and the opinion \(1\)"):
        app.score(**{**inputs, "tuple_len": "23", "predictions": "food#taste | pos", "references": "food#taste | pos"})
    with pytest.raises(gr.Error, match="implicit_split: does not apply with convention diaasq"):
        app.score(**{**inputs, "convention": "diaasq"})


def test_demo_spans_reads_span_index_quads_as_json_lines():
    """spans: one JSON sample a line. The card's case (end inclusive): the first quad's
    opinion ends one token late (degree 3/4), the second matches (its implicit target
    [-1, -1] against null): exact 1 of 2, F1 1/2; soft S = 7/4 of 2 and 2: F1 7/8. A blank
    line is a sample without quads; {"quads": [...]} lines (an uploaded JSON file) too."""
    import gradio as gr

    app = load_app()
    pred = '[[[0, 1], [3, 4], "food", "pos"], [[-1, -1], [6, 6], "price", "neg"]]'
    gold = '[[[0, 1], [3, 3], "food", "pos"], [null, [6, 6], "price", "neg"]]'
    inputs = {**app.EXAMPLE, "spans": "inclusive", "similarity": "exact", "predictions": pred, "references": gold}
    result, table = app.score(**inputs)
    assert (result["exact_f1"], result["optimal_f1"]) == (0.5, 0.875)
    assert "|spans:inclusive|" in result["signature"]
    assert table["data"][0][1].split(" | ")[:2] == ["0:2", "3:5"]  # [0, 1], [3, 4] inclusive shown as start:end, end exclusive
    # a first sample, blank on the prediction side (its one gold quad missed): exact 1 hit, n = 2, m = 3
    result, _ = app.score(**{**inputs, "predictions": "\n" + json.dumps({"quads": json.loads(pred)}), "references": '[[[2, 2], [5, 5], "x", "neg"]]\n' + gold})
    assert result["exact_f1"] == pytest.approx(2 * 1 / (2 + 3), abs=1e-12)
    for change, message in [
        ({"similarity": "rouge_l"}, 'similarity: \'rouge_l\'; spans are compared by position, exactly: pass similarity="exact"'),
        ({"predictions": pred + "\nfood | good"}, "predictions line 2: with spans a line is JSON"),
        ({"predictions": '[[[0, 1], [4, 3], "food", "pos"]]'}, "predictions (sample 1): quad 1 opinion [4, 3] is not a token span"),
        ({"parse": "mvp"}, "spans: a parser reads model text, not span indices"),
        ({"convention": "diaasq", "similarity": "rouge_l"}, "spans: does not apply with convention diaasq"),
        ({"spans": "half"}, "spans: 'half' is not one of"),
        ({"predictions": json.dumps([[[0, 1], [3, 4], "food", "pos"]] * 51)}, "predictions line 1: 51 quads; this demo takes at most 50 per sample"),
    ]:
        with pytest.raises(gr.Error) as raised:
            app.score(**{**inputs, **change})
        assert message in html.unescape(raised.value.message), raised.value.message


# The demo's ACOS case: gold sample 1 is IA&EO, 2 EA&EO, 3 IA&IO. System A misses sample 1,
# system B sample 2 (the rest exact).
ACOS_GOLD = ["NULL | good | food#taste | pos", "food | bad | food#taste | pos", "NULL | NULL | food#taste | pos"]
ACOS_A = ["NULL | bad | food#taste | pos", ACOS_GOLD[1], ACOS_GOLD[2]]
ACOS_B = [ACOS_GOLD[0], "food | NULL | food#taste | pos", ACOS_GOLD[2]]


def test_compare_implicit_split_and_tuple_len_subsets(tmp_path, capsys):
    """`compare quad` takes implicit_split (metric_key one of ACOS's rows) and any
    tuple_len, as compute does; the command line gives the same. By hand: IA&EO is sample 1
    alone, A misses it (F1 0), B hits it (1); EA&EO is sample 2: A 1, B 0; IA&IO both 1.
    tuple_len "02": A finds 2 of 3 gold pairs with 2 predicted (F1 4/5), B 2 of 3 with 3
    predicted (2/3)."""
    from paperscore.compare import compare

    for key, a, b in (("exact_f1_ia_eo", 0.0, 1.0), ("exact_f1_ea_eo", 1.0, 0.0), ("exact_f1_ia_io", 1.0, 1.0), ("exact_f1", 2 / 3, 2 / 3)):
        r = compare("quad_match", ACOS_GOLD, ACOS_A, ACOS_B, metric_key=key, implicit_split=True, n_resamples=50, seed=0)
        assert (r["score_a"], r["score_b"], r["difference"]) == pytest.approx((a, b, b - a), abs=1e-12), key
    assert "|implicit_split:yes|" in r["signature"]
    with pytest.raises(ValueError, match="metric_key: 'exact_f1_ia_eo' is not one of"):
        compare("quad_match", ACOS_GOLD, ACOS_A, ACOS_B, metric_key="exact_f1_ia_eo")
    with pytest.raises(ValueError, match=r"implicit_split: tuple_len '023' must hold the target \(0\) and the opinion \(1\)"):  # compute's own message
        compare("quad_match", ACOS_GOLD, ACOS_A, ACOS_B, implicit_split=True, tuple_len="023")
    gold, a, b = ["food | food#taste & x | y", "staff | service"], ["food | food#taste", "staff | service"], ["food | food#taste & x | y", "staff | x"]
    r = compare("quad_match", gold, a, b, metric_key="exact_f1", tuple_len="02", n_resamples=50, seed=0)
    assert (r["score_a"], r["score_b"]) == pytest.approx((4 / 5, 2 / 3), abs=1e-12) and "|tuple_len:02|" in r["signature"]
    files = {name: write(tmp_path / f"{name}.txt", lines) for name, lines in (("gold", ACOS_GOLD), ("a", ACOS_A), ("b", ACOS_B), ("gold02", gold), ("a02", a), ("b02", b))}
    code, out, _ = run_cli(["compare", "quad", "--references", files["gold"], "--system-a", files["a"], "--system-b", files["b"], "--implicit-split", "--metric-key", "exact_f1_ea_eo", "--n-resamples", "50", "--seed", "0", "--json"], capsys)
    assert code == 0 and (json.loads(out)["score_a"], json.loads(out)["score_b"]) == (1.0, 0.0)
    code, out, _ = run_cli(["compare", "quad", "--references", files["gold02"], "--system-a", files["a02"], "--system-b", files["b02"], "--tuple-len", "02", "--metric-key", "exact_f1", "--n-resamples", "50", "--seed", "0", "--json"], capsys)
    assert code == 0 and json.loads(out)["score_a"] == pytest.approx(4 / 5, abs=1e-12)
    dialogues = str(diaasq.DATA / "diaasq_zh_test.json")
    code, _, err = run_cli(["compare", "quad", "--convention", "diaasq", "--references", dialogues, "--system-a", dialogues, "--system-b", dialogues, "--implicit-split"], capsys)
    assert code == 1 and "--implicit-split: does not apply with --convention diaasq" in err


def test_compare_implicit_split_equals_the_plain_definition_per_kind():
    """At users' sizes: each system's four ACOS figures as compare resamples them (its
    reducer over the encoded rows, all weights 1) equal the plain per-sample definition
    (tests/quad_naive.py, measureQuad_imp's typing) over 10,000 diverse samples with
    implicit elements, under the set rule ACOS counts by; compare's score_a is that figure."""
    from paperscore.compare import compare, paired_statistics

    predictions, references = diverse_corpus(10_000, 3, alphabet="narrow")
    references = [quad_naive.references_of(r)[0] for r in references]  # compare: one reference each
    oracle = [quad_naive.sample_statistics(p, r, similarity="exact") for p, r in zip(predictions, references)]
    expected = quad_naive.figures(oracle, "set", implicit_split=True)
    assert all(expected[f"exact_f1_{kind}"] > 0 for kind in quad_module.IMPLICITNESS)  # every kind present
    table_a, codes_a, table_b, codes_b, reduce = paired_statistics("quad_match", references, predictions, references, similarity="exact", duplicates="set", implicit_split=True)
    got = reduce(np.bincount(codes_a, minlength=len(table_a)).astype(float), table_a)
    perfect = reduce(np.bincount(codes_b, minlength=len(table_b)).astype(float), table_b)
    for kind in quad_module.IMPLICITNESS:
        for key in quad_module.EXACT_KEYS:
            assert (got[f"{key}_{kind}"], perfect[f"{key}_{kind}"]) == (pytest.approx(expected[f"{key}_{kind}"], abs=1e-12), 1.0), (key, kind)
    r = compare("quad_match", references[:2_000], predictions[:2_000], references[:2_000], metric_key="exact_f1_ia_io", implicit_split=True, similarity="exact", duplicates="set", n_resamples=20, seed=0)
    small = quad_naive.figures(oracle[:2_000], "set", implicit_split=True)
    assert (r["score_a"], r["score_b"]) == (pytest.approx(small["exact_f1_ia_io"], abs=1e-12), 1.0)


def test_cli_quad_implicit_split_and_a_single_element_tuple_len(tmp_path, capsys):
    """`paperscore quad --implicit-split` prints ACOS's rows (system B above: EA&EO 0,
    IA&EO 1, EA&IO 0/0 -> 0, IA&IO 1); `--tuple-len 2`, categories alone: 2 of 3 right."""
    files = {name: write(tmp_path / f"{name}.txt", lines) for name, lines in (("gold", ACOS_GOLD), ("b", ACOS_B), ("cats", ["food#taste", "service#general", "price#level"]), ("pred", ["food#taste", "service#general", "food#taste"]))}
    code, out, _ = run_cli(["quad", "--predictions", files["b"], "--references", files["gold"], "--implicit-split", "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and [result[f"exact_f1_{kind}"] for kind in quad_module.IMPLICITNESS] == [0.0, 1.0, 0.0, 1.0]
    code, out, _ = run_cli(["quad", "--predictions", files["pred"], "--references", files["cats"], "--tuple-len", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["exact_f1"] == pytest.approx(2 / 3, abs=1e-12)


def test_config_diaasq_table_is_diaasqs_own_table():
    """config_name="diaasq_table" is convention="diaasq": run_eval.py's table (the fixture)
    on the released zh test set, also through evaluate.combine; config "diaasq" keeps its
    meaning (duplicates="set" over quad strings)."""
    import diaasq_reference
    import evaluate
    from conftest import SPACES_DIR

    gold = diaasq.released("zh")
    predictions = diaasq_reference.released_predictions(gold, 0)["nudged"]
    metric = evaluate.load(str(SPACES_DIR / "quad_match"), config_name="diaasq_table", keep_in_memory=True)
    result = metric.compute(predictions=predictions, references=gold)
    assert diaasq_table(result) == DIAASQ_FIGURES["released"]["zh"]["nudged"]
    assert result == compute(predictions, gold, convention="diaasq")
    assert evaluate.combine([metric]).compute(predictions=predictions, references=gold) == result
    assert type(metric).configs["diaasq"] == {"duplicates": "set"}


def edited(rng, text_tokens, alphabet):
    """A copy of a token list with some tokens dropped, replaced and inserted."""
    out = []
    for token in text_tokens:
        roll = rng.random()
        if roll < 0.1:
            continue
        out.append(rng.choice(alphabet) if roll < 0.2 else token)
        if rng.random() < 0.05:
            out.append(rng.choice(alphabet))
    return out


def rouge_pairs(rng, n_pairs):
    """n_pairs pairs of strings, Chinese, English or mixed, 0 to 400 tokens (a tenth of
    72 to 110 tokens, and a fiftieth of up to 400, whose pairs mostly take the path over 64
    tokens), half of them one an edit of the other, the rest independent."""
    alphabets = {
        "zh": (list("服务很好价格便宜环境不错菜品一般"), ""),
        "en": (["food", "good", "Food", "service", "great", "bad", "price", "nice", "12x", "3"], " "),
        "mixed": (list("服务好价") + ["Wi", "Fi", "6", "ok"], ""),
    }
    separators = [" ", "-", "!", "，", "  "]
    pairs = []
    for number in range(n_pairs):
        alphabet, joiner = alphabets[rng.choice(list(alphabets))]
        size = rng.randint(0, 400) if number % 50 == 1 else rng.randint(72, 110) if number % 10 == 0 else rng.randint(0, 64)
        first = [rng.choice(alphabet) for _ in range(size)]
        second = edited(rng, first, alphabet) if rng.random() < 0.5 else [rng.choice(alphabet) for _ in range(rng.randint(max(0, size - 5), size + 20))]

        def join(tokens):
            return "".join(token + (joiner or (rng.choice(separators) if rng.random() < 0.1 else "")) for token in tokens)

        pairs.append((join(first), join(second)))
    return pairs


def test_rouge_l_equals_rouge_score_on_long_and_short_pairs():
    """10,500 pairs, 0 to 400 tokens a side, Chinese, English and mixed (over 1,000 with
    both sides over 64 tokens, the Python-integer path): every F1 equal to rouge-score's
    bit for bit, in one batch."""
    rng = random.Random(8)
    pairs = rouge_pairs(rng, 10_500)
    strings = list(dict.fromkeys(s for pair in pairs for s in pair))
    index = {s: i for i, s in enumerate(strings)}
    a, b = np.array([index[p] for p, _ in pairs]), np.array([index[q] for _, q in pairs])
    lengths = np.array([len(tokenize(s)) for s in strings])
    assert (np.minimum(lengths[a], lengths[b]) > 64).sum() >= 1000  # the long path is met
    scorer = RougeScorer(["rougeL"], tokenizer=Tokenizer())
    expected = [scorer.score(p, q)["rougeL"].fmeasure for p, q in pairs]
    assert rouge_l_pairs(strings, a, b).tolist() == expected


def lcs_table_length(x, y):
    """The LCS length by the textbook table, a row at a time: row[j] = max(above[j],
    above[j - 1] + (x[i] == y[j]), row[j - 1]), the last by a running maximum."""
    y = np.array(y)
    above = np.zeros(len(y) + 1, np.int64)
    for token in x:
        step = np.maximum(above[1:], above[:-1] + (y == token))
        above = np.concatenate(([0], np.maximum.accumulate(step)))
    return int(above[-1])


def test_rouge_l_of_long_elements_is_exact_in_little_memory():
    """Two elements of 3,000 characters (Chinese, then English words), as a visitor may
    paste them: the F1 from the textbook LCS table, and under 4 MB allocated (rouge-score's
    table of Python ints took 267 MB and 54 s)."""
    import tracemalloc

    rng = random.Random(3)
    for alphabet, joiner in ((list("服务很好价格便宜环境不错"), ""), (["food", "good", "service", "bad", "price"], " ")):
        first = [rng.choice(alphabet) for _ in range(3000 // (len(joiner) + len(alphabet[0])))]
        second = edited(rng, first, alphabet)
        a, b = joiner.join(first), joiner.join(second)
        tracemalloc.start()
        got = rouge_l(a, b)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        lcs = lcs_table_length(tokenize(a), tokenize(b))
        precision, recall = lcs / len(tokenize(a)), lcs / len(tokenize(b))
        assert got == 2 * precision * recall / (precision + recall)
        assert peak < 4 << 20, peak
