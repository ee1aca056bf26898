"""Each Space inside a real transformers Trainer: tiny models with random weights, built
from small configs, and tokenizers built in code from a vocabulary (nothing downloaded).
The metrics the Trainer reports must be what the package computes from the Trainer's own
predictions, as plain floats under eval_ keys, in each of the Trainer's evaluation modes,
with no warning from our code."""

import math
import warnings

import evaluate
import numpy as np
import pytest
import torch
from conftest import SPACES_DIR
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    BertForTokenClassification,
    DataCollatorForSeq2Seq,
    DataCollatorForTokenClassification,
    DataCollatorWithPadding,
    EvalPrediction,
    PreTrainedTokenizerFast,
    Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
    T5Config,
    T5ForConditionalGeneration,
    Trainer,
    TrainerCallback,
    TrainingArguments,
)

from paperscore import micro_macro, quad, rationale

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "</s>"]


def tokenizer_for(words):
    """A word-level tokenizer over `words` (text is split on white space)."""
    vocabulary = {w: i for i, w in enumerate(SPECIALS + sorted(set(words) - set(SPECIALS)))}
    model = Tokenizer(models.WordLevel(vocabulary, unk_token="[UNK]"))
    model.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=model, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", eos_token="</s>")


def load(space):
    return evaluate.load(str(SPACES_DIR / space), keep_in_memory=True)


# What the Trainer hands compute_metrics (transformers' Trainer.evaluation_loop): one
# EvalPrediction of arrays concatenated across batches (padded with -100); a list of
# per-batch arrays (eval_do_concat_batches=False); or one call per batch with torch tensors.
MODES = {
    "concat": {},
    "per_batch": dict(eval_do_concat_batches=False),
    "batch_eval": dict(batch_eval_metrics=True),
}


def run(trainer_class, args_class, tmp_path, model, data, collator, compute_metrics, mode, batch_size=8, preprocess=None, **extra):
    """Trainer.evaluate under a warnings recorder: (trainer, metrics, warnings raised by our code)."""
    args = args_class(
        output_dir=str(tmp_path / "out"), per_device_eval_batch_size=batch_size, report_to=[], use_cpu=True,
        disable_tqdm=True, **MODES[mode], **extra,
    )  # fmt: skip
    trainer = trainer_class(model=model, args=args, eval_dataset=data, data_collator=collator, compute_metrics=compute_metrics, preprocess_logits_for_metrics=preprocess)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        metrics = trainer.evaluate()
    ours = [w for w in caught if "paperscore" in w.filename or "evaluate_modules" in w.filename]
    return trainer, metrics, ours


def predict(trainer, data):
    """The trainer's predictions over `data` as single arrays, whatever its mode."""
    trainer.args.eval_do_concat_batches = True
    return trainer.predict(data)


def assert_plain_floats(metrics, keys):
    for key in keys:
        value = metrics[f"eval_{key}"]
        assert type(value) is float and math.isfinite(value) and 0 <= value <= 1, (key, value)


# ---------------------------------------------------------------------------------------
# Token classification: micro_macro and rationale_f1 straight from logits and label_ids


