# GENERATED from shared/paperscore/trainer.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""`compute_metrics` for transformers' Trainer, built from a loaded paperscore metric.

    metric = evaluate.load("paperscore/micro_macro", keep_in_memory=True)
    trainer = Trainer(..., compute_metrics=metric.trainer_metrics(negative_labels=[0]))

What it takes off your hands: tuple model outputs (the first item is used), torch tensors
(batch_eval_metrics=True hands over device tensors), logits turned into labels (argmax) or
into the positive class's probability (`logits="probability"`, for rationale scores), the
Trainer's -100 padding (kept for metrics that drop it themselves, removed before decoding
or naming labels), generated token ids decoded with your tokenizer (the inputs too, as
`sources`, when TrainingArguments(include_for_metrics=["inputs"])), and the Trainer's
wish for flat floats. With batch_eval_metrics=True each batch goes to add_batch and the
last one computes. Imports nothing: arrays are duck-typed.
"""

from collections.abc import Mapping

import numpy as np

LOGITS = ("argmax", "probability")


def _numpy(value):
    if isinstance(value, (tuple, list)) and value and not np.isscalar(value[0]):
        value = value[0]  # a model returning several outputs: logits first
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu()
        if str(value.dtype) == "torch.bfloat16":  # no numpy dtype: upcast, as transformers does
            value = value.float()
        value = value.numpy()
    return np.asarray(value)


def _labels_from_logits(logits, how):
    if logits.dtype.kind != "f":
        return logits  # already labels (preprocess_logits_for_metrics did the argmax)
    if how == "argmax":
        return logits.argmax(-1)
    shifted = np.exp(logits - logits.max(-1, keepdims=True))
    return shifted[..., 1] / shifted.sum(-1)  # the positive class's softmax probability


def _unpadded(values, labels, ignore_index):
    """Per example, the values at positions whose label is not ignore_index."""
    return [row[keep].tolist() for row, keep in zip(values, labels != ignore_index)]


def _decode(tokenizer, ids, ignore_index, postprocess):
    ids = np.where(ids == ignore_index, tokenizer.pad_token_id, ids)
    texts = tokenizer.batch_decode(ids.tolist(), skip_special_tokens=True)
    return [postprocess(text) if postprocess else text for text in texts]


def _floats(result):
    """The flat numbers of a result, as Python floats (the Trainer logs them all)."""
    return {key: float(value) for key, value in result.items() if isinstance(value, (int, float, np.number)) and not isinstance(value, bool)}


def trainer_metrics(metric, tokenizer=None, label_names=None, logits="argmax", postprocess=None, ignore_index=-100, **options):
    """A function for Trainer(compute_metrics=...) that scores with `metric` (an evaluate
    module or anything with add_batch and compute). See the module docstring.

    tokenizer: decode generated ids (Seq2SeqTrainer with predict_with_generate) and labels.
    label_names: a list or {id: name} mapping label ids to names (positions padded with
    ignore_index removed first). logits: "argmax" (labels) or "probability" (the softmax
    probability of class 1). postprocess: applied to each decoded text (e.g. removing the
    spaces a character tokenizer puts back). options: the metric's compute() options.
    """
    if logits not in LOGITS:
        raise ValueError(f"logits: {logits!r} is not one of {', '.join(map(repr, LOGITS))}")
    names = dict(enumerate(label_names)) if isinstance(label_names, (list, tuple)) else label_names

    def compute_metrics(eval_prediction, compute_result=True):
        # An EvalPrediction indexes like a (predictions, label_ids) tuple, which is also taken.
        predictions, label_ids = _numpy(eval_prediction[0]), _numpy(eval_prediction[1])
        inputs = getattr(eval_prediction, "inputs", None)
        if isinstance(inputs, Mapping):  # batch_eval_metrics hands over the whole batch
            inputs = inputs["input_ids"]
        batch = {}
        if tokenizer is not None:
            batch["predictions"] = _decode(tokenizer, predictions, ignore_index, postprocess)
            batch["references"] = _decode(tokenizer, label_ids, ignore_index, postprocess)
            if inputs is not None:
                batch["sources"] = _decode(tokenizer, _numpy(inputs), ignore_index, postprocess)
        else:
            predictions = _labels_from_logits(predictions, logits)
            if names is not None:
                batch["predictions"] = [[names[int(v)] for v in row] for row in _unpadded(predictions, label_ids, ignore_index)]
                batch["references"] = [[names[int(v)] for v in row] for row in _unpadded(label_ids, label_ids, ignore_index)]
            else:
                batch["predictions"], batch["references"] = predictions, label_ids
        metric.add_batch(**batch)
        return _floats(metric.compute(**options)) if compute_result else {}

    return compute_metrics

