"""Mergeable statistics: score a corpus in shards (processes, ranks, dataset workers) and
get exactly the numbers one `compute()` over every example gives.

    state = paperscore.state.new("micro_macro", convention="maven")
    state.update(predictions, references)          # any number of times, any batch size
    total = paperscore.state.merge(state_a, state_b, ...)
    total.compute()                                 # == micro_macro.compute(all predictions, all references, convention="maven")
    payload = total.to_dict()                       # JSON-safe; State.from_dict(payload) reads it back

Every family's figures are ratios of sums, so a state holds only the sums:
- micro_macro: the confusion matrix over the labels seen, O(classes^2) whatever the corpus.
- micro_macro with spans="textee" or "oneie" (and scheme=): event_spans' per-unit counts
  (a window under "textee", an example under "oneie"), summed, and whether the references
  hold events. TextEE counts a window's tuples (doc_id, wnd_id) as one set, which sums
  cannot rebuild: a "textee" state keeps the windows' ids and refuses a window seen again
  in a later update or another shard (give each window's examples in one update).
- rationale: the four token counts, and per mean (example P/R/F1, IOU P/R, AUPRC) the sum
  of its per-example terms and how many examples enter it; plus whether a soft score was
  seen (auprc=None reports AUPRC only then, as compute does). A2R's top_k_ratio selects
  within each example, so it merges as the threshold does.
- faithfulness (ERASER's comprehensiveness, sufficiency, AOPC, entropy and KL, each a mean
  of per-example terms): their sums, the number of examples and, with thresholded scores,
  the AOPC differences summed per threshold. `update` takes faithfulness.compute's
  arguments, `update_results` ERASER's results lines (compute_results' numbers, without
  its signature; every shard's lines must name the same classes; an annotation_id
  repeated across shards is not detected: the state keeps no ids). Sums of floats: equal
  to one pass within relative 1e-12; infinite KLs and NaN kept (as text in the JSON). No
  bootstrap (compute has none): keep_rows=True is refused.
- quad_match, csc_sighan, csc_common, coref, corefud (the families whose compute() sums
  per-example rows for its bootstrap_intervals call): the column sums of those rows,
  counts as int64 (coref, corefud: float64 throughout, as their compute sums them).
  quad_match takes implicit_split (ACOS's split: a block of sums per implicitness kind)
  and convention="diaasq" (DiaASQ's table: per-dialogue counts of every row, plus the
  lists the predictions give and the gold doc_ids, so that the merge refuses what
  compute refuses over the whole corpus; a shard holds each dialogue's prediction with its
  gold). The CSC states take sentences with their sources (`update(predictions,
  references, sources=...)`). coref takes documents (and `tokens=`, `texts=` for
  character spans) and coval's remove_nested, NP_only and min_span (applied within each
  document, as compute applies them); "corefud" takes CoNLL-U texts with corefud.compute's
  options (coref.compute reads them as matching="exact", keep_singletons=True), a shard
  holding whole files.
Every family but corefud (whose compute reads no model text) takes parse= too, reading
model texts as its compute(parse=...) does, example by example: micro_macro OmniEvent
seq2seq texts with `types=` (the candidates' label sequences are added, and kept as its
rows), rationale replies with `update(..., sources=...)` (references 0/1 per token or gold
quotes, one kind over every batch and merge, as compute requires of the corpus),
quad_match, csc_sighan, csc_common, and coref, with NP_only or min_span too (a document
with a mention the parser cannot place has no parse tree for it: the batch is refused, as
compute refuses the corpus). The report's counts (parse_failures, micro_macro's
unplaced_triggers, rationale's quotes and unmatched_quotes, coref's
mentions_on_changed_text) are sums; its *_examples, corpus positions, are the first
indices of the examples in update and merge order (the same as compute's when shards are
merged in corpus order).
Refused, saying why: CSC label lines (sources=None: a result line pairs with the truth line
of its pid anywhere in the files, and a shard cannot tell a pid whose result line is in
another shard from one the system left out).

Count figures are equal bit for bit. Figures from sums of fractional terms (rationale's
example_*, iou_*, auprc; quad's optimal_*, sums of ROUGE-L degrees; coref's and corefud's
B3, CEAFe, LEA and CoNLL) are floats added in another order, so they may differ from one
pass in the last bits (relative 1e-12).

Bootstrap intervals (`compute(confidence_level=...)`) need the per-example rows, kept only
with `keep_rows=True`:
- rationale, quad_match, csc_sighan, csc_common, coref, corefud and micro_macro's spans
  keep the distinct rows and their counts; compute sorts them the same way, so intervals
  are identical however the examples were sharded and merged (quad's optimal_* and
  coref's fractional figures up to the float sums above).
- micro_macro keeps the examples' labels, concatenated in merge order; with one label per
  example the bootstrap reads only the confusion cells (identical under any sharding),
  with sequences of labels it resamples sequences in order: identical when shards are
  merged in corpus order, else a different (equally valid) draw for the same seed.
`paperscore compare` takes whole corpora, not states. Its p-values and intervals depend on
the multiset of paired examples for quad_match, rationale, the CSC families, coref and
micro_macro with one label per example (shards rejoined in any order give the same
figures); micro_macro sequences code each sequence by its position, so there they are the
same only with the examples in corpus order.
"""

import numpy as np

from .core import INT64, check_bootstrap, check_flags, check_zero_division, input_error

FAMILIES = ("micro_macro", "rationale", "quad_match", "csc_sighan", "csc_common", "coref", "corefud", "faithfulness")
FORMAT = 1


def new(family, keep_rows=False, **options):
    """An empty state for `family` with the family's compute() options (bootstrap and
    output options excluded: they go to State.compute)."""
    if family not in FAMILIES:
        raise ValueError(f"family: {family!r} is not one of {', '.join(FAMILIES)}")
    if "parse" in options and family == "corefud":  # corefud.compute reads no model text
        raise ValueError("parse: a corefud state takes CoNLL-U texts, not model texts (corefud.compute has no parser); read model texts with the coref state's parse=")
    check_flags(keep_rows=keep_rows)
    if family == "micro_macro" and {"spans", "scheme"} & set(options):  # span-level event detection is a state of its own
        if options.get("spans") is None and options.get("scheme") is None:
            options = {name: value for name, value in options.items() if name not in ("spans", "scheme")}
        else:
            family = "spans"
    cls = {"micro_macro": MicroMacroState, "spans": EventSpansState, "rationale": RationaleState, "quad_match": QuadState, "csc_sighan": SighanState, "csc_common": CscCommonState, "coref": CorefState, "corefud": CorefUDState, "faithfulness": FaithfulnessState}[family]
    if family == "quad_match" and "convention" in options:  # DiaASQ's table is a state of its own
        if options["convention"] is None:
            options = {name: value for name, value in options.items() if name != "convention"}
        else:
            cls = DiaasqState
    return cls(cls.check_options(options), bool(keep_rows))


def merge(*states):
    """One state holding every example of `states` (in the order given), which are left
    unchanged. They must be of one family with equal options and keep_rows."""
    if not states:
        raise ValueError("merge: needs at least one state")
    first = states[0]
    for i, other in enumerate(states[1:], 2):
        if not isinstance(other, State):
            raise ValueError(f"merge: argument {i} is a {type(other).__name__}, not a paperscore state")
        if other.family != first.family:
            raise ValueError(f"merge: argument {i} is a {other.family} state, argument 1 a {first.family} state")
        for name in sorted(set(first.options) | set(other.options)):
            if repr(first.options.get(name)) != repr(other.options.get(name)):  # nan == nan
                raise ValueError(f"merge: option {name} is {other.options.get(name)!r} in argument {i} but {first.options.get(name)!r} in argument 1")
        if other.keep_rows != first.keep_rows:
            raise ValueError(f"merge: keep_rows is {other.keep_rows} in argument {i} but {first.keep_rows} in argument 1")
    out = type(first)(dict(first.options), first.keep_rows)
    for state in states:
        out._add(state)
    return out


