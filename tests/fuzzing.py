"""What the fuzz suite (tests/test_fuzz.py) shares: per family, a strategy for valid corpora
and how to write them as the command line's files; hostile values; the ways of calling a
family (package, evaluate compute / add_batch / add, command line); and the one outcome
checker: a ValueError naming the argument (and the example), or numbers in [0, 1].

Settings: CI (and the default) runs a fixed, derandomized profile sized to keep the suite
near a minute on two cores; HYPOTHESIS_PROFILE=thorough runs many more inputs.
"""

import collections
import contextlib
import io
import json
import math
import os
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from paperscore import cli, coref, csc_common, csc_sighan, micro_macro, quad, rationale
from paperscore import parse as P

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 30  # one call longer than this is a hang

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture]
# CI: fixed inputs, no shrinking (a failure prints the drawn input as found; shrinking a
# dozen failing tests would take minutes). "shrink": the same inputs, shrunk to minimal ones.
settings.register_profile("ci", max_examples=12, derandomize=True, deadline=None, database=None, suppress_health_check=_HEALTH, phases=(Phase.explicit, Phase.generate))
settings.register_profile("shrink", max_examples=12, derandomize=True, deadline=None, database=None, suppress_health_check=_HEALTH)
settings.register_profile("thorough", max_examples=300, deadline=None, suppress_health_check=_HEALTH, print_blob=True)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
SETTINGS = settings.get_profile(PROFILE)

# How many inputs each family x interface was given, and what came of them.
TRIED = collections.Counter()


def count(family, interface, outcome):
    TRIED[(family, interface, outcome)] += 1


# ---------------------------------------------------------------------------------------
# Hostile values

ODD_TEXT = [
    "e\u0301",  # a combining mark
    "ＡＢ１",  # full-width forms
    "a\u200bb\u200d",  # zero-width space and joiner
    "😀👍🏽",  # emoji, one with a skin-tone modifier
    "\ufeffA",  # a byte-order mark inside a value
    "A\r\nB",  # CRLF inside a value
    "\ud800",  # a lone surrogate (not encodable)
    "",
    " ",
    "\t",
    "中文錯字",
]
INT_EDGES = [2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 10**30, -1, 0]
FLOAT_EDGES = [math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308, 5e-324]


def _numpy_values():
    return st.sampled_from(
        [
            np.array([math.nan, 1.0]),
            np.zeros((2, 2, 2)),
            np.array(["a", "b"]),
            np.array([2**64 - 1], dtype=np.uint64),
            np.array([1, 2], dtype=np.int8),
            np.array([True, False]),
            np.array(3),
            np.empty(0),
            np.array([[1, 2], [3]], dtype=object),
            np.float64(0.5),
            np.int64(-1),
        ]
    )


def _torch_values():
    import torch

    return st.sampled_from(
        [
            torch.tensor([1, 2]),
            torch.tensor([[0.25, 1.5]]),
            torch.tensor(True),
            torch.tensor([0.5], dtype=torch.bfloat16),
            torch.tensor(7),
            torch.zeros(0),
        ]
    )


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(INT_EDGES),
    st.integers(-3, 3),
    st.sampled_from(FLOAT_EDGES),
    st.binary(max_size=3),
    st.sampled_from(ODD_TEXT),
    st.text(max_size=3),
)


def _containers(inner):
    return st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=2).map(tuple),
        st.dictionaries(st.text(max_size=2), inner, max_size=2),
        st.lists(st.integers(0, 3), max_size=3).map(set),
        st.lists(inner, max_size=2).map(iter),  # a one-shot iterator
    )


JUNK = st.one_of(st.recursive(SCALARS, _containers, max_leaves=6), _numpy_values(), _torch_values())


