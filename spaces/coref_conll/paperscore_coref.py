# GENERATED from shared/paperscore/coref.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Coreference scores exactly as the CoNLL reference scorer computes them
(conll/reference-coreference-scorers v8.01: MUC, B3, CEAFm, CEAFe, BLANC; its LEA-scorer
branch: LEA), and the CoNLL score, the mean of the MUC, B3 and CEAFe F1s.

Statistics: per document, each metric's recall and precision numerators and
denominators (BLANC: its eight link counts). Totals are sums over documents, as the
reference aggregates, so shards merge by adding rows and the bootstrap resamples
documents. Every count comes from a document's key-entity x response-entity overlap
counts: no mention pair is enumerated, and CEAF's optimal alignment is solved only on
the entity pairs that share a mention, one connected component at a time.

The reference's rules, kept here: mentions match by exact (start, end); twinless mentions
and singletons count; a response mention whose span is a key span already met in an
earlier response entity is dropped from its later entity (the reference's abort after ten
repeats is not kept); a twinless span repeated in the response is not de-duplicated (it
counts in every entity that holds it, and once in BLANC's link sets and in the mention
precision denominator).
"""

import itertools
import math
import re
import sys
import warnings
from collections import Counter, deque, namedtuple
from types import SimpleNamespace

import numpy as np

from . import paperscore_corefud as corefud
from .paperscore_family import Batch, Family, scoring_options
from .paperscore_parse import COREF_PARSERS, check_parser_options, get_parser, parse_coref, parser_id, read_reply_file
from .paperscore_core import (
    check_flags,
    as_corpus,
    as_floats,
    bootstrap_intervals,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_stdin_once,
    check_same_length,
    check_zero_division,
    compress_rows,
    divide,
    harmonic_mean,
    input_error,
    isin,
    load_json,
    progress,
    read_bytes,
    read_text,
    signature,
    with_references,
)

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
CHOICES = ("mentions",) + METRICS
CONLL = ("muc", "bcub", "ceafe")
SPACE = "coref_conll"
EXTRA_INPUTS = ("tokens", "texts")  # compared inputs beside the systems, kept out of signatures
# Per document and metric: recall numerator, recall denominator, precision numerator,
# precision denominator; BLANC: those four for coreference links, then for
# non-coreference links.
WIDTH = {"mentions": 4, "muc": 4, "bcub": 4, "ceafm": 4, "ceafe": 4, "lea": 4, "blanc": 8}
COUNT_NAMES = {
    "blanc": ("coreference_recall", "coreference_precision", "non_coreference_recall", "non_coreference_precision"),
}

# ---------------------------------------------------------------------------------------
# One side (key or response) of every document, as flat arrays.
#   doc[i], first[i], second[i]: mention i's document and identity there (a span's start
#   and end, or an id's number and 0); entity[i]: its entity, numbered over all documents
#   in document order and, within a document, in the reference's entity order. Mentions
#   are sorted by entity. where[d] = (argument, index) names document d in errors;
#   labels[d] lists the mention ids of an ids document.
Side = namedtuple("Side", "n_docs doc first second entity where labels")


def _side(parts, where, labels=None):
    """A Side from per-document (first, second, entity) arrays, entities numbered from 0
    in each document."""
    sizes = [len(part[0]) for part in parts]
    doc = np.repeat(np.arange(len(parts), dtype=np.int64), sizes)
    if not sum(sizes):
        empty = np.zeros(0, dtype=np.int64)
        return Side(len(parts), doc, empty, empty, empty, where, labels)
    first, second, local = (np.concatenate([np.asarray(part[i], dtype=np.int64) for part in parts]) for i in range(3))
    offsets = np.cumsum([0] + [int(part[2].max()) + 1 if len(part[2]) else 0 for part in parts])[:-1]
    entity = local + np.repeat(offsets, sizes)
    order = np.argsort(entity, kind="stable")
    return Side(len(parts), doc[order], first[order], second[order], entity[order], where, labels)


def _keep(side, keep):
    """The side with only the mentions `keep`; entities left empty disappear."""
    _, entity = np.unique(side.entity[keep], return_inverse=True)
    return side._replace(doc=side.doc[keep], first=side.first[keep], second=side.second[keep], entity=entity.reshape(-1))


def _entity_docs(side):
    docs = np.zeros(int(side.entity.max()) + 1 if len(side.entity) else 0, dtype=np.int64)
    docs[side.entity] = side.doc
    return docs


# ---------------------------------------------------------------------------------------
# Reading CoNLL-2011/2012 documents by the reference's rules (CorScorer.pm GetCoreference)

# A document begins on a line "#begin document NAME" and ends at the first later line that
# holds "#end document" anywhere (CorScorer.pm's two patterns).
_BEGIN = re.compile(rb"#[ \t\r\f\v]*begin document ([^\n]*?)\r?$", re.M)
_END = re.compile(rb"#[ \t\r\f\v]*end document")
_SPLIT_ANTECEDENT = re.compile(rb"\(\d+\+\d\)")
# The reference reads a cell in three passes, each removing its first match until none is
# left: one-token mentions "(N)", then opens "(N", then closes "N)".
_PASSES = (re.compile(rb"\((\d+)\)"), re.compile(rb"\((\d+)"), re.compile(rb"(\d+)\)"))
ONE, OPEN, CLOSE = range(3)
_WHITE = np.zeros(256, dtype=bool)
_WHITE[[9, 10, 11, 12, 13, 32]] = True


def _cell_items(cell):
    """The (kind, number) items of one coreference cell in the reference's reading order,
    and what is left of the cell. Numbers stay strings: the reference tells "07" from "7"."""
    while match := _SPLIT_ANTECEDENT.search(cell):  # split antecedents "(N+M)" are discarded
        cell = cell[: match.start()] + cell[match.end() :]
    items = []
    for kind, pattern in enumerate(_PASSES):
        while match := pattern.search(cell):
            items.append((kind, match[1]))
            cell = cell[: match.start()] + cell[match.end() :]
    return items, cell


def _documents(data, newline, source, whole):
    """[(name, first line, stop line)] of the documents in `data`: the body is the lines
    from first to stop, excluded (0-based; `newline` holds the positions of the line
    ends). With whole=True, text without any `#begin document` line is one document
    named None."""
    begins = [m for m in _BEGIN.finditer(data) if m.start() == 0 or data[m.start() - 1] == 10]
    if not begins:
        return [(None, 0, len(newline) + 1)] if whole else []
    end_lines = np.searchsorted(newline, [m.start() for m in _END.finditer(data)])
    begin_lines = np.searchsorted(newline, [m.start() for m in begins])
    documents = []
    for number, (begin, line) in enumerate(zip(begins, begin_lines.tolist())):
        try:
            name = begin[1].decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{source}: the document name on line {line + 1} is not UTF-8") from None
        later = end_lines[np.searchsorted(end_lines, line, side="right") :]
        stop = int(later[0]) if len(later) else len(newline) + 1
        if number + 1 < len(begins) and begin_lines[number + 1] < stop:
            raise ValueError(f"{source}: document {name!r} has no #end document before the next #begin document")
        documents.append((name, line + 1, stop))
    repeated = [name for name, n in Counter(d[0] for d in documents).items() if n > 1]
    if repeated:
        raise ValueError(f"{source}: document {repeated[0]!r} occurs more than once")
    return documents


def _error(source, name, line, token, problem):
    where = source if name is None else f"{source} document {name!r}"
    return ValueError(f"{where}: {problem} (line {line + 1}, token {token})")


# One document of a file: its name (None for a CoNLL text without #begin document), its
# number of tokens, and per mention its first and last token and its entity (numbered
# from 0 in the reference's order); words: a jsonlines document's tokens (None for CoNLL).
# parse: a CoNLL key's Parse, read only for NP_only and min_span.
Document = namedtuple("Document", "name n_tokens first last entity words parse", defaults=(None, None))


def parse_conll(text, source="conll", whole=False):
    """The documents of a CoNLL-2011/2012 text (str or UTF-8 bytes) as a list of
    Documents: per document, each mention's first and last token and its entity
    (numbered from 0 in order of first appearance, as the reference does).
    Tokens are the document's non-blank lines, counted from 0; the coreference cell is a
    line's last non-empty tab-separated field.

    Raises ValueError naming the document, line and token of a mention closed but not
    opened or opened but not closed, or of an unreadable item such as "(e0)"."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return _read_conll(data, _documents(data, _newlines(data), source, whole), source)


def _newlines(data):
    return np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)


def parse_conll_examples(texts, argument):
    """One Document per CoNLL string (compute()'s examples, each one document, with or
    without #begin document), read in one pass over the strings joined, so that each
    distinct cell of the corpus is read once; an error is worded as the string alone
    gives it (`predictions[3]: ... (line 2, token 1)`)."""
    datas = [text.encode("utf-8") for text in texts]
    alone, joined, offset = [], [], 0
    for index, data in enumerate(datas):
        documents = _documents(data, _newlines(data), f"{argument}[{index}]", whole=True)
        if len(documents) != 1:
            raise input_error(argument, index, f"holds {len(documents)} documents; give one document per example")
        alone.append(documents)
        name, low, high = documents[0]
        joined.append((name, low + offset, high + offset))
        offset += data.count(b"\n") + 1
    try:
        return _read_conll(b"\n".join(datas), joined, argument)
    except ValueError:
        for index, (data, documents) in enumerate(zip(datas, alone)):
            _read_conll(data, documents, f"{argument}[{index}]")
        raise


def _read_conll(data, documents, source):
    """parse_conll's Documents of `data` given its [(name, first line, stop line)]."""
    chars = np.frombuffer(data, dtype=np.uint8)
    newline = np.flatnonzero(chars == 10)
    names = [name for name, _, _ in documents]
    starts = np.concatenate(([0], newline + 1))
    ends = np.concatenate((newline, [len(chars)]))
    line_doc = np.full(len(starts), -1, dtype=np.int64)
    for number, (_, low, high) in enumerate(documents):
        line_doc[low:high] = number
    # Whitespace-only lines are skipped and not counted: a line is a token when it starts
    # with a visible character, or (rarely) holds one after leading white space.
    counted = (ends > starts) & (line_doc >= 0)
    counted[counted] = ~_WHITE[chars[starts[counted]]]
    for line in np.flatnonzero((ends > starts) & (line_doc >= 0) & ~counted).tolist():
        counted[line] = bool(data[starts[line] : ends[line]].strip())
    before = np.concatenate(([0], np.cumsum(counted)))  # tokens before each line
    n_tokens = [int(before[high] - before[low]) for _, low, high in documents]
    token = before[1:] - 1
    token -= np.array([0] + [token[low - 1] + 1 if low else 0 for _, low, _ in documents])[line_doc + 1]
    # Only a line with a parenthesis can hold an item. Cells repeat, so each distinct cell
    # is read once.
    lines = np.searchsorted(newline, np.flatnonzero((chars | 1) == 41))  # "(" or ")"
    lines = lines[np.concatenate(([True], lines[1:] != lines[:-1]))] if len(lines) else lines
    lines = lines[counted[lines]]
    cache, numbers, events = {}, {}, []
    for line, start, end in zip(lines.tolist(), starts[lines].tolist(), ends[lines].tolist()):
        tab = data.rfind(b"\t", start, end)
        cell = data[tab + 1 if tab >= 0 else start : end]
        if not cell:  # trailing tabs: the reference drops empty last fields
            cell = data[start:end].rstrip(b"\t").rpartition(b"\t")[2]
        items = cache.get(cell)
        if items is None:
            found, rest = _cell_items(cell)
            if b"(" in rest or b")" in rest:
                raise _error(source, names[line_doc[line]], line, token[line], f"unreadable coreference cell {cell.decode('utf-8', 'replace')!r}")
            items = cache[cell] = [numbers.setdefault(number, len(numbers)) * 3 + kind for kind, number in found]
        events.append(items)
    sizes = np.fromiter(map(len, events), dtype=np.int64, count=len(events))
    code = np.fromiter(itertools.chain.from_iterable(events), dtype=np.int64, count=int(sizes.sum()))
    line = np.repeat(lines, sizes)
    where = (source, names, list(numbers), line, token[line])
    found = _mentions(where, code % 3, line_doc[line], code // 3, len(numbers))
    return [Document(name, n, first, last, entity) for (name, first, last, entity), n in zip(found, n_tokens)]


def _mentions(where, kind, doc, number, n_numbers):
    """Pair each close with the latest unclosed open of its entity, as the reference does;
    [(name, starts, ends, entities)] per document, mentions in the reference's order."""
    source, names, numbers, lines, tokens = where
    key = doc * max(n_numbers, 1) + number  # an entity is a number within a document

    def fail(events, problem):
        event = int(events.min())  # the first in reading order
        raise _error(source, names[doc[event]], int(lines[event]), int(tokens[event]), f"{problem} {numbers[number[event]].decode()}")

    # Nesting depth of each open and close within its entity, in reading order.
    order = np.flatnonzero(kind != ONE)
    order = order[np.argsort(key[order], kind="stable")]
    step = np.where(kind[order] == OPEN, 1, -1)
    depth = np.cumsum(step)
    if len(order):
        group = np.flatnonzero(np.concatenate(([True], key[order][1:] != key[order][:-1])))
        depth -= np.repeat((depth - step)[group], np.diff(np.append(group, len(order))))
    if (depth < 0).any():
        fail(order[depth < 0], "a mention is closed but was not opened: entity")
    # An open and its close share a nesting level, and at one level of one entity opens
    # and closes alternate: sorted by (entity, level, reading order) they pair up.
    level = depth + (kind[order] == CLOSE)
    sort = np.lexsort((order, level, key[order]))
    paired, level = order[sort], level[sort]
    starts = np.flatnonzero(np.concatenate(([True], (key[paired][1:] != key[paired][:-1]) | (level[1:] != level[:-1]))))
    odd = np.diff(np.append(starts, len(paired))) % 2 == 1
    if odd.any():
        fail(paired[np.append(starts, len(paired))[1:][odd] - 1], "a mention is opened but not closed: entity")
    single = np.flatnonzero(kind == ONE)
    opens, closes = paired[0::2], paired[1::2]
    recorded = np.concatenate((single, closes))  # the reference records a mention at its close
    first = np.concatenate((tokens[single], tokens[opens]))
    last = np.concatenate((tokens[single], tokens[closes]))
    keys, seen = np.unique(key, return_index=True)
    rank = np.empty(len(keys), dtype=np.int64)
    rank[np.argsort(seen)] = np.arange(len(keys))  # entities in order of first appearance
    entity = rank[np.searchsorted(keys, key[recorded])]
    order = np.lexsort((recorded, entity))
    first, last, entity, mention_doc = first[order], last[order], entity[order], doc[recorded][order]
    bounds = np.searchsorted(mention_doc, np.arange(len(names) + 1))
    out = []
    for d, name in enumerate(names):
        part = slice(bounds[d], bounds[d + 1])
        local = entity[part] - (entity[part][0] if bounds[d + 1] > bounds[d] else 0)
        out.append((name, first[part], last[part], local))
    return out


def conll_to_clusters(text):
    """One CoNLL document (str) as a list of clusters of [start, end] token spans, in the
    reference's entity order: the third input form of compute()."""
    [document] = _one_document(text, "text")
    return _clusters(document.first, document.last, document.entity)


def document_clusters(document):
    """A Document's clusters of [start, end] spans, in its entity order."""
    return _clusters(document.first, document.last, document.entity)


def _clusters(first, last, entity):
    return [np.stack((first, last), 1)[entity == e].tolist() for e in range(int(entity.max(initial=-1)) + 1)]


def _one_document(text, argument, index=None, span_convention="token_inclusive"):
    """The one document of a CoNLL text or jsonlines line (predictions: predicted_clusters
    read where they exist; a jsonlines line's spans in span_convention)."""
    where = argument if index is None else f"{argument}[{index}]"
    documents = parse_documents(text, where, whole=True, predicted=argument == "predictions", span_convention=span_convention)[1]
    if len(documents) != 1:
        raise input_error(argument, index, f"holds {len(documents)} documents; give one document per example")
    return documents


def _reading_order(first, last, entity):
    """Entities renumbered in the order the reference numbers them once the clusters are
    written as CoNLL with each token's items in cluster order (one-token mentions, then
    opens): by first token, an entity whose first mention there is one token long first,
    then by cluster. (The order decides which entity keeps a key span the response holds twice.)"""
    n = int(entity.max(initial=-1)) + 1
    first_seen = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(first_seen, entity, 2 * first + (first != last))
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(first_seen, kind="stable")] = np.arange(n)
    entity = rank[entity]
    order = np.argsort(entity, kind="stable")
    return first[order], last[order], entity[order]


