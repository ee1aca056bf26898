"""CorefUD matching (paperscore.corefud) against ufal/corefud-scorer's own figures
(tests/data/corefud/: the scorer run in place on its CorefUD test files and on random
perturbations, see the README there), against udapi's reading, and by hand."""

import gc
import re
import gzip
import tempfile
import json
from pathlib import Path

import numpy as np
import pytest

import corefud_cases
import corefud_gum
from conftest import choose, open_page
from paperscore import corefud

DATA = Path(__file__).parent / "data" / "corefud"
# The fixture's metrics, in the order of our rows' columns (the scorer's -m all, mor and zero last).
ORDER = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor", "zero")


@pytest.fixture(scope="session")
def reference():
    with gzip.open(DATA / "reference.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="session")
def scorer_files():
    with gzip.open(DATA / "scorer_tests.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def ours(key, response, setting):
    _, rows = corefud.statistics(key, response, *setting)
    return rows.sum(0)


def expected(counts):
    return np.array([v for metric in ORDER for v in counts[metric]])


def check(key, response, entry):
    if entry["counts"] == "fails":  # the scorer divides by zero: refused with a reason here
        with pytest.raises(ValueError, match="enhanced dependencies"):
            ours(key, response, entry["setting"])
        return 1
    np.testing.assert_allclose(ours(key, response, entry["setting"]), expected(entry["counts"]), rtol=1e-9, atol=1e-9, err_msg=str(entry.get("case", entry.get("response"))))
    return 0


def test_scorer_test_files(reference, scorer_files):
    """The scorer's 133 CorefUD test pairs, each under all 12 settings (matching x
    singletons x zero matching): 1,596 runs."""
    assert reference["commit"].startswith("4fd7b0e")
    assert len(reference["public"]) == 1596
    read = {name: corefud.read_conllu(text, name) for name, text in scorer_files.items()}
    fails = sum(check(read[e["key"]], read[e["response"]], e) for e in reference["public"])
    assert 0 < fails < 200  # zeros without DEPS under dependent matching


def test_random_perturbations(reference):
    """2,400 random key/response pairs (shifted spans, moved and dropped heads, split and
    merged entities, dropped and added zeros, repeated spans), 200 per setting."""
    assert len(reference["random"]) == 2400
    settings = set()
    for entry in reference["random"]:
        key, response = corefud_cases.case(entry["case"])
        assert (corefud_cases.digest(key), corefud_cases.digest(response)) == (entry["key_sha"], entry["response_sha"]), "the case generator changed: rerun make_fixtures.py"
        check(corefud.read_conllu(key), corefud.read_conllu(response), entry)
        settings.add(tuple(entry["setting"]))
    assert len(settings) == 12


def test_scorer_output(scorer_files):
    """--corefud-output prints what corefud-scorer.py prints, character for character, on
    4,124 runs of it (tests/data/corefud/scorer_output.json.gz): every public pair under
    every setting (-m all), under two settings with each metric alone, and 400 random cases."""
    with gzip.open(DATA / "scorer_output.json.gz", "rt", encoding="utf-8") as f:
        runs = json.load(f)
    assert len(runs) == 4124
    read = {name: corefud.read_conllu(text, name) for name, text in scorer_files.items()}
    columns = dict(zip(ORDER, np.split(np.arange(sum(corefud.WIDTH.values())), np.cumsum([corefud.WIDTH[m] for m in ORDER])[:-1])))
    totals, compared = {}, 0
    for run in runs:
        if run["stdout"] == "fails":  # zeros without DEPS: refused here (test_scorer_test_files)
            continue
        pair = run.get("case", (run.get("key"), run.get("response")))
        if (pair, tuple(run["setting"])) not in totals:  # every metric's counts, once a pair and setting
            key, response = map(corefud.read_conllu, corefud_cases.case(pair)) if "case" in run else (read[pair[0]], read[pair[1]])
            totals[pair, tuple(run["setting"])] = corefud.statistics(key, response, *run["setting"])[1].sum(0)
        metrics = corefud.METRICS if run["metrics"] == ["all"] else run["metrics"]
        chosen = totals[pair, tuple(run["setting"])][np.concatenate([columns[m] for m in ORDER if m in metrics])]
        result = {k: float(v) for k, v in corefud.scores(chosen, 0.0, metrics).items()}
        printed = corefud.scorer_output(result, "all" if run["metrics"] == ["all"] else run["metrics"], *run["setting"])
        assert printed + "\n" == run["stdout"], run
        compared += 1
    assert compared > 3900


def _udapi_mentions(text):
    """Per document name, per entity, (sorted words, head) as the scorer sees them via udapi."""
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document

    doc = Document()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "file.conllu"
        path.write_text(text, encoding="utf-8")
        Conllu(files=[str(path)]).apply_on_document(doc)
    number, docs, name = 0, {}, None
    tree_doc = {}
    for tree in doc.trees:
        if tree.newdoc:
            number += 1
            name = tree.newdoc if tree.newdoc is not True else number
            docs[name] = {}
        for node in tree.descendants_and_empty:
            tree_doc[node] = name

    def position(node):
        return (node.root.bundle.number, node.ord)

    for entity in doc.coref_entities:
        for m in entity.mentions:
            words = tuple(sorted(position(w) for w in m.words))
            docs[tree_doc[m.words[0]]].setdefault(entity.eid, []).append((words, position(m.head)))
    return docs


def test_reader_equals_udapi(scorer_files, monkeypatch):
    """Mentions, heads, entity and mention order equal udapi 0.5.2's on every scorer test
    file and on 100 random keys and responses."""
    monkeypatch.setattr(gc, "collect", lambda *a, **k: 0)  # udapi collects after every file: time only
    texts = list(scorer_files.values())
    for number in range(100):
        texts += list(corefud_cases.case(number))
    for text in texts:
        ours_docs = {name: {eid: [(m.words, m.head) for m in ms] for eid, ms in entities} for name, entities in corefud.read_conllu(text).documents}
        theirs = _udapi_mentions(text)
        assert ours_docs == theirs
        assert [list(d) for d in ours_docs.values()] == [list(d) for d in theirs.values()]  # entity order


def test_gum_reader_equals_udapi(monkeypatch):
    """A released CorefUD file: two whole documents of UD_English-GUM dev (GRP ids, numbered
    per document, no heads, multiword tokens) and responses of every perturbation kind read
    as udapi 0.5.2 reads them: the same mentions, first-word heads and entity order (udapi's
    own GRP prefixes differ from file to file, so entities are compared in order)."""
    monkeypatch.setattr(gc, "collect", lambda *a, **k: 0)
    # GRP 1 and 2 in two documents, in opposite order: four entities, each document's in its own order
    row = "{}\tw\t_\t_\t_\t_\t0\t_\t_\tEntity=({}-x)"
    doc = "# newdoc id = {}\n# global.Entity = GRP-etype\n# sent_id = {}\n" + row.format(1, "{}") + "\n" + row.format(2, "{}") + "\n\n"
    two = doc.format("a", "a1", 2, 1) + doc.format("b", "b1", 1, 2)
    assert [[m.words for _, ms in entities for m in ms] for _, entities in corefud.read_conllu(two).documents] == [[((1, 1),), ((1, 2),)], [((2, 1),), ((2, 2),)]]
    for number in [two] + list(range(1 + len(corefud_gum.KINDS))):
        text = corefud_gum.response(number) if isinstance(number, int) else number
        ours_docs = {name: [[(m.words, m.head) for m in ms] for _, ms in entities] for name, entities in corefud.read_conllu(text).documents}
        assert ours_docs == {name: list(entities.values()) for name, entities in _udapi_mentions(text).items()}, number
    assert [len(entities) for entities in ours_docs.values()] != [0, 0]


@pytest.mark.parametrize("fields", ["GRP-eid-etype", "etype-head"])
def test_entity_id_field(fields):
    text = f"# newdoc id = a\n# global.Entity = {fields}\n1\tw\t_\t_\t_\t_\t0\t_\t_\tEntity=(1-x)\n\n"
    with pytest.raises(ValueError, match="exactly one of the fields eid and GRP"):
        corefud.read_conllu(text)


def test_gum_documents():
    """ufal/corefud-scorer's counts on the GUM documents (tests/data/corefud/gum_*, made by
    tests/corefud_gum.py): the key against itself and 32 perturbations of it, under matching
    exact / partial / head with singletons removed and kept: 198 runs."""
    with gzip.open(DATA / "gum_reference.json.gz", "rt", encoding="utf-8") as f:
        fixture = json.load(f)
    assert fixture["commit"].startswith("4fd7b0e")
    key_text = corefud_gum.key_text()
    assert corefud_gum.digest(key_text) == fixture["key_sha"]
    key = corefud.read_conllu(key_text, "key")
    assert len(fixture["runs"]) == corefud_gum.N_RESPONSES * len(corefud_gum.SETTINGS)
    read = {}
    for entry in fixture["runs"]:
        assert entry["counts"] != "fails"
        if entry["response"] not in read:
            text = corefud_gum.response(entry["response"])
            assert corefud_gum.digest(text) == entry["sha"], "the response generator changed: rerun tests/corefud_gum.py"
            read[entry["response"]] = corefud.read_conllu(text, "response")
        check(key, read[entry["response"]], entry)
    # the key against itself scores 100; most perturbations do not
    perfect = [entry["response"] for entry in fixture["runs"] if entry["counts"]["muc"][0] == entry["counts"]["muc"][1]]
    assert perfect.count(0) == 6 and len(perfect) < len(fixture["runs"]) / 2


# A hand example. Key: "the big dog barked ; it ran": entity e1 = {the big dog (head dog), it}.
# Response: e1 = {big dog (head dog), it}.
#   exact:   "big dog" != "the big dog": MUC R = (2 - 1 - 1 linked... ) -> the key entity keeps
#            one found mention ("it"), so MUC R = (2 - 1 unfound - 1 entity) / 1 = 0; P likewise 0.
#   partial: "big dog" lies inside "the big dog" and holds its head "dog": matched; MUC 1/1.
#   head:    the heads are the same word: matched; MUC 1/1.
KEY = """# newdoc id = d
# global.Entity = eid-etype-head-other
# sent_id = s1
1\tthe\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-3-
2\tbig\t_\t_\t_\t_\t0\t_\t_\t_
3\tdog\t_\t_\t_\t_\t0\t_\t_\tEntity=e1)
4\tbarked\t_\t_\t_\t_\t0\t_\t_\t_
5\t;\t_\t_\t_\t_\t0\t_\t_\t_
6\tit\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-1-)
7\tran\t_\t_\t_\t_\t0\t_\t_\t_
"""
RESPONSE = KEY.replace("Entity=(e1-x-3-", "_").replace("2\tbig\t_\t_\t_\t_\t0\t_\t_\t_", "2\tbig\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-x-2-")


@pytest.mark.parametrize("matching, muc", [("exact", 0.0), ("partial", 1.0), ("head", 1.0)])
def test_matching_by_hand(matching, muc):
    result = corefud.compute(RESPONSE, KEY, matching=matching)
    assert result["muc_recall"] == muc and result["muc_precision"] == muc


def test_head_needs_the_same_head():
    # The response's "big dog" now has head "big": head matching fails, partial still
    # matches ("big dog" inside the key mention, holding its head "dog").
    response = RESPONSE.replace("Entity=(e1-x-2-", "Entity=(e1-x-1-")
    assert corefud.compute(response, KEY, matching="head")["muc_f1"] == 0.0
    assert corefud.compute(response, KEY, matching="partial")["muc_f1"] == 1.0


def test_singletons_removed_by_default():
    # A twinless response singleton "barked" is ignored unless kept. Kept, B3 precision sums
    # per response entity (mentions found in one key entity)^2 / size: {the big dog, it}
    # gives 2^2/2 = 2, {barked} gives 0; over 3 response mentions, 2/3.
    response = KEY.replace("4\tbarked\t_\t_\t_\t_\t0\t_\t_\t_", "4\tbarked\t_\t_\t_\t_\t0\t_\t_\tEntity=(e2-x-1-)")
    assert corefud.compute(response, KEY, matching="exact")["bcub_precision"] == 1.0
    assert corefud.compute(response, KEY, matching="exact", keep_singletons=True)["bcub_precision"] == pytest.approx(2 / 3)


@pytest.mark.parametrize("matching", corefud.MATCHING)
def test_mor_by_hand(matching):
    # MOR pairs mentions one to one for the most shared words, whatever the matching:
    # key {the big dog, it} (4 words), response {big dog, it} (3 words); the pairs share
    # 2 + 1 = 3 words: recall 3/4, precision 3/3.
    result = corefud.compute(RESPONSE, KEY, matching=matching, metrics=["mor"], return_counts=True)
    assert result["counts"]["mor"] == {"recall": [3.0, 4.0], "precision": [3.0, 3.0]}
    assert (result["mor_recall"], result["mor_precision"], result["mor_f1"]) == (0.75, 1.0, pytest.approx(2 * 0.75 / 1.75))


def zero_document(cells):
    """Two sentences, "Mary came ." and "sang _ .", the empty node 2:1.1 a dropped subject
    (DEPS 1:nsubj); cells: {(sentence, node id): Entity value}."""
    rows = {1: [("1", "Mary"), ("2", "came"), ("3", ".")], 2: [("1", "sang"), ("1.1", "_"), ("2", ".")]}
    lines = ["# newdoc id = z", "# global.Entity = eid-etype-head-other"]
    for s, nodes in rows.items():
        lines.append(f"# sent_id = z{s}")
        for node, form in nodes:
            misc = f"Entity={cells[(s, node)]}" if (s, node) in cells else "_"
            head, deps = ("_", "1:nsubj") if "." in node else ("0", "_")
            lines.append(f"{node}\t{form}\t_\t_\t_\t_\t{head}\t_\t{deps}\t{misc}")
        lines.append("")
    return "\n".join(lines) + "\n"


ZERO_KEY = zero_document({(1, "1"): "(e1-x-1-)", (2, "1.1"): "(e1-x-1-)"})  # e1 = {Mary, zero}: the zero an anaphor


@pytest.mark.parametrize(
    "cells, counts",
    [
        # the same: the key zero's counterpart (itself) follows Mary's entity: right, 1/1 1/1
        ({(1, "1"): "(e1-x-1-)", (2, "1.1"): "(e1-x-1-)"}, ([1, 1], [1, 1])),
        # the zero joins "sang" (e2, "sang" first in text), not Mary's entity: a wrong link,
        # counted in both denominators: 0/1 0/1
        ({(1, "1"): "(e1-x-1-)", (1, "2"): "(e1-x-1-)", (2, "1"): "(e2-x-1-)", (2, "1.1"): "(e2-x-1-)"}, ([0, 1], [0, 1])),
        # the zero first in its response entity {zero, "."}: missing (recall 0/1), and a
        # response first mention is no spurious anaphor (precision 0/0)
        ({(1, "1"): "(e2-x-1-)", (1, "2"): "(e2-x-1-)", (2, "1.1"): "(e1-x-1-)", (2, "2"): "(e1-x-1-)"}, ([0, 1], [0, 0])),
    ],
)
@pytest.mark.parametrize("zero_matching", corefud.ZERO_MATCHING)
def test_zero_by_hand(cells, counts, zero_matching):
    result = corefud.compute(zero_document(cells), ZERO_KEY, zero_matching=zero_matching, metrics=["zero"], return_counts=True)
    assert result["counts"]["zero"] == {"recall": [float(n) for n in counts[0]], "precision": [float(n) for n in counts[1]]}


def test_zero_spurious_by_hand():
    # key e1 = {Mary, sang}: no zero anaphor (recall 0/0); the response's e1 = {Mary, zero}
    # makes the zero a response anaphor that no key zero claims: spurious, precision 0/1.
    key = zero_document({(1, "1"): "(e1-x-1-)", (2, "1"): "(e1-x-1-)"})
    result = corefud.compute(ZERO_KEY, key, metrics=["zero"], return_counts=True)
    assert result["counts"]["zero"] == {"recall": [0.0, 0.0], "precision": [0.0, 1.0]}


def test_batch_rows_equal_alone():
    """Each file's documents score in a batch exactly as alone."""
    pairs = [corefud_cases.case(n) for n in range(40)]
    batch = corefud.compute([r for _, r in pairs], [k for k, _ in pairs], per_document=True)
    at = 0
    for key, response in pairs:
        alone = corefud.compute(response, key, per_document=True)["per_document"]
        for entry in alone:
            assert {k: v for k, v in batch["per_document"][at].items() if k != "document"} == {k: v for k, v in entry.items() if k != "document"}
            at += 1
    assert at == len(batch["per_document"])


def test_metrics_chosen_are_their_columns():
    """statistics(metrics=...) gives exactly the chosen metrics' columns of the full rows."""
    widths = {"blanc": 8}
    for number in range(30):
        key, response = corefud_cases.case(number)
        full = corefud.statistics(key, response, "partial", True, "linear")[1]
        at = 0
        for metric in ORDER:
            width = widths.get(metric, 4)
            part = corefud.statistics(key, response, "partial", True, "linear", metrics=(metric,))[1]
            np.testing.assert_array_equal(part, full[:, at : at + width])
            at += width
        assert at == full.shape[1]


def test_macro_average():
    # CRAC's table: the plain mean of the datasets' CoNLL F1, (0.5 + 0.7 + 0.9) / 3 = 0.7.
    results = {"a": {"conll_f1": 0.5}, "b": {"conll_f1": 0.7}, "c": {"conll_f1": 0.9}}
    assert corefud.macro_average(results) == {"conll_f1": pytest.approx(0.7)}
    with pytest.raises(ValueError, match=r"results\[1\]: has no 'conll_f1'"):
        corefud.macro_average([{"conll_f1": 1.0}, {}])


def test_crac_table(reference, scorer_files):
    """The CRAC 2024 results table (four CoNLL F1 columns, macro-averaged over datasets) in
    one call equals the scorer's counts (tests/data/corefud) under the four settings, each
    scorer test pair standing for a dataset: CoNLL F1 = mean of the MUC, B3, CEAFe F1."""
    columns = {"head_match": ["head", False], "partial_match": ["partial", False], "exact_match": ["exact", False], "with_singletons": ["head", True]}
    counts = {(e["key"], e["response"], tuple(e["setting"])): e["counts"] for e in reference["public"]}
    pairs = [("exact-match/TC-A.key", "exact-match/TC-A-13.response"), ("head-match/TC-HMA.key", "head-match/TC-HMA-3.response"), ("partial-corefud-match/overlapping_mentions/TC-OLMC.key", "partial-corefud-match/overlapping_mentions/TC-OLMC-3.response"), ("zeros/TC-ZD.key", "zeros/TC-ZD-2.response")]
    expected = {}
    for key, response in pairs:
        found = [counts[(key, response, (*setting, "dependent"))] for setting in columns.values()]
        expected[response] = {column: sum(_f1(c[m]) for m in ("muc", "bcub", "ceafe")) / 3 for column, c in zip(columns, found)}
    assert len({v for row in expected.values() for v in row.values()}) > 3  # the columns differ
    table = corefud.crac_table({response: (scorer_files[response], scorer_files[key]) for key, response in pairs})
    assert list(table["datasets"]) == list(expected)
    for name, row in expected.items():
        assert table["datasets"][name] == pytest.approx(row, abs=1e-12), name
    for column in columns:
        assert table["macro_average"][column] == pytest.approx(sum(row[column] for row in expected.values()) / len(pairs), abs=1e-12)
    with pytest.raises(ValueError, match=r"datasets\['a'\]: expected \(predictions, references\)"):
        corefud.crac_table({"a": KEY})
    with pytest.raises(ValueError, match=r"datasets\['a'\] predictions\[0\]: sentence 1: words"):
        corefud.crac_table({"a": (RESPONSE.replace("\tran\t", "\twalked\t"), KEY)})


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t.replace("Entity=e1)", "_"), "opened but never closed"),
        (lambda t: t.replace("# newdoc id = d\n", ""), "no '# newdoc'"),
        (lambda t: t.replace("Entity=(e1-x-2-", "Entity=(e1-x-9-"), "head index 9"),
        (lambda t: t.replace("\t_\tEntity=(e1-x-1-)", "\tEntity=(e1-x-1-)"), "columns"),
        (lambda t: t.replace("# global.Entity = eid-etype-head-other\n", ""), "global.Entity"),
    ],
)
def test_bad_files_refused(edit, message):
    with pytest.raises(ValueError, match=message):
        corefud.compute(edit(RESPONSE), KEY)
    with pytest.raises(ValueError, match=message):
        corefud.compute(KEY, edit(RESPONSE))