def from_dict(data):
    """A state from State.to_dict()'s dict (also after a JSON round trip)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"from_dict: not a paperscore state of format {FORMAT}")
    state = new(data["family"], data["keep_rows"], **data["options"])
    if state.parsed():
        state._load_report(data)
    state._load(data)
    return state


def _counts(value, argument, shape=None):
    """A JSON list of counts as int64: each a non-negative int below 2^63 (no float, no
    wrap-around); an error names the first bad one by its flat index."""
    for i, item in enumerate(np.asarray(value, dtype=object).ravel()):
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)) or not 0 <= item <= INT64[1]:
            raise input_error(argument, i, f"{item!r} is not a count (an integer from 0 to 2^63 - 1)")
    array = np.asarray(value, dtype=np.int64)
    if shape is not None and array.shape != shape:
        raise ValueError(f"{argument}: shape {array.shape}, expected {shape}")
    return array


def _add_counts(a, b):
    """a + b for int64 counts, refusing a sum past 2^63 - 1 instead of wrapping."""
    if len(a) and (b > INT64[1] - a).any():
        raise OverflowError("a merged count passes 2^63 - 1")
    return a + b


def _merge_rows(table, weights, more, more_weights):
    """The distinct rows of two (rows, their example counts) pairs, in the sorted order
    core.compress_rows gives one pass's rows: the bootstrap then draws the same resamples."""
    from .core import encode_rows

    table, codes = encode_rows(np.concatenate([table, more]))
    return table, _counts_sum(codes, np.concatenate([weights, more_weights]), len(table))


def _columns_only(table, weights, columns):
    """The distinct rows of `table`'s `columns` with their example counts, sorted as
    core.compress_rows sorts one pass's rows of those columns alone."""
    from .core import encode_rows

    table, codes = encode_rows(table[:, columns])
    return table, _counts_sum(codes, weights, len(table))


def _counts_sum(codes, weights, size):
    """Sums of int64 `weights` by code, exactly (np.bincount adds in float64), refusing a
    total past 2^63 - 1."""
    if sum(int(w) for w in weights) > INT64[1]:
        raise OverflowError("a merged count passes 2^63 - 1")
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, codes, weights)
    return out


def _floats(values):
    """Floats with NaN as None (strict JSON has no NaN)."""
    return [None if v != v else float(v) for v in np.asarray(values, dtype=float).ravel()]


def _unfloats(values):
    return np.array([np.nan if v is None else v for v in values], dtype=float)


class State:
    """Statistics of the examples seen so far; see the module docstring."""

    family = None
    REPORT = (("parse_failures", "parse_failure_examples"),)  # with parse=: the parse report's (count, first indices) pairs
    REPORT_SUMS = ()  # and its other counts

    def __init__(self, options, keep_rows):
        self.options, self.keep_rows = options, keep_rows
        # with parse=: the examples seen, and the parse report's counts and first indices
        self.examples = 0
        self.report = {name: [] if name.endswith("_examples") else 0 for pair in self.REPORT for name in pair} | {name: 0 for name in self.REPORT_SUMS}

    def parsed(self):
        return self.options.get("parse") is not None

    def _add_report(self, examples, report):
        """Another run of `examples` examples after these: counts added, its first indices
        offset by the examples before it (so they are the first in update and merge order)."""
        from .parse import FAILURE_EXAMPLES

        for count, first in self.REPORT:
            self.report[count] += report[count]
            self.report[first] = (self.report[first] + [self.examples + i for i in report[first]])[:FAILURE_EXAMPLES]
        for count in self.REPORT_SUMS:
            self.report[count] += report[count]
        self.examples += examples

    def _load_report(self, data):
        from .parse import FAILURE_EXAMPLES

        examples = int(_counts([data.get("examples", 0)], "examples")[0])
        report = {name: int(_counts([data.get(name, 0)], name)[0]) for name in self.REPORT_SUMS}
        for count, first in self.REPORT:  # a report's count, and the first indices of the examples it counts in
            report[count] = int(_counts([data.get(count, 0)], count)[0])
            report[first] = _counts(data.get(first, []), first).tolist()
            if len(report[first]) > min(report[count], FAILURE_EXAMPLES) or (report[count] > 0) != bool(report[first]) or (np.diff(report[first]) <= 0).any() or any(i >= examples for i in report[first]):
                raise ValueError(f"{first}: {report[first]} are not the first indices of {examples} examples where {count} is {report[count]}")
        self._add_report(examples, report)

    def _report(self):
        """The parse report's entries of the result (none without parse=)."""
        return {name: list(v) if isinstance(v, list) else v for name, v in self.report.items()} if self.parsed() else {}

    def to_dict(self):
        """A JSON-safe dict (lists of ints and floats, NaN as None)."""
        options = {k: "nan" if isinstance(v, float) and v != v else v for k, v in self.options.items()}  # zero_division
        report = {"examples": self.examples, **self._report()} if self.parsed() else {}
        return {"format": FORMAT, "family": self.family, "options": options, "keep_rows": self.keep_rows, **self._dump(), **report}

    def compute(self, confidence_level=None, n_resamples=1000, seed=None):
        """The family's compute() figures over every example added; with confidence_level,
        its bootstrap intervals too (needs keep_rows=True)."""
        result = self._figures()
        if confidence_level is not None:
            check_bootstrap(confidence_level, n_resamples, seed)
            if not self.keep_rows:
                raise ValueError("confidence_level: the bootstrap needs the per-example rows: create the state with keep_rows=True")
            result.update(self._intervals(confidence_level, n_resamples, seed))
        return result

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()


# ---------------------------------------------------------------------------------------
# micro_macro: a confusion matrix over the labels seen