def _jsonlines_document(value, where, field="clusters", span_convention="token_inclusive"):
    """One jsonlines object {"doc_key", "sentences", "clusters"} as a Document, its
    clusters read from `field` in span_convention (characters: of the tokens joined by
    single spaces)."""
    missing = [name for name in ("doc_key", "sentences", field) if name not in value]
    if missing:
        raise ValueError(f"{where}: the object has no {', '.join(missing)}")
    name, sentences, clusters = value["doc_key"], value["sentences"], value[field]
    if not isinstance(name, str):
        raise ValueError(f"{where}: doc_key is {type(name).__name__}, not a string")
    where = f"{where} (doc_key {name!r})"
    if not isinstance(sentences, list) or not all(isinstance(sentence, list) for sentence in sentences):
        raise ValueError(f"{where}: sentences is not a list of lists of tokens")
    words = [token for sentence in sentences for token in sentence]
    wrong = next((i for i, token in enumerate(words) if not isinstance(token, str)), None)
    if wrong is not None:
        raise ValueError(f"{where}: token {wrong} (counted from 0 over the sentences) is {type(words[wrong]).__name__} {words[wrong]!r}, not a string")
    if not isinstance(clusters, list) or _form(clusters, f"{where}: {field}", None) == "ids":
        raise ValueError(f"{where}: {field} is not a list of clusters of [start, end] token spans")
    spans = np.array([m for cluster in clusters for m in cluster], dtype=np.int64).reshape(-1, 2)
    sizes = [len(cluster) for cluster in clusters]
    offsets = _token_offsets([words], None, 1)[0] if span_convention.startswith("char") else None
    first, last = _token_spans(spans, sizes, span_convention, len(words), offsets, where, None)
    entity = np.repeat(np.arange(len(clusters)), sizes)
    return Document(name, len(words), *_reading_order(first, last, entity), words)


def parse_jsonlines(text, source="jsonlines", predicted=False, span_convention="token_inclusive"):
    """The documents of an OntoNotes jsonlines text, one JSON object a line as the
    e2e-coref family writes it: doc_key, sentences (lists of tokens) and clusters (lists
    of [start, end] inclusive spans over the document's concatenated tokens).

    predicted=True (a response): where the objects hold "predicted_clusters", as the
    predict.py of e2e-coref, SpanBERT and coref-hoi writes them beside the gold
    "clusters" of their input, those are read; every line then needs them.
    span_convention: how the spans count (SPAN_CONVENTIONS; characters: of each line's
    tokens joined by single spaces); a span that cannot be so is an error naming the line,
    document and cluster."""
    check_choice("span_convention", span_convention, tuple(SPAN_CONVENTIONS))
    documents, fields = [], []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{source} line {number}"
        value = load_json(line, where)
        if not isinstance(value, dict):
            raise ValueError(f"{where}: expected a JSON object with doc_key, sentences and clusters, got {type(value).__name__}")
        field = "predicted_clusters" if predicted and "predicted_clusters" in value else "clusters"
        if fields and field != fields[0][1]:
            raise ValueError(f"{where}: the object has {'' if field == 'predicted_clusters' else 'no '}predicted_clusters, but {fields[0][0]} has {'' if fields[0][1] == 'predicted_clusters' else 'none'}: a response reads predicted_clusters on every line or on none")
        fields.append((where.removeprefix(f"{source} "), field))
        documents.append(_jsonlines_document(value, where, field, span_convention))
    return documents


def parse_documents(data, source, whole=False, predicted=False, allow_empty=False, parse=False, span_convention="token_inclusive"):
    """(form, documents) of a coreference file's bytes or text: "jsonlines" when its first
    visible character is "{", else "conll". A text without any document is an error
    naming `source` (with whole=True, CoNLL lines without #begin document are one document).
    predicted: a response (jsonlines: predicted_clusters read where they exist).
    allow_empty: a text without documents is no documents (scorer.pl's reading).
    parse: read each CoNLL document's Parse (NP_only, min_span); jsonlines is an error.
    span_convention: of jsonlines spans (parse_jsonlines)."""
    text = data if isinstance(data, str) else None
    head = (data.lstrip()[:1] if text is not None else bytes(data).lstrip()[:1])
    if head in ("{", b"{"):
        if text is None:
            try:
                text = bytes(data).decode("utf-8")
            except UnicodeDecodeError as error:
                raise ValueError(f"{source} is not UTF-8 (byte {error.start}: {error.reason})") from None
        form, documents = "jsonlines", parse_jsonlines(text, source, predicted, span_convention)
        if parse:
            raise ValueError(f"{source}: NP_only and min_span need the key's parse trees, which jsonlines does not hold; give the key as CoNLL with its parse column (column 6)")
    else:
        form, documents = "conll", parse_conll(data, source, whole)
        if parse:
            parses = conll_parses(data, source, whole)
            documents = [d._replace(parse=parses[d.name]) for d in documents]
    if not documents and allow_empty:
        return "conll", []
    if not documents:
        found = "is empty" if not head else "holds no document: no #begin document line, and not jsonlines"
        raise ValueError(f"{source} {found}")
    if form == "jsonlines":
        repeated = [name for name, n in Counter(d.name for d in documents).items() if n > 1]
        if repeated:
            raise ValueError(f"{source}: doc_key {repeated[0]!r} occurs more than once")
    return form, documents


def read_documents(path, argument, predicted=False, allow_empty=False, parse=False, span_convention="token_inclusive"):
    """(form, documents) of a CoNLL or jsonlines file ("-": standard input)."""
    source = "standard input" if str(path) == "-" else str(path)
    return parse_documents(read_bytes(path, argument), f"{argument}: {source}", predicted=predicted, allow_empty=allow_empty, parse=parse, span_convention=span_convention)


# A CoNLL document name as the e2e-coref family turns it into a doc_key (its minimize.py
# and conll.py): "(bc/cctv/00/cctv_0000); part 000" is "bc/cctv/00/cctv_0000_0".
_E2E_NAME = re.compile(r"\((.*)\); part (\d+)")


def document_key(name):
    """The doc_key of a CoNLL document name; a name of another shape is its own key."""
    match = _E2E_NAME.match(name)
    return f"{match[1]}_{int(match[2])}" if match else name


def pair_documents(key, response, key_source="KEY", response_source="RESPONSE"):
    """Match the response's documents to the key's by name, as scorer.pl does when both
    are CoNLL; when either is jsonlines, a CoNLL name counts as its doc_key. key and
    response: (form, documents). Returns (key documents, response documents in the key's
    order with an empty one where the response lacks it, missing names, extra names).
    A document whose two sides differ in token count is an error."""
    rename = (lambda name: name) if key[0] == response[0] == "conll" else document_key
    found = {}
    for document in response[1]:
        other = found.setdefault(rename(document.name), document)
        if other is not document:
            raise ValueError(f"{response_source}: documents {other.name!r} and {document.name!r} both have doc_key {rename(document.name)!r}")
    empty = np.zeros(0, dtype=np.int64)
    paired, missing, seen = [], [], set()
    for document in key[1]:
        name = rename(document.name)
        if name in seen:
            raise ValueError(f"{key_source}: two documents have doc_key {name!r}")
        seen.add(name)
        other = found.get(name)
        if other is None:
            missing.append(document.name)
            other = Document(document.name, document.n_tokens, empty, empty, empty)
        elif other.n_tokens != document.n_tokens:
            raise ValueError(f"document {document.name!r}: {key_source} holds {document.n_tokens} tokens, {response_source} {other.n_tokens}; both sides must hold the same tokens")
        paired.append(other)
    extra = [document.name for document in response[1] if rename(document.name) not in seen]
    return key[1], paired, missing, extra


# ---------------------------------------------------------------------------------------
# Python inputs: per document a CoNLL string, clusters of mention ids, or clusters of spans

FORM_NAMES = {"conll": "a CoNLL document", "ids": "clusters of mention ids", "spans": "clusters of [start, end] spans"}
_INT = (int, np.integer)
INT64_MAX = 2**63 - 1  # spans are stored as int64


def _form(example, argument, index):
    """"conll", "ids" or "spans" for one document; None for a document without clusters.
    Checks every cluster and mention of a cluster document."""
    if isinstance(example, str):
        return "conll"
    if isinstance(example, np.ndarray) and example.dtype == object:
        example = list(example)
    if not isinstance(example, (list, tuple)):
        raise input_error(argument, index, f"expected a CoNLL document string or a list of clusters, got {type(example).__name__}")
    form = None
    for number, cluster in enumerate(example):
        if isinstance(cluster, (str, bytes)) or not isinstance(cluster, (list, tuple, np.ndarray)) or not len(cluster):
            problem = "is empty" if isinstance(cluster, (list, tuple, np.ndarray)) else f"is a {type(cluster).__name__}, not a list of mentions"
            raise input_error(argument, index, f"cluster {number} {problem}")
        for mention in cluster:
            if isinstance(mention, (str, np.str_)):
                kind = "ids"
            elif (
                isinstance(mention, (list, tuple, np.ndarray))
                and len(mention) == 2
                and all(isinstance(v, _INT) and not isinstance(v, (bool, np.bool_)) for v in mention)
                and 0 <= mention[0] <= mention[1]
            ):
                kind = "spans"
                if mention[1] > INT64_MAX:
                    raise input_error(argument, index, f"cluster {number} holds {mention!r}: a token position must be below 2**63")
            else:
                raise input_error(argument, index, f"cluster {number} holds {mention!r}: a mention is a str id or a [start, end] pair of ints with 0 <= start <= end")
            if form not in (None, kind):
                raise input_error(argument, index, f"cluster {number} mixes mention ids and spans")
            form = kind
    return form


def _side_form(examples, argument):
    forms = [_form(example, argument, index) for index, example in enumerate(examples)]
    given = [(index, form) for index, form in enumerate(forms) if form]
    for index, form in given:
        if form != given[0][1]:
            raise input_error(argument, index, f"is {FORM_NAMES[form]}, but {argument}[{given[0][0]}] is {FORM_NAMES[given[0][1]]}")
    return given[0][1] if given else None