@pytest.mark.parametrize("node", ["x", "4.x", "", "four"])
def test_a_node_id_that_is_no_number_is_named_with_its_line(node, tmp_path, capsys):
    """A word id `x` (line 7 of KEY: two header lines, a sent_id, then words 1 to 4): the
    file and line are named, in compute() and from the command line."""
    from paperscore.cli import main

    bad = KEY.replace("4\tbarked", f"{node}\tbarked")
    message = f"line 7: node id {node!r} is not a number"
    with pytest.raises(ValueError, match="^predictions: " + re.escape(message)):
        corefud.compute(bad, KEY)
    (tmp_path / "key.conllu").write_text(KEY, encoding="utf-8")
    (tmp_path / "bad.conllu").write_text(bad, encoding="utf-8")
    assert main(["coref", str(tmp_path / "key.conllu"), str(tmp_path / "bad.conllu"), "--format", "conllu"]) == 1
    assert f"RESPONSE: {tmp_path / 'bad.conllu'}: {message}" in capsys.readouterr().err


def test_misaligned_files_refused():
    with pytest.raises(ValueError, match=r"predictions: sentence 1: words"):
        corefud.compute(RESPONSE.replace("\tran\t", "\twalked\t"), KEY)
    with pytest.raises(ValueError, match="matching"):
        corefud.compute(RESPONSE, KEY, matching="fuzzy")