def token_data(n_labels, seed=0):
    """40 sentences; the first token is [CLS], labelled -100 as run_ner labels special tokens."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(40)]
    tokenizer = tokenizer_for(words)
    data = []
    for _ in range(40):
        length = int(rng.integers(3, 12))
        ids = [tokenizer.cls_token_id] + tokenizer.convert_tokens_to_ids(list(rng.choice(words, length)))
        labels = [-100] + rng.integers(0, n_labels, length).tolist()
        data.append({"input_ids": ids, "attention_mask": [1] * len(ids), "labels": labels})
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, num_labels=n_labels)
    torch.manual_seed(seed)
    return tokenizer, BertForTokenClassification(config), data


@pytest.mark.parametrize("mode", MODES)
def test_micro_macro_from_logits_and_padded_label_ids(tmp_path, mode):
    tokenizer, model, data = token_data(4)
    collator = DataCollatorForTokenClassification(tokenizer)
    metric = load("micro_macro")
    trainer, metrics, ours = run(Trainer, TrainingArguments, tmp_path, model, data, collator, metric.trainer_metrics(negative_labels=[0]), mode)
    assert ours == []
    assert_plain_floats(metrics, micro_macro.KEYS)
    prediction = predict(trainer, data)
    expected = micro_macro.compute(prediction.predictions.argmax(-1), prediction.label_ids, negative_labels=[0])
    for key in micro_macro.KEYS:
        assert metrics[f"eval_{key}"] == pytest.approx(expected[key], abs=1e-12), key
    # the same with label names: -100 positions removed, ids mapped to names
    names = ["O", "PER", "LOC", "ORG"]
    _, named, ours = run(Trainer, TrainingArguments, tmp_path, model, data, collator, metric.trainer_metrics(label_names=names, negative_labels=["O"]), mode)
    assert ours == [] and all(named[f"eval_{key}"] == pytest.approx(metrics[f"eval_{key}"], abs=1e-12) for key in micro_macro.KEYS)


@pytest.mark.parametrize("mode", MODES)
def test_rationale_f1_from_class_probabilities(tmp_path, mode):
    tokenizer, model, data = token_data(2, seed=1)
    collator = DataCollatorForTokenClassification(tokenizer)
    metric = load("rationale_f1")
    trainer, metrics, ours = run(Trainer, TrainingArguments, tmp_path, model, data, collator, metric.trainer_metrics(logits="probability"), mode)
    assert ours == []
    prediction = predict(trainer, data)
    logits = prediction.predictions
    probability = np.exp(logits[..., 1]) / np.exp(logits).sum(-1)
    expected = rationale.compute(probability, prediction.label_ids)
    assert "auprc" in expected
    assert_plain_floats(metrics, expected)
    for key, value in expected.items():
        assert metrics[f"eval_{key}"] == pytest.approx(value, abs=1e-9), key


def sklearn_scores(predictions, references):
    """micro_macro's numbers as sklearn computes them over the scored (not -100) positions."""
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    keep = references != -100
    y_true, y_pred = references[keep], predictions[keep]
    scores = {"accuracy": accuracy_score(y_true, y_pred)}
    for average in ("micro", "macro", "weighted"):
        p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0)
        scores.update({f"{average}_precision": p, f"{average}_recall": r, f"{average}_f1": f})
    return scores


def direct_logits(model, data):
    """Each example through the model alone (no batching, no padding, no Trainer)."""
    model.eval()
    with torch.no_grad():
        return [model(input_ids=torch.tensor([example["input_ids"]])).logits[0].numpy() for example in data]


def padded(rows):
    """Rows of different lengths as one array, padded with -100."""
    out = np.full((len(rows), max(len(row) for row in rows)), -100)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def ragged_token_data(num_labels, seed=5):
    """10 sentences in batches of 4, 4 and 2 that the collator pads to different lengths;
    a model that returns its hidden states too (a tuple of outputs, logits first)."""
    tokenizer, model, data = token_data(num_labels, seed)
    data = data[:10]
    assert len({max(len(e["input_ids"]) for e in data[i : i + 4]) for i in (0, 4, 8)}) > 1
    model.config.output_hidden_states = True
    return tokenizer, model, data


@pytest.mark.parametrize("preprocess", [None, "argmax"])
@pytest.mark.parametrize("mode", MODES)
def test_micro_macro_over_every_batch_of_different_lengths(tmp_path, mode, preprocess):
    """Every batch is scored (not the first alone), each at its own padded length, from a
    tuple of outputs (logits, hidden states), with or without preprocess_logits_for_metrics."""
    tokenizer, model, data = ragged_token_data(4)
    expected = sklearn_scores(padded([logits.argmax(-1) for logits in direct_logits(model, data)]), padded([e["labels"] for e in data]))
    argmax = (lambda logits, labels: logits[0].argmax(-1)) if preprocess else None
    _, metrics, ours = run(
        Trainer, TrainingArguments, tmp_path, model, data, DataCollatorForTokenClassification(tokenizer),
        load("micro_macro").trainer_metrics(), mode, batch_size=4, preprocess=argmax, include_for_metrics=["inputs"],
    )  # fmt: skip
    assert ours == []
    for key, value in expected.items():
        assert metrics[f"eval_{key}"] == pytest.approx(value, abs=1e-6), key


