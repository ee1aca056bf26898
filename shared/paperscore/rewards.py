"""Per-example rewards for RL fine-tuning (TRL's GRPOTrainer(reward_funcs=[...])), each the
family's own metric on one example, from the same parsers and matching code as compute().

A factory returns a function `reward(prompts=None, completions=..., **columns)`, the call
TRL 1.16 makes: `completions` are model texts, or chat messages (a list of {"role",
"content"} dicts: the assistant turns' text is read), and every dataset column comes as a
keyword argument holding one value per completion; TRL's own extras (trainer_state,
log_metric, completion_ids, ...) are ignored. The reward is one float per completion, or
None where the reference column holds None (a row of another task).

How per-example rewards relate to the corpus figure (each reward function has a
`.statistics(completions, **columns)` giving the per-example counts):
- an F1 reward is 2·hits / (predicted + gold) of that one example, 1.0 when the example
  has nothing to find and nothing is predicted (the gold output's own score). The MEAN of
  per-example F1 is NOT the corpus micro F1; the SUMS of the per-example counts are:
  micro F1 = 2·Σhits / (Σpredicted + Σgold), exactly what the family's compute() reports.
- quad's "optimal_score" reward is the sample score of quad_match; its mean over the
  corpus IS quad_match's optimal_score (itself a mean of sample scores).

Conventions that reward gaming are refused by name (ValueError saying why): quad_match's
duplicates="list" (every copy of a right quad is a hit: repeating it raises recall past 1)
and csc_common's "pycorrector" and "paddle" presets (their precision counts no false
positive for a wrong change of an erroneous sentence, so such changes are free).
"""

import collections
import itertools
import json
import operator

import numpy as np

from .core import check_flags, dense_codes, input_error
from .parse import QuadReader, get_parser, parse as parse_texts, parser_id

REFUSED = {
    "list": 'duplicates="list" (ASQP/MvP/ACOS) counts every predicted copy of a gold quad as a hit, so repeating a right quad scores above the gold output; use "multiset" or "set"',
    "pycorrector": "pycorrector's sentence precision counts a false positive only on an error-free sentence, so a wrong change of an erroneous sentence costs nothing and rewriting every suspect sentence is free; the csc reward counts every predicted edit",
    "paddle": "PaddleNLP's sentence precision counts a false positive only on an error-free sentence, so a wrong change of an erroneous sentence costs nothing and rewriting every suspect sentence is free; the csc reward counts every predicted edit",
    "precision": "precision alone scores 1.0 for one sure item (a rationale quoting one right word) whatever else the gold holds; use f1",
    "recall": "recall alone scores 1.0 for predicting everything (a rationale quoting the whole input); use f1",
}


def _refuse(argument, value):
    if isinstance(value, str) and value in REFUSED:
        raise ValueError(f"{argument}: {value!r} can be gamed as a reward: {REFUSED[value]}")


# ---------------------------------------------------------------------------------------
# What TRL passes