def test_coref_compute_hook():
    """coref.compute takes CoNLL-U and matching=; exact is its default, singletons kept as
    the family keeps them (the hand example: head matching finds "big dog" = "the big dog")."""
    from paperscore import coref

    assert coref.compute([RESPONSE], [KEY])["muc_f1"] == 0.0
    assert coref.compute([RESPONSE], [KEY], matching="head")["muc_f1"] == 1.0
    both = coref.compute([RESPONSE], [KEY], matching="head", keep_singletons=False, metrics=["muc", "bcub", "ceafe"], return_signature=True)
    assert set(both) == {"muc_recall", "muc_precision", "muc_f1", "bcub_recall", "bcub_precision", "bcub_f1", "ceafe_recall", "ceafe_precision", "ceafe_f1", "conll_f1", "signature"}
    assert "matching:head" in both["signature"] and "keep_singletons:no" in both["signature"]
    with pytest.raises(ValueError, match="matching='head' needs CoNLL-U"):
        coref.compute([[[[0, 1]]]], [[[[0, 1]]]], matching="head")
    with pytest.raises(ValueError, match="mixed"):
        coref.compute([RESPONSE], [[[[0, 1]]]])
    with pytest.raises(ValueError, match="convention"):
        coref.compute([RESPONSE], [KEY], convention="e2e_coref")
    for coval_option in ("remove_nested", "NP_only", "min_span"):  # coval's CoNLL-2012 options
        with pytest.raises(ValueError, match=coval_option):
            coref.compute([RESPONSE], [KEY], **{coval_option: True})