@pytest.mark.parametrize("mode", MODES)
def test_sequence_classification_in_three_batches_with_and_without_names(tmp_path, mode):
    """One label per example: 10 examples in batches of 4, 4 and 2."""
    tokenizer, _, data = token_data(3, seed=6)
    data = [{**e, "labels": e["labels"][1] % 3} for e in data[:10]]
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, num_labels=3, output_hidden_states=True)
    torch.manual_seed(6)
    model = BertForSequenceClassification(config)
    predictions = np.array([logits.argmax(-1) for logits in direct_logits(model, data)])
    expected = sklearn_scores(predictions, np.array([e["labels"] for e in data]))
    collator = DataCollatorWithPadding(tokenizer)
    for label_names in (None, ["neg", "neu", "pos"]):
        _, metrics, _ = run(Trainer, TrainingArguments, tmp_path, model, data, collator, load("micro_macro").trainer_metrics(label_names=label_names), mode, batch_size=4)
        for key, value in expected.items():
            assert metrics[f"eval_{key}"] == pytest.approx(value, abs=1e-6), (label_names, key)


@pytest.mark.parametrize("mode", MODES)
def test_a_one_logit_head_is_an_error_and_a_threshold_scores_it(tmp_path, mode):
    """num_labels=1: argmax would call every token class 0. The documented way out:
    threshold the logit in preprocess_logits_for_metrics."""
    tokenizer, model, data = ragged_token_data(1)
    collator = DataCollatorForTokenClassification(tokenizer)
    metric = load("micro_macro")
    with pytest.raises(ValueError, match=r"one class, so their argmax is always 0 .*num_labels=2.*preprocess_logits_for_metrics"):
        run(Trainer, TrainingArguments, tmp_path, model, data, collator, metric.trainer_metrics(), mode, batch_size=4)
    threshold = lambda logits, labels: (logits[0][..., 0] > 0).long()  # noqa: E731 (as the message suggests)
    _, metrics, _ = run(Trainer, TrainingArguments, tmp_path, model, data, collator, metric.fresh().trainer_metrics(), mode, batch_size=4, preprocess=threshold)
    predicted = padded([(logits[:, 0] > 0).astype(int) for logits in direct_logits(model, data)])
    expected = sklearn_scores(predicted, padded([e["labels"] for e in data]))
    assert 0 < expected["accuracy"] < 1
    assert metrics["eval_accuracy"] == pytest.approx(expected["accuracy"], abs=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_a_label_id_outside_label_names_names_the_example(tmp_path, mode):
    """A model of 5 classes on data of 4, named by 4 names: the first example (counted over
    the whole evaluation set, whatever the batching) where class 4 is predicted is named."""
    tokenizer, _, data = token_data(4, seed=7)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, num_labels=5)
    torch.manual_seed(7)
    model = BertForTokenClassification(config)
    has_4 = [4 in logits.argmax(-1)[np.array(e["labels"]) != -100] for logits, e in zip(direct_logits(model, data), data)]
    # 6 examples without class 4, then 4 with it: the first one is in the second batch
    data = [e for e, bad in zip(data, has_4) if not bad][:6] + [e for e, bad in zip(data, has_4) if bad][:4]
    scored = [logits.argmax(-1)[np.array(e["labels"]) != -100] for logits, e in zip(direct_logits(model, data), data)]
    first = next(i for i, row in enumerate(scored) if 4 in row)
    assert first == 6  # its index counts the examples of the batch before it
    compute_metrics = load("micro_macro").trainer_metrics(label_names=["O", "PER", "LOC", "ORG"])
    with pytest.raises(ValueError, match=rf"^predictions\[{first}\]: label id 4 is not in label_names \(ids 0 to 3\)$"):
        run(Trainer, TrainingArguments, tmp_path, model, data, DataCollatorForTokenClassification(tokenizer), compute_metrics, mode, batch_size=4)


