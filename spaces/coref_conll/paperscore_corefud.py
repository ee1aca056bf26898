# GENERATED from shared/paperscore/corefud.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Coreference in CorefUD's CoNLL-U (Entity= in MISC), scored as ufal/corefud-scorer v1.2
scores it, the official scorer of the CRAC 2022-2025 shared tasks (built on the Universal
Anaphora scorer 2.0).

Reading follows udapi 0.5.2 (what the scorer reads with): a mention opens with
`(eid-etype-head-other`, closes with `eid)`, `(eid...)` is one word; `eid[2/3]` marks the
parts of a discontinuous mention; a `GRP` field in place of `eid` (UD GUM's) numbers
entities within each document; the head is the head-th word of the mention (its first
word when not given); empty nodes (ids like 5.1) inside a span belong to it, and a mention
headed by one is a zero. Documents start at `# newdoc`; an entity met in two documents is
two entities. What udapi would drop or read oddly (an unclosed mention, a line without ten
columns, sentences read as zones of one bundle) is refused here instead.

Scoring follows the scorer: per document, each entity's repeated mentions are dropped,
singletons are removed unless kept, then key and response mentions are aligned one to one:
(1) zeros by their enhanced dependencies (zero_matching="dependent"), (2) equal mentions
(the same words; with matching="head" also the same head), (3) the rest, for "partial" a
response mention inside a key mention that holds its head, for "head" mentions with the
same head, the pair with the largest share of the key mention's words winning, solved as
the scorer solves it (the same matrix, in the same order, given to scipy's
linear_sum_assignment). MUC, B3, CEAFm, CEAFe, BLANC and LEA then count an aligned
response mention as its key mention; numerators and denominators are summed over
documents, and BLANC averages the parts whose two denominators are not both 0. The
scorer's two CRAC 2022 additions: mor (Mention Overlap Ratio: mentions paired for the most
shared words, apart from the alignment) and zero (zero anaphors found with an antecedent
in the right entity), see _mor and _zero.
"""

import functools
import math
import re
from collections import namedtuple

import numpy as np

from .paperscore_core import (
    check_flags,
    bootstrap_options,
    check_bootstrap,
    check_choice,
    check_zero_division,
    divide,
    harmonic_mean,
    input_error,
    read_text,
    signature,
    with_references,
)
from .paperscore_family import Batch, Family, evaluate, scoring_options

MATCHING = ("exact", "partial", "head")
ZERO_MATCHING = ("dependent", "linear")
# The scorer's `-m all`: the six coreference metrics, then its two CRAC 2022 additions,
# mor (Mention Overlap Ratio) and zero (the anaphor-decomposable score of zero anaphors).
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor", "zero")
ONLY_CONLLU = ("mor", "zero")  # what coref's CoNLL-2012 and jsonlines scoring has not
WIDTH = {"muc": 4, "bcub": 4, "ceafm": 4, "ceafe": 4, "blanc": 8, "lea": 4, "mor": 4, "zero": 4}
# The settings of each CRAC shared task's primary score (corefud-scorer README, "Shared Tasks").
CRAC = {
    "crac22": dict(matching="partial", keep_singletons=False),
    "crac23": dict(matching="head", keep_singletons=False),
    "crac24": dict(matching="head", keep_singletons=False, zero_matching="dependent"),
}

# ---------------------------------------------------------------------------------------
# Reading CoNLL-U

# A sentence: its id, newdoc value (None, True or the id), word forms, and per node id
# (int for words, float for empty nodes) the MISC Entity value and the raw DEPS.
Sentence = namedtuple("Sentence", "sent_id newdoc forms nodes")
# A mention: sorted (sentence number, node id) words, its head, and its entity id.
Mention = namedtuple("Mention", "words head eid")
# A read file: sentences, and per document (name, [(eid, [Mention, ...]), ...]).
Conllu = namedtuple("Conllu", "sentences documents")

_SENT_ID = re.compile(r"^# sent_id\s*=?\s*(\S+)")
_NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
_GLOBAL_ENTITY = re.compile(r"^# global.Entity\s*=\s*(\S+)")
_CHUNKS = re.compile(r"(\([^()]+\)?|[^()]+\))")
_PART = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]")


def _misc_entity(misc):
    """The Entity= value of a MISC cell ('' when none)."""
    value = ""
    for item in misc.split("|"):
        if item.startswith("Entity="):
            value = item[len("Entity=") :]
    return value


def _sentences(text, source):
    """Sentences and the global.Entity field names of one CoNLL-U text."""
    sentences, fields = [], None
    line_number = 0
    for block in re.split(r"\n\n+", text.replace("\r\n", "\n").replace("\r", "\n")):
        block = block.strip("\n")
        if not block:
            continue
        sent_id, newdoc, forms, nodes = None, None, [], {}
        for line in block.split("\n"):
            line_number += 1
            if line.startswith("#"):
                if _SENT_ID.match(line):
                    sent_id = _SENT_ID.match(line).group(1)
                elif _NEWDOC.match(line):
                    newdoc = _NEWDOC.match(line).group(1) or True
                elif _GLOBAL_ENTITY.match(line):
                    value = _GLOBAL_ENTITY.match(line).group(1)
                    if fields is not None and value != "-".join(fields):
                        raise input_error(source, None, f"line {line_number}: a second global.Entity {value!r} differs from {'-'.join(fields)!r}")
                    fields = value.split("-")
                continue
            cells = line.split("\t")
            if len(cells) != 10:
                raise input_error(source, None, f"line {line_number}: {len(cells)} tab-separated columns, CoNLL-U has 10")
            if "-" in cells[0]:
                continue  # a multiword token's line
            try:
                node = float(cells[0]) if "." in cells[0] else int(cells[0])
            except ValueError:
                raise input_error(source, None, f"line {line_number}: node id {cells[0]!r} is not a number (a word is 1, 2, ..., an empty node 1.1, a multiword token 1-2)") from None
            if isinstance(node, int):
                if node != len(forms) + 1:
                    raise input_error(source, None, f"line {line_number}: word id {cells[0]} where {len(forms) + 1} was expected")
                forms.append(cells[1])
            if node in nodes:
                raise input_error(source, None, f"line {line_number}: node id {cells[0]} repeated in its sentence")
            nodes[node] = (_misc_entity(cells[9]), cells[8], cells[0])
        if not forms:
            raise input_error(source, None, f"line {line_number}: a sentence without words")
        if sent_id is not None and ("/" in sent_id or (sentences and sentences[-1].sent_id == sent_id)):
            raise input_error(source, None, f"sentence {len(sentences) + 1}: sent_id {sent_id!r} would be read by udapi as a zone of another sentence's bundle")
        sentences.append(Sentence(sent_id, newdoc, tuple(forms), dict(sorted(nodes.items()))))
    return sentences, fields


def _mention_order(a, b):
    """udapi's mention order: by first word, the longer first, then by last word, then eid."""
    if a.words[0] != b.words[0]:
        return -1 if a.words[0] < b.words[0] else 1
    if len(a.words) != len(b.words):
        return -1 if len(a.words) > len(b.words) else 1
    if a.words[-1] != b.words[-1]:
        return -1 if a.words[-1] < b.words[-1] else 1
    return -1 if a.eid < b.eid else (1 if b.eid < a.eid else 0)