def test_compare_on_mor():
    """paperscore compare on the scorer's MOR: A (RESPONSE) has MOR F1 2(3/4)/(7/4) = 6/7
    (test_mor_by_hand), B (the KEY itself) 1, on every document."""
    from paperscore import compare

    with pytest.warns(UserWarning, match="differ on 3 of the 3 examples"):
        result = compare.compare("coref", [KEY] * 3, [RESPONSE] * 3, [KEY] * 3, metrics=["mor"], metric_key="mor_f1", n_resamples=50, seed=0, matching="head")
    assert (result["score_a"], result["score_b"]) == (pytest.approx(6 / 7), 1.0)
    assert "|matching:head|metrics:mor|" in result["signature"]


def test_cli(tmp_path):
    import subprocess
    import sys

    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(KEY, encoding="utf-8")
    response.write_text(RESPONSE, encoding="utf-8")
    run = [sys.executable, "-m", "paperscore", "coref", str(key), str(response), "--format", "conllu", "--json"]
    head = json.loads(subprocess.run(run + ["--matching", "head"], capture_output=True, text=True, check=True).stdout)
    exact = json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout)
    assert (head["muc_f1"], exact["muc_f1"]) == (1.0, 0.0)
    assert head["counts"]["muc"] == {"recall": [1.0, 1.0], "precision": [1.0, 1.0]}
    refused = subprocess.run(run[:6] + ["--matching", "head"], capture_output=True, text=True)
    assert refused.returncode != 0 and "--format conllu" in refused.stderr
    coval = subprocess.run(run + ["--remove-nested"], capture_output=True, text=True)
    assert coval.returncode != 0 and "--remove-nested" in coval.stderr
    # the scorer's mor and zero (test_mor_by_hand: recall 3/4, precision 3/3)
    mor = json.loads(subprocess.run(run + ["--metric", "mor"], capture_output=True, text=True, check=True).stdout)
    assert mor["counts"] == {"mor": {"recall": [3.0, 4.0], "precision": [3.0, 3.0]}} and "conll_f1" not in mor
    assert "zero_f1" in head and "mor_f1" in head  # --metric all: the scorer's -m all
    refused = subprocess.run(run[:6] + ["--metric", "zero"], capture_output=True, text=True)
    assert refused.returncode != 0 and "--metric zero needs --format conllu" in refused.stderr


