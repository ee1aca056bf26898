"""lm-evaluation-harness 0.4.13 end to end: every ready-made task (paperscore/lm_eval_tasks)
run by lm-eval on local JSON-lines files in its documented layout, with an lm-eval LM
subclass that returns known replies, gives the figures and intervals of the family's compute() on
those replies (1e-12); and the trap: the Spaces as `hf_evaluate` metrics, called once per
document and averaged by lm-eval, are not the corpus figures (the numbers the README and
the cards quote)."""

import json
import random
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import diaasq
import harness_corpora
import test_coref_parse
import test_rewards
import test_state
from conftest import ROOT
from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

from paperscore import coref, csc_common, csc_sighan, harness_lm_eval, micro_macro, quad, rationale

BOOT = {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0}  # the tasks' defaults
N = 30


class Replies(LM):
    """A model whose reply to each document is known: replies[(task, document id)]."""

    def __init__(self, replies):
        super().__init__()
        self.replies = replies

    def generate_until(self, requests, disable_tqdm=False):
        return [self.replies[(r.task_name, r.doc["id"])] for r in requests]

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError


def evaluate(tmp_path, tasks, include_path):
    """lm-eval's results for tasks {name: (documents with "reply", file key)}: each file
    written as JSON lines (the reply left out), named to lm-eval with --metadata."""
    metadata, replies = {}, {}
    for task, (documents, key) in tasks.items():
        path = tmp_path / f"{key}.jsonl"
        path.write_text("\n".join(json.dumps({k: v for k, v in d.items() if k != "reply"}, ensure_ascii=False) for d in documents), encoding="utf-8")
        metadata[key] = str(path)
        replies.update({(task, d["id"]): d["reply"] for d in documents})
    manager = TaskManager(include_path=str(include_path), include_defaults=False, metadata=metadata)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = simple_evaluate(model=Replies(replies), tasks=list(tasks), task_manager=manager, log_samples=False, bootstrap_iters=0)
    return out["results"]


def numbered(documents):
    return [{"id": i, **d} for i, d in enumerate(documents)]


def ready_made(rng):
    """{task: (documents, file key, compute() of its replies)}, each file in the layout its
    YAML documents."""
    out = {}
    sources, replies, targets = test_state.csc_replies(3, N)
    csc = numbered({"source": s, "target": t, "reply": r} for s, r, t in zip(sources, replies, targets))
    same = {"parse": "csc_reply", "length_mismatch": "align", "sources": sources, **BOOT}
    for year, version in (("13", {"version": "2013", "subtask": 2}), ("14", {"version": "2014"}), ("15", {"version": "2015"})):
        out[f"paperscore_sighan{year}"] = (csc, f"sighan{year}", csc_sighan.compute(replies, targets, **version, **same))
        out[f"paperscore_sighan{year}_realise"] = (csc, f"sighan{year}", csc_common.compute(replies, targets, variant="realise", **same))
    gold = test_rewards.gold_texts(rng, N)
    texts = [test_rewards.corrupt(rng, g, gold) for g in gold]
    quads = numbered({"text": f"sentence {i}", "target": g, "reply": t} for i, (g, t) in enumerate(zip(gold, texts)))
    for name in ("asqp_rest15", "asqp_rest16"):
        out[f"paperscore_{name}"] = (quads, name, quad.compute(texts, gold, parse="asqp_paraphrase", duplicates="list", **BOOT))
    for name in ("acos_laptop", "acos_restaurant"):
        out[f"paperscore_{name}"] = (quads, name, quad.compute(texts, gold, parse="asqp_paraphrase", duplicates="list", implicit_split=True, **BOOT))
    for language in ("en", "zh"):
        dialogues = diaasq.released(language)[:N]
        texts = [diaasq_reply(rng, d["triplets"]) for d in dialogues]
        documents = numbered({**d, "reply": t} for d, t in zip(dialogues, texts))
        gold = [json.dumps({"triplets": d["triplets"]}) for d in dialogues]  # the target the YAML renders
        out[f"paperscore_diaasq_{language}"] = (documents, f"diaasq_{language}", quad.compute(texts, gold, parse="diaasq_json", duplicates="set", **BOOT))
    types = ["None", "Attack", "Die", "Meet", "Motion_directional"]
    labels = [rng.choice(types) for _ in range(N)]
    texts = [rng.choice([label, f" {label}.", f"{label}\nBecause ...", rng.choice(types), "", "I think Die"]) for label in labels]
    read = [(re.findall(r"[A-Za-z][A-Za-z_-]*", t) or ["[invalid]"])[0] for t in texts]  # the YAML's rule: the reply's first word
    documents = numbered({"sentence": f"sentence {i}", "trigger": "word", "label": label, "reply": t} for i, (label, t) in enumerate(zip(labels, texts)))
    out["paperscore_maven"] = (documents, "maven", micro_macro.compute(read, labels, convention="maven", **BOOT))
    documents = []
    for _ in range(N):
        tokens = [rng.choice(test_coref_parse.WORDS) for _ in range(rng.randint(1, 25))]
        key = test_coref_parse.random_clusters(rng, test_coref_parse.random_mentions(rng, len(tokens)))
        documents.append({"tokens": tokens, "clusters": key, "reply": test_coref_parse.random_system(rng, tokens, key)})
    expected = coref.compute([d["reply"] for d in documents], [d["clusters"] for d in documents], tokens=[d["tokens"] for d in documents], parse="coref_markdown", **BOOT)
    out["paperscore_litbank"] = (numbered(documents), "litbank", expected)
    examples = [test_rewards.rationale_example(rng) for _ in range(N)]
    documents = numbered({"text": " ".join(tokens), "question": "Is it good?", "rationale": quotes, "reply": test_rewards.rationale_completion(rng, tokens, quotes)} for tokens, quotes in examples)
    expected = rationale.compute([d["reply"] for d in documents], [d["rationale"] for d in documents], sources=[d["text"] for d in documents], parse="quotes_normalized", **BOOT)
    out["paperscore_rationale"] = (documents, "rationale", expected)
    return out