# ---------------------------------------------------------------------------------------
# Generation: quad_match on a seq2seq model's generated text


QUAD_WORDS = "food service staff price good bad slow cheap rude great | & food#quality service#general price#level pos neg neu".split()


def seq2seq_data(words, target, seed):
    """(tokenizer, an untrained tiny T5, 24 examples): random sources, targets written by
    target(rng)."""
    rng = np.random.default_rng(seed)
    tokenizer = tokenizer_for(words + ["review"] + [f"r{i}" for i in range(20)])
    data = []
    for _ in range(24):
        text = target(rng)
        source = " ".join(["review"] + list(rng.choice([f"r{i}" for i in range(20)], 6)))
        data.append({
            "input_ids": tokenizer(source)["input_ids"] + [tokenizer.eos_token_id],
            "labels": tokenizer(text)["input_ids"] + [tokenizer.eos_token_id],
        })  # fmt: skip
    config = T5Config(
        vocab_size=len(tokenizer), d_model=32, d_ff=64, d_kv=16, num_layers=1, num_decoder_layers=1, num_heads=2,
        pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id, decoder_start_token_id=tokenizer.pad_token_id,
    )  # fmt: skip
    torch.manual_seed(seed)
    return tokenizer, T5ForConditionalGeneration(config), data


def quad_data(seed=2):
    def target(rng):
        quads = []
        for _ in range(int(rng.integers(1, 3))):
            target, opinion = rng.choice(["food", "service", "staff", "price"]), rng.choice(["good", "bad", "slow", "cheap", "rude", "great"])
            quads.append(f"{target} | {opinion} | {rng.choice(['food#quality', 'service#general', 'price#level'])} | {rng.choice(['pos', 'neg', 'neu'])}")
        return " & ".join(quads)

    return seq2seq_data(QUAD_WORDS, target, seed)


def decoded(tokenizer, ids):
    """Generated or label ids as text, the Trainer's -100 padding first made pad."""
    ids = np.where(ids == -100, tokenizer.pad_token_id, ids)
    return tokenizer.batch_decode(ids.tolist(), skip_special_tokens=True)


@pytest.mark.parametrize("mode", MODES)
def test_quad_match_on_generated_text(tmp_path, mode):
    tokenizer, model, data = quad_data()
    collator = DataCollatorForSeq2Seq(tokenizer, model=model)
    metric = load("quad_match")
    generation = dict(predict_with_generate=True, generation_max_length=16)
    trainer, metrics, ours = run(Seq2SeqTrainer, Seq2SeqTrainingArguments, tmp_path, model, data, collator, metric.trainer_metrics(tokenizer=tokenizer), mode, **generation)
    assert ours == []
    assert_plain_floats(metrics, quad.KEYS)
    prediction = predict(trainer, data)

    references = decoded(tokenizer, prediction.label_ids)
    assert references[0] == tokenizer.decode(data[0]["labels"], skip_special_tokens=True) and " | " in references[0]
    expected = quad.compute(decoded(tokenizer, prediction.predictions), references)
    for key in quad.KEYS:
        assert metrics[f"eval_{key}"] == pytest.approx(expected[key], abs=1e-12), key
    # an untrained model writes no well-formed quad: the numbers are finite, and low
    assert metrics["eval_exact_f1"] < 0.5


PARAPHRASE_WORDS = "food quality service general price level is great bad ok because it pizza staff slow cheap rude good [SSEP]".split()


def paraphrase_data(seed=4):
    """Targets in ABSA-QUAD's ASQP paraphrase template, "{category} is {sentiment word}
    because {aspect} is {opinion}", pieces joined by " [SSEP] "."""

    def target(rng):
        pieces = [
            f"{rng.choice(['food quality', 'service general', 'price level'])} is {rng.choice(['great', 'bad', 'ok'])} because "
            f"{rng.choice(['pizza', 'staff', 'it'])} is {rng.choice(['good', 'slow', 'cheap', 'rude'])}"
            for _ in range(int(rng.integers(1, 3)))
        ]
        return " [SSEP] ".join(pieces)

    return seq2seq_data(PARAPHRASE_WORDS, target, seed)


