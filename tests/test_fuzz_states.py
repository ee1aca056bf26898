"""States read from JSON that someone else wrote (issue 39.4): a tampered state is refused
by name (ValueError) or reads as statistics some corpus could give: every figure in [0, 1]
(NaN only under zero_division="nan"), its intervals too. Each family's state of a fixed
corpus (tests/interface_corpus.py) is tampered at one place: a count or sum replaced by a
negative number, a float, a string of digits, a huge number, NaN, a boolean, null, a list;
a key removed; a kept row changed so that the rows no longer add up to the sums."""

import functools
import json
import math

import pytest
from hypothesis import given, settings, strategies as st

import interface_corpus
from paperscore import state

CASES = ["micro_macro/plain", "micro_macro/sequences_maven", "micro_macro/spans_textee", "quad_match/plain", "quad_match/diaasq", "quad_match/exact_set_implicit", "csc_sighan/plain", "csc_common/all", "coref_conll/plain", "corefud/head", "rationale_f1/soft_topk", "rationale_f1/parse", "faithfulness/aopc"]
BAD = [-1, 0, 1, 7, 2**63, 2**62, "7", "nan", "inf", "-inf", None, True, 1.5, -0.5, 1e300, [], {}, [1, 2], "x"]


@functools.lru_cache(maxsize=1)
def all_states():
    corpora = interface_corpus._corpora()
    out = {}
    for case in CASES:
        family, options, inputs = corpora[case]
        name = interface_corpus.STATE_FAMILY.get(family, family)
        if family == "faithfulness":
            s = state.new(name, **options).update(**inputs["faithfulness"])
        else:
            extra = {k: inputs[k] for k in interface_corpus.EXTRA if k in inputs}
            s = state.new(name, keep_rows=True, **options).update(inputs["predictions"], inputs["references"], **extra)
        out[case] = json.loads(json.dumps(s.to_dict()))
    return out


@pytest.fixture(scope="module", autouse=True)
def made_before_any_example():
    all_states()  # the corpora's own generators are hypothesis-free, but made once, outside @given


def places(value, path=()):
    """Every (path, value) inside a JSON value."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from places(item, (*path, i))


def tampered(data, path, bad):
    data = json.loads(json.dumps(data))
    *head, last = path
    holder = data
    for key in head:
        holder = holder[key]
    if bad == "delete" and isinstance(holder, dict):
        del holder[last]
    else:
        holder[last] = bad
    return data


def in_range(result, nan_allowed):
    for key, value in result.items():
        if isinstance(value, float) and not (0 <= value <= 1 or (nan_allowed and math.isnan(value))):
            return f"{key} = {value!r}"
    return None


@pytest.mark.parametrize("case", CASES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_tampered_state_is_refused_or_reads_in_range(case, data):
    original = all_states()[case]
    spots = [(path, value) for path, value in places(original) if path and path[0] not in ("format", "family")]
    path, _ = data.draw(st.sampled_from(spots), label="place")
    bad = data.draw(st.sampled_from(BAD + ["delete"]), label="value")
    broken = tampered(original, path, bad)
    try:
        loaded = state.from_dict(broken)
        result = loaded.compute()
        if loaded.keep_rows:
            result |= loaded.compute(confidence_level=0.9, n_resamples=20, seed=1)
    except ValueError:
        return
    if case.startswith("faithfulness"):  # differences of probabilities: no [0, 1] bound
        return
    problem = in_range(result, loaded.options.get("zero_division") != loaded.options.get("zero_division"))
    assert problem is None, f"{case}: {path} = {bad!r} read as a state giving {problem}"


def test_the_tampering_the_issue_names():
    """Hits above predicted, a float sum as a string, a negative sum, kept rows that
    disagree with the sums: each refused by name."""
    quad = all_states()["quad_match/plain"]
    with pytest.raises(ValueError, match="exact hits above"):  # counts: n, m, exact_hits, exact_n, exact_m, repeated, samples
        state.from_dict({**quad, "counts": [quad["counts"][0], quad["counts"][1], quad["counts"][3] + 5, *quad["counts"][3:]]})
    with pytest.raises(ValueError, match=r"terms\[0\]: '7' is not a number"):
        state.from_dict({**quad, "terms": ["7", quad["terms"][1]]})
    with pytest.raises(ValueError, match="not a finite non-negative number"):
        state.from_dict({**quad, "terms": [-1.0, quad["terms"][1]]})
    rows = json.loads(json.dumps(quad["table"]))
    rows[0][1] += 1  # one more predicted quad in a kept row than the sums hold
    with pytest.raises(ValueError, match="kept rows do not add up to the sums"):
        state.from_dict({**quad, "table": rows})
    with pytest.raises(ValueError, match="the state has no 'counts'"):
        state.from_dict({k: v for k, v in quad.items() if k != "counts"})


def test_versions_are_carried_and_parsers_named_by_version():
    data = all_states()["quad_match/plain"]
    assert data["paperscore"] == state.VERSION
    older = state.from_dict({**data, "paperscore": "0.0.9"})
    with pytest.raises(ValueError, match="made by paperscore 0.0.9, argument 1 by"):
        state.merge(state.from_dict(data), older)
    named = state.new("quad_match", parse="asqp_paraphrase")
    assert named.options["parse"] == "asqp_paraphrase@1"
    assert state.merge(named, state.new("quad_match", parse="asqp_paraphrase@1")).options["parse"] == "asqp_paraphrase@1"  # one parser named two ways
    with pytest.raises(ValueError, match="format 1 states"):
        state.from_dict({**data, "format": 1})


def test_all_reduce_without_a_process_group_returns_the_state():
    """`python train.py` with the README's accelerate recipe: one process, no group."""
    import torch.distributed  # noqa: F401  (a test requirement)
    s = state.new("micro_macro").update([1, 2], [1, 1])
    assert state.all_reduce(s) is s