def deep_list(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


# ---------------------------------------------------------------------------------------
# The outcome checker


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds=HANG_SECONDS):
    def stop(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def names_where(message, arguments, index=None):
    """Whether an error message names one of `arguments` and, given an index, the example."""
    if not any(argument in message for argument in arguments):
        return False
    indices = index if isinstance(index, tuple) else (index,)
    sides = sum(name in message for name in ("predictions", "references", "sources"))
    if index is None or sides > 1:  # a mismatch between two sides names both, not one example
        return True
    return any(form in message for i in indices for form in (f"[{i}]", f"line {i + 1}", f"example {i}"))


def numbers(result, nan_allowed):
    """The result's top-level numbers, each checked to be in [0, 1] (NaN only when allowed)."""
    out = {}
    for key, value in result.items():
        if isinstance(value, bool) or not isinstance(value, (float, int, np.floating, np.integer)):
            continue
        if isinstance(value, (int, np.integer)) and key not in ("accuracy",):
            continue  # counts (return_counts, missing documents, ...)
        value = float(value)
        if math.isnan(value):
            assert nan_allowed, f"{key} is NaN without zero_division='nan'"
        else:
            assert 0.0 <= value <= 1.0, f"{key} = {value} is outside [0, 1]"
        out[key] = value
    return out


def outcome(call, arguments, index=None, nan_allowed=False):
    """Run `call`: a ValueError must name one of `arguments` (and the example `index`); a
    result must hold numbers in [0, 1]. Returns ("refused", message) or ("scored", numbers).
    Any other exception, or a hang, propagates and fails the test."""
    try:
        with time_limit():
            result = call()
    except ValueError as error:
        message = str(error)
        assert names_where(message, arguments, index), f"ValueError does not name {arguments} (example {index}): {message!r}"
        return "refused", message
    assert isinstance(result, dict), f"result is a {type(result).__name__}, not a dict"
    return "scored", numbers(result, nan_allowed)


def same_numbers(a, b, keys=None):
    """Equal numbers (NaN equal to NaN; float sums in another order within 1e-9)."""
    keys = keys if keys is not None else sorted(set(a) | set(b))
    differ = {}
    for key in keys:
        x, y = a.get(key), b.get(key)
        if x is None or y is None:
            differ[key] = (x, y)
        elif not (math.isnan(x) and math.isnan(y)) and not math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12):
            differ[key] = (x, y)
    assert not differ, f"numbers differ: {differ}"


# ---------------------------------------------------------------------------------------
# Families: valid corpora and their files


@dataclass
class Family:
    name: str  # the Space
    module: object  # the package module
    columns: tuple  # corpus arguments, in order
    corpus: object  # strategy: {column: list of examples}, every column of one length
    options: dict  # option -> list of valid values (the first is the default)
    write_files: object  # (corpus, folder) -> argv after the command
    command: str
    nested: bool = True  # examples are sequences (an element inside can be spoiled)
    gbk: bool = False  # Chinese text: a GBK file is the typical wrong encoding
    file_flags: dict = field(default_factory=dict)  # column -> how the CLI names its file


def _write(folder, name, lines, newline="\n", bom=False, encoding="utf-8"):
    path = Path(folder) / name
    text = newline.join(lines) + newline
    data = text.encode(encoding)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return str(path)


# micro_macro ------------------------------------------------------------------------------

STR_LABELS = ["A", "B", "None", "O", "é", "e\u0301", "Ａ", "a\u200bb", "😀", "中"]


@st.composite
def micro_macro_corpus(draw):
    label = st.integers(0, 3) if draw(st.booleans()) else st.sampled_from(STR_LABELS)
    n = draw(st.integers(1, 8))
    if draw(st.booleans()):  # token classification: a sequence per example
        lengths = [draw(st.integers(0, 4)) for _ in range(n)]
        side = lambda: [[draw(label) for _ in range(k)] for k in lengths]  # noqa: E731
    else:
        side = lambda: [draw(label) for _ in range(n)]  # noqa: E731
    return {"predictions": side(), "references": side()}


def micro_macro_files(corpus, folder, **how):
    lines = {c: [json.dumps(v, ensure_ascii=False) for v in corpus[c]] for c in ("predictions", "references")}
    return ["--predictions", _write(folder, "p.txt", lines["predictions"], **how), "--references", _write(folder, "r.txt", lines["references"], **how)]


# CSC: sentences, edits by substituting characters ------------------------------------------

HANZI = "我們很好壞門天氣今明在再做作的地得已以"


@st.composite
def csc_corpus(draw):
    n = draw(st.integers(1, 6))
    sources, predictions, references = [], [], []
    for _ in range(n):
        source = draw(st.text(HANZI, min_size=1, max_size=8))
        sources.append(source)
        for side in (predictions, references):
            chars = list(source)
            for i in range(len(chars)):
                if draw(st.integers(0, 3)) == 0:
                    chars[i] = draw(st.sampled_from(HANZI))
            side.append("".join(chars))
    return {"predictions": predictions, "references": references, "sources": sources}