def read_conllu(text, source="conllu"):
    """A Conllu from CoNLL-U text with CorefUD 1.0 Entity= annotations in MISC (eid or GRP ids)."""
    if not isinstance(text, str):
        raise input_error(source, None, f"expected CoNLL-U text (str), got {type(text).__name__}")
    sentences, fields = _sentences(text, source)
    if not sentences:
        raise input_error(source, None, "no sentence")
    if sentences[0].newdoc is None:
        raise input_error(source, None, "the first sentence has no '# newdoc' line (corefud-scorer needs one to name the document)")
    # GRP (UD GUM's name for eid) numbers entities within a document: udapi prefixes each id
    # with its document's number, so the same GRP in two documents names two entities.
    id_field = "GRP" if fields is not None and "GRP" in fields else "eid"
    if fields is not None and ("eid" not in fields) == (id_field == "eid"):
        raise input_error(source, None, f"global.Entity {'-'.join(fields)!r} needs exactly one of the fields eid and GRP")
    entities, open_, parts = {}, {}, {}  # eid -> [mention words, head]; eid -> [(mention, head index)]; eid -> [discontinuous mentions]
    document = 0
    for s, sentence in enumerate(sentences, 1):
        ids = list(sentence.nodes)
        document += sentence.newdoc is not None
        prefix = f"d{document}." if id_field == "GRP" else ""
        for node, (value, _, label) in sentence.nodes.items():
            if not value:
                continue
            where = f"sentence {s} ({sentence.sent_id or 'no sent_id'}) node {label}"

            def fail(problem):
                return input_error(source, None, f"{where}: {problem}")

            if fields is None:
                raise fail("Entity= annotations without a '# global.Entity' line")
            for chunk in (c for c in _CHUNKS.split(value) if c):
                opening, closing = chunk[0] == "(", chunk[-1] == ")"
                chunk = chunk.strip("()")
                if not opening and not closing:
                    raise fail(f"{chunk!r} in Entity={value} neither opens nor closes a mention")
                if not opening:
                    chunk = prefix + chunk
                    eid, part, total = chunk, None, None
                    if not open_.get(eid):
                        found = _PART.match(chunk)
                        if not found:
                            raise fail(f"mention {chunk} closed but not opened")
                        eid, part, total = found.groups()
                    if not open_.get(eid):
                        raise fail(f"mention {chunk} closed but not opened")
                    mention, head_index = open_[eid].pop()
                    last = mention[0][-1]
                    if last[0] != s:
                        raise fail(f"mention {chunk} crosses a sentence boundary (udapi refuses it)")
                    if last[1] >= node:
                        raise fail(f"mention {chunk} closes on or before its last word so far (udapi would then take the rest of the sentence); write ({chunk}...) for a one-word mention")
                    mention[0].extend((s, n) for n in ids if last[1] < n <= node)
                    if head_index and (part is None or part == total):
                        if head_index > len(mention[0]):
                            raise fail(f"head index {head_index} beyond the {len(mention[0])} words of mention {chunk}")
                        mention[1] = sorted(mention[0])[head_index - 1]
                    if part is not None and part == total and parts[eid].pop() is not mention:
                        raise fail(f"mention {chunk} closes while a nested discontinuous mention of {eid} is unfinished")
                    continue
                values = dict(zip(fields, chunk.split("-")))
                eid = values.get(id_field)
                if not eid:
                    raise fail(f"no {id_field} in {chunk!r}")
                eid = prefix + eid
                head_index = None
                if "head" in values:
                    try:
                        head_index = int(values["head"])
                    except ValueError:
                        raise fail(f"head {values['head']!r} in {chunk!r} is not an integer") from None
                part, total = None, "0"
                if eid.endswith("]"):
                    found = _PART.match(eid)
                    if not found:
                        raise fail(f"eid {eid!r} ends with ] but is not a part like e1[2/3]")
                    eid, part, total = found.groups()
                if eid not in entities and part not in (None, "1"):
                    raise fail(f"part {part} of a discontinuous mention of {eid} before any mention of it")
                entity = entities.setdefault(eid, [])
                if part not in (None, "1"):
                    opened = [m for m, _ in open_.get(eid, [])]
                    mention = next((m for m in parts.get(eid, []) if all(m is not o for o in opened)), None)
                    if mention is None:
                        raise fail(f"part {part} of {eid} has no earlier part to continue")
                    mention[0].append((s, node))
                    if closing and part == total:
                        if parts[eid].pop() is not mention:
                            raise fail(f"mention {eid} closes while a nested discontinuous mention of it is unfinished")
                        if not head_index or head_index > len(mention[0]):
                            raise fail(f"head index {head_index} is not one of the {len(mention[0])} words of mention {eid}")
                        mention[1] = mention[0][head_index - 1]
                else:
                    mention = [[(s, node)], (s, node)]
                    entity.append(mention)
                    if part is not None:
                        parts.setdefault(eid, []).append(mention)
                if not closing:
                    open_.setdefault(eid, []).append((mention, head_index))
    unclosed = [eid for eid, mentions in open_.items() if mentions] + [eid for eid, mentions in parts.items() if mentions]
    if unclosed:
        raise input_error(source, None, f"mention(s) of {', '.join(sorted(set(unclosed)))} opened but never closed (udapi would drop them silently)")
    return Conllu(sentences, _documents(sentences, entities, source))