def check_inputs(predictions, references):
    """Check the types of every document and mention; return the forms of predictions and
    references ("conll", "ids", "spans", or None when no document has a cluster).

    The metric script runs this before evaluate encodes a batch: evaluate's string feature
    would silently turn a span [0, 1] into the id "[0, 1]"."""
    predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
    check_same_length(predictions, references)
    forms = _side_form(predictions, "predictions"), _side_form(references, "references")
    if "ids" in forms and {"conll", "spans"} & set(forms):
        raise ValueError(f"predictions are {FORM_NAMES[forms[0]]} but references are {FORM_NAMES[forms[1]]}: mention ids compare only with mention ids")
    return forms


def batch_forms(forms, held=None):
    """The (predictions, references) forms to store a checked batch as: `held`, the forms
    of earlier batches, when there are some (a batch in other forms is an error); else its
    own, where a side without any cluster takes the list form that fits the other side."""
    if held is None:
        fill = {"ids": "ids", "spans": "spans", "conll": "spans", None: "spans"}
        return forms[0] or fill[forms[1]], forms[1] or fill[forms[0]]
    for argument, form, earlier in zip(("predictions", "references"), forms, held):
        if form != earlier and (form is not None or earlier == "conll"):
            raise ValueError(f"{argument}: this batch is {FORM_NAMES.get(form, 'lists without clusters')}, but earlier batches were {FORM_NAMES[earlier]}")
    return held


# How clusters of [start, end] pairs count: what each convention is, and who writes it.
SPAN_CONVENTIONS = {
    "token_inclusive": "token positions, end included (CoNLL, e2e-coref / SpanBERT / coref-hoi jsonlines, Maverick clusters_token_offsets, AllenNLP)",
    "token_exclusive": "token positions, end excluded (spaCy Span.start / Span.end, wl-coref span_clusters)",
    "char_exclusive": "character offsets into texts, end excluded (fastcoref and LingMess get_clusters(as_strings=False))",
    "char_inclusive": "character offsets into texts, end included (Maverick clusters_char_offsets)",
}
# Span predictions are read again under the other span conventions (the end one token
# less or more; character offsets when tokens are given) and the key mentions found each
# way are counted. Spans written in another convention meet few key spans as read (3.6%
# of LitBank's gold mentions, where a mention one token shorter shares the start) and
# every one the system found once re-read, while a system's own boundary errors move the
# end of a few of its mentions only. So the predictions are refused when another reading
# finds at least MISREAD_GAIN more key mentions than as read and MISREAD_RATIO times as
# many; with WARN_GAIN more (and that ratio) they are scored with a warning. MIN_MISSING
# or more predicted mentions of which fewer than FIT_SHARE are key mentions under any
# reading fit none (character offsets given without tokens, spans over other tokens, or
# a hopeless system): scored, as every interface scores them, with a warning that says so.
# Measured on LitBank in the card.
MISREAD_GAIN = 6
WARN_GAIN = 2
MISREAD_RATIO = 2.5
MIN_MISSING = 10
FIT_SHARE = 0.1


def _token_offsets(tokens, texts, n_docs):
    """Per document (the first character, the last character) of each token, found in
    order in its text (default: the tokens joined by single spaces), and the text."""
    if tokens is None:
        raise ValueError("tokens: a character span_convention needs tokens, per document the list of tokens whose positions the key counts")
    tokens = as_corpus(tokens, "tokens")
    if len(tokens) != n_docs:
        raise ValueError(f"tokens: {len(tokens)} documents, the references {n_docs}")
    if texts is not None:
        texts = as_corpus(texts, "texts")
        if len(texts) != n_docs:
            raise ValueError(f"texts: {len(texts)} documents, the references {n_docs}")
    out = []
    for index, words in enumerate(tokens):
        if not isinstance(words, (list, tuple)) or not all(isinstance(w, str) and w for w in words):
            raise input_error("tokens", index, "expected a list of non-empty token strings")
        text = " ".join(words) if texts is None else texts[index]
        if not isinstance(text, str):
            raise input_error("texts", index, f"expected a str, got {type(text).__name__}")
        starts, at = [], 0
        for number, word in enumerate(words):
            found = text.find(word, at)
            if found < 0 or text[at:found].strip():
                raise input_error("tokens", index, f"token {number} {word!r} is not the next word of the text after character {at} (only white space may come between tokens)")
            starts.append(found)
            at = found + len(word)
        starts = np.array(starts, dtype=np.int64)
        out.append((starts, starts + [len(w) - 1 for w in words], text))
    return out


def _token_spans(spans, sizes, convention, n_tokens, offsets, argument, index):
    """(first token, last token) of each span of one document given in `convention`;
    n_tokens: the document's tokens when known. A span that cannot be what the convention
    says is an error naming the document and the cluster."""
    cluster = np.repeat(np.arange(len(sizes)), sizes)

    def refuse(bad, problem, hint=""):
        i = int(np.flatnonzero(bad)[0])
        raise input_error(argument, index, f"cluster {cluster[i]} holds {spans[i].tolist()}: {problem} (span_convention={convention!r}){hint}")

    start, end = spans[:, 0], spans[:, 1]
    if convention.endswith("exclusive"):
        if (end <= start).any():
            refuse(end <= start, "an end-exclusive span needs end > start", "; written with the end included? give that span_convention")
        end = end - 1
    if offsets is not None:
        first, last, text = offsets
        at_start, at_end = np.searchsorted(first, start).clip(0, len(first) - 1), np.searchsorted(last, end).clip(0, len(last) - 1)
        bad = (first[at_start] != start) | (last[at_end] != end) if len(first) else np.ones(len(start), dtype=bool)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            refuse(bad, f"characters {text[start[i] : end[i] + 1]!r} do not begin and end at token boundaries of document {index}'s text")
        start, end = at_start, at_end
    if n_tokens is not None and (end >= n_tokens).any():
        hint = "; written end-exclusive, or in characters (with tokens=)? give that span_convention" if convention.startswith("token") else ""
        refuse(end >= n_tokens, f"ends beyond the document's {n_tokens} tokens", hint)
    return start, end


def _readings(response, convention, tokens, texts):
    """{other span convention: (first, last, readable)} of the response's spans as written
    (token conventions: the end one less or more; characters: when tokens are given)."""
    if not convention.startswith("token"):
        return {}  # character spans off the token boundaries were refused already
    first, written = response.first, response.second + (convention == "token_exclusive")
    other = "token_exclusive" if convention == "token_inclusive" else "token_inclusive"
    last = written - (other == "token_exclusive")
    out = {other: (first, last, last >= first)}
    if tokens is None:
        return out
    try:
        offsets = _token_offsets(tokens, texts, response.n_docs)
    except ValueError:
        return out
    for name in ("char_exclusive", "char_inclusive"):
        end = written - (name == "char_exclusive")
        at_start, at_end, readable = np.zeros_like(first), np.zeros_like(first), np.zeros(len(first), dtype=bool)
        for d, (starts, ends, _) in enumerate(offsets):
            mine = np.flatnonzero(response.doc == d)
            if not len(mine) or not len(starts):
                continue
            i = np.searchsorted(starts, first[mine]).clip(0, len(starts) - 1)
            j = np.searchsorted(ends, end[mine]).clip(0, len(ends) - 1)
            at_start[mine], at_end[mine] = i, j
            readable[mine] = (starts[i] == first[mine]) & (ends[j] == end[mine]) & (j >= i)
        out[name] = (at_start, at_end, readable)
    return out


def check_span_reading(key, response, convention, tokens, texts, argument, option):
    """Refuse span predictions that another span convention reads far better; warn when
    it reads them somewhat better, or when they fit no convention (see MISREAD_GAIN).
    argument names the predictions in messages; option says how to give a convention
    there, "{best}" standing for its name."""
    n = len(response.doc)
    if not n or not len(key.doc):
        return
    hits = isin(*_codes(response, key))
    found = {}
    for name, (first, last, readable) in _readings(response, convention, tokens, texts).items():
        found[name] = isin(*_codes(response._replace(first=np.where(readable, first, 0), second=np.where(readable, last, 0)), key)) & readable  # unreadable: masked
    best = max(found, key=lambda name: found[name].sum(), default=None)
    read, better = int(hits.sum()), int(found[best].sum()) if best else 0
    counts = f"{read} of the {n} predicted mentions are key mentions under span_convention={convention!r}" + "".join(f", {int(f.sum())} under {name!r}" for name, f in found.items())
    if n >= MIN_MISSING and max(read, better) < FIT_SHARE * n:
        chars = "" if tokens is not None else " (give span_convention='char_exclusive' or 'char_inclusive' with tokens=)"
        warnings.warn(f"{argument}: {counts}: fewer than {FIT_SHARE:.0%} under any reading. Are they character offsets{chars}, or positions over other tokens than the key's?", UserWarning, stacklevel=4)
    elif better - read >= WARN_GAIN and better >= MISREAD_RATIO * read:
        i = int(np.flatnonzero(found[best] & ~hits)[0])
        place, index = response.where[response.doc[i]]
        example = f"{place}{'' if index is None else f'[{index}]'} cluster {int(response.entity[i] - response.entity[response.doc == response.doc[i]].min())}"
        give = option.format(best=best)
        if better - read >= MISREAD_GAIN:
            raise ValueError(f"{argument}: {counts} ({example} holds one that only {best!r} makes a key mention): they are written in {best!r}; give {give}")
        warnings.warn(f"{argument}: {counts} ({example} holds one that only {best!r} makes a key mention): if they are written in {best!r}, give {give}", UserWarning, stacklevel=4)


def _string_documents(examples, argument, span_convention="token_inclusive"):
    """Per example its Document when it is a string (None for clusters): jsonlines lines
    one by one (their spans in span_convention), CoNLL strings together (parse_conll_examples)."""
    out = [None] * len(examples)
    conll = []
    for index, example in enumerate(examples):
        if isinstance(example, str):
            if example.lstrip()[:1] == "{":
                [out[index]] = _one_document(example, argument, index, span_convention)
            else:
                conll.append(index)
    for index, document in zip(conll, parse_conll_examples([examples[i] for i in conll], argument)):
        out[index] = document
    return out


def check_span_convention(span_convention):
    """{"predictions": convention, "references": convention} from one name for both sides
    or a (predictions, references) pair of names."""
    pair = (span_convention,) * 2 if isinstance(span_convention, str) else span_convention
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        raise ValueError(f"span_convention: expected a name or a (predictions, references) pair of names, got {span_convention!r}")
    for name in pair:
        check_choice("span_convention", name, tuple(SPAN_CONVENTIONS))
    return dict(zip(("predictions", "references"), pair))


def read_examples(predictions, references, span_convention="token_inclusive", tokens=None, texts=None, check_reading=True):
    """(key, response) Sides for compute()'s inputs, after check_inputs. Clusters of spans
    are read in span_convention (character conventions: over `texts`, mapped to `tokens`);
    span predictions another convention reads far better are refused (check_span_reading;
    check_reading=False: spans a parser placed, whose convention is known)."""
    forms = check_inputs(predictions, references)
    conventions = check_span_convention(span_convention)
    predictions, references = as_corpus(predictions, "predictions"), as_corpus(references, "references")
    sides = {}
    if "ids" in forms:
        tables = [{} for _ in references]
        for argument, examples in (("references", references), ("predictions", predictions)):
            parts = []
            for table, example in zip(tables, examples):
                ids = [table.setdefault(mention, len(table)) for cluster in example for mention in cluster]
                sizes = [len(cluster) for cluster in example]
                parts.append((ids, np.zeros(len(ids)), np.repeat(np.arange(len(sizes)), sizes)))
            labels = [list(table) for table in tables]
            sides[argument] = _side(parts, [(argument, i) for i in range(len(examples))], labels)
        return sides["references"], sides["predictions"]
    arguments = {"references": references, "predictions": predictions}
    documents = {argument: _string_documents(examples, argument, conventions[argument]) for argument, examples in arguments.items()}
    # Character offsets of clusters need tokens (a jsonlines line has its own).
    clustered = [a for a, examples in arguments.items() if conventions[a].startswith("char") and any(d is None for d in documents[a])]
    offsets = _token_offsets(tokens, texts, len(references)) if clustered else None
    n_tokens = [d.n_tokens if d else None for d in documents["references"]]
    n_tokens = [n if n is not None else (d.n_tokens if d else None) for n, d in zip(n_tokens, documents["predictions"])]
    if tokens is not None:
        n_tokens = [n if n is not None else len(words) for n, words in zip(n_tokens, as_corpus(tokens, "tokens"))]
    for argument, examples in arguments.items():
        parts = []
        for index, (example, document) in enumerate(zip(examples, documents[argument])):
            if document is not None:
                parts.append(document[2:5])
            else:
                spans = np.array([m for cluster in example for m in cluster], dtype=np.int64).reshape(-1, 2)
                sizes = [len(cluster) for cluster in example]
                convention = conventions[argument]
                found = offsets[index] if convention.startswith("char") else None
                first, last = _token_spans(spans, sizes, convention, n_tokens[index], found, argument, index)
                parts.append((first, last, np.repeat(np.arange(len(sizes)), sizes)))
        sides[argument] = _side(parts, [(argument, i) for i in range(len(examples))])
    if check_reading and (forms[0] == "spans" or any(d is not None and d.words is not None for d in documents["predictions"])):  # spans, or jsonlines
        option = f"span_convention=({{best!r}}, {conventions['references']!r})"
        check_span_reading(sides["references"], sides["predictions"], conventions["predictions"], tokens, texts, "predictions", option)
    return sides["references"], sides["predictions"]


