"""The shared core: zero division, ratios, bootstrap, signature, input errors, file readers."""

import importlib
import inspect
import io
import json
import math
import re

import numpy as np
import pytest
from conftest import SPACES, SPACES_DIR, run_python
from hypothesis import given, settings
from hypothesis import strategies as st

from paperscore import core


@pytest.mark.parametrize("given_value, expected", [(0, 0.0), (0.0, 0.0), (1, 1.0), (1.0, 1.0), (np.float64(1), 1.0)])
def test_zero_division_accepts_zero_and_one(given_value, expected):
    assert core.check_zero_division(given_value) == expected


@pytest.mark.parametrize("given_value", ["nan", "NaN", float("nan"), np.nan])
def test_zero_division_accepts_nan(given_value):
    assert math.isnan(core.check_zero_division(given_value))


@pytest.mark.parametrize("given_value", ["warn", 0.5, -1, True, None, "0", -(10**400), float("inf")])
def test_zero_division_rejects_anything_else(given_value):
    with pytest.raises(ValueError, match="^zero_division: .* is not one of 0.0, 1.0, 'nan'$"):
        core.check_zero_division(given_value)


def test_zero_division_beyond_a_float_is_named_briefly():
    """10**400 is no float (math.isnan would raise OverflowError): a ValueError naming the
    argument, its 401 digits cut."""
    with pytest.raises(ValueError, match=r"^zero_division: 1000000000000000000000000000000000000\.\.\. is not one of"):
        core.check_zero_division(10**400)


def test_divide_applies_the_policy_only_to_empty_denominators():
    assert core.divide(1, 4) == 0.25
    assert core.divide(0, 0, 1.0) == 1.0
    assert math.isnan(core.divide(0, 0, "nan"))
    out = core.divide([1, 0, 3], [2, 0, 0], 1.0)
    assert out.tolist() == [0.5, 1.0, 1.0]


def test_prf_follows_sklearn_for_f1():
    # No prediction but 3 gold items: P undefined, R = 0, and F1 = 2*0/(0+3) = 0 whatever
    # the policy, as sklearn has it.
    p, r, f = core.prf(0, 0, 3, "nan")
    assert math.isnan(p) and r == 0 and f == 0
    # Nothing predicted, nothing gold: all three take the policy's value.
    assert core.prf(0, 0, 0, 1.0) == (1.0, 1.0, 1.0)
    # tp 2, predicted 4, gold 5: P 1/2, R 2/5, F1 = 4/9.
    p, r, f = core.prf(2, 4, 5)
    assert (p, r) == (0.5, 0.4) and f == pytest.approx(4 / 9, abs=1e-15)


def test_harmonic_mean_is_the_reference_tools_f1():
    assert core.harmonic_mean(0.5, 0.4) == pytest.approx(4 / 9, abs=1e-15)
    assert core.harmonic_mean(0.0, 0.0) == 0.0
    assert math.isnan(core.harmonic_mean(math.nan, 0.0))  # the SIGHAN jar prints NaN here


def test_input_error_names_argument_index_and_problem():
    error = core.input_error("references", 17, 'unclosed mention "(12" at token 40')
    assert str(error) == 'references[17]: unclosed mention "(12" at token 40'
    assert str(core.input_error("labels", None, "empty")) == "labels: empty"


def test_check_same_length_reports_both_lengths():
    with pytest.raises(ValueError, match="3 against 4"):
        core.check_same_length([1, 2, 3], [1, 2, 3, 4])


def test_signature_lists_metric_options_and_version():
    text = core.signature("csc_common", variant="realise", level="sentence", zero_division=0.0, labels=[1, 2], keep=True, seed=None)
    assert text == f"csc_common|variant:realise|level:sentence|zero_division:0|labels:1,2|keep:yes|seed:none|paperscore:{core.VERSION}"
    assert core.signature("x", zero_division=math.nan) == f"x|zero_division:nan|paperscore:{core.VERSION}"


@pytest.mark.parametrize(
    "value, written",
    [
        (None, "none"),  # not given
        (["None"], '"None"'),  # MAVEN's NA label, a string
        (["none", "NaN", "Yes", "no", "inf"], '"none","NaN","Yes","no","inf"'),  # words the signature writes
        ([], ""),  # no label at all ...
        ([""], '""'),  # ... and the empty label
        (["A|B", "a,b", "k:v", 'say "x"', "two words"], '"A|B","a,b","k:v","say \\"x\\"","two words"'),  # its syntax
        (["O", "B-PER", "Attack", "rouge_l+cjk_char", ">=", "事件"], "O,B-PER,Attack,rouge_l+cjk_char,>=,事件"),  # as they are
        ([0, 1.5, True], "0,1.5,yes"),
    ],
)
def test_a_signature_value_reads_one_way_only(value, written):
    """One rule: a string is written as it is unless it could be misread (empty, holding
    | , : " or white space, or a word the signature writes for None, booleans, floats),
    and then as JSON, which reads back to it."""
    assert core.signature("m", x=value) == f"m|x:{written}|paperscore:{core.VERSION}"