def csc_files(corpus, folder, **how):
    return [
        "--sources", _write(folder, "s.txt", corpus["sources"], **how),
        "--predictions", _write(folder, "p.txt", corpus["predictions"], **how),
        "--references", _write(folder, "r.txt", corpus["references"], **how),
    ]  # fmt: skip


# coref: clusters of [start, end] spans ------------------------------------------------------

TOKENS = 10


def _laminar(spans):
    """Spans of which every two are disjoint or nested (what CoNLL brackets can write)."""
    kept = []
    for a, b in spans:
        if all(b < c or d < a or (c <= a and b <= d) or (a <= c and d <= b) for c, d in kept) and (a, b) not in kept:
            kept.append((a, b))
    return kept


@st.composite
def coref_document(draw):
    starts = draw(st.lists(st.tuples(st.integers(0, TOKENS - 1), st.integers(0, 3)), max_size=6))
    spans = _laminar([(a, min(a + w, TOKENS - 1)) for a, w in starts])
    clusters = collections.defaultdict(list)
    for span in spans:
        clusters[draw(st.integers(0, 2))].append(list(span))
    return [clusters[k] for k in sorted(clusters)]


@st.composite
def coref_corpus(draw):
    n = draw(st.integers(1, 4))
    return {"predictions": [draw(coref_document()) for _ in range(n)], "references": [draw(coref_document()) for _ in range(n)]}


def conll_text(documents, newline="\n"):
    """CoNLL-2012 documents doc0, doc1, ... of TOKENS tokens holding the span clusters."""
    lines = []
    for number, clusters in enumerate(documents):
        cells = [[] for _ in range(TOKENS)]
        for entity, cluster in enumerate(clusters):
            for a, b in cluster:
                if a == b:
                    cells[a].append(f"({entity})")
                else:
                    cells[a].append(f"({entity}")
                    cells[b].insert(0, f"{entity})")
        lines.append(f"#begin document (doc{number}); part 000")
        lines += [f"doc{number}\t0\t{t}\tw{t}\t{'|'.join(cell) or '-'}" for t, cell in enumerate(cells)]
        lines += ["", "#end document"]
    return newline.join(lines) + newline


def coref_files(corpus, folder, newline="\n", bom=False, encoding="utf-8"):
    paths = []
    for name, column in (("key.conll", "references"), ("response.conll", "predictions")):
        path = Path(folder) / name
        path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + conll_text(corpus[column], newline).encode(encoding))
        paths.append(str(path))
    return paths


# quad: " & "-joined quads of " | "-joined elements ---------------------------------------------

TARGETS = ["food", "staff", "服务", "服务态度", "价格", "NULL"]
OPINIONS = ["good", "rude", "很好", "好", "贵"]
ASPECTS = ["food#taste", "service#general", "价格#水平"]
POLARITIES = ["pos", "neg", "正面"]


@st.composite
def quad_sample(draw):
    quads = draw(st.lists(st.tuples(*(st.sampled_from(v) for v in (TARGETS, OPINIONS, ASPECTS, POLARITIES))), max_size=3))
    return " & ".join(" | ".join(q) for q in quads)


@st.composite
def quad_corpus(draw):
    n = draw(st.integers(1, 5))
    predictions = [draw(quad_sample()) for _ in range(n)]
    if draw(st.booleans()):
        references = [draw(quad_sample()) for _ in range(n)]
    else:
        references = [draw(st.lists(quad_sample(), min_size=1, max_size=3)) for _ in range(n)]
    return {"predictions": predictions, "references": references}


def quad_files(corpus, folder, **how):
    references = [json.dumps(r, ensure_ascii=False) if isinstance(r, list) else r for r in corpus["references"]]
    return ["--predictions", _write(folder, "p.txt", corpus["predictions"], **how), "--references", _write(folder, "r.txt", references, **how)]


# rationale: 0/1 or soft scores per token, 0/1 gold ----------------------------------------------