class MicroMacroState(State):
    family = "micro_macro"
    REPORT_SUMS = ("unplaced_triggers",)
    READING = ("parse", "strict", "types")  # compute(parse=...)'s options: how model texts become labels

    @classmethod
    def check_options(cls, options):
        from . import micro_macro as mm

        allowed = ("labels", "negative_labels", "convention", "zero_division", "ignore_index") + cls.READING
        for name in options:
            if name not in allowed:
                raise ValueError(f"{name}: not a micro_macro state option (options: {', '.join(allowed)}; bootstrap options go to compute())")
        out = {name: options.get(name) for name in allowed}
        out["zero_division"] = check_zero_division(options.get("zero_division", 0.0))
        out["ignore_index"] = options.get("ignore_index", -100)
        out["strict"] = options.get("strict", False)
        mm.check_choice("convention", out["convention"], mm.CONVENTIONS)
        mm._check_ignore_index(out["ignore_index"])
        for name in ("labels", "negative_labels", "types"):
            if out[name] is not None and not isinstance(out[name], str):  # kind checked at compute time, against the data's
                out[name] = [v.item() if isinstance(v, np.generic) else v for v in mm.from_tensor(out[name])]
        mm.check_parser_options(out["parse"], out["strict"], types=out["types"] is not None)
        if out["parse"] is not None:
            mm._parsed([], [], out["parse"], out["strict"], out["types"])  # compute's own checks of parse and types
        return out

    def __init__(self, options, keep_rows):
        super().__init__(options, keep_rows)
        self.kind = self.nested = None
        self.values, self.index = [], {}
        self.matrix = np.zeros((0, 0), dtype=np.int64)  # rows references, columns predictions
        self.rows = ([], []) if keep_rows else None  # the examples' predictions, references

    def _layout(self, kind, nested, where):
        """Refuse int labels after str ones, or sequences after single labels (compute
        refuses such a corpus); None: nothing seen yet."""
        shape = {True: "sequences of labels", False: "one label per example"}
        if None not in (self.kind, kind) and kind != self.kind:
            raise ValueError(f"{where}: {kind} labels, but the state holds {self.kind} labels")
        if None not in (self.nested, nested) and nested != self.nested:
            raise ValueError(f"{where}: {shape[nested]}, but the state holds {shape[self.nested]}")
        self.kind = self.kind if kind is None else kind
        self.nested = self.nested if nested is None else nested

    def _grow(self, values):
        """Codes of `values` in self.values, adding new ones (and matrix rows/columns)."""
        codes = np.array([self.index.setdefault(v, len(self.index)) for v in values], dtype=np.int64)
        if len(self.index) > len(self.values):
            self.values = list(self.index)
            k = len(self.values)
            grown = np.zeros((k, k), dtype=np.int64)
            grown[: len(self.matrix), : len(self.matrix)] = self.matrix
            self.matrix = grown
        return codes

    def _add_matrix(self, values, matrix):
        codes = self._grow(values)
        add = np.zeros_like(self.matrix)
        add[np.ix_(codes, codes)] = matrix
        self.matrix = _add_counts(self.matrix.ravel(), add.ravel()).reshape(self.matrix.shape)

    def update(self, predictions, references):
        """Add a batch, checked exactly as compute() checks it (example indices in messages
        are within the batch). With parse=, model texts and OmniEvent items, read as
        compute reads them: the candidates' label sequences are added (and kept as rows)."""
        from . import micro_macro as mm

        o = self.options
        if self.parsed():
            predictions, references, report = mm._parsed(predictions, references, o["parse"], o["strict"], o["types"])
            self._add_report(len(references), report)
        pred, ref, values, kind, example = mm._flatten(predictions, references, o["ignore_index"])
        nested = None if not len(references) else example is not None
        self._layout(kind if len(ref) else None, nested, "update")  # no label: kind unknown (compute says "int")
        k = len(values)
        counts = np.bincount(ref * k + pred, minlength=k * k).reshape(k, k) if k else np.zeros((0, 0), dtype=np.int64)
        occurs = np.flatnonzero(counts.sum(0) + counts.sum(1))  # a dense int range codes ids never seen
        self._add_matrix([values[i] for i in occurs], counts[np.ix_(occurs, occurs)])
        if self.keep_rows:
            for side, corpus in zip(self.rows, (predictions, references)):
                side.extend(_plain(mm.as_corpus(corpus, "predictions")))
        return self

    def _add(self, other):
        self._layout(other.kind, other.nested, "merge")
        self._add_matrix(other.values, other.matrix)
        if self.keep_rows:
            for mine, theirs in zip(self.rows, other.rows):
                mine.extend(theirs)
        self._add_report(other.examples, other.report)

    def _pairs(self):
        from . import micro_macro as mm

        pairs = mm.Pairs.__new__(mm.Pairs)  # Pairs over counts already made
        pairs.values, pairs.raw = self.values, self.matrix
        pairs.occurs = np.arange(len(self.values))
        return pairs

    def _figures(self):
        from . import micro_macro as mm

        kind, o = self.kind or "int", self.options
        labels = mm._check_label_list("labels", o["labels"], kind)
        pairs = self._pairs()
        classes, observed = pairs.order(labels)
        # convention="omnievent" scores the classes the references hold (the matrix's rows)
        gold = [self.values[i] for i in np.flatnonzero(self.matrix.sum(1))] if o["convention"] == "omnievent" else None
        scored, counted, _ = mm._scoring(classes, kind, labels, o["negative_labels"], o["convention"], observed, gold)
        (tp, predicted, gold), (correct, total) = pairs.counts(counted)
        columns = np.array(scored, dtype=np.int64)
        sums = np.concatenate([tp[columns], predicted[columns], gold[columns], [correct, total]]).astype(float)
        reduce = mm._reducer(o["zero_division"], labels, o["convention"])
        return mm.as_floats({key: value[0] for key, value in reduce(sums[None]).items()}) | self._report()

    def _intervals(self, confidence_level, n_resamples, seed):
        from . import micro_macro as mm

        scoring = {name: value for name, value in self.options.items() if name not in self.READING}  # rows are labels already read
        result = mm.compute(*self.rows, **scoring, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed)
        return {key: value for key, value in result.items() if key.endswith(("_low", "_high"))}

    def _dump(self):
        return {
            "kind": self.kind,
            "nested": self.nested,
            "values": list(self.values),
            "matrix": self.matrix.tolist(),
            "rows": None if self.rows is None else [list(side) for side in self.rows],
        }

    def _load(self, data):
        values = list(data["values"])
        kind = data["kind"]
        for i, value in enumerate(values):
            ok = isinstance(value, int) and not isinstance(value, bool) and INT64[0] <= value <= INT64[1] if kind == "int" else isinstance(value, str)
            if not ok:
                raise input_error("values", i, f"{value!r} is not a {kind} label")
        if len(set(values)) != len(values):
            raise ValueError("values: lists a label twice")
        self._layout(kind, data["nested"], "from_dict")
        matrix = _counts(data["matrix"], "matrix")
        if matrix.size != len(values) ** 2:
            raise ValueError(f"matrix: {matrix.size} cells for {len(values)} labels")
        self._add_matrix(values, matrix.reshape(len(values), len(values)))
        if self.keep_rows:
            self.rows = tuple(list(side) for side in data["rows"])


def _plain(corpus):
    """A corpus as JSON-safe Python lists (numpy ints as int)."""
    return np.asarray(corpus).tolist() if isinstance(corpus, np.ndarray) else [np.asarray(v).tolist() if isinstance(v, np.ndarray) else (v.item() if isinstance(v, np.generic) else v) for v in corpus]


# ---------------------------------------------------------------------------------------
# rationale: token counts and the sums of per-example terms


COUNT_COLUMNS = [0, 1, 2, 3, 10, 11, 12]  # rationale.COLUMNS' counts: tokens, then spans


