"""Responses to a real CorefUD file, two whole Wikinews documents of UD_English-GUM's dev set
(tests/data/corefud/gum_dev_news.conllu.gz, GRP ids, no heads, no zeros), for
tests/test_corefud.py; run as a script it writes the scorer's counts on them.

A response is the key perturbed, deterministically by its number (random.Random(number),
only random(), randrange() and choice()): mentions dropped, moved to another entity,
entities merged or split, a span shifted by a word at either end, singletons dropped, heads
given (a head field added to global.Entity), or several of these at once. Response 0 is
the key itself. Each response is written back as GRP-etype[-head] brackets; Bridge and
SplitAnte are removed (they name entities a perturbation may drop).

    git clone https://github.com/ufal/corefud-scorer /tmp/gum23-refs/corefud-scorer   # 4fd7b0e
    pip install udapi==0.5.2 scipy
    python tests/corefud_gum.py /tmp/gum23-refs/corefud-scorer

writes tests/data/corefud/gum_reference.json.gz: per response and each of the 6 settings
(exact / partial / head matching x singletons removed / kept; zero matching is moot
without zeros), the summed numerators and denominators of the scorer's `-m all`.
"""

import gzip
import hashlib
import random
import re
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "corefud"
KEY = DATA / "gum_dev_news.conllu.gz"
N_RESPONSES = 33  # the key and four of each kind: 198 runs, a few seconds in the test
SETTINGS = [(matching, singletons, "dependent") for matching in ("exact", "partial", "head") for singletons in (False, True)]
KINDS = ("drop", "move", "merge", "split", "shift", "singletons", "heads", "mix")


def key_text():
    with gzip.open(KEY, "rt", encoding="utf-8") as f:
        return f.read()


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _parse(text):
    """Lines (word lines as cell lists) and mentions [doc, line index of start, of end, id, etype]."""
    lines, mentions, open_, doc = [], [], {}, 0
    for line in text.split("\n"):
        if line.startswith("# newdoc"):
            doc += 1
        cells = line.split("\t")
        if len(cells) != 10 or "-" in cells[0] or "." in cells[0]:
            lines.append(tuple(cells) if len(cells) == 10 else line)  # a tuple: a multiword token's line
            continue
        lines.append(cells)
        entity = next((item[len("Entity=") :] for item in cells[9].split("|") if item.startswith("Entity=")), "")
        for chunk in (c for c in re.split(r"(\([^()]+\)?|[^()]+\))", entity) if c):
            if chunk.startswith("("):
                gid, etype = chunk.strip("()").split("-")[:2]
                mention = [doc, len(lines) - 1, len(lines) - 1, f"{doc}.{gid}", etype]
                mentions.append(mention)
                if not chunk.endswith(")"):
                    open_.setdefault(mention[3], []).append(mention)
            else:
                open_[f"{doc}.{chunk[:-1]}"].pop()[2] = len(lines) - 1
    assert not any(open_.values()), "unclosed mention"
    return lines, mentions


def _sentence_words(lines, index):
    """Word line indices of the sentence holding lines[index]."""
    first = last = index
    while not isinstance(lines[first - 1], str):
        first -= 1
    while last + 1 < len(lines) and not isinstance(lines[last + 1], str):
        last += 1
    return [n for n in range(first, last + 1) if isinstance(lines[n], list)]