@st.composite
def rationale_corpus(draw):
    n = draw(st.integers(1, 6))
    soft = draw(st.booleans())
    score = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 0.3]) if soft else st.integers(0, 1)
    predictions, references = [], []
    for _ in range(n):
        k = draw(st.integers(0, 6))
        predictions.append([draw(score) for _ in range(k)])
        references.append([draw(st.integers(0, 1)) for _ in range(k)])
    return {"predictions": predictions, "references": references}


def rationale_files(corpus, folder, **how):
    lines = {c: [json.dumps(v) for v in corpus[c]] for c in ("predictions", "references")}
    return ["--predictions", _write(folder, "p.txt", lines["predictions"], **how), "--references", _write(folder, "r.txt", lines["references"], **how)]


ZERO_DIVISION = [0.0, 1.0, "nan"]
FAMILIES = {
    family.name: family
    for family in [
        Family(
            "micro_macro", micro_macro, ("predictions", "references"), micro_macro_corpus(),
            {"zero_division": ZERO_DIVISION, "convention": [None, "maven", "jmee"], "per_class": [False, True],
             "labels": [None], "negative_labels": [None], "ignore_index": [-100]},
            micro_macro_files, "micro_macro", gbk=True,
        ),
        Family(
            "csc_sighan", csc_sighan, ("predictions", "references", "sources"), csc_corpus(),
            {"zero_division": ZERO_DIVISION, "correction_match": ["subset", "exact"], "version": ["2015", "2014"],
             "length_mismatch": ["error"], "subtask": [None]},
            csc_files, "sighan", nested=False, gbk=True,
        ),
        Family(
            "csc_common", csc_common, ("predictions", "references", "sources"), csc_corpus(),
            {"zero_division": ZERO_DIVISION, "variant": ["realise", "all", "pycorrector"], "remove_de": [False, True],
             "char_subset": [None], "length_mismatch": [None]},
            csc_files, "csc", nested=False, gbk=True,
        ),
        Family(
            "coref_conll", coref, ("predictions", "references"), coref_corpus(),
            {"zero_division": ZERO_DIVISION, "keep_singletons": [True, False], "metrics": [None]},
            coref_files, "coref",
        ),
        Family(
            "quad_match", quad, ("predictions", "references"), quad_corpus(),
            {"zero_division": ZERO_DIVISION, "similarity": ["rouge_l", "exact"], "duplicates": ["multiset", "list", "set"],
             "weights": [(1, 1, 1, 1)], "tuple_len": ["0123"], "sep_token1": [" & "], "sep_token2": [" | "]},
            quad_files, "quad", nested=False, gbk=True,
        ),
        Family(
            "rationale_f1", rationale, ("predictions", "references"), rationale_corpus(),
            {"zero_division": ZERO_DIVISION, "threshold_rule": [">=", ">"], "threshold": [0.5], "iou_threshold": [0.5],
             "ignore_index": [-100], "auprc": [None]},
            rationale_files, "rationale",
        ),
    ]
}  # fmt: skip
BOOTSTRAP_OPTIONS = ("confidence_level", "n_resamples", "seed")
CLI_ZERO_DIVISION = {0.0: "0", 1.0: "1", "nan": "nan"}


@st.composite
def valid_options(draw, family):
    """Valid compute options (a draw of each listed choice; the default most often left out)."""
    chosen = {}
    for name, values in family.options.items():
        value = draw(st.sampled_from(values))
        if value != values[0] or draw(st.booleans()):
            chosen[name] = value
    return chosen


def nan_allowed(options):
    return options.get("zero_division") == "nan"


# ---------------------------------------------------------------------------------------
# Interfaces: one call per way of reaching a family

_LOADED = {}


def preload():
    """Import evaluate and load every Space before any call is timed (a first import of
    evaluate, transformers and scipy takes many seconds on a busy machine)."""
    for family in FAMILIES.values():
        space_metric(family)


def space_metric(family):
    """A new empty evaluate metric of the family's Space (the module loaded once)."""
    if family.name not in _LOADED:
        import evaluate

        _LOADED[family.name] = evaluate.load(str(ROOT / "spaces" / family.name / f"{family.name}.py"))
    return _LOADED[family.name].fresh()


def call_package(family, corpus, options):
    return family.module.compute(**corpus, **options)


def call_evaluate(family, corpus, options):
    return space_metric(family).compute(**corpus, **options)


