# GENERATED from shared/paperscore/family.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""The one interface every metric family gives its statistics through.

Every figure here is a ratio of sums of per-example statistics. A family module owns its
statistics and says everything about them through a `Family` object, made from the
family's compute() options by the module's `family(**options)`:

    fam = quad.family(parse="asqp_paraphrase", duplicates="set")  # options checked once
    batch = fam.rows(predictions, references)    # Batch: one statistics row per example
    sums = fam.totals(batch.table)               # what a state keeps: exact counts, float sums
    fam.figures(sums, batch.records)             # == quad.compute(...)'s figures

What the layers above need, and all they may use (a family overrides what differs):

- `name` (its name in paperscore.state: micro_macro, rationale, quad_match, coref, ...), `inputs` (per-example inputs beside predictions and
  references: "sources", "tokens", ...), `options` (checked, JSON-safe), `headline()`.
- `rows(predictions, references, **inputs) -> Batch(table, report, records)`: the batch
  checked and read exactly as compute() reads it (parsers, sources, spans, conventions
  included), its rows (n_examples, width), the parse report (None without a parser) and
  `records`, what the family keeps beside sums because its rows cannot be merged by
  summing alone (DiaASQ's lists given and doc_ids, TextEE's windows; None for most).
- `counts`: a bool per column of the totals, True where it counts (int64, exact);
  the others are sums of fractions (floats: B3, ROUGE-L degrees, per-example means).
