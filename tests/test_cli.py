"""The command line as users of sacrebleu and scorer.pl expect it: `-` for standard input
in every file argument (once per command), a help line with its default for every option,
the Space names as command names, a score-only output, and exit statuses that tell bad
data (1) from a usage error (2)."""

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, ROOT

from paperscore import cli

SIGHAN15 = DATA / "sighan15"
CONLL = str(DATA / "coref_conll" / "158_emma_brat.conll")
QUADS = ["food | good | food#quality | pos", "staff | rude | service#general | neg & price | cheap | price#level | pos", ""]
QUAD_GUESSES = ["food | great | food#quality | pos", "staff | rude | service#general | neg", "price | cheap | price#level | pos"]


def files(tmp_path):
    """One small input per kind of file the commands read: {name: path}."""
    texts = {
        "labels_pred": "None\nAttack\nDie\nAttack\n",
        "labels_gold": "None\nAttack\nAttack\nDie\n",
        "quad_pred": "\n".join(QUAD_GUESSES) + "\n",
        "quad_gold": "\n".join(QUADS) + "\n",
        "sources": "我門很好\n他再家\n",
        "csc_pred": "我們很好\n他再家\n",
        "csc_gold": "我們很好\n他在家\n",
    }
    paths = {name: tmp_path / f"{name}.txt" for name in texts}
    for name, text in texts.items():
        paths[name].write_text(text, encoding="utf-8")
    paths.update(
        rationale_pred=DATA / "rationale_f1" / "sample.pred.jsonl",
        rationale_gold=DATA / "rationale_f1" / "sample.gold.jsonl",
        result=SIGHAN15 / "SIGHAN15_Toy_Result.txt",
        truth=SIGHAN15 / "SIGHAN15_Toy_Truth.txt",
        eraser_a=DATA / "rationale_eraser" / "movies_sample.a.jsonl",
        eraser_b=DATA / "rationale_eraser" / "movies_sample.b.jsonl",
    )
    return {name: str(path) for name, path in paths.items()}


# Each command with its file arguments: (argv template, the file arguments in it).
COMMANDS = {
    "micro_macro": (["micro_macro", "--predictions", "{labels_pred}", "--references", "{labels_gold}"], ["{labels_pred}", "{labels_gold}"]),
    "rationale": (["rationale", "--predictions", "{rationale_pred}", "--references", "{rationale_gold}"], ["{rationale_pred}", "{rationale_gold}"]),
    "quad": (["quad", "--predictions", "{quad_pred}", "--references", "{quad_gold}"], ["{quad_pred}", "{quad_gold}"]),
    "sighan_labels": (["sighan", "-i", "{result}", "-t", "{truth}"], ["{result}", "{truth}"]),
    "sighan_sentences": (["sighan", "--sources", "{sources}", "--predictions", "{csc_pred}", "--references", "{csc_gold}"], ["{sources}", "{csc_pred}", "{csc_gold}"]),
    "csc": (["csc", "--sources", "{sources}", "--predictions", "{csc_pred}", "--references", "{csc_gold}", "--variant", "all"], ["{sources}", "{csc_pred}", "{csc_gold}"]),
    "coref": (["coref", CONLL, CONLL], [CONLL, CONLL]),
    "compare_micro_macro": (["compare", "micro_macro", "--references", "{labels_gold}", "--system-a", "{labels_pred}", "--system-b", "{labels_gold}", "--seed", "1", "--n-resamples", "50"], ["{labels_gold}", "{labels_pred}", "{labels_gold}"]),
    "compare_quad": (["compare", "quad", "--references", "{quad_gold}", "--system-a", "{quad_pred}", "--system-b", "{quad_gold}", "--seed", "1", "--n-resamples", "50"], ["{quad_gold}", "{quad_pred}", "{quad_gold}"]),
    "compare_rationale": (["compare", "rationale", "--references", "{rationale_gold}", "--system-a", "{rationale_pred}", "--system-b", "{rationale_gold}", "--seed", "1", "--n-resamples", "50"], ["{rationale_gold}", "{rationale_pred}", "{rationale_gold}"]),
    "compare_sighan": (["compare", "sighan", "--references", "{truth}", "--system-a", "{result}", "--system-b", "{truth}", "--seed", "1", "--n-resamples", "50"], ["{truth}", "{result}", "{truth}"]),
    "compare_csc": (["compare", "csc", "--sources", "{sources}", "--references", "{csc_gold}", "--system-a", "{csc_pred}", "--system-b", "{csc_gold}", "--seed", "1", "--n-resamples", "50"], ["{sources}", "{csc_gold}", "{csc_pred}", "{csc_gold}"]),
    "compare_coref": (["compare", "coref", "--references", CONLL, "--system-a", CONLL, "--system-b", CONLL, "--seed", "1", "--n-resamples", "20"], [CONLL, CONLL, CONLL]),
    "compare_faithfulness": (["compare", "faithfulness", "--system-a", "{eraser_a}", "--system-b", "{eraser_b}", "--seed", "1", "--n-resamples", "50"], ["{eraser_a}", "{eraser_b}"]),
}  # fmt: skip