def shards(n, cuts):
    """[start, end) ranges splitting n examples at the sorted distinct `cuts`."""
    points = [0] + sorted({c for c in cuts if 0 < c < n}) + [n]
    return list(zip(points, points[1:]))


def _sliceable(value):
    return isinstance(value, (list, tuple)) or getattr(value, "ndim", 0) > 0


def call_add_batch(family, corpus, options, cuts=(1,)):
    metric = space_metric(family)
    if not all(map(_sliceable, corpus.values())):
        metric.add_batch(**corpus)  # not a corpus: what add_batch says of it
        return metric.compute(**options)
    n = min(len(v) for v in corpus.values())
    for start, end in shards(n, cuts) or [(0, 0)]:
        # the last batch takes what a longer column has beyond n (a length mismatch)
        metric.add_batch(**{c: v[start:] if end == n else v[start:end] for c, v in corpus.items()})
    return metric.compute(**options)


_SINGULAR = {"predictions": "prediction", "references": "reference", "sources": "sources"}


def call_add(family, corpus, options):
    metric = space_metric(family)
    if not all(map(_sliceable, corpus.values())):
        metric.add(**{_SINGULAR[c]: v for c, v in corpus.items()})  # not a corpus: what add() says of it
    else:
        for index in range(min(len(v) for v in corpus.values())):
            metric.add(**{_SINGULAR[c]: v[index] for c, v in corpus.items()})
        if len({len(v) for v in corpus.values()}) > 1:
            raise ValueError(f"{' and '.join(corpus)} differ in length (add: the unpaired examples are never added)")
    return metric.compute(**options)


def run_cli(argv):
    """`paperscore ARGV --json` in this process: (exit code, parsed JSON or None, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit():
        code = cli.main(argv + ["--json"])
    return code, (json.loads(out.getvalue()) if code == 0 else None), err.getvalue()


def cli_options(options):
    argv = []
    if "zero_division" in options:
        argv += ["--zero-division", CLI_ZERO_DIVISION[options["zero_division"]]]
    return argv


def call_cli(family, corpus, options, **how):
    """The command line on the corpus written as files (`how`: newline, bom, encoding)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as folder:
        code, result, err = run_cli([family.command, *family.write_files(corpus, folder, **how), *cli_options(options)])
    if code != 0:
        raise ValueError(err.strip())  # the message the user reads, judged as a ValueError's
    return {k: (math.nan if v is None and k.endswith(("precision", "recall", "f1", "accuracy", "rate")) else v) for k, v in result.items()}


INTERFACES = {
    "package": call_package,
    "evaluate": call_evaluate,
    "add_batch": call_add_batch,
    "add": call_add,
    "cli": call_cli,
}


# ---------------------------------------------------------------------------------------
# Model replies for the CSC reply parsers: pieces a chat model writes around a sentence, and
# the separators, brackets and white space a hostile reply repeats (the parsers' patterns
# meet each of them), joined in any order.

REPLY_PIECES = [
    "修改后：", "**修改后的句子：**", "### 修改后", "纠错后的句子：", "好的，以下是修改后的句子：", "Corrected sentence:", "原句：", "解释：",
    "这句话没有错误。", "无需修改", "“搞”应改为“高”", "→", "->", "```", "```json", "<think>", "</think>", "{", "}", "[", '"', "“", "”",
    "「", "」", "（", "）", "(", ")", "**", "#", ">", "- ", "1. ", "：", ":", "，", "。", "\n", "\r", "\r\n", "\t", " ", "\u3000",
    "\xa0", "\u2028", "\x85", "我今天很高兴", "他們去學校", "abc", "no errors", "is correct", "\ud800",
]  # fmt: skip
# The time bound: a linear reader takes 1-2e-6 s a character (short lines cost most), 100x
# that leaves room for a loaded machine; a quadratic one needs 2.5e9 steps at REPLY_LONG.
REPLY_SECONDS_PER_BYTE = 2e-4
REPLY_LONG = 50_000  # characters a drawn reply is repeated to


@st.composite
def csc_reply_text(draw):
    """A reply of 0-40 pieces (REPLY_PIECES, or any text), in any order."""
    pieces = st.one_of(st.sampled_from(REPLY_PIECES), st.text(max_size=6))
    return "".join(draw(st.lists(pieces, max_size=40)))