def _documents(sentences, entities, source):
    """[(name, [(eid, [Mention])])] per document, entities and mentions in udapi's order."""
    names, doc_of = [], []
    for number, sentence in enumerate(sentences, 1):
        if sentence.newdoc is not None:
            name = sentence.newdoc if sentence.newdoc is not True else len(names) + 1
            if name in names:
                raise input_error(source, None, f"sentence {number}: document {name!r} is named twice (corefud-scorer would merge the two)")
            names.append(name)
        doc_of.append(len(names) - 1)
    order = functools.cmp_to_key(_mention_order)
    sorted_entities = []
    for eid, mentions in entities.items():
        mentions = sorted((Mention(tuple(sorted(words)), head, eid) for words, head in mentions), key=order)
        sorted_entities.append((eid, mentions))
    sorted_entities.sort(key=lambda entity: order(entity[1][0]))
    documents = [(name, {}) for name in names]
    for eid, mentions in sorted_entities:
        for mention in mentions:
            documents[doc_of[mention.words[0][0] - 1]][1].setdefault(eid, []).append(mention)
    return [(name, list(clusters.items())) for name, clusters in documents]


def check_aligned(key, response, key_source="key", response_source="response"):
    """The scorer's alignment test: the same sentences, ids, newdoc marks and word forms
    (empty nodes may differ)."""
    if len(key.sentences) != len(response.sentences):
        raise ValueError(f"{response_source}: {len(response.sentences)} sentences, {key_source} has {len(key.sentences)}")
    for number, (k, r) in enumerate(zip(key.sentences, response.sentences), 1):
        for what, a, b in (("newdoc", k.newdoc, r.newdoc), ("sent_id", k.sent_id, r.sent_id), ("words", k.forms, r.forms)):
            if a != b:
                raise ValueError(f"{response_source}: sentence {number}: {what} {b!r} differs from the {key_source}'s {a!r}")


# ---------------------------------------------------------------------------------------
# Mention alignment, as the scorer's reader does it


class _Item:
    """A mention as the scorer compares it: equal (and hashed alike) when its words are
    equal, and with matching="head" its head too. The hash equals the scorer's, so sets of
    these iterate in the scorer's order, which decides ties of its assignment."""

    __slots__ = ("words", "wordset", "head", "zero", "deps", "identity", "_hash")

    def __init__(self, mention, by_head, deps):
        self.words = mention.words
        self.wordset = frozenset(mention.words)
        self.head = mention.head
        self.zero = isinstance(mention.head[1], float)
        self.deps = deps
        self.identity = (self.wordset, frozenset((self.head,))) if by_head else self.wordset
        self._hash = hash(self.identity)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self.identity == other.identity

    def order(self):
        return (self.words[0], self.words[-1], len(self.words))


def _head_deps(conllu, head, source):
    """The enhanced dependencies of a head as {(parent, relation)} ((sentence, id) parents)."""
    s, node = head
    sentence = conllu.sentences[s - 1]
    raw = sentence.nodes[node][1]
    out = []
    if raw == "_":
        return out
    for item in raw.split("|"):
        parent, colon, relation = item.partition(":")
        if not colon:
            raise input_error(source, None, f"sentence {s}: DEPS item {item!r} of node {sentence.nodes[node][2]} has no ':'")
        if "." in parent:
            found = [n for n in sentence.nodes if isinstance(n, float) and str(n) == parent]
            if not found:
                raise input_error(source, None, f"sentence {s}: DEPS of node {sentence.nodes[node][2]} name empty node {parent}, which is not in the sentence")
            out.append(((s, found[0]), relation))
        else:
            if not parent.isdigit() or int(parent) > len(sentence.forms):
                raise input_error(source, None, f"sentence {s}: DEPS of node {sentence.nodes[node][2]} name parent {parent!r}, not a word of the sentence")
            out.append(((s, int(parent)), relation))
    return out


def _clusters(conllu, entities, by_head, keep_singletons, source):
    """The scorer's clusters of one document: repeats in an entity dropped, then singletons
    unless kept."""
    out = []
    for _, mentions in entities:
        items = [_Item(m, by_head, _head_deps(conllu, m.head, source) if isinstance(m.head[1], float) else None) for m in mentions]
        cluster = list(dict.fromkeys(items))
        if keep_singletons or len(cluster) > 1:
            out.append(cluster)
    return out


def _f_score(first, second, where):
    if not first or not second:
        raise ValueError(f"{where}: a zero mention's head has no enhanced dependencies (DEPS); corefud-scorer's dependent zero matching divides by their number and fails")
    common = len(first & second)
    p, r = common / len(first), common / len(second)
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0


def _zero_score(key, response, where):
    if key.head[0] != response.head[0]:
        return 0.0
    full = 10 * _f_score(set(key.deps), set(response.deps), where)
    return full + _f_score({p for p, _ in key.deps}, {p for p, _ in response.deps}, where)


