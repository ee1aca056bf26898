"""paperscore.rewards: per-example rewards against plain per-example oracles (quad_naive,
csc_align_naive) at users' sizes, their relation to the corpus figures of compute(), the
reward-hacking audit as properties, TRL's calling convention, and a tiny GRPOTrainer run."""

import json
import random

import numpy as np
import pytest
from csc_align_naive import aligned_edits
from hypothesis import given, settings
from hypothesis import strategies as st
from quad_naive import sample_statistics

from paperscore import csc_common, quad, rewards
from paperscore.parse import PIECE_READERS, QuadReader, get_parser, parser_id

# ---------------------------------------------------------------------------------------
# Random ASQP paraphrase texts ("{category} is {great|bad|ok} because {aspect} is {opinion}")

CATEGORIES = ["food quality", "service general", "ambience general", "食物 质量", "price"]
WORDS = ["pizza", "staff", "it", "beer", "the wine list", "服务员", "菜", "pasta", "NULL"]
OPINIONS = ["delicious", "slow", "good", "great", "too salty", "很好", "bad food", "ok"]
SENTIMENTS = ["great", "bad", "ok"]


def random_quad(rng):
    return f"{rng.choice(CATEGORIES)} is {rng.choice(SENTIMENTS)} because {rng.choice(WORDS)} is {rng.choice(OPINIONS)}"


def join(pieces):
    return " [SSEP] ".join(pieces)


def gold_texts(rng, n):
    return [join(rng.sample(sorted({random_quad(rng) for _ in range(6)}), rng.randint(1, 3))) for _ in range(n)]


def corrupt(rng, gold, others):
    """A completion as diverse as a policy writes: the gold itself, a subset, a repeat, an
    extra quad, a changed opinion, another example's gold, junk, blank, half a piece."""
    pieces = gold.split(" [SSEP] ")
    kind = rng.randrange(10)
    if kind == 0:
        return gold
    if kind == 1:
        return join(rng.sample(pieces, rng.randint(0, len(pieces)))) or ""
    if kind == 2:
        return join(pieces + [rng.choice(pieces)] * rng.randint(1, 3))
    if kind == 3:
        return join(pieces + [random_quad(rng)])
    if kind == 4:
        return gold.replace(" is ", " is " + rng.choice(OPINIONS) + " ", 1) if rng.random() < 0.5 else gold.replace("because", "as")
    if kind == 5:
        return rng.choice(others)
    if kind == 6:
        return rng.choice(["", " ", "junk", "[SSEP]", "pizza is delicious"])
    if kind == 7:
        return join([random_quad(rng) for _ in range(rng.randint(1, 4))])
    if kind == 8:
        return gold[: rng.randrange(len(gold) + 1)]
    return join(pieces[::-1])


@pytest.fixture(scope="module")
def quad_corpus():
    rng = random.Random(24)
    golds = gold_texts(rng, 1500)
    references = [g for g in golds for _ in range(8)][:10_000]  # GRPO: several completions per prompt
    completions = [corrupt(rng, g, golds) for g in references]
    return completions, references


PARSER = get_parser("asqp_paraphrase")


def normalised(quad):
    """A quad as exact match compares it (quad_match's rule for quads given as data):
    elements stripped; a blank target or opinion is NULL; a quad with a blank aspect or
    polarity, or of another width, is malformed: only equal to itself."""
    q = tuple((e or "").strip() for e in quad)
    q = tuple("NULL" if not e and PARSER.tuple_len[j] in "01" else e for j, e in enumerate(q))
    return ("malformed", *quad) if "" in q or len(q) != len(PARSER.tuple_len) else q


def capped(predicted, gold):
    """The soft rewards' reading (issue 39.5): a quad's copies beyond max(1, how often the
    gold holds it) left out, plainly."""
    kept, seen = [], []
    for quad in predicted:
        key = normalised(quad)
        seen.append(key)
        if seen.count(key) <= max(1, [normalised(g) for g in gold].count(key)):
            kept.append(quad)
    return kept


def oracle(completion, reference, soft):
    """quad_naive's sample statistics over the parser's quads, and the reward by the
    definition: 2·hits / (n + m) (1 when both are 0), or S / max(n, m); the soft ones of
    the capped quads."""
    predicted, gold = PARSER.read(completion)[0], PARSER.read(reference)[0]
    s = sample_statistics(capped(predicted, gold) if soft else predicted, gold, PARSER.tuple_len, soft=soft)
    hits, n, m, _ = s["exact"]["multiset"]
    exact = 2 * hits / (n + m) if n + m else 1.0
    optimal = 2 * s["matched"] / (s["n"] + s["m"]) if s["n"] + s["m"] else 1.0
    return exact, optimal, s["score"]


def test_quad_exact_against_the_per_example_oracle_and_the_corpus_figure(quad_corpus):
    completions, references = quad_corpus
    reward = rewards.quad_reward("asqp_paraphrase")
    got = reward(prompts=None, completions=completions, reference=references)
    assert len(got) == 10_000 and all(isinstance(v, float) for v in got)
    for i in range(10_000):
        assert got[i] == pytest.approx(oracle(completions[i], references[i], soft=False)[0], abs=1e-12), i
    for i in range(0, 10_000, 997):  # a sample scored alone gets what it gets in the batch
        assert reward(completions=[completions[i]], reference=[references[i]]) == [got[i]]
    # The sums of per-example counts are the corpus micro figures; the mean is not.
    counts, rows = reward.statistics(completions, reference=references)
    assert rows == list(range(10_000))
    hits, n, m = counts[:, :3].sum(0)
    corpus = quad.compute(completions, references, parse="asqp_paraphrase", exact_only=True)
    assert corpus["exact_precision"] == pytest.approx(hits / n, abs=1e-12)
    assert corpus["exact_recall"] == pytest.approx(hits / m, abs=1e-12)
    assert corpus["exact_f1"] == pytest.approx(2 * hits / (n + m), abs=1e-12)
    assert abs(np.mean(got) - corpus["exact_f1"]) > 1e-3  # the mean of per-example F1 is another number


def test_quad_soft_against_the_per_example_oracle_and_the_corpus_figure(quad_corpus):
    """Every one of 10,000 completions (each distinct completion and gold pair scored once,
    from one table of distinct quads) against the plain oracle; a completion scored alone
    gets what it gets in the batch."""
    completions, references = quad_corpus
    f1_reward = rewards.quad_reward("asqp_paraphrase", metric="optimal_f1")
    score_reward = rewards.quad_reward("asqp_paraphrase", metric="optimal_score")
    f1s = f1_reward(completions=completions, reference=references)
    scores = score_reward(completions=completions, reference=references)
    for i in range(10_000):
        _, optimal, score = oracle(completions[i], references[i], soft=True)
        assert f1s[i] == pytest.approx(optimal, abs=1e-9) and scores[i] == pytest.approx(score, abs=1e-9), i
    for i in range(0, 10_000, 499):
        assert f1_reward(completions=[completions[i]], reference=[references[i]]) == [f1s[i]], i
    counts, _ = f1_reward.statistics(completions, reference=references)
    matched, n, m = counts[:, 3:6].sum(0)
    golds = [PARSER.read(r)[0] for r in references]
    kept = [capped(PARSER.read(c)[0], g) for c, g in zip(completions, golds)]  # compute of what the soft rewards read
    corpus = quad.compute(kept, golds, tuple_len=PARSER.tuple_len)
    assert corpus["optimal_f1"] == pytest.approx(2 * matched / (n + m), abs=1e-12)
    assert corpus["optimal_score"] == pytest.approx(np.mean(scores), abs=1e-12)  # a mean of sample scores


