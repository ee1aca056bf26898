# GENERATED from shared/paperscore/compare.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Is system B really better than system A on the same references? Paired bootstrap
resampling (Koehn 2004) and approximate randomization (Noreen 1989; Riezler and Maxwell
2005), as sacrebleu offers for machine translation, for any number of any family.

Both tests work on the per-example statistics of each family (paperscore.family), read
from each system's outputs exactly as compute() reads them (every compute() option works:
parse=, sources=, spans, conventions), never re-running the metric: the family's `paired`
gives each system's table of distinct statistic rows (a numpy array or a scipy sparse
matrix), each example's row code, and `reduce`, which maps example weights over a table
to the family's numbers. Examples whose two rows are the same pair are drawn together, so
the cost grows with distinct pairs, not examples.

- bootstrap: resample examples with replacement; the interval of the difference
  (B - A) is the percentile interval of the resampled differences; the p-value counts
  resampled differences, shifted to mean 0 (the null hypothesis), at least as far from 0
  as the observed one.
- randomization: swap the two systems' outputs on each example with probability 1/2; the
  p-value counts shuffled differences at least as far from 0 as the observed one.
Both p-values are two-sided, (count + 1) / (resamples + 1). "At least as far" (>=) makes
identical systems p = 1; sacrebleu counts strictly farther (>), which gives them p ~ 0.