@pytest.mark.parametrize("mode", MODES)
def test_quad_match_parses_generated_paraphrases(tmp_path, mode):
    """trainer_metrics(tokenizer=..., parse=...): the generated text and the decoded labels
    read by ABSA-QUAD's decoder; the parse report among the Trainer's numbers."""
    tokenizer, model, data = paraphrase_data()
    collator = DataCollatorForSeq2Seq(tokenizer, model=model)
    metric = load("quad_match")
    generation = dict(predict_with_generate=True, generation_max_length=24)
    compute_metrics = metric.trainer_metrics(tokenizer=tokenizer, parse="asqp_paraphrase")
    trainer, metrics, ours = run(Seq2SeqTrainer, Seq2SeqTrainingArguments, tmp_path, model, data, collator, compute_metrics, mode, **generation)
    assert ours == []
    assert_plain_floats(metrics, quad.KEYS)
    prediction = predict(trainer, data)

    predictions, references = decoded(tokenizer, prediction.predictions), decoded(tokenizer, prediction.label_ids)
    assert " because " in references[0] and len(data) == len(predictions)
    expected = quad.compute(predictions, references, parse="asqp_paraphrase")
    for key in (*quad.KEYS, "parse_failures"):
        assert metrics[f"eval_{key}"] == pytest.approx(expected[key], abs=1e-12), key
    # an untrained model writes word soup: most of it does not read as a paraphrase
    assert metrics["eval_parse_failures"] > len(data) / 2


def test_trainer_metrics_refuses_an_unknown_parser_at_once():
    with pytest.raises(ValueError, match="parse: unknown parser 'nope' for quad_match"):
        load("quad_match").trainer_metrics(parse="nope")


def test_trainer_metrics_takes_bfloat16_tensors():
    """batch_eval_metrics hands over the model's tensors as they are: bf16 under bf16
    mixed precision. Argmax of the logits: 0, 1, 2 against 0, 1, 1."""
    logits = torch.tensor([[[2.0, 0.1, 0.0], [0.3, 1.5, 0.2], [0.1, 0.2, 3.0]]], dtype=torch.bfloat16)
    scores = load("micro_macro").trainer_metrics()((logits, torch.tensor([[0, 1, 1]])))
    assert scores["accuracy"] == pytest.approx(2 / 3)


def test_trainer_metrics_rejects_an_unknown_logits_rule():
    with pytest.raises(ValueError, match="logits: 'softmax' is not one of"):
        load("micro_macro").trainer_metrics(logits="softmax")


# ---------------------------------------------------------------------------------------
# Generation: csc_common, the sources decoded from the Trainer's inputs

SENTENCES = ["他们很好", "今天很热", "我在学校", "这是我的书", "天气很冷", "她在家里", "我们做饭", "已经晚了"]
TYPOS = {"们": "门", "在": "再", "的": "地", "很": "恨", "做": "作", "已": "以"}


def spelling_data(seed=3, extra_words=()):
    """Sentences with one character replaced by a confusable one; a character-level
    tokenizer (text is fed as characters separated by spaces), knowing extra_words too."""
    rng = np.random.default_rng(seed)
    tokenizer = tokenizer_for([c for s in SENTENCES for c in s] + list(TYPOS.values()) + list(extra_words))
    data = []
    for _ in range(24):
        reference = str(rng.choice(SENTENCES))
        spots = [i for i, c in enumerate(reference) if c in TYPOS]
        i = int(rng.choice(spots))
        source = reference[:i] + TYPOS[reference[i]] + reference[i + 1 :]
        data.append({
            "input_ids": tokenizer(" ".join(source))["input_ids"] + [tokenizer.eos_token_id],
            "labels": tokenizer(" ".join(reference))["input_ids"] + [tokenizer.eos_token_id],
        })  # fmt: skip
    config = T5Config(
        vocab_size=len(tokenizer), d_model=32, d_ff=64, d_kv=16, num_layers=1, num_decoder_layers=1, num_heads=2,
        pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id, decoder_start_token_id=tokenizer.pad_token_id,
    )  # fmt: skip
    torch.manual_seed(seed)
    return tokenizer, T5ForConditionalGeneration(config), data