PIECES = ["food quality", "服务 态度", "it", "It", "IT", "NULL", "pizza", "the wine list", "great", "bad", "ok", "nope", "", " ", "is", "because", "很好", "too  salty"]
NOISE = [" is ", " because ", "[SSEP]", " [SSEP] ", "[SSEP", "SSEP]", "[", "]", "  ", "\t", "\n", "\u3000", "\x85", "It is ", "XXXXXX", "\x00"]


def model_text(rng):
    """What a policy writes, well or badly: 0-4 pieces "{c} is {s} because {a} is {o}" of
    words, blanks and odd white space, some with a fragment (a separator, half a marker,
    an extra " is ") spliced in, or cut short; or noise alone; a third of the texts clean
    (ASTE's pieces begin "It is", TASD's end with the same sentiment word)."""
    if rng.random() < 0.1:
        return "".join(rng.choice(NOISE + PIECES) for _ in range(rng.randint(0, 12)))
    clean = rng.random() < 0.35
    pieces = []
    for _ in range(rng.randint(0, 4)):
        c, s, a, o = (rng.choice(PIECES) for _ in range(4))
        if clean:
            c, s, a = "It", rng.choice(SENTIMENTS), rng.choice(WORDS)
            o = s  # TASD repeats the sentiment word
        piece = ("" if clean else rng.choice(["", " ", "  "])) + f"{c} is {s} because {a} is {o}" + ("" if clean else rng.choice(["", " ", "\t"]))
        if not clean and rng.random() < 0.25:
            k = rng.randrange(len(piece) + 1)
            piece = piece[:k] + rng.choice(NOISE) + piece[k:]
        pieces.append(piece)
    text = rng.choice([" [SSEP] ", "[SSEP]", " [SSEP]"]).join(pieces)
    return text[: rng.randrange(len(text) + 1)] if not clean and rng.random() < 0.1 else text


def mvp_text(rng):
    """MvP's markers in any order, now and then one missing (filled with "null", reported)."""
    pieces = []
    for _ in range(rng.randint(0, 3)):
        markers = rng.sample(["[A]", "[O]", "[C]", "[S]"], 4 - (rng.random() < 0.3))
        pieces.append(" ".join(f"{marker} {rng.choice(PIECES)}" for marker in markers))
    return " [SSEP] ".join(pieces)


@pytest.mark.parametrize("name", ["asqp_paraphrase", "asqp_paraphrase_aste", "asqp_paraphrase_tasd", "mvp"])
def test_quad_reader_equals_the_parser_text_by_text(name):
    """parse.QuadReader (each distinct piece read once, over one split of the texts joined)
    gives, for 12,000 diverse texts read in two calls that share its table, every text's
    quads and failure exactly as parser.read gives them text by text."""
    rng = random.Random(name)
    texts = [model_text(rng) if name != "mvp" else mvp_text(rng) for _ in range(12_000)]
    texts += texts[:500]  # repeats
    parser = get_parser(name)
    assert (parser_id(parser) in PIECE_READERS) == (name != "mvp")  # piece by piece, or text by text
    reader = QuadReader(parser)
    read = [reader.read(part) for part in (texts[:6000], texts[6000:])]
    numbers = np.concatenate([r[0] for r in read])
    counts = np.concatenate([r[1] for r in read])
    failed = np.concatenate([r[2] for r in read])
    assert numbers.dtype == counts.dtype == np.int64 and failed.dtype == bool
    start = 0
    for i, text in enumerate(texts):
        quads, problems = parser.read(text)
        assert [reader.quads[k] for k in numbers[start : start + counts[i]]] == quads and failed[i] == bool(problems), (i, text)
        start += counts[i]
    assert start == len(numbers) and 1000 < failed.sum() < len(texts) - 1000  # both kinds, many of each
    assert len(reader.quads) < len(numbers)  # equal pieces share a row


def test_quad_hand_derived():
    gold = "food quality is great because pizza is delicious [SSEP] service general is bad because staff is slow"
    right = "food quality is great because pizza is delicious"
    reward = rewards.quad_reward("asqp_paraphrase")
    # one of two gold quads, nothing wrong: 2·1 / (1 + 2); twice: 2·1 / (2 + 2) (multiset: one hit)
    assert reward(completions=[right, join([right, right]), gold, ""], reference=[gold] * 4) == [2 / 3, 0.5, 1.0, 0.0]
    # "set" (DiaASQ): the repeat is one predicted quad
    assert rewards.quad_reward("asqp_paraphrase", duplicates="set")(completions=[join([right, right])], reference=[gold]) == [2 / 3]
    # soft: "tasty" for "delicious" matches 3 of 4 elements: degree 0.75; F1 2·0.75 / (1 + 2)
    soft = rewards.quad_reward("asqp_paraphrase", metric="optimal_f1")
    assert soft(completions=["food quality is great because pizza is tasty"], reference=[gold]) == [pytest.approx(0.5)]


# ---------------------------------------------------------------------------------------
# Reward hacking: no attack scores above the gold output (which scores 1)

quads = st.lists(st.builds(lambda c, s, a, o: f"{c} is {s} because {a} is {o}", *(st.sampled_from(v) for v in (CATEGORIES, SENTIMENTS, WORDS, OPINIONS))), min_size=1, max_size=4, unique=True)


@settings(max_examples=60, deadline=None)
@given(gold=quads, k=st.integers(1, 5), metric=st.sampled_from(rewards.QUAD_METRICS), duplicates=st.sampled_from(["multiset", "set"]))
def test_quad_attacks_never_beat_the_gold(gold, k, metric, duplicates):
    reward = rewards.quad_reward("asqp_paraphrase", metric=metric, duplicates=duplicates)
    everything = [f"{c} is {s} because {a} is {o}" for c in CATEGORIES for s in SENTIMENTS for a in WORDS[:3] for o in OPINIONS[:3]]
    attacks = {
        "repeat a correct item": join(gold + [gold[0]] * k),
        "only a correct item, repeated": join([gold[0]] * (k + 1)),
        "empty": "",
        "the source sentence": "the pizza was delicious but the staff was slow",
        "guess everything": join(gold + everything),
        "guess every polarity": join([p.replace(f" is {s} ", f" is {t} ", 1) for p in gold for s in SENTIMENTS for t in SENTIMENTS if f" is {s} " in p]),
    }
    texts = [join(gold), *attacks.values()]
    got = reward(completions=texts, reference=[join(gold)] * len(texts))
    assert got[0] == 1.0
    for (name, text), value in zip(attacks.items(), got[1:]):
        assert value <= got[0], (name, text, value)
    if duplicates == "multiset" and metric == "exact_f1" and len(set(gold)) == len(gold):
        assert got[1] < 1.0  # a repeat is a predicted quad that finds no second gold copy (the soft metrics count copies as often as the gold holds them)


