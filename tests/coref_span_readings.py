"""Responses in the right and in a wrong span convention, and a plain oracle of what
coref's span-convention check decides for them (coref.check_span_reading).

The tests import `responses` and `oracle`. Run as a script over LitBank's 100 documents
(../shared/data/litbank, or a folder given) to print the rates the card states: how many
responses written in the convention they are read in are refused (false alarms) and how
many written in another are scored (misses), by the number of predicted mentions:

    python tests/coref_span_readings.py [LITBANK_DIR] [--calls N] [--seed S]

A response is a weak system's output on a window of a document (20 tokens to a whole
document, one to three windows a call): the key's mentions each kept with probability
`recall` (some with one boundary moved by a token, as systems err), random spans added,
clusters shuffled; or a rule-based system's (pronouns, determiner + word, capitalised
runs), which knows nothing of the key. Written in each convention (token positions end
included or excluded, character offsets of the tokens joined by single spaces) and read in
each token convention, with tokens= half the time (then character readings are tried too,
and a span beyond the tokens cannot be read).
"""

import functools
import random
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "shared"))

from paperscore import coref  # noqa: E402

CONVENTIONS = tuple(coref.SPAN_CONVENTIONS)
PRONOUNS = set("i me my myself you your yourself he him his himself she her herself it its itself we us our they them their themselves".split())
DETERMINERS = set("the a an this that these those his her their my your our its".split())
WINDOWS = (20, 50, 100, 300, 1000, None)  # tokens; None: the whole document


def document_words(text):
    """A CoNLL document's words (column 4 of its token lines)."""
    return [line.split("\t")[3] for line in text.split("\n") if line.strip() and not line.startswith("#")]


def weak_system(rng, key, n_tokens):
    """Clusters of (start, end) token spans, end included: the key's mentions kept with a
    drawn recall, a drawn share of them with one boundary one token off, random spans of the
    key's lengths added, mentions dealt into clusters at random."""
    recall, boundary, spurious = rng.choice((0.05, 0.1, 0.3, 0.6, 0.9, 1.0)), rng.choice((0, 0.1, 0.3, 0.5)), rng.choice((0, 0.3, 1, 2))
    lengths = [e - s + 1 for s, e in key] or [1]
    spans = []
    for s, e in key:
        if rng.random() < recall:
            if rng.random() < boundary:
                s, e = rng.choice(((s - 1, e), (s + 1, e), (s, e - 1), (s, e + 1)))
            if 0 <= s <= e < n_tokens:
                spans.append((s, e))
    for _ in range(int(spurious * len(key) + rng.random())):
        length = rng.choice(lengths)
        if length <= n_tokens:
            start = rng.randrange(n_tokens - length + 1)
            spans.append((start, start + length - 1))
    return _clusters(rng, spans)


def rule_system(words):
    """Pronouns, a determiner with its next word, runs of capitalised words; clustered by
    their lower-cased text."""
    found = {}
    for i, word in enumerate(words):
        lower = word.lower()
        if lower in PRONOUNS:
            found[(i, i)] = lower
        if lower in DETERMINERS and i + 1 < len(words) and words[i + 1].isalpha():
            found[(i, i + 1)] = words[i + 1].lower()
        if word[:1].isupper() and word.isalpha() and lower not in PRONOUNS | DETERMINERS and not (i and words[i - 1][:1].isupper() and words[i - 1].isalpha()):
            j = i
            while j + 1 < len(words) and words[j + 1][:1].isupper() and words[j + 1].isalpha():
                j += 1
            found[(i, j)] = " ".join(words[i : j + 1]).lower()
    clusters = {}
    for span, text in found.items():
        clusters.setdefault(text, []).append(span)
    return list(clusters.values())


def _clusters(rng, spans):
    rng.shuffle(spans)
    clusters = []
    for span in spans:
        if clusters and rng.random() < 0.6:
            rng.choice(clusters).append(span)
        else:
            clusters.append([span])
    return clusters


class Words(tuple):
    """A document's tokens, with the first and last character of each in the tokens
    joined by single spaces, and the tokens at those characters."""

    @functools.cached_property
    def offsets(self):
        firsts, lasts, at = [], [], 0
        for word in self:
            firsts.append(at)
            lasts.append(at + len(word) - 1)
            at += len(word) + 1
        return firsts, lasts

    @functools.cached_property
    def at(self):
        return tuple({c: number for number, c in enumerate(table)} for table in self.offsets)


def write(span, convention, words):
    """A token span (end included) as `convention` writes it (words: Words)."""
    s, e = span
    if convention.startswith("token"):
        return [s, e + (convention == "token_exclusive")]
    firsts, lasts = words.offsets
    return [firsts[s], lasts[e] + (convention == "char_exclusive")]


def read(pair, convention, words, bounded=True):
    """The token span (end included) that `convention` reads in a written pair, or None
    when it cannot be one (an end-exclusive end at its start, off the token boundaries,
    beyond the tokens when `bounded`)."""
    s, e = pair
    if convention.endswith("exclusive"):
        if e <= s:
            return None
        e -= 1
    if convention.startswith("char"):
        firsts, lasts = words.at
        first, last = firsts.get(s), lasts.get(e)
        return None if first is None or last is None or last < first else (first, last)
    return (s, e) if e < len(words) or not bounded else None