def test_cli_corefud_output(tmp_path, scorer_files):
    """--corefud-output: the scorer's own standard output (tests/data/corefud/scorer_output),
    here for its TC-ZD test pair, partial matching, singletons removed, zeros by position."""
    import subprocess
    import sys

    with gzip.open(DATA / "scorer_output.json.gz", "rt", encoding="utf-8") as f:
        runs = json.load(f)
    printed = {(r["response"], tuple(r["setting"]), tuple(r["metrics"])): r["stdout"] for r in runs if "response" in r}
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(scorer_files["zeros/TC-ZD.key"], encoding="utf-8")
    response.write_text(scorer_files["zeros/TC-ZD-2.response"], encoding="utf-8")
    run = [sys.executable, "-m", "paperscore", "coref", str(key), str(response), "--format", "conllu", "--corefud-output", "--matching", "partial", "--zero-matching", "linear", "--remove-singletons"]
    setting = ("partial", False, "linear")
    for metric in ("all", "zero"):
        out = subprocess.run(run + ["--metric", metric], capture_output=True, text=True, check=True).stdout
        assert out == printed["zeros/TC-ZD-2.response", setting, (metric,)]
        assert ("CoNLL score: " in out) == (metric == "all")
    refused = subprocess.run(run + ["--zero-division", "1"], capture_output=True, text=True)
    assert refused.returncode != 0 and "leave --zero-division 0" in refused.stderr
    refused = subprocess.run(run[:6] + ["--corefud-output"], capture_output=True, text=True)
    assert refused.returncode != 0 and "--corefud-output needs --format conllu" in refused.stderr


