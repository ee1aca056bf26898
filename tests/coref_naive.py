"""coref_conll's statistics the straightforward way, one document at a time in plain
Python, written from the metrics' definitions (Pradhan et al. 2014 for MUC, B3, CEAFm,
CEAFe and BLANC as scorer.pl v8.01 counts them; Moosavi & Strube 2016 for LEA) and
separately from paperscore.coref: the tests' second opinion on its vectorised path.

A document is (key, response): lists of entities, each a list of hashable mentions.
scorer.pl's rules kept here: a response mention on a key span already met in an earlier
response entity (or earlier in the same one) is dropped; a twinless span repeated in the
response stays wherever it is; twinless mentions and singletons count.

Each function returns the reference's [recall numerator, recall denominator, precision
numerator, precision denominator] (BLANC: those four for coreference links, then for
non-coreference links). CEAF: scipy's linear_sum_assignment on the dense key x response
similarity matrix, the aligned values summed exactly (math.fsum), as the package does.
"""

import math
from itertools import combinations

import numpy as np
from scipy.optimize import linear_sum_assignment


def prepare(key, response, keep_singletons=True):
    """(key, response) as scorer.pl scores them: singleton entities removed first when
    keep_singletons is False, then repeated key spans dropped from the response."""
    if not keep_singletons:
        key = [e for e in key if len(e) > 1]
        response = [e for e in response if len(e) > 1]
    key_spans = {m for e in key for m in e}
    seen, kept = set(), []
    for entity in response:
        out = []
        for m in entity:
            if m in key_spans:
                if m in seen:
                    continue
                seen.add(m)
            out.append(m)
        if out:
            kept.append(out)
    return [list(e) for e in key], kept


def mentions(key, response):
    key_spans = {m for e in key for m in e}
    response_spans = {m for e in response for m in e}
    found = len(key_spans & response_spans)
    return [found, len(key_spans), found, len(response_spans)]


def _muc_side(entities, others):
    """Σ over entities of |E| - (the parts the other side cuts E into, a mention the other
    side lacks being a part of its own), and Σ (|E| - 1)."""
    owner = {m: i for i, e in enumerate(others) for m in e}
    numerator = 0
    for e in entities:
        parts = {owner[m] for m in e if m in owner}
        alone = sum(1 for m in e if m not in owner)
        numerator += len(e) - len(parts) - alone
    return numerator, sum(len(e) - 1 for e in entities)


def muc(key, response):
    return [*_muc_side(key, response), *_muc_side(response, key)]


def _bcub_side(entities, others):
    """Σ over mentions m of E of |E ∩ O(m)| / |E|, O(m) the other side's entity of m."""
    owner = {m: set(e) for e in others for m in e}
    total = 0.0
    for e in entities:
        for m in e:
            if m in owner:
                total += len(set(e) & owner[m]) / len(e)
    return total, sum(len(e) for e in entities)


def bcub(key, response):
    return [*_bcub_side(key, response), *_bcub_side(response, key)]


def _ceaf(key, response, phi):
    if not key or not response:
        return 0.0
    similarity = np.array([[phi(k, r) for r in response] for k in key], dtype=float)
    rows, columns = linear_sum_assignment(similarity, maximize=True)
    return math.fsum(similarity[rows, columns].tolist())


def ceafm(key, response):
    best = _ceaf(key, response, lambda k, r: len(set(k) & set(r)))
    return [best, sum(map(len, key)), best, sum(map(len, response))]


def ceafe(key, response):
    best = _ceaf(key, response, lambda k, r: 2 * len(set(k) & set(r)) / (len(k) + len(r)))
    return [best, len(key), best, len(response)]


def _links(entities):
    """Coreference links (pairs of mentions in one entity, (x, x) for x twice in it) and
    non-coreference links (pairs of mentions in two different entities), as sets."""
    coreference = {tuple(sorted((a, b))) for e in entities for a, b in combinations(e, 2)}
    non = {tuple(sorted((a, b))) for e, f in combinations(entities, 2) for a in e for b in f}
    return coreference, non


def blanc(key, response):
    key_links, key_non = _links(key)
    response_links, response_non = _links(response)
    right, right_non = len(key_links & response_links), len(key_non & response_non)
    return [right, len(key_links), right, len(response_links), right_non, len(key_non), right_non, len(response_non)]


def _lea_side(entities, others):
    """Σ over entities E of |E| × the share of E's links the other side keeps; a
    singleton's one link is kept when its mention is a singleton there too."""
    total = 0.0
    for e in entities:
        if len(e) == 1:
            resolved = sum(1 for o in others if len(o) == 1 and o[0] == e[0])
        else:
            resolved = sum(math.comb(len(set(e) & set(o)), 2) for o in others) / math.comb(len(e), 2)
        total += len(e) * resolved
    return total, sum(len(e) for e in entities)


def lea(key, response):
    return [*_lea_side(key, response), *_lea_side(response, key)]


METRICS = {"mentions": mentions, "muc": muc, "bcub": bcub, "ceafm": ceafm, "ceafe": ceafe, "blanc": blanc, "lea": lea}


def document(key, response, metrics=tuple(METRICS), keep_singletons=True):
    """{metric: that metric's numerators and denominators} of one document."""
    key, response = prepare(key, response, keep_singletons)
    return {m: METRICS[m](key, response) for m in metrics}
