"""Property-based fuzzing of every family over every entry point (issue 14): the package's
compute, evaluate's compute / add_batch / add, and the command line on generated files.

Only two outcomes are acceptable: a ValueError naming the argument (and the example), or a
result whose numbers are in [0, 1] (NaN only under zero_division="nan") and, for valid
input, equal to the package's numbers on the plain-list form. Strategies, interfaces and
the outcome checker live in tests/fuzzing.py. Counts of inputs tried per family x interface
are printed at the end of the run.
"""

import contextlib
import gc
import json
import random
import shutil
import tempfile
import time

import numpy as np
import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

import fuzzing
from fuzzing import FAMILIES, INTERFACES, JUNK, SETTINGS, count, outcome, same_numbers


FAMILY_NAMES = list(FAMILIES)
EVALUATE = ("evaluate", "add_batch", "add")


@pytest.fixture(scope="module", autouse=True)
def report_counts(request):
    """Print how many inputs each family x interface was given, at the end of the run."""

    class Summary:
        def pytest_terminal_summary(self, terminalreporter):
            tried = fuzzing.TRIED
            if not tried:
                return
            families = sorted({f for f, _, _ in tried})
            interfaces = list(INTERFACES) + ["properties"]
            terminalreporter.section(f"fuzz inputs tried (profile {fuzzing.PROFILE}; scored/refused)")
            terminalreporter.write_line(f"{'family':14}" + "".join(f"{i:>16}" for i in interfaces))
            for family in families:
                cells = []
                for interface in interfaces:
                    scored, refused = tried[(family, interface, "scored")], tried[(family, interface, "refused")]
                    cells.append(f"{scored}/{refused}".rjust(16))
                terminalreporter.write_line(f"{family:14}" + "".join(cells))

    fuzzing.preload()
    plugin = Summary()
    if not request.config.pluginmanager.is_registered(plugin):
        request.config.pluginmanager.register(plugin, "fuzz-summary")
    yield


def _numbers_of(family, interface, corpus, options, **extra):
    kind, found = outcome(lambda: INTERFACES[interface](FAMILIES[family], corpus, options, **extra), _arguments(family, interface), nan_allowed=fuzzing.nan_allowed(options))
    count(family, interface, kind)
    return kind, found


def _arguments(family, interface, columns=None):
    """How an error may name a corpus: its argument, or on the command line its flag or file."""
    columns = columns or FAMILIES[family].columns
    if interface != "cli":
        return tuple(columns)
    # on the command line: the flag or file, or (from compute's checks) the argument name
    flags = {"predictions": ("--predictions", "RESPONSE", "p.txt", "response.conll"), "references": ("--references", "KEY", "r.txt", "key.conll"), "sources": ("--sources", "s.txt")}
    return tuple(flag for column in columns for flag in flags[column]) + tuple(columns)


def _cli_options(options):
    return {k: v for k, v in options.items() if k == "zero_division"}


# ---------------------------------------------------------------------------------------
# Valid input: scored, numbers in [0, 1], and every interface equal to the package


@pytest.mark.parametrize("interface", list(INTERFACES))
@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_valid_input_scores_the_same_everywhere(family, interface, data):
    corpus = data.draw(FAMILIES[family].corpus, label="corpus")
    options = data.draw(fuzzing.valid_options(FAMILIES[family]), label="options")
    if interface == "cli":
        options = _cli_options(options)
    arguments = _arguments(family, interface) + tuple(options)
    # a valid corpus with options that do not fit it (convention="maven" without an NA
    # label) is refused by the package: then every interface refuses it the same way
    expected_kind, expected = outcome(lambda: fuzzing.call_package(FAMILIES[family], corpus, options), arguments, nan_allowed=True)
    kind, found = outcome(lambda: INTERFACES[interface](FAMILIES[family], corpus, options), arguments, nan_allowed=fuzzing.nan_allowed(options))
    count(family, interface, kind)
    assert kind == expected_kind, f"the package {expected_kind} it, this interface {kind} it: {found}"
    if kind == "refused":
        assert expected.splitlines()[0] in found, (expected, found)
    else:
        same_numbers(found, expected, keys=list(expected))


