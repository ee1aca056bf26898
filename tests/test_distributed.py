"""Scoring across processes with the README's recipes, run as written: the states that
Ray Data's `map_batches` returns, merged on the driver, and the states that accelerate's
processes all-reduce, give exactly what one compute() over every example gives.

One local cluster of two CPUs (two worker processes) runs in one fresh interpreter for the
whole file: the README's recipe block as written (micro_macro, 12,000 str labels of 300
classes in four JSON-lines files), then the same pipeline for csc_sighan with
keep_rows=True (10,000 sentences in four files: its figures and bootstrap intervals). The
oracle is each family's compute() on the whole corpus, run here (each is tested against
sklearn or the SIGHAN tool elsewhere). Ray is a test requirement (the `ray` extra): a
missing one fails here, as everywhere.

The accelerate recipe runs under torchrun, two CPU processes (gloo), on 101 examples whose
logits are given, so the predictions are known here; each rank writes its result to its own
file (the ranks' lines on torchrun's shared stdout can interleave).
"""

import json
import os
import re
import subprocess
import sys

import numpy as np
from conftest import ROOT, free_port, run_python
from test_state import assert_same, csc_corpus

from paperscore import csc_sighan, micro_macro

README = (ROOT / "README.md").read_text(encoding="utf-8")


def recipe(name):
    return re.search(rf"<!-- {name} recipe[^\n]*\n```python\n(.*?)```", README, re.S).group(1)


RECIPE = recipe("ray")
# Ray binds to loopback only (as on a laptop) and sends no usage statistics.
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}

SCRIPT = """
import json, os, time
import ray
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
{recipe}
micro_macro_scores = scores

meet = os.path.abspath("workers")  # each task waits here until two workers have come

def score_sentences(batch):
    open(os.path.join(meet, str(os.getpid())), "w").close()
    deadline = time.monotonic() + 120
    while len(os.listdir(meet)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    s = state.new("csc_sighan", keep_rows=True)
    s.update(batch["prediction"].tolist(), batch["reference"].tolist(), sources=batch["source"].tolist())
    return {{"state": [json.dumps(s.to_dict())], "pid": [os.getpid()]}}

parts = ray.data.read_json("sentences/").map_batches(score_sentences, batch_size=None, batch_format="numpy").to_pandas()
total = state.merge(*(state.from_dict(json.loads(s)) for s in parts["state"]))
csc = total.compute(confidence_level=0.9, n_resamples=200, seed=3)
print(json.dumps({{"micro_macro": micro_macro_scores, "csc_sighan": csc, "states": len(parts), "pids": len(set(parts["pid"].tolist()))}}))
"""


def write_parts(folder, rows, parts=4):
    folder.mkdir()
    for i, chunk in enumerate(np.array_split(np.arange(len(rows)), parts)):
        lines = (json.dumps(rows[j], ensure_ascii=False) for j in chunk)
        (folder / f"part-{i}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_ray_data_states_merge_to_one_compute(tmp_path):
    rng = np.random.default_rng(11)
    names = [f"class-{i}" for i in range(299)] + ["None"]  # MAVEN's NA is "None"
    references = [names[i] for i in rng.zipf(1.3, 12_000) % 300]
    predictions = [r if rng.random() < 0.6 else names[rng.integers(300)] for r in references]
    write_parts(tmp_path / "outputs", [{"prediction": p, "reference": r} for p, r in zip(predictions, references)])
    sources, sentences, corrections = csc_corpus(12)
    write_parts(tmp_path / "sentences", [{"source": s, "prediction": p, "reference": r} for s, p, r in zip(sources, sentences, corrections)])

    (tmp_path / "workers").mkdir()
    got = run_python(SCRIPT.format(recipe=RECIPE), cwd=tmp_path, env=RAY_ENV, timeout=300)

    assert got["states"] == 4 and got["pids"] == 2  # one state per file; the first task waited for a second worker
    assert_same(got["micro_macro"], micro_macro.compute(predictions, references, convention="maven"), "micro_macro")
    expected = csc_sighan.compute(sentences, corrections, sources=sources, confidence_level=0.9, n_resamples=200, seed=3)
    assert_same(got["csc_sighan"], expected, "csc_sighan")


ACCELERATE = """
import json, sys
from types import SimpleNamespace
import torch
from torch.utils.data import DataLoader


class Echo(torch.nn.Module):  # a model whose logits are the batch's own
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(1))

    def forward(self, logits, labels):
        return SimpleNamespace(logits=logits * self.scale)


rows = [{{"logits": torch.tensor(r["logits"]), "labels": torch.tensor(r["labels"])}} for r in json.load(open(sys.argv[1]))]
model, dev_loader = Echo(), DataLoader(rows, batch_size=8)
{recipe}
counted = int(state.all_reduce(s).count.sum())  # labels counted: the confusion cells summed
# each rank writes its own file: the ranks' lines on torchrun's shared stdout can interleave
with open(f"rank-{{accelerator.process_index}}.json", "w") as out:
    json.dump({{"rank": accelerator.process_index, "processes": accelerator.num_processes, "counted": counted, "scores": scores}}, out)
"""


def test_accelerate_recipe_two_processes(tmp_path):
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(101, 5))  # 13 batches of 8: 7 on one process, 6 (the last of 5) on the other
    references = np.where(rng.random(101) < 0.5, logits.argmax(1), rng.integers(0, 5, 101))
    (tmp_path / "data.json").write_text(json.dumps([{"logits": row.tolist(), "labels": int(r)} for row, r in zip(logits, references)]))
    (tmp_path / "recipe.py").write_text(ACCELERATE.format(recipe=recipe("accelerate")))
    argv = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", "--master-addr", "127.0.0.1", "--master-port", str(free_port()), "recipe.py", "data.json"]
    done = subprocess.run(argv, cwd=tmp_path, env={**os.environ, "GLOO_SOCKET_IFNAME": "lo", "ACCELERATE_USE_CPU": "1"}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    ranks = [json.loads(path.read_text()) for path in sorted(tmp_path.glob("rank-*.json"))]
    assert [(r["rank"], r["processes"], r["counted"]) for r in ranks] == [(0, 2, 101), (1, 2, 101)]  # each example once
    expected = micro_macro.compute(logits.argmax(1).tolist(), references.tolist(), negative_labels=[0])
    for rank in ranks:
        assert_same(rank["scores"], expected, "micro_macro")
