"""Inputs and expected figures for coval's remove_nested, NP_only and min_span options.

The inputs are written here (the tests import them): random documents with parse trees
(`parsed_documents`) and LitBank's two documents with perturbed responses
(`litbank_documents`). Run as a script with a scratch copy of ns-moosavi/coval (commit
87071a6, MIT) to print coval's own figures for every option combination, which
tests/data/coref_coval/expected.json holds:

    git clone https://github.com/ns-moosavi/coval /tmp/coref27-refs/coval  # at 87071a6
    python tests/coref_coval_fixtures.py /tmp/coref27-refs/coval > tests/data/coref_coval/expected.json

coval is run in place (its reader.get_coref_infos and evaluator.Evaluator) on CoNLL files
written from these inputs; nothing of coval is kept here. The inputs avoid what coval
reads differently from the reference scorer (see the card): every mention lies within
one sentence, no side holds a span twice, and no side holds two mentions that coval's
min_span makes equal.
"""

import contextlib
import io
import itertools
import json
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LITBANK = HERE / "data" / "coref_conll"
LITBANK_FILES = ["158_emma_brat.conll", "1064_the_masque_of_the_red_death_brat.conll"]
OPTIONS = ("remove_nested", "NP_only", "min_span")
# Every combination of the three options, under keep_singletons True and False.
COMBINATIONS = [
    dict(zip(OPTIONS, flags), keep_singletons=keep)
    for flags in itertools.product((False, True), repeat=3)
    if any(flags)
    for keep in (True, False)
]
METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")

# A small grammar: words with their parts of speech, phrases built at random.
NOUNS = ["dog", "city", "president", "U.S.", "plan", "3", "3.5", "%", "don't", "garden", "Emma", "house"]
ADJECTIVES = ["big", "old", "red", "first"]
VERBS = ["saw", "left", "visited", "said", "built"]
PRONOUNS = ["he", "she", "it", "they"]


def _np(rng, depth):
    """(label, children) of a noun phrase; a child is a phrase or a (word, part of speech)."""
    kind = rng.random()
    if depth > 2 or kind < 0.45:
        words = []
        if rng.random() < 0.6:
            words.append((rng.choice(["the", "a", "that", "this"]), "DT"))
        words += [(rng.choice(ADJECTIVES), "JJ") for _ in range(rng.choice((0, 0, 1, 2)))]
        words.append((rng.choice(NOUNS), rng.choice(["NN", "NNP", "CD"])))
        return ("NP", words)
    if kind < 0.6:
        return ("NP", [(rng.choice(PRONOUNS), "PRP")])
    if kind < 0.7:
        return ("NP", [(rng.choice(["that", "this"]), "DT")])  # no valid minimum-span word
    if kind < 0.8:
        return ("NP", [_np(rng, depth + 1), ("and", "CC"), _np(rng, depth + 1)])
    if kind < 0.9:
        return ("NP", [_np(rng, depth + 1), (",", ","), _np(rng, depth + 1), (",", ",")])
    return ("NP", [_np(rng, depth + 1), ("PP", [("of", "IN"), _np(rng, depth + 1)])])


def _sentence(rng):
    verb = ("VP", [(rng.choice(VERBS), "VBD"), _np(rng, 1)] + ([("PP", [("in", "IN"), _np(rng, 1)])] if rng.random() < 0.4 else []))
    if rng.random() < 0.2:
        verb[1].append(("-LRB-", "-LRB-"))
        verb[1].append(("-RRB-", "-RRB-"))
    tree = ("S", [_np(rng, 0), verb, (".", ".")])
    return ("TOP", [tree]) if rng.random() < 0.7 else tree