def run(argv, capsys, stdin=None, monkeypatch=None):
    """(exit status, stdout, stderr) of cli.main, with `stdin` (bytes) as standard input."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def fill(argv, paths):
    return [arg.format(**paths) for arg in argv]


def positions(argv, template):
    """Where each file argument of `template` sits in argv (a file may be given twice)."""
    found, start = [], 0
    for name in template:
        index = argv.index(name, start) if name in argv[start:] else argv.index(name)
        found.append(index)
        start = index + 1
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_each_file_argument_reads_standard_input_with_or_without_a_byte_order_mark(command, tmp_path, capsys, monkeypatch):
    template, file_arguments = COMMANDS[command]
    paths = files(tmp_path)
    argv = fill(template, paths) + ["--json"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    expected = json.loads(out)
    for index in positions(template, file_arguments):
        path = argv[index]
        data = open(path, "rb").read()
        for payload in (data, b"\xef\xbb\xbf" + data):
            piped = argv[:index] + ["-"] + argv[index + 1 :]
            code, out, err = run(piped, capsys, stdin=payload, monkeypatch=monkeypatch)
            assert code == 0, (piped, err)
            assert json.loads(out) == expected, piped


@pytest.mark.parametrize("command", COMMANDS)
def test_two_files_from_standard_input_are_refused_before_reading(command, tmp_path, capsys, monkeypatch):
    template, file_arguments = COMMANDS[command]
    argv = fill(template, files(tmp_path))
    first, second = positions(template, file_arguments)[:2]
    argv[first] = argv[second] = "-"

    class Unread:
        def __getattr__(self, name):
            raise AssertionError("standard input was read")

    monkeypatch.setattr(sys, "stdin", Unread())
    code, out, err = run(argv, capsys)
    assert code == 1 and out == ""
    assert "only one file can be read from standard input (-)" in err, err


def walk(parser, path=("paperscore",)):
    """(command path, action) of every option and argument of every (sub)command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, path + (name,))
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield path, action


def test_every_option_says_what_it_does_and_its_default():
    actions = list(walk(cli.build_parser(cli.commands())))
    assert len(actions) > 100
    for path, action in actions:
        name = " ".join(path) + " " + (action.option_strings[-1] if action.option_strings else action.dest)
        assert action.help and len(action.help) > 10, f"{name}: no help"
        if isinstance(action, argparse._StoreTrueAction):
            continue  # a flag: off unless given
        if action.default is not None:
            assert "default" in action.help, f"{name}: default {action.default!r} not stated"


def help_text(argv, capsys):
    code, out, _ = run(argv + ["--help"], capsys)
    assert code == 0
    return out


# The Space names (spaces/<name>/) and the module names the issue asks for.
SPACE_NAMES = {"csc_sighan": "sighan", "coref_conll": "coref", "csc_common": "csc", "quad_match": "quad", "rationale_f1": "rationale", "micro_macro": "micro_macro"}


@pytest.mark.parametrize("space, command", SPACE_NAMES.items())
def test_space_names_are_command_names(space, command, capsys):
    def words(name):  # the help without the program name and line wrapping
        return help_text([name], capsys).replace(f"paperscore {command}", "paperscore X").replace(f"paperscore {space}", "paperscore X").split()

    assert words(space) == words(command)


def test_a_space_name_scores_as_its_command(tmp_path, capsys):
    argv = fill(COMMANDS["sighan_labels"][0], files(tmp_path)) + ["--json"]
    _, by_command, _ = run(argv, capsys)
    _, by_space, _ = run(["csc_sighan"] + argv[1:], capsys)
    assert json.loads(by_space) == json.loads(by_command) and "correction_f1" in by_command