def completion_text(completion, index):
    """A completion's text: a string as it is; chat messages: the assistant turns'
    content joined (string content, or a list of {"type": "text", "text": ...} blocks)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, (list, tuple)) and all(isinstance(m, dict) and "content" in m for m in completion):
        parts = []
        for message in completion:
            if message.get("role", "assistant") != "assistant":
                continue
            content = message["content"]
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list) and all(isinstance(b, dict) and (b.get("type") != "text" or isinstance(b.get("text"), str)) for b in content):
                parts += [b["text"] for b in content if b.get("type") == "text"]
            else:
                raise input_error("completions", index, f"message content {content!r} is neither text nor a list of text blocks")
        return "".join(parts)
    raise input_error("completions", index, f"is a {type(completion).__name__}, neither a model text nor a list of chat messages")


def _column(columns, name, n):
    if name not in columns:
        raise ValueError(f"the dataset has no column {name!r} (columns given: {', '.join(sorted(columns)) or 'none'}); name it with the factory's column argument")
    values = list(columns[name])
    if len(values) != n:
        raise ValueError(f"{name}: {len(values)} values for {n} completions")
    return values


def _inputs(completions, columns, names):
    """(texts, {name: values} of the rows that apply, indices of those rows, n): a row
    applies where its first named column is not None (every row when none is named)."""
    if completions is None or isinstance(completions, (str, bytes, dict)):
        raise ValueError(f"completions: expected a list of completions, got {type(completions).__name__}")
    completions = list(completions)
    n = len(completions)
    values = {name: _column(columns, name, n) for name in names}
    if not names or all(map(operator.is_not, values[names[0]], itertools.repeat(None))):  # every row applies (told at C speed)
        rows = list(range(n))
        texts = completions if all(map(isinstance, completions, itertools.repeat(str))) else list(map(completion_text, completions, rows))
        return texts, values, rows, n
    rows = [i for i, value in enumerate(values[names[0]]) if value is not None]
    texts = [completion_text(completions[i], i) for i in rows]
    return texts, {name: [v[i] for i in rows] for name, v in values.items()}, rows, n


def _spread(values, rows, n):
    if len(rows) == n:
        return np.asarray(values, dtype=float).tolist()
    out = [None] * n
    for i, value in zip(rows, values.tolist()):
        out[i] = float(value)
    return out


def f1(hits, predicted, gold):
    """Per-example F1 = 2·hits / (predicted + gold); 1.0 where both are 0."""
    hits, total = np.asarray(hits, float), np.asarray(predicted, float) + np.asarray(gold, float)
    return np.where(total > 0, 2 * hits / np.maximum(total, 1), 1.0)


def _reward_function(name, counts, score, names):
    """A TRL reward function named `name` (TRL logs rewards under __name__) from
    counts(texts, columns) -> (n_rows, k) array and score(counts) -> rewards."""

    def reward(prompts=None, completions=None, **columns):
        texts, values, rows, n = _inputs(completions, columns, names)
        return _spread(score(counts(texts, values)) if rows else np.zeros(0), rows, n)

    def statistics(completions, **columns):
        """(counts of the rows that apply, their indices): each row as the reward sees it."""
        texts, values, rows, _ = _inputs(completions, columns, names)
        return counts(texts, values), rows

    reward.__name__ = reward.__qualname__ = name
    reward.statistics = statistics
    return reward


# ---------------------------------------------------------------------------------------
# Any family: its figure of each example alone (paperscore.family)


def reward(family, metric=None, reference="reference", inputs=(), name=None, zero_division=1.0, **options):
    """A reward function from any family's statistics (paperscore.family, or one
    registered with paperscore.family.register): each completion's figure `metric`
    (default: the family's headline) on its example alone, its statistics row read exactly
    as the family's compute(**options) reads it (parse=, conventions), the reference from
    the column `reference`, the per-example inputs of `inputs` (e.g. ("sources",)) from the
    columns of those names. zero_division=1.0 (default): an example with nothing to find
    and nothing predicted scores 1.0, the gold output's own score. Its `.statistics`
    gives each example's totals (the family's `example_totals`), whose sums are the
    corpus statistics. Refused by name: precision or recall alone, and the conventions
    REFUSED lists (each can be gamed)."""
    from .family import get

    for value in (metric, *options.values()):
        _refuse("metric", value)
    fam = get(family, zero_division=zero_division, **options)
    metric = metric or fam.headline()
    if metric.endswith(("precision", "recall")):
        _refuse("metric", metric.rsplit("_", 1)[-1])
    names = [reference, *inputs]

    def read(texts, values):
        batch = fam.rows(texts, values[reference], **{k: values[k] for k in inputs})
        return fam.example_totals(batch.table), batch.records

    def call(prompts=None, completions=None, **columns):
        texts, values, rows, n = _inputs(completions, columns, names)
        if not rows:
            return _spread(np.zeros(0), rows, n)
        totals, records = read(texts, values)
        figures = fam.reduce(totals, records)
        if metric not in figures:
            raise ValueError(f"metric: {metric!r} is not one of {', '.join(figures)}")
        return _spread(np.asarray(figures[metric], dtype=float), rows, n)

    def statistics(completions, **columns):
        """(each applying row's totals, their indices)."""
        texts, values, rows, _ = _inputs(completions, columns, names)
        return read(texts, values)[0], rows

    call.__name__ = call.__qualname__ = name or f"{getattr(fam, 'name', family)}_{metric}".replace("/", "_")
    call.statistics = statistics
    return call


# ---------------------------------------------------------------------------------------
# Format: did the parser read every piece?


def format_reward(parse, name=None, source="sources", empty=False):
    """1.0 where the parser `parse` reads the whole completion (no piece it cannot read:
    the parse report's failure rule) and reads something, else 0.0. A completion from
    which the parser reads nothing (no quad, pair, mention or quote; a blank sentence) is
    0.0 unless empty=True: many readers accept an empty answer or a refusal ("I cannot
    help with that") without a failure, which would make saying nothing a well-formed
    answer (a CSC reply reads as its sentence: a refusal is a sentence there; csc_reward
    compares it with the source). Applies to every row; a rationale parser places the quotes on the tokens of
    the column `source` (a text or a list of tokens per row): 1.0 where every item is a
    quote placed on them."""
    parser = get_parser(parse)
    rationale = parser.family == "rationale_f1"
    check_flags(empty=empty)

    def well_formed(read):
        structure, problems = read[0], read[1]
        if problems:
            return False
        if parser.family == "coref":  # (tokens, clusters): something read is a cluster
            structure = structure[1]
        return empty or (bool(structure.strip()) if isinstance(structure, str) else bool(np.any(structure)) if rationale else len(structure) > 0)

    def counts(texts, values):
        if rationale:
            from .rationale import input_tokens

            tokens = input_tokens(values[source], len(texts))
            return np.array([[well_formed(parser.read(text, words))] for text, words in zip(texts, tokens)], dtype=float).reshape(-1, 1)
        return np.array([[well_formed(parser.read(text))] for text in texts], dtype=float).reshape(-1, 1)

    return _reward_function(name or f"format_{parser.name}", counts, lambda c: c[:, 0], [source] if rationale else [])


# ---------------------------------------------------------------------------------------
# Quads

QUAD_METRICS = ("exact_f1", "optimal_f1", "optimal_score")
QUAD_COUNTS = ("exact_hits", "exact_n", "exact_m", "matched", "n", "m", "score")


def _read_all(texts, parser):
    """parse()'s structures, each distinct text read once (a group's completions repeat)."""
    seen = {}
    return [seen[text] if text in seen else seen.setdefault(text, parser.read(text)[0]) for text in texts]


def _capped_quads(quads, gold, tuple_len):
    """A completion's quads (lists) with copies beyond the gold's count left out (_capped;
    several references: the most any of them holds)."""
    from .quad import reference_options

    references = reference_options(gold)[0]
    codes = _quad_codes([*quads, *(q for r in references for q in r)], tuple_len)[0].tolist()
    own, at, most = codes[: len(quads)], len(quads), collections.Counter()
    for r in references:
        most |= collections.Counter(codes[at : at + len(r)])
        at += len(r)
    return [quads[i] for i in _capped(own, most)]


def _quad_codes(quads, tuple_len):
    """(each quad's exact-match code, whether it is malformed): equal codes for quads
    equal once normalised as quad_match normalises quads given as data (elements
    stripped, a null or blank target or opinion NULL); a malformed quad (of the wrong
    width, or with an empty element) is coded by its elements apart from every
    well-formed one, so that it matches no gold quad."""
    from .quad import IMPLICIT, SPAN

    keys, codes, malformed = {}, [], []
    for quad in quads:
        q = tuple("" if e is None else e.strip() for e in quad)
        q = tuple(IMPLICIT if not e and j < len(tuple_len) and tuple_len[j] in SPAN else e for j, e in enumerate(q))
        bad = len(q) != len(tuple_len) or "" in q
        codes.append(keys.setdefault(("\0malformed", *q) if bad else q, len(keys)))
        malformed.append(bad)
    return np.array(codes, np.int64), np.array(malformed, bool)


def _segments(counts, index):
    """Positions, in a flat array of segments of lengths `counts`, of the segments index[0],
    index[1], ... one after another."""
    starts = np.cumsum(counts) - counts
    length = counts[index]
    return np.repeat(starts[index] - (np.cumsum(length) - length), length) + np.arange(int(length.sum()))


def _exact_hits(p_codes, n, r_codes, m, n_keys, duplicates):
    """Per example (hits, n, m) of exact match from each side's quad codes (examples'
    quads one after another, n and m quads each): the one-to-one ("multiset") or distinct
    ("set") common quads, counted over sorted codes example * n_keys + code (below
    examples x quads, inside int64)."""
    size = len(n)
    values_p, count_p = np.unique(np.repeat(np.arange(size), n) * n_keys + p_codes, return_counts=True)
    values_r, count_r = np.unique(np.repeat(np.arange(size), m) * n_keys + r_codes, return_counts=True)
    common, at_p, at_r = np.intersect1d(values_p, values_r, assume_unique=True, return_indices=True)
    if duplicates == "set":  # DiaASQ: equal quads are one
        return np.bincount(common // n_keys, minlength=size), np.bincount(values_p // n_keys, minlength=size), np.bincount(values_r // n_keys, minlength=size)
    return np.bincount(common // n_keys, weights=np.minimum(count_p[at_p], count_r[at_r]), minlength=size), n, m


def _exact_counts(predictions, references, tuple_len, duplicates, argument):
    """Per example (hits, n, m) of exact match, as quad_match counts them over data quads
    (see _quad_codes); a malformed gold quad is an error naming `argument`."""
    flat_p = [tuple(q) for example in predictions for q in example]
    flat = flat_p + [tuple(q) for example in references for q in example]
    seen = {}
    first = np.fromiter(map(seen.setdefault, flat, itertools.count()), np.int64, len(flat))
    codes, malformed = _quad_codes(list(seen), tuple_len)
    index = dense_codes(first, len(first))[1]  # the rank of each quad's first occurrence: its place in seen
    n, m = (np.fromiter(map(len, side), np.int64, len(side)) for side in (predictions, references))
    bad = np.flatnonzero(malformed[index[len(flat_p) :]])
    if len(bad):
        _gold_error(references, m, int(bad[0]), argument)
    p, r = codes[index[: len(flat_p)]], codes[index[len(flat_p) :]]
    return _exact_hits(p, n, r, m, len(seen) + 1, duplicates)


def _gold_error(references, m, k, argument):
    """The error for the malformed gold quad k (flat over the references' quads)."""
    i = int(np.searchsorted(np.cumsum(m), k, side="right"))
    number = k - int(np.cumsum(m)[i] - m[i])
    raise input_error(argument, i, f"gold quad {number + 1} {tuple(references[i][number])!r} has the wrong number of elements or an empty one")


def _read_texts(texts, golds, parser, argument):
    """Model texts and gold texts (one each, read strictly) read by one QuadReader, each
    distinct gold text and each distinct piece once: (reader, the texts' quad numbers, their
    counts, the distinct gold texts' quad numbers, their counts, each row's gold text, each
    quad's exact-match code)."""
    reader = QuadReader(parser)
    numbers_p, n, _ = reader.read(texts)
    distinct = list(dict.fromkeys(golds))
    numbers_g, counts_g, failed = reader.read(distinct)
    row = np.fromiter(map(dict(zip(distinct, itertools.count())).__getitem__, golds), np.int64, len(golds))
    if failed.any():
        first = int(np.flatnonzero(failed[row])[0])
        raise input_error(argument, first, f"{parser_id(parser)} cannot read the gold text {golds[first]!r}: {parser.read(golds[first])[1][0]}")
    codes, malformed = _quad_codes(reader.quads, parser.tuple_len)
    if malformed[numbers_g].any():
        numbers_r = numbers_g[_segments(counts_g, row)]
        _gold_error([[reader.quads[k] for k in numbers_g[_segments(counts_g, [g])]] for g in row.tolist()], counts_g[row], int(np.flatnonzero(malformed[numbers_r])[0]), argument)
    return reader, numbers_p, n, numbers_g, counts_g, row, codes


def _exact_texts(texts, golds, parser, duplicates, argument):
    """_exact_counts of model texts against gold texts (_read_texts), each distinct quad
    normalised once."""
    reader, numbers_p, n, numbers_g, counts_g, row, codes = _read_texts(texts, golds, parser, argument)
    return _exact_hits(codes[numbers_p], n, codes[numbers_g[_segments(counts_g, row)]], counts_g[row], len(reader.quads) + 1, duplicates)


def _capped(predicted, gold_counts):
    """The indices of `predicted` (exact-match codes of one completion's quads) kept when
    copies of a quad beyond max(1, how often the gold holds it) are left out."""
    if len(set(predicted)) == len(predicted):  # no copy: the common case
        return list(range(len(predicted)))
    seen, kept = collections.Counter(), []
    for index, code in enumerate(predicted):
        seen[code] += 1
        if seen[code] <= max(1, gold_counts[code]):
            kept.append(index)
    return kept


def _capped_texts(numbers, counts, gold_numbers, gold_counts, row, codes):
    """_capped over flat quad numbers: each text's (counts) against its gold text's."""
    starts, gold_starts = np.cumsum(counts) - counts, np.cumsum(gold_counts) - gold_counts
    keep = []
    for i, (start, count) in enumerate(zip(starts.tolist(), counts.tolist())):
        own = codes[numbers[start : start + count]].tolist()
        gold = collections.Counter(codes[gold_numbers[gold_starts[row[i]] : gold_starts[row[i]] + gold_counts[row[i]]]].tolist()) if len(set(own)) < len(own) else None
        keep.append([start + k for k in _capped(own, gold)] if gold is not None else range(start, start + count))
    lengths = np.array([len(k) for k in keep], dtype=np.int64)
    return numbers[np.fromiter(itertools.chain.from_iterable(keep), np.int64, int(lengths.sum()))], lengths


def _soft_texts(texts, golds, parser, weights, similarity, duplicates, argument):
    """quad_match's STATS rows of model texts against gold texts (_read_texts), each
    distinct (text, gold text) pair scored once (a group's completions repeat), from one
    table of the distinct quads read (quad.score_table); a text's repeated quads count
    once (see quad_reward)."""
    from . import quad

    reader, numbers_p, n, numbers_g, counts_g, row, codes = _read_texts(texts, golds, parser, argument)
    numbers_p, n = _capped_texts(numbers_p, n, numbers_g, counts_g, row, codes)
    text = np.fromiter(map({}.setdefault, texts, itertools.count()), np.int64, len(texts))  # each row's first row of its text
    _, first, inverse = np.unique(text * len(counts_g) + row, return_index=True, return_inverse=True)  # below rows x gold texts <= rows^2: int64 up to 3e9 rows
    stats = quad.score_table(reader.quads, numbers_p[_segments(n, first)], n[first], numbers_g[_segments(counts_g, row[first])], counts_g[row[first]], weights, parser.tuple_len, similarity, duplicates)
    return stats[inverse.ravel()]


def quad_reward(parse, reference="reference", metric="exact_f1", duplicates="multiset", similarity="rouge_l", weights=(1, 1, 1, 1), parse_references=True, name=None):
    """quad_match on each example. parse: a quad_match parser of paperscore.parse;
    reference: the column of gold target texts (read by the same parser, strictly; a list
    of texts: several references, the best counts, as in quad_match.compute), or gold
    quads already in the parser's order when parse_references=False.
    metric: "exact_f1" (2·hits / (predicted + gold quads), exact match under `duplicates`:
    "multiset" one-to-one or "set" DiaASQ; "list" is refused), "optimal_f1" (the same with
    the optimal soft match's matched degree total for hits) or "optimal_score" (quad_match's
    sample score, matched / max(predicted, gold)). A piece the parser cannot read is a
    predicted quad that matches nothing, as in compute(). Under the soft metrics copies of
    a quad (equal once normalised) count only as often as the gold holds it (at least
    once): a copy of a right quad would otherwise earn the partial degree of a second gold
    quad sharing elements with it (gold [q1, q2], q2 three elements of q1: [q1, q1] would
    score 0.7 where [q1] scores 0.667)."""
    from . import quad

    _refuse("duplicates", duplicates)
    if metric not in QUAD_METRICS:
        raise ValueError(f"metric: {metric!r} is not one of {', '.join(QUAD_METRICS)}")
    parser = get_parser(parse, "quad_match")
    exact = metric == "exact_f1"
    fam = quad.family(weights=weights, tuple_len=parser.tuple_len, similarity=similarity, duplicates=duplicates, exact_only=exact)  # checks the options now
    cached = {}  # gold texts repeat (GRPO scores several completions per prompt): read each once

    def gold(values):
        if not parse_references:
            return values
        out = []
        for index, value in enumerate(values):
            key = value if isinstance(value, str) else json.dumps(value)  # a list of texts is not hashable
            if key not in cached:
                several = isinstance(value, (list, tuple))
                texts = list(value) if several else [value]
                if not all(isinstance(text, str) for text in texts) or (several and not texts):
                    raise input_error(reference, index, f"is not gold text (a string, or a list of strings) for {parser_id(parser)}; gold quads: parse_references=False")
                read = []
                for text in texts:
                    quads, problems = parser.read(text)
                    if problems:
                        raise input_error(reference, index, f"{parser_id(parser)} cannot read the gold text {text!r}: {problems[0]}")
                    read.append(quads)
                cached[key] = read if several else read[0]
            out.append(cached[key])
        return out

    def counts(texts, values):
        if exact and parse_references and all(map(isinstance, values[reference], itertools.repeat(str))):  # the fast path
            hits, n, m = _exact_texts(texts, values[reference], parser, duplicates, reference)
            return np.column_stack([hits, n, m, np.zeros((len(n), 4))])
        if parse_references and all(map(isinstance, values[reference], itertools.repeat(str))):  # one gold text a row
            rows = _soft_texts(texts, values[reference], parser, weights, similarity, duplicates, reference)
            return rows[:, [quad.STATS.index(c) for c in QUAD_COUNTS]].reshape(-1, len(QUAD_COUNTS))
        structures = _read_all(texts, parser)
        golds = gold(values[reference])
        if not exact:  # the soft metrics: no copy beyond the gold's (see the docstring)
            structures = [_capped_quads(quads, g, parser.tuple_len) for quads, g in zip(structures, golds)]
        several = any(isinstance(v, (list, tuple)) for v in values[reference]) if parse_references else any(quad.reference_options(g)[1] for g in golds)
        if exact and not several:  # the fast path; several references need the soft match to choose one
            hits, n, m = _exact_counts(structures, golds, parser.tuple_len, duplicates, reference)
            return np.column_stack([hits, n, m, np.zeros((len(n), 4))])
        rows = fam.rows(structures, golds).table
        return rows[:, [quad.STATS.index(c) for c in QUAD_COUNTS]].reshape(-1, len(QUAD_COUNTS))

    def score(c):
        if metric == "exact_f1":
            return f1(c[:, 0], c[:, 1], c[:, 2])
        return f1(c[:, 3], c[:, 4], c[:, 5]) if metric == "optimal_f1" else c[:, 6]

    return _reward_function(name or f"quad_{metric}", counts, score, [reference])


# ---------------------------------------------------------------------------------------
# Chinese spelling check

CSC_METRICS = ("char_f1", "sentence")
CSC_COUNTS = ("exact_hits", "predicted", "gold", "same_edits")


def csc_reward(parse=None, source="source", reference="reference", metric="char_f1", name=None):
    """Correction of each sentence, its edits found against the source by csc's
    length_mismatch="align" (insertions and deletions are edits too). parse: a csc parser
    of paperscore.parse for chat replies, or None (the completion is the sentence).
    metric: "char_f1" (2·exact hits / (predicted + gold edits), an exact hit being the
    right character at the right position; 1.0 for leaving an error-free sentence alone)
    or "sentence" (1.0 when the predicted edits are exactly the gold edits, else 0.0).
    Sums of char_f1's counts give the character-level correction P/R/F1 over all edits
    (csc_common's "faspell"/"cscd_ns" char level, under length_mismatch="align");
    the mean of "sentence" is the share of sentences corrected exactly."""
    from . import csc

    _refuse("metric", metric)
    if metric not in CSC_METRICS:
        raise ValueError(f"metric: {metric!r} is not one of {', '.join(CSC_METRICS)}")
    parser = get_parser(parse, "csc") if parse is not None else None

    def counts(texts, values):
        sentences = parse_texts(texts, parser)[0] if parser else texts
        predicted, gold = csc.extract_edits(values[source], sentences, values[reference], names=("completions", reference), length_mismatch="align")
        m = csc.match(predicted, gold)
        return np.column_stack([m.exact_hits, m.predicted, m.gold, m.same_edits]).astype(np.int64).reshape(-1, len(CSC_COUNTS))

    def score(c):
        return f1(c[:, 0], c[:, 1], c[:, 2]) if metric == "char_f1" else c[:, 3].astype(float)

    return _reward_function(name or f"csc_{metric}", counts, score, [reference, source])


# ---------------------------------------------------------------------------------------
# Event detection labels


def event_reward(types=None, parse="omnievent_s2s", text="text", positions="positions", reference="labels", negative="NA", name=None):
    """Trigger classification of each example, read as the output states it: (trigger word,
    type) pairs. The gold pairs are the candidates' (text[start:end], label) whose label is
    not `negative`; the predicted pairs are those the parser (a micro_macro parser of
    paperscore.parse; its two names read alike here) reads, but those of type `negative`; a hit is a
    predicted pair matched one-to-one with an equal gold pair (multisets). The reward is
    2·hits / (predicted + gold), 1.0 where both are 0. types: the event type names a pair
    may carry, checked as names (a pair of another type, or naming a word that is no
    trigger, matches no gold pair: a false positive, so inventing pairs costs precision). Columns: `text` (the
    sentence), `positions` (the candidates' character [start, end)), `reference` (their
    gold labels).

    Why words and not candidates: the output names words, and a word may occur twice (a
    trigger once). Placing the pairs on candidates blind to the gold puts the gold output's
    one pair on the word's first occurrence (reward 0 where the gold is the second) and
    pays writing it twice (0.667); OmniEvent's placement prefers the gold type, so writing
    every type for every word gives every trigger its gold type. Counting pairs does
    neither: the gold output scores 1.0 and every extra pair costs precision. The sums of
    the counts (`statistics`) are the micro P/R/F1 of the pairs over the corpus, not
    micro_macro.compute(parse=...)'s candidate-level figures."""
    import collections

    parser = get_parser(parse, "micro_macro")
    if types is not None and (isinstance(types, str) or not all(isinstance(t, str) for t in types)):
        raise ValueError(f"types: {types!r} is not a list of event type names")

    def gold_pairs(sentence, spans, labels, index):
        if not isinstance(sentence, str):
            raise input_error(text, index, f"is a {type(sentence).__name__}, not the sentence")
        if not isinstance(spans, (list, tuple)) or not isinstance(labels, (list, tuple)):
            raise input_error(positions if not isinstance(spans, (list, tuple)) else reference, index, "is not a list, one entry per candidate")
        if len(spans) != len(labels):
            raise input_error(reference, index, f"{len(labels)} labels for {len(spans)} candidates")
        pairs = collections.Counter()
        for number, (span, label) in enumerate(zip(spans, labels)):
            if not (isinstance(span, (list, tuple)) and len(span) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in span) and 0 <= span[0] <= span[1] <= len(sentence)):
                raise input_error(positions, f"{index}][{number}", f"{span!r:.40} is not [start, end) character offsets inside the sentence of {len(sentence)} characters")
            if not isinstance(label, str):
                raise input_error(reference, f"{index}][{number}", f"{label!r:.40} is not a label")
            if label != negative:
                pairs[sentence[span[0] : span[1]], label] += 1
        return pairs

    def counts(texts, values):
        found = parse_texts(texts, parser)[0]
        out = np.zeros((len(texts), 3), np.int64)
        for i, (pairs, sentence, spans, labels) in enumerate(zip(found, values[text], values[positions], values[reference])):
            gold = gold_pairs(sentence, spans, labels, i)
            predicted = collections.Counter((word, kind) for word, kind in pairs if kind != negative)
            out[i] = [sum((gold & predicted).values()), sum(predicted.values()), sum(gold.values())]
        return out

    from .parse import POLICY

    default = "event_f1" if POLICY[parser.name] == "omnievent" else "event_strict_f1"  # the name TRL logs it under, as before
    return _reward_function(name or default, counts, lambda c: f1(c[:, 0], c[:, 1], c[:, 2]), [reference, text, positions])


# ---------------------------------------------------------------------------------------
# Coreference


def coref_reward(parse, reference="clusters", tokens=None, metric="conll_f1", name=None):
    """The reference scorer's figure on each document (coref_conll: exact-span mention
    matching, singletons kept). parse: a coref parser of paperscore.parse
    ("coref_markdown", "coref_clusters"), its mentions placed on the document's source
    tokens as coref.compute(parse=...) places them: the column `tokens` (a list of token
    strings per document) or, with tokens=None, the reference's own (CoNLL-2012 or
    jsonlines strings); a mention it cannot place (on text the model changed, an empty
    mention, a string with no unused occurrence) stays in its cluster as a response mention
    that matches no key mention, as in coref.compute. Or a function from the completion's
    text to its clusters (lists of [start, end] token spans, end included, as the
    reference column holds them). metric: "conll_f1" (the mean of the document's MUC, B3
    and CEAFe F1) or "<metric>_f1" of coref.METRICS. A document with no key mention and no
    predicted one scores 1.0; otherwise an empty denominator is 0, as in the scorer (MUC
    has no links in a key of singletons, so even the gold output of such a document scores
    2/3 in conll_f1). Sums of the per-document counts (`statistics`) give coref_conll's
    corpus figures; the mean of per-document conll_f1 is not its conll_f1.
    A model's output never stops training: its spans are scored as written (a function's
    spans read as token positions, end included, as the reference column's; a span past
    the document's end is a mention that matches nothing). compute()'s span-convention
    check (a ValueError when no predicted mention is a key mention but half would be under
    another convention) is not applied: over a batch it cannot tell a function written in
    another convention from a model whose mentions are one token too long, and a coref
    parser's spans are placed in this convention by paperscore itself. A function is part
    of the configuration: it must give well-formed clusters for any text (its exceptions,
    and clusters that are not lists of [start, end] pairs with 0 <= start <= end, stop the
    run, naming predictions[i]); check that it gives 1.0 on gold texts before training. A
    gold document that cannot be read is a ValueError naming references[i], as in compute()."""
    from . import coref
    from .parse import parse_coref

    if not isinstance(metric, str):
        raise ValueError(f"metric: {metric!r} is not a metric name")
    metrics = coref.CONLL if metric == "conll_f1" else (metric[: -len("_f1")],)
    if not (metric == "conll_f1" or (metric.endswith("_f1") and metrics[0] in coref.METRICS)):
        raise ValueError(f"metric: {metric!r} is not conll_f1 or one of {', '.join(m + '_f1' for m in coref.METRICS)}")
    parser = None if callable(parse) else get_parser(parse, "coref")
    if parser is None and tokens is not None:
        raise ValueError("tokens: places a coref parser's mentions; a function gives token spans itself")

    def counts(texts, values):
        unplaced = None
        if parser is None:
            clusters = []
            for i, text in enumerate(texts):
                try:
                    clusters.append(parse(text))
                except Exception as error:  # the reward's own function: stop the run, saying where
                    raise input_error("completions", i, f"the reward's function {getattr(parse, '__name__', parse)!s} failed on it: {type(error).__name__}: {error}") from error
        else:
            placed, _ = parse_coref(texts, parser, coref.source_tokens(values[reference], values[tokens] if tokens else None), argument="completions")
            split = [coref.split_unplaced(found) for found in placed]
            clusters, unplaced = [kept for kept, _ in split], [lost for _, lost in split]
        # each side read alone: the gold as compute reads it (an unreadable one is an error
        # naming references[i]); the output's token spans as written, without compute's
        # span-convention guess over the batch (see the docstring)
        empty = [[]] * len(texts)
        if "ids" in coref.check_inputs(clusters, values[reference]):  # mention ids: numbered on both sides together
            key, response = coref.read_examples(clusters, values[reference])
        else:
            key, response = coref.read_examples(empty, values[reference])[0], coref.read_examples(clusters, empty)[1]
        if unplaced is not None and any(unplaced):
            response = coref.with_unplaced(key, response, unplaced)
        table = coref.statistics(key, response, metrics)
        mentions = np.column_stack([np.bincount(side.doc, minlength=len(texts)) for side in (key, response)])
        return np.column_stack([*(table[m] for m in metrics), mentions])

    def score(c):
        figures = coref.scores(c[:, :-2], metrics)
        return np.where(c[:, -2:].sum(1) == 0, 1.0, figures[metric])

    return _reward_function(name or f"coref_{metric}", counts, score, [reference] + ([tokens] if tokens else []))


# ---------------------------------------------------------------------------------------
# Rationales

RATIONALE_METRICS = ("f1",)


def rationale_reward(parse, source="sources", reference="reference", metric="f1", name=None):
    """Token F1 of the rationale class on each example: the completion's quotes placed on
    the example's tokens by the rationale parser `parse` (quotes_exact, quotes_normalized,
    quotes_fuzzy), against the gold rationale; exactly rationale_f1.compute(parse=...,
    sources=...) on that example alone. Columns: `source` (the input: a text, split on
    white space, or a list of tokens) and `reference` (gold quotes as a text, placed by the
    same parser strictly, or 0/1 per token with -100 marking unscored tokens).
    The reward is 2·tp / (predicted + gold tokens), the "f1" of compute()'s per_example
    rows with zero_division=1.0 (1.0 for quoting nothing where the gold selects nothing,
    the gold output's own score). A quote placed nowhere, or repeated, selects nothing
    more. Sums of the counts (tp, predicted, gold) give compute()'s corpus precision,
    recall and f1; the mean of the rewards is compute()'s example_f1 only where every
    example has gold or predicted tokens. metric "precision" and "recall" are refused:
    each alone is won by quoting one word or everything. Errors name compute()'s arguments
    (predictions, references, sources) and the index among the rows that apply."""
    from . import rationale

    _refuse("metric", metric)
    if metric not in RATIONALE_METRICS:
        raise ValueError(f"metric: {metric!r} is not one of {', '.join(RATIONALE_METRICS)}")
    fam = rationale.family(parse=parse)  # an unknown name fails now, not at the first batch

    def counts(texts, values):
        batch, _ = fam.read(texts, values[reference], values[source], every_auprc=False)
        return batch.table[:, :3].astype(np.int64)

    return _reward_function(name or f"rationale_{metric}", counts, lambda c: f1(c[:, 0], c[:, 1], c[:, 2]), [reference, source])