def _f1(counts):
    recall, precision = counts[0] / counts[1] if counts[1] else 0.0, counts[2] / counts[3] if counts[3] else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@pytest.mark.parametrize("matching", corefud.MATCHING)
def test_the_demo_scores_conllu_under_the_chosen_matching(matching, reference, scorer_files):
    """The coref_conll demo with CorefUD CoNLL-U in its boxes: the headline CoNLL F1 is
    corefud-scorer's (its counts, run in place: tests/data/corefud), named with the matching."""
    import gradio as gr
    from conftest import load_app

    app = load_app("coref_conll")
    assert app.corefud.MATCHING == corefud.MATCHING
    cases = [e for e in reference["public"] if e["setting"] == [matching, False, "dependent"] and e["counts"] != "fails"]
    checked = 0
    for entry in cases:
        expected = sum(_f1(entry["counts"][m]) for m in ("muc", "bcub", "ceafe")) / 3
        if not 0 < expected < 1:
            continue
        _, top, signature, _, _, _ = app.show(scorer_files[entry["response"]], scorer_files[entry["key"]], keep_singletons=False, matching=matching)
        assert f">{expected:.4g}<" in top and f"CoNLL F1 under {matching} matching" in top, entry
        assert f"|matching:{matching}|" in signature and "keep_singletons:no" in signature
        checked += 1
        if checked == 3:
            break
    assert checked == 3
    # by hand (KEY, RESPONSE above, singletons kept): exact matching finds "it" alone:
    # MUC 0; B3 R = P = (0 + 1/2) / 2 = 1/4; CEAFe phi = 2 * 1 / (2 + 2) = 1/2 over one entity
    # a side: 1/2; CoNLL = (0 + 1/4 + 1/2) / 3 = 1/4. partial and head match "big dog": all 1.
    result = app.score(RESPONSE, KEY, keep_singletons=True, matching=matching)[0]
    assert result["conll_f1"] == pytest.approx(0.25 if matching == "exact" else 1.0, abs=1e-15)
    # refusals: a mix of CoNLL-U and clusters; a matching other than exact without CoNLL-U
    with pytest.raises(gr.Error, match="predictions: is not CorefUD CoNLL-U while the other side is"):
        app.score("[[[0, 1]]]", KEY, matching=matching)
    if matching != "exact":
        with pytest.raises(gr.Error, match=f"matching: '{matching}' needs CorefUD CoNLL-U"):
            app.score("[[[0, 1]]]", "[[[0, 1]]]", matching=matching)
    with pytest.raises(gr.Error, match="document: 2 is not a document number from 1 to 1"):
        app.score(RESPONSE, KEY, document=2, matching=matching)
    # the page's limits, in words and mentions, before any scoring
    app.MAX_TOKENS, app.MAX_MENTIONS = 6, 1
    with pytest.raises(gr.Error, match="references: 7 words, beyond the demo's limit of 6"):
        app.score(RESPONSE, KEY, matching=matching)
    app.MAX_TOKENS = 7
    with pytest.raises(gr.Error, match="references: 2 mentions, beyond the demo's limit of 1"):
        app.score(RESPONSE, KEY, matching=matching)