@settings(max_examples=60, deadline=None)
@given(gold=quads, k=st.integers(1, 3), metric=st.sampled_from(rewards.QUAD_METRICS))
def test_quad_attacks_never_beat_a_sensible_output(gold, k, metric):
    """Against a sensible output (the gold quads but one, and one near miss), no padding
    scores higher: a copied quad earns no second gold quad's partial degree (issue 39.5:
    gold [q1, q2], q2 three elements of q1: [q1, q1] scored 0.7 where [q1] scored 0.667)."""
    near = gold[-1].replace(" is ", " is not ", 1)  # one element changed
    sensible = gold[:-1] + [near]
    attacks = {
        "copy a quad": sensible + [sensible[0]] * k,
        "copy every quad": sensible * (k + 1),
    }  # (a new guess may earn a soft degree: that is the soft match, not an attack)
    reward = rewards.quad_reward("asqp_paraphrase", metric=metric)
    got = reward(completions=[join(sensible)] + [join(a) for a in attacks.values()], reference=[join(gold)] * (1 + len(attacks)))
    for (name, _), value in zip(attacks.items(), got[1:]):
        assert value <= got[0] + 1e-12, (name, got)


def test_a_copied_quad_earns_nothing_under_the_soft_match():
    q1 = "food quality is great because pizza is delicious"
    q2 = "food quality is great because pizza is tasty"  # three elements of q1
    for metric in ("optimal_f1", "optimal_score"):
        reward = rewards.quad_reward("asqp_paraphrase", metric=metric)
        alone, copied = reward(completions=[q1, join([q1, q1])], reference=[join([q1, q2])] * 2)
        assert copied == alone  # optimal_f1: 2·1/(1+2) = 0.667 both


def test_the_list_rule_would_be_gamed_and_is_refused():
    gold, right = "food quality is great because pizza is delicious [SSEP] service general is bad because staff is slow", "food quality is great because pizza is delicious"
    # Why: under "list" a right quad written 3 times is 3 hits of 2 gold quads (recall 1.5).
    with pytest.warns(UserWarning, match="repeated beyond their gold copies"):
        figures = quad.compute([join([right] * 3)], [gold], parse="asqp_paraphrase", duplicates="list", exact_only=True)
    assert figures["exact_recall"] == 1.5
    with pytest.raises(ValueError, match=r"duplicates: 'list' can be gamed.*repeating a right quad"):
        rewards.quad_reward("asqp_paraphrase", duplicates="list")
    for variant in ("pycorrector", "paddle"):
        with pytest.raises(ValueError, match=f"metric: '{variant}' can be gamed.*a wrong change of an erroneous sentence costs nothing"):
            rewards.csc_reward(metric=variant)


def test_the_pycorrector_and_paddle_conventions_would_be_gamed():
    """Their sentence precision counts a false positive only on an error-free sentence:
    rewriting an erroneous sentence wrongly costs nothing there (P stays 1), while
    ReaLiSe's precision and the sums of the csc reward's counts both fall."""
    sources = ["今天天气很好", "他很高心", "我们去公圆"]
    references = ["今天天气很好", "他很高兴", "我们去公园"]
    careful = ["今天天气很好", "他很高兴", "我们去公圆"]  # fixes one, leaves the other
    wild = ["今天天气很好", "他很高兴", "你们来公圆"]  # rewrites the other wrongly
    for variant in ("pycorrector", "paddle"):
        figures = [csc_common.compute(p, references, sources, variant=variant)["sentence_correction_precision"] for p in (careful, wild)]
        assert figures == [1.0, 1.0], variant
    assert csc_common.compute(wild, references, sources, variant="realise")["sentence_correction_precision"] == 0.5
    reward = rewards.csc_reward()
    (careful_counts, _), (wild_counts, _) = (reward.statistics(p, source=sources, reference=references) for p in (careful, wild))
    # char-level correction precision from the sums: 1/1 against 1/3 (two wrong edits)
    assert careful_counts[:, 0].sum() / careful_counts[:, 1].sum() == 1.0
    assert wild_counts[:, 0].sum() / wild_counts[:, 1].sum() == pytest.approx(1 / 3)


# ---------------------------------------------------------------------------------------
# CSC

HAN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"


@pytest.fixture(scope="module")
def csc_corpus():
    rng = random.Random(21)
    sources, references, completions = [], [], []
    for _ in range(10_000):
        source = "".join(rng.choice(HAN) for _ in range(rng.choice([0, 1, 3, 8, 20, 60])))
        gold = list(source)
        for _ in range(rng.choice([0, 0, 1, 2])):
            if gold:
                gold[rng.randrange(len(gold))] = rng.choice(HAN)
        gold = "".join(gold)
        kind, text = rng.randrange(7), list(gold)
        if kind == 1:
            text = list(source)  # copy the source
        elif kind == 2 and text:  # over-correct
            text[rng.randrange(len(text))] = rng.choice(HAN)
        elif kind == 3:  # insert or delete
            at = rng.randrange(len(text) + 1)
            text = text[:at] + [rng.choice(HAN)] + text[at:] if rng.random() < 0.5 or not text else text[:at] + text[at + 1 :]
        elif kind == 4:
            text = [rng.choice(HAN) for _ in text]  # change everything
        elif kind == 5:
            text = []
        sources.append(source)
        references.append(gold)
        completions.append("".join(text))
    return completions, sources, references


def csc_oracle(completion, source, reference):
    predicted, gold = aligned_edits(source, completion), aligned_edits(source, reference)
    hits = len(predicted & gold)
    return (2 * hits / (len(predicted) + len(gold)) if predicted or gold else 1.0), float(predicted == gold)


def test_csc_against_the_per_sentence_oracle_and_the_corpus_figure(csc_corpus):
    completions, sources, references = csc_corpus
    char = rewards.csc_reward()
    sentence = rewards.csc_reward(metric="sentence")
    got, exact = char(completions=completions, source=sources, reference=references), sentence(completions=completions, source=sources, reference=references)
    for i in random.Random(3).sample(range(10_000), 1500):
        assert (got[i], exact[i]) == pytest.approx(csc_oracle(completions[i], sources[i], references[i]), abs=1e-12), i
    for i in range(0, 10_000, 997):
        assert char(completions=[completions[i]], source=[sources[i]], reference=[references[i]]) == [got[i]]
    counts, _ = char.statistics(completions, source=sources, reference=references)
    hits, n, m = counts[:, :3].sum(0)
    corpus = csc_common.compute(completions, references, sources, variant="faspell", length_mismatch="align")
    assert corpus["char_correction_precision"] == pytest.approx(hits / n, abs=1e-12)
    assert corpus["char_correction_recall"] == pytest.approx(hits / m, abs=1e-12)