# ---------------------------------------------------------------------------------------
# coval's mention options (ns-moosavi/coval 87071a6, conll/reader.py and conll/mention.py),
# applied to both sides before scoring, in coval's order: singletons removed first (when
# keep_singletons is False), then NP_only and min_span, then remove_nested. NP_only and
# min_span read the key's gold parse: CoNLL columns 4 to 6 (word, part of speech, parse bit).

MENTION_OPTIONS = ("remove_nested", "NP_only", "min_span")
# Per token of a key document: its sentence (groups of non-blank lines), its position
# there, its word, part of speech and parse bit.
Parse = namedtuple("Parse", "sentence index words tags bits")


def document_parse(lines, where):
    """A key document's Parse from its body [(1-based line number, line)]; a line without a
    parse bit (a sixth column holding "*") is an error naming it."""
    sentence, index, words, tags, bits = [], [], [], [], []
    number, at = 0, 0
    for line_number, line in lines:
        fields = line.split()
        if not fields:
            number, at = number + (at > 0), 0
            continue
        if len(fields) < 7 or "*" not in fields[5]:
            found = repr(fields[5]) if len(fields) > 5 else f"{len(fields)} columns"
            raise ValueError(f"{where}: NP_only and min_span need the key's parse trees (CoNLL column 6, such as '(NP*'); line {line_number} has {found}")
        sentence.append(number)
        index.append(at)
        words.append(fields[3])
        tags.append(fields[4])
        bits.append(fields[5])
        at += 1
    return Parse(sentence, index, words, tags, bits)


def conll_parses(text, source, whole=False):
    """{document name: Parse} of a CoNLL text's documents (None names a text without
    #begin document when whole=True)."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    lines = data.decode("utf-8", "replace").split("\n")
    out = {}
    for name, low, high in _documents(data, _newlines(data), source, whole):
        where = source if name is None else f"{source} document {name!r}"
        out[name] = document_parse([(i + 1, lines[i]) for i in range(low, min(high, len(lines)))], where)
    return out


class _Node:
    """A node of the tree coval builds from a mention's parse bits: a phrase (tag) or
    terminal words (tag: the words joined by spaces, pos: their parts of speech)."""

    __slots__ = ("tag", "pos", "index", "terminal", "children")

    def __init__(self, tag, pos, index, terminal):
        self.tag, self.pos, self.index, self.terminal, self.children = tag, pos, index, terminal, []


def _span_tree(words, tags, bits, start):
    """The tree coval reads from the parse bits of a mention's own tokens (its
    extract_annotated_parse): start is the mention's first position in its sentence.
    Words met since the last bracket make one terminal node; before an opening bracket
    they are kept only if one of them is all letters or all digits."""
    stack, roots, root = [], [], None
    name, named, pending, pending_tags = "", False, [], []

    def add(node, push):
        had = bool(stack)
        if had:
            stack[-1].children.append(node)
        if push or not had:
            stack.append(node)

    def flush(i, filtered):
        nonlocal pending, pending_tags
        if pending and (not filtered or any(w.isalpha() or w.isdigit() for w in pending)):
            add(_Node(" ".join(pending), pending_tags, start + i, True), False)
        pending, pending_tags = [], []

    for i, bit in enumerate(bits):
        for j, c in enumerate(bit):
            if c == "(":
                if named:
                    add(_Node(name, None, start + i, False), True)
                    name = ""
                flush(i, True)
                named = True
            elif c == "*":
                pending.append(words[i])
                pending_tags.append(tags[i])
                node = _Node(name, None, start + i, False)
                if named:
                    add(node, True)
                    name, named = "", False
                elif name:
                    roots.append(node)
            elif c == ")":
                flush(i, False)
                if stack:
                    root = stack.pop()
                    if not stack:
                        roots.append(root)
                named = False
            elif c.isalpha():
                name += c
            if i == len(bits) - 1 and j == len(bit) - 1:
                flush(i, False)
    while stack:  # phrases left open by the span's end
        root = stack.pop()
        if not stack:
            roots.append(root)
    if len(roots) > 1:
        root = _Node("NP", None, start, False)
        root.children = roots
    return root


_NP_TAGS = ("NP", "NM", "QP", "NX")


def _valid_word(tag, pos):
    """A terminal that can be a minimum span: a word with a letter or digit (or "%"), not
    a bracket, not a conjunction, determiner or preposition; of several words, any one."""
    words = tag.split()
    if len(words) != 1:
        return any(_valid_word(word, [p]) for word, p in zip(words, pos))
    return (any(c.isalpha() or c.isdigit() for c in tag) or tag == "%") and tag not in ("-LRB-", "-RRB-") and pos[0] not in ("CC", "DT", "IN")


def _phrase_tags(root):
    """The phrase tags a minimum span is searched through: VP under a verb phrase, the
    NP-like ones otherwise (coval's get_valid_tags); None for a tree of one node."""
    head = root.tag[:2]
    if head == "VP":
        return ("VP",)
    if head in ("NP", "NM"):
        return _NP_TAGS
    if not root.children:
        return None
    heads = {node.tag[:2] for node in root.children}
    return ("VP",) if "VP" in heads and not heads & {"NP", "NM"} else _NP_TAGS


def _shallowest(root, tags, spans):
    """Add to `spans` the valid terminals at the least depth, breadth first, descending
    only through phrases of `tags` (None: the tags of the first NP- or VP-like node met)."""
    learn = tags is None
    best, queue = math.inf, deque([(root, 0)])
    while queue:
        node, depth = queue.popleft()
        if learn and not tags:
            tags = _NP_TAGS if node.tag[:2] in ("NP", "NM") else ("VP",) if node.tag[:2] == "VP" else None
        if node.terminal and depth <= best:
            if _valid_word(node.tag, node.pos):
                spans.add((node.tag, node.index))
                best = min(best, depth)
        elif (not spans or depth < best) and node.children and (depth == 0 or not tags or node.tag[:2] in tags):
            inside = bool(tags) and node.tag[:2] in tags
            queue.extend((child, depth + 1) for child in node.children if not child.terminal or inside)


def _min_span(root, words):
    """coval's minimum span of a mention (Mention.set_min_span): a set of (terminal words,
    position in the sentence); when no word qualifies, the mention's words with their
    positions in the mention, as coval has it. None without a tree."""
    if root is None:
        return None
    spans, tags = set(), _phrase_tags(root)
    phrases = []
    if root.terminal and _valid_word(root.tag, root.pos):
        spans.add((root.tag, root.index))
    elif root.children:
        spans.update((node.tag, node.index) for node in root.children if node.terminal and _valid_word(node.tag, node.pos))
        if not spans:
            phrases = [node for node in root.children if node.children and node.tag[:2] in tags]
    if spans:
        return spans
    if phrases:
        for node in phrases:
            _shallowest(node, tags, spans)
    else:
        _shallowest(root, None, spans)
    return spans or {(word, i) for i, word in enumerate(words)}


def _cover(first, last, parse, where, cluster):
    """(tree, sentence, position) of a mention over the key's parse."""
    if last >= len(parse.sentence):
        raise ValueError(f"{where}: cluster {cluster} holds [{first}, {last}], beyond the key's {len(parse.sentence)} parsed tokens")
    if parse.sentence[first] != parse.sentence[last]:
        raise ValueError(f"{where}: cluster {cluster} holds [{first}, {last}], which crosses a sentence boundary; NP_only and min_span read a mention's tree within its sentence")
    start = parse.index[first]
    return _span_tree(parse.words[first : last + 1], parse.tags[first : last + 1], parse.bits[first : last + 1], start), parse.sentence[first]


def _coval_clusters(clusters, parse, options, keep_singletons, where):
    """One side of one document under coval's options: clusters of (first, last) in, clusters
    of (first, last, identity) out; identity is the span, or under min_span the sentence
    and the minimum span."""
    if not keep_singletons:
        clusters = [c for c in clusters if len(c) > 1]
    out = []
    for number, cluster in enumerate(clusters):
        kept, lost = [], False
        for first, last in cluster:
            identity = (first, last)
            if options["NP_only"] or options["min_span"]:
                tree, sentence = _cover(first, last, parse, where, number)
                if options["min_span"]:
                    found = _min_span(tree, parse.words[first : last + 1])
                    identity = identity if found is None else (sentence, frozenset(found))
                if options["NP_only"] and tree is not None and tree.tag == "VP":
                    lost = True
                    continue
            kept.append((first, last, identity))
        if lost and len(kept) <= 1:  # a chain that lost a verb phrase goes if it has no link left
            continue
        out.append(kept)
    if options["remove_nested"]:
        out = [c for c in (_without_nested(c, keep_singletons) for c in out) if c]
    return out


def _without_nested(cluster, keep_singletons):
    """coval's remove_nested on one cluster: each pair of different mentions, one inside the
    other, marks the inner one (a mention can be marked more than once). When the marks
    would leave exactly one mention, the cluster stays as it is (keep_singletons) or goes;
    otherwise every marked mention goes. Nesting is by token positions in the document
    (coval's within a sentence: the same unless a mention crosses a sentence boundary)."""
    marks = []
    for i, (s, e, a) in enumerate(cluster):
        for t, f, b in cluster[i + 1 :]:
            if a == b:
                continue
            if t <= s and e <= f:
                marks.append(a)
            elif s <= t and f <= e:
                marks.append(b)
    if len(cluster) != 1 and len(cluster) - len(marks) == 1:
        return cluster if keep_singletons else []
    return [m for m in cluster if m[2] not in marks]


def _by_document(side):
    """Per document, its clusters of (first, second) as lists."""
    bounds = np.searchsorted(side.doc, np.arange(side.n_docs + 1)).tolist()
    out = []
    for low, high in zip(bounds, bounds[1:]):
        entity, first, second = side.entity[low:high].tolist(), side.first[low:high].tolist(), side.second[low:high].tolist()
        clusters = {}
        for e, f, s in zip(entity, first, second):
            clusters.setdefault(e, []).append((f, s))
        out.append(list(clusters.values()))
    return out


def apply_mention_options(key, response, parses, keep_singletons=True, remove_nested=False, NP_only=False, min_span=False):
    """(key, response) Sides under coval's options, singletons already removed when
    keep_singletons is False (score them with keep_singletons=True). parses: per document
    the key's Parse (needed for NP_only and min_span). Under min_span a mention is its
    sentence and minimum span: two key mentions with the same one are an error naming them."""
    options = dict(remove_nested=remove_nested, NP_only=NP_only, min_span=min_span)
    if key.labels is not None:
        raise ValueError(f"{', '.join(name for name, value in options.items() if value)}: coval's options read mentions as token spans, not mention ids")
    parts = {"key": [], "response": []}
    for d, (key_clusters, response_clusters) in enumerate(zip(_by_document(key), _by_document(response))):
        table = {}
        for side, clusters in (("key", key_clusters), ("response", response_clusters)):
            where = _where(key if side == "key" else response, d)
            found = _coval_clusters(clusters, parses[d] if parses else None, options, keep_singletons, where)
            first, second, entity = [], [], []
            for number, cluster in enumerate(found):
                for s, e, identity in cluster:
                    code = table.setdefault(identity, len(table)) if min_span else None
                    first.append(s if code is None else code)
                    second.append(e if code is None else 0)
                    entity.append(number)
            if side == "key" and min_span:
                spans = {}
                for cluster in found:
                    for s, e, identity in cluster:
                        other = spans.setdefault(identity, (s, e))
                        if other != (s, e):
                            raise ValueError(f"{where}: mentions {list(other)} and {[s, e]} have the same minimum span under min_span, so the key would hold one mention twice")
            parts[side].append(tuple(np.array(values, dtype=np.int64) for values in (first, second, entity)))
    return _side(parts["key"], key.where, key.labels), _side(parts["response"], response.where, response.labels)


def _where(side, d):
    """The words naming document d of a side in errors."""
    argument, index = side.where[d]
    return argument if index is None else f"{argument}[{index}]"


# ---------------------------------------------------------------------------------------
# Statistics per document


def _codes(key, response):
    """One int64 per mention, equal for equal (document, first, second) on both sides."""
    both = [np.concatenate((key.doc, response.doc)), np.concatenate((key.first, response.first)), np.concatenate((key.second, response.second))]
    spans = [int(a.max()) + 1 if len(a) else 1 for a in both[1:]]
    if key.n_docs * spans[0] * spans[1] < 2**62:
        code = (both[0] * spans[0] + both[1]) * spans[1] + both[2]
    else:
        code = np.unique(np.stack(both, 1), axis=0, return_inverse=True)[1].reshape(-1)
    return code[: len(key.doc)], code[len(key.doc) :]


def _check_key(key, code):
    """A span may be in the key once (the reference would keep its last entity silently)."""
    order = np.argsort(code, kind="stable")
    again = order[1:][code[order][1:] == code[order][:-1]]
    if len(again):
        second = int(again.min())
        first = int(order[np.searchsorted(code[order], code[second])])
        d = key.doc[second]
        base = key.entity[key.doc == d].min()
        entities = key.entity[first] - base, key.entity[second] - base
        label = f"mention {key.labels[d][key.first[second]]!r}" if key.labels else f"mention [{key.first[second]}, {key.second[second]}]"
        problem = f"is twice in entity {entities[0]}" if entities[0] == entities[1] else f"is in two entities ({entities[0]} and {entities[1]})"
        raise input_error(*key.where[d], f"{label} {problem}")


def _response_links(chains):
    """BLANC's response coreference and non-coreference link counts for one document whose
    twinless mentions repeat. The reference collects links as sets of mention pairs, so a
    mention in several entities gives each pair once, and a pair (x, x) when x repeats."""
    chains_of = {}
    repeated = set()
    for number, chain in enumerate(chains):
        counts = Counter(chain)
        repeated.update(m for m, n in counts.items() if n > 1)
        for mention in counts:
            chains_of.setdefault(mention, set()).add(number)
    multi = {m for m, where in chains_of.items() if len(where) > 1}
    singles = [len(set(chain) - multi) for chain in chains]  # mentions of this entity alone
    shared = [set(chain) & multi for chain in chains]
    n_single, n_multi = len(chains_of) - len(multi), len(multi)
    within = sum(s * (s - 1) // 2 for s in singles)
    sharing = {frozenset(p) for group in shared for p in itertools.combinations(group, 2)}
    coreference = within + sum(s * len(m) for s, m in zip(singles, shared)) + len(sharing) + len(repeated)
    non_coreference = n_single * (n_single - 1) // 2 - within + n_single * n_multi + n_multi * (n_multi - 1) // 2 + n_multi
    return coreference, non_coreference


def _ceaf(n_docs, pair_doc, pk, pr, overlap, key_size, response_size, show_progress):
    """CEAFm and CEAFe numerators per document: the best one-to-one alignment of key and
    response entities under |K∩R| and 2|K∩R|/(|K|+|R|). Only entities that share a mention
    score above 0, so the alignment is solved on each connected component of the pairs
    that do (pk, pr: the pairs, sorted by key entity): a pair whose entities share mentions
    with no other entity is aligned as it is, a component with one entity on a side takes
    its best pair, and the other components go to scipy. A document's sum is math.fsum of
    its aligned values (exact, whatever the order the components come in)."""
    values = overlap, 2 * overlap / (key_size[pk] + response_size[pr])
    chosen = [np.zeros(len(pk), dtype=bool) for _ in values]
    key_degree = np.bincount(pk, minlength=len(key_size))[pk]
    response_degree = np.bincount(pr, minlength=len(response_size))[pr]
    # A key entity whose pairs' response entities share mentions with it alone (a star
    # around it; a lone pair is the star of one), and the same the other way round.
    key_star = np.zeros(len(key_size), dtype=bool)
    key_star[pk] = True
    key_star[pk[response_degree > 1]] = False
    response_star = np.zeros(len(response_size), dtype=bool)
    response_star[pr] = True
    response_star[pr[key_degree > 1]] = False
    for owner, star in ((pk, key_star[pk]), (pr, response_star[pr] & ~key_star[pk])):
        for value, keep in zip(values, chosen):
            _best_in_groups(owner, star, value, keep)
    rest = np.flatnonzero(~(key_star[pk] | response_star[pr]))
    if len(rest):
        _align_components(rest, pk, pr, values, chosen, show_progress)
    sums = []
    for value, keep in zip(values, chosen):
        aligned = value[keep].tolist()
        bounds = np.searchsorted(pair_doc[keep], np.arange(n_docs + 1)).tolist()
        sums.append(np.array([math.fsum(aligned[low:high]) for low, high in zip(bounds, bounds[1:])], dtype=float))
    return sums


def _best_in_groups(owner, member, value, keep):
    """Mark in `keep` the pair of highest value (the first of equal ones) among the member
    pairs of each owner entity."""
    at = np.flatnonzero(member)
    if not len(at):
        return
    order = at[np.lexsort((-value[at], owner[at]))]
    first = np.concatenate(([True], owner[order][1:] != owner[order][:-1]))
    keep[order[first]] = True


# A component with more key x response entity cells than this is aligned on its sparse
# pairs (scipy's min_weight_full_bipartite_matching) instead of a dense matrix (8 bytes a cell).
DENSE_CELLS = 4_000_000


def _align_components(rest, pk, pr, values, chosen, show_progress):
    """Align each connected component of the pairs `rest` optimally, marking `chosen`."""
    from scipy.optimize import linear_sum_assignment
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    keys, row = np.unique(pk[rest], return_inverse=True)
    responses, column = np.unique(pr[rest], return_inverse=True)
    row, column = row.reshape(-1), column.reshape(-1)
    graph = coo_matrix((np.ones(len(rest)), (row, len(keys) + column)), shape=(len(keys) + len(responses),) * 2)
    _, label = connected_components(graph, directed=False)
    order = np.argsort(label[row], kind="stable")  # by component, then by key entity
    bounds = np.flatnonzero(np.diff(np.concatenate(([-1], label[row][order], [-1]))))
    groups = list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))
    for low, high in progress(groups, len(groups), "CEAF") if show_progress else groups:
        pairs = rest[order[low:high]]
        rows, r = np.unique(pk[pairs], return_inverse=True)
        columns, c = np.unique(pr[pairs], return_inverse=True)
        r, c = r.reshape(-1), c.reshape(-1)
        for value, keep in zip(values, chosen):
            if len(rows) * len(columns) <= DENSE_CELLS:
                similarity = np.zeros((len(rows), len(columns)))
                similarity[r, c] = value[pairs]
                best = linear_sum_assignment(similarity, maximize=True)
                picked = np.zeros(similarity.shape, dtype=bool)
                picked[best] = True
                keep[pairs[picked[r, c]]] = True
            else:
                keep[pairs[_sparse_alignment(r, c, value[pairs], len(rows), len(columns))]] = True


