# GENERATED from shared/paperscore/trainer.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""`compute_metrics` for transformers' Trainer, built from a loaded paperscore metric.

    metric = evaluate.load("paperscore/micro_macro", keep_in_memory=True)
    trainer = Trainer(..., compute_metrics=metric.trainer_metrics(negative_labels=[0]))

What the Trainer hands over (transformers 5, Trainer.evaluation_loop), and what is done:
- default: one EvalPrediction for the whole set, numpy arrays concatenated across batches
  (sequences padded to the longest with -100);
- `eval_do_concat_batches=False`: a list with one array per batch (sequence lengths may
  differ from batch to batch); each batch is scored as its own add_batch, all in one
  compute;
- `batch_eval_metrics=True`: one call per batch with the model's torch tensors (on the
  device, bf16 under mixed precision) and `compute_result=True` on the last; each batch is
  prepared as it comes and kept here, and the last call adds them all and computes. The
  Trainer marks the last batch but not the first, so an evaluation that stopped half-way
  (KeyboardInterrupt, out of memory, a bad batch) would leave its batches to be counted in
  the next one: every evaluation starts clean at the Trainer's batch 0 (the `step` of the
  Trainer.evaluation_loop that is calling). Called from another loop, an evaluation ends
  at compute_result=True only;
- a model with several outputs (hidden states, attentions, encoder states) gives a tuple
  per batch: its first item is the logits; past_key_values are left out by the Trainer.

Logits (a float array with one more axis than the labels) become labels (argmax) or the
probability of class 1 (`logits="probability"`, for rationale scores); anything else
(preprocess_logits_for_metrics already took the argmax, or generated ids) is used as it
is. A head with ONE logit (shape (n, 1) or (n, length, 1); num_labels=1 is regression in
transformers) is a ValueError: argmax would always give 0. Give the model num_labels=2,
or threshold it in `preprocess_logits_for_metrics`, e.g.
`lambda logits, labels: (logits[..., 0] > 0).long()` (labels) or
`lambda logits, labels: logits[..., 0].sigmoid()` (rationale scores).

The Trainer's -100 padding is kept for metrics that drop it themselves, and removed before
naming labels (`label_names=`: an id outside them is a ValueError naming the id and the
example) or decoding. Generated token ids are decoded with your tokenizer (the inputs too,
as `sources`, when TrainingArguments(include_for_metrics=["inputs"])); with
skip_special_tokens=False, markers such as T5's <extra_id_0> stay in the text and only
the end and padding tokens are removed, as OmniEvent decodes. `references=`: the
evaluation set's references in order (OmniEvent items), scored in place of the label
ids, as a repository reading its test file does. The result is the Trainer's wish: flat
floats. Imports nothing: arrays and tensors are duck-typed.
"""

import os
import sys
from collections.abc import Mapping

import numpy as np

from .paperscore_core import from_tensor, input_error

LOGITS = ("argmax", "probability")


def _first_output(value):
    """A model's outputs as one array: the logits are the first of several outputs."""
    while isinstance(value, tuple) and value and not np.isscalar(value[0]):  # not a tuple of labels
        value = value[0]
    return np.asarray(from_tensor(value))


def _is_per_batch(value):
    """eval_do_concat_batches=False: a list of per-batch arrays (or of tuples of them).
    A list of Python numbers or lists is one array, as a user would pass it."""
    return isinstance(value, list) and bool(value) and all(isinstance(item, tuple) or hasattr(item, "shape") for item in value)


def _batches(eval_prediction):
    """(predictions, label_ids, inputs) of each batch in an EvalPrediction or a
    (predictions, label_ids) tuple."""
    predictions, label_ids = eval_prediction[0], eval_prediction[1]
    inputs = getattr(eval_prediction, "inputs", None)
    if not _is_per_batch(predictions):
        return [(predictions, label_ids, inputs)]
    count = len(predictions)
    for name, value in (("label_ids", label_ids), ("inputs", inputs)):
        if value is not None and not (isinstance(value, list) and len(value) == count):
            raise ValueError(f"{name}: predictions come as {count} batches (eval_do_concat_batches=False), but {name} does not")
    return list(zip(predictions, label_ids, inputs if inputs is not None else [None] * count))


def _labels_from_logits(logits, label_ids, how):
    if logits.dtype.kind != "f" or logits.ndim != label_ids.ndim + 1:
        return logits  # labels or scores already: preprocess_logits_for_metrics or generate
    if logits.shape[-1] == 1:
        raise ValueError(
            f"predictions: logits of shape {logits.shape} have one class, so their argmax is always 0 "
            "(num_labels=1 is regression in transformers). Give the model num_labels=2, or threshold "
            "the logit in Trainer(preprocess_logits_for_metrics=lambda logits, labels: (logits[..., 0] > 0).long()), "
            "or logits[..., 0].sigmoid() for rationale scores"
        )
    if how == "argmax":
        return logits.argmax(-1)
    shifted = np.exp(logits - logits.max(-1, keepdims=True))
    return shifted[..., 1] / shifted.sum(-1)  # the positive class's softmax probability