def _partial_score(key, response, where):
    if key.head in response.wordset and response.wordset <= key.wordset:
        return len(key.wordset & response.wordset) / len(key.wordset)
    return 0.0


def _head_score(key, response, where):
    if key == response:
        return 1.0
    if key.head == response.head:
        return len(key.wordset & response.wordset) / len(key.wordset)
    return 0.0


SCORES = {"zero": _zero_score, "partial": _partial_score, "head": _head_score}


def _assign(keys, responses, kind, where):
    """Pairs of the best one-to-one assignment under SCORES[kind], positive pairs only."""
    from scipy.optimize import linear_sum_assignment

    if not keys or not responses:
        return []
    keys, responses = sorted(keys, key=_Item.order), sorted(responses, key=_Item.order)
    score = SCORES[kind]
    similarity = np.zeros((len(keys), len(responses)))
    for i, k in enumerate(keys):
        for j, r in enumerate(responses):
            similarity[i, j] = score(k, r, where)
    rows, columns = linear_sum_assignment(-similarity)
    return [(keys[i], responses[j]) for i, j in zip(rows, columns) if similarity[i, j] > 0]


def align(key_clusters, response_clusters, matching, zero_matching, where="document"):
    """The scorer's (key, response) mention pairs of one document."""
    key_set = set(m for c in key_clusters for m in c)
    response_set = set(m for c in response_clusters for m in c)
    key_left, response_left = key_set.copy(), response_set.copy()
    zero_pairs = []
    if zero_matching == "dependent":
        key_zeros, response_zeros = {m for m in key_set if m.zero}, {m for m in response_set if m.zero}
        if key_zeros and response_zeros:
            zero_pairs = _assign(key_zeros, response_zeros, "zero", where)
            key_left = key_left - {k for k, _ in zero_pairs}
            response_left = response_left - {r for _, r in zero_pairs}
    same_key = {k: k for k in key_left if k in response_left}
    same_response = {r: r for r in response_left if r in key_left}
    same_pairs = [(same_key[k], same_response[k]) for k in same_key]
    key_left = key_left - set(same_key.values())
    response_left = response_left - set(same_response.values())
    # The scorer rebuilds both sets here (dropping split antecedents, which CorefUD has not).
    key_left, response_left = {k for k in key_left}, {r for r in response_left}
    other_pairs = _assign(key_left, response_left, matching, where) if matching != "exact" else []
    return same_pairs + other_pairs + zero_pairs


# ---------------------------------------------------------------------------------------
# Metrics of one document, with every mention looked up through the alignment as the
# scorer looks it up (one dict of key->response and response->key pairs).


def _links(n):
    return n * (n - 1) / 2


def _muc(clusters, other):
    right, total = 0, 0
    for c in clusters:
        found = [other[m] for m in c if m in other]
        right += len(found) - len(set(found))
        total += len(c) - 1
    return right, total


def _bcub(clusters, other):
    right = 0.0
    for c in clusters:
        counts = {}
        for m in c:
            if m in other:
                counts[other[m]] = counts.get(other[m], 0) + 1
        right += sum(n * n for n in counts.values()) / len(c)
    return right, sum(len(c) for c in clusters)


def _lea(clusters, other, other_clusters):
    right = 0.0
    for c in clusters:
        if len(c) == 1:
            right += 1 if c[0] in other and len(other_clusters[other[c[0]]]) == 1 else 0
            continue
        counts = {}
        for m in c:
            if m in other:
                counts[other[m]] = counts.get(other[m], 0) + 1
        right += len(c) * sum(_links(n) for n in counts.values()) / _links(len(c))
    return right, sum(len(c) for c in clusters)


def _ceaf(key_clusters, response_clusters, response_of):
    """CEAFm and CEAFe similarity: the best entity alignment's summed |K∩R| and 2|K∩R|/(|K|+|R|)."""
    from scipy.optimize import linear_sum_assignment

    overlap = np.zeros((len(key_clusters), len(response_clusters)))
    holders = {}
    for j, c in enumerate(response_clusters):
        for m in set(c):
            holders.setdefault(m, []).append(j)
    for i, c in enumerate(key_clusters):
        for m in c:
            for j in holders.get(response_of.get(m, m), ()):
                overlap[i, j] += 1
    sizes = np.array([len(c) for c in key_clusters], dtype=float)[:, None] + np.array([len(c) for c in response_clusters], dtype=float)[None, :]
    out = []
    for value in (overlap, 2 * overlap / np.maximum(sizes, 1)):
        rows, columns = linear_sum_assignment(-value)
        out.append(float(value[rows, columns].sum()))
    return out


def _blanc(key_clusters, response_clusters, key_to_response):
    """The eight link counts: coreference (right, key links, right, response links) then
    non-coreference likewise."""
    found = [[key_to_response[m] for m in c if m in key_to_response] for c in key_clusters]
    right = sum(sum(_links(n) for n in _tally(f).values()) for f in found)
    every = [r for f in found for r in f]
    across_key = _links(len(every)) - sum(_links(len(f)) for f in found)
    right_non = across_key - (sum(_links(n) for n in _tally(every).values()) - right)
    n_key, n_response = sum(len(c) for c in key_clusters), sum(len(c) for c in response_clusters)
    key_links, response_links = sum(_links(len(c)) for c in key_clusters), sum(_links(len(c)) for c in response_clusters)
    return (right, key_links, right, response_links, right_non, _links(n_key) - key_links, right_non, _links(n_response) - response_links)