Few examples. Only the d examples on which the two systems' statistics differ carry
evidence. Under the null hypothesis each of them is as likely to come with A's and B's
outputs swapped, so the 2^d swap patterns are equally likely, and the observed pattern and
its mirror (every example swapped, the difference negated) are always at least as
extreme: the exact randomization p-value is never below 2 / 2^d = 2^(1-d), and no p-value
from d examples can honestly be smaller (randomization's estimate stays near it).
The bootstrap has no such floor: resampling 1 example always draws the observed
difference (p = 1 / (resamples + 1), however small the gain), 2 examples draw one of 3
resamples. So `compare` warns when 2^(1-d) > 1 - confidence_level (d <= 5 at 0.95: no
test can reach significance from so few examples), when a bootstrap p-value falls below
2^(1-d), and when d = 0 (nothing to test). For a handful of examples (coreference on ten
documents) use `method="randomization"`.
"""

import numpy as np

from .paperscore_core import check_bootstrap, check_choice, check_zero_division, compared_files, encode_rows, read_values, signature, with_references
from .paperscore_family import Batch

METHODS = ("bootstrap", "randomization")
CORRECTIONS = ("holm", "bonferroni")


def paired_test(table_a, codes_a, table_b, codes_b, reduce, metric_key, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None):
    """Each system's score on `metric_key`, the difference B - A, its bootstrap interval
    and the p-value of `method`, from per-example statistics (see the module docstring):
    paperscore.significance.compare_systems of the two (its numbers, NaN kept as NaN)."""
    from .paperscore_significance import compare_systems

    if np.shape(codes_a) != np.shape(codes_b):
        raise ValueError(f"system_a and system_b differ in length: {len(codes_a)} against {len(codes_b)} examples")
    table = compare_systems({"system_a": [(table_a, codes_a)], "system_b": [(table_b, codes_b)]}, reduce, metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level, seed=seed)
    (a, b), (c,) = table["systems"], table["comparisons"]
    nan = lambda value: float("nan") if value is None else value  # noqa: E731
    return {
        "metric_key": metric_key,
        "method": method,
        "score_a": nan(a["score"]),
        "score_b": nan(b["score"]),
        "difference": nan(c["difference"]),
        "difference_low": nan(c["difference_low"]),
        "difference_high": nan(c["difference_high"]),
        "p_value": nan(c["p_value"]),
        "n_resamples": n_resamples,
    }


def families():
    """{name: module} of the metrics that take part, under their Space, module and
    command names (coref_conll, coref; csc_sighan, sighan; ...)."""
    from .paperscore_cli import commands

    found = {}
    for module in commands().values():
        if hasattr(module, "family"):
            for name in (module.SPACE, module.__name__.rsplit(".", 1)[-1], module.COMMAND):
                found[name] = module
    return found


def _named(metric):
    """The family that answers to `metric` and takes part, imported alone (not every
    family: that costs a tiny file's first result half the time of `import numpy`); None
    if none does."""
    from .paperscore_cli import commands

    named = list(commands(metric).values()) if isinstance(metric, str) else []
    return named[0] if len(named) == 1 and hasattr(named[0], "family") else None


def _family(metric):
    family = _named(metric)
    if family is not None:
        return family
    found = families()
    if metric not in found:
        raise ValueError(f"metric: {metric!r} is not one of {', '.join(sorted({m.SPACE for m in found.values()}))}")
    return found[metric]


def _rows(fam, system, references, name, inputs):
    """A system's batch, an error about its outputs naming the system (the family reads
    them as `predictions`)."""
    try:
        return fam.rows(system, references, **inputs)
    except ValueError as error:
        text = str(error)
        if text.startswith("predictions"):
            raise ValueError(name + text[len("predictions") :]) from None
        raise


def read_systems(metric, references, outputs, names=None, **options):
    """(family, batches): each system's outputs (a list) read on `references` by the
    family `metric` (a Space, module or command name) under compute()'s options; per-example
    inputs (sources, tokens, ...) among `options` go to every system. names: what errors
    call each system (default system_a, system_b; systems[i])."""
    module = _family(metric)
    inputs = {name: options.pop(name) for name in getattr(module, "EXTRA_INPUTS", ()) if name in options}
    fam = module.family(**options)
    fam = [fam.for_data(system, references) for system in outputs][0] if outputs else fam  # each system checked (coref: CoNLL-U on both sides)
    names = names or (["system_a", "system_b"] if len(outputs) == 2 else [f"systems[{i}]" for i in range(len(outputs))])
    return fam, [_rows(fam, system, references, name, inputs) for system, name in zip(outputs, names)]


class Runs(tuple):
    """Several runs (random seeds) of one system, for systems_table(): Runs([outputs_1, outputs_2, ...])."""


def _shared(runs):
    """The runs' (table, codes) with one table of distinct rows for all (numpy tables of one
    width): paperscore.significance reads a shared table once."""
    tables = [table for table, _ in runs]
    if len(runs) < 3 or len({id(t) for t in tables}) == 1 or not all(isinstance(t, np.ndarray) and t.shape[1] == tables[0].shape[1] for t in tables):
        return runs
    stacked = np.concatenate([table[codes] for table, codes in runs])
    distinct, codes = encode_rows(stacked)
    return [(distinct, part) for part in np.split(codes, np.cumsum([len(c) for _, c in runs])[:-1])]


def _table_inputs(metric, references, named_systems, groups, options):
    """(family, {name: [(table, codes), ...]}, reduce) of one test set."""
    if not isinstance(named_systems, dict) or len(named_systems) < 2:
        raise ValueError("systems: expected {name: outputs} (Runs(...) for several seeds) with a baseline and at least one other system")
    runs = {name: list(value) if isinstance(value, Runs) else [value] for name, value in named_systems.items()}
    labels = [f"systems[{name!r}]" + (f"[{i}]" if len(own) > 1 else "") for name, own in runs.items() for i in range(len(own))]
    outputs = [out for own in runs.values() for out in own]
    if any(map(_is_state, outputs)):  # states kept with keep_rows (their own options and references)
        if references is not None or options.keys() - {"zero_division"}:
            raise ValueError("references, options: states carry their own; give references=None and no option")
        fam, batches, _ = state_batches(outputs, labels)
    else:
        fam, batches = read_systems(metric, references, outputs, labels, **options)
    paired, reduce = fam.paired(*batches)
    paired = _shared(paired)
    out, at = {}, 0
    for name, own in runs.items():
        out[name], at = paired[at : at + len(own)], at + len(own)
    return fam, out, reduce


def systems_table(metric, references, named_systems, baseline=None, metric_key=None, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, correction="holm", groups=None, **options):
    """A results table: any number of systems against one baseline (the first, or
    `baseline`) on the same references, each system one run (its outputs) or several
    (Runs([...]): random seeds), under a paperscore metric with its compute() options
    (parse=, sources=, conventions, ...). paperscore.significance.compare_systems' table:
    each system's score with its interval (and, with seeds, their spread), each difference
    from the baseline with its interval, raw p-values and p-values adjusted for the number
    of comparisons (Holm by default, "bonferroni"); with seeds a two-level bootstrap and
    ASO beside it; groups= (one document or dialogue id per example) resamples clusters.
    Adds "references" (the fingerprint, and the public copy it is, when known) and the
    signature. significance.markdown(result) / latex(result) write it out."""
    from .paperscore_significance import compare_systems

    module = _family(metric)
    check_choice("method", method, METHODS)
    check_bootstrap(confidence_level, n_resamples, seed)
    fam, runs, reduce = _table_inputs(metric, references, named_systems, groups, dict(options))
    metric_key = metric_key or fam.headline()
    result = compare_systems(runs, reduce, metric_key, baseline, method, n_resamples, confidence_level, seed, correction, groups)
    if references is None:  # states: compared on their references' checks
        result["references"] = None
        result["signature"] = signature(f"compare|{module.SPACE}", metric_key=metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level, seed=seed, correction=correction, groups=groups is not None, **fam.options)
        return result
    result["references"] = _named_references(references)
    result["signature"] = with_references(_table_signature(module, fam, metric_key, method, n_resamples, confidence_level, seed, correction, options, groups=groups is not None), references)
    return result


def _table_signature(module, fam, metric_key, method, n_resamples, confidence_level, seed, correction, options, **fields):
    """The signature of a results table read from corpora: the test's settings, `fields`,
    then the metric's options (per-example inputs such as CSC's sources are data, not
    options: they stay out)."""
    named = {name: options[name] for name in sorted(options) if name not in ("zero_division",) + getattr(module, "EXTRA_INPUTS", ())}
    if named.get("parse") is not None:  # the parser with its version, as compute's signature names it
        named["parse"] = fam.options["parse"]
    return signature(
        f"compare|{module.SPACE}", metric_key=metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level, seed=seed,
        correction=correction, **fields, zero_division=check_zero_division(options.get("zero_division", 0.0)), **named,
    )  # fmt: skip


def test_sets(metric, sets, baseline=None, metric_key=None, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, correction="holm", **options):
    """The same systems compared on several test sets (SIGHAN 13/14/15, Rest15/Rest16, ...):
    sets = {set name: {"references": ..., "systems": {name: outputs or Runs}, and any
    per-example input (sources=, tokens=) or "groups"}}. Each set's table (systems_table) and,
    per system, on how many sets its difference from the baseline holds after correction
    (Dror et al. 2017: Bonferroni's and Fisher's counts; paperscore.significance)."""
    from .paperscore_significance import compare_test_sets

    module = _family(metric)
    check_choice("method", method, METHODS)
    if not isinstance(sets, dict) or not sets:
        raise ValueError("sets: expected {test set name: {\"references\": ..., \"systems\": {...}}}")
    given, key = {}, metric_key
    for name, spec in sets.items():
        if not isinstance(spec, dict) or "references" not in spec or "systems" not in spec:
            raise ValueError(f"sets[{name!r}]: expected a dict with \"references\" and \"systems\"")
        extra = {k: v for k, v in spec.items() if k not in ("references", "systems", "groups")}
        fam, runs, reduce = _table_inputs(metric, spec["references"], spec["systems"], spec.get("groups"), {**options, **extra})
        key = key or fam.headline()
        given[name] = {"systems": runs, "reduce": reduce, "groups": spec.get("groups")}
    result = compare_test_sets(given, key, baseline, method, n_resamples, confidence_level, seed, correction)
    for entry, spec in zip(result["test_sets"], sets.values()):
        entry["references"] = _named_references(spec["references"])
    # each set named with its references' fingerprint (a `refs:` field holds one test set's)
    named_sets = [f"{entry['test_set']}={entry['references']['fingerprint']}" for entry in result["test_sets"]]
    groups = any(spec.get("groups") is not None for spec in sets.values())
    result["signature"] = _table_signature(module, fam, key, method, n_resamples, confidence_level, seed, correction, options, groups=groups, test_sets=named_sets)
    return result


def _named_references(references):
    from .paperscore_core import fingerprint, known_copy

    found = fingerprint(references)
    return {"fingerprint": found, "known_copy": known_copy(found)}


def check_results(results):
    """Results computed elsewhere (the Spaces' dicts with return_signature=True, or their signatures), by name, before
    they share a table: warns when their test sets' fingerprints (the signatures' `refs:`)
    differ, naming each known public copy, and returns {name: fingerprint}. A result
    whose signature has no `refs:` is a ValueError: it cannot be checked."""
    import warnings

    from .paperscore_core import known_copy

    found = {}
    for name, result in results.items():
        text = result.get("signature", "") if isinstance(result, dict) else str(result)
        refs = [part[len("refs:"):] for part in text.split("|") if part.startswith("refs:")]
        if len(refs) != 1:
            raise ValueError(f"results[{name!r}]: its signature names no test set (no refs: field): {text[:120]!r}")
        found[name] = refs[0]
    if len(set(found.values())) > 1:
        named = "; ".join(f"{name}: refs:{value}" + (f" ({known_copy(value)})" if known_copy(value) else "") for name, value in found.items())
        warnings.warn(f"these results were computed on different references, so their numbers are not comparable: {named}", UserWarning, stacklevel=2)
    return found


def _is_state(value):
    from .paperscore_state import State

    return isinstance(value, State)


def state_batches(states, names):
    """(family, batches, the references' fingerprint) of states kept with keep_rows=True,
    one per system: each system's rows in example order (a state merged in corpus order).
    They must be of one family with equal options and version, scored against the same
    references in the same order (their checks: core.example_checks), else a ValueError."""
    from .paperscore_core import fingerprint

    first = states[0]
    for name, state in zip(names, states):
        if not _is_state(state):
            raise ValueError(f"{name}: a {type(state).__name__}, but {names[0]} is a state: give every system as a state or none")
        if not state.keep_rows:
            raise ValueError(f"{name}: a state made without keep_rows=True keeps sums only; a paired test needs each example's row")
        if (state.family, repr(state.options), state.version) != (first.family, repr(first.options), first.version):
            raise ValueError(f"{name}: a {state.family} state with options {state.options} (paperscore {state.version}), but {names[0]} is a {first.family} state with {first.options} (paperscore {first.version})")
    if hasattr(first, "checks"):
        for name, state in zip(names[1:], states[1:]):
            if not np.array_equal(state.checks, first.checks):
                raise ValueError(f"{name}: scored against other references than {names[0]} (or in another order; {len(state.checks)} against {len(first.checks)} examples): a paired test compares systems on the same examples")
        return first.fam, [Batch(state.rows(), None, state.records) for state in states], fingerprint(first.checks)
    for name, state in zip(names[1:], states[1:]):  # micro_macro: the labels themselves
        if state.rows[1] != first.rows[1]:
            raise ValueError(f"{name}: scored against other references than {names[0]} (or in another order): a paired test compares systems on the same examples")
    read = type(first.fam)({**first.options, "parse": None, "strict": False, "types": None})  # the labels kept are read already
    return first.fam, [read.rows(*state.rows) for state in states], fingerprint(first.rows[1])


def paired_statistics(metric, references, system_a, system_b, **options):
    """What paired_test takes: each system's table of distinct statistic rows, each
    example's row code, and reduce(weights, table) (the family's `paired`)."""
    fam, (a, b) = read_systems(metric, references, [system_a, system_b], **options)
    ((table_a, codes_a), (table_b, codes_b)), reduce = fam.paired(a, b)
    return table_a, codes_a, table_b, codes_b, reduce


def compare(metric, references, system_a, system_b, metric_key=None, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, **options):
    """Compare two systems' outputs on the same references under a paperscore metric.

    metric: a Space name ("micro_macro", "csc_sighan", "csc_common", "coref_conll",
    "quad_match", "rationale_f1"; the package module and command names work too), or
    "faithfulness" (ERASER's, references=None: faithfulness.compare_results);
    options: that metric's compute() options (zero_division, parse=, sources=, spans,
    conventions: all it takes but its output and bootstrap options).
    metric_key: the number compared (default: the metric's headline, e.g. micro_f1).
    Returns score_a, score_b, difference (B - A), difference_low / _high, p_value,
    metric_key, method, n_resamples and the signature; with parse=, each system's
    parse_failures_a / _b.
    """
    module = _family(metric)
    if not getattr(module, "REFERENCES", True):  # faithfulness: each system's results hold all it needs
        if references is not None:
            raise ValueError(f"references: {module.SPACE} compares the two systems' own results; give references=None")
        return module.compare_results(system_a, system_b, metric_key or module.headline(**options), method, n_resamples, confidence_level, seed, **options)
    check_choice("method", method, METHODS)
    check_bootstrap(confidence_level, n_resamples, seed)
    inputs = ("zero_division",) + getattr(module, "EXTRA_INPUTS", ())
    named = {name: options[name] for name in sorted(options) if name not in inputs}
    if _is_state(system_a) or _is_state(system_b):  # states kept with keep_rows: their own options and references
        if references is not None or options:
            raise ValueError("references, options: states carry their own (the options they were made with, their references' checks); give references=None and no option")
        fam, (a, b), refs = state_batches([system_a, system_b], ["system_a", "system_b"])
        named = {name: value for name, value in sorted(fam.options.items()) if name != "zero_division"}
        options = {"zero_division": fam.options.get("zero_division", 0.0)}
    else:
        fam, (a, b) = read_systems(metric, references, [system_a, system_b], **options)
        refs = None
    metric_key = metric_key or fam.headline()
    ((table_a, codes_a), (table_b, codes_b)), reduce = fam.paired(a, b)
    result = paired_test(table_a, codes_a, table_b, codes_b, reduce, metric_key, method, n_resamples, confidence_level, seed)
    if a.report is not None:
        result.update(parse_failures_a=a.report["parse_failures"], parse_failures_b=b.report["parse_failures"])
    # inputs such as CSC's sources are data, not options: they stay out of the signature
    if named.get("parse") is not None:  # the parser with its version, as compute's signature names it
        named["parse"] = fam.options["parse"]
    result["signature"] = signature(
        f"compare|{module.SPACE}", metric_key=metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level,
        seed=seed, zero_division=check_zero_division(options.get("zero_division", 0.0)), **named,
    )  # fmt: skip
    if refs is None:
        result["signature"] = with_references(result["signature"], references)
    else:  # states: their references' checks named
        head, version = result["signature"].rsplit("|paperscore:", 1)
        result["signature"] = f"{head}|refs_checks:{refs}|paperscore:{version}"
    return result


# ---------------------------------------------------------------------------------------
# Command line: paperscore compare <metric> --references FILE --system-a FILE --system-b FILE
# A metric takes part by defining SPACE, headline(**options), family(**options), add_options(parser) and
# options(args); and read_compare(args) -> {"references", "system_a", "system_b", other
# inputs, optionally "found": entries added to the result} where its files are not read
# with core.read_values (one value per line).

COMMAND = "compare"
HELP = "is system B really better than system A? paired bootstrap or approximate randomization"
COMMON_OPTIONS = False  # added to each metric's subcommand below
TAKES_ARGV = True  # add_arguments sees the words after `compare`


def add_arguments(parser, argv=()):
    """A subcommand per metric; only the one `argv` names, when it names one (_named)."""
    from .paperscore_cli import add_common_arguments, commands

    sub = parser.add_subparsers(dest="compared", required=True, metavar="metric")
    named = _named(argv[0]) if argv else None
    found = {named.COMMAND: named} if named else commands()  # help, or no metric named: every choice listed
    for name, family in found.items():
        if hasattr(family, "family"):
            aliases = [family.SPACE] if family.SPACE != name else []
            command = sub.add_parser(name, aliases=aliases, help=family.HELP, description=f"Compare two systems under `paperscore {name}`.")
            references = getattr(family, "REFERENCES", True)  # faithfulness: none, and no 0/0
            if references:
                command.add_argument("--references", required=True, help=f"the references, as `paperscore {name}` reads them")
            command.add_argument("--system-a", help="system A's output (the baseline)")
            command.add_argument("--system-b", help="system B's output")
            if references:  # a results table: many systems, seeds (paperscore.significance)
                command.add_argument("--system", action="append", metavar="NAME=FILE[,FILE...]", help="instead of --system-a/-b, any number of systems for one results table, each named, with one output file or several (runs with other seeds, comma-separated); the first is the baseline unless --baseline names another")
                command.add_argument("--baseline", metavar="NAME", help="the --system every other is compared with (default: the first)")
                command.add_argument("--correction", choices=CORRECTIONS, default="holm", help="p-values adjusted for the number of comparisons (default holm; the raw ones are shown beside)")
                command.add_argument("--groups", metavar="FILE", help="one cluster id a line (a document, a dialogue, an essay) per example: resample clusters, for examples that are not independent")
                command.add_argument("--test-set", action="append", metavar="NAME", help="with --system, compare the systems on several test sets, one --test-set each (SIGHAN 13/14/15, Rest15/Rest16): --references, each --system file, and --sources and --groups when given, must hold {set}, which each NAME replaces, so that every set is read from its own files; prints each set's table and on how many sets each difference holds after the correction (Dror et al. 2017: Bonferroni's and Fisher's counts)")
                command.add_argument("--latex", action="store_true", help="print the results table as LaTeX (default: Markdown)")
            command.add_argument("--metric-key", help=f"the number compared (default {family.headline()})")
            command.add_argument("--method", choices=METHODS, default="bootstrap", help="paired bootstrap resampling, or approximate randomization")
            family.add_options(command)
            add_common_arguments(command, zero_division=references)


def _read_values(args):
    return {name: read_values(path, flag) for name, path, flag in compared_files(args)}


def _named_files(specs):
    """{name: [path, ...]} of --system NAME=FILE[,FILE...] (a ValueError for another form)."""
    named = {}
    for spec in specs:
        name, _, paths = spec.partition("=")
        if not name or not paths or name in named:
            raise ValueError(f"--system: {spec!r} is not NAME=FILE[,FILE...] with a name of its own")
        named[name] = paths.split(",")
    if len(named) < 2:
        raise ValueError("--system: give a baseline and at least one other system")
    return named


SET = "{set}"  # in a file option, replaced by each --test-set NAME
PER_SET = (("references", "--references"), ("sources", "--sources"), ("groups", "--groups"))  # beside each --system file


def _read_set(family, args, named):
    """One test set's {"references", "systems", per-example inputs (sources, ...), "groups"}
    from `args`' files and `named` ({system: [path, ...]}): each system file read as the
    metric's compare reads a system (beside the first file, which stands as system A)."""
    from .paperscore_core import read_lines

    first = next(iter(named.values()))[0]
    read, inputs = {}, None
    for path in dict.fromkeys(p for paths in named.values() for p in paths):
        args.system_a, args.system_b = first, path
        got = getattr(family, "read_compare", _read_values)(args)
        got.pop("found", None)
        read[path] = got.pop("system_b")
        got.pop("system_a")
        inputs = inputs or got
    systems = {name: Runs([read[p] for p in paths]) if len(paths) > 1 else read[paths[0]] for name, paths in named.items()}
    return {**inputs, "systems": systems, "groups": read_lines(args.groups, "--groups") if args.groups else None}


def _test_sets(args, named):
    """{set name: (args, named files)} with each --test-set NAME in place of {set}; a
    ValueError for a file read per set without {set} (the same file for every set is a
    mistake) and for a name given twice."""
    import argparse

    for name in args.test_set:
        if not name or args.test_set.count(name) > 1:
            raise ValueError(f"--test-set: {name!r} " + ("given twice: each test set once" if name else "is not a name"))
    given = [(flag, getattr(args, option)) for option, flag in PER_SET if getattr(args, option, None)]
    given += [("--system", f"{system}={path}") for system, paths in named.items() for path in paths]
    for flag, value in given:
        if SET not in value:
            raise ValueError(f"{flag}: {value!r} holds no {SET}: with --test-set each set is read from its own files, {SET} replaced by the set's name (e.g. --references refs_{SET}.txt)")
    sets = {}
    for name in args.test_set:
        own = {option: getattr(args, option).replace(SET, name) for option, _ in PER_SET if getattr(args, option, None)}
        sets[name] = (argparse.Namespace(**{**vars(args), **own}), {system: [path.replace(SET, name) for path in paths] for system, paths in named.items()})
    return sets


def _systems_table(family, args, options):
    """`paperscore compare <metric> --system A=a.txt --system B=b1.txt,b2.txt ...`: the
    results table of paperscore.significance; with --test-set, one per test set and the
    replicability counts (test_sets)."""
    named = _named_files(args.system)
    settings = dict(
        baseline=args.baseline, metric_key=args.metric_key, method=args.method, n_resamples=args.n_resamples,
        confidence_level=args.confidence_level or 0.95, seed=args.seed, correction=args.correction,
    )  # fmt: skip
    if args.test_set:
        sets = {name: _read_set(family, own, files) for name, (own, files) in _test_sets(args, named).items()}
        return test_sets(family.SPACE, sets, **settings, **options)
    spec = _read_set(family, args, named)
    return systems_table(family.SPACE, spec.pop("references"), spec.pop("systems"), groups=spec.pop("groups"), **settings, **spec, **options)


def _references_line(label, references):
    return f"{label}: {references['fingerprint']}" + (f" ({references['known_copy']})" if references["known_copy"] else "")


def table(result):
    """`paperscore compare`'s output: a results table as Markdown (or LaTeX), else the plain table."""
    if "comparisons" in result or "test_sets" in result:
        from .paperscore_significance import latex, markdown

        text = latex(result) if result.pop("latex", False) else markdown(result)
        sets = result.get("test_sets", [{"references": result.get("references")}])
        lines = [_references_line(f"references ({own['test_set']})" if "test_set" in own else "references", own["references"]) for own in sets]
        return "\n".join([text, "", *lines, f"signature: {result['signature']}"])
    from .paperscore_cli import table as plain

    return plain(result)


def run(args):
    family = _family(args.compared)
    options = family.options(args)
    if hasattr(args, "zero_division"):
        options["zero_division"] = args.zero_division
    if getattr(args, "test_set", None) and not args.system:
        raise ValueError("--test-set: compares a results table over several test sets: give the systems as --system NAME=FILE (with {set} in each path), not --system-a/--system-b")
    if getattr(args, "system", None):
        if args.system_a or args.system_b:
            raise ValueError("--system: give the systems either as --system-a/--system-b or as --system NAME=FILE, not both")
        if args.score_only:  # (checked before the work, not after it as cli's -b would)
            found = "each system's replicability counts" if args.test_set else "a p-value for each system"
            raise ValueError(f"-b/--score-only: a results table has no one number to print ({found}); read it from --json, or print the table")
        return {**_systems_table(family, args, options), **({"latex": True} if args.latex else {})}
    if not (args.system_a and args.system_b):
        raise ValueError("--system-a, --system-b: both are needed (or --system NAME=FILE for each of several systems)")
    inputs = getattr(family, "read_compare", _read_values)(args)
    found = inputs.pop("found", {})  # what reading the files found (coref: unmatched documents)
    result = compare(
        family.SPACE, **inputs,
        metric_key=args.metric_key, method=args.method, n_resamples=args.n_resamples,
        confidence_level=args.confidence_level or 0.95, seed=args.seed, **options,
    )  # fmt: skip
    return {**result, **found}
