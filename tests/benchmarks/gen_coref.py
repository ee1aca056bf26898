#!/usr/bin/env python3
"""Synthetic CoNLL-2012 coreference key/response generator (part of this project's test tooling).

Writes KEY and RESPONSE files in the CoNLL-2011/2012 *_conll layout that both the
reference Perl scorer (conll/reference-coreference-scorers, scorer.pl) and coval read:
tab-separated, 12 columns, coreference in the last column, one token per line,
blank line between sentences, '#begin document (NAME); part 000' / '#end document'.
Multiple annotations on one token are joined with '|' (coval needs the '|').

The response is the key with random perturbations per document:
  --p-drop      drop a key mention
  --p-split     split a (size>=2) entity into two
  --p-merge     merge an entity into another entity
  --p-spurious  (x #mentions) add twinless mentions, as singletons or into entities
  --p-boundary  move a mention's end by one token (it becomes twinless)
Mentions never cross sentence boundaries, never duplicate an existing span and
never partially overlap (nesting of different entities is allowed), so the files
are valid for both scorers.

Usage:
  python tests/benchmarks/gen_coref.py OUT_PREFIX [--docs 300] [--clusters 60] [--seed 0] [--no-singletons] ...
  -> OUT_PREFIX.key.conll and OUT_PREFIX.response.conll, summary on stdout.
Example (the standard benchmark pair, about 43.6k mentions per file):
  python tests/benchmarks/gen_coref.py /tmp/syn --docs 300 --clusters 60 --seed 1
  perl scorer.pl all /tmp/syn.key.conll /tmp/syn.response.conll none
"""
import argparse
import random


def entity_sizes(rng, n, singletons):
    sizes = []
    for _ in range(n):
        if singletons and rng.random() < 0.35:
            sizes.append(1)
        else:
            # 2..~12, geometric-like tail
            s = 2
            while s < 25 and rng.random() < 0.55:
                s += 1
            sizes.append(s)
    return sizes


def place_mentions(rng, n_mentions, sent_len, tokens_per_mention):
    """Return (n_tokens, list of spans) with unique, non-crossing spans inside sentences."""
    n_tokens = max(sent_len, int(n_mentions * tokens_per_mention))
    n_tokens += (-n_tokens) % sent_len
    spans, used = [], set()
    tries = 0
    while len(spans) < n_mentions and tries < n_mentions * 50:
        tries += 1
        s = rng.randrange(n_tokens)
        ln = rng.choice((1, 1, 1, 2, 2, 3, 4))
        e = s + ln - 1
        if e // sent_len != s // sent_len or e >= n_tokens or (s, e) in used:
            continue
        if any(not (e < a or s > b or (a <= s and e <= b) or (s <= a and b <= e)) for a, b in spans):
            continue  # partial overlap (crossing) not allowed
        spans.append((s, e))
        used.add((s, e))
    return n_tokens, spans


def free_span(rng, n_tokens, sent_len, spans_set, spans_list):
    for _ in range(200):
        s = rng.randrange(n_tokens)
        e = s + rng.choice((0, 0, 1, 2))
        if e >= n_tokens or e // sent_len != s // sent_len or (s, e) in spans_set:
            continue
        if any(not (e < a or s > b or (a <= s and e <= b) or (s <= a and b <= e)) for a, b in spans_list):
            continue
        return (s, e)
    return None