# ---------------------------------------------------------------------------------------
# Bootstrap


def mean_of(rows):
    return lambda weights: {"mean": (weights @ rows[:, 0]) / weights.sum(1)}


def test_bootstrap_by_indices_equals_a_plain_resampling_loop():
    """Few examples, all distinct: indices are drawn, exactly as a plain loop would draw them."""
    values = np.random.default_rng(5).random(40)
    rows, counts = core.compress_rows(values[:, None])
    assert (counts == 1).all() and sorted(rows[:, 0]) == sorted(values)
    got = core.bootstrap_intervals(counts, mean_of(rows), 0.9, 500, seed=7)
    rng = np.random.default_rng(7)
    drawn = rng.integers(0, 40, size=(500, 40))  # example indices, in the order the rows are held
    means = rows[:, 0][drawn].mean(1)
    low, high = np.quantile(means, [0.05, 0.95])
    assert got["mean_low"] == pytest.approx(low, abs=1e-12)
    assert got["mean_high"] == pytest.approx(high, abs=1e-12)


def test_bootstrap_by_multinomial_matches_index_resampling_in_distribution():
    """Many examples sharing two rows: the multinomial draw has the same distribution as
    drawing examples (checked on the mean's bootstrap spread: sqrt(p(1-p)/n))."""
    n, share = 20_000, 0.3
    rows = np.array([[0.0], [1.0]])
    counts = np.array([n - int(n * share), int(n * share)])
    rng = np.random.default_rng(0)
    weights = np.concatenate(list(core.resample_chunks(counts, 4000, rng)))
    assert (weights.sum(1) == n).all()
    means = weights @ rows[:, 0] / n
    assert means.mean() == pytest.approx(share, abs=5e-4)
    assert means.std() == pytest.approx(math.sqrt(share * (1 - share) / n), rel=0.05)


def test_bootstrap_is_deterministic_for_a_seed_and_varies_without_one():
    rows, counts = core.compress_rows(np.random.default_rng(1).integers(0, 5, size=(300, 1)))
    first = core.bootstrap_intervals(counts, mean_of(rows), 0.95, 300, seed=3)
    assert first == core.bootstrap_intervals(counts, mean_of(rows), 0.95, 300, seed=3)
    assert first != core.bootstrap_intervals(counts, mean_of(rows), 0.95, 300, seed=4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=60), st.integers(0, 2**32 - 1))
def test_bootstrap_interval_lies_within_the_data_and_is_ordered(values, seed):
    rows, counts = core.compress_rows(np.array(values, dtype=float)[:, None])
    got = core.bootstrap_intervals(counts, mean_of(rows), 0.95, 200, seed=seed)
    assert min(values) <= got["mean_low"] <= got["mean_high"] <= max(values)


def test_bootstrap_of_a_constant_is_that_constant():
    rows, counts = core.compress_rows(np.full((50, 1), 0.25))
    assert core.bootstrap_intervals(counts, mean_of(rows), 0.95, 100, seed=0) == {"mean_low": 0.25, "mean_high": 0.25}


def test_encode_rows_shares_codes_between_identical_rows_with_nan():
    stats = np.array([[1.0, np.nan], [0.0, 2.0], [1.0, np.nan], [0.0, 2.0], [0.0, 3.0]])
    table, codes = core.encode_rows(stats)
    assert len(table) == 3
    assert np.array_equal(table[codes], stats, equal_nan=True)
    assert codes[0] == codes[2] and codes[1] == codes[3] != codes[4]


def test_percentile_interval_leaves_nan_resamples_out():
    low, high = core.percentile_interval([np.nan, 1.0, 2.0, 3.0, np.nan], 0.5)
    assert (low, high) == (1.5, 2.5)
    assert all(math.isnan(v) for v in core.percentile_interval([np.nan, np.nan], 0.9))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(math.nan), st.sampled_from([0.0, 0.25, 1.0])), min_size=1, max_size=60),
    st.one_of(st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]), st.floats(0.001, 0.999)),
)
def test_percentile_interval_equals_numpy_nanquantile(values, level):
    """np.nanquantile's default linear method is the oracle, bit for bit, NaNs among the values."""
    low, high = core.percentile_interval(values, level)
    if all(math.isnan(v) for v in values):
        assert math.isnan(low) and math.isnan(high)
        return
    tail = (1 - level) / 2
    expected = np.nanquantile(np.array(values), [tail, 1 - tail])
    assert (low, high) == (float(expected[0]), float(expected[1]))


