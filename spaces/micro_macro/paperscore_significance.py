# GENERATED from shared/paperscore/significance.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Results tables a reviewer can trust: any number of systems against one baseline, several
runs (seeds) per system, several test sets, clustered examples; p-values corrected for the
number of comparisons; the table as Markdown, LaTeX or JSON.

Family-blind. Each run of each system is `(table, codes)`: the distinct rows of its
per-example statistics (a numpy array or a scipy sparse matrix) and each example's row,
and one `reduce(weights, table) -> {key: array}` maps example weights over a table to the
family's numbers (compare.py). Every run must score the same examples under the same
reduce (micro_macro's systems share one class coding).

What is resampled: examples, with replacement (n draws from the n examples), or with
`groups` clusters; the same resamples for every run of every system, so that every
difference is paired. Examples whose rows agree in every run (a "unit") are
interchangeable, and a resample is drawn as core.resample_chunks draws it, with its very
random numbers: a multinomial over the units when they are at most a quarter of the
examples, else n example indices. With two runs (two systems of one run each) the units
and the arithmetic are compare.paired_test's: its numbers to the last bit. With more runs
the units of systems that err independently are nearly as many as the examples, and
paired_test's way (a float product over every unit, per run and chunk of resamples) would
cost a pass per run; instead each run's weights of its own rows are summed exactly from
the draws (_scores_by_sums: integer counts, three resamples to an int64, one sparse
product per table and block of resamples that reads an example's draws once and touches
it only for the runs whose row differs from the majority's), then reduced.

- Intervals: percentile intervals of the resampled scores and differences.
- p-values (two-sided, (count + 1) / (resamples + 1), compare.py's definitions): the
  bootstrap counts resampled differences shifted to mean 0 at least as far from 0 as the
  observed one; approximate randomization swaps the baseline's and the system's outputs on
  each example (or cluster) with probability 1/2, one comparison after the other.
- Corrections for the m comparisons against the baseline: Holm (default) or Bonferroni;
  a difference is marked significant when its adjusted p-value is at most 1 -
  confidence_level. The raw p-values are kept beside.
- Seeds: a system with several runs is scored by the mean over its runs, with the spread
  (standard deviation, ddof=1) beside. The test is a two-level bootstrap: each resample
  draws the examples (as above, shared by every system) and, for each system
  independently, its runs with replacement (a multinomial over the runs), and scores the
  system by the mean of the drawn runs; intervals and the p-value follow from those
  resampled means as above, so the table accounts for the test set and the seeds, and
  Holm and Bonferroni apply to it unchanged. Randomization has no such second level: it
  takes one run per system. Beside it, when the baseline and a system both have several
  runs, ASO (Almost Stochastic Order, Dror et al. 2019) as deepsig 1.2.8 computes it from
  the runs' scores (deepsig's aso(), the same numbers for the same seed; Bonferroni over
  the m comparisons in the confidence level, as its multi_aso does): epsilon_min below 0.5
  means the system is almost stochastically better than the baseline across seeds (deepsig
  advises 0.2 or less). ASO sees the seeds only, not the test set's sampling: the two-level
  bootstrap is the test the table marks.
- Clusters: with `groups` (one id per example: a document, a dialogue, an essay), clusters
  are drawn with replacement instead of examples (each example weighs as often as its
  cluster is drawn) and randomization swaps whole clusters. Use it when examples of one
  cluster are not independent (MAVEN's candidates of one document, CSC sentences of one
  essay): resampling them one by one understates the variance and gives intervals too
  narrow and p-values too small.
- Test sets (compare_test_sets): a table per set and, per system, Dror et al.'s (2017)
  replicability analysis of its per-set p-values (those the set's table marks, corrected
  for the number of systems): the number of sets on which the difference holds, estimated
  with Bonferroni's partial conjunction test (valid for dependent sets; Holm's procedure
  names the sets) and Fisher's (independent sets).

The references' fingerprint (core.fingerprint) names the test set in every signature.
"""

import math
import re
import warnings

import numpy as np

from .paperscore_core import (
    BOOTSTRAP_CELLS,
    check_bootstrap,
    check_choice,
    dense_codes,
    from_tensor,
    input_error,
    percentile_interval,
    resample_chunks,
    short_repr,
)

METHODS = ("bootstrap", "randomization")
CORRECTIONS = ("holm", "bonferroni")
# Two differences closer than this are equal: sums taken in another order may differ by a few ulps.
TIE = 1e-12
BLOCK_CELLS = 1 << 22  # packed draws held at once by _scores_by_sums (32 MB)
PRODUCT_CELLS = 1 << 19  # and the most a product's result may hold (4 MB: its scattered sums stay in cache)
SCORED_AT_ONCE, SCORED_CELLS = 120, 1 << 20  # resamples a reduce call sees (at most 8 MB of weights a run)
COMPARED_CELLS = 1 << 20  # tables this small are compared for equality to share an anchor
ASO_DT = 0.005  # deepsig's aso() default step of its integral over (0, 1)


# ---------------------------------------------------------------------------------------
# Many systems, seeds and clusters


def compare_systems(systems, reduce, metric_key, baseline=None, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, correction="holm", groups=None):
    """Each system's score and interval, and each one's difference from the baseline with
    its interval and its raw and corrected p-values (see the module docstring).

    systems: {name: [(table, codes), ...]}, one (table, codes) per run (seed) of a system;
    the first is the baseline unless `baseline` names another. reduce(weights, table):
    {key: array}. groups: None, or one cluster id (int or str) per example.
    Returns a JSON-ready dict (None where a number is NaN): metric_key, method,
    n_resamples, confidence_level, seed, correction, baseline, groups (the number of
    clusters, or None), systems (name, runs, score, score_low, score_high, score_std,
    run_scores) and comparisons (system, difference, difference_low, difference_high,
    p_value, p_value_adjusted, significant, aso_epsilon_min)."""
    check_choice("method", method, METHODS)
    check_choice("correction", correction, CORRECTIONS)
    check_bootstrap(confidence_level, n_resamples, seed)
    names, runs, n = _check_systems(systems, baseline)
    if method == "randomization" and any(len(system) > 1 for system in runs):
        raise ValueError("method: randomization swaps two systems' outputs example by example and takes one run per system; compare several runs (seeds) with method=\"bootstrap\" (a two-level bootstrap)")
    clusters = None if groups is None else _clusters(groups, n)
    score = _scorer(reduce, metric_key)
    flat = [run for system in runs for run in system]
    # each run's own rows and counts: its figure (to the last bit) depends on no other run
    observed = [float(score(np.bincount(codes, minlength=table.shape[0]), table)[0]) for table, codes in flat]
    # two runs: compare.paired_test's units and arithmetic, to the last bit; more: the sums
    by_rows = len(flat) == 2
    counts, members = _units(flat, n, clusters, tuples=by_rows)
    rng = np.random.default_rng(seed)
    resampled = (_scores_by_rows if by_rows else _scores_by_sums)(counts, members, [table for table, _ in flat], score, n_resamples, rng)
    # each system's runs: a mean over the runs drawn with replacement in each resample
    ends = np.cumsum([len(system) for system in runs])
    per_system = np.split(resampled, ends[:-1])
    means = [_seed_means(own, rng) for own in per_system]
    run_scores = np.split(np.array(observed), ends[:-1])
    alpha = 1 - confidence_level
    table = {
        "metric_key": metric_key, "method": method, "n_resamples": int(n_resamples), "confidence_level": float(confidence_level),
        "seed": None if seed is None else int(seed), "correction": correction, "baseline": names[0], "groups": None if clusters is None else int(clusters.max(initial=-1) + 1),
        "systems": [], "comparisons": [],
    }  # fmt: skip
    for name, scores, resampled_means in zip(names, run_scores, means):
        low, high = percentile_interval(resampled_means, confidence_level)
        table["systems"].append({
            "name": name, "runs": len(scores), "score": _number(np.mean(scores)), "score_low": _number(low), "score_high": _number(high),
            "score_std": _number(np.std(scores, ddof=1)) if len(scores) > 1 else None, "run_scores": [_number(s) for s in scores],
        })  # fmt: skip
    p_values = []
    for index in range(1, len(names)):
        deltas = means[index] - means[0]
        difference = float(np.mean(run_scores[index]) - np.mean(run_scores[0]))
        low, high = percentile_interval(deltas, confidence_level)
        single = len(runs[0]) == 1 and len(runs[index]) == 1
        pair = _pair(flat, members, clusters, ends[index - 1]) if single else None
        if method == "bootstrap":
            null = deltas - np.nanmean(deltas) if not np.isnan(deltas).all() else deltas
        else:
            null = _randomization(*pair, score, n_resamples, rng)
        p_value = _p_value(null, difference)
        if single:
            who = "the two systems" if len(names) == 2 else f"{names[index]} and {names[0]}"
            _few_units(method, p_value, pair[2], _differ(pair[0], pair[1]), confidence_level, who, "examples" if clusters is None else "groups")
        p_values.append(p_value)
        table["comparisons"].append({
            "system": names[index], "difference": _number(difference), "difference_low": _number(low), "difference_high": _number(high),
            "p_value": _number(p_value),
        })  # fmt: skip
    for comparison, adjusted, own in zip(table["comparisons"], adjust(p_values, correction), run_scores[1:]):
        comparison["p_value_adjusted"] = _number(adjusted)
        comparison["significant"] = bool(adjusted <= alpha)
        several = len(own) > 1 and len(run_scores[0]) > 1
        comparison["aso_epsilon_min"] = float(aso(own, run_scores[0], confidence_level, len(p_values), n_resamples, seed=seed)) if several else None
    return table


def _check_systems(systems, baseline):
    """(names with the baseline first, runs per system as [(table, int64 codes)], n)."""
    if not isinstance(systems, dict):
        raise ValueError(f"systems: expected {{name: [(table, codes), ...]}}, got {type(systems).__name__}")
    if len(systems) < 2:
        raise ValueError(f"systems: expected a baseline and at least one system to compare, got {len(systems)} system(s)")
    names = list(systems)
    if baseline is not None:
        if baseline not in systems:
            raise ValueError(f"baseline: {short_repr(baseline, 60)} is not one of the systems ({', '.join(map(repr, names))})")
        names.remove(baseline)
        names.insert(0, baseline)
    runs, n = [], None
    for name in names:
        argument = f"systems[{name!r}]"
        if not isinstance(name, str) or not name:
            raise ValueError(f"{argument}: a system's name is a non-empty string")
        given = systems[name]
        if not isinstance(given, (list, tuple)) or not given or not all(isinstance(run, (list, tuple)) and len(run) == 2 for run in given):
            raise ValueError(f"{argument}: expected a list of runs, each a (table, codes) pair (one run: [(table, codes)])")
        checked = []
        for index, (table, codes) in enumerate(given):
            if len(getattr(table, "shape", ())) != 2:
                raise input_error(argument, index, "the table is not a 2-d numpy array or scipy sparse matrix")
            codes = np.asarray(codes)
            if codes.ndim != 1 or (codes.size and codes.dtype.kind not in "iu"):
                raise input_error(argument, index, "the codes are not a 1-d array of integers")
            codes = codes.astype(np.int64, copy=False)
            if codes.size and (codes.min() < 0 or codes.max() >= table.shape[0]):
                raise input_error(argument, index, f"a code lies outside the table's {table.shape[0]} rows")
            if n is not None and len(codes) != n:
                raise input_error(argument, index, f"{len(codes)} examples, where the baseline's first run has {n}")
            n = len(codes)
            checked.append((table, codes))
        runs.append(checked)
    return names, runs, n


def _clusters(groups, n):
    """Each example's cluster as 0..U-1 (the ids in sorted order)."""
    ids = np.asarray(from_tensor(groups))
    if ids.ndim != 1 or ids.dtype.kind not in "iuU":
        raise ValueError("groups: expected one id (an int or a str) per example")
    if len(ids) != n:
        raise ValueError(f"groups: {len(ids)} ids for {n} examples")
    return np.unique(ids, return_inverse=True)[1].ravel().astype(np.int64)


def _scorer(reduce, metric_key):
    def score(weights, table):
        values = reduce(np.atleast_2d(weights), table)
        if metric_key not in values:
            raise ValueError(f"metric_key: {metric_key!r} is not one of {', '.join(values)}")
        return np.asarray(values[metric_key], dtype=float)

    return score


def _units(flat, n, clusters, tuples=True):
    """(counts, members): what a resample draws. Without clusters, the distinct tuples of
    the runs' row codes (combined as compare._joint combines two), counts[u] examples
    each, members[run] the run's row code of each unit; with tuples=False, the examples
    themselves once the tuples are more than a quarter of them (resample_chunks then draws
    example indices anyway). With clusters, the clusters (one draw each), members[run] a
    sparse (rows, clusters) matrix of how many of a cluster's examples have each row."""
    if clusters is not None:
        from scipy.sparse import csc_matrix

        size = int(clusters.max(initial=-1) + 1)
        return np.ones(size, dtype=np.int64), [csc_matrix((np.ones(n, dtype=np.int64), (codes, clusters)), shape=(table.shape[0], size)) for table, codes in flat]
    distinct, joint = dense_codes(flat[0][1], flat[0][0].shape[0])
    size = len(distinct)  # (ranks of the first run's codes: the same order as the codes)
    for table, codes in flat[1:]:
        if not tuples and size * 4 > n:
            return np.ones(n, dtype=np.int64), [codes for _, codes in flat]
        distinct, joint = dense_codes(joint * table.shape[0] + codes, size * table.shape[0])
        size = len(distinct)
    first = np.zeros(size, dtype=np.int64)
    first[joint] = np.arange(n)  # an example of each unit (all of a unit's examples share their rows)
    return np.bincount(joint, minlength=size), [codes[first] for _, codes in flat]


def _unit_rows(table, member):
    """Each unit's rows summed: the table's rows (tuples), or each cluster's sum."""
    return table[member] if isinstance(member, np.ndarray) else member.T @ table


def _scores_by_rows(counts, members, tables, score, n_resamples, rng):
    """Each run's resampled scores, as compare.paired_test computes them: resample_chunks'
    weights over the units times the units' rows."""
    rows = [_unit_rows(table, member) for table, member in zip(tables, members)]
    out = [[] for _ in rows]
    for weights in resample_chunks(counts, n_resamples, rng):
        for own, unit_rows in zip(out, rows):
            own.append(score(weights, unit_rows))
    return np.array([np.concatenate(own) for own in out])


def _scores_by_sums(counts, members, tables, score, n_resamples, rng):
    """Each run's resampled scores from its own rows: the weights of each of its rows, summed
    from the draws (those of resample_chunks) by sparse products over a block of resamples
    at once (_products). The draws are counts: `fields` resamples share an int64, `bits`
    apart, wide enough for any sum (a resample's counts add up to n examples, or to `size`
    clusters of at most `largest` examples), so that one integer addition adds several
    resamples and no sum carries into the next field."""
    size, n = len(counts), int(counts.sum())
    clustered = not isinstance(members[0], np.ndarray)
    largest = int(np.asarray(members[0].sum(axis=0)).max(initial=1)) if clustered else 1
    bits = max(n, size * largest, 1).bit_length()
    fields = max(1, 63 // bits)  # the sign bit stays clear
    if clustered:
        columns, products, recipes = size, members, [(index, 0, False) for index in range(len(members))]
    else:  # a column per unit drawn by a multinomial, else per example index drawn
        owner = None if _multinomial(counts) or size == n else np.repeat(np.arange(size), counts)
        columns = size if owner is None else n
        products, recipes = _products(tables, [member if owner is None else member[owner] for member in members], columns)
    # resamples at once: the draws' block, and each product's result, kept small enough to stay in cache
    block = fields * max(1, min(BLOCK_CELLS // max(columns, 1), PRODUCT_CELLS // max(product.shape[0] for product in products)))
    # reduce sees many resamples at once (a BLAS product of a few rows can cost as much as of hundreds)
    batch = block * max(1, min(SCORED_AT_ONCE, SCORED_CELLS // max(table.shape[0] for table in tables)) // block)
    shifts, mask = bits * np.arange(fields, dtype=np.int64), (1 << bits) - 1
    packed = np.zeros((block // fields, columns), dtype=np.int64)
    pending, out = [[] for _ in recipes], [[] for _ in recipes]
    for done, drawn in enumerate(_draws(counts, n_resamples, rng), 1):
        packed[(done - 1) % block // fields] |= drawn << shifts[(done - 1) % fields]
        if done % block == 0 or done == n_resamples:
            used = (done - 1) % block + 1
            weights = np.ascontiguousarray(packed[: -(-used // fields)].T)
            summed = [((np.asarray(product @ weights)[:, :, None] >> shifts) & mask).reshape(product.shape[0], -1)[:, :used] for product in products]
            for waiting, (product, first, anchored), table in zip(pending, recipes, tables):
                rows = table.shape[0]
                weighted = summed[product][first : first + rows]
                if anchored:
                    weighted = summed[product][:rows] + weighted - summed[product][first + rows : first + 2 * rows]
                waiting.append(weighted.T)
            packed[:] = 0
        if done % batch == 0 or done == n_resamples:
            for own, waiting, table in zip(out, pending, tables):
                own.append(score(np.concatenate(waiting).astype(float), table))
                waiting.clear()
    return np.array([np.concatenate(own) for own in out])


def _products(tables, codes, columns):
    """The sparse (rows, columns) matrices whose products with the draws give each run's
    weights of its rows, and each run's recipe (product, first row, anchored). Runs
    sharing one table share an anchor, the row most of them give each column (Boyer-Moore's
    majority vote): their product holds the anchor's rows, then for each run, only where it
    gives another row, +1 at its row and +1 at the anchor's below them (anchored: the
    anchor's weights, plus the run's first block, minus its second). A column's entries are
    then read with one row of the draws, and runs that mostly agree touch few entries. A
    run alone in its table, or a group that touches fewer entries without an anchor, gets a
    product of its own (anchored=False: its weights are the product's rows)."""
    from scipy.sparse import csc_matrix

    groups = {}
    for run, table in enumerate(tables):  # runs by table: the same object, or equal rows
        key = next((k for k, runs in groups.items() if _same_table(tables[runs[0]], table)), run)
        groups.setdefault(key, []).append(run)
    products, recipes = [], [None] * len(tables)
    for runs in groups.values():
        rows = tables[runs[0]].shape[0]
        anchor = _majority([codes[run] for run in runs])
        differ = [codes[run] != anchor for run in runs]
        entries = columns + 2 * sum(int(own.sum()) for own in differ)
        if len(runs) < 2 or entries >= len(runs) * columns:
            for run in runs:
                recipes[run] = (len(products), 0, False)
                products.append(_one_per_column(codes[run], rows, columns))
            continue
        index_type = np.int32 if max(entries, rows * (1 + 2 * len(runs))) < 2**31 else np.int64
        per_column = 1 + 2 * np.sum(differ, axis=0)
        starts = np.concatenate([[0], np.cumsum(per_column)]).astype(index_type)
        indices = np.empty(entries, dtype=index_type)
        indices[starts[:-1]] = anchor
        filled = starts[:-1] + 1  # where each column's next entries go, in increasing rows
        for number, (run, own) in enumerate(zip(runs, differ)):
            first, own = rows * (1 + 2 * number), np.flatnonzero(own)
            recipes[run] = (len(products), first, True)
            where = filled[own]
            indices[where], indices[where + 1] = first + codes[run][own], first + rows + anchor[own]
            filled[own] += 2
        products.append(csc_matrix((np.ones(entries, dtype=np.int64), indices, starts), shape=(rows * (1 + 2 * len(runs)), columns)))
    return products, recipes


def _one_per_column(codes, rows, columns):
    from scipy.sparse import csc_matrix

    index_type = np.int32 if max(rows, columns) < 2**31 else np.int64
    return csc_matrix((np.ones(columns, dtype=np.int64), codes.astype(index_type), np.arange(columns + 1, dtype=index_type)), shape=(rows, columns))


def _same_table(a, b):
    """The same object, or equal small tables (a large one, such as a row per sentence,
    is compared by identity only: comparing every pair would cost more than it saves)."""
    if a is b:
        return True
    if a.shape != b.shape or isinstance(a, np.ndarray) != isinstance(b, np.ndarray) or a.shape[0] * a.shape[1] > COMPARED_CELLS:
        return False
    return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else (a != b).nnz == 0


def _majority(codes):
    """Each position's majority code among the arrays, when one has more than half the
    votes (Boyer-Moore); otherwise some code among them."""
    candidate, votes = codes[0], np.ones(len(codes[0]), dtype=np.int64)
    for own in codes[1:]:
        empty = votes == 0
        votes = np.where(empty, 1, np.where(own == candidate, votes + 1, votes - 1))
        candidate = np.where(empty, own, candidate)
    return candidate


def _multinomial(counts):
    """Whether core.resample_weights draws a multinomial over the units (else example
    indices): units at most a quarter of the examples (test_significance checks _draws
    against resample_chunks)."""
    return len(counts) * 4 <= counts.sum()


def _draws(counts, n_resamples, rng):
    """Each resample's draws, one at a time: the counts of core.resample_chunks (the same
    calls of `rng` in the same chunks), over the units when drawn by a multinomial, else
    over the example indices drawn."""
    n = int(counts.sum())
    multinomial = _multinomial(counts)
    chunk = max(1, BOOTSTRAP_CELLS // max(len(counts) if multinomial else n, 1))
    for start in range(0, n_resamples, chunk):
        drawn = min(chunk, n_resamples - start)
        if n == 0:
            yield from np.zeros((drawn, len(counts)), dtype=np.int64)
        elif multinomial:
            yield from rng.multinomial(n, counts / n, size=drawn)
        else:
            for index in rng.integers(0, n, size=(drawn, n)):
                yield np.bincount(index, minlength=n)


def _seed_means(resampled, rng):
    """A system's resampled score: the mean of its runs drawn with replacement (one run: its scores)."""
    runs = len(resampled)
    if runs == 1:
        return resampled[0]
    drawn = rng.multinomial(runs, np.full(runs, 1 / runs), size=resampled.shape[1])
    return np.where(drawn > 0, drawn * resampled.T, 0.0).sum(axis=1) / runs  # a run not drawn counts not even as NaN


def _pair(flat, members, clusters, run):
    """(baseline's rows, the system's rows, counts) of the units a randomization swaps,
    the baseline's run first in `flat` and the system's at `run`: the distinct pairs of
    rows (as compare._joint), or the clusters' sums."""
    if clusters is None:
        counts, members = _units([flat[0], flat[run]], len(flat[0][1]), None)
        run = 1
    else:
        counts = np.ones(members[0].shape[1], dtype=np.int64)
    return _unit_rows(flat[0][0], members[0]), _unit_rows(flat[run][0], members[run]), counts


def _differ(rows_a, rows_b):
    """Which pairs of rows differ (NaN equal to NaN; numpy arrays or scipy sparse matrices)."""
    if isinstance(rows_a, np.ndarray):
        return ((rows_a != rows_b) & ~(np.isnan(rows_a) & np.isnan(rows_b))).any(1)
    return (rows_a != rows_b).getnnz(axis=1) > 0


def _stack(rows_a, rows_b):
    """Both tables, one above the other (numpy arrays or scipy sparse matrices)."""
    if isinstance(rows_a, np.ndarray):
        return np.concatenate([rows_a, rows_b])
    from scipy.sparse import vstack

    return vstack([rows_a, rows_b], format="csr")


def _take(rows, keep):
    return rows[keep] if isinstance(rows, np.ndarray) else rows[np.flatnonzero(keep)]


def _swaps(counts, n_resamples, rng):
    """Approximate randomization in chunks: of each unit's examples, how many swap systems."""
    chunk = max(1, BOOTSTRAP_CELLS // max(len(counts), 1))
    for start in range(0, n_resamples, chunk):
        yield rng.binomial(counts, 0.5, size=(min(chunk, n_resamples - start), len(counts))).astype(float)


def _p_value(null, observed):
    """(count + 1) / (resamples + 1) of the null's values at least as far from 0 as `observed`."""
    null = null[~np.isnan(null)]
    if not len(null) or np.isnan(observed):
        return float("nan")
    extreme = np.abs(null) >= abs(observed) - TIE * max(1.0, abs(observed))
    return float((extreme.sum() + 1) / (len(null) + 1))


def smallest_p_value(differing):
    """The smallest p-value `differing` examples can give (compare.py's module docstring)."""
    return 2.0 ** (1 - differing) if differing else 1.0


def _randomization(rows_a, rows_b, counts, score, n_resamples, rng):
    """Approximate randomization's shuffled differences, as compare.paired_test draws them:
    only the units whose two rows differ are swapped, a binomial number of each one's examples."""
    differ = _differ(rows_a, rows_b)
    both = _stack(_stack(_take(rows_a, ~differ), _take(rows_a, differ)), _take(rows_b, differ))
    fixed, varying = counts[~differ], counts[differ]
    null = []
    for swapped in _swaps(varying, n_resamples, rng):
        kept = np.broadcast_to(fixed, (len(swapped), len(fixed)))
        null.append(score(np.hstack([kept, swapped, varying - swapped]), both) - score(np.hstack([kept, varying - swapped, swapped]), both))
    return np.concatenate(null)


def _few_units(method, p_value, counts, differ, confidence_level, who, units):
    """compare.py's warnings when the examples (or clusters) cannot say what the p-value
    seems to: with d of them differing, no p-value can honestly fall below 2^(1-d)."""
    total, differing = int(counts.sum()), int(counts[differ].sum())
    if not differing:
        outputs = "the two systems' outputs" if who == "the two systems" else f"the outputs of {who}"
        warnings.warn(f"{outputs} score the same on all {total} {units}: there is nothing to test (p = 1)", stacklevel=3)
        return
    floor = smallest_p_value(differing)
    problems = []
    if floor > 1 - confidence_level:
        problems.append(f"no test can give a p-value below {floor:.3g} = 2^(1-{differing}) from them, so none can reach {1 - confidence_level:.3g}")
    if method == "bootstrap" and p_value < floor:
        problems.append(f"the bootstrap's p = {p_value:.3g} is below that floor ({floor:.3g}) and means nothing here: use method=\"randomization\"")
    if problems:
        warnings.warn(f"{who} differ on {differing} of the {total} {units}: {'; '.join(problems)}", stacklevel=3)


def _number(value):
    """A float for JSON: NaN (zero_division="nan") as None."""
    value = float(value)
    return None if math.isnan(value) else value


# ---------------------------------------------------------------------------------------
# Corrections for multiple comparisons, replicability over test sets


def adjust(p_values, correction="holm"):
    """p-values adjusted for their number m: Bonferroni min(1, m p); Holm's step-down,
    the i-th smallest max over j <= i of min(1, (m - j + 1) p_(j)). A NaN p-value stays
    NaN and counts as 1 for the others."""
    check_choice("correction", correction, CORRECTIONS)
    p = np.asarray(p_values, dtype=float).reshape(-1)
    m, missing = len(p), np.isnan(p)
    q = np.where(missing, 1.0, p)
    if correction == "bonferroni":
        out = np.minimum(1.0, m * q)
    else:
        order = np.argsort(q, kind="stable")
        out = np.empty(m)
        out[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * q[order]))
    out[missing] = np.nan
    return out.tolist()


def replicability(p_values, alpha=0.05):
    """Dror et al. (2017), for one comparison on N test sets with these p-values:
    {"bonferroni": k, "fisher": k, "sets": [indices]}. k is the number of sets on which
    the effect is estimated to hold: the largest u whose partial conjunction p-values
    p^(v/N), v <= u, are all at most alpha, where p^(u/N) tests "the effect holds on
    fewer than u sets" from the N - u + 1 largest p-values: Bonferroni (N - u + 1) p_(u)
    (valid for dependent sets), Fisher P(chi2 with 2(N - u + 1) degrees of freedom >= -2
    sum of their logs) (independent sets). "sets": the k_bonferroni sets of smallest p
    (Holm's procedure). A NaN p-value counts as 1."""
    p = np.where(np.isnan(np.asarray(p_values, dtype=float)), 1.0, np.asarray(p_values, dtype=float))
    descending = np.sort(p)[::-1]
    found = {}
    for name, partial in (("bonferroni", _bonferroni_partial), ("fisher", _fisher_partial)):
        values = np.maximum.accumulate([partial(descending[: len(p) - u]) for u in range(len(p))])
        found[name] = int((values <= alpha).sum())
    found["sets"] = sorted(np.argsort(p, kind="stable")[: found["bonferroni"]].tolist())
    return found


def _bonferroni_partial(largest):
    return min(1.0, len(largest) * float(largest.min()))


def _fisher_partial(largest):
    """P(chi2 with 2k degrees of freedom >= x), x = -2 sum(log p): for even degrees of
    freedom, exp(-x/2) sum_{i<k} (x/2)^i / i!."""
    if (largest <= 0).any():
        return 0.0
    half = -float(np.log(largest).sum())
    term, total = 1.0, 1.0
    for i in range(1, len(largest)):
        term *= half / i
        total += term
    return min(1.0, math.exp(-half) * total)


def compare_test_sets(test_sets, metric_key, baseline=None, method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=None, correction="holm"):
    """One comparison over several test sets.

    test_sets: {set name: {"systems": ..., "reduce": ..., "groups": ... (optional)}}, each
    as compare_systems takes them, with the same systems on every set.
    Returns {"metric_key", "baseline", "method", "n_resamples", "confidence_level", "seed",
    "correction", "test_sets": [{"test_set": name, **compare_systems' table}],
    "replicability": [{"system", "test_sets": N, "bonferroni": k, "fisher": k, "sets":
    [names]}]}: per system, Dror et al.'s counts from its per-set p-values after the
    correction for the number of systems (see replicability())."""
    if not isinstance(test_sets, dict) or not test_sets:
        raise ValueError("test_sets: expected {name: {\"systems\": ..., \"reduce\": ...}} with at least one test set")
    tables = []
    for name, given in test_sets.items():
        if not isinstance(given, dict) or not {"systems", "reduce"} <= set(given) or set(given) - {"systems", "reduce", "groups"}:
            raise ValueError(f"test_sets[{name!r}]: expected a dict of systems, reduce and optionally groups")
        table = compare_systems(given["systems"], given["reduce"], metric_key, baseline, method, n_resamples, confidence_level, seed, correction, given.get("groups"))
        if tables and [s["name"] for s in table["systems"]] != [s["name"] for s in tables[0]["systems"]]:
            raise ValueError(f"test_sets[{name!r}]: the systems differ from those of {tables[0]['test_set']!r}")
        tables.append({"test_set": str(name), **table})
    first = tables[0]
    out = {key: first[key] for key in ("metric_key", "baseline", "method", "n_resamples", "confidence_level", "seed", "correction")}
    out["test_sets"], out["replicability"] = tables, []
    for index, comparison in enumerate(first["comparisons"]):
        adjusted = [np.nan if t["comparisons"][index]["p_value_adjusted"] is None else t["comparisons"][index]["p_value_adjusted"] for t in tables]
        found = replicability(adjusted, 1 - confidence_level)
        out["replicability"].append({
            "system": comparison["system"], "test_sets": len(tables), "bonferroni": found["bonferroni"], "fisher": found["fisher"],
            "sets": [tables[i]["test_set"] for i in found["sets"]],
        })  # fmt: skip
    return out


# ---------------------------------------------------------------------------------------
# Almost Stochastic Order (Dror et al. 2019), as deepsig 1.2.8 computes it


def aso(scores_a, scores_b, confidence_level=0.95, num_comparisons=1, num_bootstrap_iterations=1000, dt=ASO_DT, seed=None):
    """deepsig.aso(scores_a, scores_b, ...): epsilon_min, an upper bound of the violation
    ratio of "A is stochastically better than B" (below 0.5: A is almost stochastically
    better). The same numbers for the same seed: the violation ratio of the two empirical
    quantile functions on t = dt, 2 dt, ... < 1; its spread from num_bootstrap_iterations
    resamples of both score lists, resample i = 1, 2, ... drawn from numpy's
    RandomState(seed + i) (deepsig's np.random.seed(seed + i); seed=None: unseeded) as
    quantiles of uniform draws; a Bonferroni correction of confidence_level for
    num_comparisons."""
    from scipy.special import ndtri  # scipy.stats.norm.ppf

    a, b = np.asarray(scores_a, dtype=float).ravel(), np.asarray(scores_b, dtype=float).ravel()
    if not len(a) or not len(b):
        raise ValueError("scores_a, scores_b: ASO needs at least one score on each side")
    if num_comparisons > 1:
        confidence_level += (1 - confidence_level) / num_comparisons
    a, b = np.sort(a), np.sort(b)
    t = np.arange(dt, 1, dt)
    ratio = _violation_ratio(a[None, _quantile(len(a), t)], b[None, _quantile(len(b), t)], dt)[0]
    draws_a, draws_b = np.empty((num_bootstrap_iterations, len(a))), np.empty((num_bootstrap_iterations, len(b)))
    state = np.random.RandomState()
    for i in range(num_bootstrap_iterations):
        if seed is not None:
            state.seed(seed + i + 1)
        draws_a[i], draws_b[i] = state.uniform(0, 1, len(a)), state.uniform(0, 1, len(b))
    # each resample: scores drawn as the quantiles of uniform draws, then their own quantile function on t
    sampled_a, sampled_b = np.sort(a[_quantile(len(a), draws_a)], axis=1), np.sort(b[_quantile(len(b), draws_b)], axis=1)
    samples = _violation_ratio(sampled_a[:, _quantile(len(a), t)], sampled_b[:, _quantile(len(b), t)], dt)
    const = np.sqrt(len(a) * len(b) / (len(a) + len(b)))
    sigma = np.std(const * (samples - ratio))
    return float(np.clip(ratio - (1 / const) * sigma * ndtri(1 - confidence_level), 0, 1))


def _quantile(size, p):
    """Where deepsig's empirical quantile function of `size` sorted scores reads at p: the
    ceil(size * p)-th smallest (the smallest at p = 0)."""
    return np.clip(np.ceil(size * p).astype(np.int64) - 1, 0, size - 1)


def _violation_ratio(f, g, dt):
    """deepsig's compute_violation_ratio for each row of quantiles f (A) and g (B): the
    squared Wasserstein distance's part where A's quantile is below B's (the first point
    left out, as deepsig leaves it out), over the whole; 0.5 where the two are equal."""
    diff = np.ascontiguousarray(g - f)  # each row's sum then pairwise, as numpy sums deepsig's one row
    whole = np.sum(diff**2 * dt, axis=1)
    diff[f >= g] = 0
    violated = np.sum(diff[:, 1:] ** 2 * dt, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(whole == 0, 0.5, violated / np.where(whole == 0, 1, whole))


# ---------------------------------------------------------------------------------------
# Tables: Markdown and LaTeX


def markdown(table, digits=4):
    """The table (compare_systems' or compare_test_sets') as Markdown, with a note on the
    intervals, the test and the correction."""
    header, rows, note = _layout(table, digits, _MARKDOWN)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(":---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n\n" + note + "\n"


def latex(table, digits=4, standalone=False):
    """The table as a LaTeX tabular (base LaTeX only: no package needed) and the note below
    it; standalone=True wraps it in an article document that pdflatex compiles."""
    header, rows, note = _layout(table, digits, _LATEX)
    columns = "l" + "r" * (len(header) - 1)
    body = [
        f"% {_SOURCE}", f"\\begin{{tabular}}{{{columns}}}", "\\hline", " & ".join(header) + " \\\\", "\\hline",
        *(" & ".join(row) + " \\\\" for row in rows), "\\hline", "\\end{tabular}", f"\\par\\smallskip{{\\footnotesize {note}\\par}}",
    ]  # fmt: skip
    text = "\n".join(body) + "\n"
    if standalone:
        text = "\\documentclass{article}\n\\begin{document}\n\\footnotesize\n" + text + "\\end{document}\n"
    return text


_SOURCE = "paperscore significance table"
_MARKDOWN = {
    "escape": lambda text: re.sub(r"([\\|*])", r"\\\g<1>", str(text)), "math": lambda text: text, "none": "—", "delta": "Δ",
    "pm": " ± ", "le": "≤", "star": "\\*", "epsilon": "ASO ε_min", "percent": "%",
}  # fmt: skip
_LATEX_SPECIAL = {c: "\\" + c for c in "&%$#_{}"} | {"\\": "\\textbackslash{}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"}
_LATEX = {
    "escape": lambda text: "".join(_LATEX_SPECIAL.get(c, c) for c in str(text)), "math": lambda text: f"${text}$", "none": "--", "delta": "$\\Delta$",
    "pm": " \\pm ", "le": "$\\le$", "star": "^{*}", "epsilon": "ASO $\\varepsilon_{\\min}$", "percent": "\\%",
}  # fmt: skip


def _layout(table, digits, style):
    """(header cells, rows of cells, note) of either kind of table in `style`."""
    if "test_sets" in table:
        return _layout_sets(table, digits, style)
    level = f"{table['confidence_level'] * 100:g}{style['percent']}"
    correction = table["correction"].capitalize()
    with_aso = any(c["aso_epsilon_min"] is not None for c in table["comparisons"])
    header = ["System", "Runs", style["escape"](table["metric_key"]), f"{level} interval", style["delta"], f"{level} interval", "p", f"p ({correction})"]
    header += [style["epsilon"]] if with_aso else []
    comparisons = {c["system"]: c for c in table["comparisons"]}
    rows = []
    for system in table["systems"]:
        row = [style["escape"](system["name"]) + (" (baseline)" if system["name"] == table["baseline"] else ""), str(system["runs"])]
        row += [_score(system, digits, style), _interval(system["score_low"], system["score_high"], digits, style, signed=False)]
        if system["name"] == table["baseline"]:
            row += [style["none"]] + [""] * (len(header) - len(row) - 1)
        else:
            c = comparisons[system["name"]]
            row += [_difference(c, digits, style), _interval(c["difference_low"], c["difference_high"], digits, style, signed=True)]
            row += [_plain(c["p_value"], digits, style), _plain(c["p_value_adjusted"], digits, style)]
            row += [_plain(c["aso_epsilon_min"], digits, style)] if with_aso else []
        rows.append(row)
    return header, rows, _note(table, style)


def _layout_sets(table, digits, style):
    sets = table["test_sets"]
    header = ["System"]
    for t in sets:
        name = style["escape"](t["test_set"])
        header += [f"{name}: {style['escape'](table['metric_key'])}", f"{name}: {style['delta']}"]
    header += ["Sets (Bonferroni)", "Sets (Fisher)"]
    found = {r["system"]: r for r in table["replicability"]}
    rows = []
    for index, system in enumerate(sets[0]["systems"]):
        name = system["name"]
        row = [style["escape"](name) + (" (baseline)" if name == table["baseline"] else "")]
        for t in sets:
            own = t["systems"][index]
            row.append(_score(own, digits, style) + " " + _interval(own["score_low"], own["score_high"], digits, style, signed=False))
            comparison = next((c for c in t["comparisons"] if c["system"] == name), None)
            row.append(style["none"] if comparison is None else _difference(comparison, digits, style) + " " + _interval(comparison["difference_low"], comparison["difference_high"], digits, style, signed=True))
        row += [style["none"]] * 2 if name == table["baseline"] else [f"{found[name]['bonferroni']}/{len(sets)}", f"{found[name]['fisher']}/{len(sets)}"]
        rows.append(row)
    note = _note(sets[0], style) + (
        " Sets: on how many test sets the difference holds (Dror et al. 2017), from the per-set p-values after the correction;"
        " Bonferroni for dependent sets, Fisher for independent ones."
    )
    return header, rows, note


def _note(table, style):
    alpha = 1 - table["confidence_level"]
    m = len(table["comparisons"])
    test = {"bootstrap": "paired bootstrap", "randomization": "approximate randomization"}[table["method"]]
    seeds = any(s["runs"] > 1 for s in table["systems"])
    what = "clusters (groups)" if table["groups"] is not None else "examples"
    text = (
        f"{style['math'](style['star'])} p {style['le']} {alpha:.3g} after {table['correction'].capitalize()}'s correction for {m} comparison{'s' * (m != 1)}"
        f" ({test}, {table['n_resamples']:,} resamples of the {what}, seed {table['seed']}); intervals: bootstrap percentiles"
    )
    if seeds:
        text += f"; scores over several runs: mean {style['math'](style['pm'].strip())} standard deviation, resampled over runs and {what} (two-level bootstrap)"
    return text + "."


def _plain(value, digits, style):
    return style["none"] if value is None else style["math"](f"{value:.{digits}f}")


def _score(system, digits, style):
    if system["score"] is None:
        return style["none"]
    spread = "" if system["score_std"] is None else f"{style['pm']}{system['score_std']:.{digits}f}"
    return style["math"](f"{system['score']:.{digits}f}{spread}")


def _difference(comparison, digits, style):
    if comparison["difference"] is None:
        return style["none"]
    return style["math"](f"{comparison['difference']:+.{digits}f}" + (style["star"] if comparison["significant"] else ""))


def _interval(low, high, digits, style, signed):
    if low is None or high is None:
        return style["none"]
    form = f"+.{digits}f" if signed else f".{digits}f"
    return style["math"](f"[{low:{form}}, {high:{form}}]")