han = st.text(alphabet=HAN[:12], min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(source=han, changes=st.lists(st.tuples(st.integers(0, 11), st.sampled_from(HAN[:12])), max_size=3), extra=st.integers(0, 11), metric=st.sampled_from(rewards.CSC_METRICS))
def test_csc_attacks_never_beat_the_gold(source, changes, extra, metric):
    gold = list(source)
    for at, char in changes:
        gold[at % len(gold)] = char
    gold = "".join(gold)
    over = list(gold)
    over[extra % len(over)] = "错" if over[extra % len(over)] != "错" else "误"
    attacks = {"copy the source": source, "empty": "", "over-correct": "".join(over), "repeat": gold + gold, "change everything": "错" * len(gold)}
    reward = rewards.csc_reward(metric=metric)
    texts = [gold, *attacks.values()]
    got = reward(completions=texts, source=[source] * len(texts), reference=[gold] * len(texts))
    assert got[0] == 1.0
    for (name, text), value in zip(attacks.items(), got[1:]):
        assert value <= got[0], (name, text, value)
    assert got[3] < 1.0  # over-correcting always costs


# ---------------------------------------------------------------------------------------
# Format reward, TRL's calling convention, refusals


def test_format_reward_is_parse_success():
    reward = rewards.format_reward("asqp_paraphrase")
    texts = ["food quality is great because pizza is delicious", "junk", "", "a is b because c is d [SSEP] x"]
    assert reward(completions=texts) == [1.0, 0.0, 0.0, 0.0]
    assert reward.__name__ == "format_asqp_paraphrase"


def test_format_reward_of_a_rationale_parser_places_the_quotes():
    reward = rewards.format_reward("quotes_exact")
    texts = ['"was great"', '"was great" "pizza"', "", '["great", 3]', '"x"']
    # placed; one quote placed nowhere; nothing quoted (nothing read: not an answer, issue 39.5); an item no quote; a row of another task
    assert reward(completions=texts, sources=["the food was great"] * 4 + [None]) == [1.0, 0.0, 0.0, 0.0, None]
    assert rewards.format_reward("quotes_exact", empty=True)(completions=texts[2:3], sources=["the food was great"]) == [1.0]
    with pytest.raises(ValueError, match="no column 'sources'"):
        reward(completions=texts)


def test_trl_calling_convention():
    reward = rewards.quad_reward("asqp_paraphrase")
    gold = "food quality is great because pizza is delicious"
    chat = [[{"role": "assistant", "content": gold}], [{"role": "assistant", "content": [{"type": "text", "text": gold}]}]]
    extras = dict(trainer_state=object(), log_extra=print, log_metric=print, completion_ids=[[1], [2], [3]])
    # conversational completions; None marks a row of another task; TRL's extras ignored
    assert reward(prompts=["p"] * 3, completions=[*chat, gold], reference=[gold, gold, None], other=[1, 2, 3], **extras) == [1.0, 1.0, None]
    with pytest.raises(ValueError, match="no column 'reference'.*columns given: gold"):
        reward(completions=[gold], gold=[gold])
    with pytest.raises(ValueError, match="reference: 2 values for 1 completions"):
        reward(completions=[gold], reference=[gold, gold])
    with pytest.raises(ValueError, match=r"completions\[0\]: is a int"):
        reward(completions=[3], reference=[gold])
    with pytest.raises(ValueError, match=r"reference\[1\]: asqp_paraphrase@1 cannot read the gold text 'junk'"):
        reward(completions=[gold, gold], reference=[gold, "junk"])
    with pytest.raises(ValueError, match="metric: 'f1' is not one of"):
        rewards.quad_reward("asqp_paraphrase", metric="f1")
    with pytest.raises(ValueError, match="unknown parser 'csc_reply' for quad_match"):
        rewards.quad_reward("csc_reply")


def test_csc_reply_parser():
    reward = rewards.csc_reward(parse="csc_reply")
    assert reward(completions=["修改后：“他很高兴。”\n解释：高心是错字"], source=["他很高心。"], reference=["他很高兴。"]) == [1.0]


# ---------------------------------------------------------------------------------------
# A tiny GRPOTrainer run on CPU, one run for every factory (a model built from a config, a
# tokenizer built in code): the rewards TRL logs are what the factories give the texts it
# generated. So that the rewards are not all 0, the model is made a bigram chain: one-hot
# embeddings, its layer's outputs zeroed, lm_head giving each token's gold successors (the
# prompt word -> the task's gold output -> </s>) a logit of ln(20·vocabulary), every other
# token 0: sampled at temperature 1, a completion follows a gold text (a gold successor
# about 20/21 of the time) and wanders off, so rewards between 0 and 1 come up besides
# whole gold outputs.

GRPO_TASKS = {  # prompt word -> (gold completion, the row's columns)
    "quads": ("food quality is great because pizza is delicious", {"reference": "food quality is great because pizza is delicious"}),
    "correct": ("他 很 高 兴", {"source": "他 很 高 心", "corrected": "他 很 高 兴"}),
    "events": ("<extra_id_0> attack: fired <extra_id_1>", {"text": "the men fired at dawn", "positions": [[8, 13]], "labels": ["attack"]}),
    "coref": ("[John](#1) saw [Mary](#2) . [He](#1) left", {"clusters": [[[0, 0], [4, 4]], [[2, 2]]], "tokens": "John saw Mary . He left".split()}),
    "rationale": ('"was great"', {"sources": "the food was great but slow", "rationale": '"was great"'}),
}
GRPO_COLUMNS = sorted({name for _, columns in GRPO_TASKS.values() for name in columns})


def bigram_model(tokenizer, chains):
    import math

    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    size = len(tokenizer)
    hidden = size + size % 2  # RoPE wants an even head size
    config = LlamaConfig(vocab_size=size, hidden_size=hidden, intermediate_size=8, num_hidden_layers=1, num_attention_heads=1, num_key_value_heads=1)
    config.pad_token_id, config.eos_token_id = tokenizer.pad_token_id, tokenizer.eos_token_id
    model = LlamaForCausalLM(config)
    ids = tokenizer.convert_tokens_to_ids
    with torch.no_grad():
        model.model.embed_tokens.weight.copy_(torch.eye(size, hidden))
        model.model.layers[0].self_attn.o_proj.weight.zero_()
        model.model.layers[0].mlp.down_proj.weight.zero_()
        head = torch.zeros(size, hidden)
        for chain in chains:
            for current, following in zip(chain, chain[1:]):
                head[ids(following), ids(current)] = math.log(20 * size) / math.sqrt(hidden)  # the final RMSNorm scales a one-hot by sqrt(hidden)
        model.lm_head.weight.copy_(head)
    return model


def test_grpo_trainer_logs_every_factorys_rewards(tmp_path):
    import torch
    from datasets import Dataset
    from test_trainer import tokenizer_for
    from trl import GRPOConfig, GRPOTrainer

    chains = [[prompt, *gold.split(), "</s>"] for prompt, (gold, _) in GRPO_TASKS.items()]
    tokenizer = tokenizer_for([word for chain in chains for word in chain])
    torch.manual_seed(0)
    rows = [{"prompt": prompt, **{name: columns.get(name) for name in GRPO_COLUMNS}} for prompt, (_, columns) in GRPO_TASKS.items()]
    tasks = {  # each factory -> the prompt of its task's rows (the format rewards of quad apply to every row)
        rewards.quad_reward("asqp_paraphrase"): "quads",
        rewards.quad_reward("asqp_paraphrase", metric="optimal_f1"): "quads",
        rewards.format_reward("asqp_paraphrase"): "quads",
        rewards.csc_reward(source="source", reference="corrected"): "correct",
        rewards.event_reward(["attack", "die"]): "events",
        rewards.event_reward(parse="omnievent_s2s_strict"): "events",
        rewards.coref_reward("coref_markdown", tokens="tokens"): "coref",
        rewards.coref_reward("coref_markdown", tokens="tokens", metric="muc_f1"): "coref",
        rewards.rationale_reward("quotes_exact", reference="rationale"): "rationale",
        rewards.format_reward("quotes_exact", source="sources"): "rationale",
    }
    funcs = list(tasks)
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4 * len(rows), num_generations=4, max_completion_length=12, max_steps=1,
        learning_rate=1e-3, logging_steps=1, report_to=[], use_cpu=True, disable_tqdm=True, seed=0, save_strategy="no",
    )  # fmt: skip
    trainer = GRPOTrainer(model=bigram_model(tokenizer, chains), reward_funcs=funcs, args=args, train_dataset=Dataset.from_list(rows), processing_class=tokenizer)
    trainer.train()
    logs = trainer._logs
    prompts, completions = list(logs["prompt"]), list(logs["completion"])
    assert sorted(prompts) == sorted(p for p in GRPO_TASKS for _ in range(4))
    columns = {name: [GRPO_TASKS[p][1].get(name) for p in prompts] for name in GRPO_COLUMNS}
    exact = [c.strip() == GRPO_TASKS[p][0] for p, c in zip(prompts, completions)]
    for func, task in tasks.items():
        expected = func(prompts=prompts, completions=completions, **columns)
        logged = [None if np.isnan(v) else v for v in logs["rewards"][func.__name__]]
        assert logged == [None if e is None else pytest.approx(e, abs=1e-6) for e in expected], func.__name__
        everywhere = func.__name__ == "format_asqp_paraphrase"
        assert [value is not None for value in logged] == [everywhere or p == task for p in prompts], func.__name__  # None on another task's rows
        assert all(value == 1.0 for value, p, e in zip(logged, prompts, exact) if e and p == task), func.__name__  # the gold output scores 1
    # the run is not trivial: whole gold outputs and others, and rewards between 0 and 1
    assert 0 < sum(exact) < len(exact), completions
    assert any(0 < v < 1 for func in funcs for v in logs["rewards"][func.__name__]), completions
    names = {key for entry in trainer.state.log_history for key in entry}
    assert {f"rewards/{func.__name__}/mean" for func in funcs} <= names