class RationaleState(State):
    family = "rationale"
    # rationale.COLUMNS: four token counts, six per-example terms (means), three span counts
    MEANS = slice(4, 10)
    AUPRC = 9
    WIDTH = 13
    REPORT_SUMS = ("quotes", "unmatched_quotes")  # with parse=, beside parse_failures

    @staticmethod
    def check_options(options):
        from . import rationale

        allowed = ("threshold", "threshold_rule", "iou_threshold", "ignore_index", "auprc", "zero_division", "parse", "strict", "top_k_ratio")
        for name in options:
            if name not in allowed:
                raise ValueError(f"{name}: not a rationale state option (options: {', '.join(allowed)}; bootstrap options go to compute())")
        out = {"threshold": 0.5, "threshold_rule": ">=", "iou_threshold": 0.5, "ignore_index": -100, "auprc": None, "parse": None, "strict": False, "top_k_ratio": None, **options}
        rationale._check_options(out["threshold"], out["threshold_rule"], out["iou_threshold"], out["auprc"])
        rationale._check_top_k(out["top_k_ratio"], out["threshold"], out["threshold_rule"])
        out["zero_division"] = check_zero_division(options.get("zero_division", 0.0))
        rationale.check_parser_options(out["parse"], out["strict"])
        if out["parse"] is not None:
            rationale.get_parser(out["parse"], "rationale_f1")
        return out

    def __init__(self, options, keep_rows):
        super().__init__(options, keep_rows)
        means = self.MEANS.stop - self.MEANS.start
        # tp, predicted, gold, tokens, predicted_spans, gold_spans, matched_spans
        self.counts = np.zeros(len(COUNT_COLUMNS), dtype=np.int64)
        self.terms = np.zeros(means)  # sums of the non-NaN per-example terms
        self.entered = np.zeros(means, dtype=np.int64)  # examples in each mean
        self.soft = False
        self.table, self.weights = (np.zeros((0, self.WIDTH)), np.zeros(0, dtype=np.int64)) if keep_rows else (None, None)
        self.gold_quotes = None  # with parse=: whether the references are gold quotes (None: no reference seen)

    def update(self, predictions, references, sources=None):
        """Add a batch, checked exactly as compute() checks it (indices in messages are
        within the batch). With parse=, replies placed on the tokens of `sources` as
        compute places them; references 0/1 per token or gold quotes, one kind in every
        batch, as compute requires of the whole corpus."""
        from . import rationale

        o = self.options
        rationale.check_parser_options(o["parse"], o["strict"], sources=sources is not None)
        if self.parsed():
            predictions, references, report = rationale._parsed(predictions, references, sources, o["parse"], o["strict"])
            self._gold_quotes(("references" in report) if len(references) else None, "update")
            self._add_report(len(references), report)
        values, gold, lengths, widths = rationale.scored_tokens(predictions, references, o["ignore_index"], widths=True)
        # A2R's top-k selection is made within each example, as compute makes it
        selected = None if o["top_k_ratio"] is None else rationale.select_top(values, lengths, widths, o["top_k_ratio"])
        # AUPRC terms always: whether compute reports them depends on every shard's scores
        rows, _ = rationale.statistics(values, gold, lengths, o["threshold"], o["threshold_rule"], o["iou_threshold"], o["zero_division"], True, selected)
        terms = rows[:, self.MEANS]
        self._add_sums(rows[:, COUNT_COLUMNS].sum(0).astype(np.int64), np.nansum(terms, 0), (~np.isnan(terms)).sum(0), rationale._soft(values))
        if self.keep_rows:
            self._add_rows(*rationale.compress_rows(rows))
        return self

    def _add_sums(self, counts, terms, entered, soft):
        self.counts = _add_counts(self.counts, np.asarray(counts, dtype=np.int64))
        self.terms = self.terms + terms
        self.entered = _add_counts(self.entered, np.asarray(entered, dtype=np.int64))
        self.soft = self.soft or bool(soft)

    def _add_rows(self, table, weights):
        self.table, self.weights = _merge_rows(self.table, self.weights, table, weights)

    def _gold_quotes(self, quotes, where):
        """Refuse gold quotes after 0/1 references or the reverse (compute refuses such a corpus)."""
        kind = {True: "gold quotes (texts)", False: "0/1 per token"}
        if None not in (self.gold_quotes, quotes) and quotes != self.gold_quotes:
            raise ValueError(f"{where}: references are {kind[quotes]}, but the state holds references given as {kind[self.gold_quotes]}; give every reference as gold quotes or every one as 0/1 per token")
        self.gold_quotes = self.gold_quotes if quotes is None else quotes

    def _add(self, other):
        self._add_sums(other.counts, other.terms, other.entered, other.soft)
        if self.keep_rows:
            self._add_rows(other.table, other.weights)
        self._gold_quotes(other.gold_quotes, "merge")
        self._add_report(other.examples, other.report)

    def _with_auprc(self):
        return self.soft if self.options["auprc"] is None else self.options["auprc"]

    def _figures(self):
        from . import rationale

        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(self.entered > 0, self.terms / np.maximum(self.entered, 1), np.nan)
        counts = self.counts.astype(float)
        row = np.concatenate([counts[:4], means, counts[4:]])[None]
        figures = rationale.summarise(np.ones((1, 1)), row, self.options["zero_division"], self._with_auprc())
        return rationale.as_floats({key: value[0] for key, value in figures.items()}) | self._report()

    def _intervals(self, confidence_level, n_resamples, seed):
        from . import rationale

        table, weights = self.table, self.weights
        with_auprc = self._with_auprc()
        if not with_auprc:  # as compute: no AUPRC terms, rows compressed without them
            table = table.copy()
            table[:, self.AUPRC] = np.nan
            table, codes = rationale.encode_rows(table)
            weights = np.bincount(codes, weights=self.weights, minlength=len(table)).astype(np.int64)
        zd = self.options["zero_division"]
        reduce = lambda w: rationale.summarise(w, table, zd, with_auprc)  # noqa: E731
        return rationale.bootstrap_intervals(weights, reduce, confidence_level, n_resamples, seed)

    def _dump(self):
        return {
            "counts": self.counts.tolist(),
            "terms": _floats(self.terms),
            "entered": self.entered.tolist(),
            "soft": self.soft,
            "table": None if self.table is None else [_floats(row) for row in self.table],
            "weights": None if self.weights is None else self.weights.tolist(),
            "gold_quotes": self.gold_quotes,
        }

    def _load(self, data):
        if not isinstance(data["soft"], bool):
            raise ValueError(f"soft: {data['soft']!r} is not true or false")
        if not (data.get("gold_quotes") is None or isinstance(data["gold_quotes"], bool) and self.parsed()):
            raise ValueError(f"gold_quotes: {data.get('gold_quotes')!r} is not true, false or null (null without parse=)")
        self._gold_quotes(data.get("gold_quotes"), "from_dict")
        self._add_sums(_counts(data["counts"], "counts", self.counts.shape), _unfloats(data["terms"]), _counts(data["entered"], "entered", self.entered.shape), data["soft"])
        if self.keep_rows:
            table = np.array([_unfloats(row) for row in data["table"]]).reshape(-1, self.WIDTH)
            self._add_rows(table, _counts(data["weights"], "weights", (len(table),)))


# ---------------------------------------------------------------------------------------
# Families whose compute() sums per-example rows (its `bootstrap_intervals(counts, reduce)`
# call): the state holds the column sums, counts as int64 and fractional columns as
# floats, and with keep_rows the distinct rows with their example counts.


class SumsState(State):
    OPTIONS = ()  # compute()'s options a state takes; defaults from its signature
    FLOATS = ()  # columns that are not counts

    @classmethod
    def check_options(cls, options):
        import inspect

        for name in options:
            if name not in cls.OPTIONS:
                raise ValueError(f"{name}: not a {cls.family} state option (options: {', '.join(cls.OPTIONS)}; bootstrap options go to compute())")
        defaults = inspect.signature(cls.module().compute).parameters
        out = {name: options.get(name, defaults[name].default) for name in cls.OPTIONS}
        out = {name: list(v) if isinstance(v, (tuple, np.ndarray)) else v for name, v in out.items()}  # as JSON gives them back
        out["zero_division"] = check_zero_division(out["zero_division"])
        cls.module().compute([], [], **cls.empty_inputs(), **out)  # compute's own checks, one source of truth
        return out

    @staticmethod
    def empty_inputs():
        return {}

    def float_columns(self, width):
        return self.FLOATS

    def __init__(self, options, keep_rows):
        super().__init__(options, keep_rows)
        width = self.width()
        floats = self.float_columns(width)
        self.ints = np.array([i for i in range(width) if i not in floats], dtype=np.int64)
        self.floats = np.array(floats, dtype=np.int64)
        self.counts = np.zeros(len(self.ints), dtype=np.int64)
        self.terms = np.zeros(len(self.floats))
        self.table, self.weights = (np.zeros((0, width)), np.zeros(0, dtype=np.int64)) if keep_rows else (None, None)

    def update(self, predictions, references, **inputs):
        """Add a batch, checked exactly as compute() checks it (example indices in messages
        are within the batch). With parse=, the batch's model texts are read as compute
        reads them, the report's failing indices offset by the examples before it."""
        report = None
        if self.parsed():
            predictions, references, inputs, report = self.read(predictions, references, **inputs)
        rows = np.asarray(self.rows(predictions, references, **inputs), dtype=float).reshape(-1, len(self.ints) + len(self.floats))
        counts = rows[:, self.ints]
        if (counts != np.round(counts)).any() or (counts < 0).any():  # the family's contract: these columns count
            raise AssertionError(f"{self.family}: a count column holds a non-integer")
        self._add_sums(counts.astype(np.int64).sum(0), rows[:, self.floats].sum(0))
        if self.keep_rows:
            from .core import compress_rows

            self.table, self.weights = _merge_rows(self.table, self.weights, *compress_rows(rows))
        if report is not None:
            self._add_report(len(predictions), report)
        return self

    def _add_sums(self, counts, terms):
        self.counts = _add_counts(self.counts, counts)
        self.terms = self.terms + terms

    def _add(self, other):
        self._add_sums(other.counts, other.terms)
        if self.keep_rows:
            self.table, self.weights = _merge_rows(self.table, self.weights, other.table, other.weights)
        self._add_report(other.examples, other.report)

    def sums(self):
        out = np.zeros(len(self.ints) + len(self.floats))
        out[self.ints], out[self.floats] = self.counts, self.terms
        return out

    def _figures(self):
        from .core import as_floats

        return as_floats({key: value[0] for key, value in self.reduce(self.sums()[None]).items()}) | self.extras()

    def extras(self):
        return self._report()

    def _intervals(self, confidence_level, n_resamples, seed):
        from .core import bootstrap_intervals

        return bootstrap_intervals(self.weights, lambda w: self.reduce(w @ self.table), confidence_level, n_resamples, seed)

    def _dump(self):
        return {
            "counts": self.counts.tolist(),
            "terms": _floats(self.terms),
            "table": None if self.table is None else [_floats(row) for row in self.table],
            "weights": None if self.weights is None else self.weights.tolist(),
        }

    def _load(self, data):
        self._add_sums(_counts(data["counts"], "counts", self.counts.shape), _unfloats(data["terms"]).reshape(self.terms.shape))
        if self.keep_rows:
            table = np.array([_unfloats(row) for row in data["table"]]).reshape(-1, self.width())
            self.table, self.weights = _merge_rows(self.table, self.weights, table, _counts(data["weights"], "weights", (len(table),)))


