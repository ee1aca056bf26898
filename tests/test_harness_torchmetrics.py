"""torchmetrics 1.9 / Lightning 2.6: PaperscoreMetric over batches gives, for every family,
the figures and intervals of compute() over every example (1e-12), through update(),
forward() and a MetricCollection; under DDP (two CPU processes, gloo) every rank gets the
figures of one compute() over both ranks' examples, with torch.distributed alone and with
Lightning's self.log / self.log_dict."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import harness_corpora
from conftest import ROOT, free_port
from torchmetrics import MetricCollection

from paperscore import micro_macro
from paperscore.harness_torchmetrics import PaperscoreMetric

CORPORA = harness_corpora.corpora()
BOOT = {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0}


def batches(documents, size=7):
    """(predictions, references, inputs) of each batch of `size` documents."""
    for start in range(0, len(documents), size):
        part = documents[start : start + size]
        yield [d["text"] for d in part], [d["reference"] for d in part], harness_corpora.inputs_of(part)


def numbers(result):
    return {name: value for name, value in result.items() if not isinstance(value, list)}


@pytest.mark.parametrize("family", list(CORPORA))
def test_update_over_batches_equals_compute(family):
    options, documents = CORPORA[family]
    metric = PaperscoreMetric(family, **options)
    for predictions, references, inputs in batches(documents):
        metric.update(predictions, references, **inputs)
    got = {name: float(value) for name, value in metric.compute().items()}
    assert got == pytest.approx(numbers(harness_corpora.expected(family, options, documents, **BOOT)), rel=1e-12, abs=1e-15)


def test_forward_collection_and_reset():
    options, documents = CORPORA["quad_match"]
    figures = {"exact_f1": PaperscoreMetric("quad_match", figure="exact_f1", **options), "exact_f1_low": PaperscoreMetric("quad_match", figure="exact_f1_low", **options)}
    collection = MetricCollection(figures)
    alone = PaperscoreMetric("quad_match", figure="optimal_f1", **options)
    for predictions, references, inputs in batches(documents):
        collection.update(predictions, references)
        batch_value = alone(predictions, references)  # forward(): this batch's figure, and the batch added
        assert float(batch_value) == pytest.approx(harness_corpora.expected("quad_match", options, [{"text": p, "reference": r} for p, r in zip(predictions, references)])["optimal_f1"], rel=1e-12)
    expected = harness_corpora.expected("quad_match", options, documents, **BOOT)
    assert {name: float(value) for name, value in collection.compute().items()} == pytest.approx({name: expected[name] for name in figures}, rel=1e-12)
    assert float(alone.compute()) == pytest.approx(expected["optimal_f1"], rel=1e-12)
    alone.reset()
    predictions, references, _ = next(batches(documents))
    alone.update(predictions, references)
    assert float(alone.compute()) == pytest.approx(harness_corpora.expected("quad_match", options, documents[:7])["optimal_f1"], rel=1e-12)
    with pytest.raises(ValueError, match=r"figure: 'f1' is not a figure of quad_match"):
        PaperscoreMetric("quad_match", figure="f1")


def test_many_updates_of_sequences():
    """One kept state per update, merged in update order at compute(): sequences of labels
    (whose bootstrap resamples them in corpus order) give compute()'s figures and intervals."""
    rng = np.random.default_rng(9)
    references = [rng.integers(0, 4, rng.integers(1, 6)).tolist() for _ in range(150)]
    predictions = [[x if rng.random() < 0.7 else int(rng.integers(0, 4)) for x in r] for r in references]
    metric = PaperscoreMetric("micro_macro", convention="maven")
    for p, r in zip(predictions, references):
        metric.update([p], [r])
    assert len(metric.statistics) == 150
    got = {name: float(value) for name, value in metric.compute().items()}
    assert got == pytest.approx(numbers(micro_macro.compute(predictions, references, convention="maven", **BOOT)), rel=1e-12, abs=1e-15)