def test_score_only_prints_sklearns_number(tmp_path, capsys):
    """-b prints micro F1 alone (sacrebleu's -b); --metric-key another number."""
    from sklearn.metrics import f1_score

    paths = files(tmp_path)
    predictions, references = (open(paths[name]).read().split() for name in ("labels_pred", "labels_gold"))
    argv = fill(COMMANDS["micro_macro"][0], paths)
    code, out, _ = run(argv + ["-b"], capsys)
    assert code == 0 and out == f"{f1_score(references, predictions, average='micro')!r}\n"
    code, out, _ = run(argv + ["--score-only", "--metric-key", "macro_f1"], capsys)
    assert code == 0 and float(out) == pytest.approx(f1_score(references, predictions, average="macro"), abs=1e-15)


# The headline each family reports, as its card and `paperscore compare` name it.
HEADLINES = {
    "micro_macro": "micro_f1", "rationale": "f1", "quad": "optimal_f1", "sighan_labels": "correction_f1",
    "sighan_sentences": "correction_f1", "coref": "conll_f1", "compare_micro_macro": "p_value", "compare_coref": "p_value",
    "compare_faithfulness": "p_value",
}  # fmt: skip


@pytest.mark.parametrize("command, key", HEADLINES.items())
def test_score_only_prints_the_headline(command, key, tmp_path, capsys):
    argv = fill(COMMANDS[command][0], files(tmp_path))
    _, out, _ = run(argv + ["--json"], capsys)
    expected = json.loads(out)[key]
    code, out, _ = run(argv + ["-b"], capsys)
    assert code == 0 and out.strip() == repr(expected)


def test_score_only_with_variant_all_prints_realise(tmp_path, capsys):
    argv = fill(COMMANDS["csc"][0], files(tmp_path))
    _, out, _ = run(argv + ["--json"], capsys)
    code, score, _ = run(argv + ["-b"], capsys)
    assert code == 0 and score.strip() == repr(json.loads(out)["realise/sentence_correction_f1"])


def test_the_help_and_the_readme_state_the_exit_statuses(capsys):
    for text in (help_text([], capsys), help_text(["micro_macro"], capsys), (ROOT / "README.md").read_text(encoding="utf-8")):
        assert "0  success" in text and "1  bad data" in text and "2  usage error" in text


@pytest.mark.parametrize(
    "extra, code, message",
    [
        ([], 0, None),
        (["--no-such-option"], 2, "unrecognized arguments: --no-such-option"),
        (["--confidence-level", "1.5"], 2, "confidence_level: 1.5 is not strictly between 0 and 1"),
        (["--n-resamples", "0"], 2, "n_resamples: 0 is not an integer from 1 to 1,000,000"),
        (["--zero-division", "2"], 2, "zero_division: 2.0 is not one of"),
        (["--json", "-b"], 2, "not allowed with argument"),
        (["-b", "--metric-key", "nope"], 2, "--metric-key: 'nope' is not one of accuracy, "),
    ],
)
def test_exit_status_tells_bad_data_from_a_usage_error(extra, code, message, tmp_path, capsys):
    status, _, err = run(fill(COMMANDS["micro_macro"][0], files(tmp_path)) + extra, capsys)
    assert status == code, err
    if message:
        assert message in err


def test_missing_command_and_file_statuses_as_a_process(tmp_path):
    """The status the shell sees: 2 for a usage error, 1 for a file that cannot be read."""
    command = [sys.executable, "-m", "paperscore"]
    env = {"PYTHONPATH": str(ROOT / "shared")}
    usage = subprocess.run(command + ["micro_macro", "--predictions", "x"], capture_output=True, text=True, env=env)
    missing = subprocess.run(command + ["micro_macro", "--predictions", "x", "--references", str(tmp_path / "none.txt")], capture_output=True, text=True, env=env)
    assert usage.returncode == 2 and "the following arguments are required: --references" in usage.stderr
    assert missing.returncode == 1 and "cannot read" in missing.stderr


DEEP = "[" * 100_000 + "]" * 100_000 + "\n"


@pytest.mark.parametrize("command", ["micro_macro", "rationale", "quad", "compare_micro_macro", "compare_rationale", "compare_quad", "compare_faithfulness"])
def test_json_nested_100000_deep_is_bad_data(command, tmp_path, capsys):
    template, file_arguments = COMMANDS[command]
    paths = files(tmp_path)
    deep = tmp_path / "deep.txt"
    deep.write_text(DEEP * 3)
    argv = fill(template, paths)
    argv[positions(template, file_arguments)[-1]] = str(deep)
    code, out, err = run(argv, capsys)
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.startswith(f"paperscore {template[0]}: error: ") and "nested too deep" in err


