"""Hostile files (issue 39): released CoNLL-U (UD_English-GUM's Wikinews documents) and
DiaASQ (its Chinese test set) files with one spoiling edit each (a line dropped, doubled
or cut; a column or a field replaced by junk; the text cut anywhere) are refused by a
ValueError naming the input, or scored to figures that are numbers (in [0, 1] for
DiaASQ's table); never another exception, and each within seconds."""

import functools
import gzip
import json
import math
import time

import pytest
from conftest import DATA
from hypothesis import given, settings, strategies as st

from paperscore import corefud, quad

JUNK = ["", "_", "x", "-1", "0", "99999999999999999999", "(", ")", "Entity=(", "Entity=)", "Entity=(e1", "Entity=e1)", "é", "\u3000", "1-2", "1.1", "\t", "#", "|"]
SECONDS = 10  # per call: far above what a file of this size takes (a few hundred ms)


@functools.lru_cache(maxsize=1)
def gum():
    with gzip.open(DATA / "corefud" / "gum_dev_news.conllu.gz", "rt", encoding="utf-8") as handle:
        return handle.read()


@functools.lru_cache(maxsize=1)
def diaasq():
    return json.loads((DATA / "quad_match" / "diaasq_zh_test.json").read_text(encoding="utf-8"))[:40]


def spoiled_conllu(data):
    lines = gum().split("\n")
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    edit = data.draw(st.sampled_from(["drop", "double", "cut", "column", "truncate"]), label="edit")
    if edit == "drop":
        del lines[i]
    elif edit == "double":
        lines.insert(i, lines[i])
    elif edit == "cut":
        lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])), label="at")]
    elif edit == "column":
        columns = lines[i].split("\t")
        columns[data.draw(st.integers(0, len(columns) - 1), label="column")] = data.draw(st.sampled_from(JUNK), label="junk")
        lines[i] = "\t".join(columns)
    else:
        text = "\n".join(lines)
        return text[: data.draw(st.integers(0, len(text)), label="at")]
    return "\n".join(lines)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), side=st.sampled_from(["predictions", "references"]), matching=st.sampled_from(["head", "exact", "partial"]))
def test_a_spoiled_conllu_file_is_refused_by_name_or_scored(data, side, matching):
    spoiled = spoiled_conllu(data)
    texts = {"predictions": gum(), "references": gum(), side: spoiled}
    started = time.perf_counter()
    try:
        result = corefud.compute(texts["predictions"], texts["references"], matching=matching)
    except ValueError as error:
        assert str(error).startswith(("predictions", "references")), str(error)
        return
    finally:
        assert time.perf_counter() - started < SECONDS
    assert all(isinstance(v, float) and math.isfinite(v) for v in result.values())


JSON_JUNK = [None, -1, 10**9, 1.5, "", "x", [], {}, [None], [[1, 2]], [1, 2, 3, 4, 5, 6, "pos", "a", "b"], True]


def spoiled_dialogues(data):
    dialogues = json.loads(json.dumps(diaasq()))
    d = dialogues[data.draw(st.integers(0, len(dialogues) - 1), label="dialogue")]
    key = data.draw(st.sampled_from(sorted(d)), label="key")
    edit = data.draw(st.sampled_from(["delete", "replace", "element"]), label="edit")
    if edit == "delete":
        del d[key]
    elif edit == "replace" or not isinstance(d[key], list) or not d[key]:
        d[key] = data.draw(st.sampled_from(JSON_JUNK), label="junk")
    else:
        item = data.draw(st.integers(0, len(d[key]) - 1), label="item")
        if isinstance(d[key][item], list) and d[key][item]:
            d[key][item][data.draw(st.integers(0, len(d[key][item]) - 1), label="field")] = data.draw(st.sampled_from(JSON_JUNK), label="junk")
        else:
            d[key][item] = data.draw(st.sampled_from(JSON_JUNK), label="junk")
    return dialogues


@settings(max_examples=60, deadline=None)
@given(data=st.data(), side=st.sampled_from(["predictions", "references"]))
def test_a_spoiled_diaasq_file_is_refused_by_name_or_scored_in_range(data, side):
    spoiled = spoiled_dialogues(data)
    given = {"predictions": diaasq(), "references": diaasq(), side: spoiled}
    started = time.perf_counter()
    try:
        result = quad.compute(given["predictions"], given["references"], convention="diaasq")
    except ValueError as error:
        assert str(error).startswith(("predictions", "references")), str(error)
        return
    finally:
        assert time.perf_counter() - started < SECONDS
    assert all(0 <= v <= 1 for v in result.values()), result


@pytest.mark.parametrize("text", ["", "\n", "# newdoc id = x\n", "1\tx\n", "\ufeff" + "# sent_id = 1\n1\ta\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1)\n\n"])
def test_degenerate_conllu_texts_are_refused_or_scored(text):
    try:
        result = corefud.compute(text, text)
    except ValueError as error:
        assert str(error).startswith(("predictions", "references")), str(error)
        return
    assert all(isinstance(v, float) for v in result.values())