def test_quad_json_implicit_malformed_set_and_several_references():
    """llm_json: null and blank targets are implicit (NULL), a missing key or a blank
    aspect is a malformed quad; under "set" as under "multiset" the sums of the counts
    are quad_match's corpus figures. Several references: the best counts, as in compute."""
    import json

    rng = random.Random(5)

    def item():
        value = {"target": rng.choice([None, "", " pizza ", "pizza", "NULL", "staff"]), "opinion": rng.choice([None, "good", "slow "]), "aspect": rng.choice(["food", "service", ""]), "polarity": rng.choice(["positive", "negative"])}
        if rng.random() < 0.05:
            del value["aspect"]
        return value

    golds = [json.dumps([{**item(), "aspect": "food"} for _ in range(rng.randint(0, 3))]) for _ in range(600)]
    references = [g for g in golds for _ in range(5)]
    completions = [rng.choice([g, json.dumps([item() for _ in range(rng.randint(0, 4))]), "not json", g[:-3]]) for g in references]
    for duplicates in ("multiset", "set"):
        reward = rewards.quad_reward("llm_json", duplicates=duplicates)
        counts, _ = reward.statistics(completions, reference=references)
        hits, n, m = counts[:, :3].sum(0)
        corpus = quad.compute(completions, references, parse="llm_json", duplicates=duplicates, exact_only=True)
        assert (corpus["exact_precision"], corpus["exact_recall"]) == (pytest.approx(hits / n, abs=1e-12), pytest.approx(hits / m, abs=1e-12)), duplicates
        assert counts[:, 0].sum() > 100 and counts[:, 1].sum() > counts[:, 0].sum()  # hits and misses both occur
    gold, other = "food quality is great because pizza is delicious", "service general is bad because staff is slow"
    reward = rewards.quad_reward("asqp_paraphrase")
    assert reward(completions=[other, gold], reference=[[gold, other], [join([gold, other]), gold]]) == [1.0, 1.0]


# ---------------------------------------------------------------------------------------
# Event detection labels (OmniEvent's seq2seq output put onto candidates)

TYPES = ["attack", "die", "transport", "meet"]
TRIGGERS = ["fired", "died", "moved", "met", "shot", "killed"]


def event_oracle(text, spans, gold, pairs):
    """The pairs as the output states them, matched one-to-one with the gold (word, type)
    pairs, plainly: each predicted pair (not NA) takes an unused equal gold pair if any.
    (hits, predicted, gold) and their F1."""
    unused = [(text[start:end], label) for (start, end), label in zip(spans, gold) if label != "NA"]
    hits = predicted = 0
    for pair in (tuple(p) for p in pairs):
        if pair[1] == "NA":
            continue
        predicted += 1
        if pair in unused:
            unused.remove(pair)
            hits += 1
    n_gold = sum(label != "NA" for label in gold)
    return (2 * hits / (predicted + n_gold) if predicted + n_gold else 1.0), (hits, predicted, n_gold)


def event_example(rng, unique=False):
    vocabulary = TRIGGERS + ["the", "men", "at", "dawn"]
    words = rng.sample(vocabulary, rng.randint(1, 10)) if unique else [rng.choice(vocabulary) for _ in range(rng.randint(1, 12))]
    text, spans, at = " ".join(words), [], 0
    for word in words:
        spans.append([at, at + len(word)])
        at += len(word) + 1
    gold = [rng.choice(TYPES) if w in TRIGGERS and rng.random() < 0.7 else "NA" for w in words]
    return text, spans, gold


def event_completion(rng, text, spans, gold):
    pairs = [(text[s:e], g) for (s, e), g in zip(spans, gold) if g != "NA"]
    kind = rng.randrange(6)
    if kind == 1:
        pairs = [(text[s:e], t) for s, e in spans for t in TYPES]  # guess everything
    elif kind == 2:
        pairs = pairs[: rng.randint(0, len(pairs))] + [(rng.choice(TRIGGERS), rng.choice(TYPES + ["NA", "bogus"]))]
    elif kind == 3:
        return rng.choice(["", "junk", "<extra_id_0> attack <extra_id_1>", "<extra_id_0> : fired"])
    elif kind == 4:
        pairs = pairs * 2
    return " ".join(f"<extra_id_0> {t}: {w} <extra_id_1>" for w, t in pairs)


def test_event_against_the_oracle():
    from paperscore.parse import read_omnievent_s2s

    rng = random.Random(7)
    examples = [event_example(rng) for _ in range(10_000)]
    texts, positions, labels = (list(column) for column in zip(*examples))
    completions = [event_completion(rng, *example) for example in examples]
    for parse in ("omnievent_s2s", "omnievent_s2s_strict"):  # one reading of the text: the rewards are equal
        reward = rewards.event_reward(TYPES, parse=parse)
        got = reward(completions=completions, text=texts, positions=positions, labels=labels)
        counts, _ = reward.statistics(completions, text=texts, positions=positions, labels=labels)
        for i in random.Random(8).sample(range(10_000), 2000):
            value, row = event_oracle(texts[i], positions[i], labels[i], read_omnievent_s2s(completions[i])[0])
            assert got[i] == pytest.approx(value, abs=1e-12) and tuple(counts[i]) == row, i
    # OmniEvent's own conversion prefers the gold type: guessing every type for every word
    # gives every gold trigger its gold type there (recall 1); here each guess is a pair
    from paperscore.parse import omnievent_candidates

    i = next(i for i in range(10_000) if sum(g != "NA" and g != TYPES[0] for g in labels[i]) > 1)
    everything = " ".join(f"<extra_id_0> {t}: {texts[i][s:e]} <extra_id_1>" for s, e in positions[i] for t in TYPES)
    (omnievent,) = omnievent_candidates([read_omnievent_s2s(everything)[0]], [texts[i]], [positions[i]], [labels[i]], TYPES)
    assert all(p == g for p, g in zip(omnievent, labels[i]) if g != "NA")
    gold_text = " ".join(f"<extra_id_0> {g}: {texts[i][s:e]} <extra_id_1>" for (s, e), g in zip(positions[i], labels[i]) if g != "NA")
    assert reward(completions=[gold_text, everything], text=[texts[i]] * 2, positions=[positions[i]] * 2, labels=[labels[i]] * 2)[1] < 1.0