def _flatten(tree):
    """(words, parts of speech, parse bits, phrases as (label, start, end))."""
    words, tags, phrases = [], [], []

    def walk(node, depth):
        label, children = node
        start = len(words)
        for child in children:
            if isinstance(child[1], str):
                words.append(child[0])
                tags.append(child[1])
            else:
                walk(child, depth + 1)
        phrases.append((label, start, len(words) - 1, depth))

    walk(tree, 0)
    opens = [[] for _ in words]
    closes = [0] * len(words)
    for label, start, end, _ in sorted(phrases, key=lambda p: (p[1], -p[2], p[3])):
        opens[start].append(f"({label}")
        closes[end] += 1
    bits = ["".join(o) + "*" + ")" * c for o, c in zip(opens, closes)]
    return words, tags, bits, [p[:3] for p in phrases]


def _compatible(span, others):
    """Nested or disjoint with each of `others` (an entity's CoNLL column cannot cross)."""
    s, e = span
    return all(e < a or s > b or (a <= s and e <= b) or (s <= a and b <= e) for a, b in others)


def _clusters(rng, mentions):
    """A partition of mentions into entities of nested-or-disjoint spans, nested pairs
    often in one entity (what remove_nested removes)."""
    clusters = []
    for span in mentions:
        fits = [c for c in clusters if _compatible(span, c)]
        nesting = [c for c in fits if any(a <= span[0] and span[1] <= b or span[0] <= a and b <= span[1] for a, b in c)]
        if nesting and rng.random() < 0.5:
            rng.choice(nesting).append(span)
        elif fits and rng.random() < 0.5:
            rng.choice(fits).append(span)
        else:
            clusters.append([span])
    return clusters


def merge(rng, clusters):
    """The clusters with some (one in five) merged into an earlier one."""
    merged = []
    for cluster in clusters:
        if merged and rng.random() < 0.2:
            rng.choice(merged).extend(cluster)
        else:
            merged.append(list(cluster))
    return merged


def _response(rng, key, candidates):
    """The key with mentions dropped or their first token cut off, entities split and
    merged, and spurious mentions added."""
    response = []
    for cluster in key:
        kept = []
        for s, e in cluster:
            if rng.random() < 0.15:
                continue
            if e > s and rng.random() < 0.2:
                s += 1  # the same head, one token less
            kept.append((s, e))
        if len(kept) > 1 and rng.random() < 0.25:
            cut = rng.randrange(1, len(kept))
            response += [kept[:cut], kept[cut:]]
        elif kept:
            response.append(kept)
    merged = merge(rng, response)
    for span in rng.sample(candidates, min(len(candidates), rng.randint(0, 3))):
        if rng.random() < 0.5 and merged:
            rng.choice(merged).append(span)
        else:
            merged.append([span])
    return merged


def _clean(clusters, same_sentence, identity):
    """Drop mentions that cross a sentence, cross another mention of their entity, repeat
    a span or (identity: coval's min_span, when given) share a minimum span on the side."""
    seen, out = set(), []
    for cluster in clusters:
        kept = []
        for span in cluster:
            key = identity(span) if identity else span
            if not same_sentence(span) or span in seen or key in seen or not _compatible(span, kept):
                continue
            seen.update((span, key))
            kept.append(span)
        if kept:
            out.append(kept)
    return out


def conll_document(name, sentences, clusters):
    """A CoNLL-2012 document (12 columns, parse bits in column 6) of sentences
    [(words, tags, bits)] and clusters of [start, end] document token spans."""
    cells = {}
    for number, cluster in enumerate(clusters):
        for s, e in cluster:
            cells.setdefault(s, [[], [], []])
            cells.setdefault(e, [[], [], []])
            if s == e:
                cells[s][0].append(f"({number})")
            else:
                cells[s][1].append(f"({number}")
                cells[e][2].append(f"{number})")
    lines, token = [f"#begin document ({name}); part 000"], 0
    for words, tags, bits in sentences:
        for i, (word, tag, bit) in enumerate(zip(words, tags, bits)):
            cell = "|".join(sum(cells.get(token, [[], [], []]), [])) or "-"
            lines.append(f"{name}\t0\t{i}\t{word}\t{tag}\t{bit}\t-\t-\t-\t-\t*\t{cell}")
            token += 1
        lines.append("")
    return "\n".join(lines + ["#end document", ""])


