"""Random CorefUD key/response pairs for tests/test_corefud.py and the reference run
(tests/data/corefud/make_fixtures.py). Deterministic for a case number: random.Random(seed)
draws only with random(), randrange() and choice(), and each case's texts are checked
against the SHA-256 the fixture stores, so a change of stream fails loudly.

A key is a few documents of short sentences with empty nodes (DEPS naming a word as parent),
entities of contiguous, nested, discontinuous and zero mentions (heads anywhere in the
mention), singletons and spans repeated in two entities. A response is the key perturbed:
spans shifted, heads moved or dropped to the first word, mentions dropped or added, entities
split and merged, zeros dropped or added, empty nodes renumbered or their DEPS changed.
"""

import hashlib
import random

FIELDS = "# global.Entity = eid-etype-head-other"


def _key(rng):
    docs = []
    for d in range(rng.randrange(1, 4)):
        sentences = []
        for _ in range(rng.randrange(1, 5)):
            n = rng.randrange(2, 12)
            empties = sorted({rng.randrange(0, n) + 1 for _ in range(rng.randrange(0, 3))})
            nodes = []
            for w in range(1, n + 1):
                nodes.append(w)
                if w in empties:
                    nodes.append(w + 0.1)
            deps = {e: _deps(rng, n) for e in nodes if isinstance(e, float)}
            sentences.append({"n": n, "nodes": nodes, "deps": deps})
        docs.append({"sentences": sentences, "entities": []})
    for doc in docs:
        for _ in range(rng.randrange(1, 7)):
            size = 1 if rng.random() < 0.3 else rng.randrange(2, 6)
            mentions = [m for m in (_mention(rng, doc) for _ in range(size)) if m]
            if mentions:
                doc["entities"].append(mentions)
        if doc["entities"] and rng.random() < 0.2:  # a span repeated in another entity
            doc["entities"].append([dict(rng.choice(rng.choice(doc["entities"])))])
    return docs


def _deps(rng, n):
    return sorted({(rng.randrange(0, n + 1), rng.choice(["nsubj", "obj", "iobj", "obl"])) for _ in range(rng.randrange(1, 3))})


def _mention(rng, doc):
    s = rng.randrange(len(doc["sentences"]))
    nodes = doc["sentences"][s]["nodes"]
    zeros = [i for i, x in enumerate(nodes) if isinstance(x, float)]
    if zeros and rng.random() < 0.2:
        i = rng.choice(zeros)
        return {"s": s, "parts": [(i, i)], "head": 0}
    start = rng.randrange(len(nodes))
    end = min(len(nodes) - 1, start + rng.randrange(0, 4))
    parts = [(start, end)]
    if rng.random() < 0.1 and end + 2 < len(nodes):
        gap_end = rng.randrange(end + 2, len(nodes))
        parts.append((gap_end, min(len(nodes) - 1, gap_end + rng.randrange(0, 2))))
    size = sum(b - a + 1 for a, b in parts)
    return {"s": s, "parts": parts, "head": rng.randrange(size)}


def _words(mention):
    return [i for a, b in mention["parts"] for i in range(a, b + 1)]


def _response(rng, key):
    docs = []
    for doc in key:
        sentences = []
        for sentence in doc["sentences"]:
            nodes = [x for x in sentence["nodes"] if not (isinstance(x, float) and rng.random() < 0.15)]
            deps = {x: (sentence["deps"][x] if rng.random() < 0.7 else _deps(rng, sentence["n"])) for x in nodes if isinstance(x, float)}
            if rng.random() < 0.15:  # a zero the key lacks
                w = rng.randrange(1, sentence["n"] + 1)
                if w + 0.1 not in nodes and w + 0.2 not in nodes:
                    nodes = sorted(nodes + [w + 0.2])
                    deps[w + 0.2] = _deps(rng, sentence["n"])
            sentences.append({"n": sentence["n"], "nodes": nodes, "deps": deps})
        entities = []
        for entity in doc["entities"]:
            kept = []
            for m in entity:
                m = _moved(rng, m, doc["sentences"][m["s"]]["nodes"], sentences[m["s"]]["nodes"])
                if m and rng.random() > 0.1:
                    kept.append(m)
            if len(kept) > 2 and rng.random() < 0.2:
                cut = rng.randrange(1, len(kept))
                entities += [kept[:cut], kept[cut:]]
            elif kept:
                entities.append(kept)
        if len(entities) > 1 and rng.random() < 0.2:
            a = entities.pop(rng.randrange(len(entities)))
            entities[rng.randrange(len(entities))] += a
        new = {"sentences": sentences, "entities": entities}
        for _ in range(rng.randrange(0, 3)):
            m = _mention(rng, new)
            if m:
                if entities and rng.random() < 0.5:
                    rng.choice(entities).append(m)
                else:
                    entities.append([m])
        docs.append(new)
    return docs