def _sparse_alignment(r, c, value, n_rows, n_columns):
    """Which pairs (r, c) of values in (0, 1] or counts a maximum-weight matching takes, in memory
    linear in the pairs: each row also gets a column of its own at cost `top` (standing
    for "unmatched"), a pair costs top - value, and a full matching of least cost is a
    matching of greatest weight."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    top = float(value.max()) + 1
    rows = np.concatenate((r, np.arange(n_rows)))
    columns = np.concatenate((c, n_columns + np.arange(n_rows)))
    costs = np.concatenate((top - value, np.full(n_rows, top)))
    matrix = csr_matrix((costs, (rows, columns)), shape=(n_rows, n_columns + n_rows))
    match = np.full(n_rows, -1)
    found_rows, found_columns = min_weight_full_bipartite_matching(matrix)
    match[found_rows] = found_columns
    return match[r] == c


def statistics(key, response, metrics=METRICS, keep_singletons=True, show_progress=False):
    """{metric: array (n_docs, WIDTH[metric])} of per-document numerators and denominators.
    keep_singletons: for both sides, or a (key, response) pair."""
    n = key.n_docs
    key_code, response_code = _codes(key, response)
    _check_key(key, key_code)
    keep_key, keep_response = (keep_singletons, keep_singletons) if isinstance(keep_singletons, bool) else keep_singletons
    if not keep_key:
        kept = np.bincount(key.entity)[key.entity] > 1
        key, key_code = _keep(key, kept), key_code[kept]
    if not keep_response:
        kept = np.bincount(response.entity)[response.entity] > 1
        response, response_code = _keep(response, kept), response_code[kept]
    key_order = np.argsort(key_code, kind="stable")
    key_sorted = key_code[key_order]
    # Response mentions on key spans; a key span met again is dropped from its later entity.
    at = np.searchsorted(key_sorted, response_code).clip(0, max(len(key_sorted) - 1, 0))
    matched = key_sorted[at] == response_code if len(key_sorted) else np.zeros(len(response_code), dtype=bool)
    on_key = np.flatnonzero(matched)
    keep = ~matched
    keep[on_key[np.unique(response_code[on_key], return_index=True)[1]]] = True
    if not keep.all():
        response, response_code, matched, at = _keep(response, keep), response_code[keep], matched[keep], at[keep]
    key_size, response_size = np.bincount(key.entity).astype(float), np.bincount(response.entity).astype(float)
    key_doc, response_doc = _entity_docs(key), _entity_docs(response)
    # Overlap counts |K ∩ R| of every key entity K and response entity R that share a mention.
    n_response = max(len(response_size), 1)
    pairs, overlap = np.unique(key.entity[key_order[at[matched]]] * n_response + response.entity[matched], return_counts=True)
    pk, pr, overlap = pairs // n_response, pairs % n_response, overlap.astype(float)
    pair_doc = key_doc[pk]

    def total(docs, weights=None):
        return np.bincount(docs, weights, minlength=n).astype(float)

    def links(size):
        return size * (size - 1) / 2

    found = total(pair_doc, overlap)  # mentions found, per document
    n_key, n_response_mentions = total(key.doc), total(response.doc)
    out = {}
    if "mentions" in metrics:
        twinless = np.unique(response_code[~matched], return_index=True)[1]
        distinct = found + total(response.doc[~matched][twinless])
        out["mentions"] = np.stack((found, n_key, found, distinct), 1)
    if "muc" in metrics:
        correct = found - total(pair_doc)
        out["muc"] = np.stack((correct, n_key - total(key_doc), correct, n_response_mentions - total(response_doc)), 1)
    if "bcub" in metrics:
        square = overlap * overlap
        out["bcub"] = np.stack((total(pair_doc, square / key_size[pk]), n_key, total(pair_doc, square / response_size[pr]), n_response_mentions), 1)
    if "ceafm" in metrics or "ceafe" in metrics:
        mention, entity = _ceaf(n, pair_doc, pk, pr, overlap, key_size, response_size, show_progress)
        out["ceafm"] = np.stack((mention, n_key, mention, n_response_mentions), 1)
        out["ceafe"] = np.stack((entity, total(key_doc), entity, total(response_doc)), 1)
    if "lea" in metrics:
        # Each entity weighs its size times the share of its links that the other side
        # keeps; a singleton's one "link" is kept when its mention is a singleton there too.
        singles = total(pair_doc[(key_size[pk] == 1) & (response_size[pr] == 1)])
        kept = links(overlap)
        lea = []
        for size, entity_doc, side in ((key_size, key_doc, pk), (response_size, response_doc, pr)):
            share = np.bincount(side, kept, minlength=len(size)) / np.maximum(links(size), 1)
            lea.append(total(entity_doc, size * share) + singles)
        out["lea"] = np.stack((lea[0], n_key, lea[1], n_response_mentions), 1)
    if "blanc" in metrics:
        key_links = total(key_doc, links(key_size))
        response_links = total(response_doc, links(response_size))
        response_non_links = links(n_response_mentions) - response_links
        twinless_code = response_code[~matched]
        values, counts = np.unique(twinless_code, return_counts=True)
        # each document once, counted: numpy >= 2.3's plain np.unique imports numpy.ma (11 ms)
        for d in np.flatnonzero(np.bincount(response.doc[~matched][isin(twinless_code, values[counts > 1])])):
            in_doc = response.doc == d
            chains = np.split(response_code[in_doc], np.flatnonzero(np.diff(response.entity[in_doc])) + 1)
            response_links[d], response_non_links[d] = _response_links([c.tolist() for c in chains])
        right = total(pair_doc, links(overlap))
        # Non-coreference links kept: pairs of found mentions in different key entities
        # and different response entities (inclusion-exclusion over the overlaps).
        per_key = np.bincount(pk, overlap, minlength=len(key_size))
        per_response = np.bincount(pr, overlap, minlength=len(response_size))
        right_non = links(found) - total(key_doc, links(per_key)) - total(response_doc, links(per_response)) + right
        out["blanc"] = np.stack((right, key_links, right, response_links, right_non, links(n_key) - key_links, right_non, response_non_links), 1)
    return {metric: out[metric] for metric in metrics}


# ---------------------------------------------------------------------------------------
# Scores from summed statistics


def _blanc(part, zero_division):
    """BLANC from its eight link counts: the mean of the coreference-link and
    non-coreference-link R, P and F, or the one part the key has links for."""
    right, key_links, _, response_links, right_non, key_non, _, response_non = np.moveaxis(part, -1, 0)
    recall = divide(right, key_links, zero_division), divide(right_non, key_non, zero_division)
    precision = divide(right, response_links, zero_division), divide(right_non, response_non, zero_division)
    f1 = harmonic_mean(precision[0], recall[0]), harmonic_mean(precision[1], recall[1])
    has = key_links > 0, key_non > 0
    empty = check_zero_division(zero_division)

    def mean(pair):
        return np.where(has[0] & has[1], (pair[0] + pair[1]) / 2, np.where(has[0], pair[0], np.where(has[1], pair[1], empty)))

    return mean(recall), mean(precision), mean(f1)


def scores(totals, metrics, zero_division=0.0):
    """Recall, precision and F1 of each metric (and the CoNLL score) from statistics
    summed over documents, shape (..., sum of WIDTH[m] for m in metrics)."""
    out = {}
    at = 0
    for metric in metrics:
        part = totals[..., at : at + WIDTH[metric]]
        at += WIDTH[metric]
        if metric == "blanc":
            recall, precision, f1 = _blanc(part, zero_division)
        else:
            recall = divide(part[..., 0], part[..., 1], zero_division)
            precision = divide(part[..., 2], part[..., 3], zero_division)
            f1 = harmonic_mean(precision, recall)
        out.update({f"{metric}_recall": recall, f"{metric}_precision": precision, f"{metric}_f1": f1})
    if all(m in metrics for m in CONLL):
        out["conll_f1"] = (out["muc_f1"] + out["bcub_f1"] + out["ceafe_f1"]) / 3
    return out


def _counts(totals, metrics):
    """{metric: {"recall": [numerator, denominator], "precision": [...]}} (BLANC: both link kinds)."""
    out, at = {}, 0
    for metric in metrics:
        names = COUNT_NAMES.get(metric, ("recall", "precision"))
        values = totals[at : at + WIDTH[metric]].tolist()
        out[metric] = {name: values[2 * i : 2 * i + 2] for i, name in enumerate(names)}
        at += WIDTH[metric]
    return out


def check_metrics(metrics):
    """A tuple of metric names from None (the six metrics), "all", one name or a list."""
    if metrics is None or (isinstance(metrics, str) and metrics == "all"):
        return METRICS
    if not isinstance(metrics, (str, list, tuple)):
        raise ValueError(f"metrics: expected a metric name or a list of names, got {type(metrics).__name__}")
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise ValueError("metrics: no metric named")
    for name in names:
        check_choice("metrics", name, CHOICES)
    return tuple(dict.fromkeys(names))


# kentonl/e2e-coref's metrics.py (copied into SpanBERT, coref-hoi, s2e-coref, fastcoref and
# LingMess): per metric, whether it keeps the (key, response) singletons. B3 and LEA skip
# them on both sides, CEAFe drops the response's only, MUC cannot see them.
E2E_COREF = {"muc": (True, True), "bcub": (False, False), "ceafe": (True, False), "lea": (False, False)}
# Maverick's copy (SapienzaNLP/maverick-coref maverick/common/metrics.py): B3 and CEAFe keep
# singletons as the reference does, its LEA still skips them.
MAVERICK = {"muc": (True, True), "bcub": (True, True), "ceafe": (True, True), "lea": (False, False)}
# convention: which singletons each metric keeps (scorer_pl: keep_singletons for all).
SINGLETON_RULES = {"e2e_coref": E2E_COREF, "maverick": MAVERICK}
CONVENTIONS = ("scorer_pl", *SINGLETON_RULES)


def check_convention(convention, metrics, keep_singletons):
    """The metrics to score under `convention` (None: its default set)."""
    check_choice("convention", convention, CONVENTIONS)
    if convention == "scorer_pl":
        return check_metrics(metrics)
    rules = SINGLETON_RULES[convention]
    metrics = tuple(rules) if metrics is None else check_metrics(metrics)
    others = [m for m in metrics if m not in rules]
    if others:
        raise ValueError(f"metrics: convention={convention!r} has no {', '.join(others)}; it scores {', '.join(rules)}")
    if not keep_singletons:
        raise ValueError(f"keep_singletons: convention={convention!r} decides per metric which singletons count; leave keep_singletons True")
    return metrics


def _document_rows(key, response, metrics, keep_singletons, show_progress=False, convention="scorer_pl"):
    """statistics() as one row per document, the metrics' columns side by side."""
    if convention in SINGLETON_RULES:
        rules, stats = SINGLETON_RULES[convention], {}
        for keep in set(rules[m] for m in metrics):
            stats.update(statistics(key, response, [m for m in metrics if rules[m] == keep], keep, show_progress))
    else:
        stats = statistics(key, response, metrics, keep_singletons, show_progress)
    return np.concatenate([stats[m] for m in metrics], 1)