def parsed_documents(n_docs=300, seed=27, identity=None):
    """[(name, sentences [(words, tags, parse bits)], key clusters, response clusters)] of
    random parsed documents (each document's sentences come from its own seed).
    identity(sentences, sentence of each token, span) -> coval's min_span identity, used to
    keep each side free of two mentions with one minimum span (the script passes coval's;
    the tests take the kept clusters from the fixture, so they need not)."""
    out = []
    for number in range(n_docs):
        rng = random.Random(seed * 100_000 + number)  # the sentences do not depend on `identity`
        sentences, phrases, sentence_of = [], [], []
        for _ in range(rng.randint(1, 3)):
            words, tags, bits, found = _flatten(_sentence(rng))
            offset = len(sentence_of)
            sentences.append((words, tags, bits))
            sentence_of += [len(sentences) - 1] * len(words)
            phrases += [(label, s + offset, e + offset) for label, s, e in found]
        n_tokens = len(sentence_of)
        candidates = sorted({(s, e) for label, s, e in phrases if label in ("NP", "VP", "PP") and rng.random() < 0.8})
        for _ in range(rng.randint(0, 3)):  # spans that are no phrase
            s = rng.randrange(n_tokens)
            candidates.append((s, min(n_tokens - 1, s + rng.randint(0, 3))))
        mentions = rng.sample(candidates, int(len(candidates) * rng.uniform(0.4, 0.9)))

        def same_sentence(span):
            return sentence_of[span[0]] == sentence_of[span[1]]

        def key_of(span):
            return identity(sentences, sentence_of, span) if identity else None

        key = _clean(_clusters(rng, mentions), same_sentence, key_of if identity else None)
        response = _clean(_response(rng, key, candidates), same_sentence, key_of if identity else None)
        name = f"parsed_{number}"
        out.append((name, sentences, key, response))
    return out


def sentence_numbers(text):
    """Each token's sentence in a CoNLL text (sentences end at blank lines)."""
    out, number, seen = [], 0, False
    for line in text.split("\n"):
        if line.startswith("#"):
            continue
        if not line.strip():
            number, seen = number + seen, False
            continue
        out.append(number)
        seen = True
    return out


def litbank_documents():
    """[(name, key text, response clusters)]: LitBank's two documents, each response the key
    with mentions dropped or cut by one token at the start, entities split and merged, and
    spurious one-sentence spans added (seeded by the file name)."""
    out = []
    for name in LITBANK_FILES:
        text = (LITBANK / name).read_text(encoding="utf-8")
        rng = random.Random(name)
        sentence_of = sentence_numbers(text)

        def same_sentence(span):
            return sentence_of[span[0]] == sentence_of[span[1]]

        candidates = [(s, min(s + rng.randint(0, 3), len(sentence_of) - 1)) for s in rng.sample(range(len(sentence_of)), 40)]
        key = [c for c in _litbank_clusters(text) if all(same_sentence(m) for m in c)]
        out.append((name, text, _clean(_response(rng, key, candidates), same_sentence, None)))
    return out


def _litbank_clusters(text):
    """A LitBank document's clusters of (start, end) (the coreference cell is the 13th column)."""
    clusters, opens, token = {}, {}, 0
    for line in text.split("\n"):
        if line.startswith("#") or not line.strip():
            continue
        cell = line.rstrip("\n").split("\t")[-1]
        for item in cell.split("|") if cell not in ("", "_", "-") else []:
            number = int(item.strip("()"))
            if item.startswith("(") and item.endswith(")"):
                clusters.setdefault(number, []).append((token, token))
            elif item.startswith("("):
                opens.setdefault(number, []).append(token)
            else:
                clusters.setdefault(number, []).append((opens[number].pop(), token))
        token += 1
    return list(clusters.values())