class QuadState(SumsState):
    """quad.STATS sums: matched (soft degrees) and score are floats, the rest counts. With
    implicit_split a row is STATS then STATS once per quad.IMPLICITNESS kind (the sample's
    row where its reference includes that kind, else 0): ACOS's split is a sum too."""

    family = "quad_match"
    OPTIONS = ("weights", "tuple_len", "sep_token1", "sep_token2", "similarity", "duplicates", "exact_only", "implicit_split", "spans", "parse", "parse_references", "strict", "zero_division")
    FLOATS = (0, 7)  # quad.STATS: matched, score

    def read(self, predictions, references):
        quad, o = self.module(), self.options
        structures, gold, tuple_len, report = quad._parsed(predictions, references, o["parse"], o["parse_references"], o["strict"], o["tuple_len"])
        return structures, gold, {"tuple_len": tuple_len}, report

    @staticmethod
    def module():
        from . import quad

        return quad

    def blocks(self):
        return 1 + len(self.module().IMPLICITNESS) * bool(self.options["implicit_split"])

    def width(self):
        return len(self.module().STATS) * self.blocks()

    def float_columns(self, width):
        return tuple(b * len(self.module().STATS) + c for b in range(self.blocks()) for c in self.FLOATS)

    def rows(self, predictions, references, tuple_len=None):
        quad, o = self.module(), self.options
        tuple_len = tuple_len or ("0123" if o["tuple_len"] is None else o["tuple_len"])  # given: the parser's
        if o["spans"] is not None:
            predictions, references = (quad.span_quads(x, name, tuple_len, o["spans"]) for x, name in ((predictions, "predictions"), (references, "references")))
        pairing, rows, chosen = quad._score(predictions, references, o["weights"], tuple_len, o["sep_token1"], o["sep_token2"], o["similarity"], o["duplicates"], o["exact_only"], by_text=not o["implicit_split"])
        stats = rows[chosen].reshape(-1, len(quad.STATS))
        if not o["implicit_split"]:
            return stats
        present = quad._implicitness(pairing)[chosen]
        return np.concatenate([stats] + [stats * present[:, [j]] for j in range(present.shape[1])], axis=1)

    def reduce(self, sums):
        quad, o = self.module(), self.options
        size = len(quad.STATS)
        out = quad.ratios(sums[..., :size], o["zero_division"], quad.EXACT_KEYS if o["exact_only"] else quad.KEYS)
        for j, kind in enumerate(quad.IMPLICITNESS[: self.blocks() - 1]):
            part = quad.ratios(sums[..., (j + 1) * size : (j + 2) * size], o["zero_division"], quad.EXACT_KEYS)
            out.update({f"{key}_{kind}": value for key, value in part.items()})
        return out

    def _intervals(self, confidence_level, n_resamples, seed):
        from .core import bootstrap_intervals

        quad, o = self.module(), self.options
        table, weights = _columns_only(self.table, self.weights, np.arange(len(quad.STATS)))  # compute resamples the STATS rows alone
        keys = quad.EXACT_KEYS if o["exact_only"] else quad.KEYS
        return bootstrap_intervals(weights, lambda w: quad.ratios(w @ table, o["zero_division"], keys), confidence_level, n_resamples, seed)

    def extras(self):
        repeated = self.counts[list(self.ints).index(self.module().STATS.index("repeated_hits"))]
        return super().extras() | ({"exact_repeated_hits": int(repeated)} if self.options["duplicates"] == "list" else {})


class DiaasqState(SumsState):
    """quad_match(convention="diaasq"): per dialogue the (hits, predicted, gold) counts of
    every row of quad.DIAASQ_ROWS (0 for a row the batch's predictions give no list for).
    A shard holds each dialogue's prediction with its gold (paired by doc_id). compute()'s
    corpus-wide rules are kept by two small records: which element and pair lists the
    predictions give (a row is scored when every prediction gives its list: a list given
    in one shard and not in another is refused, as compute refuses it), and the gold
    doc_ids seen (one doc_id in two shards is refused: DiaASQ would keep only the last)."""

    family = "quad_match"
    OPTIONS = ("convention", "zero_division")

    @staticmethod
    def module():
        from . import quad

        return quad

    @classmethod
    def check_options(cls, options):
        from .core import check_choice

        for name in options:
            if name not in cls.OPTIONS:
                raise ValueError(f"{name}: does not apply with convention='diaasq' (DiaASQ's table takes zero_division alone; bootstrap options go to compute())")
        check_choice("convention", options["convention"], cls.module().CONVENTIONS)
        return {"convention": options["convention"], "zero_division": check_zero_division(options.get("zero_division", 0.0))}

    def __init__(self, options, keep_rows):
        super().__init__(options, keep_rows)
        self.given = {}  # list key -> whether the predictions give it (absent: no prediction seen)
        self.doc_ids = []

    def width(self):
        return len(self.module().DIAASQ_ROWS) * 3

    def _records(self, given, doc_ids, where):
        """Refuse what compute would refuse over the union; return the merged records."""
        for key, value in given.items():
            if self.given.get(key, value) != value:
                raise ValueError(f"{where}: the predictions {'give' if value else 'do not give'} {key!r} but earlier ones {'do' if self.given[key] else 'do not'}: give it in every prediction (its rows) or in none, as compute requires")
        seen = set(self.doc_ids)
        again = next((doc_id for doc_id in doc_ids if doc_id in seen), None)
        if again is not None:
            raise ValueError(f"{where}: gold doc_id {again!r} is also in an earlier shard: DiaASQ keys dialogues by it and would keep only the last")
        return {**self.given, **given}, self.doc_ids + list(doc_ids)

    def update(self, predictions, references):
        """Add a batch of dialogues, checked exactly as compute() checks them (indices in
        messages are within the batch)."""
        from .core import as_corpus

        quad = self.module()
        predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
        ordered, rows = quad.check_dialogues(predictions, references)
        given = {quad.DIAASQ_LISTS[row]: row in rows for row in quad.DIAASQ_LISTS} if len(predictions) else {}
        self.given, self.doc_ids = self._records(given, [gold["doc_id"] for gold in references], "update")
        counts = np.zeros((len(references), len(quad.DIAASQ_ROWS), 3), dtype=np.int64)
        at = [quad.DIAASQ_ROWS.index(row) for row in rows]
        for i, (p, g) in enumerate(zip(ordered, references)):
            counts[i, at] = quad.diaasq_counts(p, g, rows)
        self._add_sums(counts.sum(0).ravel(), np.zeros(0))
        if self.keep_rows:
            from .core import compress_rows

            self.table, self.weights = _merge_rows(self.table, self.weights, *compress_rows(counts.reshape(len(references), -1)))
        return self

    def _add(self, other):
        self.given, self.doc_ids = self._records(other.given, other.doc_ids, "merge")
        super()._add(other)

    def rows_scored(self):
        quad = self.module()
        return [row for row in quad.DIAASQ_ROWS if row not in quad.DIAASQ_LISTS or self.given.get(quad.DIAASQ_LISTS[row], True)]

    def _columns(self):
        quad = self.module()
        return np.array([3 * quad.DIAASQ_ROWS.index(row) + k for row in self.rows_scored() for k in range(3)], dtype=np.int64)

    def reduce(self, sums):
        rows = self.rows_scored()
        return self.module().diaasq_ratios(sums[..., self._columns()].reshape(*sums.shape[:-1], len(rows), 3), rows, self.options["zero_division"])

    def _intervals(self, confidence_level, n_resamples, seed):
        from .core import bootstrap_intervals

        table, weights = _columns_only(self.table, self.weights, self._columns())  # compute's rows hold the scored rows alone
        rows = self.rows_scored()
        return bootstrap_intervals(weights, lambda w: self.module().diaasq_ratios((w @ table).reshape(*np.shape(w)[:-1], len(rows), 3), rows, self.options["zero_division"]), confidence_level, n_resamples, seed)

    def _dump(self):
        return {**super()._dump(), "given": dict(self.given), "doc_ids": list(self.doc_ids)}

    def _load(self, data):
        given, doc_ids = data["given"], data["doc_ids"]
        if not isinstance(given, dict) or not all(key in self.module().DIAASQ_LISTS.values() and isinstance(v, bool) for key, v in given.items()):
            raise ValueError(f"given: {given!r} is not a map of DiaASQ list names to true or false")
        if not isinstance(doc_ids, list) or not all(isinstance(d, (str, int)) and not isinstance(d, bool) for d in doc_ids):
            raise ValueError("doc_ids: not a list of DiaASQ doc_ids (strings or integers)")
        self.given, self.doc_ids = self._records(given, doc_ids, "from_dict")
        super()._load(data)


