"""evaluate's `evaluator`: it passes no compute arguments, so a configuration name is how
its users reach a convention. evaluate 0.4.6's evaluator cannot run under transformers 5
(it checks `transformers.TFPreTrainedModel`, which transformers 5 removed); the cards say
so, the first test keeps them honest, and the second shows the configuration reaching
through once that check is answered."""

import pytest
from conftest import SPACES_DIR

MAPPING = {"LABEL_0": 0, "LABEL_1": 1, "LABEL_2": 2}
TEXTS = ["a b", "c a", "b", "a a c", "c", "b c", "a", "c c b"]
LABELS = [0, 1, 1, 2, 0, 2, 1, 0]


@pytest.fixture(scope="module")
def pipe(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast, pipeline

    vocab = tmp_path_factory.mktemp("vocab") / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c"]))
    torch.manual_seed(0)
    config = BertConfig(vocab_size=8, hidden_size=8, num_hidden_layers=1, num_attention_heads=1, intermediate_size=8, num_labels=3)
    model = BertForSequenceClassification(config).eval()
    return pipeline("text-classification", model=model, tokenizer=BertTokenizerFast(str(vocab)), device="cpu")


def _data():
    import datasets

    return datasets.Dataset.from_dict({"text": TEXTS, "label": LABELS})


def test_the_evaluator_fails_under_transformers_5_as_the_cards_say(pipe):
    import evaluate
    import transformers

    if int(transformers.__version__.split(".")[0]) < 5:
        pytest.fail("transformers < 5: the evaluator works; update the cards' note")
    metric = evaluate.load(str(SPACES_DIR / "micro_macro"), config_name="maven")
    with pytest.raises(AttributeError, match="TFPreTrainedModel"):
        evaluate.evaluator("text-classification").compute(model_or_pipeline=pipe, data=_data(), metric=metric, label_mapping=MAPPING)
    for space in sorted(p.name for p in SPACES_DIR.iterdir() if (p / "README.md").is_file()):
        card = (SPACES_DIR / space / "README.md").read_text(encoding="utf-8")
        assert "transformers 5" in card, f"{space}'s card does not say the evaluator fails under transformers 5"


def test_a_configuration_reaches_through_the_evaluator(pipe, monkeypatch):
    import evaluate
    import transformers

    # The one check evaluate 0.4.6 makes that transformers 5 cannot answer.
    monkeypatch.setattr(transformers, "TFPreTrainedModel", type("NoTensorFlow", (), {}), raising=False)
    predicted = [MAPPING[row["label"]] for row in pipe(TEXTS)]
    plain = evaluate.load(str(SPACES_DIR / "micro_macro"), keep_in_memory=True)
    assert plain.configs
    for name, preset in plain.configs.items():
        if "spans" in preset:  # span records, not a classifier's labels: tests/test_event_spans.py
            continue
        metric = evaluate.load(str(SPACES_DIR / "micro_macro"), config_name=name)
        result = evaluate.evaluator("text-classification").compute(model_or_pipeline=pipe, data=_data(), metric=metric, label_mapping=MAPPING)
        expected = plain.compute(predictions=predicted, references=LABELS, **preset)
        for key, value in expected.items():
            if isinstance(value, float):
                assert result[key] == pytest.approx(value, abs=1e-12), (name, key)
