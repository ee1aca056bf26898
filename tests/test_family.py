"""The layers over each family's statistics (compute, states, compare, rewards) give the
figures recorded before the families' statistics became one interface (issue 34)."""

import json
import math

import pytest

import interface_corpus

RECORDED = json.loads(interface_corpus.RECORDED.read_text(encoding="utf-8"))


def same(got, expected, where):
    """Equal, floats to the last bit (NaN and infinities recorded as text)."""
    if isinstance(expected, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(expected), f"{where}: keys {sorted(got)} != {sorted(expected)}"
        for key in expected:
            same(got[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), f"{where}: {got!r:.200} != {expected!r:.200}"
        for i, (g, e) in enumerate(zip(got, expected)):
            same(g, e, f"{where}[{i}]")
    elif isinstance(expected, float) or isinstance(got, float):
        assert isinstance(got, (int, float)) and (got == expected or (math.isnan(got) and math.isnan(expected))), f"{where}: {got!r} != {expected!r}"
    else:
        assert got == expected, f"{where}: {got!r} != {expected!r}"


@pytest.fixture(scope="module")
def now():
    return json.loads(json.dumps(interface_corpus._plain(interface_corpus.record())))


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_every_recorded_figure_is_unchanged(now, case):
    same(now[case], RECORDED[case], case)
