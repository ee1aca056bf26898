# GENERATED from shared/paperscore/state.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Mergeable statistics: score a corpus in shards (processes, ranks, dataset workers) and
get exactly the numbers one `compute()` over every example gives.

    state = paperscore.state.new("micro_macro", convention="maven")
    state.update(predictions, references)          # any number of times, any batch size
    total = paperscore.state.merge(state_a, state_b, ...)
    total.compute()                                 # == micro_macro.compute(all predictions, all references, convention="maven")
    payload = total.to_dict()                       # JSON-safe; paperscore.state.from_dict(payload) reads it back

A state is written once for every family, over the family's statistics
(paperscore.family): `update` reads a batch with the family's `rows` (checked exactly as
compute() checks it; example indices in messages are within the batch; parse=,
sources=, spans and conventions as compute takes them), and keeps the column sums of
the rows (counts as int64, exactly; sums of fractions as floats), the family's records
(what sums cannot merge: each family says which, and its merge refuses what compute
refuses over the union), and the parse report's counts and first failing indices (in
update and merge order: compute's own when shards are merged in corpus order).
micro_macro keeps a confusion matrix keyed by label instead (sparse: what occurs);
faithfulness ERASER's sums of per-example terms. Each family's docstring of its Family
says what its state holds and refuses.

Count figures are equal bit for bit. Figures from sums of fractional terms (rationale's
example_*, iou_*, auprc; quad's optimal_*; coref's B3, CEAFe, LEA and CoNLL; corefud's)
are floats added in another order when a corpus comes in several batches, so they may
differ from one pass in the last bits (relative 1e-12).

Bootstrap intervals (`compute(confidence_level=...)`) need the per-example rows, kept only
with `keep_rows=True`: the distinct rows and their example counts, sorted as compute sorts
them, so intervals are identical however the examples were sharded and merged (micro_macro
sequences: their rows in merge order, the same as compute's in corpus order); and each
example's row code and a 32-bit check of each reference (core.example_checks), in update
and merge order, so that paperscore.compare can pair two systems' states merged in corpus
order, and refuses states scored against other references (micro_macro keeps the labels).

from_dict checks what it reads: every count a non-negative integer, every sum a number in
the family's range, the kept rows adding up to the sums, the family's own invariants
(hits <= predicted, ...), the parse report, the records; and a state carries the package
version and the parser with its version (`asqp_paraphrase@2`): states of two versions
are not merged.
"""

import numpy as np

from .paperscore_family import check_totals, get as get_family, intervals as family_intervals
from .paperscore_core import INT64, VERSION, check_bootstrap, check_flags, encode_rows, example_checks, input_error

FAMILIES = ("micro_macro", "rationale", "quad_match", "csc_sighan", "csc_common", "coref", "corefud", "faithfulness")
FORMAT = 2


def new(family, keep_rows=False, **options):
    """An empty state for `family` (a name of FAMILIES, a Space name, or one registered
    with paperscore.family.register) with the family's compute() options (bootstrap and
    output options excluded: they go to State.compute)."""
    check_flags(keep_rows=keep_rows)
    fam = get_family(family, **options)
    return fam.State(fam, bool(keep_rows))


def merge(*states):
    """One state holding every example of `states` (in the order given), which are left
    unchanged. They must be of one family with equal options and keep_rows."""
    if not states:
        raise ValueError("merge: needs at least one state")
    first = states[0]
    for i, other in enumerate(states, 1):
        if not isinstance(other, State):
            raise ValueError(f"merge: argument {i} is a {type(other).__name__}, not a paperscore state")
        if other.family != first.family:
            raise ValueError(f"merge: argument {i} is a {other.family} state, argument 1 a {first.family} state")
        for name in sorted(set(first.options) | set(other.options)):
            if repr(first.options.get(name)) != repr(other.options.get(name)):  # nan == nan
                raise ValueError(f"merge: option {name} is {other.options.get(name)!r} in argument {i} but {first.options.get(name)!r} in argument 1")
        if other.keep_rows != first.keep_rows:
            raise ValueError(f"merge: keep_rows is {other.keep_rows} in argument {i} but {first.keep_rows} in argument 1")
        if other.version != first.version:
            raise ValueError(f"merge: argument {i} was made by paperscore {other.version}, argument 1 by {first.version}: their counting rules may differ")
    out = type(first)(first.fam, first.keep_rows)
    out.version = first.version
    for state in states:
        out._add(state)
    return out


def from_dict(data):
    """A state from State.to_dict()'s dict (also after a JSON round trip), every invariant
    checked (module docstring)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        earlier = isinstance(data, dict) and data.get("format") == 1
        raise ValueError(f"from_dict: not a paperscore state of format {FORMAT}" + ("; format 1 states (paperscore 0.1.0 before states carried versions) cannot be read: compute them again" if earlier else ""))
    options = field(data, "options")
    if not isinstance(options, dict):
        raise ValueError(f"options: {options!r:.60} is not a dict of compute() options")
    family, keep_rows = field(data, "family"), field(data, "keep_rows")
    if not isinstance(family, str) or not isinstance(keep_rows, bool):
        raise ValueError(f"family, keep_rows: {family!r:.40}, {keep_rows!r:.40} are not a family name and true or false")
    state = new(family, keep_rows, **options)
    version = field(data, "paperscore")
    if not isinstance(version, str):
        raise ValueError(f"paperscore: {version!r:.40} is not a version")
    state.version = version
    try:
        if state.parsed():
            state._load_report(data)
        state._load(data)
    except (TypeError, KeyError, IndexError, AttributeError) as error:  # a field of another shape than the family writes
        raise ValueError(f"from_dict: not a well-formed {state.family} state: {type(error).__name__}: {str(error)[:200]}") from None
    return state


def field(data, name):
    """data[name], or a ValueError naming the missing key."""
    if name not in data:
        raise ValueError(f"from_dict: the state has no {name!r}")
    return data[name]


def all_reduce(state, group=None):
    """The state of every rank merged (in rank order), returned on every rank
    (paperscore.distributed.all_reduce: torch.distributed, gloo on CPU or NCCL). Every rank
    must call it, with states of equal options. Without a process group (a script run as
    `python train.py`, one process) the state itself is returned, as accelerate's
    gather_for_metrics does."""
    from .paperscore_distributed import all_reduce as gathered

    return gathered(state, group)


# ---------------------------------------------------------------------------------------
# JSON values, checked


def counts(value, argument, shape=None):
    """A JSON list of counts as int64: each a non-negative int below 2^63 (no float, no
    wrap-around); an error names the first bad one by its flat index."""
    for i, item in enumerate(np.asarray(value, dtype=object).ravel()):
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)) or not 0 <= item <= INT64[1]:
            raise input_error(argument, i, f"{item!r:.40} is not a count (an integer from 0 to 2^63 - 1)")
    array = np.asarray(value, dtype=np.int64)
    if shape is not None and array.shape != shape:
        raise ValueError(f"{argument}: shape {array.shape}, expected {shape}")
    return array