@pytest.mark.parametrize("mode", MODES)
def test_csc_common_on_generated_sentences_with_sources_from_the_inputs(tmp_path, mode):
    from paperscore import csc_common

    tokenizer, model, data = spelling_data()
    collator = DataCollatorForSeq2Seq(tokenizer, model=model)
    metric = load("csc_common")

    def no_spaces(text):
        return text.replace(" ", "")

    # An untrained model writes sentences of any length: compare those as whole strings.
    compute_metrics = metric.trainer_metrics(tokenizer=tokenizer, postprocess=no_spaces, variant="all", length_mismatch="whole")
    generation = dict(predict_with_generate=True, generation_max_length=8, include_for_metrics=["inputs"])
    trainer, metrics, ours = run(Seq2SeqTrainer, Seq2SeqTrainingArguments, tmp_path, model, data, collator, compute_metrics, mode, **generation)
    assert ours == []
    prediction = predict(trainer, data)

    def decode(ids):
        ids = np.where(ids == -100, tokenizer.pad_token_id, ids)
        return [no_spaces(text) for text in tokenizer.batch_decode(ids.tolist(), skip_special_tokens=True)]

    # the sources the metric must have seen: the evaluation inputs, in order, decoded
    sources = [no_spaces(tokenizer.decode(example["input_ids"], skip_special_tokens=True)) for example in data]
    assert all(len(source) >= 4 for source in sources)
    expected = csc_common.compute(decode(prediction.predictions), decode(prediction.label_ids), sources=sources, variant="all", length_mismatch="whole")
    numbers = {key: value for key, value in expected.items() if isinstance(value, float)}
    assert "realise/sentence_correction_f1" in numbers
    assert_plain_floats(metrics, numbers)
    for key, value in numbers.items():
        assert metrics[f"eval_{key}"] == pytest.approx(value, abs=1e-12), key


LABEL = "修改后："  # a chat model's leading label, one token here


def reply_data(seed=5):
    """spelling_data whose tokenizer also knows LABEL, and whose model is made to begin
    every reply with it (forced as the first generated token), as a chat model would."""
    tokenizer, model, data = spelling_data(seed, [LABEL])
    model.generation_config.forced_bos_token_id = tokenizer.convert_tokens_to_ids(LABEL)
    return tokenizer, model, data


@pytest.mark.parametrize(("mode", "space"), [("concat", "csc_common"), ("per_batch", "csc_sighan"), ("batch_eval", "csc_sighan")])
def test_csc_spaces_read_generated_replies(tmp_path, mode, space):
    """trainer_metrics(tokenizer=..., parse=...): each generated reply read by csc_label
    (the label removed) before scoring; the parse report among the Trainer's numbers."""
    import importlib

    package = importlib.import_module(f"paperscore.{space}")
    tokenizer, model, data = reply_data()
    collator = DataCollatorForSeq2Seq(tokenizer, model=model)

    def no_spaces(text):
        return text.replace(" ", "")

    options = dict(parse="csc_label", length_mismatch="align")
    compute_metrics = load(space).trainer_metrics(tokenizer=tokenizer, postprocess=no_spaces, **options)
    generation = dict(predict_with_generate=True, generation_max_length=8, include_for_metrics=["inputs"])
    trainer, metrics, ours = run(Seq2SeqTrainer, Seq2SeqTrainingArguments, tmp_path, model, data, collator, compute_metrics, mode, **generation)
    assert ours == []
    prediction = predict(trainer, data)

    replies, references = ([no_spaces(text) for text in decoded(tokenizer, ids)] for ids in (prediction.predictions, prediction.label_ids))
    assert all(reply.startswith(LABEL) for reply in replies) and not any(LABEL in reference for reference in references)
    sources = [no_spaces(tokenizer.decode(example["input_ids"], skip_special_tokens=True)) for example in data]
    expected = package.compute(replies, references, sources=sources, **options)
    numbers = {key: value for key, value in expected.items() if isinstance(value, (int, float))}
    assert "parse_failures" in numbers and len(numbers) > 5
    for key, value in numbers.items():
        assert metrics[f"eval_{key}"] == pytest.approx(value, abs=1e-12), key


