"""`paperscore compare <metric> --system ... --test-set NAME ...`: the same systems over
several test sets from the command line, each set read from the files whose paths hold
{set}. Its --json result must be paperscore.compare.test_sets called from Python on the
same data with the same seed (an independent path: the lists given directly, not the
files), and its replicability counts what a hand derivation gives."""

import json
import re

import numpy as np
import pytest

from paperscore import cli, compare
from paperscore.core import fingerprint

SETS = {"sighan13": 150, "sighan14": 220, "sighan15": 180}  # name: examples (sets of other sizes)


def write(folder, stem, name, lines):
    """`stem_{set}.txt` for the set `name`: one line each."""
    (folder / f"{stem}_{name}.txt").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def placeholder(folder, stem):
    return str(folder / f"{stem}_{{set}}.txt")


def run_json(argv, capsys):
    assert cli.main(argv + ["--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def labels(tmp_path):
    """Three sets of labels: a weak baseline, a strong system, one with two runs (seeds),
    and documents of 10 examples (groups)."""
    rng = np.random.default_rng(7)
    sets = {}
    for name, n in SETS.items():
        gold = rng.integers(0, 5, n)
        noisy = lambda accuracy: np.where(rng.random(n) < accuracy, gold, rng.integers(0, 5, n)).tolist()  # noqa: E731
        systems = {"base": noisy(0.5), "strong": noisy(0.8), "seeds": compare.Runs([noisy(0.6), noisy(0.65)])}
        groups = [f"doc{i // 10}" for i in range(n)]
        write(tmp_path, "gold", name, gold)
        for system, outputs in (("base", systems["base"]), ("strong", systems["strong"]), ("seed0", systems["seeds"][0]), ("seed1", systems["seeds"][1])):
            write(tmp_path, system, name, outputs)
        write(tmp_path, "groups", name, groups)
        sets[name] = {"references": gold.tolist(), "systems": systems, "groups": groups}
    argv = ["compare", "micro_macro", "--references", placeholder(tmp_path, "gold"), "--system", f"base={placeholder(tmp_path, 'base')}"]
    argv += ["--system", f"strong={placeholder(tmp_path, 'strong')}", "--system", f"seeds={placeholder(tmp_path, 'seed0')},{placeholder(tmp_path, 'seed1')}"]
    argv += ["--groups", placeholder(tmp_path, "groups"), "--negative-labels", "0"]
    # the options the command passes (its defaults written out), so that the signatures agree too
    return argv, sets, {"labels": None, "negative_labels": [0], "convention": None, "ignore_index": -100}


def sentences(tmp_path):
    """Three sets of CSC sentences (csc_common with --sources): each source one wrong
    character in two of three sentences; the baseline fixes about half of them, the
    system nearly all, each with a few false corrections."""
    rng = np.random.default_rng(11)
    chars = list("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正")
    sets = {}
    for name, n in SETS.items():
        sources, gold, base, strong = [], [], [], []
        for _ in range(n):
            right = "".join(rng.choice(chars, 12))
            at = int(rng.integers(0, 12))
            wrong = right[:at] + ("人" if right[at] != "人" else "大") + right[at + 1 :] if rng.random() < 2 / 3 else right
            source = wrong
            guess = lambda p: right if rng.random() < p else (source if rng.random() < 0.8 else source[:-1] + ("中" if source[-1] != "中" else "国"))  # noqa: E731
            sources.append(source)
            gold.append(right)
            base.append(guess(0.5))
            strong.append(guess(0.9))
        for stem, lines in (("src", sources), ("gold", gold), ("base", base), ("strong", strong)):
            write(tmp_path, stem, name, lines)
        sets[name] = {"references": gold, "systems": {"base": base, "strong": strong}, "sources": sources}
    argv = ["compare", "csc", "--sources", placeholder(tmp_path, "src"), "--references", placeholder(tmp_path, "gold")]
    argv += ["--system", f"base={placeholder(tmp_path, 'base')}", "--system", f"strong={placeholder(tmp_path, 'strong')}"]
    return argv, sets, {}


def replies(tmp_path):
    """Three sets of model texts read by quad's --parse asqp_paraphrase (the references
    too): the baseline right on about half the examples, the system on 90%."""
    rng = np.random.default_rng(3)
    sets = {}
    for name, n in SETS.items():
        gold, base, strong = [], [], []
        for i in range(n):
            text = f"food quality is {('great', 'ok', 'bad')[i % 3]} because pizza{i} is tasty{i % 7}"
            gold.append(text)
            base.append(text if rng.random() < 0.5 else text.replace("tasty", "cold"))
            strong.append(text if rng.random() < 0.9 else text.replace("pizza", "pasta"))
        for stem, lines in (("gold", gold), ("base", base), ("strong", strong)):
            write(tmp_path, stem, name, lines)
        sets[name] = {"references": gold, "systems": {"base": base, "strong": strong}}
    argv = ["compare", "quad", "--parse", "asqp_paraphrase", "--references", placeholder(tmp_path, "gold")]
    argv += ["--system", f"base={placeholder(tmp_path, 'base')}", "--system", f"strong={placeholder(tmp_path, 'strong')}"]
    return argv, sets, {"parse": "asqp_paraphrase"}


@pytest.mark.filterwarnings("ignore")  # few differing examples in a set: compare's own warning
@pytest.mark.parametrize("metric, make", [("micro_macro", labels), ("csc_common", sentences), ("quad_match", replies)], ids=["micro_macro", "csc", "quad"])
def test_the_command_line_equals_test_sets_from_python(metric, make, tmp_path, capsys):
    argv, sets, options = make(tmp_path)
    argv += [word for name in SETS for word in ("--test-set", name)] + ["--seed", "4", "--n-resamples", "200"]
    got = run_json(argv, capsys)
    expected = json.loads(json.dumps(compare.test_sets(metric, sets, n_resamples=200, seed=4, **options)))
    assert [t["test_set"] for t in got["test_sets"]] == list(SETS)
    assert [len(t["systems"]) for t in got["test_sets"]] == [len(next(iter(sets.values()))["systems"])] * len(SETS)
    assert got["test_sets"] == expected["test_sets"]  # per set: scores, intervals, differences, p-values, references
    assert got["replicability"] == expected["replicability"]
    for own, spec in zip(got["test_sets"], sets.values()):
        assert own["references"]["fingerprint"] == fingerprint(spec["references"])
        assert own["groups"] == (None if "groups" not in spec else len(set(spec["groups"])))
    if metric == "micro_macro":  # the same options given: the same signature
        assert got["signature"] == expected["signature"]
    named = ",".join(f"{name}={fingerprint(spec['references'])}" for name, spec in sets.items())
    assert f"|test_sets:{named}|" in got["signature"] and f"|test_sets:{named}|" in expected["signature"]
    # the Markdown table: every set's name, its references' fingerprint, the signature
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    header = text.splitlines()[0]
    assert all(f"| {name}: " in header for name in SETS)
    assert all(f"references ({name}): {fingerprint(spec['references'])}\n" in text for name, spec in sets.items())
    assert text.rstrip("\n").endswith(f"signature: {got['signature']}")


def test_replicability_counts_known_by_hand(tmp_path, capsys):
    """Three sets of 200, 300 and 250 labels (5 classes). `base` is wrong on every
    example, `same` is base's file, `right` is the references.
    - same: every resampled difference is 0, and 0 is at least as far from 0 as the
      observed 0, so p = (R + 1) / (R + 1) = 1 on every set, 1 after Holm; the partial
      conjunction p-value of "on at least 1 set" is min(1, 3 x 1) = 1 > 0.05 (Fisher's:
      P(chi2_6 >= 0) = 1): count 0 for both.
    - right: micro F1 1 against 0 in every resample, so the resampled differences are all
      1 and, shifted to mean 0, all 0: none is as far from 0 as the observed 1, p = 1 /
      (R + 1) = 1/201. Holm over the 2 comparisons: min(1, 2/201) = 0.00995 (the other's
      max(0.00995, 1) = 1). Bonferroni's partial conjunction for "on at least u sets",
      u = 1, 2, 3: (3 - u + 1) x 0.00995 = 0.0299, 0.0199, 0.00995, all <= 0.05: count 3;
      Fisher's (larger of u = 1: -2 log(0.00995^3) = 27.7 on 6 degrees of freedom, p =
      1.1e-4 and smaller for u = 2, 3; u = 3 is 0.00995): count 3."""
    sizes = {"a": 200, "b": 300, "c": 250}
    rng = np.random.default_rng(0)
    for name, n in sizes.items():
        gold = rng.integers(0, 5, n)
        write(tmp_path, "gold", name, gold)
        write(tmp_path, "base", name, (gold + 1) % 5)
        write(tmp_path, "right", name, gold)
    argv = ["compare", "micro_macro", "--references", placeholder(tmp_path, "gold"), "--system", f"base={placeholder(tmp_path, 'base')}"]
    argv += ["--system", f"same={placeholder(tmp_path, 'base')}", "--system", f"right={placeholder(tmp_path, 'right')}"]
    argv += [word for name in sizes for word in ("--test-set", name)] + ["--seed", "1", "--n-resamples", "200"]
    got = run_json(argv, capsys)
    for table in got["test_sets"]:
        (same, right) = table["comparisons"]
        assert (same["difference"], same["p_value"], same["p_value_adjusted"]) == (0.0, 1.0, 1.0)
        assert (right["difference"], right["p_value"]) == (1.0, pytest.approx(1 / 201, abs=1e-15))
        assert right["p_value_adjusted"] == pytest.approx(2 / 201, abs=1e-15)
    assert got["replicability"] == [
        {"system": "same", "test_sets": 3, "bonferroni": 0, "fisher": 0, "sets": []},
        {"system": "right", "test_sets": 3, "bonferroni": 3, "fisher": 3, "sets": ["a", "b", "c"]},
    ]


REFS, BASE, RIGHT = "--references=gold_{set}.txt", "--system=base=base_{set}.txt", "--system=right=right_{set}.txt"
SETS_AB = ["--test-set", "a", "--test-set", "b"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--references=gold_a.txt", BASE, RIGHT, *SETS_AB], r"--references: 'gold_a\.txt' holds no \{set\}: with --test-set each set is read from its own files"),
        ([REFS, BASE, "--system=right=right_a.txt", *SETS_AB], r"--system: 'right=right_a\.txt' holds no \{set\}"),
        ([REFS, BASE, RIGHT, *SETS_AB, "--groups", "groups.txt"], r"--groups: 'groups\.txt' holds no \{set\}"),
        ([REFS, BASE, RIGHT, *SETS_AB, "--test-set", "a"], r"--test-set: 'a' given twice: each test set once"),
        ([REFS, BASE, RIGHT, *SETS_AB, "--test-set", ""], r"--test-set: '' is not a name"),
        ([REFS, BASE, RIGHT, *SETS_AB, "-b"], r"-b/--score-only: a results table has no one number to print \(each system's replicability counts\); read it from --json"),
        ([REFS, "--system-a=base_{set}.txt", "--system-b=right_{set}.txt", *SETS_AB], r"--test-set: compares a results table over several test sets: give the systems as --system NAME=FILE"),
    ],
    ids=["references", "system", "groups", "twice", "empty", "score-only", "without-system"],
)
def test_refusals_name_the_option(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("a", "b"):
        for stem in ("gold", "base", "right"):
            write(tmp_path, stem, name, [1, 2, 3])
    assert cli.main(["compare", "micro_macro", *argv]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(f"paperscore compare: error: {message}.*\n", err), err