def add_counts(a, b):
    """a + b for int64 counts, refusing a sum past 2^63 - 1 instead of wrapping."""
    if np.size(a) and (b > INT64[1] - a).any():
        raise OverflowError("a merged count passes 2^63 - 1")
    return a + b


def reals(values):
    """Floats for strict JSON: NaN, inf and -inf as the strings "nan", "inf", "-inf"."""
    return [float(v) if np.isfinite(v) else str(float(v)) for v in np.asarray(values, dtype=float).ravel()]


def unreals(values, argument, shape):
    """reals() read back: JSON numbers (not strings of digits, not booleans) or the three
    words; an error names the first bad one."""
    out = []
    for i, v in enumerate(values if isinstance(values, list) else [values]):
        if not (isinstance(v, (int, float)) and not isinstance(v, bool) or v in ("inf", "-inf", "nan")):
            raise input_error(argument, i, f"{v!r:.40} is not a number (nor \"inf\", \"-inf\", \"nan\")")
        out.append(float(v))
    if len(out) != int(np.prod(shape)):
        raise ValueError(f"{argument}: {len(out)} numbers, expected {int(np.prod(shape))}")
    return np.array(out, dtype=float).reshape(shape)


def merge_rows(table, weights, more, more_weights):
    """The distinct rows of two (rows, their example counts) pairs, in the sorted order
    core.compress_rows gives one pass's rows: the bootstrap then draws the same resamples."""
    table, codes = encode_rows(np.concatenate([table, more]))
    return table, counts_sum(codes, np.concatenate([weights, more_weights]), len(table))


def counts_sum(codes, weights, size):
    """Sums of int64 `weights` by code, exactly (np.bincount adds in float64), refusing a
    total past 2^63 - 1."""
    if sum(int(w) for w in weights) > INT64[1]:
        raise OverflowError("a merged count passes 2^63 - 1")
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, weights)
    return out


# ---------------------------------------------------------------------------------------
# The state