# The scorer's zeros test TC-ZF against its response 2, head matching, singletons kept:
# dependent zero matching pairs the zeros by their DEPS, linear by position, and the
# scorer's figures (tests/data/corefud) differ: zero F1 1 against 0, MUC F1 1 against 2/3.
ZF = ("zeros/TC-ZF.key", "zeros/TC-ZF-2.response")


def _zf_expected(reference, zero_matching):
    entry = next(e for e in reference["public"] if (e["key"], e["response"]) == ZF and e["setting"] == ["head", True, zero_matching])
    return {f"{m}_f1": _f1(entry["counts"][m]) for m in ("muc", "mor", "zero")}


@pytest.fixture(scope="module")
def coref_app():
    from conftest import load_app

    return load_app("coref_conll")


@pytest.mark.parametrize("zero_matching", corefud.ZERO_MATCHING)
def test_the_demo_gives_mor_and_zero_under_the_chosen_zero_matching(zero_matching, coref_app, reference, scorer_files):
    import gradio as gr

    app = coref_app
    expected = _zf_expected(reference, zero_matching)
    assert 0 < expected["mor_f1"] < 1  # the case is not trivial
    result, _, signature, _, _, _ = app.show(scorer_files[ZF[1]], scorer_files[ZF[0]], keep_singletons=True, matching="head", zero_matching=zero_matching)
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-12), key
    assert f"|zero_matching:{zero_matching}|" in signature
    with pytest.raises(gr.Error, match="zero_matching: 'linear' applies to CorefUD CoNLL-U zeros"):
        app.score("[[[0, 1]]]", "[[[0, 1]]]", zero_matching="linear")
    with pytest.raises(gr.Error, match="zero_matching: 'nearest' is not one of dependent, linear"):
        app.score(scorer_files[ZF[1]], scorer_files[ZF[0]], zero_matching="nearest")