def perturb(rng, clusters, n_tokens, sent_len, a):
    resp = [list(c) for c in clusters]
    # drops
    resp = [[m for m in c if rng.random() >= a.p_drop] for c in resp]
    resp = [c for c in resp if c]
    # splits
    out = []
    for c in resp:
        if len(c) >= 2 and rng.random() < a.p_split:
            rng.shuffle(c)
            k = rng.randrange(1, len(c))
            out += [c[:k], c[k:]]
        else:
            out.append(c)
    resp = out
    # merges
    rng.shuffle(resp)
    merged = []
    for c in resp:
        if merged and rng.random() < a.p_merge:
            merged[rng.randrange(len(merged))].extend(c)
        else:
            merged.append(c)
    resp = merged
    all_spans = [m for c in resp for m in c]
    span_set = set(all_spans) | {m for c in clusters for m in c}
    # boundary errors: move end by one (mention becomes twinless)
    for c in resp:
        for i, (s, e) in enumerate(c):
            if rng.random() < a.p_boundary:
                ne = e + rng.choice((-1, 1))
                if s <= ne < n_tokens and ne // sent_len == s // sent_len and (s, ne) not in span_set:
                    if not any(not (ne < x or s > y or (x <= s and ne <= y) or (s <= x and y <= ne))
                               for x, y in all_spans if (x, y) != (s, e)):
                        span_set.discard((s, e)); span_set.add((s, ne))
                        all_spans[all_spans.index((s, e))] = (s, ne)
                        c[i] = (s, ne)
    # spurious twinless mentions
    n_sp = int(round(a.p_spurious * len(all_spans)))
    for _ in range(n_sp):
        sp = free_span(rng, n_tokens, sent_len, span_set, all_spans)
        if sp is None:
            continue
        span_set.add(sp); all_spans.append(sp)
        if resp and rng.random() < 0.5:
            resp[rng.randrange(len(resp))].append(sp)
        else:
            resp.append([sp])
    return resp


def write_doc(f, name, n_tokens, sent_len, clusters, ids):
    tags = [[] for _ in range(n_tokens)]
    for cid, c in zip(ids, clusters):
        for s, e in c:
            if s == e:
                tags[s].append("(%d)" % cid)
            else:
                tags[s].append("(%d" % cid)
                tags[e].append("%d)" % cid)
    f.write("#begin document (%s); part 000\n" % name)
    for t in range(n_tokens):
        if t and t % sent_len == 0:
            f.write("\n")
        col = "|".join(tags[t]) if tags[t] else "-"
        f.write("%s\t0\t%d\tw%d\tNN\t*\t-\t-\t-\t-\t*\t%s\n" % (name, t % sent_len, t, col))
    f.write("\n#end document\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_prefix")
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--clusters", type=int, default=60, help="mean number of key entities per document")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sent-len", type=int, default=20)
    ap.add_argument("--tokens-per-mention", type=float, default=4.0)
    ap.add_argument("--no-singletons", action="store_true", help="key has no singleton entities")
    ap.add_argument("--p-drop", type=float, default=0.10)
    ap.add_argument("--p-split", type=float, default=0.15)
    ap.add_argument("--p-merge", type=float, default=0.10)
    ap.add_argument("--p-spurious", type=float, default=0.10)
    ap.add_argument("--p-boundary", type=float, default=0.05)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    nk = nr = 0
    with open(a.out_prefix + ".key.conll", "w") as fk, open(a.out_prefix + ".response.conll", "w") as fr:
        for d in range(a.docs):
            name = "syn/doc_%04d" % d
            n_ent = max(1, int(rng.gauss(a.clusters, a.clusters * 0.2)))
            sizes = entity_sizes(rng, n_ent, not a.no_singletons)
            n_tokens, spans = place_mentions(rng, sum(sizes), a.sent_len, a.tokens_per_mention)
            rng.shuffle(spans)
            key, i = [], 0
            for s in sizes:
                c = spans[i:i + s]
                i += s
                if c:
                    key.append(c)
            resp = perturb(rng, key, n_tokens, a.sent_len, a)
            write_doc(fk, name, n_tokens, a.sent_len, key, range(len(key)))
            # response entity ids deliberately unrelated to key ids
            write_doc(fr, name, n_tokens, a.sent_len, resp, range(1000, 1000 + len(resp)))
            nk += sum(len(c) for c in key)
            nr += sum(len(c) for c in resp)
    print("docs=%d key_mentions=%d response_mentions=%d -> %s.{key,response}.conll" % (a.docs, nk, nr, a.out_prefix))


if __name__ == "__main__":
    main()