RANKS = """
import json, sys
import torch.distributed as dist
from paperscore.harness_torchmetrics import PaperscoreMetric
rank = int(sys.argv[1])
dist.init_process_group("gloo", init_method="file://{rendezvous}", rank=rank, world_size=2)
corpora = json.load(open({data!r}))
out = {{}}
for family, (options, documents) in corpora.items():
    cut = len(documents) * 2 // 3  # rank 0 two thirds of the documents, in batches of 5; rank 1 the rest
    mine = documents[:cut] if rank == 0 else documents[cut:]
    metric = PaperscoreMetric(family, **options)
    for start in range(0, len(mine), 5):
        part = mine[start : start + 5]
        inputs = {{k: [d[k] for d in part] for k in part[0] if k not in ("text", "reference")}}
        metric.update([d["text"] for d in part], [d["reference"] for d in part], **inputs)
    out[family] = {{name: float(value) for name, value in metric.compute().items()}}
    out[family]["local_updates"] = len(metric.statistics)  # compute() left this rank's own list
json.dump(out, open(f"rank-{{rank}}.json", "w"))
dist.destroy_process_group()
"""


def test_two_gloo_ranks_every_family(tmp_path):
    (tmp_path / "data.json").write_text(json.dumps(CORPORA))
    (tmp_path / "ranks.py").write_text(RANKS.format(rendezvous=tmp_path / "rendezvous", data=str(tmp_path / "data.json")))
    env = {**os.environ, "GLOO_SOCKET_IFNAME": "lo"}
    ranks = [subprocess.Popen([sys.executable, "ranks.py", str(r)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for r in range(2)]
    for rank in ranks:
        _, err = rank.communicate(timeout=300)
        assert rank.returncode == 0, err[-4000:]
    results = [json.loads((tmp_path / f"rank-{r}.json").read_text()) for r in range(2)]
    for family, (options, documents) in CORPORA.items():
        expected = numbers(harness_corpora.expected(family, options, documents, **BOOT))
        for rank, result in enumerate(results):
            updates = result[family].pop("local_updates")
            assert updates == (6 if rank == 0 else 3)  # ceil(26 / 5) and ceil(14 / 5): not the gathered list
            assert result[family] == pytest.approx(expected, rel=1e-12, abs=1e-15), (family, rank)


LIGHTNING = """
import json
import torch
import lightning as L
from torch.utils.data import DataLoader
from torchmetrics import MetricCollection
from paperscore.harness_torchmetrics import PaperscoreMetric

documents = json.load(open({data!r}))


class Known(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.zeros(1))
        self.micro_f1 = PaperscoreMetric("micro_macro", figure="micro_f1", convention="maven")
        self.figures = MetricCollection({{name: PaperscoreMetric("micro_macro", figure=name, convention="maven") for name in ("macro_f1", "macro_f1_low", "macro_f1_high")}})

    def validation_step(self, batch, index):
        predictions = [documents[i]["text"] for i in batch.tolist()]
        references = [documents[i]["reference"] for i in batch.tolist()]
        self.micro_f1.update(predictions, references)
        self.figures.update(predictions, references)
        self.log("micro_f1", self.micro_f1, on_epoch=True)
        self.log_dict(self.figures, on_epoch=True)


trainer = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", logger=False, enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
trainer.validate(Known(), dataloaders=DataLoader(torch.arange(len(documents)), batch_size=4))
with open(f"lightning-{{trainer.global_rank}}.json", "w") as out:
    json.dump({{name: float(value) for name, value in trainer.callback_metrics.items()}}, out)
"""


def test_lightning_ddp_self_log_and_log_dict(tmp_path):
    """Lightning's DistributedSampler gives each rank every other example (40 documents:
    no example repeated to even the ranks); self.log and self.log_dict of the collection
    compute the metrics at the epoch's end, synced."""
    options, documents = CORPORA["micro_macro"]
    assert len(documents) % 8 == 0 and options == {"convention": "maven"}
    (tmp_path / "data.json").write_text(json.dumps(documents))
    (tmp_path / "validate.py").write_text(LIGHTNING.format(data=str(tmp_path / "data.json")))
    env = {**os.environ, "GLOO_SOCKET_IFNAME": "lo", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(free_port()), "PL_DISABLE_FORK": "1", "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "validate.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    expected = harness_corpora.expected("micro_macro", options, documents, **BOOT)
    for rank in range(2):
        logged = json.loads((tmp_path / f"lightning-{rank}.json").read_text())
        assert logged == pytest.approx({name: expected[name] for name in ("micro_f1", "macro_f1", "macro_f1_low", "macro_f1_high")}, rel=1e-12), rank