def test_a_bootstrap_does_not_import_numpy_ma():
    """np.nanquantile imports numpy.ma (a third of `import numpy` again): percentile_interval
    does without it, in a fresh interpreter."""
    loaded = run_python(
        "import json, sys, numpy as np, paperscore\n"
        "from paperscore.core import bootstrap_intervals\n"
        "out = bootstrap_intervals(np.array([3, 1, 2]), lambda w: {'m': w @ np.array([0.0, 1.0, np.nan]) / 6}, 0.9, 50, seed=1)\n"
        "print(json.dumps(['numpy.ma' in sys.modules, sorted(out)]))"
    )
    assert loaded == [False, ["m_high", "m_low"]]


def test_isin_is_set_membership():
    """core.isin against Python's `in` on a set: repeats, negatives, int64's ends, empty sides."""
    rng = np.random.default_rng(26)
    ends = np.array([np.iinfo(np.int64).min, -1, 0, np.iinfo(np.int64).max])
    for size, members_size, high in [(0, 5, 9), (7, 0, 9), (10_000, 300, 1_000), (10_000, 3, 2**62), (500, 10_000, 50)]:
        values = np.concatenate([rng.integers(-high, high, size), ends])
        members = np.concatenate([rng.integers(-high, high, members_size), ends[: members_size % 3]])
        known = set(members.tolist())
        expected = np.array([v in known for v in values.tolist()], dtype=bool)
        np.testing.assert_array_equal(core.isin(values, members), expected)


@pytest.mark.parametrize("level, resamples", [(0, 10), (1, 10), (1.5, 10), (True, 10), (0.9, 0), (0.9, 2.5), (0.9, True)])
def test_bootstrap_arguments_are_checked(level, resamples):
    with pytest.raises(ValueError):
        core.check_bootstrap(level, resamples)


# ---------------------------------------------------------------------------------------
# Files and progress


def test_read_lines_accepts_a_final_newline_and_crlf(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"a\r\nb\n")
    assert core.read_lines(path, "--x") == ["a", "b"]
    path.write_bytes(b"a\nb")
    assert core.read_lines(path, "--x") == ["a", "b"]