class State:
    """Statistics of the examples seen so far (see the module docstring); a family's
    Family.State is this class or a subclass."""

    def __init__(self, fam, keep_rows):
        self.fam, self.keep_rows, self.version = fam, keep_rows, VERSION
        self.family, self.options = fam.name, fam.options
        if keep_rows and not fam.intervals:
            raise ValueError(f"keep_rows: {fam.name}.compute has no bootstrap intervals" + getattr(fam, "NO_INTERVALS", ""))
        # with parse=: the examples seen, and the parse report's counts and first indices
        self.examples = 0
        self.report = {name: [] if name.endswith("_examples") else 0 for pair in fam.REPORT for name in pair} | {name: 0 for name in fam.REPORT_SUMS}

    def parsed(self):
        return self.options.get("parse") is not None

    def update(self, predictions, references, **inputs):
        """Add a batch, checked exactly as compute() checks it (example indices in
        messages are within the batch)."""
        batch = self.fam.rows(predictions, references, **inputs)
        self._add_batch(batch)
        if self.keep_rows and hasattr(self, "checks"):  # which references, in order: compare pairs two systems' states by them
            self.checks = np.concatenate([self.checks, example_checks(references)])
        if self.parsed():
            self._add_report(len(batch), batch.report)
        return self

    def _add_report(self, examples, report):
        """Another run of `examples` examples after these: counts added, its first indices
        offset by the examples before it (so they are the first in update and merge order)."""
        from .paperscore_parse import FAILURE_EXAMPLES

        for count, first in self.fam.REPORT:
            self.report[count] += report[count]
            self.report[first] = (self.report[first] + [self.examples + i for i in report[first]])[:FAILURE_EXAMPLES]
        for count in self.fam.REPORT_SUMS:
            self.report[count] += report[count]
        self.examples += examples

    def _load_report(self, data):
        from .paperscore_parse import FAILURE_EXAMPLES

        examples = int(counts([data.get("examples", 0)], "examples")[0])
        report = {name: int(counts([data.get(name, 0)], name)[0]) for name in self.fam.REPORT_SUMS}
        for count, first in self.fam.REPORT:  # a report's count, and the first indices of the examples it counts in
            report[count] = int(counts([data.get(count, 0)], count)[0])
            report[first] = counts(data.get(first, []), first).tolist()
            if len(report[first]) > min(report[count], FAILURE_EXAMPLES) or (report[count] > 0) != bool(report[first]) or (np.diff(report[first]) <= 0).any() or any(i >= examples for i in report[first]):
                raise ValueError(f"{first}: {report[first]} are not the first indices of {examples} examples where {count} is {report[count]}")
            if count == "parse_failures" and report[count] > examples:
                raise ValueError(f"{count}: {report[count]} of {examples} examples")
        self._add_report(examples, report)

    def _report(self):
        """The parse report's entries of the result (none without parse=)."""
        return {name: list(v) if isinstance(v, list) else v for name, v in self.report.items()} if self.parsed() else {}

    def to_dict(self):
        """A JSON-safe dict (lists of ints and floats; NaN and infinities as strings)."""
        options = {k: "nan" if isinstance(v, float) and v != v else v for k, v in self.options.items()}  # zero_division
        report = {"examples": self.examples, **self._report()} if self.parsed() else {}
        return {"format": FORMAT, "paperscore": self.version, "family": self.family, "options": options, "keep_rows": self.keep_rows, **self._dump(), **report}

    def compute(self, confidence_level=None, n_resamples=1000, seed=None):
        """The family's compute() figures over every example added; with confidence_level,
        its bootstrap intervals too (needs keep_rows=True)."""
        result = self._figures() | self._report()
        if confidence_level is not None:
            check_bootstrap(confidence_level, n_resamples, seed)
            if not self.fam.intervals:
                raise ValueError(f"confidence_level: {self.family}.compute has no bootstrap intervals" + getattr(self.fam, "NO_INTERVALS", ""))
            if not self.keep_rows:
                raise ValueError("confidence_level: the bootstrap needs the per-example rows: create the state with keep_rows=True")
            result.update(self._intervals(confidence_level, n_resamples, seed))
        return result

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()