def _tally(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return counts


def _mor(key_clusters, response_clusters):
    """Mention Overlap Ratio (Zabokrtsky et al., 2022), as the scorer's mention_overlap:
    key and response mentions paired one to one to share the most words in total, apart
    from the matching chosen; recall over the key's words, precision over the response's
    (every mention counted, a span in two entities twice)."""
    from scipy.optimize import linear_sum_assignment

    keys, responses = [m for c in key_clusters for m in c], [m for c in response_clusters for m in c]
    shared = 0.0
    # Mentions apart in the text share no word: the scorer pairs within runs of
    # overlapping (first word, last word) ranges, which gives the same total.
    items = sorted([(m.words[0], m.words[-1], m, True) for m in keys] + [(m.words[0], m.words[-1], m, False) for m in responses], key=lambda item: item[:2])
    run, end = [], None
    for start, last, mention, is_key in items + [(None, None, None, None)]:
        if run and (start is None or start > end):
            run_keys, run_responses = [m for m, k in run if k], [m for m, k in run if not k]
            if run_keys and run_responses:
                overlap = np.array([[len(k.wordset & r.wordset) for r in run_responses] for k in run_keys], dtype=float)
                rows, columns = linear_sum_assignment(overlap, maximize=True)
                shared += float(overlap[rows, columns].sum())
            run, end = [], None
        if start is not None:
            run.append((mention, is_key))
            end = last if end is None else max(end, last)
    return [shared, sum(len(m.words) for m in keys), shared, sum(len(m.words) for m in responses)]


def _zero(key_clusters, response_clusters, lookup, response_cluster_of):
    """The anaphor-decomposable score of zeros (Zabokrtsky et al., 2022), as the scorer's
    als_zeros: each key zero that is not its entity's first mention (mentions in text
    order) is right when its response counterpart (the equal response mention, else the
    aligned one) is not a response entity's first mention and its entity holds the
    counterpart of an earlier key mention of the entity (else "wrong link"); missing
    when it has no counterpart or that is a first mention. Response zeros that are not
    first mentions and no counterpart of such a key zero are spurious.
    Recall tp / (tp + missing + wrong), precision tp / (tp + spurious + wrong)."""
    firsts = {min(c, key=_Item.order) for c in response_clusters}
    right = missing = wrong = spurious = 0
    covered = set()
    for cluster in key_clusters:
        earlier = set()  # response entities of the entity's earlier mentions
        for i, mention in enumerate(sorted(cluster, key=_Item.order)):
            counterpart = mention if mention in response_cluster_of else lookup.get(mention)
            entity = None if counterpart is None else response_cluster_of[counterpart]
            if i and mention.zero:
                if counterpart is None or counterpart in firsts:
                    missing += 1
                elif entity not in earlier:
                    wrong += 1
                else:
                    right += 1
                if counterpart is not None:
                    covered.add(counterpart)
            if entity is not None:
                earlier.add(entity)
    spurious = sum(1 for c in response_clusters for m in c if m.zero and m not in firsts and m not in covered)
    return [right, right + missing + wrong, right, right + spurious + wrong]


def _document_row(key_clusters, response_clusters, pairs, metrics=METRICS):
    """One document's row: for each of `metrics` its WIDTH numbers."""
    lookup = {}
    lookup.update({k: r for k, r in pairs if k != r})
    lookup.update({r: k for k, r in pairs if k != r})
    key_cluster_of = {m: i for i, c in enumerate(key_clusters) for m in c}
    response_cluster_of = {m: j for j, c in enumerate(response_clusters) for m in c}
    # Where each mention of one side falls among the other side's entities.
    key_to_response = {m: response_cluster_of[lookup.get(m, m)] for c in key_clusters for m in c if lookup.get(m, m) in response_cluster_of}
    response_to_key = {m: key_cluster_of[lookup.get(m, m)] for c in response_clusters for m in c if lookup.get(m, m) in key_cluster_of}
    row, ceaf = [], None
    for metric in metrics:
        if metric == "muc":
            row += [*_muc(key_clusters, key_to_response), *_muc(response_clusters, response_to_key)]
        elif metric == "bcub":
            row += [*_bcub(key_clusters, key_to_response), *_bcub(response_clusters, response_to_key)]
        elif metric in ("ceafm", "ceafe"):
            ceaf = ceaf or _ceaf(key_clusters, response_clusters, lookup)  # both from one call
            mention, entity = ceaf
            if metric == "ceafm":
                n_key, n_response = sum(len(c) for c in key_clusters), sum(len(c) for c in response_clusters)
                row += [mention, n_key, mention, n_response]
            else:
                row += [entity, len(key_clusters), entity, len(response_clusters)]
        elif metric == "blanc":
            row += list(_blanc(key_clusters, response_clusters, key_to_response))
        elif metric == "lea":
            row += [*_lea(key_clusters, key_to_response, response_clusters), *_lea(response_clusters, response_to_key, key_clusters)]
        elif metric == "mor":
            row += _mor(key_clusters, response_clusters)
        else:
            row += _zero(key_clusters, response_clusters, lookup, response_cluster_of)
    return row


def statistics(key, response, matching="head", keep_singletons=False, zero_matching="dependent", key_source="key", response_source="response", metrics=METRICS):
    """(document names, rows): per key document, the numerators and denominators of each
    of `metrics` (WIDTH columns each, in METRICS order). key, response: Conllu
    (read_conllu) or text."""
    metrics = tuple(m for m in METRICS if m in metrics)
    check_choice("matching", matching, MATCHING)
    check_choice("zero_matching", zero_matching, ZERO_MATCHING)
    key = read_conllu(key, key_source) if isinstance(key, str) else key
    response = read_conllu(response, response_source) if isinstance(response, str) else response
    check_aligned(key, response, key_source, response_source)
    by_head = matching == "head"
    responses = dict(response.documents)
    names, rows = [], []
    for name, entities in key.documents:
        where = f"{key_source} document {name!r}"
        key_clusters = _clusters(key, entities, by_head, keep_singletons, key_source)
        response_clusters = _clusters(response, responses[name], by_head, keep_singletons, response_source)
        pairs = align(key_clusters, response_clusters, matching, zero_matching, where)
        names.append(name)
        rows.append(_document_row(key_clusters, response_clusters, pairs, metrics))
    return names, np.array(rows, dtype=float).reshape(len(rows), sum(WIDTH[m] for m in metrics))


# ---------------------------------------------------------------------------------------
# Scores


def scores(totals, zero_division=0.0, metrics=METRICS):
    """Recall, precision, F1 of each of `metrics` (statistics' columns) and conll_f1 when
    muc, bcub and ceafe are there, from summed rows (..., columns)."""
    out, at = {}, 0
    metrics = tuple(m for m in METRICS if m in metrics)
    for metric in metrics:
        part = totals[..., at : at + WIDTH[metric]]
        at += WIDTH[metric]
        if metric == "blanc":
            halves = []
            for low in (0, 4):
                r = divide(part[..., low], part[..., low + 1], zero_division)
                p = divide(part[..., low + 2], part[..., low + 3], zero_division)
                counted = (part[..., low + 1] != 0) | (part[..., low + 3] != 0)
                halves.append((r, p, harmonic_mean(p, r), counted))
            n = halves[0][3].astype(float) + halves[1][3]
            values = [sum(np.where(h[3], h[k], 0.0) for h in halves) / np.maximum(n, 1) for k in range(3)]
            empty = check_zero_division(zero_division)
            recall, precision, f1 = (np.where(n > 0, v, empty) for v in values)
        else:
            recall = divide(part[..., 0], part[..., 1], zero_division)
            precision = divide(part[..., 2], part[..., 3], zero_division)
            f1 = harmonic_mean(precision, recall)
        out.update({f"{metric}_recall": recall, f"{metric}_precision": precision, f"{metric}_f1": f1})
    if {"muc", "bcub", "ceafe"} <= set(metrics):
        out["conll_f1"] = (out["muc_f1"] + out["bcub_f1"] + out["ceafe_f1"]) / 3
    return out


def _counts(totals, metrics):
    out, at = {}, 0
    for metric in (m for m in METRICS if m in metrics):
        values = totals[at : at + WIDTH[metric]].tolist()
        names = ("coreference_recall", "coreference_precision", "non_coreference_recall", "non_coreference_precision") if metric == "blanc" else ("recall", "precision")
        out[metric] = {name: values[2 * i : 2 * i + 2] for i, name in enumerate(names)}
        at += WIDTH[metric]
    return out


def _texts(value, argument):
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return list(value)
    raise ValueError(f"{argument}: expected CoNLL-U text or a non-empty list of CoNLL-U texts")


def document_rows(predictions, references, matching, keep_singletons, zero_matching, argument="predictions", metrics=METRICS):
    """(document names, rows) of every document of every file pair (see statistics);
    `argument` names the response side in errors."""
    keys, responses = _texts(references, "references"), _texts(predictions, argument)
    if len(keys) != len(responses):
        raise ValueError(f"{argument}: {len(responses)} CoNLL-U texts for {len(keys)} references")
    names, rows = [], []
    for i, (k, r) in enumerate(zip(keys, responses)):
        where = "" if len(keys) == 1 else f"[{i}]"
        doc_names, doc_rows = statistics(k, r, matching, bool(keep_singletons), zero_matching, "references" + where, argument + where, metrics)
        names += doc_names if len(keys) == 1 else [f"{i}:{n}" for n in doc_names]
        rows.append(doc_rows)
    return names, np.concatenate(rows)


SCORING = ("matching", "keep_singletons", "zero_matching", "metrics", "zero_division")


def family(**options):
    """corefud's statistics (paperscore.family) for compute()'s scoring options."""
    return CorefUDFamily(scoring_options(compute, options, SCORING, "corefud"))


class CorefUDFamily(Family):
    """corefud's statistics: per document its row of WIDTH numerators and denominators per
    chosen metric (floats, as compute sums them), from CoNLL-U texts: each file's documents
    its rows, so a state's shard holds whole files (each prediction text with its key)."""

    name = "corefud"
    bounded = False  # the UA scorer's BLANC counts links of matched mentions: a document can give precision 1.5

    def __init__(self, options):
        o = options
        check_choice("matching", o["matching"], MATCHING)
        check_choice("zero_matching", o["zero_matching"], ZERO_MATCHING)
        check_flags(keep_singletons=o["keep_singletons"])
        o["keep_singletons"] = bool(o["keep_singletons"])
        self.chosen = check_metrics(o["metrics"])
        o["metrics"] = None if o["metrics"] is None else list(self.chosen)
        o["zero_division"] = check_zero_division(o["zero_division"])
        super().__init__(o)
        self.counts = (False,) * sum(WIDTH[m] for m in self.chosen)

    def headline(self):
        return "conll_f1"

    def rows(self, predictions, references, argument="predictions"):
        o = self.options
        if isinstance(references, (list, tuple)) and not len(references) and isinstance(predictions, (list, tuple)) and not len(predictions):
            return Batch(np.zeros((0, self.width())))
        return Batch(document_rows(predictions, references, o["matching"], o["keep_singletons"], o["zero_matching"], argument, self.chosen)[1])

    def reduce(self, totals, records=None):
        return scores(totals, self.options["zero_division"], self.chosen)


def compute(
    predictions,
    references,
    matching="head",
    keep_singletons=False,
    zero_matching="dependent",
    metrics=None,
    zero_division=0.0,
    per_document=False,
    return_counts=False,
    confidence_level=None,
    n_resamples=1000,
    seed=None,
    return_signature=False,
):
    """MUC, B3, CEAFm, CEAFe, BLANC, LEA, MOR, the zero anaphor score and conll_f1 as
    corefud-scorer v1.2 prints them (as fractions, not percentages). Defaults are the scorer's (and CRAC 2023-2025's):
    head matching, singletons removed, zeros aligned by their dependencies.

    predictions, references: a CoNLL-U text, or lists of them paired item by item (the
    i-th response file against the i-th key file; every document of every file is a row).
    matching: "exact", "partial" or "head". keep_singletons: the scorer's -s.
    zero_matching: "dependent" (default) or "linear" (the scorer's -z).
    metrics: None (all eight, the scorer's -m all) or names among METRICS; conll_f1 comes
    with muc, bcub and ceafe.
    """
    fam = family(matching=matching, keep_singletons=keep_singletons, zero_matching=zero_matching, metrics=metrics, zero_division=zero_division)
    chosen, zero_division = fam.chosen, fam.options["zero_division"]
    if confidence_level is not None:
        check_bootstrap(confidence_level, n_resamples, seed)
    names, rows = document_rows(predictions, references, matching, keep_singletons, zero_matching, metrics=chosen)
    totals = rows.sum(0)
    result = evaluate(fam, Batch(rows), confidence_level, n_resamples, seed)
    if return_counts:
        result["counts"] = _counts(totals, chosen)
    if per_document:
        values = scores(rows, zero_division, chosen)
        result["per_document"] = [{"document": name, **{k: float(v[d]) for k, v in values.items()}} for d, name in enumerate(names)]
    if return_signature:
        options = bootstrap_options(confidence_level, n_resamples, seed)
        named = {"metrics": list(chosen)} if metrics is not None else {}
        result["signature"] = with_references(signature("coref_conll", format="conllu", matching=matching, zero_matching=zero_matching, **named, keep_singletons=bool(keep_singletons), zero_division=zero_division, **options), references)
    return result


def check_metrics(metrics):
    if metrics is None or (isinstance(metrics, str) and metrics == "all"):
        return METRICS
    names = [metrics] if isinstance(metrics, str) else list(metrics) if isinstance(metrics, (list, tuple)) else None
    if not names:
        raise ValueError(f"metrics: expected metric names among {', '.join(METRICS)}, got {metrics!r}")
    for name in names:
        check_choice("metrics", name, METRICS)
    return tuple(dict.fromkeys(names))


# ---------------------------------------------------------------------------------------
# The hooks of paperscore.coref: its compute() and `paperscore coref` hand CoNLL-U input,
# and matching other than exact, to this module.


def is_conllu(value):
    """A CoNLL-U text with CorefUD markup (a newdoc or global.Entity comment), not a CoNLL-2012 one."""
    return isinstance(value, str) and "#begin document" not in value and re.search(r"^# (?:global\.Entity|newdoc)", value, re.M) is not None


def takes(predictions, references, matching):
    """Whether coref.compute hands these inputs here: every document a CoNLL-U text (a
    mix is an error), or matching "partial" / "head", which only CoNLL-U (with heads) has."""
    check_choice("matching", matching, MATCHING)
    items = [x for side in (predictions, references) for x in (side if isinstance(side, (list, tuple)) else [side])]
    conllu = [is_conllu(x) for x in items]
    if any(conllu) and not all(conllu):
        raise ValueError("predictions, references: CoNLL-U texts (CorefUD) mixed with other documents; give CoNLL-U on both sides")
    if matching != "exact" and not (conllu and all(conllu)):
        raise ValueError(f"matching={matching!r} needs CoNLL-U texts with CorefUD Entity= annotations (mention heads); other inputs match exact spans only")
    return bool(conllu) and all(conllu)


def compute_for_coref(predictions, references, matching, zero_matching, convention, span_convention, tokens, texts, remove_nested=False, NP_only=False, min_span=False, **options):
    """coref.compute() on CoNLL-U: its options that have no meaning here must be left alone."""
    coval = (("remove_nested", remove_nested, False), ("NP_only", NP_only, False), ("min_span", min_span, False))
    for name, value, default in (("convention", convention, "scorer_pl"), ("span_convention", span_convention, "token_inclusive"), ("tokens", tokens, None), ("texts", texts, None), *coval):
        if value != default:
            raise ValueError(f"{name}: {value!r} does not apply to CoNLL-U input, scored as corefud-scorer scores it; leave it {default!r}")
    return compute(predictions, references, matching=matching, zero_matching=zero_matching, **options)


def family_for_coref(options):
    """The statistics of coref's `options` on CoNLL-U (compute_for_coref's rules): those
    with no meaning here must be left alone."""
    defaults = {"convention": "scorer_pl", "span_convention": "token_inclusive", "remove_nested": False, "NP_only": False, "min_span": False, "parse": None, "strict": False}
    for name, default in defaults.items():
        if options[name] != default:
            raise ValueError(f"{name}: {options[name]!r} does not apply to CoNLL-U input, scored as corefud-scorer scores it; leave it {default!r}")
    return family(**{name: options[name] for name in SCORING})


def add_arguments(parser):
    """`paperscore coref`'s CoNLL-U options (and `paperscore compare coref`'s)."""
    parser.add_argument("--format", choices=("auto", "conllu"), default="auto", help="auto (default): CoNLL-2011/2012 or jsonlines; conllu: CorefUD CoNLL-U (Entity= in MISC), scored as ufal/corefud-scorer v1.2")
    parser.add_argument("--matching", choices=MATCHING, default="exact", help="how CoNLL-U mentions match (default exact): partial (a response mention inside the key mention holding its head) or head (the same head word), as corefud-scorer's -a; CRAC 2023-2025 report head with --remove-singletons")
    parser.add_argument("--zero-matching", choices=ZERO_MATCHING, default="dependent", help="how CoNLL-U zeros (empty nodes) are aligned (default dependent: by their DEPS), as corefud-scorer's -z")


def add_command_arguments(parser):
    """`paperscore coref`'s own CoNLL-U option (not compare's)."""
    parser.add_argument("--corefud-output", action="store_true", help="with --format conllu: print what corefud-scorer.py prints (its header, each metric's Recall / Precision / F1 in percent to 2 decimals, the CoNLL score), for scripts that read its output")


def run(args):
    """`paperscore coref KEY RESPONSE --format conllu`."""
    if args.scorer_pl or args.convention != "scorer_pl" or args.remove_nested or args.np_only or args.min_span:
        raise ValueError("--format conllu: scorer.pl's argument form, --convention and coval's --remove-nested/--np-only/--min-span do not apply to CoNLL-U input")
    if args.corefud_output and (args.common["zero_division"] != 0 or args.per_document or "confidence_level" in args.common):
        raise ValueError("--corefud-output prints the scorer's own figures: leave --zero-division 0 and drop --per-document and --confidence-level")
    files = [(read_text(path, argument), path, argument) for path, argument in ((args.key, "KEY"), (args.response, "RESPONSE"))]
    metrics = None if args.metric == "all" else (args.metric,)
    keep_singletons = not args.remove_singletons
    try:
        result = compute(files[1][0], files[0][0], matching=args.matching, keep_singletons=keep_singletons, zero_matching=args.zero_matching, metrics=metrics, per_document=args.per_document, return_counts=True, **args.common)
    except ValueError:
        for text, path, argument in files:  # a file that cannot be read: its error under the file's name
            read_conllu(text, f"{argument}: {path}")
        raise
    if args.corefud_output:
        result["corefud_report"] = scorer_output(result, metrics or "all", args.matching, keep_singletons, args.zero_matching)
    return result


# corefud-scorer's `-m all`, in the order it prints them
SCORER_ORDER = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")


def scorer_output(result, metrics, matching, keep_singletons, zero_matching):
    """What `corefud-scorer.py KEY SYS -m METRICS -a MATCHING [-s] -z ZERO_MATCHING` prints
    to standard output, from compute()'s result (zero_division 0) for those metrics:
    metrics "all" or names in the order given (the scorer prints them so)."""
    names = list(SCORER_ORDER) if metrics == "all" else list(metrics)
    # its header (ua-scorer's process_arguments): "mor" alone counts as no coreference metric
    message = "The scorer is evaluating "
    if set(names) - {"mor"}:
        message += "coreferential mentions" + (", singletons" if keep_singletons else "") + f", zeros (using {zero_matching} match method)"
    message += f" using {'partial-corefud' if matching == 'partial' else matching} match evaluation setting.\n"
    lines = [message + "The following metrics will be evaluated: " + ", ".join(names) + "\n"]
    for name in names:
        lines += [name, "Recall: %.2f  Precision: %.2f  F1: %.2f" % tuple(result[f"{name}_{part}"] * 100 for part in ("recall", "precision", "f1"))]
    if sum(name in ("muc", "bcub", "ceafe") for name in names) == 3:
        lines.append("CoNLL score: %.2f" % (result["conll_f1"] * 100))
    return "\n".join(lines)


def macro_average(results, keys=("conll_f1",)):
    """The CRAC tables' macro-average over datasets: the plain mean of each of `keys` over
    the results (compute()'s dicts, one per dataset, as a list or a {dataset: result} dict)."""
    values = list(results.values()) if isinstance(results, dict) else list(results)
    if not values:
        raise ValueError("results: no dataset to average")
    out = {}
    for key in keys:
        missing = [i for i, r in enumerate(values) if key not in r]
        if missing:
            raise ValueError(f"results[{missing[0]}]: has no {key!r}")
        out[key] = math.fsum(float(r[key]) for r in values) / len(values)
    return out


# The four CoNLL F1 columns of the CRAC 2024 results (ufal.mff.cuni.cz/corefud/crac24,
# Novák et al., 2024), each macro-averaged over datasets: head-match (the primary score),
# partial-match and exact-match without singletons, head-match with singletons.
CRAC_COLUMNS = {
    "head_match": dict(matching="head", keep_singletons=False),
    "partial_match": dict(matching="partial", keep_singletons=False),
    "exact_match": dict(matching="exact", keep_singletons=False),
    "with_singletons": dict(matching="head", keep_singletons=True),
}


def crac_table(datasets, zero_matching="dependent", zero_division=0.0):
    """The CRAC results table in one call: per dataset the CoNLL F1 under each of
    CRAC_COLUMNS, and their macro_average over the datasets (as fractions, not percent).

    datasets: {name: (predictions, references)}, each side as compute() takes it (a
    CoNLL-U text or a list of them). Returns {"datasets": {name: {column: conll_f1}},
    "macro_average": {column: mean over datasets}}."""
    if not isinstance(datasets, dict) or not datasets:
        raise ValueError("datasets: expected a non-empty {name: (predictions, references)} dict")
    zero_division = check_zero_division(zero_division)
    table = {}
    for name, pair in datasets.items():
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
            raise ValueError(f"datasets[{name!r}]: expected (predictions, references), got {type(pair).__name__}")
        # read once, scored under every column
        keys, responses = _texts(pair[1], f"datasets[{name!r}] references"), _texts(pair[0], f"datasets[{name!r}] predictions")
        if len(keys) != len(responses):
            raise ValueError(f"datasets[{name!r}]: {len(responses)} CoNLL-U texts of predictions for {len(keys)} references")
        sources = [(f"datasets[{name!r}] references[{i}]", f"datasets[{name!r}] predictions[{i}]") for i in range(len(keys))]
        read = [(read_conllu(k, ks), read_conllu(r, rs)) for k, r, (ks, rs) in zip(keys, responses, sources)]
        table[name] = {}
        for column, setting in CRAC_COLUMNS.items():
            rows = [statistics(k, r, setting["matching"], setting["keep_singletons"], zero_matching, ks, rs, ("muc", "bcub", "ceafe"))[1] for (k, r), (ks, rs) in zip(read, sources)]
            table[name][column] = float(scores(np.concatenate(rows).sum(0), zero_division, ("muc", "bcub", "ceafe"))["conll_f1"])
    return {"datasets": table, "macro_average": macro_average(list(table.values()), tuple(CRAC_COLUMNS))}