def _read_replies(state, predictions, references, sources=None):
    """SumsState.read of the CSC families: each reply read into its sentence first."""
    from .parse import read_replies

    _need_sources(state.family, sources)
    sentences, report = read_replies(predictions, state.options["parse"], state.options["strict"], False)
    return sentences, references, {"sources": sources}, report


class SighanState(SumsState):
    """csc_sighan.COLUMNS[kind] sums: every column counts sentences."""

    family = "csc_sighan"
    OPTIONS = ("version", "subtask", "correction_match", "length_mismatch", "parse", "strict", "zero_division")

    @classmethod
    def check_options(cls, options):
        out = super().check_options(options)
        out["version"] = str(out["version"])  # 2015 and "2015" are one option (compute reads str(version))
        return out

    @staticmethod
    def module():
        from . import csc_sighan

        return csc_sighan

    @staticmethod
    def empty_inputs():
        return {"sources": []}

    def kind(self):
        o = self.options
        return self.module().definition(o["version"], o["subtask"], o["correction_match"])

    def width(self):
        return len(self.module().COLUMNS[self.kind()])

    read = _read_replies

    def rows(self, predictions, references, sources=None):
        from .csc import match

        sighan, kind = self.module(), self.kind()
        _need_sources(self.family, sources)
        _, predicted, gold, _ = sighan.edits(predictions, references, sources, kind, self.options["length_mismatch"])
        return sighan.statistics(match(predicted, gold), kind, self.options["correction_match"])

    def reduce(self, sums):
        return self.module().ratios(sums, self.kind(), self.options["zero_division"])


def _need_sources(family, sources):
    if sources is None:  # label lines pair by pid over the whole corpus, which a shard cannot check
        raise ValueError(
            f"sources: the state scores sentences with their sources; label lines (sources=None) are refused: they pair a result line with the truth "
            f"line of its pid anywhere in the files, and a shard cannot tell a pid whose result line is in another shard from one the system left out "
            f"(which the SIGHAN 2013/2014 jars read as 'no error'), so its counts could be silently wrong: score label files with {family}.compute"
        )


class CscCommonState(SumsState):
    """csc_common's per-sentence table: one block of csc_common.COLUMNS (counts) per way
    of reading the edits, laid out from the options alone (paired_statistics' layout), so
    every shard's rows line up."""

    family = "csc_common"
    OPTIONS = ("variant", "char_subset", "length_mismatch", "remove_de", "normalize", "parse", "strict", "zero_division")

    @staticmethod
    def module():
        from . import csc_common

        return csc_common

    @staticmethod
    def empty_inputs():
        return {"sources": []}

    def _table(self, predictions, references, sources):
        cc, o = self.module(), self.options
        variants = cc.check_options(o["variant"], o["char_subset"], o["length_mismatch"], o["remove_de"])
        steps = None if o["normalize"] is None else cc.csc_llm.check_normalize(o["normalize"])
        rows, blocks, _ = cc._table(predictions, references, sources, variants, o["length_mismatch"], o["remove_de"], shared=False, normalize=steps)
        return variants, rows, blocks

    def width(self):
        return self._table([], [], [])[1].shape[1]

    read = _read_replies

    def rows(self, predictions, references, sources=None):
        _need_sources(self.family, sources)
        predictions, references, sources = self.module().corpora(predictions=predictions, references=references, sources=sources).values()
        return self._table(predictions, references, sources)[1]

    def reduce(self, sums):
        variants, _, blocks = self._table([], [], [])
        o = self.options
        return self.module().ratios(sums, variants, blocks, o["zero_division"], o["char_subset"])


class CorefState(SumsState):
    """coref's per-document numerators and denominators (coref.WIDTH per metric). B3, CEAF
    and LEA numerators are fractional, so every column is a float64 sum, as compute sums
    them (whole counts exact below 2^53 in both)."""

    family = "coref"
    OPTIONS = ("metrics", "keep_singletons", "zero_division", "convention", "span_convention", "remove_nested", "NP_only", "min_span", "parse", "strict")
    REPORT = SumsState.REPORT + (("mentions_on_changed_text", "mentions_on_changed_text_examples"),)

    @staticmethod
    def module():
        from . import coref

        return coref

    def read(self, predictions, references, tokens=None, texts=None):
        """compute(parse=...)'s reading: each text placed on its document's tokens; mentions
        it cannot place kept apart (added to the response by rows, matching nothing; with
        NP_only or min_span refused, as compute refuses them)."""
        o = self.options
        span_convention = tuple(o["span_convention"]) if isinstance(o["span_convention"], list) else o["span_convention"]
        clusters, unplaced, report, _ = self.module()._placed(predictions, references, o["parse"], o["strict"], tokens, span_convention, "exact", o["NP_only"] or o["min_span"])
        return clusters, references, {"tokens": tokens, "texts": texts, "unplaced": unplaced}, report

    def metrics(self):
        o = self.options
        return self.module().check_convention(o["convention"], o["metrics"], o["keep_singletons"])

    def width(self):
        return sum(self.module().WIDTH[m] for m in self.metrics())

    def float_columns(self, width):
        return tuple(range(width))

    def rows(self, predictions, references, tokens=None, texts=None, unplaced=None):
        from . import corefud

        coref, o = self.module(), self.options
        if corefud.takes(predictions, references, "exact"):
            raise ValueError("predictions, references: CoNLL-U texts (CorefUD) are scored by corefud's own rows: use paperscore.state.new(\"corefud\", ...), with matching=\"exact\" and keep_singletons=True for what coref.compute gives them")
        span_convention = tuple(o["span_convention"]) if isinstance(o["span_convention"], list) else o["span_convention"]
        if o["parse"] is not None:  # placed spans are token positions, end included
            span_convention = ("token_inclusive", coref.check_span_convention(span_convention)["references"])
        key, response = coref.read_examples(predictions, references, span_convention, tokens, texts, check_reading=o["parse"] is None)
        if unplaced is not None and any(unplaced):
            response = coref._with_unplaced(key, response, unplaced)
        # coval's options act within each document (the key's own parse trees), as compute applies them
        chosen = coref.check_mention_options(o["convention"], **{name: o[name] for name in coref.MENTION_OPTIONS})
        if chosen:
            parses = coref._reference_parses(references) if o["NP_only"] or o["min_span"] else None
            key, response = coref.apply_mention_options(key, response, parses, o["keep_singletons"], **chosen)
        return coref._document_rows(key, response, self.metrics(), o["keep_singletons"] or bool(chosen), convention=o["convention"])

    def reduce(self, sums):
        return self.module().scores(sums, self.metrics(), self.options["zero_division"])