# ---------------------------------------------------------------------------------------
# The same corpus as tuples, numpy arrays, torch tensors: the same numbers


def representations(family, corpus):
    """(name, corpus) for each other form a user may pass the same examples in."""
    import torch

    out = [("tuple", {c: tuple(v) for c, v in corpus.items()})]
    nested = family.nested and family.name != "coref_conll" and any(isinstance(x, list) for x in corpus["predictions"])
    if not nested:
        out.append(("numpy", {c: np.array(v) if all(isinstance(x, str) for x in v) else v for c, v in corpus.items()}))
    else:
        dtype = str if any(isinstance(y, str) for x in corpus["predictions"] + corpus["references"] for y in x) else None
        out.append(("numpy rows", {c: [np.array(x, dtype=dtype if x or dtype else np.int64) for x in v] for c, v in corpus.items()}))
    numeric = {c: v for c, v in corpus.items() if not any(isinstance(x, str) or (isinstance(x, list) and any(isinstance(y, str) for y in x)) for x in v)}
    if family.name in ("micro_macro", "rationale_f1") and len(numeric) == len(corpus):
        if nested:
            dtype = lambda c: torch.float64 if c == "predictions" and family.name == "rationale_f1" else torch.int64  # noqa: E731
            out.append(("torch rows", {c: [torch.tensor(x, dtype=dtype(c)) for x in v] for c, v in corpus.items()}))
            lengths = {len(x) for v in corpus.values() for x in v}
            if len(lengths) == 1 and lengths != {0}:
                out.append(("torch matrix", {c: torch.tensor(v, dtype=dtype(c)) for c, v in corpus.items()}))
        else:
            out.append(("torch", {c: torch.tensor(v) for c, v in corpus.items()}))
            out.append(("numpy", {c: np.array(v) for c, v in corpus.items()}))
    return out