@pytest.fixture(scope="module")
def coref_demo(coref_app):
    """The coref_conll demo served on a free port for this module's browser test."""
    from conftest import free_port

    port = free_port()
    coref_app.demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    yield f"http://127.0.0.1:{port}/"
    coref_app.demo.close()


def _pick_and_compute(browser, url, key, response):
    """CoNLL-U in both boxes, matching head; computed under the default zero_matching,
    then under linear picked from its dropdown: the figures table's text each time."""
    context, page = open_page(browser, url, {"width": 1366, "height": 1000})
    try:
        page.fill("#predictions textarea", response)
        page.fill("#references textarea", key)
        choose(page, "matching", "head")
        shown = []
        for zero_matching in ("dependent", "linear"):
            if zero_matching == "linear":
                choose(page, "zero-matching", "linear")
            page.click("#compute-btn")
            page.wait_for_function("z => document.querySelector('#signature textarea').value.includes(`|zero_matching:${z}|`)", arg=zero_matching, timeout=30_000)
            shown.append((page.locator("#signature textarea").input_value(), page.locator("#figures").inner_text()))
        return shown
    finally:
        context.close()


def test_the_demo_page_picks_zero_matching(coref_demo, in_chromium, reference, scorer_files):
    """In a browser: the zero_matching dropdown reaches the scorer, and the page lists mor
    and zero with the scorer's figures (4 significant digits)."""
    shown = in_chromium(_pick_and_compute, coref_demo, scorer_files[ZF[0]], scorer_files[ZF[1]])
    for (signature, text), zero_matching in zip(shown, ("dependent", "linear")):
        assert "|matching:head|" in signature and "keep_singletons:yes" in signature
        for key, value in _zf_expected(reference, zero_matching).items():
            assert re.search(rf"^{key}\t{value:.4g}$", text, re.M), (zero_matching, key, value, text)


def test_coref_conll_config_crac24(reference, scorer_files):
    """evaluate.load(coref_conll, config_name="crac24") is head matching without singletons,
    zeros by DEPS: corefud-scorer's counts under that setting (tests/data/corefud) on pairs
    where it differs from exact matching, also through evaluate.combine."""
    import evaluate
    from conftest import SPACES_DIR

    from paperscore import coref

    metric = evaluate.load(str(SPACES_DIR / "coref_conll"), config_name="crac24", keep_in_memory=True)
    counts = {(e["key"], e["response"], tuple(e["setting"])): e["counts"] for e in reference["public"]}
    checked = 0
    for (key, response, setting), found in counts.items():
        exact = counts.get((key, response, ("exact", False, "dependent")))
        if setting != ("head", False, "dependent") or found == "fails" or exact == "fails" or exact is None:
            continue
        expected = sum(_f1(found[m]) for m in ("muc", "bcub", "ceafe")) / 3
        if expected == sum(_f1(exact[m]) for m in ("muc", "bcub", "ceafe")) / 3:
            continue
        result = metric.compute(predictions=[scorer_files[response]], references=[scorer_files[key]])
        assert result["conll_f1"] == pytest.approx(expected, abs=1e-12), (key, response)
        assert result == coref.compute([scorer_files[response]], [scorer_files[key]], matching="head", keep_singletons=False, zero_matching="dependent")
        checked += 1
        if checked == 4:
            break
    assert checked == 4
    combined = evaluate.combine([metric]).compute(predictions=[scorer_files[response]], references=[scorer_files[key]])
    assert combined["conll_f1"] == pytest.approx(expected, abs=1e-12)