def diaasq_reply(rng, triplets):
    """A chat model's JSON reply for a dialogue: some gold triplets (an opinion changed now
    and then), fenced or not, or no JSON at all."""
    kept = [t[:9] + [t[9] if rng.random() < 0.8 else "so-so"] for t in triplets if rng.random() < 0.7]
    text = json.dumps(kept, ensure_ascii=False)
    return rng.choice([text, f"```json\n{text}\n```", "Here are the quads.", "[]"])


def yaml_figures(task):
    """The figures a ready-made task's YAML reports."""
    text = (harness_lm_eval.TASKS / f"{task}.yaml").read_text(encoding="utf-8")
    return [name.strip() for name in re.search(r"figures: \[(.*)\]", text)[1].split(",")]


def test_every_ready_made_task_reports_compute_on_its_replies(tmp_path):
    cases = ready_made(random.Random(5))
    assert sorted(cases) == sorted(p.stem for p in harness_lm_eval.TASKS.glob("paperscore_*.yaml"))  # every YAML is run
    results = evaluate(tmp_path, {task: case[:2] for task, case in cases.items()}, harness_lm_eval.TASKS)
    for task, (documents, _, expected) in cases.items():
        got = results[task]
        assert got["sample_len"] == N
        for figure in yaml_figures(task):
            names = [figure] + ([f"{figure}_low", f"{figure}_high"] if f"{figure}_low" in expected else [])
            for name in names:
                assert got[f"{name},paperscore"] == pytest.approx(expected[name], rel=1e-12, abs=1e-15), (task, name)
            assert got[f"{figure}_stderr,paperscore"] == "N/A"  # lm-eval's own bootstrap does not run on a registered aggregation


TRAP = """task: {task}
custom_dataset: !function paperscore.harness_lm_eval.local_file
dataset_kwargs:
  file: {task}
test_split: test
output_type: generate_until
doc_to_text: "{{{{id}}}}"
doc_to_target: reference
generation_kwargs:
  until: ["\\n"]
"""
SPACE_ROUTE = """metric_list:
  - metric: {space}
    hf_evaluate: true
    aggregation: mean
    higher_is_better: true
{options}"""
CORPUS_ROUTE = """filter_list:
  - name: paperscore
    filter:
      - function: take_first
      - function: paperscore
metric_list:
  - metric: paperscore
    family: {family}
    confidence_level: null
{options}"""
MICRO_MACRO = {"labels": ["None", "Attack", "Die", "Meet"], "negative_labels": ["None"]}


