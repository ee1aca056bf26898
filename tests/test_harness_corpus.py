"""paperscore.harness, what every harness integration shares: per document the family's
statistics, merged and computed once, equal to one compute() over the documents; the
interval, paperscore's bootstrap over documents, against a direct resampling of the
documents; the harness modules stay out of the Spaces and out of `import paperscore`."""

import warnings

import pytest
from conftest import ROOT, SPACES, run_python

import harness_corpora
from paperscore import harness

CORPORA = harness_corpora.corpora()


def statistics(family, options, documents):
    return [harness.document(family, d["text"], d["reference"], options, **{k: v for k, v in d.items() if k not in ("text", "reference")}) for d in documents]


@pytest.mark.parametrize("family", list(CORPORA))
def test_merged_documents_equal_one_compute_with_its_intervals(family):
    options, documents = CORPORA[family]
    got = harness.corpus(statistics(family, options, documents), **harness_corpora.BOOT)
    expected = harness_corpora.expected(family, options, documents, **harness_corpora.BOOT)
    numbers = [name for name in expected if not isinstance(expected[name], list)]
    assert {name: got[name] for name in numbers} == pytest.approx({name: expected[name] for name in numbers}, rel=1e-12, abs=1e-15)
    assert set(harness.figures(family, options, harness_corpora.BOOT["confidence_level"])) == set(numbers)


@pytest.mark.parametrize("family", list(CORPORA))
def test_the_interval_is_a_bootstrap_over_documents(family):
    """The same percentile interval as drawing documents with replacement and calling
    compute() on each draw (other draws of the same distribution: within a quarter of the
    interval's width, about 4 standard errors of the two quantile estimates at 300 draws).
    lighteval's SD / sqrt(draws) would be some 17 times narrower; a bootstrap of
    per-document figures would be centred elsewhere."""
    options, documents = CORPORA[family]
    figures = [name for name in harness.figures(family, options, None) if name.endswith("f1")][:2] or harness.figures(family, options, None)[:2]
    boot = {"confidence_level": 0.9, "n_resamples": 300}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = harness.corpus(statistics(family, options, documents), seed=11, **boot)
        direct = harness_corpora.direct_bootstrap(family, options, documents, figures, seed=12, **boot)
    for name in figures:
        width = got[f"{name}_high"] - got[f"{name}_low"]
        assert width > 0, name
        for end in ("low", "high"):
            assert abs(got[f"{name}_{end}"] - direct[f"{name}_{end}"]) <= 0.25 * width, (name, end, got[f"{name}_{end}"], direct[f"{name}_{end}"])


def test_figures_and_inputs_are_checked_by_name():
    assert harness.figures("micro_macro", {}, None, ["micro_f1"]) == ["micro_f1"]
    assert harness.figures("micro_macro", {}, 0.9, ["micro_f1"]) == ["micro_f1", "micro_f1_low", "micro_f1_high"]
    with pytest.raises(ValueError, match=r"figures: 'micro_f2' is not a figure of micro_macro .*micro_f1"):
        harness.figures("micro_macro", {}, None, ["micro_f2"])
    with pytest.raises(ValueError, match=r"figures: 'micro_f1_low' is not a figure"):
        harness.figures("micro_macro", {}, 0.9, ["micro_f1_low"])
    with pytest.raises(ValueError, match=r"family: 'corefs' is not one of .*coref_conll"):
        harness.document("corefs", "x", "y")
    with pytest.raises(ValueError, match=r"tokens: not an input of micro_macro \(its inputs: none\)"):
        harness.document("micro_macro", "Attack", "Attack", tokens=["a"])
    with pytest.raises(ValueError, match=r"sources: applies to model texts read by a parser; pass parse=NAME"):
        harness.document("quad_match", "a | b | c | POS", "a | b | c | POS", sources="text")  # GAS's fixing parsers read sources
    with pytest.raises(ValueError, match=r"documents: no document to score"):
        harness.corpus([])


def test_no_space_vendors_a_harness_module():
    import sys

    sys.path.insert(0, str(ROOT / "shared"))
    import vendor

    for space in SPACES:
        wanted, _, _ = vendor.plan(ROOT, ROOT / "spaces" / space)
        assert not [path.name for path in wanted if "harness" in path.name], space


def test_import_paperscore_and_its_commands_import_no_harness():
    """`import paperscore`, paperscore.harness and the command line's lookup of every
    command (paperscore --help) import none of the harnesses: they are optional extras."""
    code = "import json, sys, paperscore, paperscore.harness, paperscore.cli; paperscore.cli.commands(); print(json.dumps(sorted(m for m in ('lm_eval', 'lighteval', 'inspect_ai', 'torchmetrics', 'torch', 'lightning') if m in sys.modules)))"
    assert run_python(code) == []