def _moved(rng, m, key_nodes, nodes):
    """A key mention on the response's nodes, maybe with shifted bounds or another head."""
    words = [key_nodes[i] for i in _words(m)]
    if any(w not in nodes for w in words):
        return None
    parts = [(nodes.index(key_nodes[a]), nodes.index(key_nodes[b])) for a, b in m["parts"]]
    if rng.random() < 0.2:
        a, b = parts[-1]
        b = max(a, min(len(nodes) - 1, b + rng.choice([-1, 1])))
        a = max(parts[-2][1] + 2 if len(parts) > 1 else 0, min(b, a + rng.choice([-1, 0, 1])))
        if a <= b:
            parts[-1] = (a, b)
    size = sum(b - a + 1 for a, b in parts)
    head = m["head"]
    if rng.random() < 0.1:
        head = 0
    elif rng.random() < 0.15 or head >= size:
        head = rng.randrange(size)
    return {"s": m["s"], "parts": parts, "head": head}


def _clean(doc):
    """Drop mentions that would overlap another mention of their entity (udapi pairs
    brackets by entity, so such mentions cannot be written unambiguously)."""
    out = []
    for entity in doc["entities"]:
        kept = []
        for m in entity:
            lo, hi = m["parts"][0][0], m["parts"][-1][1]
            if all(k["s"] != m["s"] or k["parts"][-1][1] < lo or hi < k["parts"][0][0] for k in kept):
                kept.append(m)
        if kept:
            out.append(kept)
    doc["entities"] = out


def write(docs, case):
    """CoNLL-U text of docs."""
    lines = []
    for d, doc in enumerate(docs):
        _clean(doc)
        misc = [[[[], [], []] for _ in s["nodes"]] for s in doc["sentences"]]  # closings, singles, openings
        for e, entity in enumerate(doc["entities"]):
            eid = f"e{d}x{e}"
            for m in entity:
                cell = misc[m["s"]]
                head = m["head"] + 1
                many = len(m["parts"]) > 1
                for p, (a, b) in enumerate(m["parts"], 1):
                    name = f"{eid}[{p}/{len(m['parts'])}]" if many else eid
                    last = p == len(m["parts"])
                    h = head if last else 1
                    if a == b:
                        cell[a][1].append(f"({name}-x-{h}-)")
                    else:
                        cell[a][2].append(f"({name}-x-{h}-")
                        cell[b][0].append(f"{name})")
        for s, sentence in enumerate(doc["sentences"]):
            if s == 0:
                lines.append(f"# newdoc id = case{case}-doc{d}")
                lines.append(FIELDS)
            lines.append(f"# sent_id = case{case}-doc{d}-s{s}")
            for i, x in enumerate(sentence["nodes"]):
                value = "".join(misc[s][i][0] + misc[s][i][1] + misc[s][i][2])
                cell = f"Entity={value}" if value else "_"
                if isinstance(x, float):
                    deps = "|".join(f"{p}:{r}" for p, r in sentence["deps"][x])
                    lines.append(f"{x:.1f}\t_\t_\t_\t_\t_\t_\t_\t{deps}\t{cell}")
                else:
                    lines.append(f"{x}\tw{x % 5}\t_\t_\t_\t_\t0\troot\t0:root\t{cell}")
            lines.append("")
    return "\n".join(lines) + "\n"


def case(number):
    """(key text, response text) of a case."""
    rng = random.Random(f"corefud-{number}")
    key = _key(rng)
    key_text = write(key, number)
    response = _response(rng, key)
    return key_text, write(response, number)


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
