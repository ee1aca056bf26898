"""Rewards on junk (issue 39.11, and the audit of 39.5): every column of every reward
factory, one cell replaced by junk (None, a number, a list, a dict, a chat block whose text
is not text), gives a ValueError naming the column (or the completions) and the row, or a
reward per row in [0, 1] (None where the reference is None): never another exception,
which would stop a training run with no word of where."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import test_rewards
from paperscore import rewards

JUNK = [None, 5, 1.5, True, [], {}, "", "x", [None], [[None]], [1, 2], {"text": 5}, [{"role": "assistant", "content": [{"type": "text", "text": 5}]}], [{"role": "assistant", "content": 5}]]


def factories():
    rng = random.Random(1)
    gold = test_rewards.gold_texts(rng, 4)
    quads = [test_rewards.corrupt(rng, g, gold) for g in gold]
    sentences = {"source": ["他在学校读书", "我很高心", "天汽很好", "你好"], "reference": ["他在学校读书", "我很高兴", "天气很好", "你好"]}
    events = [test_rewards.event_example(rng) for _ in range(4)]
    event_columns = {"text": [e[0] for e in events], "positions": [e[1] for e in events], "labels": [e[2] for e in events]}
    examples = [test_rewards.rationale_example(rng) for _ in range(4)]
    rationale_columns = {"sources": [e[0] for e in examples], "reference": [e[1] for e in examples]}
    clusters = [[[[0, 0], [3, 3]]], [], [[[1, 2]]], [[[0, 1]], [[4, 4], [6, 6]]]]
    return {
        "quad_exact": (rewards.quad_reward("asqp_paraphrase"), quads, {"reference": gold}),
        "quad_optimal": (rewards.quad_reward("asqp_paraphrase", metric="optimal_f1"), quads, {"reference": gold}),
        "csc": (rewards.csc_reward(parse="csc_reply"), ["修改后：我很高兴", "天气很好", "", "你好"], sentences),
        "event": (rewards.event_reward(test_rewards.TYPES), [test_rewards.event_completion(rng, *e) for e in events], event_columns),
        "rationale": (rewards.rationale_reward("quotes_normalized"), [test_rewards.rationale_completion(rng, *e) for e in examples], rationale_columns),
        "coref": (rewards.coref_reward(json.loads), [json.dumps(c) for c in clusters], {"clusters": clusters}),
        "format": (rewards.format_reward("asqp_paraphrase"), quads, {}),
        "generic": (rewards.reward("quad_match", metric="exact_f1", similarity="exact"), ["a | b | c | POS"] * 4, {"reference": ["a | b | c | POS", "", "x | y | z | NEG", "a | b | c | NEG"]}),
    }


FACTORIES = factories()


@pytest.mark.parametrize("name", sorted(FACTORIES))
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_junk_in_any_column_is_refused_by_name_or_scored_in_range(name, data):
    reward, completions, columns = FACTORIES[name]
    columns = {key: list(values) for key, values in columns.items()}
    completions = list(completions)
    where = data.draw(st.sampled_from(["completions", *columns]), label="column")
    row = data.draw(st.integers(0, len(completions) - 1), label="row")
    junk = data.draw(st.sampled_from(JUNK), label="junk")
    (completions if where == "completions" else columns[where])[row] = junk
    try:
        got = reward(completions=completions, **columns)
    except ValueError as error:
        # a column of the reward (or the argument of compute it stands for) and the row
        assert str(error).startswith(("completions", "the dataset", "references", "predictions", "sources", *columns)), str(error)
        return
    assert len(got) == len(completions)
    assert all(value is None or 0.0 <= value <= 1.0 for value in got), got