def test_event_repeated_word_and_invented_pairs():
    """Issue 39.5: "fired" twice, a trigger at its second occurrence. Placed on candidates
    blind to the gold, the gold output scored 0.0 and writing it twice 0.667; as pairs, the
    gold output is 1.0 and the copy 2·1/(2+1) = 0.667; a pair for a word of the text that
    is no trigger, or for a word not in it, costs precision: 2·1/(2+1)."""
    text, spans, gold = "fired and fired", [[0, 5], [10, 15]], ["NA", "attack"]
    one, twice = "<extra_id_0> attack: fired <extra_id_1>", "<extra_id_0> attack: fired <extra_id_1> <extra_id_0> attack: fired <extra_id_1>"
    invented, elsewhere = one + " <extra_id_0> die: and <extra_id_1>", one + " <extra_id_0> die: killed <extra_id_1>"
    for parse in ("omnievent_s2s", "omnievent_s2s_strict"):
        got = rewards.event_reward(TYPES, parse=parse)(completions=[one, twice, invented, elsewhere], text=[text] * 4, positions=[spans] * 4, labels=[gold] * 4)
        assert got == [1.0, pytest.approx(2 / 3), pytest.approx(2 / 3), pytest.approx(2 / 3)]
    assert (rewards.event_reward().__name__, rewards.event_reward(parse="omnievent_s2s_strict").__name__) == ("event_f1", "event_strict_f1")  # as TRL logged them


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), parse=st.sampled_from(["omnievent_s2s", "omnievent_s2s_strict"]))
def test_event_attacks_never_beat_the_gold(seed, parse):
    """Words may repeat (a trigger at one occurrence and not at another)."""
    rng = random.Random(seed)
    text, spans, gold = event_example(rng)
    gold_text = " ".join(f"<extra_id_0> {g}: {text[s:e]} <extra_id_1>" for (s, e), g in zip(spans, gold) if g != "NA")
    attacks = [
        " ".join(f"<extra_id_0> {t}: {text[s:e]} <extra_id_1>" for s, e in spans for t in TYPES),  # guess everything
        gold_text + " " + gold_text,  # repeat every item
        "",
        text,  # copy the source sentence
        " ".join(f"<extra_id_0> {rng.choice(TYPES)}: {text[s:e]} <extra_id_1>" for s, e in spans),  # label every word
        gold_text + " <extra_id_0> attack: nowhere <extra_id_1>",  # a trigger not in the text
    ]
    texts = [gold_text, *attacks]
    got = rewards.event_reward(TYPES, parse=parse)(completions=texts, text=[text] * len(texts), positions=[spans] * len(texts), labels=[gold] * len(texts))
    assert got[0] == 1.0 and all(value <= 1.0 for value in got[1:]), (texts, got)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_event_attacks_never_beat_a_sensible_output(seed):
    """An F1 bounded by 1 always ties with the gold output: against a sensible output (the
    gold pairs but one), no padding of it scores higher."""
    rng = random.Random(seed)
    text, spans, gold = event_example(rng)
    pairs = [(text[s:e], g) for (s, e), g in zip(spans, gold) if g != "NA"]
    if not pairs:
        return
    sensible = pairs[: rng.randrange(len(pairs))] + [pairs[-1][:1] + (rng.choice(TYPES),)]  # one pair dropped, one perhaps mistyped
    write = lambda items: " ".join(f"<extra_id_0> {t}: {w} <extra_id_1>" for w, t in items)  # noqa: E731
    # what repetition beyond the gold's count, and invention, add (a copy of a pair the gold
    # holds twice, or a new guess, may find a gold pair: that is no attack)
    attacks = [sensible + [("nowhere", "attack"), ("dawn", rng.choice(TYPES))]]  # triggers not in the text, or not triggers
    if all(pairs.count(pair) == 1 for pair in sensible if pair in pairs):
        attacks += [sensible + sensible, sensible + [sensible[-1]] * 3]  # repeat every pair, or one
    got = rewards.event_reward(TYPES)(completions=[write(sensible)] + [write(a) for a in attacks], text=[text] * (1 + len(attacks)), positions=[spans] * (1 + len(attacks)), labels=[gold] * (1 + len(attacks)))
    assert all(value <= got[0] + 1e-12 for value in got[1:]), (text, gold, sensible, got)


# ---------------------------------------------------------------------------------------
# Coreference (clusters as JSON lists of [start, end] token spans, read by json.loads: the
# function form; the coref parsers are tested below)


def coref_document(rng):
    spans = sorted({(s, s + rng.randint(0, 2)) for s in rng.sample(range(40), rng.randint(0, 12))})
    rng.shuffle(spans)
    clusters, at = [], 0
    while at < len(spans):
        size = rng.randint(1, 4)
        clusters.append([list(span) for span in spans[at : at + size]])
        at += size
    return clusters


def coref_completion(rng, gold, other):
    kind = rng.randrange(6)
    if kind == 1:
        return json.dumps([m for c in gold for m in c] and [[m for c in gold for m in c]])  # everything one entity
    if kind == 2:
        return json.dumps([[m] for c in gold for m in c])  # every mention alone
    if kind == 3:
        return json.dumps(other)
    if kind == 4:
        return json.dumps(gold[: rng.randint(0, len(gold))] + [[[40, 41]]])
    if kind == 5:
        return "[]"
    return json.dumps(gold)


@pytest.mark.filterwarnings("ignore:predictions. none of the")  # coref's convention guard on documents that share no mention
def test_coref_against_per_document_compute_and_the_corpus():
    from paperscore import coref

    rng = random.Random(9)
    golds = [coref_document(rng) for _ in range(10_000)]
    completions = [coref_completion(rng, g, rng.choice(golds)) for g in golds]
    reward = rewards.coref_reward(json.loads)
    got = reward(completions=completions, clusters=golds)
    for i in random.Random(10).sample(range(10_000), 300):
        predicted = json.loads(completions[i])
        alone = 1.0 if not predicted and not golds[i] else coref.compute([predicted], [golds[i]])["conll_f1"]
        assert got[i] == pytest.approx(alone, abs=1e-12), i
    counts, _ = reward.statistics(completions, clusters=golds)
    corpus = coref.compute([json.loads(c) for c in completions], golds, metrics=list(coref.CONLL))
    summed = coref.scores(counts[:, :-2].sum(0), coref.CONLL)
    assert summed["conll_f1"] == pytest.approx(corpus["conll_f1"], abs=1e-12)
    assert abs(np.mean(got) - corpus["conll_f1"]) > 1e-3
    muc = rewards.coref_reward(json.loads, metric="muc_f1")(completions=completions[:50], clusters=golds[:50])
    assert muc[0] == pytest.approx(1.0 if not golds[0] and completions[0] == "[]" else coref.compute([json.loads(completions[0])], [golds[0]])["muc_f1"])
    with pytest.raises(ValueError, match="metric: 'f1' is not conll_f1"):
        rewards.coref_reward(json.loads, metric="f1")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_coref_attacks_never_beat_the_gold(seed):
    rng = random.Random(seed)
    gold = coref_document(rng)
    mentions = [m for c in gold for m in c]
    attacks = [
        json.dumps(gold + gold[:1]),  # repeat a correct cluster
        "[]",
        json.dumps([[[t, t] for t in range(42)]]),  # every token, one entity (the source)
        json.dumps([[[t, t]] for t in range(42)]),  # every token alone
        json.dumps([mentions] if mentions else []),  # guess one entity of everything
        json.dumps(gold + [[[40, 41], [0, 1]]]),
    ]
    texts = [json.dumps(gold), *attacks]
    got = rewards.coref_reward(json.loads)(completions=texts, clusters=[gold] * len(texts))
    assert all(value <= got[0] for value in got[1:]), (gold, got)