def _check_keep_singletons(keep_singletons):
    check_flags(keep_singletons=keep_singletons)
    return bool(keep_singletons)


def headline(**options):
    """What `paperscore compare` compares by default."""
    return family(**{name: value for name, value in options.items() if name in SCORING}).headline()


SCORING = ("metrics", "keep_singletons", "zero_division", "convention", "span_convention", "remove_nested", "NP_only", "min_span", "matching", "zero_matching", "parse", "strict")


def family(**options):
    """coref_conll's statistics (paperscore.family) for compute()'s scoring options."""
    return CorefFamily(scoring_options(compute, options, SCORING, "coref"))


class CorefFamily(Family):
    """coref's statistics: per document the numerators and denominators of each metric
    (WIDTH per metric). B3, CEAF and LEA numerators are fractional, so every column is a
    float64 sum, as compute sums them (whole counts exact below 2^53). Documents with
    `tokens=` (and `texts=` for character spans); coval's remove_nested, NP_only and
    min_span act within each document, as compute applies them. With parse=, model texts
    are placed on each document's tokens as compute places them, and the mentions a parser
    cannot place are counted (mentions_on_changed_text); a paired test can compare those
    counts (metric_key "mentions_on_changed_text"). CoNLL-U texts are corefud's (for_data;
    a coref state refuses them: use state.new("corefud", ...))."""

    name = "coref"
    inputs = ("tokens", "texts")
    REPORT = Family.REPORT + (("mentions_on_changed_text", "mentions_on_changed_text_examples"),)

    def __init__(self, options):
        o = options
        check_parser_options(o["parse"], o["strict"])
        o["keep_singletons"] = _check_keep_singletons(o["keep_singletons"])
        named = [o["metrics"]] if isinstance(o["metrics"], str) else list(o["metrics"]) if isinstance(o["metrics"], (list, tuple)) else []
        # corefud-scorer's own metrics, and partial or head matching: CoNLL-U only (for_data)
        self.conllu_only = o["matching"] != "exact" or any(m in corefud.ONLY_CONLLU for m in named)
        self.metrics = corefud.check_metrics(o["metrics"]) if self.conllu_only else check_convention(o["convention"], o["metrics"], o["keep_singletons"])
        check_span_convention(o["span_convention"]) if o["parse"] is None else parsed_span_convention(o["span_convention"])
        self.mention_options = check_mention_options(o["convention"], **{name: o[name] for name in MENTION_OPTIONS})
        o["zero_division"] = check_zero_division(o["zero_division"])
        check_choice("matching", o["matching"], corefud.MATCHING)
        check_choice("zero_matching", o["zero_matching"], corefud.ZERO_MATCHING)
        if o["parse"] is not None:
            o["parse"] = parser_id(get_parser(o["parse"], "coref"))
        super().__init__(o)
        self.counts = () if self.conllu_only else (False,) * sum(WIDTH[m] for m in self.metrics)

    def headline(self):
        return "conll_f1" if {"muc", "bcub", "ceafe"} <= set(self.metrics) else f"{self.metrics[0]}_f1"

    def for_data(self, predictions, references):
        if self.options["parse"] is None and corefud.takes(predictions, references, self.options["matching"]):
            return corefud.family_for_coref(self.options)
        return self

    def rows(self, predictions, references, tokens=None, texts=None):
        o = self.options
        if o["parse"] is None and (self.conllu_only or corefud.takes(predictions, references, "exact")):
            raise ValueError("predictions, references: CoNLL-U texts (CorefUD) are scored by corefud's own rows: use paperscore.state.new(\"corefud\", ...), with matching=\"exact\" and keep_singletons=True for what coref.compute gives them")
        span_convention, unplaced, report = tuple(o["span_convention"]) if isinstance(o["span_convention"], list) else o["span_convention"], None, None
        if o["parse"] is not None:
            predictions, unplaced, report, span_convention = _placed(predictions, references, o["parse"], o["strict"], tokens, span_convention, o["matching"], o["NP_only"] or o["min_span"])
        key, response = _sides(predictions, references, span_convention, tokens, texts, unplaced)
        if self.mention_options:  # within each document (the key's own parse trees), as compute applies them
            parses = _reference_parses(references) if o["NP_only"] or o["min_span"] else None
            key, response = apply_mention_options(key, response, parses, o["keep_singletons"], **self.mention_options)
        rows = _document_rows(key, response, self.metrics, o["keep_singletons"] or bool(self.mention_options), convention=o["convention"])
        compared = None if unplaced is None else {"mentions_on_changed_text": np.array([len(entities) for entities in unplaced], dtype=float)}
        return Batch(rows, report, None, compared)

    def reduce(self, totals, records=None):
        return scores(totals, self.metrics, self.options["zero_division"])


def score(
    key,
    response,
    metrics=METRICS,
    keep_singletons=True,
    zero_division=0.0,
    per_document=False,
    return_counts=False,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
    names=None,
    show_progress=False,
    convention="scorer_pl",
    mention_options=None,
):
    """compute() on Sides: the numbers, then the details asked for. mention_options: the
    coval options apply_mention_options applied (singletons then already removed)."""
    mention_options = mention_options or {}
    rows = _document_rows(key, response, metrics, keep_singletons or bool(mention_options), show_progress, convention)
    totals = rows.sum(0)
    result = as_floats(scores(totals, metrics, zero_division))
    if confidence_level is not None:
        distinct, counts = compress_rows(rows)
        result.update(bootstrap_intervals(counts, lambda weights: scores(weights @ distinct, metrics, zero_division), confidence_level, n_resamples, seed))
    if return_counts:
        result["counts"] = _counts(totals, metrics)
    if per_document:
        values = scores(rows, metrics, zero_division)
        labels = names if names is not None else range(key.n_docs)
        result["per_document"] = [{"document": label, **{k: float(v[d]) for k, v in values.items()}} for d, label in enumerate(labels)]
    if return_signature:
        options = bootstrap_options(confidence_level, n_resamples, seed)
        named = {"convention": convention} if convention != "scorer_pl" else {}
        result["signature"] = signature("coref_conll", **named, metrics=list(metrics), keep_singletons=keep_singletons, **mention_options, zero_division=zero_division, **options)
    return result


def compute(
    predictions,
    references,
    metrics=None,
    keep_singletons=True,
    zero_division=0.0,
    per_document=False,
    return_counts=False,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
    span_convention="token_inclusive",
    tokens=None,
    texts=None,
    convention="scorer_pl",
    remove_nested=False,
    NP_only=False,
    min_span=False,
    matching="exact",
    zero_matching="dependent",
    parse=None,
    strict=False,
):
    """MUC, B3, CEAFm, CEAFe, BLANC and LEA recall, precision and F1, and conll_f1, with
    numerators and denominators summed over documents as the reference scorer does.

    predictions, references: one item per document, each either a CoNLL-2011/2012
    document or an OntoNotes jsonlines line as one string (a prediction's jsonlines line
    is read from its predicted_clusters when it has them, as predict.py writes them), a
    list of clusters of mention ids (str), or a list of clusters of [start, end] spans.
    Strings and spans can be mixed; ids compare only with ids.
    span_convention: how [start, end] pairs count (see SPAN_CONVENTIONS): one name for
    both sides or a (predictions, references) pair: "token_inclusive" (default),
    "token_exclusive", "char_exclusive", "char_inclusive"; it applies to clusters of
    spans and to jsonlines lines (whose characters count in their tokens joined by spaces).
    A span that cannot be so (an end before its start, beyond the document's tokens, off
    the token boundaries) is an error naming the document and cluster; span predictions
    that another convention reads far better (MISREAD_GAIN more key mentions and
    MISREAD_RATIO times as many) are an error naming it, and a UserWarning when it reads
    them somewhat better or when they fit no convention (check_span_reading).
    tokens: for a character convention, per document the list of tokens the key's token
    positions count (and the bound of token spans when given).
    texts: per document the text the character offsets count in (default: the tokens
    joined by single spaces); each token must be the next word of the text.
    convention: "scorer_pl" (default, the reference), "e2e_coref", the evaluator of
    kentonl/e2e-coref's metrics.py that neural papers report (E2E_COREF): MUC, B3, CEAFe
    and LEA only, B3 and LEA without singletons, CEAFe without the response's; or
    "maverick", Maverick's copy (MAVERICK): MUC, B3, CEAFe as the reference, LEA without
    singletons.
    metrics: names among muc, bcub, ceafm, ceafe, blanc, lea and mentions (mention
    identification); default the six metrics. conll_f1 needs muc, bcub and ceafe.
    CorefUD CoNLL-U: among corefud-scorer's muc, bcub, ceafm, ceafe, blanc, lea, mor
    (Mention Overlap Ratio) and zero (zero anaphors); default all eight, as its -m all.
    keep_singletons: False removes entities of one mention from both sides first (coval's
    option); the reference keeps them.
    remove_nested, NP_only, min_span: coval's options (ns-moosavi/coval, as evaluate's
    coval names them), on both sides: remove_nested drops a mention nested in another
    mention of its cluster; NP_only drops verb-phrase mentions; min_span matches mentions
    by their minimum span. NP_only and min_span read the parse trees of the references,
    which must be CoNLL documents with their parse column (column 6).
    per_document: add "per_document", the numbers of each document.
    return_counts: add "counts", every numerator and denominator.
    matching, zero_matching: for CorefUD CoNLL-U texts (Entity= in MISC), read and scored as
    ufal/corefud-scorer v1.2 scores them (paperscore.corefud): matching "exact" (default),
    "partial" or "head"; zeros aligned "dependent" (default) or "linear".
    parse: "coref_markdown" or "coref_clusters" (paperscore.parse): predictions are model
    texts, read by that parser and placed on each document's source tokens: `tokens` when
    given, else the references' own (CoNLL-2012 or jsonlines strings). Mentions the
    parser cannot place (on text the model changed, an empty mention, a string with no
    unused occurrence, an item that is not a string) stay in their clusters as response
    mentions that match no key mention, in every metric, and are counted: rewriting text
    never scores above keeping it. The result adds "mentions_on_changed_text",
    "mentions_on_changed_text_examples", "parse_failures" and "parse_failure_examples";
    the signature names the parser; span_convention is then the references' alone.
    strict: either kind of failure is a ValueError.
    """
    check_parser_options(parse, strict)
    report = unplaced = None
    if parse is not None:
        predictions, unplaced, report, span_convention = _placed(predictions, references, parse, strict, tokens, span_convention, matching, NP_only or min_span)
    result = _compute(predictions, references, metrics, keep_singletons, zero_division, per_document, return_counts, confidence_level, n_resamples, seed, return_signature, span_convention, tokens, texts, convention, remove_nested, NP_only, min_span, matching, zero_matching, unplaced)
    if report is not None:
        result.update({name: value for name, value in report.items() if name != "parser"})
        if "signature" in result:  # the parser named before the version, as an option
            head, version = result["signature"].rsplit("|paperscore:", 1)
            result["signature"] = f"{head}|parse:{report['parser']}|paperscore:{version}"
    if "signature" in result and "|refs:" not in result["signature"]:  # CoNLL-U's (corefud.compute) names them already
        result["signature"] = with_references(result["signature"], references)
    return result


