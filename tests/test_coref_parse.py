"""LLM coreference output read through paperscore.parse (coref_markdown, coref_clusters)
and placed on the source tokens: round trips of random gold clusters rendered in each
form, hand-derived cases of text the model changed, strict errors, and the entry points."""

import json
import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import choose, open_page

from paperscore.coref import compute
from paperscore.parse import parse_coref, read_coref_clusters, read_coref_markdown

WORDS = ["Mary", "said", "she", "liked", "her", "dog", ".", ",", "the", "'s", "John", "it", "a", "big", "cat"]


def as_sets(clusters):
    return {frozenset(map(tuple, cluster)) for cluster in clusters}


def random_mentions(rng, n):
    """Distinct spans over n tokens, each pair nested or disjoint (markup cannot cross)."""
    spans = []
    for _ in range(rng.randint(0, 2 * n)):
        start = rng.randrange(n)
        span = (start, min(n - 1, start + rng.randint(0, 3)))
        if span not in spans and all(b < span[0] or span[1] < a or (a <= span[0] and span[1] <= b) or (span[0] <= a and b <= span[1]) for a, b in spans):
            spans.append(span)
    return spans


def random_clusters(rng, spans):
    ids = [rng.randrange(max(1, len(spans) // 2)) for _ in spans]
    return [[list(s) for s, i in zip(spans, ids) if i == e] for e in sorted(set(ids))]


def render_markdown(tokens, clusters, name):
    """The document template's markup: "[" before a mention's first token (outer first),
    "](#id)" after its last (inner first), tokens joined by single spaces."""
    mentions = [(a, b, name(e)) for e, cluster in enumerate(clusters) for a, b in cluster]
    out = []
    for i, token in enumerate(tokens):
        opens = sorted((m for m in mentions if m[0] == i), key=lambda m: -m[1])
        closes = sorted((m for m in mentions if m[1] == i), key=lambda m: -m[0])
        out.append("[" * len(opens) + token + "".join(f"](#{m[2]})" for m in closes))
    return " ".join(out)


@pytest.mark.parametrize("name", [lambda e: f"cluster_{e}", lambda e: str(e + 1), lambda e: f"Hong_Kong{e}"])
def test_markdown_round_trip(name):
    rng = random.Random(7)
    for _ in range(500):
        tokens = [rng.choice(WORDS) for _ in range(rng.randint(1, 25))]
        clusters = random_clusters(rng, random_mentions(rng, len(tokens)))
        text = render_markdown(tokens, clusters, name)
        placed, report = parse_coref([text], "coref_markdown", [tokens], strict=True)
        assert as_sets(placed[0]) == as_sets(clusters), text
        assert report["mentions_on_changed_text"] == 0 and report["parse_failures"] == 0


def test_markdown_round_trip_with_inserted_words():
    """Words the source does not have, inserted between tokens, move no mention (the
    difflib path: the model's tokens then differ from the source)."""
    rng = random.Random(9)
    for _ in range(300):
        tokens = [rng.choice(WORDS) for _ in range(rng.randint(1, 25))]
        clusters = random_clusters(rng, random_mentions(rng, len(tokens)))
        pieces = render_markdown(tokens, clusters, str).split(" ")
        for _ in range(rng.randint(1, 4)):  # only where no mention is open (inside one it changes the mention)
            depth = [0]
            for piece in pieces:
                depth.append(depth[-1] + len(piece) - len(piece.lstrip("[")) - piece.count("](#"))
            pieces.insert(rng.choice([k for k, open_ in enumerate(depth) if open_ == 0]), rng.choice(["Indeed", "ZZZ", "well"]))
        placed, report = parse_coref([" ".join(pieces)], "coref_markdown", [tokens], strict=True)
        assert as_sets(placed[0]) == as_sets(clusters), pieces


def test_clusters_round_trip():
    """Distinct tokens, so that each mention string occurs once; repeats: the hand cases."""
    rng = random.Random(8)
    for fenced in (False, True):
        for _ in range(500):
            tokens = [f"w{i}" for i in range(rng.randint(1, 25))]
            clusters = random_clusters(rng, random_mentions(rng, len(tokens)))
            body = json.dumps([[" ".join(tokens[a : b + 1]) for a, b in cluster] for cluster in clusters])
            text = f"Here are the clusters:\n```json\n{body}\n```\nDone." if fenced else body
            placed, report = parse_coref([text], "coref_clusters", [tokens], strict=True)
            assert as_sets(placed[0]) == as_sets(clusters), text


SOURCE = "Mary said she liked her dog .".split()


def test_markdown_changed_text():
    # "cat" replaced "dog": difflib aligns Mary, said, she, liked, her, "." unchanged and
    # leaves "cat" unaligned, so [her cat] is on changed text; [her] alone is not.
    placed, report = parse_coref(["[Mary](#1) said [she](#1) liked [[her](#1) cat](#2) ."], "coref_markdown", [SOURCE])
    assert placed == [[[[0, 0], [2, 2], [4, 4]], [None]]]  # [her cat] stays in its cluster, unplaced
    assert report["mentions_on_changed_text"] == 1 and report["mentions_on_changed_text_examples"] == [0]
    # An inserted word outside the mentions moves nothing: Mary stays on source token 0.
    placed, report = parse_coref(["Yesterday [Mary](#a) said [she](#a) liked her dog ."], "coref_markdown", [SOURCE])
    assert placed == [[[[0, 0], [2, 2]]]] and report["mentions_on_changed_text"] == 0
    # A word dropped inside a mention: "her" (4) and "dog" (5) align, "liked" is gone from
    # "[she liked](#1)" -> she (2) alone is aligned with a gap: changed text.
    placed, report = parse_coref(["[Mary](#1) said [she her](#1) dog ."], "coref_markdown", [SOURCE])
    assert placed == [[[[0, 0], None]]] and report["mentions_on_changed_text"] == 1
    # The markup splits "Mary's" at the mention's end: the tokens Mary, 's as in the source.
    placed, report = parse_coref(["[Mary](#1)'s dog"], "coref_markdown", [["Mary", "'s", "dog"]])
    assert placed == [[[[0, 0]]]] and report["mentions_on_changed_text"] == 0


def test_markdown_malformed():
    # An unclosed "[" and a stray "](#x)" stay text (reported); "(#)" is a singleton.
    # Spaces inside the brackets are no part of the mention.
    (tokens, mentions), problems = read_coref_markdown("[Mary](#1) said [ she ](#x) ](#y) [her](#) [ dog")
    assert tokens == ["Mary", "said", "she", "](#y)", "her", "[", "dog"]
    assert [m[:2] for m in mentions] == [[0, 0], [2, 2], [4, 4]] and [m[2] for m in mentions[:2]] == ["1", "x"]
    assert len(problems) == 3  # the stray close, the mention without an id, the unclosed "["
    placed, report = parse_coref(["[Mary](#1) said [she](#) liked [her](#) dog ."], "coref_markdown", [SOURCE])
    assert as_sets(placed[0]) == {frozenset({(0, 0)}), frozenset({(2, 2)}), frozenset({(4, 4)})}
    assert report["parse_failures"] == 1 and report["parse_failure_examples"] == [0]


def test_clusters_occurrences_and_failures():
    source = "Mary met Mary and Mary 's dog".split()
    # First unused occurrence, left to right: the two "Mary" strings take 0 and 2; the
    # third (4) is left; "Mary 's dog" is at 4..6 although 4 is inside it (nesting is fine).
    placed, report = parse_coref(['[["Mary", "Mary"], ["Mary \'s dog", "cat"]]'], "coref_clusters", [source])
    assert placed == [[[[0, 0], [2, 2]], [[4, 6], None]]]
    assert report["mentions_on_changed_text"] == 1  # "cat" is nowhere in the source
    placed, report = parse_coref(['[["Mary", "Mary", "Mary", "Mary"]]'], "coref_clusters", [source])
    assert placed == [[[[0, 0], [2, 2], [4, 4], None]]] and report["mentions_on_changed_text"] == 1
    assert read_coref_clusters("not json")[0] == []
    assert read_coref_clusters('{"a": 1}')[0] == []
    assert read_coref_clusters('[["Mary", 3]]') == ([["Mary", 3]], ["cluster 1 item 2 3 is not a string"])
    # The item that is not a string, and an empty markdown mention, stay unplaced mentions of their clusters.
    placed, report = parse_coref(['[["Mary", 3]]'], "coref_clusters", [source])
    assert placed == [[[[0, 0], None]]] and (report["mentions_on_changed_text"], report["parse_failures"]) == (1, 1)
    placed, report = parse_coref(["[Mary](#1) met [](#1) Mary"], "coref_markdown", [source])
    assert placed == [[[[0, 0], None]]] and (report["mentions_on_changed_text"], report["parse_failures"]) == (1, 1)


def test_strict_names_the_example():
    texts = ["[Mary](#1) said", "[Mary](#1) said [she](#1) liked [her cat](#1)"]
    with pytest.raises(ValueError, match=r"predictions\[1\]: coref_markdown@1: the mention 'her cat'"):
        parse_coref(texts, "coref_markdown", [SOURCE, SOURCE], strict=True)
    with pytest.raises(ValueError, match=r"predictions\[0\]: coref_clusters@1 cannot read it: not JSON"):
        parse_coref(["[[Mary]]"], "coref_clusters", [SOURCE], strict=True)
    with pytest.raises(ValueError, match=r"predictions\[0\]: coref_markdown@1 cannot read it: the '\['"):
        parse_coref(["[Mary said"], "coref_markdown", [SOURCE], strict=True)


JSONLINES = json.dumps({"doc_key": "d", "sentences": [SOURCE], "clusters": [[[0, 0], [2, 2], [4, 4]]]})
CONLL = "#begin document (d); part 000\n" + "".join(f"d 0 {i} {w} X * - - - - * {'(0)' if i in (0, 2, 4) else '-'}\n" for i, w in enumerate(SOURCE)) + "#end document\n"


@pytest.mark.parametrize("reference", [JSONLINES, CONLL])
def test_compute_hand_derived(reference):
    # Key {Mary, she, her}; response {Mary, she, U}, U = "her cat" on changed text (her dog).
    # MUC recall: the key entity of 3 is split by the response into {0, 2} and {4}: (3 - 2) / 2 = 0.5;
    # precision: the response entity of 3 is split by the key into {0, 2} and {U}: (3 - 2) / 2 = 0.5.
    result = compute(["[Mary](#1) said [she](#1) liked [her cat](#1) ."], [reference], parse="coref_markdown", metrics=["muc"], return_signature=True)
    assert (result["muc_recall"], result["muc_precision"]) == (0.5, 0.5)
    assert result["mentions_on_changed_text"] == 1 and result["parse_failures"] == 0
    assert "|parse:coref_markdown@1|" in result["signature"]


def test_compute_tokens_argument_and_refusals():
    result = compute(['[["Mary", "she", "her"]]'], [[[[0, 0], [2, 2], [4, 4]]]], parse="coref_clusters", tokens=[SOURCE], metrics=["muc"])
    assert (result["muc_recall"], result["muc_precision"]) == (1.0, 1.0)
    with pytest.raises(ValueError, match=r"references\[0\]: parse needs the source tokens"):
        compute(['[["Mary"]]'], [[[[0, 0]]]], parse="coref_clusters")
    with pytest.raises(ValueError, match="span_convention: with parse"):
        compute(['[["Mary"]]'], [[[[0, 4]]]], parse="coref_clusters", tokens=[SOURCE], span_convention=("char_exclusive", "char_exclusive"))
    # A single name is the references' convention: "Mary" is characters [0, 4) of the tokens joined by spaces.
    result = compute(['[["Mary"]]'], [[[[0, 4]]]], parse="coref_clusters", tokens=[SOURCE], span_convention="char_exclusive", metrics=["mentions"])
    assert (result["mentions_recall"], result["mentions_precision"]) == (1.0, 1.0)
    with pytest.raises(ValueError, match="strict: applies to model texts"):
        compute([[[[0, 0]]]], [[[[0, 0]]]], strict=True)
    with pytest.raises(ValueError, match="unknown parser 'mvp' for coref"):
        compute(["x"], [JSONLINES], parse="mvp")
    with pytest.raises(ValueError, match="predictions and references differ in length|model texts, but"):
        compute(["x", "y"], [JSONLINES], parse="coref_markdown")


def test_cli_parse(tmp_path):
    (tmp_path / "key.conll").write_text(CONLL)
    (tmp_path / "response.json").write_text(json.dumps(["[Mary](#1) said [she](#1) liked [her cat](#1) ."]))
    run = [sys.executable, "-m", "paperscore", "coref", str(tmp_path / "key.conll"), str(tmp_path / "response.json"), "--parse", "coref_markdown", "--metric", "muc"]
    done = subprocess.run(run + ["--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["muc_recall"], result["mentions_on_changed_text"]) == (0.5, 1)
    assert "|parse:coref_markdown@1|" in result["signature"]
    done = subprocess.run(run + ["--strict"], capture_output=True, text=True)
    assert done.returncode != 0 and "her cat" in done.stderr
    done = subprocess.run(run + ["--format", "conllu"], capture_output=True, text=True)
    assert done.returncode != 0 and "not --format conllu" in done.stderr
    (tmp_path / "response.json").write_text(json.dumps(["[Mary](#1) said", "[she](#1)"]))
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode != 0 and "holds 2 model texts, but KEY" in done.stderr


# Unplaced mentions in every metric. Source tokens A B C (Ann Bob Cy); key K1 = {A, B},
# K2 = {C}; "Zed" is nowhere in the source, so it is an unplaced mention U.
KEY = [[[[0, 0], [1, 1]], [[2, 2]]]]
ABC = [["Ann", "Bob", "Cy"]]
EVERY = ["muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "mentions"]


def counts(text):
    result = compute([text], KEY, parse="coref_clusters", tokens=ABC, metrics=EVERY, return_counts=True)
    assert result["mentions_on_changed_text"] == 1
    return {metric: {name: tuple(pair) for name, pair in value.items()} for metric, value in result["counts"].items()}


def test_unplaced_in_its_cluster_hand_derived():
    # Response R1 = {A, U}.
    # MUC (Vilain): recall sum(|K| - |partition of K by R|) / sum(|K| - 1): K1 -> {A}{B}: 2 - 2,
    #   K2: 1 - 1 -> 0 / 1; precision: R1 -> {A}{U} by the key: 2 - 2 -> 0 / 1.
    # B3: recall (A: |K1∩R1|/|K1| = 1/2, B: 0, C: 0) -> 1/2 over 3 mentions; precision (A: 1/2, U: 0) -> 1/2 over 2.
    # CEAFm: K1-R1 share 1 mention -> 1 / 3 key mentions, 1 / 2 response mentions.
    # CEAFe: phi4(K1, R1) = 2*1/(2+2) = 1/2 -> 1/2 over 2 key entities, 1/2 over 1 response entity.
    # LEA: recall K1: 2 * (links kept 0 / 1), K2 (C absent from the response): 0 -> 0 / 3;
    #   precision R1: 2 * (0 / 1) -> 0 / 2.
    # BLANC: key coreference links {A-B} = 1, non-coreference {A-C, B-C} = 2; response
    #   coreference {A-U} = 1, non-coreference 0; right links: A-U is no key link -> 0;
    #   right non-links: among mentions on both sides (A alone) none.
    # Mentions: A found, 1 / 3 key and 1 / 2 response mentions.
    assert counts('[["Ann", "Zed"]]') == {
        "muc": {"recall": (0, 1), "precision": (0, 1)},
        "bcub": {"recall": (0.5, 3), "precision": (0.5, 2)},
        "ceafm": {"recall": (1, 3), "precision": (1, 2)},
        "ceafe": {"recall": (0.5, 2), "precision": (0.5, 1)},
        "lea": {"recall": (0, 3), "precision": (0, 2)},
        "blanc": {"coreference_recall": (0, 1), "coreference_precision": (0, 1), "non_coreference_recall": (0, 2), "non_coreference_precision": (0, 0)},
        "mentions": {"recall": (1, 3), "precision": (1, 2)},
    }


def test_unplaced_alone_hand_derived():
    # Response R1 = {A}, R2 = {U}.
    # MUC: recall K1 -> {A}{B}: 0 / 1; precision R1: 1 - 1, R2: 1 - 1 -> 0 / 0.
    # B3: recall A: 1/2 -> 1/2 over 3; precision A: |R1∩K1|/|R1| = 1, U: 0 -> 1 over 2.
    # CEAFm: K1-R1 share 1 -> 1 / 3, 1 / 2.
    # CEAFe: phi4(K1, R1) = 2*1/(2+1) = 2/3 -> 2/3 over 2 key entities, 2/3 over 2 response entities.
    # LEA: recall 0 / 3 as above; precision R1 = {A} is a singleton whose mention is no
    #   singleton in the key (K1 has 2): 0; R2: 0 -> 0 / 2.
    # BLANC: key links 1, non-links 2; response links 0, non-links {A-U} = 1; right 0 and 0.
    found = counts('[["Ann"], ["Zed"]]')
    assert found["ceafe"]["recall"][0] == pytest.approx(2 / 3) and found["ceafe"]["precision"][0] == pytest.approx(2 / 3)
    found["ceafe"] = {name: pair[1] for name, pair in found["ceafe"].items()}
    assert found == {
        "muc": {"recall": (0, 1), "precision": (0, 0)},
        "bcub": {"recall": (0.5, 3), "precision": (1, 2)},
        "ceafm": {"recall": (1, 3), "precision": (1, 2)},
        "ceafe": {"recall": 2, "precision": 2},
        "lea": {"recall": (0, 3), "precision": (0, 2)},
        "blanc": {"coreference_recall": (0, 1), "coreference_precision": (0, 0), "non_coreference_recall": (0, 2), "non_coreference_precision": (0, 1)},
        "mentions": {"recall": (1, 3), "precision": (1, 2)},
    }


def test_unplaced_per_document_and_remove_nested():
    # The same unplaced mention in the second of two documents: the first (all right) is
    # untouched, the second scores as test_unplaced_in_its_cluster_hand_derived (B3 precision 1/4).
    result = compute(['[["Ann", "Bob"], ["Cy"]]', '[["Ann", "Zed"]]'], KEY * 2, parse="coref_clusters", tokens=ABC * 2, metrics=["bcub"], per_document=True, remove_nested=True)
    assert [d["bcub_precision"] for d in result["per_document"]] == [1.0, 0.25]
    assert result["mentions_on_changed_text_examples"] == [1]
    with pytest.raises(ValueError, match=r"predictions\[0\]: NP_only and min_span .* 1 mention"):
        compute(['[["Ann", "Zed"]]'], KEY, parse="coref_clusters", tokens=ABC, min_span=True)


@st.composite
def documents(draw):
    """(source tokens, key clusters, response clusters, the response mentions to rewrite):
    distinct tokens, disjoint mentions on each side, at least one of them rewritten."""
    n = draw(st.integers(2, 12))

    def clusters():
        cuts = sorted(draw(st.sets(st.integers(0, n), min_size=2, max_size=2 * n)))
        spans = [(a, b - 1) for a, b in zip(cuts, cuts[1:])]
        owners = draw(st.lists(st.integers(0, 3), min_size=len(spans), max_size=len(spans)))
        return [[list(s) for s, o in zip(spans, owners) if o == c] for c in sorted(set(owners))]

    key, response = clusters(), clusters()
    mentions = [tuple(m) for cluster in response for m in cluster]
    return [f"w{i}" for i in range(n)], key, response, draw(st.sets(st.sampled_from(mentions), min_size=1))


def markdown(tokens, clusters, rewrite=()):
    """Le & Ritter's markup of the response, the first token of each mention in `rewrite` changed."""
    words = list(tokens)
    for number, cluster in enumerate(clusters):
        for first, last in cluster:
            if (first, last) in rewrite:
                words[first] = "changed" + words[first]
            words[first] = "[" + words[first]
            words[last] = words[last] + f"](#{number})"
    return " ".join(words)


@settings(max_examples=100, deadline=None)
@given(documents())
def test_rewriting_never_scores_above_keeping(document):
    tokens, key, response, rewrite = document
    keep = compute([markdown(tokens, response)], [key], parse="coref_markdown", tokens=[tokens], metrics=EVERY)
    changed = compute([markdown(tokens, response, rewrite)], [key], parse="coref_markdown", tokens=[tokens], metrics=EVERY)
    assert (keep["mentions_on_changed_text"], changed["mentions_on_changed_text"]) == (0, len(rewrite))
    for name, value in keep.items():
        if name.endswith(("recall", "precision", "f1")):
            assert changed[name] <= value + 1e-12, name


def test_trainer_metrics_reads_generated_ids():
    """Seq2SeqTrainer with predict_with_generate: generated ids decoded by the tokenizer,
    read by coref_markdown and placed on the words of `references=` (the key documents);
    hand-made ids, no model run. Word-level vocabulary: each markup piece is one token."""
    import evaluate
    import numpy as np
    from conftest import SPACES_DIR
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    words = ["[PAD]", "[UNK]", "</s>", "[Mary](#1)", "said", "[she](#1)", "liked", "[her](#1)", "[her", "cat](#1)", "dog", "."]
    model = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    model.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=model, pad_token="[PAD]", unk_token="[UNK]", eos_token="</s>")
    ids = {w: i for i, w in enumerate(words)}
    # Document 1 copied: "[Mary](#1) said [she](#1) liked [her](#1) dog ." (all three right);
    # document 2 rewritten: "[Mary](#1) said [she](#1) liked [her cat](#1) ." (as test_compute_hand_derived:
    # MUC 1/2 recall, 1/2 precision). Summed MUC: recall (2 + 1) / (2 + 2), precision (2 + 1) / (2 + 2).
    texts = ["[Mary](#1) said [she](#1) liked [her](#1) dog .", "[Mary](#1) said [she](#1) liked [her cat](#1) ."]
    generated = np.full((2, 9), ids["[PAD]"])
    for row, text in enumerate(texts):
        pieces = [ids[w] for w in text.split()] + [ids["</s>"]]
        generated[row, : len(pieces)] = pieces
    labels = np.full((2, 4), -100)  # the targets: not read, references= holds the keys
    metric = evaluate.load(str(SPACES_DIR / "coref_conll"), keep_in_memory=True)
    compute_metrics = metric.trainer_metrics(tokenizer=tokenizer, parse="coref_markdown", references=[JSONLINES, CONLL], metrics=["muc"])
    result = compute_metrics((generated, labels))
    assert (result["muc_recall"], result["muc_precision"]) == (0.75, 0.75)
    assert (result["mentions_on_changed_text"], result["parse_failures"]) == (1, 0)
    with pytest.raises(ValueError, match="references: with parse, give the evaluation set's key documents"):
        metric.trainer_metrics(tokenizer=tokenizer, parse="coref_markdown")
    with pytest.raises(ValueError, match="parse: unknown parser 'mvp' for coref"):
        metric.trainer_metrics(tokenizer=tokenizer, parse="mvp", references=[JSONLINES])


# ---------------------------------------------------------------------------------------
# compare: each system's model texts read and placed as compute(parse=...) places them


def test_compare_hand_derived():
    from paperscore.compare import compare

    # Document 1 as KEY / ABC above; document 2: key {Zed} over the one token "Zed".
    # A: doc 1 {Ann, U} (B3 precision 0.5 over 2, see test_unplaced_in_its_cluster_hand_derived),
    #    doc 2 {Zed} placed (precision 1 over 1) -> (0.5 + 1) / 3 = 0.5.
    # B: doc 1 {Ann, Bob}, {Cy} (3 over 3), doc 2 {U} ("Ann" is not in ["Zed"]: 0 over 1) -> 3 / 4.
    # Swapping the documents of a system would give A (1 + 0.5) / 3, B (0 + 3) / 4: the same
    # totals, so the per-document rows are checked too (the randomization sees 2 differing documents).
    references, tokens = [KEY[0], [[[0, 0]]]], [ABC[0], ["Zed"]]
    system_a, system_b = ['[["Ann", "Zed"]]', '[["Zed"]]'], ['[["Ann", "Bob"], ["Cy"]]', '[["Ann"]]']
    with pytest.warns(UserWarning, match="differ on 2 of the 2 examples"):
        result = compare("coref_conll", references, system_a, system_b, metric_key="bcub_precision", method="randomization", n_resamples=50, seed=0, parse="coref_clusters", tokens=tokens, metrics=["bcub"])
    assert (result["score_a"], result["score_b"]) == (0.5, 0.75)
    assert "|parse:coref_clusters@1|" in result["signature"] and "tokens" not in result["signature"]
    from paperscore.compare import paired_statistics

    table_a, codes_a, table_b, codes_b, reduce = paired_statistics("coref", references, system_a, system_b, metrics=["bcub"], parse="coref_clusters", tokens=tokens)
    # per document B3 precision: A 0.5 / 2 then 1 / 1; B 3 / 3 then 0 / 1 (columns: recall n, d, precision n, d)
    assert [list(table_a[c][2:4]) for c in codes_a] == [[0.5, 2], [1, 1]]
    assert [list(table_b[c][2:4]) for c in codes_b] == [[3, 3], [0, 1]]
    # The last column, each document's unplaced mentions: A's Zed in document 1, B's Ann in document 2.
    assert ([table_a[c][-1] for c in codes_a], [table_b[c][-1] for c in codes_b]) == ([1, 0], [0, 1])
    with pytest.warns(UserWarning):
        result = compare("coref_conll", references, system_a, system_b, metric_key="mentions_on_changed_text", n_resamples=20, seed=0, parse="coref_clusters", tokens=tokens, metrics=["bcub"])
    assert (result["score_a"], result["score_b"]) == (1, 1)


def random_system(rng, tokens, key):
    """A model text for `key` over `tokens`: markdown, possibly with a rewritten mention,
    or clusters of strings (some nowhere in the text), or something malformed or empty."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(["", "no clusters here", "[[", "[Mary said", '{"a": 1}'])
    clusters = random_clusters(rng, random_mentions(rng, len(tokens))) if rng.random() < 0.7 else key
    if kind <= 3:
        rewrite = {tuple(m) for cluster in clusters for m in cluster if rng.random() < 0.15}
        return markdown(tokens, clusters, rewrite)
    strings = [[" ".join(tokens[a : b + 1]) for a, b in cluster] + (["Zed"] if rng.random() < 0.2 else []) for cluster in clusters]
    return json.dumps(strings)


@pytest.mark.parametrize("parse", ["coref_markdown", "coref_clusters"])
def test_compare_equals_compute_random(parse):
    """score_a and score_b are compute(parse=...) of each system alone, on 1,000 random
    documents (repeats, empty and malformed texts, rewritten mentions, strings not in the
    source), for several metric keys and conventions."""
    from paperscore.compare import compare

    rng = random.Random(11 if parse == "coref_markdown" else 12)
    references, tokens, system_a, system_b = [], [], [], []
    for _ in range(1000):
        if references and rng.random() < 0.1:  # a repeated document
            i = rng.randrange(len(references))
            references.append(references[i]), tokens.append(tokens[i]), system_a.append(system_a[i]), system_b.append(rng.choice([system_b[i], system_a[i]]))
            continue
        words = [rng.choice(WORDS) for _ in range(rng.randint(1, 30))] if rng.random() < 0.5 else [f"w{i}" for i in range(rng.randint(1, 30))]
        key = random_clusters(rng, random_mentions(rng, len(words)))
        references.append(key), tokens.append(words)
        system_a.append(random_system(rng, words, key)), system_b.append(random_system(rng, words, key))
    for options, metric_key in (({}, "conll_f1"), ({"keep_singletons": False}, "bcub_precision"), ({"convention": "e2e_coref"}, "lea_f1")):
        scored = [compute(system, references, parse=parse, tokens=tokens, **options)[metric_key] for system in (system_a, system_b)]
        result = compare("coref_conll", references, system_a, system_b, metric_key=metric_key, n_resamples=20, seed=0, parse=parse, tokens=tokens, **options)
        assert [result["score_a"], result["score_b"]] == pytest.approx(scored, rel=1e-12, abs=1e-15), (options, metric_key)
    reports = [compute(system, references, parse=parse, tokens=tokens, metrics=["mentions"]) for system in (system_a, system_b)]
    assert reports[0]["mentions_on_changed_text"] > 100 and reports[0]["parse_failures"] > 100  # the batch has both
    result = compare("coref_conll", references, system_a, system_b, metric_key="mentions_on_changed_text", n_resamples=20, seed=0, parse=parse, tokens=tokens)
    assert [result["score_a"], result["score_b"]] == [report["mentions_on_changed_text"] for report in reports]


CONLLU = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n# text = Mary said\n1\tMary\tMary\tPROPN\t_\t_\t0\troot\t_\tEntity=(e1-person-1)\n2\tsaid\tsay\tVERB\t_\t_\t1\tdep\t_\t_\n"


def test_compare_refusals():
    from paperscore.compare import compare

    run = dict(n_resamples=20, seed=0)
    texts = ["[Mary](#1) said [she](#1) liked [her cat](#1) ."]
    with pytest.raises(ValueError, match=r"parse: 'coref_markdown(@1)?' places model text on CoNLL-2012 or jsonlines references .* not on CorefUD CoNLL-U"):
        compare("coref_conll", [CONLLU], texts, texts, parse="coref_markdown", tokens=[["Mary", "said"]], **run)
    with pytest.raises(ValueError, match=r"parse: .* not on CorefUD CoNLL-U"):
        compare("coref_conll", CONLLU, texts, texts, parse="coref_markdown", **run)
    with pytest.raises(ValueError, match=r"parse: .* matching='head'"):
        compare("coref_conll", [JSONLINES], texts, texts, parse="coref_markdown", matching="head", **run)
    with pytest.raises(ValueError, match=r"references\[0\]: parse needs the source tokens"):
        compare("coref_conll", [[[[0, 0]]]], texts, texts, parse="coref_markdown", **run)
    # tokens without a parser: compute() takes them (the bound of token spans, character
    # spans' tokens), so compare does too (issue 36: every compute() option)
    assert compare("coref_conll", [[[[0, 0]]]], [[[[0, 0]]]], [[[[0, 0]]]], tokens=[SOURCE], **run)["p_value"] == 1.0
    with pytest.raises(ValueError, match="strict: applies to model texts"):
        compare("coref_conll", [[[[0, 0]]]], [[[[0, 0]]]], [[[[0, 0]]]], strict=True, **run)
    with pytest.raises(ValueError, match=r"system_b\[0\]: coref_markdown@1: the mention 'her cat'"):
        compare("coref_conll", [JSONLINES], ["[Mary](#1) said"], texts, parse="coref_markdown", strict=True, **run)
    with pytest.raises(ValueError, match="system_a: 2 model texts, but 1 source documents"):
        compare("coref_conll", [JSONLINES], texts * 2, texts, parse="coref_markdown", **run)
    with pytest.raises(ValueError, match="unknown parser 'mvp' for coref"):
        compare("coref_conll", [JSONLINES], texts, texts, parse="mvp", **run)


def test_cli_compare_parse(tmp_path):
    # A: "her cat" on changed text, MUC F1 0.5 (test_compute_hand_derived); B: the key itself, 1.
    (tmp_path / "key.conll").write_text(CONLL)
    (tmp_path / "a.json").write_text(json.dumps(["[Mary](#1) said [she](#1) liked [her cat](#1) ."]))
    (tmp_path / "b.jsonl").write_text(json.dumps("[Mary](#1) said [she](#1) liked [her](#1) dog .") + "\n")
    run = [sys.executable, "-m", "paperscore", "compare", "coref", "--references", str(tmp_path / "key.conll"), "--system-a", str(tmp_path / "a.json"), "--system-b", str(tmp_path / "b.jsonl"), "--parse", "coref_markdown", "--metric", "muc", "--metric-key", "muc_f1", "--seed", "0", "--n-resamples", "50"]
    done = subprocess.run(run + ["--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["score_a"], result["score_b"]) == (0.5, 1.0)
    assert "|parse:coref_markdown@1|" in result["signature"]
    done = subprocess.run(run[:-6] + ["--metric-key", "mentions_on_changed_text", "--seed", "0", "--n-resamples", "50", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (json.loads(done.stdout)["score_a"], json.loads(done.stdout)["score_b"]) == (1, 0)
    done = subprocess.run(run + ["--strict"], capture_output=True, text=True)
    assert done.returncode != 0 and "system_a[0]: coref_markdown@1: the mention 'her cat'" in done.stderr
    done = subprocess.run(run + ["--format", "conllu"], capture_output=True, text=True)
    assert done.returncode != 0 and "--parse coref_markdown: reads model text against a CoNLL-2012 or jsonlines key, not --format conllu" in done.stderr
    (tmp_path / "b.jsonl").write_text(json.dumps("[Mary](#1)") + "\n" + json.dumps("x") + "\n")
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode != 0 and "--system-b: " in done.stderr and "holds 2 model texts, but --references" in done.stderr


# ---------------------------------------------------------------------------------------
# The coref_conll demo: a model's reply read by a parser chosen on the page


@pytest.fixture(scope="module")
def coref_app():
    from conftest import load_app

    return load_app("coref_conll")


def test_demo_parses_a_reply(coref_app):
    # As test_compute_hand_derived: MUC recall and precision 0.5, one mention ("her cat") on changed text.
    headline, _, signature, others, key_html, response_html = coref_app.show("[Mary](#1) said [she](#1) liked [her cat](#1) .", JSONLINES, parse="coref_markdown")
    assert (headline["muc_recall"], headline["muc_precision"], headline["mentions_on_changed_text"], headline["parse_failures"]) == (0.5, 0.5, 1, 0)
    assert "|parse:coref_markdown@1|" in signature
    assert '<p id="parse-report">Parse failures: 0; mentions on text the model changed: 1</p>' in others
    assert response_html.count("]<sub>") == 2 and key_html.count("]<sub>") == 3  # her cat is not drawn: it has no place
    # JSON clusters as the key, with the tokens box: test_unplaced_in_its_cluster_hand_derived's B3 (0.5 / 3, 0.5 / 2).
    headline = coref_app.show('[["Ann", "Zed"]]', "[[[0, 0], [1, 1]], [[2, 2]]]", parse="coref_clusters", tokens="Ann  Bob\nCy")[0]
    assert (headline["bcub_recall"], headline["bcub_precision"], headline["mentions_on_changed_text"]) == (pytest.approx(1 / 6), 0.25, 1)


@pytest.mark.parametrize(
    "inputs, message",
    [
        (dict(predictions='[["Mary"]]', references="[[[0, 0]]]", parse="coref_clusters"), r"references \(document 1\): parse needs the source tokens"),
        (dict(predictions='[["Mary"]]', references=JSONLINES, tokens="Mary said"), "tokens: the source tokens are read with a parser only"),
        (dict(predictions='[["Mary"]]', references=CONLLU, parse="coref_clusters"), "references: with a parser the key is a CoNLL-2012 or jsonlines document"),
        (dict(predictions='[["Mary"]]', references=JSONLINES + "\n" + JSONLINES.replace('"d"', '"e"'), parse="coref_clusters"), "references: holds 2 documents; with a parser"),
        (dict(predictions='[["Mary"]]', references=JSONLINES, parse="coref_clusters", matching="head"), "matching: applies to CorefUD CoNLL-U"),
        (dict(predictions='[["Mary"]]', references=JSONLINES, parse="mvp"), "parse: 'mvp' is not one of"),
        (dict(predictions='[["Mary"]]', references=JSONLINES, parse="coref_clusters", tokens="w " * 5001), "tokens: 5,001 tokens, beyond the demo's limit of 5,000"),
    ],
)
def test_demo_parse_refusals(coref_app, inputs, message):
    import gradio as gr

    with pytest.raises(gr.Error, match=message):
        coref_app.show(**inputs)


def _choose_parser_and_compute(browser, url, reply, key):

    context, page = open_page(browser, url, {"width": 1366, "height": 1000})
    try:
        page.fill("#predictions textarea", reply)
        page.fill("#references textarea", key)
        choose(page, "parse", "coref_markdown")
        page.click("#compute-btn")
        page.wait_for_function("() => document.querySelector('#signature textarea').value.includes('|parse:coref_markdown@1|')", timeout=30_000)
        return page.locator("#signature textarea").input_value(), page.locator("#parse-report").inner_text(), page.locator("#figures").inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("served", ["coref_conll"], indirect=True)
def test_demo_parser_in_chromium(served, in_chromium):
    """In a browser: the parser dropdown reaches compute; the page shows the parse report
    and the figures of test_compute_hand_derived (MUC 0.5, one mention on changed text)."""
    _, _, url = served
    signature, report, figures = in_chromium(_choose_parser_and_compute, url, "[Mary](#1) said [she](#1) liked [her cat](#1) .", JSONLINES)
    assert "|parse:coref_markdown@1|" in signature
    assert report == "Parse failures: 0; mentions on text the model changed: 1"
    assert re.search(r"^muc_recall\t0\.5$", figures, re.M) and re.search(r"^mentions_on_changed_text\t1$", figures, re.M), figures