# ---------------------------------------------------------------------------------------
# Rationales: quotes placed on the input's tokens (rationale_naive's plain placement)

RATIONALE_WORDS = ["the", "food", "was", "great", "but", "slow", "Don't", "go", ",", ".", "service", "very", "bad", "味道", "很好"]


def rationale_example(rng):
    tokens = [rng.choice(RATIONALE_WORDS) for _ in range(rng.randint(1, 25))]
    start = rng.randrange(len(tokens))
    stop = min(len(tokens), start + rng.randint(0, 4)) if tokens[start] not in ",." else start  # a gold quote holds a word
    gold_quotes = [" ".join(tokens[start:stop])] if stop > start else []
    return tokens, json.dumps(gold_quotes)


def rationale_completion(rng, tokens, gold):
    kind = rng.randrange(8)
    if kind == 1:
        return f'"{" ".join(tokens)}"'  # quote the whole input
    if kind == 2:
        return gold + " " + gold if gold != "[]" else ""  # repeat (a JSON list twice is no JSON: read as quoted texts)
    if kind == 3:
        return rng.choice(["", "none", '"pizza"', "```json\n[1, \"great\"]\n```", "{}"])
    if kind == 4:
        i = rng.randrange(len(tokens))
        return json.dumps([" ".join(tokens[i : i + rng.randint(1, 3)]).upper(), "zzz"])
    if kind == 5:
        return "- " + "\n- ".join(rng.sample(tokens, min(2, len(tokens))))
    return gold


def test_rationale_against_the_naive_placement_and_compute():
    from rationale_naive import place_reply

    from paperscore import rationale

    rng = random.Random(11)
    examples = [rationale_example(rng) for _ in range(10_000)]
    sources = [tokens for tokens, _ in examples]
    golds = [gold for _, gold in examples]
    completions = [rationale_completion(rng, tokens, gold) for tokens, gold in examples]
    for policy in ("quotes_exact", "quotes_normalized"):
        reward = rewards.rationale_reward(policy)
        got = reward(completions=completions, sources=sources, reference=golds)
        for i in range(10_000) if policy == "quotes_exact" else random.Random(12).sample(range(10_000), 1000):
            mask, _, _ = place_reply(completions[i], sources[i], policy)
            truth, _, _ = place_reply(golds[i], sources[i], policy)
            tp, p, g = sum(a & b for a, b in zip(mask, truth)), sum(mask), sum(truth)
            assert got[i] == (2 * tp / (p + g) if p + g else 1.0), (i, policy)  # the definition
        counts, rows = reward.statistics(completions, sources=sources, reference=golds)
        tp, p, g = counts.sum(0)
        corpus = rationale.compute(completions, golds, sources=sources, parse=policy)
        assert (corpus["precision"], corpus["recall"], corpus["f1"]) == pytest.approx((tp / p, tp / g, 2 * tp / (p + g)), abs=1e-12)
        assert abs(np.mean(got) - corpus["f1"]) > 1e-3  # the mean of rewards is not the corpus figure
        # but over the examples with gold or quoted tokens it is compute()'s example_f1
        assert np.mean([value for value, (_, p_i, g_i) in zip(got, counts) if p_i + g_i]) == pytest.approx(corpus["example_f1"], abs=1e-12)
        assert sum(p_i + g_i == 0 for _, p_i, g_i in counts) > 100  # such examples exist here
    # each example alone: compute()'s per-example f1 (zero_division=1.0: nothing to find, nothing quoted)
    for i in random.Random(13).sample(range(10_000), 100):
        alone = rationale.compute([completions[i]], [golds[i]], sources=[sources[i]], parse="quotes_fuzzy", per_example=True, zero_division=1.0)
        assert rewards.rationale_reward("quotes_fuzzy")(completions=[completions[i]], sources=[sources[i]], reference=[golds[i]]) == [alone["per_example"][0]["f1"]]


def test_rationale_hand_derived_and_refusals():
    reward = rewards.rationale_reward("quotes_exact")
    source = "the food was great but slow"  # 6 tokens; gold "was great" = tokens 3-4
    got = reward(completions=['"food was great"', f'"{source}"', "", '"pizza"', '"great" "great"', "[]"], sources=[source] * 6, reference=['"was great"'] * 5 + ["[]"])
    # 2·2/(3+2), 2·2/(6+2), 0, 0 (nothing placed), 2·1/(1+2), and nothing quoted where nothing is gold: 1.0
    assert got == [0.8, 0.5, 0.0, 0.0, pytest.approx(2 / 3), 1.0]
    # 0/1 references with -100: those positions are not scored (tokens 5, 6): quoting them
    # selects no scored token, and nothing is gold: 1.0; with "great" gold, 0 (tp 0, gold 1)
    assert reward(completions=['"but slow"', '"but slow"'], sources=[source] * 2, reference=[[0, 0, 0, 0, -100, -100], [0, 0, 0, 1, -100, -100]]) == [1.0, 0.0]
    assert reward(completions=['"but slow"', "x"], sources=[source, source], reference=[[0, 0, 0, 0, 1, 1], None]) == [1.0, None]
    for metric in ("precision", "recall"):
        with pytest.raises(ValueError, match=f"metric: '{metric}' can be gamed"):
            rewards.rationale_reward("quotes_exact", metric=metric)
    with pytest.raises(ValueError, match="unknown parser 'coref_clusters' for rationale_f1"):
        rewards.rationale_reward("coref_clusters")
    with pytest.raises(ValueError, match=r"references\[1\]: is a list but references\[0\] is a text"):
        reward(completions=["x", "x"], sources=[source] * 2, reference=['"was"', [1, 0, 0, 0, 0, 0]])
    with pytest.raises(ValueError, match="no column 'sources'"):
        reward(completions=["x"], reference=['"was"'])


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), policy=st.sampled_from(["quotes_exact", "quotes_normalized", "quotes_fuzzy"]))
def test_rationale_attacks_never_beat_the_gold(seed, policy):
    rng = random.Random(seed)
    tokens, gold = rationale_example(rng)
    quotes = json.loads(gold)
    attacks = [
        f'"{" ".join(tokens)}"',  # quote the whole input
        json.dumps(quotes * 3),  # repeat a quote
        json.dumps(quotes + quotes[:1]),
        "",
        json.dumps(["qqqq xxxx", "zzz"]),  # words not in the text
        json.dumps(quotes + ["qqqq xxxx"]),
        json.dumps([" ".join(tokens[i : i + 2]) for i in range(len(tokens))]),  # every pair of words
    ]
    texts = [gold, *attacks]
    got = rewards.rationale_reward(policy)(completions=texts, sources=[tokens] * len(texts), reference=[gold] * len(texts))
    assert got[0] == 1.0 and all(value <= got[0] for value in got[1:]), (tokens, gold, got)