def test_a_label_beyond_int64_is_bad_data(tmp_path, capsys):
    (tmp_path / "big.txt").write_text(f"{2**64}\n1\n")
    (tmp_path / "small.txt").write_text("1\n1\n")
    code, out, err = run(["micro_macro", "--predictions", str(tmp_path / "big.txt"), "--references", str(tmp_path / "small.txt")], capsys)
    assert code == 1 and out == "" and err.startswith("paperscore micro_macro: error: ") and "Traceback" not in err


# Output the stream cannot encode (issue 28): text reaches the output that standard output's
# encoding lacks (Chinese, "é" under ascii) or that no encoding has (a lone surrogate, read
# from a JSON escape). Every command writes it escaped, as cli's docstring says, with no
# traceback: JSON \uXXXX escapes with --json (the JSON reads back to the same strings),
# backslashreplace in tables.
LONE = "\ud800"
HOSTILE_TEXTS = {
    "labels_pred": '"\\ud800"\n"中文"\n"é"\n"中文"\n',
    "labels_gold": '"\\ud800"\n"中文"\n"中文"\n"é"\n',
    "quad_pred": '[["服务\\ud800", "好", "a", "b"], ["价格", "贵", "a", "é"]]\n[["x", "y", "a", "b"]]\n[]\n',
    "quad_gold": '[["服务\\ud800", "好", "a", "b"]]\n[["x", "很好", "a", "b"]]\n[["z", "y", "a", "b"]]\n',
}
# A coreference key in jsonlines: a document name and tokens holding a lone surrogate and Chinese.
HOSTILE_COREF = '{"doc_key": "d\\ud800中", "sentences": [["他", "说", "\\ud800"]], "clusters": [[[0, 0], [2, 2]]]}\n'
# The options that put the inputs' strings in the output.
SHOWING = {"micro_macro": ["--per-class"], "quad": ["--details", "--format", "json"], "compare": [], "coref": ["--per-document"], "rationale": ["--per-example"]}


def hostile(command, tmp_path):
    """argv of COMMANDS[command] on inputs holding text no stream can write as it is."""
    paths = files(tmp_path)
    for name, text in HOSTILE_TEXTS.items():
        Path(paths[name]).write_text(text, encoding="utf-8")
    coref = tmp_path / "coref.jsonl"
    coref.write_text(HOSTILE_COREF, encoding="utf-8")
    argv = [str(coref) if arg == CONLL else arg for arg in fill(COMMANDS[command][0], paths)]
    extra = SHOWING.get(argv[0], [])
    if command == "compare_quad":
        extra = ["--format", "json"]
    return argv + extra


def process(argv, encoding):
    """(exit status, stdout bytes, stderr text) of `python -m paperscore` with standard
    output in `encoding`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "shared"), "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-m", "paperscore", *argv], capture_output=True, env=env)
    return done.returncode, done.stdout, done.stderr.decode(encoding, "backslashreplace")


@pytest.mark.parametrize(
    "command, encoding, output",
    [(command, "ascii", "table") for command in sorted(COMMANDS)] + [(command, "latin-1", "--json") for command in sorted(COMMANDS) if "compare" not in command],
)
def test_every_command_escapes_what_standard_output_cannot_encode(command, encoding, output, tmp_path, capsys):
    argv = hostile(command, tmp_path) + (["--json"] if output == "--json" else [])
    code, out, err = process(argv, encoding)
    assert code == 0 and "Traceback" not in err, err
    text = out.decode(encoding)  # strict: everything written is in the encoding
    reference, expected, _ = run(argv, capsys)  # in process, standard output UTF-8 (pytest's)
    assert reference == 0
    if output == "--json":
        assert json.loads(text) == json.loads(expected)  # lossless
    else:
        assert text == expected.encode(encoding, "backslashreplace").decode(encoding)


def test_a_lone_surrogate_is_an_escape_in_every_output(tmp_path):
    """The issue's three reproductions, standard output UTF-8: the surrogate, read from the
    JSON escape \\ud800, is written as that escape (--json reads back to it)."""
    code, out, err = process(hostile("micro_macro", tmp_path) + ["--json"], "utf-8")
    assert code == 0 and LONE in json.loads(out)["per_class"], err
    code, out, err = process(hostile("micro_macro", tmp_path), "utf-8")
    assert code == 0 and "\\ud800 " in out.decode() and "中文" in out.decode(), err
    code, out, err = process(hostile("coref", tmp_path) + ["--json"], "utf-8")
    assert code == 0 and [d["document"] for d in json.loads(out)["per_document"]] == ["d" + LONE + "中"], err
    code, out, err = process(hostile("quad", tmp_path), "latin-1")
    assert code == 0 and "\\u670d\\u52a1\\ud800 | \\u597d" in out.decode("latin-1"), err


def test_a_help_is_written_to_an_ascii_stream():
    """csc's help names 地/得: under PYTHONIOENCODING=ascii it is escaped, not a traceback."""
    code, out, err = process(["csc", "--help"], "ascii")
    assert code == 0 and "\\u5730/\\u5f97" in out.decode("ascii") and not err