@pytest.mark.parametrize("interface", ["package", *EVALUATE])
@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_other_forms_of_a_corpus_score_the_same(family, interface, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    name, other = data.draw(st.sampled_from(representations(spec, corpus)), label="form")
    note(f"form: {name}")
    kind, found = _numbers_of(family, interface, other, {})
    assert kind == "scored", f"{name} form refused: {found}"
    _, expected = outcome(lambda: fuzzing.call_package(spec, corpus, {}), ("predictions",))
    same_numbers(found, expected, keys=list(expected))


# ---------------------------------------------------------------------------------------
# Hostile corpora: refused with a message naming the argument and example, or scored in range


@st.composite
def spoiled(draw, family):
    """(corpus, argument names an error must mention, example index or None)."""
    corpus = draw(family.corpus)
    column = draw(st.sampled_from(family.columns))
    n = len(corpus[column])
    how = draw(st.sampled_from(["corpus", "example", "element", "length", "empty", "deep"]))
    if how == "corpus":
        corpus[column] = draw(JUNK)
        return corpus, (column,), None
    if how == "empty":
        return {c: [] for c in corpus}, family.columns, None
    if how == "length":
        corpus[column] = corpus[column][:-1]
        return corpus, family.columns, None
    index = draw(st.integers(0, n - 1))
    if how == "deep":
        corpus[column][index] = fuzzing.deep_list(draw(st.sampled_from([3, 50, 200])))  # deeper: see SPOILED_LINES
    elif how == "element" and isinstance(corpus[column][index], list) and corpus[column][index]:
        example = list(corpus[column][index])
        example[draw(st.integers(0, len(example) - 1))] = draw(JUNK)
        corpus[column][index] = example
    else:
        corpus[column][index] = draw(JUNK)
    return corpus, (column,), index


@pytest.mark.parametrize("interface", ["package", *EVALUATE])
@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_hostile_corpus_is_refused_by_name_or_scored_in_range(family, interface, data):
    corpus, arguments, index = data.draw(spoiled(FAMILIES[family]), label="spoiled")
    if interface == "add" and index is None:
        arguments = FAMILIES[family].columns  # add() is given the whole spoiled column as one example
    # add_batch (split after the first example) and add name the example within their call,
    # or in the whole corpus when compute() finds the problem
    local = (index, {"add": 0, "add_batch": index and index - 1}.get(interface, index)) if index is not None else None
    kind, _ = outcome(lambda: INTERFACES[interface](FAMILIES[family], corpus, {}), arguments, local)
    count(family, interface, kind)


# ---------------------------------------------------------------------------------------
# Hostile options


def option_names(family):
    return [*family.options, "confidence_level", "n_resamples", "seed"]


@pytest.mark.parametrize("interface", ["package", "evaluate"])
@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_hostile_option_is_refused_by_name_or_scored_in_range(family, interface, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    option = data.draw(st.sampled_from(option_names(spec)), label="option")
    options = {"confidence_level": 0.9, "n_resamples": 20, "seed": 0} if option in fuzzing.BOOTSTRAP_OPTIONS else {}
    options[option] = data.draw(JUNK, label="value")
    given = options.get("zero_division")
    nan = (isinstance(given, str) and given.lower() == "nan") or (isinstance(given, float) and np.isnan(given))
    kind, _ = outcome(lambda: INTERFACES[interface](spec, corpus, options), (option,), nan_allowed=nan)
    count(family, interface, kind)


# ---------------------------------------------------------------------------------------
# The command line on files: a byte-order mark and CRLF change nothing, another encoding and
# a spoiled line are refused naming the file


@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_cli_file_encodings(family, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    how = data.draw(st.sampled_from([{"bom": True}, {"newline": "\r\n"}, {"bom": True, "newline": "\r\n"}, {"encoding": "gbk"}]), label="how")
    clean = fuzzing.call_cli(spec, corpus, {})
    if how.get("encoding") == "gbk":
        text = repr(corpus)
        assume(spec.gbk and any(ord(ch) > 127 for ch in text))
        try:
            repr(corpus).encode("gbk")
        except UnicodeEncodeError:
            assume(False)
        kind, message = outcome(lambda: fuzzing.call_cli(spec, corpus, {}, **how), _arguments(family, "cli"))
        count(family, "cli", kind)
        assert kind == "refused" and "UTF-8" in message, message
        return
    kind, found = _numbers_of(family, "cli", corpus, {}, **how)
    assert kind == "scored", found
    same_numbers(found, fuzzing.numbers(clean, False))


SPOILED_LINES = ["", " ", "\ufeff", "NaN", "Infinity", "null", "true", '"\\ud800"', "[" * 100_000, str(2**64), "-" + str(2**63 + 1), "{}", "[[[]]]", "\x00", "😀 | e\u0301 | ＡＢ | \u200b"]


@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_cli_spoiled_line_is_refused_by_name_or_scored_in_range(family, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    line = data.draw(st.one_of(st.sampled_from(SPOILED_LINES), st.text(max_size=6).filter(lambda t: "\n" not in t and "\r" not in t)), label="line")
    column = data.draw(st.sampled_from(spec.columns), label="column")
    folder = tempfile.mkdtemp(prefix="fuzz-")
    try:
        argv = spec.write_files(corpus, folder)
        files = [a for a in argv if a.startswith(folder)]
        path = argv[argv.index(f"--{column}") + 1] if family != "coref_conll" else files[0 if column == "references" else 1]
        with open(path, "r", encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        at = data.draw(st.integers(0, len(lines) - 1), label="at")
        lines[at] = line
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as handle:
            handle.write("\n".join(lines))
        code, result, err = fuzzing.run_cli([spec.command, *argv])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if code == 0:
        fuzzing.numbers({k: v for k, v in result.items() if v is not None}, False)
        count(family, "cli", "scored")
    else:
        assert fuzzing.names_where(err, _arguments(family, "cli", (column,))), err
        count(family, "cli", "refused")


# ---------------------------------------------------------------------------------------
# Order invariance, shard merging, seed determinism


@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_order_of_examples_does_not_change_the_corpus_numbers(family, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    order = data.draw(st.permutations(range(len(corpus["predictions"]))), label="order")
    shuffled = {c: [v[i] for i in order] for c, v in corpus.items()}
    _, expected = outcome(lambda: fuzzing.call_package(spec, corpus, {}), ("predictions",))
    _, found = outcome(lambda: fuzzing.call_package(spec, shuffled, {}), ("predictions",))
    count(family, "properties", "scored")
    same_numbers(found, expected)


@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_every_split_into_batches_gives_the_one_pass_result(family, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    n = len(corpus["predictions"])
    cuts = data.draw(st.lists(st.integers(1, max(n - 1, 1)), max_size=n), label="cuts")
    _, expected = outcome(lambda: fuzzing.call_package(spec, corpus, {}), ("predictions",))
    _, found = outcome(lambda: fuzzing.call_add_batch(spec, corpus, {}, cuts=cuts), ("predictions",))
    count(family, "properties", "scored")
    same_numbers(found, expected)


@pytest.mark.parametrize("family", FAMILY_NAMES)
@SETTINGS
@given(data=st.data())
def test_same_seed_gives_the_same_intervals(family, data):
    spec = FAMILIES[family]
    corpus = data.draw(spec.corpus, label="corpus")
    seed = data.draw(st.one_of(st.integers(0, 2**32), st.just(2**64 - 1)), label="seed")
    options = {"confidence_level": 0.9, "n_resamples": 50, "seed": seed}
    results = [outcome(lambda: call(spec, corpus, options), ("predictions",))[1] for call in (fuzzing.call_package, fuzzing.call_package, fuzzing.call_evaluate)]
    count(family, "properties", "scored")
    assert any(key.endswith("_low") for key in results[0])
    same_numbers(results[1], results[0])
    same_numbers(results[2], results[0])
    # and the interval is where the statistic can be
    for key, value in results[0].items():
        if key.endswith("_low") and not np.isnan(value):
            assert value <= results[0][key[: -len("_low")] + "_high"]


# ---------------------------------------------------------------------------------------
# Generic defects the fuzzing found, fixed in core and space: one plain case each


@pytest.mark.parametrize(
    "option, value",
    [("seed", -1), ("seed", "abc"), ("seed", [1, 2]), ("seed", True), ("seed", 1.5), ("n_resamples", 2**63), ("n_resamples", 10**7), ("confidence_level", [0.9])],
)
def test_bootstrap_options_are_refused_by_name(option, value):
    options = {"confidence_level": 0.9, "n_resamples": 10, "seed": 0, option: value}
    with pytest.raises(ValueError, match=rf"^{option}: "):
        fuzzing.micro_macro.compute([0, 1], [0, 0], **options)


@pytest.mark.parametrize("value", [np.array(["maven", "jmee"]), ["maven"], 1, True])
def test_a_choice_of_another_type_is_refused_by_name(value):
    with pytest.raises(ValueError, match=r"^convention: .* is not one of None, 'maven', 'jmee'"):
        fuzzing.micro_macro.compute([0, 1], [0, 0], convention=value)


def test_a_flag_among_choices_is_not_an_int():
    # rationale's auprc is None, True or False: 1 == True must not pass for True
    with pytest.raises(ValueError, match=r"^auprc: "):
        fuzzing.rationale.compute([[1]], [[1]], auprc=1)
    assert "auprc" in fuzzing.rationale.compute([[0.5]], [[1]], auprc=np.bool_(True))


@pytest.mark.parametrize("interface", ["evaluate", "add_batch"])
@pytest.mark.parametrize("value", [None, 5, {0, 1}, "AB"])
def test_evaluate_refuses_a_corpus_that_is_not_a_list_by_name(interface, value):
    # evaluate's own code gave TypeError ('NoneType' object is not subscriptable, ...)
    with pytest.raises(ValueError, match=r"^predictions: expected a list of examples"):
        INTERFACES[interface](FAMILIES["micro_macro"], {"predictions": value, "references": ["A", "B"]}, {})


@pytest.mark.parametrize("interface", EVALUATE)
def test_evaluate_takes_torch_tensors(interface):
    import torch

    # accuracy 1/2: one of the two labels equal; by hand
    result = INTERFACES[interface](FAMILIES["micro_macro"], {"predictions": torch.tensor([0, 1]), "references": torch.tensor([0, 2])}, {})
    assert result["accuracy"] == 0.5


def test_a_line_of_json_nested_too_deep_is_refused_by_file_and_line(tmp_path):
    # json.loads raises RecursionError on 100,000 nested brackets: the CLI printed a traceback
    (tmp_path / "p.txt").write_text("1\n" + "[" * 100_000 + "\n")
    (tmp_path / "r.txt").write_text("1\n1\n")
    code, _, err = fuzzing.run_cli(["micro_macro", "--predictions", str(tmp_path / "p.txt"), "--references", str(tmp_path / "r.txt")])
    assert code == 1 and f"--predictions: {tmp_path / 'p.txt'} line 2: JSON nested too deep" in err, err


# ---------------------------------------------------------------------------------------
# Family defects the fuzzing hit only in some runs, pinned as plain cases (each fails until
# the family fixes it: see the fuzz helper's report)


def test_micro_macro_batches_of_empty_sequences_merge_with_any_labels():
    # one pass: accuracy 1 (the one label equal); by hand
    for batches in ([[["A"]], [[]]], [[[]], [[1]]]):
        metric = fuzzing.space_metric(FAMILIES["micro_macro"])
        for batch in batches:
            metric.add_batch(predictions=batch, references=batch)
        assert metric.compute()["accuracy"] == 1.0


def test_quad_batches_of_single_and_several_references_merge():
    # one sample with an exact match and one without quads on both sides: exact F1 1
    metric = fuzzing.space_metric(FAMILIES["quad_match"])
    metric.add_batch(predictions=["a | b | c | pos"], references=[["a | b | c | pos"]])
    metric.add_batch(predictions=[""], references=[""])
    assert metric.compute()["exact_f1"] == 1.0


@pytest.mark.parametrize("flag", [np.True_, True])
def test_rationale_a_bool_score_is_treated_alike_everywhere(flag):
    # the package read a bool as a selection (1); evaluate refused it in its own words.
    # Either reading is fine, the same one everywhere: refused naming the example, or scored alike.
    corpus = {"predictions": [[flag, 0.5]], "references": [[1, 0]]}
    results = [outcome(lambda: INTERFACES[interface](FAMILIES["rationale_f1"], corpus, {}), ("predictions",), 0) for interface in ("package", "add_batch")]
    assert results[0][0] == results[1][0], results
    if results[0][0] == "scored":
        same_numbers(results[1][1], results[0][1])


# ---------------------------------------------------------------------------------------
# Parsers: any model text is read (at worst a parse failure) in time linear in its length


def _timed_read(name, text, source):
    """CPU seconds the parser takes, after checking that it reads the text without raising.
    Only the parser's own work counts: this thread's CPU time (not other threads the suite
    left in the process, nor other processes), the garbage collector off while it reads (a
    collection of the whole suite's heap is not the parser's cost), and the better of two
    readings (a quadratic reader is slow both times). A 0.03 s read once measured 2.6 s of
    the process's CPU in a full run and failed CI."""
    seconds = []
    for _ in range(2):
        gc.disable()
        try:
            start = time.thread_time()
            with fuzzing.time_limit():
                fuzzing.read_model_text(name, text, source)
            seconds.append(time.thread_time() - start)
        finally:
            gc.enable()
        if seconds[-1] <= _time_bound(text, source):
            break
    return min(seconds)


def _time_bound(text, source):
    return fuzzing.SECONDS_SETUP + fuzzing.SECONDS_PER_CHAR * (len(text) + len(" ".join(source or ())))


@pytest.mark.parametrize("name", sorted(fuzzing.P.PARSERS))
@SETTINGS
@given(data=st.data())
def test_parsers_read_any_text_in_time_linear_in_its_length(name, data):
    text = fuzzing.as_quotes(data.draw(fuzzing.parser_text(), label="text"), name)
    source = fuzzing.source_of(text, name)
    seconds = _timed_read(name, text, source)
    count("parse", "properties", "scored")
    assert seconds <= _time_bound(text, source), f"{name}: {seconds:.2f} s for {len(text):,} characters"


# The texts that were quadratic or crashed, at 2.5 times PARSER_TEXT_CHARS, where each
# quadratic reader they replaced takes 3 to 20 times the bound (5 s for GAS's \[.*?\] on
# "[a|b", 19 s on "[", 10 s for GEN-SCL-NAT's fields on "IS" after "| THE", 15 s to over
# 30 s for quote marks without a closing one) and the linear ones milliseconds; JSON nested
# too deep (coref_clusters@1: RecursionError, the "[" * 3000 included), markdown and
# brackets nested deep; and a quote of 200 changed characters against a long input
# (quotes_fuzzy@1 measured every start with a full table: over 25 s for 5,000 words).
N = 50_000
HOSTILE = {
    "gas_annotation_aste": ["[" * N, "[a|b" * (N // 4)],
    "gas_annotation_uabsa_fixed": ["[" * N],
    "gen_scl_nat": ["a| THE" + "IS" * (N // 2), "| THE" * (N // 5) + "x"],
    "quotes_normalized": ["“" * N, "「" * N, '"' * N, '"a" ' * (N // 4)],
    "quotes_exact": ["『" * N],
    "coref_clusters": ["[" * 3000, "[" * N, "[[" * (N // 4) + "]]" * (N // 4)],
    "coref_markdown": ["[" * N, "[" * (N // 6) + "Mary" + "](#1)" * (N // 6), "](#" * (N // 3)],
    "mvp_llm": ["(" * N, "[" * N],
    "llm_json": ["[" * N, "```json\n" + "[" * N],
}


@pytest.mark.parametrize("name, text", [(name, text) for name, texts in HOSTILE.items() for text in texts], ids=lambda value: value if isinstance(value, str) and len(value) < 40 else None)
def test_hostile_texts_are_read_in_linear_time(name, text):
    source = fuzzing.source_of(text, name)
    seconds = _timed_read(name, text, source)
    assert seconds <= _time_bound(text, source), f"{name}: {seconds:.2f} s for {text[:12]!r}... ({len(text):,} characters)"


def test_a_long_paraphrased_quote_is_placed_in_linear_time():
    rng = random.Random(39)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 8))) for _ in range(5000)]
    quote = "".join(c if rng.random() > 0.1 else "x" for c in " ".join(words[1000:1030]))  # ~180 characters, 1 in 10 changed
    for source in (words, list("ab" * 10_000)):  # a text, and a periodic one where every start nearly matches
        reply = json.dumps([quote, "ba" * 100 + "x"])
        assert _timed_read("quotes_fuzzy", reply, source) <= _time_bound(reply, source)


# ---------------------------------------------------------------------------------------
# CSC reply parsers (issue 39): any reply is a sentence or a counted failure, read in time
# linear in its length


@pytest.mark.parametrize("name", sorted(key for key, parser in fuzzing.P.PARSERS.items() if parser.family == "csc"))
@SETTINGS
@given(text=fuzzing.csc_reply_text())
def test_csc_reply_parsers_read_any_reply_in_linear_time(name, text):
    parser = fuzzing.P.PARSERS[name]
    with fuzzing.time_limit():
        (sentence,), report = fuzzing.P.parse([text], parser)
    assert isinstance(sentence, str) and report["parse_failures"] in (0, 1)
    if parser.version == 2 and parser.source == "paperscore":  # a failure reads as "", a sentence is one line
        assert (report["parse_failures"] == 1) == (sentence == "") and len(sentence.splitlines()) <= 1
    with pytest.raises(ValueError, match=rf"^predictions\[0\]: {name} cannot read it: ") if report["parse_failures"] else contextlib.nullcontext():
        fuzzing.P.parse([text], parser, strict=True)
    long = (text or "x") * (fuzzing.REPLY_LONG // max(len(text), 1) + 1)
    seconds = _timed_read(name, long, None)
    assert seconds <= _time_bound(long, None), f"{seconds:.2f} s for {len(long):,} characters of {text[:40]!r}"
