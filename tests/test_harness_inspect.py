"""Inspect (inspect-ai 0.3.145) end to end: eval() of a Task scored by paperscore's scorer,
on Inspect's mockllm model serving known completions, reports for every family the figures
and intervals of compute() on those completions (1e-12); each Score carries its sample's
statistics."""

import pytest

import harness_corpora
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.solver import generate

from paperscore import harness
from paperscore.harness_inspect import paperscore

# Small: Inspect 0.3.145 re-reads every installed distribution's entry points three times a
# sample (when no Inspect extension is installed), some 0.1 s a sample on a loaded machine.
CORPORA = harness_corpora.corpora(n=15)
TEXT_REFERENCES = ("micro_macro", "csc_sighan", "csc_common", "quad_match")  # the target is the reference; the others' come in metadata


def task(family, options, documents, **scoring):
    """A Task over the documents: each sample's input names it, mockllm replies its text."""
    samples = []
    for i, d in enumerate(documents):
        inputs = {k: v for k, v in d.items() if k not in ("text", "reference")}
        if family in TEXT_REFERENCES:
            samples.append(Sample(id=i, input=f"{family} {i}", target=d["reference"], metadata=inputs))
        else:
            samples.append(Sample(id=i, input=f"{family} {i}", target="", metadata={**inputs, "reference": d["reference"]}))
    return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=paperscore(family, **options, **scoring), name=family)


def run(tasks, replies, log_dir):
    def reply(messages, tools, tool_choice, config):  # mockllm: the known completion of this sample
        return ModelOutput.from_content(model="mockllm/model", content=replies[messages[-1].text])

    model = get_model("mockllm/model", custom_outputs=reply)
    # score_display=False: Inspect's live display would score the samples done so far
    logs = eval(tasks, model=model, display="none", log_dir=str(log_dir), score_display=False)
    for log in logs:
        assert log.status == "success", log.error
    return {log.eval.task: log for log in logs}


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """One eval() of every family's task."""
    replies = {f"{family} {i}": d["text"] for family, (_, documents) in CORPORA.items() for i, d in enumerate(documents)}
    return run([task(family, *CORPORA[family]) for family in CORPORA], replies, tmp_path_factory.mktemp("inspect"))


@pytest.mark.parametrize("family", list(CORPORA))
def test_scorer_and_metric_equal_compute(family, logs):
    options, documents = CORPORA[family]
    log = logs[family]
    (score,) = log.results.scores
    got = {name: metric.value for name, metric in score.metrics.items()}
    expected = harness_corpora.expected(family, options, documents, confidence_level=0.95, n_resamples=1000, seed=0)
    assert got == pytest.approx({name: value for name, value in expected.items() if not isinstance(value, list)}, rel=1e-12, abs=1e-15)
    first = log.samples[0]
    assert first.scores["paperscore"].metadata["statistics"] == harness.document(family, documents[first.id]["text"], documents[first.id]["reference"], options, **{k: v for k, v in documents[first.id].items() if k not in ("text", "reference")})


def test_figures_and_no_interval(tmp_path):
    options, documents = CORPORA["micro_macro"]
    replies = {f"micro_macro {i}": d["text"] for i, d in enumerate(documents)}
    log = run([task("micro_macro", options, documents, figures=["micro_f1"], confidence_level=None)], replies, tmp_path)["micro_macro"]
    expected = harness_corpora.expected("micro_macro", options, documents)
    assert {name: m.value for name, m in log.results.scores[0].metrics.items()} == pytest.approx({"micro_f1": expected["micro_f1"]}, rel=1e-12)