@pytest.mark.parametrize("command", [[], *([name] for name in cli.commands())])
def test_every_help_is_written_to_an_ascii_stream_in_process(command, capsys, monkeypatch):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")  # strict, as PYTHONIOENCODING=ascii makes it
    monkeypatch.setattr(sys, "stdout", stream)
    assert cli.main(command + ["--help"]) == 0
    stream.flush()
    assert stream.buffer.getvalue().decode("ascii").startswith("usage: paperscore") and stream.errors == "strict"


# Issue 26: a tiny file's first result within 1.5x `import numpy` (bench_first_result.py).
# What each command may import of the package: its family and the modules that family imports.
FAMILIES = {
    "micro_macro": {"micro_macro", "event_spans"}, "rationale": {"rationale"}, "quad": {"quad"},
    "sighan": {"csc", "csc_sighan"}, "csc": {"csc", "csc_common", "csc_llm"}, "coref": {"coref", "corefud"},
    "faithfulness": {"faithfulness"},
}  # fmt: skip
# Modules no command needs for a small input, each a few ms or more of start-up: numpy.ma
# (numpy >= 2.3's plain np.unique and np.isin's sorting path import it: 11 ms), numpy.random
# (only compare resamples), scipy and rouge_score (CEAF's and quad's larger cases), hashlib
# (csc's pids over 1 MB; numpy.random imports it too), decimal (the SIGHAN jar's report),
# pathlib (with urllib.parse and ipaddress).
HEAVY = {"numpy.ma", "numpy.random", "scipy", "rouge_score", "hashlib", "decimal", "pathlib"}
NEEDS = {"compare": {"numpy.random", "hashlib"}, "sighan": {"decimal"}}
IMPORTS = """import contextlib, io, json, sys
if sys.argv[1:]:
    from paperscore import cli
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main(sys.argv[1:])
else:  # what numpy imports of itself is no command's doing
    import numpy
    status = 0
print(json.dumps([status, sorted(sys.modules)]))"""


def imported(argv):
    """(exit status, the modules imported) of `paperscore argv` (no argv: of `import numpy`)
    in a new process without site, whose .pth files may import modules of their own (here
    a sandbox's imports certifi, and with it pathlib, tempfile...)."""
    import site

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), *site.getsitepackages(), site.getusersitepackages()])}
    done = subprocess.run([sys.executable, "-S", "-c", IMPORTS, *argv], capture_output=True, text=True, env=env, timeout=60)
    assert not done.returncode, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def numpy_imports():
    return set(imported([])[1])


@pytest.mark.parametrize("command", [*COMMANDS, "faithfulness"])
def test_a_command_imports_only_what_it_needs(command, tmp_path, numpy_imports):
    """Each command on a small input: no module of HEAVY but those its work needs (or numpy
    imports of itself), no other family than the one named."""
    argv = ["faithfulness", str(DATA / "rationale_eraser" / "movies_sample.a.jsonl")] if command == "faithfulness" else fill(COMMANDS[command][0], files(tmp_path))
    status, modules = imported(argv)
    assert status == 0
    compared = argv[1] if argv[0] == "compare" else None
    family = cli.commands(compared or argv[0])
    (name,) = family
    # family and state: the interface every family's statistics go through, numpy alone
    allowed = {"paperscore", "paperscore.cli", "paperscore.core", "paperscore.parse", "paperscore.family", "paperscore.state"} | {f"paperscore.{m}" for m in FAMILIES[name]}
    allowed |= {"paperscore.compare", "paperscore.significance"} if compared else set()
    assert {m for m in modules if m.startswith("paperscore")} <= allowed
    needed = NEEDS.get(name, set()) | (NEEDS["compare"] if compared else set())
    ours = set(modules) - numpy_imports
    assert {heavy for heavy in HEAVY if any(m == heavy or m.startswith(heavy + ".") for m in ours)} <= needed