def _compute(predictions, references, metrics, keep_singletons, zero_division, per_document, return_counts, confidence_level, n_resamples, seed, return_signature, span_convention, tokens, texts, convention, remove_nested, NP_only, min_span, matching, zero_matching, unplaced=None):
    """compute() on documents (predictions already parsed; unplaced: split_unplaced's)."""
    if corefud.takes(predictions, references, matching):  # CorefUD CoNLL-U: paperscore.corefud
        return corefud.compute_for_coref(predictions, references, matching, zero_matching, convention, span_convention, tokens, texts, remove_nested=remove_nested, NP_only=NP_only, min_span=min_span, metrics=metrics, keep_singletons=keep_singletons, zero_division=zero_division, per_document=per_document, return_counts=return_counts, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed, return_signature=return_signature)
    zero_division = check_zero_division(zero_division)
    keep_singletons = _check_keep_singletons(keep_singletons)
    metrics = check_convention(convention, metrics, keep_singletons)
    chosen = check_mention_options(convention, remove_nested=remove_nested, NP_only=NP_only, min_span=min_span)
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples)
    key, response = _sides(predictions, references, span_convention, tokens, texts, unplaced)
    if chosen:
        parses = _reference_parses(references) if NP_only or min_span else None
        key, response = apply_mention_options(key, response, parses, keep_singletons, **chosen)
    return score(key, response, metrics, keep_singletons, zero_division, per_document, return_counts, confidence_level, n_resamples, seed, return_signature, convention=convention, mention_options=chosen)


def _sides(predictions, references, span_convention, tokens, texts, unplaced=None):
    """read_examples' key and response, with the mentions a parser could not place
    (unplaced: None unless the predictions were placed by a parser)."""
    key, response = read_examples(predictions, references, span_convention, tokens, texts, check_reading=unplaced is None)
    if unplaced is not None and any(unplaced):
        response = with_unplaced(key, response, unplaced)
    return key, response


def source_tokens(references, tokens):
    """Per document the tokens model text is placed on: `tokens` when given, else each
    reference's own: a jsonlines line's sentences, a CoNLL-2012 document's words (column 4
    of its token lines)."""
    references = as_corpus(references, "references")
    if tokens is not None:
        tokens = as_corpus(tokens, "tokens")
        check_same_length(tokens, references, ("tokens", "references"))
        for index, words in enumerate(tokens):
            if isinstance(words, str) or not all(isinstance(word, str) for word in words):
                raise input_error("tokens", index, "is not a list of token strings")
        return [list(words) for words in tokens]
    out = []
    for index, reference in enumerate(references):
        if not isinstance(reference, str) or corefud.is_conllu(reference):
            raise input_error("references", index, "parse needs the source tokens: give the references as CoNLL-2012 or jsonlines strings, or pass tokens=")
        if reference.lstrip()[:1] == "{":
            out.append(list(_jsonlines_document(load_json(reference, f"references[{index}]"), f"references[{index}]").words))
            continue
        words = []
        for number, line in enumerate(reference.split("\n"), 1):
            if line.strip() and not line.startswith("#"):
                columns = line.split()
                if len(columns) < 4:
                    raise input_error("references", index, f"line {number} has {len(columns)} columns; a CoNLL-2012 token line has its word in column 4")
                words.append(columns[3])
        found = _one_document(reference, "references", index)[0].n_tokens
        if len(words) != found:
            raise input_error("references", index, f"{len(words)} token lines with a word, but the CoNLL reader counts {found} tokens")
        out.append(words)
    return out


def _placed(predictions, references, parse, strict, tokens, span_convention="token_inclusive", matching="exact", parse_trees=False, argument="predictions"):
    """compute()'s reading of model texts, for compute and the coref family's rows alike:
    (clusters of placed token spans, per document the entity numbers of the mentions not
    placed (split_unplaced), the parse report, the span_convention to score with).
    parse_trees: NP_only or min_span was asked for (then no mention may be unplaced)."""
    items = references if isinstance(references, (list, tuple)) else [references]  # CoNLL-U may come as one text
    if matching != "exact" or any(corefud.is_conllu(r) for r in items):
        raise ValueError(f"parse: {parse!r} places model text on CoNLL-2012 or jsonlines references (or clusters with tokens=), not on CorefUD CoNLL-U with matching={matching!r}; score CoNLL-U output without parse")
    parser = get_parser(parse, "coref")
    clusters, report = parse_coref(as_corpus(predictions, argument), parser, source_tokens(references, tokens), bool(strict), argument)
    split = [split_unplaced(found) for found in clusters]
    placed, unplaced = [kept for kept, _ in split], [entities for _, entities in split]
    if any(unplaced) and parse_trees:
        first = next(index for index, entities in enumerate(unplaced) if entities)
        raise input_error(argument, first, f"NP_only and min_span read each mention's parse tree, and {len(unplaced[first])} mention(s) here are not on the source tokens (mentions_on_changed_text); score without those options, or with strict=True to see the first")
    return placed, unplaced, report, ("token_inclusive", parsed_span_convention(span_convention))


def parsed_span_convention(span_convention):
    """The references' span convention under parse= (the predictions are placed token spans)."""
    conventions = check_span_convention(span_convention)
    if not isinstance(span_convention, str) and conventions["predictions"] != "token_inclusive":
        raise ValueError(f"span_convention: with parse, predictions are model texts placed on tokens; give the references' convention alone, not {span_convention!r}")
    return conventions["references"]


def split_unplaced(clusters):
    """(the clusters of placed spans, without empty ones; per mention place_coref could not
    place (None), the number of its cluster among them, a cluster with none placed
    numbered after them)."""
    kept, counts, lost = [], [], []
    for cluster in clusters:
        spans = [span for span in cluster if span is not None]
        if spans:
            counts.append((len(kept), len(cluster) - len(spans)))
            kept.append(spans)
        else:
            lost.append(len(cluster))
    counts += [(len(kept) + i, count) for i, count in enumerate(lost)]
    return kept, [number for number, count in counts for _ in range(count)]


def with_unplaced(key, response, unplaced):
    """The response with each mention a parser could not place added to its entity (per
    document the numbers split_unplaced gives) on a one-token span of its own past every
    mention of either side, so that it matches no key mention in any metric."""
    start = 1 + max((int(a.max()) for a in (key.first, key.second, response.first, response.second) if len(a)), default=0)
    parts = []
    for d, entities in enumerate(unplaced):
        mine = response.doc == d
        local = response.entity[mine] - (response.entity[mine].min() if mine.any() else 0)
        extra = start + np.arange(len(entities), dtype=np.int64)
        parts.append((np.concatenate((response.first[mine], extra)), np.concatenate((response.second[mine], extra)), np.concatenate((local, np.asarray(entities, dtype=np.int64)))))
    return _side(parts, response.where, response.labels)


def check_mention_options(convention, **options):
    """{name: True} of coval's mention options asked for (each True or False)."""
    check_flags(**options)
    chosen = {name: True for name, value in options.items() if value}
    if chosen and convention != "scorer_pl":
        raise ValueError(f"{', '.join(chosen)}: coval's options apply to convention='scorer_pl' only, not {convention!r}")
    return chosen


def _reference_parses(references):
    """Per reference its Parse: each must be a CoNLL document string with a parse column."""
    parses = []
    for index, reference in enumerate(as_corpus(references, "references")):
        if not isinstance(reference, str) or reference.lstrip()[:1] == "{":
            raise input_error("references", index, "NP_only and min_span need the key's parse trees: give each reference as a CoNLL document string with its parse column (column 6)")
        parses.extend(conll_parses(reference, f"references[{index}]", whole=True).values())
    return parses


# ---------------------------------------------------------------------------------------
# Command line: paperscore coref KEY RESPONSE [--metric ...], a drop-in for scorer.pl

COMMAND = "coref"
HELP = "coreference: MUC, B3, CEAFm, CEAFe, BLANC, LEA and the CoNLL score, as the reference scorer.pl"


def add_options(parser):
    """The scoring options, shared by this command and `paperscore compare coref`."""
    parser.add_argument("--metric", choices=METRICS + corefud.ONLY_CONLLU + ("all",), default="all", help=f"score one metric (default all), as scorer.pl's first argument; {' and '.join(corefud.ONLY_CONLLU)} with --format conllu only (corefud-scorer's)")
    parser.add_argument("--remove-singletons", action="store_true", help="remove entities of one mention from both files first (coval's option; default: keep them, as scorer.pl)")
    parser.add_argument("--convention", choices=CONVENTIONS, default="scorer_pl", help="scorer_pl (default): the reference's rules; e2e_coref: kentonl/e2e-coref's metrics.py, which neural papers report (MUC, B3, CEAFe, LEA; B3 and LEA without singletons, CEAFe without the response's); maverick: Maverick's copy (MUC, B3, CEAFe as the reference, LEA without singletons)")
    parser.add_argument("--strict", action="store_true", help="make key documents missing from a response, and response documents not in the key, an error (default: list them on standard error; a missing document scores as empty, as in scorer.pl)")
    parser.add_argument("--span-convention", choices=tuple(SPAN_CONVENTIONS), default="token_inclusive", help="how the [start, end] spans of a jsonlines response count: token_inclusive (default; e2e-coref, SpanBERT, coref-hoi), token_exclusive (wl-coref, spaCy), char_exclusive or char_inclusive (characters of the line's tokens joined by single spaces); a jsonlines key is read token_inclusive")
    parser.add_argument("--parse", choices=COREF_PARSERS, metavar="NAME", help=f"each response holds an LLM's texts, one per key document in the key's order, as a JSON array of strings or JSON lines of strings, read by this parser and placed on the key's tokens: {', '.join(COREF_PARSERS)}; --strict then makes an unreadable text or a mention on text the model changed an error")
    corefud.add_arguments(parser)  # --format conllu, --matching, --zero-matching


def options(args):
    everything = METRICS if args.convention == "scorer_pl" else tuple(SINGLETON_RULES[args.convention])
    chosen = dict(metrics=everything if args.metric == "all" else (args.metric,), keep_singletons=not args.remove_singletons, convention=args.convention)
    if args.format == "conllu":  # all: corefud-scorer's -m all
        return {**chosen, "metrics": corefud.METRICS if args.metric == "all" else (args.metric,), "matching": args.matching, "zero_matching": args.zero_matching}
    _check_not_conllu(args)
    if args.parse:
        chosen.update(parse=args.parse, strict=args.strict)
    return chosen


def _check_parse_format(args):
    if args.format == "conllu" and args.parse:
        raise ValueError(f"--parse {args.parse}: reads model text against a CoNLL-2012 or jsonlines key, not --format conllu")
    if args.span_convention != "token_inclusive" and (args.parse or args.format == "conllu"):
        raise ValueError(f"--span-convention {args.span_convention}: applies to a jsonlines response, not with {'--parse' if args.parse else '--format conllu'}")


def _check_not_conllu(args):
    """Without --format conllu, the CoNLL-U options must be left alone."""
    for flag, value, default in (("--matching", args.matching, "exact"), ("--zero-matching", args.zero_matching, "dependent")):
        if value != default:
            raise ValueError(f"{flag} {value} needs --format conllu (CorefUD mention heads)")
    if args.metric in corefud.ONLY_CONLLU:
        raise ValueError(f"--metric {args.metric} needs --format conllu (corefud-scorer's score)")


def add_arguments(parser):
    parser.add_argument("key", help="the key (gold): a CoNLL-2011/2012 file or an OntoNotes jsonlines file (doc_key, sentences, clusters); - reads standard input")
    parser.add_argument("response", help="the response (system), CoNLL or jsonlines; documents are matched to the key's by name (a CoNLL name and part against a doc_key, e.g. '(bc/cctv/00/cctv_0000); part 000' is 'bc/cctv/00/cctv_0000_0')")
    add_options(parser)
    parser.add_argument("--per-document", action="store_true", help="add each document's numbers")
    parser.add_argument("--remove-nested", action="store_true", help="coval's remove_nested: drop a mention nested in another mention of its entity, on both sides")
    parser.add_argument("--np-only", action="store_true", help="coval's NP_only: drop verb-phrase mentions (by the key's parse column, column 6), on both sides")
    parser.add_argument("--min-span", action="store_true", help="coval's min_span: match mentions by their minimum span (from the key's parse column, column 6)")
    corefud.add_command_arguments(parser)  # --corefud-output
    parser.add_argument("scorer_pl", nargs="*", metavar="", help="scorer.pl's form also works: paperscore coref METRIC KEY RESPONSE [none|DOCNAME] (METRIC: muc, bcub, ceafm, ceafe, blanc, lea or all) prints scorer.pl's TOTALS lines; an empty response, or one without #begin document, then scores as no documents")