class Sums(State):
    """The state of a family whose rows are summed: the column sums (counts as int64,
    the rest as floats), the records, and with keep_rows the distinct rows with their
    example counts."""

    def __init__(self, fam, keep_rows):
        super().__init__(fam, keep_rows)
        kinds = np.asarray(fam.counts, dtype=bool)
        self.ints, self.floats = np.flatnonzero(kinds), np.flatnonzero(~kinds)
        self.counts = np.zeros(len(self.ints), dtype=np.int64)
        self.terms = np.zeros(len(self.floats))
        self.records = None
        self.table, self.weights = (np.zeros((0, fam.width())), np.zeros(0, dtype=np.int64)) if keep_rows else (None, None)
        if keep_rows:  # each row's code in update and merge order, and each reference's check (core.example_checks)
            self.codes, self.checks = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)

    def _add_batch(self, batch):
        totals = np.asarray(self.fam.totals(batch.table), dtype=float)
        whole = totals[self.ints]
        if (whole != np.round(whole)).any() or (whole < 0).any() or (whole >= 2.0**53).any():  # the family's contract: these columns count
            raise AssertionError(f"{self.family}: a count column holds a non-integer")
        self._add_sums(whole.astype(np.int64), totals[self.floats], batch.records, "update")
        if self.keep_rows:
            distinct, codes = encode_rows(batch.table)
            self._add_rows(distinct, np.bincount(codes, minlength=len(distinct)), codes)

    def _add_sums(self, whole, terms, records, where):
        self.records = self.fam.merge_records(self.records, records, where)
        self.counts = add_counts(self.counts, whole)
        self.terms = self.terms + terms

    def _add_rows(self, table, weights, codes):
        """More distinct rows, their example counts and the codes of their examples (in
        order), merged into the distinct rows sorted as compress_rows sorts one pass's."""
        merged, at = encode_rows(np.concatenate([self.table, table]))
        self.codes = np.concatenate([at[: len(self.table)][self.codes], at[len(self.table) :][codes]])
        self.weights = counts_sum(at, np.concatenate([self.weights, weights]), len(merged))
        self.table = merged

    def rows(self):
        """Each example's row, in update and merge order (keep_rows): what compare pairs."""
        return self.table[self.codes]

    def _add(self, other):
        self._add_sums(other.counts, other.terms, other.records, "merge")
        if self.keep_rows:
            self._add_rows(other.table, other.weights, other.codes)
            self.checks = np.concatenate([self.checks, other.checks])
        self._add_report(other.examples, other.report)

    def sums(self):
        out = np.zeros(len(self.ints) + len(self.floats))
        out[self.ints], out[self.floats] = self.counts, self.terms
        return out

    def _figures(self):
        return self.fam.figures(self.sums(), self.records)

    def _intervals(self, confidence_level, n_resamples, seed):
        return family_intervals(self.fam, self.table, self.weights, self.records, confidence_level, n_resamples, seed)

    def _dump(self):
        return {
            "counts": self.counts.tolist(),
            "terms": reals(self.terms),
            "records": self.fam.dump_records(self.records),
            "table": None if self.table is None else [reals(row) for row in self.table],
            "weights": None if not self.keep_rows else self.weights.tolist(),
            "codes": None if not self.keep_rows else self.codes.tolist(),
            "checks": None if not self.keep_rows else self.checks.tolist(),
        }

    def _load(self, data):
        whole = counts(field(data, "counts"), "counts", self.counts.shape)
        terms = unreals(field(data, "terms"), "terms", self.terms.shape)
        records = self.fam.load_records(field(data, "records"))
        sums = np.zeros(len(self.ints) + len(self.floats))
        sums[self.ints], sums[self.floats] = whole, terms
        check_totals(self.fam, sums[None], records, "from_dict")
        self._add_sums(whole, terms, records, "from_dict")
        table, weights, codes, checks = (field(data, name) for name in ("table", "weights", "codes", "checks"))
        if not self.keep_rows:
            if (table, weights, codes, checks) != (None,) * 4:
                raise ValueError("table: rows given in a state made without keep_rows")
            return
        if not all(isinstance(v, list) for v in (table, weights, codes, checks)) or len(table) != len(weights):
            raise ValueError("table, weights, codes, checks: not a list of rows, their example counts, each example's row and each reference's check")
        weights, codes = counts(weights, "weights", (len(table),)), counts(codes, "codes", (len(codes),))
        self.checks = counts(checks, "checks", (len(checks),))
        if (self.checks >= 1 << 32).any() or (codes >= max(len(table), 1)).any() or not np.array_equal(np.bincount(codes, minlength=len(table)), weights):
            raise ValueError("codes, checks: a row code past the table, a check past 32 bits, or codes that do not count the kept rows' examples")
        if not len(table):
            if sums.any():
                raise ValueError("table: no rows, but the sums are not zero")
            return
        widths = {len(row) if isinstance(row, list) else -1 for row in table}
        if len(widths) != 1 or -1 in widths:
            raise ValueError("table: rows of different widths, or not lists")
        rows = np.array([unreals(row, f"table[{i}]", (len(row),)) for i, row in enumerate(table)])
        if (weights == 0).any():
            raise ValueError("weights: a kept row counts no example")
        check_totals(self.fam, self.fam.example_totals(rows), records, "from_dict: table")
        distinct, at = encode_rows(rows)
        if len(distinct) != len(rows):
            raise ValueError("table: a row is listed twice")
        again = self.fam.totals(rows, weights[None].astype(float))[0]
        if not _same_sums(again, sums, self.ints):
            raise ValueError("table, weights: the kept rows do not add up to the sums (counts, terms)")
        self._add_rows(distinct, weights[np.argsort(at)], at[codes])


def _same_sums(a, b, ints):
    """Equal sums: counts exactly, fractions to 1e-9 (added in another order)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    exact = np.zeros(len(a), dtype=bool)
    exact[ints] = True
    close = np.isclose(a, b, rtol=1e-9, atol=1e-9) | (np.isnan(a) & np.isnan(b)) | (a == b)
    return bool(((a == b) | (~exact & close)).all())
