"""Per family a corpus of model texts as a harness hands them over (one text per document),
what compute() gives on it, and a direct bootstrap over its documents: what the harness
integrations (tests/test_harness_*.py) are held to."""

import importlib
import json
import random

import numpy as np

MODULES = {"micro_macro": "micro_macro", "csc_sighan": "csc_sighan", "csc_common": "csc_common", "coref_conll": "coref", "quad_match": "quad", "rationale_f1": "rationale"}
BOOT = {"confidence_level": 0.9, "n_resamples": 200, "seed": 5}


def corpora(n=40, seed=0):
    """{family: (options, documents)}: each document {"text": the model's text,
    "reference": ..., and the family's inputs (sources, tokens)}; texts read by the
    family's parser where its predictions are not text."""
    import test_coref_parse
    import test_rewards
    import test_state

    rng = random.Random(seed)
    labels = ["None", "Attack", "Die", "Meet"]
    gold = [rng.choice(labels) for _ in range(n)]
    out = {"micro_macro": ({"convention": "maven"}, [{"text": g if rng.random() < 0.6 else rng.choice(labels), "reference": g} for g in gold])}
    sources, replies, references = test_state.csc_replies(seed, n)
    csc = [{"text": t, "reference": r, "sources": s} for s, t, r in zip(sources, replies, references)]
    out["csc_sighan"] = ({"parse": "csc_reply", "length_mismatch": "align"}, csc)
    out["csc_common"] = ({"parse": "csc_reply", "length_mismatch": "align", "variant": "realise"}, csc)
    documents = []
    for _ in range(n):
        tokens = [rng.choice(test_coref_parse.WORDS) for _ in range(rng.randint(1, 25))]
        key = test_coref_parse.random_clusters(rng, test_coref_parse.random_mentions(rng, len(tokens)))
        documents.append({"text": test_coref_parse.random_system(rng, tokens, key), "reference": key, "tokens": tokens})
    out["coref_conll"] = ({"parse": "coref_markdown"}, documents)
    quads = test_rewards.gold_texts(rng, n)
    out["quad_match"] = ({"parse": "asqp_paraphrase"}, [{"text": test_rewards.corrupt(rng, g, quads), "reference": g} for g in quads])
    examples = [test_rewards.rationale_example(rng) for _ in range(n)]
    out["rationale_f1"] = ({"parse": "quotes_normalized"}, [{"text": test_rewards.rationale_completion(rng, tokens, quotes), "reference": quotes, "sources": tokens} for tokens, quotes in examples])
    return out


def inputs_of(documents):
    return {name: [d[name] for d in documents] for name in documents[0] if name not in ("text", "reference")}


def expected(family, options, documents, **boot):
    """The family's compute() on the documents (texts, references, inputs) in one pass."""
    module = importlib.import_module(f"paperscore.{MODULES[family]}")
    return module.compute([d["text"] for d in documents], [d["reference"] for d in documents], **inputs_of(documents), **options, **boot)


def direct_bootstrap(family, options, documents, figures, confidence_level, n_resamples, seed):
    """Percentile intervals of `figures` by drawing the documents with replacement and
    calling compute() on each resample (numpy's linear quantiles): no paperscore state,
    no row table."""
    rng = np.random.default_rng(seed)
    draws = {name: [] for name in figures}
    for _ in range(n_resamples):
        picked = [documents[i] for i in rng.integers(0, len(documents), len(documents))]
        result = expected(family, options, picked)
        for name in figures:
            draws[name].append(result[name])
    tail = (1 - confidence_level) / 2
    return {f"{name}_{end}": float(np.quantile(values, q)) for name, values in draws.items() for end, q in (("low", tail), ("high", 1 - tail))}


def dumps(value):
    return json.dumps(value, ensure_ascii=False)