class CorefUDState(SumsState):
    """corefud's per-document rows (corefud.WIDTH per chosen metric, as its compute sums
    them): CoNLL-U texts, each file's documents its rows, so a shard holds whole files
    (each prediction text with its key text)."""

    family = "corefud"
    OPTIONS = ("matching", "keep_singletons", "zero_matching", "metrics", "zero_division")

    @staticmethod
    def module():
        from . import corefud

        return corefud

    @classmethod
    def check_options(cls, options):
        """As SumsState's, checked here: corefud.compute([], []) refuses having no text."""
        import inspect

        from .core import check_choice

        corefud = cls.module()
        for name in options:
            if name not in cls.OPTIONS:
                raise ValueError(f"{name}: not a corefud state option (options: {', '.join(cls.OPTIONS)}; bootstrap options go to compute())")
        defaults = inspect.signature(corefud.compute).parameters
        out = {name: options.get(name, defaults[name].default) for name in cls.OPTIONS}
        check_choice("matching", out["matching"], corefud.MATCHING)
        check_choice("zero_matching", out["zero_matching"], corefud.ZERO_MATCHING)
        check_flags(keep_singletons=out["keep_singletons"])
        out["keep_singletons"] = bool(out["keep_singletons"])
        out["metrics"] = None if out["metrics"] is None else list(corefud._check_metrics(out["metrics"]))
        out["zero_division"] = check_zero_division(out["zero_division"])
        return out

    def chosen(self):
        return self.module()._check_metrics(self.options["metrics"])

    def width(self):
        return sum(self.module().WIDTH[m] for m in self.chosen())

    def float_columns(self, width):
        return tuple(range(width))

    def rows(self, predictions, references):
        o = self.options
        if isinstance(references, (list, tuple)) and not len(references) and isinstance(predictions, (list, tuple)) and not len(predictions):
            return np.zeros((0, self.width()))
        return self.module().document_rows(predictions, references, o["matching"], o["keep_singletons"], o["zero_matching"], metrics=self.chosen())[1]

    def reduce(self, sums):
        return self.module().scores(sums, self.options["zero_division"], self.chosen())


# ---------------------------------------------------------------------------------------
# micro_macro(spans=...): span-level event detection


class EventSpansState(SumsState):
    """event_spans' per-unit count rows (micro_macro(spans="textee"|"oneie", scheme=...)),
    all int64, laid out for every event_spans.MEASURES: a corpus of triggers alone (or a
    rule with fewer measures) fills the leading columns and leaves the rest 0. Two
    corpus-wide rules are kept by small records: whether the references hold events or
    triggers alone (compute refuses a corpus of both), and under "textee" the (doc_id,
    wnd_id) of every window seen: TextEE counts a window's tuples as one set, which sums
    cannot rebuild, so a window's examples must all be in one update (one seen again in
    a later update or another shard is refused)."""

    family = "micro_macro"
    OPTIONS = ("spans", "scheme", "zero_division")

    @staticmethod
    def module():
        from . import micro_macro

        return micro_macro

    def width(self):
        from . import event_spans

        return 3 * len(event_spans.MEASURES)

    def __init__(self, options, keep_rows):
        super().__init__(options, keep_rows)
        self.events = None  # whether the references hold events (None: no example seen)
        self.windows = {}  # textee: the (doc_id, wnd_id) keys seen, in order

    def _records(self, events, windows, where):
        """Refuse what compute refuses over the union, or what sums cannot merge."""
        if None not in (self.events, events) and events != self.events:
            form = {True: "events", False: "triggers alone"}
            raise ValueError(f"{where}: the references hold {form[events]}, but earlier ones hold {form[self.events]}; give every example in one form (compute refuses a corpus of both)")
        again = next((key for key in windows if key in self.windows), None)
        if again is not None:
            raise ValueError(
                f"{where}: the window doc_id, wnd_id {again!r} is also in an earlier update or shard: TextEE counts a window's tuples as one set "
                f"(a tuple repeated across its examples counts once), which a state cannot rebuild from counts; give each window's examples in one update"
            )

    def _measures(self):
        from . import event_spans

        return event_spans.rows_of(self.options["spans"], [], [], [], bool(self.events))[1]

    def update(self, predictions, references):
        """Add a batch, checked exactly as compute() checks it (example indices in messages
        are within the batch)."""
        from . import event_spans

        units, pred, gold, with_events = event_spans.read_corpus(predictions, references, self.options["scheme"])
        rows, _ = event_spans.rows_of(self.options["spans"], units, pred, gold, with_events)
        events = with_events if units else None
        windows = list(dict.fromkeys(key for kind, key in units if kind == "ids")) if self.options["spans"] == "textee" else []
        self._records(events, windows, "update")
        rows = np.pad(rows, ((0, 0), (0, self.width() - rows.shape[1])))
        self._add_sums(rows.sum(0), np.zeros(0))
        if self.keep_rows:
            from .core import compress_rows

            self.table, self.weights = _merge_rows(self.table, self.weights, *compress_rows(rows))
        self.events = self.events if events is None else events
        self.windows.update(dict.fromkeys(windows))
        return self

    def _add(self, other):
        self._records(other.events, list(other.windows), "merge")
        super()._add(other)
        self.events = self.events if other.events is None else other.events
        self.windows.update(other.windows)

    def _figures(self):
        from . import event_spans

        measures = self._measures()
        return event_spans.figures(self.counts[: 3 * len(measures)], measures, self.options["zero_division"])

    def _intervals(self, confidence_level, n_resamples, seed):
        from . import event_spans
        from .core import bootstrap_intervals

        measures = self._measures()
        table, weights = _columns_only(self.table, self.weights, np.arange(3 * len(measures)))  # compute's rows hold its measures alone
        return bootstrap_intervals(weights, lambda w: event_spans.ratios(w @ table, measures, self.options["zero_division"]), confidence_level, n_resamples, seed)

    def _dump(self):
        return {**super()._dump(), "events": self.events, "windows": [list(key) for key in self.windows]}

    def _load(self, data):
        events, windows = data["events"], data["windows"]
        if not (events is None or isinstance(events, bool)):  # 1 == True
            raise ValueError(f"events: {events!r} is not true, false or null")
        keys = []
        for i, key in enumerate(windows if isinstance(windows, list) else [windows]):
            if not (isinstance(key, list) and len(key) == 2 and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in key)):
                raise input_error("windows", i, f"{key!r:.60} is not a [doc_id, wnd_id] pair of strings or ints")
            keys.append(tuple(key))
        if len(set(keys)) != len(keys):
            raise ValueError("windows: lists a window twice")
        self._records(events, keys, "from_dict")
        super()._load(data)
        self.events = events
        self.windows.update(dict.fromkeys(keys))


# ---------------------------------------------------------------------------------------
# faithfulness: ERASER's means, sums of per-example terms over a count of examples