def _response_text(key_text, clusters):
    """The key's lines with the coreference column rewritten to `clusters`."""
    cells = {}
    for number, cluster in enumerate(clusters):
        for s, e in cluster:
            if s == e:
                cells.setdefault(s, []).append(f"({number})")
            else:
                cells.setdefault(s, []).append(f"({number}")
                cells.setdefault(e, []).append(f"{number})")
    out, token = [], 0
    for line in key_text.split("\n"):
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        fields = line.split("\t")
        while fields and not fields[-1]:
            fields.pop()
        fields[-1] = "|".join(cells.get(token, [])) or "-"
        out.append("\t".join(fields))
        token += 1
    return "\n".join(out)


def main(coval_path):
    sys.path.insert(0, str(coval_path))
    from coval.conll import mention as coval_mention
    from coval.conll import reader
    from coval.eval import evaluator

    functions = {"mentions": evaluator.mentions, "muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe, "lea": evaluator.lea}

    def identity(sentences, sentence_of, span):
        """coval's min_span identity of a span (a Mention after set_min_span)."""
        sentence = sentence_of[span[0]]
        first = sentence_of.index(sentence)
        words, tags, bits = sentences[sentence]
        lines = [f"x\t0\t{i}\t{w}\t{t}\t{b}\t-\t-\t-\t-\t*\t-" for i, (w, t, b) in enumerate(zip(words, tags, bits))]
        s, e = span[0] - first, span[1] - first
        m = coval_mention.Mention("d", sentence, s, e, words[s : e + 1])
        m.set_gold_parse(reader.extract_annotated_parse(lines[s : e + 1], s))
        m.set_min_span()
        return (sentence, frozenset(m.min_spans)) if m.min_spans else (sentence, s, e)

    sets = {}
    parsed = parsed_documents(identity=identity)
    sets["parsed"] = (
        "".join(conll_document(name, sentences, key) for name, sentences, key, _ in parsed),
        "".join(conll_document(name, sentences, response) for name, sentences, _, response in parsed),
        {name: response for name, _, _, response in parsed},
        {name: key for name, _, key, _ in parsed},
    )
    litbank = litbank_documents()
    sets["litbank"] = ("\n".join(text for _, text, _ in litbank), "\n".join(_response_text(text, response) for _, text, response in litbank), {name: response for name, _, response in litbank}, None)
    out = {"coval": "ns-moosavi/coval 87071a6", "inputs": {}, "figures": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for set_name, (key_text, response_text, responses, keys) in sets.items():
            key_path, response_path = Path(scratch) / f"{set_name}.key", Path(scratch) / f"{set_name}.response"
            key_path.write_text(key_text, encoding="utf-8")
            response_path.write_text(response_text, encoding="utf-8")
            out["inputs"][set_name] = {"responses": {k: [[list(m) for m in c] for c in v] for k, v in responses.items()}}
            if keys is not None:
                out["inputs"][set_name]["keys"] = {k: [[list(m) for m in c] for c in v] for k, v in keys.items()}
            for combination in COMBINATIONS:
                if set_name == "litbank" and (combination["NP_only"] or combination["min_span"]):
                    continue  # LitBank has no parse trees
                with contextlib.redirect_stdout(io.StringIO()):  # coval prints what it removes
                    infos = reader.get_coref_infos(str(key_path), str(response_path), combination["NP_only"], combination["remove_nested"], combination["keep_singletons"], combination["min_span"])
                figures = {}
                for metric in METRICS:
                    found = evaluator.Evaluator(functions[metric])
                    for document in infos.values():
                        found.update(document)
                    p_num, p_den, r_num, r_den = found.get_counts()
                    figures[metric] = [r_num, r_den, p_num, p_den]
                label = ",".join([name for name in OPTIONS if combination[name]] + ([] if combination["keep_singletons"] else ["remove_singletons"]))
                out["figures"].setdefault(set_name, {})[label] = figures
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"))
    print()


if __name__ == "__main__":
    main(sys.argv[1])