def _perturb(rng, kind, lines, mentions):
    by_doc = {}
    for m in mentions:
        by_doc.setdefault(m[0], set()).add(m[3])
    entities = {d: sorted(ids) for d, ids in by_doc.items()}
    rate = rng.choice([0.05, 0.2, 0.5])
    if kind == "drop":
        return [m for m in mentions if rng.random() >= rate]
    if kind == "move":
        for m in mentions:
            if rng.random() < rate:
                m[3] = rng.choice(entities[m[0]])
    elif kind == "merge":
        for d, ids in entities.items():
            for _ in range(max(1, int(len(ids) * rate))):
                a, b = rng.choice(ids), rng.choice(ids)
                for m in mentions:
                    if m[3] == a:
                        m[3] = b
    elif kind == "split":
        for m in mentions:
            if rng.random() < rate:
                m[3] = f"{m[3]}x{rng.randrange(2)}"  # the moved mentions of an entity: two new entities
    elif kind == "shift":
        for m in mentions:
            if rng.random() < rate:
                words = _sentence_words(lines, m[1])
                end = rng.randrange(1, 3)
                place = words.index(m[end]) + rng.choice([-1, 1])
                if 0 <= place < len(words) and (m[1] <= words[place] if end == 2 else words[place] <= m[2]):
                    m[end] = words[place]
    elif kind == "singletons":
        sizes = {}
        for m in mentions:
            sizes[m[3]] = sizes.get(m[3], 0) + 1
        return [m for m in mentions if sizes[m[3]] > 1]
    elif kind == "heads":
        for m in mentions:
            words = sum(isinstance(line, list) for line in lines[m[1] : m[2] + 1])
            m.append(rng.randrange(1, words + 1) if rng.random() < 0.7 else 1)
    return mentions


def _write(lines, mentions, heads):
    starts, ends = {}, {}
    for n, m in enumerate(mentions):
        starts.setdefault(m[1], []).append(n)
        ends.setdefault(m[2], []).append(n)
    gid = {}
    for m in mentions:  # ids renumbered within each document, in order of first mention
        gid.setdefault(m[3], str(sum(1 for k in gid if k.split(".")[0] == m[3].split(".")[0]) + 1))
    out = []
    for index, line in enumerate(lines):
        if isinstance(line, tuple):
            out.append("\t".join(line))
            continue
        if not isinstance(line, list):
            out.append(f"# global.Entity = GRP-etype{'-head' if heads else ''}" if line.startswith("# global.Entity") else line)
            continue
        chunks = [gid[mentions[n][3]] + ")" for n in ends.get(index, []) if mentions[n][1] != index]
        opening = sorted(starts.get(index, []), key=lambda n: -mentions[n][2])  # longer first
        for n in opening:
            m = mentions[n]
            head = f"-{m[5] if len(m) > 5 else 1}" if heads else ""
            chunks.append(f"({gid[m[3]]}-{m[4]}{head}" + (")" if m[2] == index else ""))
        misc = [item for item in line[9].split("|") if item != "_" and not item.startswith(("Entity=", "Bridge=", "SplitAnte="))]
        if chunks:
            misc.insert(0, "Entity=" + "".join(chunks))
        out.append("\t".join(line[:9] + ["|".join(misc) or "_"]))
    return "\n".join(out)


def response(number):
    """Response `number` to key_text(): 0 the key itself, then perturbations cycling through KINDS."""
    text = key_text()
    if number == 0:
        return text
    rng = random.Random(number)
    lines, mentions = _parse(text)
    kind = KINDS[(number - 1) % len(KINDS)]
    for step in [rng.choice(KINDS[:-2]) for _ in range(3)] if kind == "mix" else [kind]:
        mentions = _perturb(rng, step, lines, mentions)
    return _write(lines, mentions, heads=kind == "heads")


def main(scorer):
    import gc
    import json
    import logging
    import subprocess
    import sys
    import tempfile

    sys.path.insert(0, str(DATA))
    sys.path.insert(0, scorer)
    gc.collect = lambda *a, **k: 0  # udapi collects after every file: time only
    logging.disable(logging.CRITICAL)
    from make_fixtures import reference

    commit = subprocess.run(["git", "-C", scorer, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        key, path = Path(tmp) / "key.conllu", Path(tmp) / "response.conllu"
        key.write_text(key_text(), encoding="utf-8")
        for number in range(N_RESPONSES):
            text = response(number)
            path.write_text(text, encoding="utf-8")
            for setting in SETTINGS:
                runs.append({"response": number, "sha": digest(text), "setting": setting, "counts": reference(scorer, str(key), str(path), *setting)})
    with gzip.open(DATA / "gum_reference.json.gz", "wt", encoding="utf-8") as f:
        json.dump({"scorer": "ufal/corefud-scorer", "commit": commit, "key_sha": digest(key_text()), "runs": runs}, f, separators=(",", ":"))
    print(f"{len(runs)} runs, {sum(r['counts'] == 'fails' for r in runs)} fail, scorer {commit}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/gum23-refs/corefud-scorer")