# ---------------------------------------------------------------------------------------
# Coreference through the coref parsers, placed on the source tokens


def test_coref_parsers_against_compute_and_unplaced_mentions():
    from paperscore import coref

    tokens = "John saw Mary . He left".split()
    gold = [[[0, 0], [4, 4]], [[2, 2]]]
    replies = {
        "coref_clusters": ['[["John", "He"], ["Mary"]]', '[["John", "He", "Bob"], ["Mary"]]', '[["John", "He"], ["Mary"], []]', "not json"],
        "coref_markdown": ["[John](#1) saw [Mary](#2) . [He](#1) left", "[John](#1) saw [Mary](#2) . [He](#1) left [Bob](#1)", "[John](#1) saw Mary . [He](#1) left", "John saw Mary"],
    }
    for name, texts in replies.items():
        got = rewards.coref_reward(name, tokens="tokens")(completions=texts, clusters=[gold] * 4, tokens=[tokens] * 4)
        for text, value in zip(texts, got):
            assert value == pytest.approx(coref.compute([text], [gold], parse=name, tokens=[tokens], metrics=list(coref.CONLL))["conll_f1"], abs=1e-12), (name, text)
        assert got[0] == 1.0
    # "Bob" matches no source token (clusters) / sits on text the model added (markdown):
    # a wrong mention in John's entity, not dropped. MUC: R (2-1)/(2-1) = 1, P (3-2)/(3-1)
    # = 1/2 (the key entity of one mention adds nothing), F 2/3; B3: R 1, P (2²/3 + 1)/4 =
    # 7/12, F 14/19; CEAFe: φ4 2·2/(2+3) = 4/5 and 1: R (4/5+1)/2, P (4/5+1)/2, F 9/10.
    expected = (2 / 3 + 14 / 19 + 9 / 10) / 3
    for name, texts in replies.items():
        assert rewards.coref_reward(name, tokens="tokens")(completions=texts[1:2], clusters=[gold], tokens=[tokens]) == [pytest.approx(expected, abs=1e-12)]
    # the tokens from the references themselves (jsonlines)
    line = json.dumps({"doc_key": "d", "sentences": [tokens], "clusters": gold})
    assert rewards.coref_reward("coref_clusters")(completions=replies["coref_clusters"][:2], clusters=[line] * 2) == [1.0, pytest.approx(expected, abs=1e-12)]
    with pytest.raises(ValueError, match="unknown parser 'quotes_exact' for coref"):
        rewards.coref_reward("quotes_exact")
    with pytest.raises(ValueError, match="tokens: places a coref parser's mentions"):
        rewards.coref_reward(json.loads, tokens="tokens")


# ---------------------------------------------------------------------------------------
# Event detection under the strict offset policy


# ---------------------------------------------------------------------------------------
# Coreference: a model's output never stops training; a gold error does, at once


def test_coref_reward_scores_any_model_output_and_refuses_bad_gold():
    import warnings

    from paperscore import coref

    tokens = [f"w{i}" for i in range(30)]
    gold = [[[i, i] for i in range(0, 24, 2)]]  # one entity of 12 one-token mentions
    long = [[[i, i + 1] for i in range(0, 24, 2)]]  # each mention one token too long
    markdown = " ".join(f"[w{i} w{i + 1}](#1)" for i in range(0, 24, 2)) + " w24 w25 w26 w27 w28 w29"
    # compute() reads such a batch as spans written end-exclusive and refuses it
    with pytest.raises(ValueError, match="0 of the 12 predicted mentions are key mentions.* 12 under 'token_exclusive'"):
        coref.compute([long, []], [gold, []])
    # model text a parser placed has no span convention to mistake: scored as placed
    assert coref.compute([markdown], [gold], parse="coref_markdown", tokens=[tokens])["muc_f1"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nor a warning per batch
        # no mention matches: MUC, B3 and CEAFe are 0; a document with nothing on either side: 1.0
        assert rewards.coref_reward(json.loads)(completions=[json.dumps(long), "[]"], clusters=[gold, []]) == [0.0, 1.0]
        assert rewards.coref_reward("coref_markdown", tokens="tokens")(completions=[markdown], clusters=[gold], tokens=[tokens]) == [0.0]
        far = json.dumps([[[100 + i, 100 + i] for i in range(12)]])  # no other reading finds them either (compute warns)
        assert rewards.coref_reward(json.loads)(completions=[far], clusters=[gold]) == [0.0]
        # a span past the end of a 6-token jsonlines document: a wrong mention in Mary's entity.
        # key {John, He} {Mary}; response {John, He} {Mary, X}. MUC R 1, P (1 + 0)/(1 + 1), F 2/3;
        # B3 R (2²/2 + 1²/1)/3 = 1, P (2²/2 + 1²/2)/4 = 5/8, F 10/13; CEAFe φ4 1 and 2·1/(1+2):
        # R = P = (1 + 2/3)/2, F 5/6
        words = "John saw Mary . He left".split()
        line = json.dumps({"doc_key": "d", "sentences": [words], "clusters": [[[0, 0], [4, 4]], [[2, 2]]]})
        got = rewards.coref_reward(json.loads)(completions=["[[[0, 0], [4, 4]], [[2, 2]]]", "[[[0, 0], [4, 4]], [[2, 2], [50, 52]]]"], clusters=[line, line])
        assert got == [1.0, pytest.approx((2 / 3 + 10 / 13 + 5 / 6) / 3, abs=1e-12)]
    with pytest.raises(ValueError, match="ends beyond the document's 6 tokens"):  # compute() refuses that span
        coref.compute([[[[0, 0], [4, 4]], [[2, 2], [50, 52]]]], [line])
    # a gold document that cannot be read stops the run at once, naming it
    bad = json.dumps({"doc_key": "d", "sentences": [words], "clusters": [[[0, 0], [4, 40]]]})
    with pytest.raises(ValueError, match=r"references\[1\] line 1 \(doc_key 'd'\): cluster 0 holds \[4, 40\]: ends beyond"):
        rewards.coref_reward(json.loads)(completions=["[]", "[]"], clusters=[line, bad])
    # a function's malformed clusters are the function's error (configuration), named
    with pytest.raises(ValueError, match=r"predictions\[0\]: cluster 0 holds \[5, 2\]"):
        rewards.coref_reward(json.loads)(completions=["[[[5, 2]]]"], clusters=[gold])
    # mention ids (no span convention) are still numbered together on both sides
    assert rewards.coref_reward(json.loads)(completions=['[["a", "c"]]'], clusters=[[["a", "b"]]]) == [coref.compute([[["a", "c"]]], [[["a", "b"]]])["conll_f1"]]


@pytest.mark.parametrize("metric", rewards.QUAD_METRICS)
def test_quad_malformed_gold_quad_names_the_row(metric):
    """A gold text the parser reads whole but into a quad with an empty element (the
    sentiment word missing) is an error naming the row and the quad, in every reward."""
    gold = "food quality is great because pizza is delicious"
    reward = rewards.quad_reward("asqp_paraphrase", metric=metric)
    with pytest.raises(ValueError, match=r"reference\[2\]: gold quad 2 \('staff', 'slow', 'service', ''\) has the wrong number of elements or an empty one"):
        reward(completions=["a", "b", "c"], reference=[gold, gold, gold + " [SSEP] service is  because staff is slow"])