def _reals(values):
    """Floats for JSON: inf, -inf and NaN (an infinite KL; a row of zeros) as strings."""
    return [float(v) if np.isfinite(v) else str(float(v)) for v in np.asarray(values, dtype=float).ravel()]


def _unreals(values, argument, shape):
    out = []
    for i, v in enumerate(values if isinstance(values, list) else [values]):
        if not (isinstance(v, (int, float)) and not isinstance(v, bool) or v in ("inf", "-inf", "nan")):
            raise input_error(argument, i, f"{v!r:.40} is not a number (nor \"inf\", \"-inf\", \"nan\")")
        out.append(float(v))
    if len(out) != int(np.prod(shape)):
        raise ValueError(f"{argument}: {len(out)} numbers, expected {int(np.prod(shape))}")
    return np.array(out, dtype=float).reshape(shape)


class FaithfulnessState(State):
    """faithfulness.compute's numbers (ERASER's comprehensiveness, sufficiency and their
    AOPC, entropy and KL): each is a mean of per-example terms (faithfulness.example_terms),
    so the state holds their sums and the number of examples; with thresholded scores, per
    threshold the sums of the AOPC differences. Kept to refuse what compute refuses over
    the union: the number of classes, whether the examples have thresholded scores, and
    (results lines) the classes' names. No bootstrap (compute has none): keep_rows=False."""

    family = "faithfulness"

    @staticmethod
    def check_options(options):
        from . import faithfulness

        for name in options:
            if name != "aopc_thresholds":
                raise ValueError(f"{name}: not a faithfulness state option (options: aopc_thresholds)")
        return {"aopc_thresholds": faithfulness.check_thresholds(options.get("aopc_thresholds", faithfulness.AOPC_THRESHOLDS))}

    def __init__(self, options, keep_rows):
        if keep_rows:
            raise ValueError("keep_rows: faithfulness.compute has no bootstrap intervals; compare two systems' results with paperscore.compare (faithfulness.compare_results)")
        super().__init__(options, keep_rows)
        from . import faithfulness

        self.examples = 0
        self.classes = self.aopc = self.labels = None  # None: not seen yet
        self.sums = np.zeros(len(faithfulness.KEYS))
        self.deltas = np.zeros((2, len(options["aopc_thresholds"])))  # comprehensiveness, sufficiency: per threshold

    def _records(self, classes, aopc, labels, where):
        """Refuse what compute refuses over the union."""
        if None not in (self.classes, classes) and classes != self.classes:
            raise ValueError(f"{where}: {classes} classes, but earlier examples have {self.classes}")
        if None not in (self.aopc, aopc) and aopc != self.aopc:
            have = {True: "have thresholded scores", False: "have no thresholded scores"}
            raise ValueError(f"{where}: these examples {have[aopc]}, but earlier ones {have[self.aopc]} (AOPC needs them for every example or none)")
        if None not in (self.labels, labels) and labels != self.labels:
            raise ValueError(f"{where}: the classes are {labels}, but earlier lines' are {self.labels}")

    def _add_sums(self, examples, sums, deltas, classes, aopc, labels):
        self.examples += examples
        self.sums, self.deltas = self.sums + sums, self.deltas + deltas
        self.classes = self.classes if classes is None else classes
        self.aopc = self.aopc if aopc is None else aopc
        self.labels = self.labels if labels is None else labels

    def update(self, full, without, alone, predicted=None, thresholded_without=None, thresholded_alone=None, labels=None):
        """Add a batch: faithfulness.compute's arguments, checked as it checks them (indices
        in messages are within the batch), and `labels`, the classes' names where known
        (update_results gives them). A batch of no example adds nothing."""
        from . import faithfulness

        if hasattr(full, "__len__") and not len(full):
            for name, value in (("without", without), ("alone", alone), ("predicted", predicted), ("thresholded_without", thresholded_without), ("thresholded_alone", thresholded_alone)):
                if value is not None and len(value):
                    raise ValueError(f"{name}: {len(value)} examples, but full has none")
            return self
        per, deltas = faithfulness.example_terms(full, without, alone, predicted, thresholded_without, thresholded_alone, self.options["aopc_thresholds"])
        examples, classes = np.shape(np.asarray(full, dtype=float))
        self._records(classes, bool(deltas), labels, "update")
        zero = np.zeros(len(self.options["aopc_thresholds"]))
        summed = np.array([deltas[name].sum(0) if deltas else zero for name in ("comprehensiveness", "sufficiency")])
        self._add_sums(examples, np.array([per[key].sum() for key in faithfulness.KEYS]), summed, classes, bool(deltas), labels)
        return self

    def update_results(self, path_or_lines):
        """Add ERASER results lines (a path or the lines, as faithfulness.compute_results
        reads them): every shard's lines must name the same classes."""
        from . import faithfulness

        read = faithfulness.read_eraser_results(path_or_lines, self.options["aopc_thresholds"])
        return self.update(**faithfulness._inputs(read), labels=read["labels"])

    def _add(self, other):
        self._records(other.classes, other.aopc, other.labels, "merge")
        self._add_sums(other.examples, other.sums, other.deltas, other.classes, other.aopc, other.labels)

    def compute(self, confidence_level=None, n_resamples=1000, seed=None):
        """faithfulness.compute's numbers over every example added (compute_results' but
        its signature)."""
        from . import faithfulness

        if confidence_level is not None:
            raise ValueError("confidence_level: faithfulness.compute has no bootstrap intervals; compare two systems' results with paperscore.compare (faithfulness.compare_results)")
        if not self.examples:
            raise ValueError("full: no examples; the means are undefined")
        result = {key: float(total / self.examples) for key, total in zip(faithfulness.KEYS, self.sums)}
        if self.aopc:
            result["aopc_thresholds"] = list(self.options["aopc_thresholds"])
            for name, totals in zip(("comprehensiveness", "sufficiency"), self.deltas):
                result[f"{name}_aopc"] = float(totals.sum() / (self.examples * len(totals)))
                result[f"{name}_aopc_points"] = (totals / self.examples).tolist()
        return result

    def _dump(self):
        return {"examples": self.examples, "classes": self.classes, "aopc": self.aopc, "labels": self.labels, "sums": _reals(self.sums), "deltas": _reals(self.deltas)}

    def _load(self, data):
        examples = int(_counts([data["examples"]], "examples")[0])
        classes, aopc, labels = data["classes"], data["aopc"], data["labels"]
        if classes is not None and not (isinstance(classes, int) and not isinstance(classes, bool) and classes > 0):
            raise ValueError(f"classes: {classes!r} is not a number of classes")
        if not (aopc is None or isinstance(aopc, bool)):  # 1 == True
            raise ValueError(f"aopc: {aopc!r} is not true, false or null")
        if labels is not None and not (isinstance(labels, list) and all(isinstance(v, str) for v in labels)):
            raise ValueError(f"labels: {labels!r:.60} is not a list of class names")
        if (examples > 0) != (classes is not None) or (examples > 0) != (aopc is not None):
            raise ValueError(f"examples: {examples}, but classes is {classes!r} and aopc {aopc!r}")
        self._records(classes, aopc, labels, "from_dict")
        self._add_sums(examples, _unreals(data["sums"], "sums", self.sums.shape), _unreals(data["deltas"], "deltas", self.deltas.shape), classes, aopc, labels)


# ---------------------------------------------------------------------------------------
# torch.distributed


def all_reduce(state, group=None):
    """The state of every rank merged (in rank order), returned on every rank: an
    all-gather of each rank's to_dict() (torch.distributed.all_gather_object; gloo on CPU
    or NCCL). Every rank must call it, with states of equal options."""
    import torch.distributed as dist

    gathered = [None] * dist.get_world_size(group)
    dist.all_gather_object(gathered, state.to_dict(), group=group)
    return merge(*(from_dict(data) for data in gathered))
