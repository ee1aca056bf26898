# GENERATED from shared/paperscore/compare.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Is system B really better than system A on the same references? Paired bootstrap
resampling (Koehn 2004) and approximate randomization (Noreen 1989; Riezler and Maxwell
2005), as sacrebleu offers for machine translation, for any number of any family.

Both tests work on the per-example statistics each family keeps (never re-running the
metric): a family's `paired_statistics(references, system_a, system_b, **options)` returns
each system's table of distinct statistic rows (a numpy array or a scipy sparse matrix),
each example's row code, and `reduce`,
which maps example weights over a table to the family's numbers. Examples whose two rows
are the same pair are drawn together, so the cost grows with distinct pairs, not examples.

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

import warnings

import numpy as np

from .paperscore_core import (
    BOOTSTRAP_CELLS,
    check_bootstrap,
    check_choice,
    check_zero_division,
    compared_files,
    dense_codes,
    percentile_interval,
    read_values,
    resample_chunks,
    signature,
)

METHODS = ("bootstrap", "randomization")
# Two differences closer than this are equal: sums taken in another order may differ by a few ulps.
TIE = 1e-12


def _joint(table_a, codes_a, table_b, codes_b):
    """Each distinct (row of A, row of B) pair: A's rows, B's rows and how many examples."""
    codes_a, codes_b = np.asarray(codes_a, dtype=np.int64), np.asarray(codes_b, dtype=np.int64)
    if codes_a.shape != codes_b.shape:
        raise ValueError(f"system_a and system_b differ in length: {len(codes_a)} against {len(codes_b)} examples")
    size_b = table_b.shape[0]
    joint, codes = dense_codes(codes_a * size_b + codes_b, table_a.shape[0] * size_b)
    return table_a[joint // size_b], table_b[joint % size_b], np.bincount(codes, minlength=len(joint))


def _stack(rows_a, rows_b):
    """Both tables, one above the other (numpy arrays or scipy sparse matrices)."""
    if isinstance(rows_a, np.ndarray):
        return np.concatenate([rows_a, rows_b])
    from scipy.sparse import vstack

    return vstack([rows_a, rows_b], format="csr")


def _differ(rows_a, rows_b):
    """Which pairs of rows differ (NaN equal to NaN; numpy arrays or scipy sparse matrices)."""
    if isinstance(rows_a, np.ndarray):
        return ((rows_a != rows_b) & ~(np.isnan(rows_a) & np.isnan(rows_b))).any(1)
    return (rows_a != rows_b).getnnz(axis=1) > 0


def _take(rows, keep):
    return rows[keep] if isinstance(rows, np.ndarray) else rows[np.flatnonzero(keep)]


def _swaps(counts, n_resamples, rng):
    """Approximate randomization in chunks: of each pair's examples, how many swap systems."""
    chunk = max(1, BOOTSTRAP_CELLS // max(len(counts), 1))
    for start in range(0, n_resamples, chunk):
        yield rng.binomial(counts, 0.5, size=(min(chunk, n_resamples - start), len(counts))).astype(float)


def _p_value(null, observed):
    null = null[~np.isnan(null)]
    if not len(null) or np.isnan(observed):
        return float("nan")
    extreme = np.abs(null) >= abs(observed) - TIE * max(1.0, abs(observed))
    return float((extreme.sum() + 1) / (len(null) + 1))


def smallest_p_value(differing):
    """The smallest p-value `differing` examples can give (see the module docstring)."""
    return 2.0 ** (1 - differing) if differing else 1.0


def _few_examples(method, p_value, counts, differ, confidence_level):
    """A warning when the examples cannot say what the p-value seems to (module docstring)."""
    examples, differing = int(counts.sum()), int(counts[differ].sum())
    if not differing:
        warnings.warn(f"the two systems' outputs score the same on all {examples} examples: there is nothing to test (p = 1)", stacklevel=4)
        return
    floor = smallest_p_value(differing)
    problems = []
    if floor > 1 - confidence_level:
        problems.append(f"no test can give a p-value below {floor:.3g} = 2^(1-{differing}) from them, so none can reach {1 - confidence_level:.3g}")
    if method == "bootstrap" and p_value < floor:
        problems.append(f"the bootstrap's p = {p_value:.3g} is below that floor ({floor:.3g}) and means nothing here: use method=\"randomization\"")
    if problems:
        systems = f"the two systems differ on {differing} of the {examples} examples"
        warnings.warn(f"{systems}: {'; '.join(problems)}", stacklevel=4)


def paired_test(table_a, codes_a, table_b, codes_b, reduce, metric_key, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None):
    """Each system's score on `metric_key`, the difference B - A, its bootstrap interval
    and the p-value of `method`, from per-example statistics (see the module docstring)."""
    check_choice("method", method, METHODS)
    check_bootstrap(confidence_level, n_resamples, seed)
    rows_a, rows_b, counts = _joint(table_a, codes_a, table_b, codes_b)

    def score(weights, rows):
        values = reduce(np.atleast_2d(weights), rows)
        if metric_key not in values:
            raise ValueError(f"metric_key: {metric_key!r} is not one of {', '.join(values)}")
        return np.asarray(values[metric_key], dtype=float)

    differ = _differ(rows_a, rows_b)
    # each system's own rows and counts, not the pairs: the figure (to the last bit) does not
    # depend on the other system, so swapping A and B negates the difference exactly
    score_a, score_b = (score(np.bincount(np.asarray(c, dtype=np.int64), minlength=t.shape[0]), t)[0] for t, c in ((table_a, codes_a), (table_b, codes_b)))
    observed = score_b - score_a
    rng = np.random.default_rng(seed)
    deltas = np.concatenate([score(w, rows_b) - score(w, rows_a) for w in resample_chunks(counts, n_resamples, rng)])
    low, high = percentile_interval(deltas, confidence_level)
    if method == "bootstrap":
        null = deltas - np.nanmean(deltas) if not np.isnan(deltas).all() else deltas
    else:
        # Swapping two identical rows changes nothing: only the pairs that differ are shuffled.
        both = _stack(_stack(_take(rows_a, ~differ), _take(rows_a, differ)), _take(rows_b, differ))
        fixed, varying = counts[~differ], counts[differ]
        null = []
        for swapped in _swaps(varying, n_resamples, rng):
            kept = np.broadcast_to(fixed, (len(swapped), len(fixed)))
            null.append(score(np.hstack([kept, swapped, varying - swapped]), both) - score(np.hstack([kept, varying - swapped, swapped]), both))
        null = np.concatenate(null)
    p_value = _p_value(null, observed)
    _few_examples(method, p_value, counts, differ, confidence_level)
    return {
        "metric_key": metric_key,
        "method": method,
        "score_a": float(score_a),
        "score_b": float(score_b),
        "difference": float(observed),
        "difference_low": low,
        "difference_high": high,
        "p_value": p_value,
        "n_resamples": n_resamples,
    }


def families():
    """{name: module} of the metrics that take part, under their Space, module and
    command names (coref_conll, coref; csc_sighan, sighan; ...)."""
    from .paperscore_cli import commands

    found = {}
    for module in commands().values():
        if hasattr(module, "paired_statistics"):
            for name in (module.SPACE, module.__name__.rsplit(".", 1)[-1], module.COMMAND):
                found[name] = module
    return found


def _named(metric):
    """The family that answers to `metric` and takes part, imported alone (not every
    family: that costs a tiny file's first result half the time of `import numpy`); None
    if none does."""
    from .paperscore_cli import commands

    named = list(commands(metric).values()) if isinstance(metric, str) else []
    return named[0] if len(named) == 1 and hasattr(named[0], "paired_statistics") else None


def _family(metric):
    family = _named(metric)
    if family is not None:
        return family
    found = families()
    if metric not in found:
        raise ValueError(f"metric: {metric!r} is not one of {', '.join(sorted({m.SPACE for m in found.values()}))}")
    return found[metric]


def compare(metric, references, system_a, system_b, metric_key=None, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, **options):
    """Compare two systems' outputs on the same references under a paperscore metric.

    metric: a Space name ("micro_macro", "csc_sighan", "csc_common", "coref_conll",
    "quad_match", "rationale_f1"; the package module and command names work too), or
    "faithfulness" (ERASER's, references=None: faithfulness.compare_results);
    options: that metric's compute() options (zero_division included).
    metric_key: the number compared (default: the metric's headline, e.g. micro_f1).
    Returns score_a, score_b, difference (B - A), difference_low / _high, p_value,
    metric_key, method, n_resamples and the signature.
    """
    family = _family(metric)
    metric_key = metric_key or family.headline(**options)
    if not getattr(family, "REFERENCES", True):  # faithfulness: each system's results hold all it needs
        if references is not None:
            raise ValueError(f"references: {family.SPACE} compares the two systems' own results; give references=None")
        return family.compare_results(system_a, system_b, metric_key, method, n_resamples, confidence_level, seed, **options)
    *tables, reduce = family.paired_statistics(references, system_a, system_b, **options)
    result = paired_test(*tables, reduce, metric_key, method, n_resamples, confidence_level, seed)
    # inputs such as CSC's sources are data, not options: they stay out of the signature
    inputs = ("zero_division",) + getattr(family, "EXTRA_INPUTS", ())
    named = {name: options[name] for name in sorted(options) if name not in inputs}
    if named.get("parse") is not None:  # the parser with its version, as compute's signature names it
        from .paperscore_parse import get_parser, parser_id

        named["parse"] = parser_id(get_parser(named["parse"]))
    result["signature"] = signature(
        f"compare|{family.SPACE}", metric_key=metric_key, method=method, n_resamples=n_resamples, confidence_level=confidence_level,
        seed=seed, zero_division=check_zero_division(options.get("zero_division", 0.0)), **named,
    )  # fmt: skip
    return result


# ---------------------------------------------------------------------------------------
# Command line: paperscore compare <metric> --references FILE --system-a FILE --system-b FILE
# A metric takes part by defining SPACE, headline(**options), paired_statistics, add_options(parser) and
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
        if hasattr(family, "paired_statistics"):
            aliases = [family.SPACE] if family.SPACE != name else []
            command = sub.add_parser(name, aliases=aliases, help=family.HELP, description=f"Compare two systems under `paperscore {name}`.")
            references = getattr(family, "REFERENCES", True)  # faithfulness: none, and no 0/0
            if references:
                command.add_argument("--references", required=True, help=f"the references, as `paperscore {name}` reads them")
            command.add_argument("--system-a", required=True, help="system A's output (the baseline)")
            command.add_argument("--system-b", required=True, help="system B's output")
            command.add_argument("--metric-key", help=f"the number compared (default {family.headline()})")
            command.add_argument("--method", choices=METHODS, default="bootstrap", help="paired bootstrap resampling, or approximate randomization")
            family.add_options(command)
            add_common_arguments(command, zero_division=references)


def _read_values(args):
    return {name: read_values(path, flag) for name, path, flag in compared_files(args)}


def run(args):
    family = _family(args.compared)
    inputs = getattr(family, "read_compare", _read_values)(args)
    found = inputs.pop("found", {})  # what reading the files found (coref: unmatched documents)
    options = family.options(args)
    if hasattr(args, "zero_division"):
        options["zero_division"] = args.zero_division
    result = compare(
        family.SPACE, **inputs,
        metric_key=args.metric_key, method=args.method, n_resamples=args.n_resamples,
        confidence_level=args.confidence_level or 0.95, seed=args.seed, **options,
    )  # fmt: skip
    return {**result, **found}
