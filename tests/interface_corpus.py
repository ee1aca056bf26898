"""A fixed corpus per family, and every figure the layers over a family's statistics give
on it: compute() (with intervals), a state fed in shards and merged (with intervals), the
paired comparisons and the rewards' per-example statistics.

Recorded once, before the families' statistics became one interface (issue 34), into
tests/data/interface/recorded.json; tests/test_family.py recomputes every figure and
requires it unchanged. Re-record (`python tests/interface_corpus.py`) only for a change
that is meant to move a number, and say which in the commit.
"""

import json
import random
import sys
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "data" / "interface" / "recorded.json"
BOOT = {"confidence_level": 0.9, "n_resamples": 40, "seed": 3}
PIECES = ((0, 7), (7, 8), (8, 8), (8, 60), (60, None))  # shards, one empty and one of one example


def _plain(value):
    """JSON-safe, NaN and infinities as strings (recorded exactly)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return repr(value) if value != value or value in (float("inf"), float("-inf")) else value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    return value


def _corpora():
    """{case: (family, options, inputs)}: inputs hold predictions, references, a second
    system (system_b) and any per-example inputs (sources, tokens)."""
    import test_rewards
    import test_state
    import test_state_more

    cases = {}
    rng = np.random.default_rng(2026)
    for family in ("micro_macro", "rationale_f1", "quad_match", "csc_sighan", "csc_common", "coref_conll"):
        references, a, b, options = test_state.compare_inputs(family, rng, 90)
        inputs = {"references": references, "predictions": a, "system_b": b}
        extra = {k: v for k, v in options.items()}
        cases[f"{family}/plain"] = (family, {}, {**inputs, **extra})
    r = random.Random(5)
    seqs = [[r.randrange(5) for _ in range(r.randrange(0, 6))] for _ in range(80)]
    cases["micro_macro/sequences_maven"] = ("micro_macro", {"convention": "maven"}, {"references": seqs, "predictions": [[x if r.random() < 0.7 else r.randrange(5) for x in s] for s in seqs], "system_b": [[x if r.random() < 0.8 else 0 for x in s] for s in seqs]})
    labels = [r.choice(["None", "Attack", "Die", "Meet", "Move"]) for _ in range(120)]
    cases["micro_macro/str_jmee"] = ("micro_macro", {"convention": "jmee", "negative_labels": ["None"], "zero_division": 1.0}, {"references": labels, "predictions": [x if r.random() < 0.6 else r.choice(["None", "Die"]) for x in labels], "system_b": [x if r.random() < 0.7 else "Attack" for x in labels]})
    cases["micro_macro/labels"] = ("micro_macro", {"labels": ["Attack", "Die", "Meet"], "negative_labels": ["None"]}, cases["micro_macro/str_jmee"][2])
    windows = test_state_more.windows_corpus(9, 30, True)
    flat_p, flat_r = test_state_more.flat(windows)
    ends = np.cumsum([len(w) for w in windows]).tolist()  # TextEE windows stay whole in a shard
    window_pieces = [(0, ends[3]), (ends[3], ends[4]), (ends[4], ends[20]), (ends[20], None)]
    cases["micro_macro/spans_textee"] = ("micro_macro", {"spans": "textee"}, {"predictions": flat_p, "references": flat_r, "pieces": window_pieces})
    cases["micro_macro/spans_oneie"] = ("micro_macro", {"spans": "oneie"}, {"predictions": flat_p, "references": flat_r})
    q = random.Random(11)
    gold = test_rewards.gold_texts(q, 70)
    pred = [test_rewards.corrupt(q, g, gold) for g in gold]
    pred_b = [test_rewards.corrupt(q, g, gold) for g in gold]
    cases["quad_match/parse"] = ("quad_match", {"parse": "asqp_paraphrase"}, {"references": gold, "predictions": pred, "system_b": pred_b})
    cases["quad_match/exact_set_implicit"] = ("quad_match", {"parse": "asqp_paraphrase", "duplicates": "set", "implicit_split": True}, {"references": gold, "predictions": pred, "system_b": pred_b})
    cases["quad_match/exact_only"] = ("quad_match", {"exact_only": True, "zero_division": 1.0}, cases["quad_match/plain"][2])
    dia_gold, dia_pred, dia_pred_b = test_state.diaasq_corpus()
    cases["quad_match/diaasq"] = ("quad_match", {"convention": "diaasq"}, {"references": dia_gold[:80], "predictions": dia_pred[:80], "system_b": dia_pred_b[:80], "pieces": [(0, 7), (7, 8), (8, 60), (60, None)]})  # an empty shard failed with keep_rows before issue 34
    sources, replies, references = test_state.csc_replies(4, 70)
    sources_b, replies_b, _ = test_state.csc_replies(5, 70)
    for family in ("csc_sighan", "csc_common"):
        cases[f"{family}/parse_align"] = (family, {"parse": "csc_reply", "length_mismatch": "align"}, {"sources": sources, "predictions": replies, "references": references})
    cases["csc_sighan/2013_2"] = ("csc_sighan", {"version": "2013", "subtask": 2, "zero_division": "nan"}, cases["csc_sighan/plain"][2])
    cases["csc_common/all"] = ("csc_common", {"variant": "all"}, cases["csc_common/plain"][2])
    cases["csc_common/faspell"] = ("csc_common", {"variant": "faspell", "length_mismatch": "whole"}, cases["csc_common/plain"][2])
    cases["coref_conll/e2e"] = ("coref_conll", {"convention": "e2e_coref"}, cases["coref_conll/plain"][2])
    cases["coref_conll/no_singletons"] = ("coref_conll", {"keep_singletons": False}, cases["coref_conll/plain"][2])
    cases["coref_conll/metrics"] = ("coref_conll", {"metrics": ["muc", "blanc", "lea", "mentions"], "zero_division": 1.0}, cases["coref_conll/plain"][2])
    rr = random.Random(8)
    examples = [test_rewards.rationale_example(rr) for _ in range(60)]
    cases["rationale_f1/parse"] = ("rationale_f1", {"parse": "quotes_normalized"}, {"sources": [e[0] for e in examples], "references": [e[1] for e in examples], "predictions": [test_rewards.rationale_completion(rr, *e) for e in examples]})
    soft_refs = [[int(x) for x in rng.integers(0, 2, rng.integers(1, 8))] for _ in range(70)]
    soft = [[round(float(x), 3) for x in rng.random(len(ref))] for ref in soft_refs]
    cases["rationale_f1/soft_topk"] = ("rationale_f1", {"top_k_ratio": 0.3}, {"references": soft_refs, "predictions": soft, "system_b": [[round(float(x), 2) for x in rng.random(len(ref))] for ref in soft_refs]})
    cases["rationale_f1/soft_threshold"] = ("rationale_f1", {"threshold": 0.4, "threshold_rule": ">", "iou_threshold": 0.6}, cases["rationale_f1/soft_topk"][2])
    keys, responses = test_state.corefud_texts(40)
    cases["corefud/head"] = ("corefud", {}, {"references": keys, "predictions": responses})
    cases["corefud/exact_singletons"] = ("corefud", {"matching": "exact", "keep_singletons": True}, {"references": keys, "predictions": responses})
    faith = test_state_more.faithfulness_inputs(3, 50, 3, True, True, k=2)
    cases["faithfulness/aopc"] = ("faithfulness", {"aopc_thresholds": [0.1, 0.5]}, {"faithfulness": faith})
    return cases


MODULES = {"micro_macro": "micro_macro", "rationale_f1": "rationale", "quad_match": "quad", "csc_sighan": "csc_sighan", "csc_common": "csc_common", "coref_conll": "coref", "corefud": "corefud", "faithfulness": "faithfulness"}
STATE_FAMILY = {"rationale_f1": "rationale", "coref_conll": "coref"}
EXTRA = ("sources", "tokens")


def _compute(family, options, inputs, **more):
    import importlib

    module = importlib.import_module(f"paperscore.{MODULES[family]}")
    if family == "faithfulness":
        return module.compute(**inputs["faithfulness"], **options, **more)
    extra = {k: inputs[k] for k in EXTRA if k in inputs}
    return module.compute(inputs["predictions"], inputs["references"], **extra, **options, **more)


def _state(family, options, inputs, keep_rows):
    from paperscore import state

    name = STATE_FAMILY.get(family, family)
    if family == "faithfulness":
        data = inputs["faithfulness"]
        n = len(data["full"])
        parts = [state.new(name, **options).update(**{k: v[a:b] for k, v in data.items()}) for a, b in PIECES if a < n]
    else:
        n = len(inputs["references"])
        parts = []
        for a, b in inputs.get("pieces", PIECES):
            if a > n:
                continue
            extra = {k: inputs[k][a:b] for k in EXTRA if k in inputs}
            s = state.new(name, keep_rows=keep_rows, **options).update(inputs["predictions"][a:b], inputs["references"][a:b], **extra)
            parts.append(state.from_dict(json.loads(json.dumps(s.to_dict()))))
    merged = state.merge(*parts)
    out = {"figures": merged.compute()}
    if keep_rows:
        out["intervals"] = merged.compute(**BOOT)
    return out


def _compare(family, options, inputs):
    from paperscore.compare import compare

    out = {}
    extra = {k: inputs[k] for k in EXTRA if k in inputs}
    for method in ("bootstrap", "randomization"):
        key = {"metric_key": "muc_f1"} if "metrics" in options else {}  # the default conll_f1 needs muc, bcub and ceafe
        result = compare(family, inputs["references"], inputs["predictions"], inputs["system_b"], method=method, n_resamples=60, seed=2, **key, **extra, **options)
        out[method] = {k: v for k, v in result.items() if k != "signature"}
    return out


def record():
    """Every figure of every case."""
    out = {}
    warnings.simplefilter("ignore")
    for case, (family, options, inputs) in _corpora().items():
        entry = {"compute": _compute(family, options, inputs)}
        if family != "faithfulness":
            entry["compute_intervals"] = _compute(family, options, inputs, **BOOT)
        entry["state"] = _state(family, options, inputs, keep_rows=family != "faithfulness")
        if "system_b" in inputs:
            try:
                entry["compare"] = _compare(family, options, inputs)
            except TypeError:  # an option compare did not take before issue 34 (parse=, exact_only)
                pass
        out[case] = _plain(entry)
    out["rewards"] = _plain(_rewards())
    return out


def _rewards():
    """Each reward factory's rewards and statistics on fixed completions."""
    import test_rewards
    from paperscore import rewards

    out = {}
    q = random.Random(13)
    gold = test_rewards.gold_texts(q, 60)
    completions = [test_rewards.corrupt(q, g, gold) for g in gold]
    for metric in rewards.QUAD_METRICS:
        f = rewards.quad_reward("asqp_paraphrase", metric=metric)
        out[f"quad_{metric}"] = {"rewards": f(completions=completions, reference=gold), "statistics": f.statistics(completions, reference=gold)[0]}
    sources, replies, references = __import__("test_state").csc_replies(6, 60)
    for metric in rewards.CSC_METRICS:
        f = rewards.csc_reward(parse="csc_reply", metric=metric)
        out[f"csc_{metric}"] = {"rewards": f(completions=replies, source=sources, reference=references), "statistics": f.statistics(replies, source=sources, reference=references)[0]}
    rr = random.Random(8)
    examples = [test_rewards.rationale_example(rr) for _ in range(40)]
    texts = [test_rewards.rationale_completion(rr, *e) for e in examples]
    f = rewards.rationale_reward("quotes_normalized")
    columns = {"sources": [e[0] for e in examples], "reference": [e[1] for e in examples]}
    out["rationale_f1"] = {"rewards": f(completions=texts, **columns), "statistics": f.statistics(texts, **columns)[0]}
    er = random.Random(4)
    events = [test_rewards.event_example(er) for _ in range(40)]
    for parse in ("omnievent_s2s", "omnievent_s2s_strict"):
        f = rewards.event_reward(types=test_rewards.TYPES, parse=parse)
        columns = {"text": [e[0] for e in events], "positions": [e[1] for e in events], "labels": [e[2] for e in events]}
        texts = [test_rewards.event_completion(er, *e) for e in events]
        out[f"event_{parse}"] = {"rewards": f(completions=texts, **columns), "statistics": f.statistics(texts, **columns)[0]}
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(HERE.parent / "shared"))
    RECORDED.parent.mkdir(parents=True, exist_ok=True)
    RECORDED.write_text(json.dumps(record(), indent=None, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RECORDED} ({RECORDED.stat().st_size:,} bytes)")