def test_read_lines_names_an_empty_line_and_bad_files(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("a\n\nb\n")
    with pytest.raises(ValueError, match=r"--x: .* line 2 is empty"):
        core.read_lines(path, "--x")
    assert core.read_lines(path, "--x", allow_empty=True) == ["a", "", "b"]
    path.write_bytes(b"\xff\xfe\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        core.read_lines(path, "--x")
    with pytest.raises(ValueError, match="cannot read"):
        core.read_lines(tmp_path / "missing.txt", "--x")


def test_read_values_reads_json_and_falls_back_to_text(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text('3\n"3"\n[1, 2]\n  B-PER \nNone\n')
    assert core.read_values(path, "--x") == [3, "3", [1, 2], "B-PER", "None"]
    assert core.split_values("0,None,a b") == [0, "None", "a b"]
    assert core.split_values(None) is None


def test_progress_stays_silent_on_short_runs_and_draws_on_long_ones():
    quiet, loud = io.StringIO(), io.StringIO()
    assert list(core.progress(range(5), 5, "x", stream=quiet)) == list(range(5))
    assert quiet.getvalue() == ""
    list(core.progress(range(32), 32, "scoring", stream=loud, min_seconds=0))
    assert "scoring" in loud.getvalue() and "32/32" in loud.getvalue()


def test_import_paperscore_stays_light():
    loaded = run_python(
        "import json, sys, paperscore, paperscore.micro_macro, paperscore.cli\n"
        "print(json.dumps([m for m in ('scipy', 'evaluate', 'datasets', 'gradio', 'sklearn', 'pandas') if m in sys.modules]))"
    )
    assert loaded == []


def test_read_text_drops_a_byte_order_mark_and_reads_standard_input(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    path.write_bytes(b"\xef\xbb\xbfNone\nA\n")
    assert core.read_lines(path, "--x") == ["None", "A"]  # not "\ufeffNone"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf1\n2\n")))
    assert core.read_values("-", "--x") == [1, 2]
    with pytest.raises(ValueError, match="--a and --b: only one file can be read from standard input"):
        core.check_stdin_once(("--a", "-"), ("--b", "-"))
    core.check_stdin_once(("--a", "-"), ("--b", path))


def test_read_text_names_another_encoding(tmp_path):
    path = tmp_path / "gbk.txt"
    path.write_bytes("中文".encode("gbk"))
    with pytest.raises(ValueError, match=r"--x: .*gbk.txt is not UTF-8 \(byte 0"):
        core.read_text(path, "--x")


def test_as_corpus_converts_tensors_and_refuses_what_is_no_corpus():
    import torch

    assert core.as_corpus(torch.tensor([1, 2]), "p").tolist() == [1, 2]
    assert core.as_corpus(torch.tensor([0.5], dtype=torch.bfloat16), "p").dtype == np.float32
    mixed = core.as_corpus([torch.tensor(1), torch.tensor([1, 2]), 3], "p")
    assert isinstance(mixed[0], np.integer) and mixed[1].tolist() == [1, 2] and mixed[2] == 3
    assert core.as_corpus((1, 2), "p") == (1, 2)
    for bad, named in [("abc", "got a str"), (b"ab", "got a bytes"), (None, "got NoneType"), (5, "got int"), ({1}, "got set"), ({}, "got dict"), (iter([1]), "got list_iterator"), (torch.tensor(3), "got int64"), (np.array(3), "got a single int64 value")]:
        with pytest.raises(ValueError, match=f"^predictions: expected a list of examples, {named}"):
            core.as_corpus(bad, "predictions")


# ---------------------------------------------------------------------------------------
# What every Space's metric class shares (space.py): arguments it does not take


@pytest.mark.parametrize("space", SPACES)
def test_an_argument_of_evaluates_f1_or_sklearn_is_a_value_error_that_says_what_to_do(space):
    """average=, pos_label=, sample_weight= (evaluate's f1, sklearn) and any other unknown
    argument: a ValueError listing the arguments the package's compute() takes, raised
    before anything is stored, and at once from trainer_metrics."""
    import runpy

    import evaluate

    metric = evaluate.load(str(SPACES_DIR / space), keep_in_memory=True)
    case = runpy.run_path(str(SPACES_DIR / space / "tests.py"))["test_cases"][0]
    inputs = {name: case[name] for name in case if name not in ("kwargs", "result")}
    vendored = type(metric)._compute.__globals__["compute"].__module__.rsplit(".", 1)[-1]  # paperscore_<family>
    package = importlib.import_module(vendored.replace("paperscore_", "paperscore."))
    parameters = inspect.signature(package.compute).parameters.values()
    taken = [p.name for p in parameters if p.name not in (*metric._feature_names(), "sources") and p.kind != p.VAR_KEYWORD]
    for argument, value in (("average", "macro"), ("pos_label", 1), ("sample_weight", [1.0]), ("beta", 2)):
        with pytest.raises(ValueError) as raised:
            metric.compute(**inputs, **{argument: value})
        message = str(raised.value)
        assert message.startswith(f"{argument}: not an argument of {space} (it takes {', '.join(taken)})"), message
        assert (argument == "beta") == (";" not in message)  # a habit is answered, beta only listed
        with pytest.raises(ValueError, match=f"^{argument}: not an argument"):
            metric.trainer_metrics(**{argument: value})
    result = metric.compute(**inputs, **case["kwargs"])  # the failed calls stored nothing
    assert all(result[key] == pytest.approx(value, abs=1e-12) for key, value in case["result"].items())
    if space in ("micro_macro", "rationale_f1"):  # the keys the message names are the result's
        with pytest.raises(ValueError) as raised:
            metric.compute(**inputs, average="macro")
        named = set(re.findall(r"\b[a-z0-9_]+\b", str(raised.value).split(";", 1)[1]))
        keys = {"micro_f1", "macro_f1"} | ({"weighted_f1", "accuracy", "micro_precision"} if space == "micro_macro" else {"f1", "example_f1", "precision"})
        assert keys <= named and keys <= set(result)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(JSON_VALUES, max_size=8))
def test_space_json_columns(values):
    """A Space stores what no datasets feature holds as JSON text: to_json (one encoder for
    the batch) writes what json.dumps writes value by value, and from_json (one json.loads
    over the joined texts) reads back what json.loads reads text by text, commas and
    brackets inside strings included."""
    from paperscore.space import from_json, to_json

    texts = to_json(values)
    assert texts == [json.dumps(value, ensure_ascii=False) for value in values]
    assert from_json(texts) == [json.loads(text) for text in texts]


def test_space_json_columns_numpy():
    """numpy arrays and scalars are stored as the Python values they hold."""
    from paperscore.space import from_json, to_json

    texts = to_json([np.array([[1, 2]]), np.int64(3), {"a": np.array([0.5])}, "x, ]"])
    assert from_json(texts) == [[[1, 2]], 3, {"a": [0.5]}, "x, ]"]