def _named(values, label_ids, names, ignore_index, argument, offset):
    """Per example, the names of the ids at positions whose label is not ignore_index (one
    label per example: the examples labelled ignore_index left out). `offset`: the index
    of the batch's first example in the evaluation set, for the error message."""
    keep = label_ids != ignore_index
    if values.ndim == 1:
        indices, rows = np.flatnonzero(keep) + offset, [[value] for value in values[keep].tolist()]
    else:
        indices, rows = range(offset, offset + len(values)), [row[mask].tolist() for row, mask in zip(values, keep)]
    out = []
    for index, row in zip(indices, rows):
        unknown = [value for value in row if value not in names]
        if unknown:
            raise input_error(argument, int(index), f"label id {unknown[0]} is not in label_names ({_listed(names)})")
        out.append([names[value] for value in row])
    return [row[0] for row in out] if values.ndim == 1 else out


def _listed(names):
    ids = sorted(names)
    return f"ids {ids[0]} to {ids[-1]}" if ids == list(range(ids[0], ids[-1] + 1)) else f"ids {', '.join(map(str, ids))}"


def _decode(tokenizer, ids, ignore_index, postprocess, skip_special_tokens=True):
    ids = np.where(ids == ignore_index, tokenizer.pad_token_id, ids)
    texts = tokenizer.batch_decode(ids.tolist(), skip_special_tokens=skip_special_tokens)
    if not skip_special_tokens:  # the markers kept, the end and padding removed (OmniEvent's get_pred_s2s)
        for token in filter(None, (tokenizer.eos_token, tokenizer.pad_token)):
            texts = [text.replace(token, "") for text in texts]
    return [postprocess(text) if postprocess else text for text in texts]


def _trainer_step():
    """The batch number of the transformers Trainer.evaluation_loop this call comes from
    (the Trainer passes no such number), or None when no Trainer is calling."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "evaluation_loop" and code.co_filename.endswith(os.path.join("transformers", "trainer.py")):
            step = frame.f_locals.get("step")  # its enumerate(dataloader) counter
            return step if isinstance(step, int) else None
        frame = frame.f_back
    return None


def _floats(result):
    """The flat numbers of a result, as Python floats (the Trainer logs them all)."""
    return {key: float(value) for key, value in result.items() if isinstance(value, (int, float, np.number)) and not isinstance(value, bool)}


def trainer_metrics(metric, tokenizer=None, label_names=None, logits="argmax", postprocess=None, ignore_index=-100, skip_special_tokens=True, references=None, **options):
    """A function for Trainer(compute_metrics=...) that scores with `metric` (an evaluate
    module or anything with add_batch and compute). See the module docstring.

    tokenizer: decode generated ids (Seq2SeqTrainer with predict_with_generate) and labels.
    label_names: a list or {id: name} mapping label ids to names (positions padded with
    ignore_index removed first). logits: "argmax" (labels) or "probability" (the softmax
    probability of class 1). postprocess: applied to each decoded text (e.g. removing the
    spaces a character tokenizer puts back). skip_special_tokens: False keeps them in the
    decoded texts. references: the evaluation set's references in order, used in place of
    the label ids (their count must equal the set's). options: the metric's compute() options.
    """
    if logits not in LOGITS:
        raise ValueError(f"logits: {logits!r} is not one of {', '.join(map(repr, LOGITS))}")
    if references is not None and (isinstance(references, (str, dict)) or not hasattr(references, "__len__")):
        raise ValueError(f"references: expected the evaluation set's references as a list, got {type(references).__name__}")
    names = dict(enumerate(label_names)) if isinstance(label_names, (list, tuple)) else label_names

    def one_batch(predictions, label_ids, inputs, offset):
        predictions = _labels_from_logits(_first_output(predictions), label_ids, logits)
        if isinstance(inputs, Mapping):  # batch_eval_metrics hands over the whole batch
            inputs = inputs["input_ids"]
        if tokenizer is not None:
            decode = lambda ids: _decode(tokenizer, ids, ignore_index, postprocess, skip_special_tokens)  # noqa: E731
            given = None if references is None else list(references[offset : offset + len(label_ids)])
            batch = {"predictions": decode(predictions), "references": decode(label_ids) if given is None else given}
            if inputs is not None:
                batch["sources"] = decode(_first_output(inputs))
            return batch
        if names is not None:
            return {
                "predictions": _named(predictions, label_ids, names, ignore_index, "predictions", offset),
                "references": _named(label_ids, label_ids, names, ignore_index, "references", offset),
            }
        return {"predictions": predictions, "references": label_ids}

    # The batches of this evaluation so far (batch_eval_metrics calls once per batch), and
    # how many examples they hold.
    pending, seen = [], [0]

    def compute_metrics(eval_prediction, compute_result=None):
        # compute_result not given: the whole evaluation set in one call.
        if compute_result is None or _trainer_step() == 0:  # a new evaluation: drop what an interrupted one left
            pending.clear()
            seen[0] = 0
        # Every batch of the call is prepared before any is kept: a bad one adds nothing.
        batches, offset = [], seen[0]
        for predictions, label_ids, inputs in _batches(eval_prediction):
            label_ids = _first_output(label_ids)  # several label columns: the first
            batches.append(one_batch(predictions, label_ids, inputs, offset))
            offset += len(label_ids)
        pending.extend(batches)
        seen[0] = offset
        if compute_result is not None and not compute_result:
            return {}
        if references is not None and offset != len(references):
            pending.clear()
            seen[0] = 0
            raise ValueError(f"references: {len(references)} given, but the evaluation set holds {offset} examples")
        batches = pending[:]
        pending.clear()
        seen[0] = 0
        for batch in batches:
            metric.add_batch(**batch)
        return _floats(metric.compute(**options))

    return compute_metrics