def oracle(keys, written, claimed, words, with_tokens):
    """What the check decides for one call, mention by mention with Python sets:
    "unreadable" (refused while reading), "refuse", "warn" or "score". keys, written,
    words: per document the key's spans, the response's written pairs and the tokens."""
    read_as, others = 0, {}
    n = sum(map(len, written))
    for key, pairs, tokens in zip(keys, written, words):
        got = [read(pair, claimed, tokens, with_tokens) for pair in pairs]
        if None in got:
            return "unreadable"
        read_as += sum(span in key for span in got)
        for other in CONVENTIONS:
            if other != claimed and claimed.startswith("token") and (with_tokens or other.startswith("token")):
                others[other] = others.get(other, 0) + sum(read(pair, other, tokens) in key for pair in pairs)
    better = max(others.values(), default=0)
    if n >= coref.MIN_MISSING and max(read_as, better) < coref.FIT_SHARE * n:
        return "warn"  # fits no reading
    if better >= coref.MISREAD_RATIO * read_as and better - read_as >= coref.WARN_GAIN:
        return "refuse" if better - read_as >= coref.MISREAD_GAIN else "warn"
    return "score"


def responses(documents, n_calls, seed):
    """n_calls calls, each [(key spans, response clusters, words) per window] with the
    window size and system kind: documents are (key spans, words) pairs."""
    rng = random.Random(seed)
    for _ in range(n_calls):
        size, kind, call = rng.choice(WINDOWS), rng.choice(("weak", "weak", "weak", "rule")), []
        for _ in range(rng.choice((1, 1, 2, 3))):
            key, words = rng.choice(documents)
            start = rng.randrange(max(1, len(words) - size + 1)) if size else 0
            stop = start + size if size else len(words)
            window = sorted({(s - start, e - start) for s, e in key if start <= s and e < stop})
            tokens = Words(words[start:stop])
            clusters = weak_system(rng, window, len(tokens)) if kind == "weak" else rule_system(tokens)
            call.append((window, clusters, tokens))
        yield size, kind, call


def decide(call, truth, claimed, with_tokens):
    """What coref.read_examples (compute's reading) does with one call, as the oracle's
    four outcomes."""
    predictions = [[[write(span, truth, words) for span in cluster] for cluster in clusters] for _, clusters, words in call]
    references = [[[list(span)] for span in key] for key, _, _ in call]
    tokens = [words for _, _, words in call] if with_tokens else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            coref.read_examples(predictions, references, (claimed, "token_inclusive"), tokens)
        except ValueError as error:
            return "refuse" if "they are written in" in str(error) else "unreadable"
    return "warn" if caught else "score"


def written(call, truth):
    """Per document of a call its response's pairs as `truth` writes them."""
    return [[write(span, truth, words) for cluster in clusters for span in cluster] for _, clusters, words in call]


def main(argv):
    import argparse
    from collections import Counter

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("litbank", nargs="?", default=str(HERE.parent.parent / "shared" / "data" / "litbank"))
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    documents = []
    for path in sorted(Path(args.litbank).glob("*.conll")):
        text = path.read_text(encoding="utf-8")
        [document] = coref.parse_conll(text, str(path), whole=True)
        documents.append((set(zip(document.first.tolist(), document.last.tolist())), document_words(text)))
    if not documents:
        parser.error(f"no .conll file in {args.litbank}")
    rng = random.Random(args.seed)
    outcomes = Counter()
    for _, kind, call in responses(documents, args.calls, args.seed):
        with_tokens = rng.random() < 0.5
        n = sum(len(cluster) for _, clusters, _ in call for cluster in clusters)
        bucket = "1-9" if n < 10 else "10-29" if n < 30 else "30-99" if n < 100 else "100+"
        keys = [set(key) for key, _, _ in call]
        for truth in CONVENTIONS:
            pairs = written(call, truth)
            for claimed in ("token_inclusive", "token_exclusive"):
                case = "right convention" if truth == claimed else "token ends swapped" if truth.startswith("token") else f"characters, {'with' if with_tokens else 'no'} tokens="
                outcomes[case, bucket, oracle(keys, pairs, claimed, [w for _, _, w in call], with_tokens)] += 1
    print(f"{len(documents)} documents, {args.calls} calls (seed {args.seed}); per case and number of predicted mentions:")
    print("refused while reading / refused by the check / scored with a warning / scored silently")
    for case in ("right convention", "token ends swapped", "characters, with tokens=", "characters, no tokens="):
        print(case)
        for bucket in ("1-9", "10-29", "30-99", "100+"):
            row = [outcomes[case, bucket, outcome] for outcome in ("unreadable", "refuse", "warn", "score")]
            print(f"  {bucket:>6}: {' / '.join(map(str, row))} of {sum(row)}")

if __name__ == "__main__":
    main(sys.argv[1:])