- `totals(table, weights=None)`: the sums of a table's rows, or for each row of
  `weights` (r, n) the weighted sums (r, width) the bootstrap draws. Default: the plain
  sums; a family whose rows hold NaN (rationale's per-example means) sums otherwise.
- `reduce(totals, records=None) -> {key: array}`: every figure from totals (..., width).
- `extras(totals, records)`: entries of the result that are not resampled (counts).
- `resampling(table, counts, records) -> (counts, reduce_weights)`: what the bootstrap
  draws, from the distinct rows and their example counts (default: every column).
- `merge_records(mine, theirs, where)`: records of two parts of one corpus, refusing what
  compute() would refuse over their union (CSC label lines: one batch only);
  `paired_records(*records)`: those under which systems are compared.
- `paired(*batches) -> ([(table, codes)], reduce(weights, table))`: systems' batches on the
  same references for paired tests (micro_macro codes every system's labels at once).
- `check(totals, where)`: the family's invariants (hits <= predicted, ...), on totals
  read from outside (a state's JSON) and on every kept row; `bounded`: every figure lies
  in [0, 1] (the list rule's quad recall, corefud's BLANC, OneIE's counts may pass 1).
- `for_data(predictions, references)`: the family that scores this data (coref's for
  CoNLL-U is corefud's); itself by default.
- `intervals`: False where compute() has no bootstrap (faithfulness: keep_rows refused).
- `State`: the state class (paperscore.state.Sums by default; micro_macro keeps a sparse
  confusion matrix keyed by label, faithfulness ERASER's sums).

compute(), states (paperscore.state), paired tests (paperscore.compare), rewards
(paperscore.rewards) and the evaluation-harness integrations are built on this alone.
To add a family: a module with `compute()` and `family(**options)` returning a subclass
of Family that defines `name`, `rows`, `counts` and `reduce`; `register(name, factory)`
makes it known to paperscore.state by name.
"""

import numpy as np

from .paperscore_core import as_floats, bootstrap_intervals, compress_rows, encode_rows


class Batch:
    """What a family reads from one batch: `table` (n_examples, width) of per-example
    statistics, the parse `report` (None without a parser), the family's `records`, and
    `compared`: per-example counts a paired test may compare besides the figures
    ({name: (n_examples,) array}, None for most: coref's mentions_on_changed_text)."""

    __slots__ = ("table", "report", "records", "compared")

    def __init__(self, table, report=None, records=None, compared=None):
        self.table, self.report, self.records, self.compared = table, report, records, compared

    def __len__(self):
        return self.table.shape[0]


class Family:
    name = None
    inputs = ()
    intervals = True  # compute() has bootstrap intervals
    bounded = True  # every figure of reduce() lies in [0, 1] (or is NaN)
    counts = ()  # per totals column: True where it counts
    REPORT = (("parse_failures", "parse_failure_examples"),)  # with parse=: the report's (count, first indices) pairs
    REPORT_SUMS = ()  # and its other counts

    def __init__(self, options):
        self.options = options

    @property
    def State(self):
        from .paperscore_state import Sums

        return Sums

    def width(self):
        """The width of a row (of the table rows() gives)."""
        return len(self.counts)

    # -- reading ---------------------------------------------------------------------

    def rows(self, predictions, references, **inputs):
        raise NotImplementedError

    def for_data(self, predictions, references):
        return self

    # -- sums --------------------------------------------------------------------------

    def totals(self, table, weights=None):
        if weights is None:
            return np.asarray(table, dtype=float).sum(0)
        return np.asarray(weights, dtype=float) @ table

    def example_totals(self, table):
        """Each example's own totals (n, width): its figures are reduce() of them."""
        return np.asarray(table, dtype=float)

    def reduce(self, totals, records=None):
        raise NotImplementedError

    def extras(self, totals, records=None):
        return {}

    def figures(self, totals, records=None):
        """The result's figures from the totals of every example: floats, and the extras."""
        totals = np.asarray(totals, dtype=float)
        return as_floats({key: value[0] for key, value in self.reduce(totals[None], records).items()}) | self.extras(totals, records)

    def headline(self):
        return "f1"

    # -- resampling --------------------------------------------------------------------

    def resampling(self, table, counts, records=None):
        """(example counts of the rows drawn, reduce(weights) -> {key: (r,) array})."""
        return counts, lambda weights: self.reduce(self.totals(table, weights), records)

    def paired_records(self, *records):
        """The records under which systems' batches on the same references are compared
        (default: the first system's)."""
        return records[0]

    def paired(self, *batches):
        """Systems' batches on the same references, for paired tests: ([(table, codes)] per
        batch, reduce(weights, table)): each batch's distinct rows, each example coded by
        its row's value (so p-values do not depend on example order)."""
        records = self.paired_records(*(batch.records for batch in batches))
        names = sorted(batches[0].compared or ())
        width = batches[0].table.shape[1]

        def reduce(weights, table):
            out = self.reduce(self.totals(table[:, :width], weights), records)
            return out | {name: np.asarray(weights, dtype=float) @ table[:, width + i] for i, name in enumerate(names)}

        return [encode_rows(np.column_stack([batch.table, *(batch.compared[name] for name in names)])) for batch in batches], reduce

    # -- records and invariants --------------------------------------------------------

    def merge_records(self, mine, theirs, where):
        return None if mine is None and theirs is None else mine if theirs is None else theirs if mine is None else self._merge_records(mine, theirs, where)

    def _merge_records(self, mine, theirs, where):
        raise ValueError(f"{where}: {self.name} keeps no records to merge")

    def dump_records(self, records):
        return records

    def load_records(self, data):
        if data is not None:
            raise ValueError(f"records: {self.name} keeps none, got {data!r:.60}")
        return None

    def check(self, totals, where):
        """Raise ValueError where `totals` (n, width) break the family's invariants
        (besides every sum finite and non-negative, and every figure in [0, 1])."""


def check_totals(fam, totals, records, where):
    """Totals read from outside (a state's JSON): finite, non-negative, the family's
    invariants, and (a bounded family) every figure in [0, 1] or NaN."""
    totals = np.asarray(totals, dtype=float)
    bad = ~np.isfinite(totals) | (totals < 0)
    if bad.any():
        row, column = np.argwhere(bad)[0]
        raise ValueError(f"{where}: sum {column} is {totals[row, column]!r}, not a finite non-negative number")
    fam.check(totals, where)
    if fam.bounded:
        with np.errstate(all="ignore"):
            for key, values in fam.reduce(totals, records).items():
                values = np.asarray(values, dtype=float)
                outside = ~np.isnan(values) & ((values < 0) | (values > 1))
                if outside.any():
                    raise ValueError(f"{where}: the sums give {key} = {values[outside][0]!r}, outside [0, 1]: they are not the statistics of any corpus")


def scoring_options(compute, options, allowed, where):
    """compute()'s scoring `options` with every `allowed` one filled from its signature's
    defaults (tuples and arrays as lists, as JSON gives them back); any other is refused."""
    import inspect

    for name in options:
        if name not in allowed:
            raise ValueError(f"{name}: not a {where} option (options: {', '.join(allowed)}; bootstrap and output options go to compute())")
    defaults = inspect.signature(compute).parameters
    out = {name: options.get(name, defaults[name].default) for name in allowed}
    return {name: list(v) if isinstance(v, tuple) or (isinstance(v, np.ndarray) and v.ndim) else v for name, v in out.items()}


def evaluate(fam, batch, confidence_level=None, n_resamples=1000, seed=None):
    """compute()'s figures of one batch (and its bootstrap intervals): the interface
    applied once, which every family's compute() returns."""
    result = fam.figures(fam.totals(batch.table), batch.records)
    if confidence_level is not None:
        distinct, counts = compress_rows(batch.table)
        result.update(intervals(fam, distinct, counts, batch.records, confidence_level, n_resamples, seed))
    return result


def intervals(fam, table, counts, records, confidence_level, n_resamples, seed):
    """The bootstrap intervals from distinct rows and their example counts."""
    counts, reduce = fam.resampling(table, counts, records)
    return bootstrap_intervals(counts, reduce, confidence_level, n_resamples, seed)


def paired_table(table, counts, columns):
    """The distinct rows of `table`'s `columns` with their example counts, sorted as
    compress_rows sorts one pass's rows of those columns alone."""
    distinct, codes = encode_rows(table[:, columns])
    return distinct, np.bincount(codes, weights=counts, minlength=len(distinct)).astype(np.int64)


# ---------------------------------------------------------------------------------------
# Families by name

MODULES = {
    "micro_macro": "micro_macro",
    "rationale": "rationale",
    "rationale_f1": "rationale",
    "quad_match": "quad",
    "quad": "quad",
    "csc_sighan": "csc_sighan",
    "sighan": "csc_sighan",
    "csc_common": "csc_common",
    "csc": "csc_common",
    "coref": "coref",
    "coref_conll": "coref",
    "corefud": "corefud",
    "faithfulness": "faithfulness",
}
_REGISTERED = {}


def register(name, factory):
    """Make the family `factory(**options) -> Family` known by `name`."""
    if not isinstance(name, str) or name in MODULES:
        raise ValueError(f"register: {name!r} is not a new family name")
    _REGISTERED[name] = factory


def get(name, **options):
    """The Family of the family called `name` (a Space, module or command name, or one
    registered), made from compute()'s options."""
    if name in _REGISTERED:
        return _REGISTERED[name](**options)
    if not isinstance(name, str) or name not in MODULES:
        known = ", ".join(sorted(set(MODULES) | set(_REGISTERED)))
        raise ValueError(f"family: {name!r} is not one of {known}")
    import importlib

    return importlib.import_module(f"{__package__}.{MODULES[name]}").family(**options)