@pytest.mark.parametrize("space", ["csc_common", "csc_sighan"])
def test_csc_trainer_metrics_read_a_reply_by_hand(space):
    """Generated ids of "修改后： 他 们 很 好" for the input "他 门 很 好" and the label
    "他 们 很 好": read by csc_label, the one correction is exact (P = R = F1 = 1, no
    failure); unread, the label's 4 inserted characters make it wrong (F1 0)."""
    tokenizer, _, _ = reply_data()

    def ids(text):
        return np.array([tokenizer(text)["input_ids"]])

    call = EvalPrediction(predictions=ids(f"{LABEL} 他 们 很 好"), label_ids=ids("他 们 很 好"), inputs=ids("他 门 很 好"))
    key = "sentence_correction_f1" if space == "csc_common" else "correction_f1"
    options = dict(tokenizer=tokenizer, postprocess=lambda text: text.replace(" ", ""), length_mismatch="align")
    read = load(space).trainer_metrics(parse="csc_label", **options)(call)
    assert read[key] == 1.0 and read["parse_failures"] == 0.0
    assert load(space).trainer_metrics(**options)(call)[key] == 0.0


def test_trainer_metrics_takes_plain_python_values():
    """Called by hand: a tuple of labels is labels (not outputs to take the first of), and
    a list of logit rows is one array. By hand: 1, 2, 3 against 1, 2, 2 is 2/3 right;
    the argmax of the rows is 1, 0 against 1, 1: 1/2."""
    assert load("micro_macro").trainer_metrics()(((1, 2, 3), (1, 2, 2)))["accuracy"] == pytest.approx(2 / 3)
    assert load("micro_macro").trainer_metrics()(([[0.1, 0.9], [0.8, 0.2]], [1, 1]))["accuracy"] == pytest.approx(1 / 2)


# ---------------------------------------------------------------------------------------
# An evaluation that stopped half-way (issue 28): with batch_eval_metrics its batches must
# not be counted in the next evaluation. The Trainer marks only the last batch.


class StopAtBatch(TrainerCallback):
    """Raise `error` as the Trainer reaches batch `batch` of the first evaluation: batches
    0 .. batch-1 have reached compute_metrics (on_prediction_step comes just before it)."""

    def __init__(self, batch, error):
        self.batch, self.error, self.calls = batch, error, 0

    def on_prediction_step(self, args, state, control, **kwargs):
        self.calls += 1
        if self.calls == self.batch + 1:
            raise self.error


@pytest.mark.parametrize("error", [KeyboardInterrupt(), torch.OutOfMemoryError("CUDA out of memory (simulated)")])
def test_an_interrupted_evaluation_leaves_nothing_in_the_next(tmp_path, error):
    """40 sentences in 5 batches. The first evaluation, on random labels, stops at batch 3;
    the second is on labels equal to the model's own predictions, so every scored token is
    right: accuracy and micro F1 exactly 1 (stale batches would pull them below)."""
    tokenizer, model, data = token_data(4, seed=8)
    right = [{**e, "labels": [-100] + logits.argmax(-1)[1:].tolist()} for e, logits in zip(data, direct_logits(model, data))]
    assert any(e["labels"] != r["labels"] for e, r in zip(data, right))
    args = TrainingArguments(output_dir=str(tmp_path / "out"), per_device_eval_batch_size=8, report_to=[], use_cpu=True, disable_tqdm=True, batch_eval_metrics=True)
    stop = StopAtBatch(3, error)
    trainer = Trainer(model=model, args=args, data_collator=DataCollatorForTokenClassification(tokenizer), compute_metrics=load("micro_macro").trainer_metrics(), callbacks=[stop])
    with pytest.raises(type(error)):
        trainer.evaluate(data)
    trainer.remove_callback(stop)
    metrics = trainer.evaluate(right)
    assert metrics["eval_accuracy"] == 1.0 and metrics["eval_micro_f1"] == 1.0