def _unmatched(found, strict):
    """Say which documents did not match: on standard error, or as an error with --strict.
    found: [(response argument, missing key names, extra response names)]."""
    lines = []
    for source, missing, extra in found:
        if missing:
            lines.append(f"{source}: lacks {len(missing)} key document(s), scored as empty as scorer.pl does: {', '.join(map(repr, missing))}")
        if extra:
            lines.append(f"{source}: holds {len(extra)} document(s) not in the key, not scored: {', '.join(map(repr, extra))}")
    if lines and strict:
        raise ValueError("; ".join(lines) + " (--strict)")
    for line in lines:
        print(f"paperscore coref: warning: {line}", file=sys.stderr)


def _read_files(key, responses, strict, allow_empty=False, parse=False, span_convention="token_inclusive"):
    """The key's documents and each response's, paired by name (pair_documents), from
    (path, argument) pairs; unmatched documents reported by _unmatched. A jsonlines
    response's spans count in span_convention (check_span_reading). Returns (key
    documents, [response documents], [missing names], [extra names])."""
    check_stdin_once(*[(argument, path) for path, argument in (key, *responses)])
    key_file = read_documents(key[0], key[1], parse=parse)
    out = []
    for path, argument in responses:
        response = read_documents(path, argument, predicted=True, allow_empty=allow_empty, span_convention=span_convention)
        if response[0] != "jsonlines" and span_convention != "token_inclusive":
            raise ValueError(f"--span-convention {span_convention}: applies to a jsonlines response; {argument} is CoNLL")
        out.append(pair_documents(key_file, response, key[1], argument))
        if response[0] == "jsonlines":
            sides = [_side([d[2:5] for d in documents], [(f"{argument} document {d.name!r}", None) for d in documents]) for documents in (key_file[1], out[-1][1])]
            check_span_reading(*sides, span_convention, None, None, f"{argument}: {path}", "--span-convention {best}")
    _unmatched([(argument, missing, extra) for (_, argument), (*_, missing, extra) in zip(responses, out)], strict)
    return key_file[1], [o[1] for o in out], [o[2] for o in out], [o[3] for o in out]


def _scorer_pl_form(args):
    """(metrics, key, response, document name or None) of `METRIC KEY RESPONSE [NAME]`,
    scorer.pl's arguments; None for the usual `KEY RESPONSE`."""
    if not args.scorer_pl:
        return None
    if args.key not in METRICS + ("all",) or len(args.scorer_pl) > 2:
        raise ValueError(f"unexpected arguments {' '.join(args.scorer_pl)!r}: give KEY RESPONSE, or scorer.pl's METRIC KEY RESPONSE [none|DOCNAME] with METRIC one of {', '.join(METRICS + ('all',))}")
    metrics = PERL_ALL if args.key == "all" else (args.key,)
    name = args.scorer_pl[1] if len(args.scorer_pl) > 1 and args.scorer_pl[1] != "none" else None
    return metrics, args.response, args.scorer_pl[0], name


# What `scorer.pl all` scores (v8.01; LEA is on its LEA-scorer branch only).
PERL_ALL = ("muc", "bcub", "ceafm", "ceafe", "blanc")


def run(args):
    """Score the key's documents, as scorer.pl does."""
    _check_parse_format(args)
    if args.format == "conllu":  # CorefUD CoNLL-U: paperscore.corefud
        return corefud.run(args)
    if args.corefud_output:
        raise ValueError("--corefud-output needs --format conllu")
    _check_not_conllu(args)
    if args.parse:
        return _run_parsed(args)
    form = _scorer_pl_form(args)
    if form:
        metrics, args.key, args.response, only = form
        args.metric, args.convention = "all", "scorer_pl"
    mention_options = check_mention_options(args.convention, remove_nested=args.remove_nested, NP_only=args.np_only, min_span=args.min_span)
    parse = bool(args.np_only or args.min_span)
    key_documents, [response_documents], [missing], [extra] = _read_files((args.key, "KEY"), [(args.response, "RESPONSE")], args.strict, bool(form), parse, args.span_convention)
    if form and only is not None:
        chosen = [i for i, d in enumerate(key_documents) if d.name == only]
        if not chosen:
            raise ValueError(f"KEY: {args.key} has no document {only!r}")
        key_documents, response_documents = [key_documents[i] for i in chosen], [response_documents[i] for i in chosen]
    names = [document.name for document in key_documents]
    key = _side([d[2:5] for d in key_documents], [(f"{args.key} document {name!r}", None) for name in names])
    response = _side([d[2:5] for d in response_documents], [(f"{args.response} document {name!r}", None) for name in names])
    if mention_options:
        parses = [d.parse for d in key_documents] if parse else None
        key, response = apply_mention_options(key, response, parses, not args.remove_singletons, **mention_options)
    chosen = options(args)
    if form:
        chosen["metrics"] = metrics
    metrics = check_convention(chosen["convention"], chosen["metrics"], chosen["keep_singletons"])
    metrics = ("mentions",) + metrics if chosen["convention"] == "scorer_pl" else metrics
    result = score(key, response, metrics, chosen["keep_singletons"], per_document=args.per_document, return_counts=True, names=names, show_progress=True, convention=chosen["convention"], mention_options=mention_options, **args.common)
    result = {**result, "missing_documents": missing, "extra_documents": extra}
    if form:
        result["scorer_pl_report"] = perl_report(result, metrics[1:])
    return result


def _run_parsed(args):
    """--parse: the model texts of RESPONSE, one per key document in order, scored by
    compute(parse=...) on the key's tokens (a CoNLL document's words, column 4)."""
    used = [flag for flag, value in (("scorer.pl's argument form", args.scorer_pl), ("--remove-nested", args.remove_nested), ("--np-only", args.np_only), ("--min-span", args.min_span)) if value]
    if used:
        raise ValueError(f"--parse: not with {', '.join(used)}")
    documents, references, words, [replies] = _parsed_files(("KEY", args.key), [("RESPONSE", args.response)], args.parse)
    result = compute(replies, references, tokens=words, per_document=args.per_document, return_counts=True, **options(args), **args.common)
    if args.per_document:
        for entry, document in zip(result["per_document"], documents):
            entry["document"] = document.name
    return result


def _parsed_files(key, responses, parse):
    """--parse: the key's documents, their clusters and words, and each response's model
    texts, one per key document in the key's order. key, responses: (argument, path)."""
    check_stdin_once(key, *responses)
    data = read_bytes(key[1], key[0])
    form, documents = parse_documents(data, f"{key[0]}: {key[1]}")
    words = [d.words for d in documents] if form == "jsonlines" else _conll_words(data.decode("utf-8"), documents, *key)
    texts = []
    for argument, path in responses:
        replies = read_reply_file(SimpleNamespace(parse=parse, strict=False, replies_format="json", predictions=path), argument)
        if len(replies) != len(documents):
            raise ValueError(f"{argument}: {path} holds {len(replies)} model texts, but {key[0]} {key[1]} {len(documents)} documents; give one text per key document, in the key's order")
        texts.append(replies)
    return documents, [document_clusters(d) for d in documents], words, texts


def _conll_words(text, documents, argument, path):
    """Per CoNLL document its words (column 4 of its token lines), checked against the
    token count the reader found."""
    words, out = [], []
    for line in text.split("\n"):
        if line.startswith("#begin document"):
            words = []
        elif line.startswith("#end document"):
            out.append(words)
        elif line.strip():
            columns = line.split()
            words.append(columns[3] if len(columns) > 3 else None)
    for document, found in zip(documents, out):
        if len(found) != document.n_tokens or None in found:
            raise ValueError(f"{argument}: {path} document {document.name!r}: --parse needs each token line's word in column 4")
    if len(out) != len(documents):
        raise ValueError(f"{argument}: {path}: {len(documents)} documents but {len(out)} '#end document' lines")
    return out


def _perl(value):
    """A number as Perl prints it."""
    return "%.15g" % value


def _perl_rpf(recall_counts, precision_counts, f1=None):
    """scorer.pl's ShowRPF line: counts, percentages truncated to 2 decimals, a rule."""
    (nr, dr), (np_, dp) = recall_counts, precision_counts
    recall, precision = (nr / dr if dr else 0), (np_ / dp if dp else 0)
    if f1 is None:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
    percent = [_perl(int(v * 10000) / 100) for v in (recall, precision, f1)]
    return f"Recall: ({_perl(nr)} / {_perl(dr)}) {percent[0]}%\tPrecision: ({_perl(np_)} / {_perl(dp)}) {percent[1]}%\tF1: {percent[2]}%\n" + "-" * 74 + "\n"


def perl_report(result, metrics):
    """The TOTALS lines `scorer.pl METRIC KEY RESPONSE none` prints for `metrics` (each
    after a `METRIC name:` line when there are several, as `scorer.pl all`), the lines
    the training scripts of SpanBERT, coref-hoi and s2e-coref read with their regexes."""
    counts = result["counts"]
    out = []
    for metric in metrics:
        part = "\n====== TOTALS =======\nIdentification of Mentions: " + _perl_rpf(counts["mentions"]["recall"], counts["mentions"]["precision"])
        if metric == "blanc":
            blanc = counts["blanc"]
            part += "\nCoreference:\nCoreference links: " + _perl_rpf(blanc["coreference_recall"], blanc["coreference_precision"])
            part += "Non-coreference links: " + _perl_rpf(blanc["non_coreference_recall"], blanc["non_coreference_precision"])
            part += "BLANC: " + _perl_rpf((result["blanc_recall"], 1), (result["blanc_precision"], 1), result["blanc_f1"])
        else:
            part += "Coreference: " + _perl_rpf(counts[metric]["recall"], counts[metric]["precision"])
        out.append(f"\nMETRIC {metric}:\n" + part if len(metrics) > 1 else part)
    return "".join(out).rstrip("\n")


def read_compare(args):
    """The inputs of `paperscore compare coref`: CoNLL or jsonlines files, each document
    as clusters of spans, the systems' documents matched to the key's by name; under
    "found", the documents each system lacks or adds."""
    systems = ("system_a", "system_b")
    _check_parse_format(args)
    if args.parse:  # model texts, one per key document in its order (as `paperscore coref --parse`)
        _, references, words, texts = _parsed_files(("--references", args.references), [("--system-a", args.system_a), ("--system-b", args.system_b)], args.parse)
        return dict(references=references, system_a=texts[0], system_b=texts[1], tokens=words)
    if args.format == "conllu":  # CorefUD CoNLL-U: documents must align (paperscore.corefud)
        files = (("references", "--references"), ("system_a", "--system-a"), ("system_b", "--system-b"))
        check_stdin_once(*[(flag, getattr(args, name)) for name, flag in files])
        return {name: read_text(getattr(args, name), flag) for name, flag in files}
    _check_not_conllu(args)
    key, responses, missing, extra = _read_files((args.references, "--references"), [(args.system_a, "--system-a"), (args.system_b, "--system-b")], args.strict, span_convention=args.span_convention)
    references, system_a, system_b = ([_clusters(*d[2:5]) for d in documents] for documents in [key] + responses)
    found = {"missing_documents": dict(zip(systems, missing)), "extra_documents": dict(zip(systems, extra))}
    return dict(references=references, system_a=system_a, system_b=system_b, found=found)


def _number(value):
    return str(int(value)) if float(value).is_integer() else repr(value)


def table(result):
    """The numbers with their numerators and denominators at full precision, as scorer.pl
    prints them (but not truncated), then the CoNLL score and the signature; scorer.pl's
    own lines when its argument form was used."""
    for own in ("scorer_pl_report", "corefud_report"):  # a reference tool's own lines
        if own in result:
            return result[own]
    rows = [("metric", "measure", "value", "numerator", "denominator")]
    for metric, parts in result.get("counts", {}).items():
        for measure, (numerator, denominator) in parts.items():
            value = divide(numerator, denominator) if metric == "blanc" else result[f"{metric}_{measure}"]
            rows.append((metric, measure, repr(value), _number(numerator), _number(denominator)))
        for measure in ("recall", "precision", "f1") if metric == "blanc" else ("f1",):
            rows.append((metric, measure, repr(result[f"{metric}_{measure}"]), "", ""))
    if "conll_f1" in result:
        rows.append(("conll", "f1", repr(result["conll_f1"]), "", ""))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]
    intervals = [f"{key[:-4]}: [{result[key]!r}, {result[key[:-4] + '_high']!r}]" for key in result if key.endswith("_low")]
    if intervals:
        lines += ["", "confidence intervals"] + intervals
    for entry in result.get("per_document", []):
        numbers = "  ".join(f"{k} {v:.4f}" for k, v in entry.items() if k != "document")
        lines.append(f"{entry['document']}: {numbers}")
    if "mentions_on_changed_text" in result:  # --parse
        pairs = (("parse_failures", "parse_failure_examples"), ("mentions_on_changed_text", "mentions_on_changed_text_examples"))
        lines += [""] + [f"{count.replace('_', ' ')}: {result[count]} (first documents, from 0: {result[examples]})" for count, examples in pairs]
    for kind in ("missing_documents", "extra_documents"):
        if result.get(kind):
            lines += ["", f"{kind.replace('_', ' ')}: {', '.join(map(repr, result[kind]))}"]
    if "signature" in result:
        lines += ["", f"signature: {result['signature']}"]
    return "\n".join(lines)