def trap_corpora():
    """100 documents per Space, with known replies: event types (NA "None" left out of the
    averages) and quad strings in the card's own format."""
    rng = random.Random(2026)
    types = MICRO_MACRO["labels"]
    gold = [rng.choice(types) if rng.random() < 0.5 else "None" for _ in range(100)]
    labels = numbered({"reference": g, "reply": g if rng.random() < 0.75 else rng.choice(types)} for g in gold)
    references, replies, _, _ = test_state.compare_inputs("quad_match", np.random.default_rng(7), 100)
    quads = numbered({"reference": r, "reply": p} for r, p in zip(references, replies))
    return {"micro_macro": labels, "quad_match": quads}


def per_document_mean(family, documents, name, options):
    """What lm-eval does with a Space as an hf_evaluate metric: compute() on each document
    alone, the mean of its values."""
    module = {"micro_macro": micro_macro, "quad_match": quad}[family]
    return sum(module.compute([d["reply"]], [d["reference"]], **options)[name] for d in documents) / len(documents)


def test_the_per_document_route_is_not_the_corpus_figure(tmp_path):
    """The Spaces used as lm-eval metrics (`hf_evaluate: true`, as a user tries first)
    average per-document figures: lm-eval reports exactly that mean, and the paperscore
    metric, on the same replies in the same run, the corpus figure; README and cards quote
    these numbers."""
    corpora = trap_corpora()
    tasks = {}
    for family, documents in corpora.items():
        options = MICRO_MACRO if family == "micro_macro" else {}
        lines = "".join(f"    {k}: {json.dumps(v)}\n" for k, v in options.items())
        space = TRAP.format(task=f"space_{family}") + SPACE_ROUTE.format(space=ROOT / "spaces" / family, options=lines)
        ours = TRAP.format(task=f"corpus_{family}") + CORPUS_ROUTE.format(family=family, options=lines)
        (tmp_path / f"space_{family}.yaml").write_text(space, encoding="utf-8")
        (tmp_path / f"corpus_{family}.yaml").write_text(ours, encoding="utf-8")
        tasks[f"space_{family}"] = (documents, f"space_{family}")
        tasks[f"corpus_{family}"] = (documents, f"corpus_{family}")
    results = evaluate(tmp_path, tasks, tmp_path)
    quoted = {}
    for family, names in (("micro_macro", ("micro_f1", "macro_f1")), ("quad_match", ("exact_f1",))):
        options = MICRO_MACRO if family == "micro_macro" else {}
        documents = corpora[family]
        corpus = (micro_macro if family == "micro_macro" else quad).compute([d["reply"] for d in documents], [d["reference"] for d in documents], **options)
        for name in names:
            mean = per_document_mean(family, documents, name, options)
            assert results[f"space_{family}"][f"{name},none"] == pytest.approx(mean, rel=1e-12)
            assert results[f"corpus_{family}"][f"{name},paperscore"] == pytest.approx(corpus[name], rel=1e-12)
            assert abs(mean - corpus[name]) > 0.05, (family, name)
            quoted[f"{family} {name}"] = (f"{mean:.3f}", f"{corpus[name]:.3f}")
    documents = [ROOT / "README.md", *(ROOT / "spaces" / family / "README.md" for family in harness_corpora.MODULES)]
    for path in documents:
        text = path.read_text(encoding="utf-8")
        for key, (mean, figure) in quoted.items():
            assert mean in text and figure in text, f"{path.relative_to(ROOT)}: quote {key}: {mean} (per-document mean) against {figure} (corpus)"


def test_a_missing_file_or_filter_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"--metadata: name this task's local JSON-lines file, e.g. --metadata '\{\"sighan15\": "):
        harness_lm_eval.local_file(file="sighan15", version=1.0)
    (tmp_path / "lines.jsonl").write_text('{"a": 1}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"item 1 is a list, not a JSON object"):
        harness_lm_eval.local_file(file="f", f=str(tmp_path / "lines.jsonl"))
    with pytest.raises(ValueError, match=r"reads each document through the filter `paperscore`"):
        harness_lm_eval.paperscore(["a"], ["a"], family="micro_macro")
    with pytest.raises(ValueError, match=r"family: the paperscore metric needs `family:`"):
        harness_lm_eval.paperscore(["a"], [["a", {}]])


def test_the_module_prints_the_tasks_folder():
    """lm_eval --include_path "$(python -m paperscore.harness_lm_eval)", as the docs say."""
    done = subprocess.run([sys.executable, "-m", "paperscore.harness_lm_eval"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(harness_lm_eval.TASKS) and harness_lm_eval.TASKS.is_dir()
