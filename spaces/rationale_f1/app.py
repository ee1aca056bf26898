"""Gradio demo of rationale_f1: texts with gold and predicted token selections in; the
numbers, a per-example table and the text highlighted token by token as TP / FP / FN
out. Builds `demo` on import; launches only as a script."""

import html
import importlib
import json
import os
import re
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import evaluate  # noqa: E402
import gradio as gr  # noqa: E402

HERE = Path(__file__).resolve().parent
# By file path: on a Space the directory is `app/`, and evaluate would take app.py for the metric.
metric = evaluate.load(str(HERE / "rationale_f1.py"), keep_in_memory=True)
# The policies placing a model reply's quotes on the tokens (the metric's vendored package).
package = type(metric).__module__.rpartition(".")[0]
parsing = importlib.import_module(package + ".paperscore_parse")
NO_PARSER = "none (predictions are selections)"
PARSERS = [NO_PARSER, *importlib.import_module(package + ".paperscore_rationale").RATIONALE_PARSERS]

# Beer reviews with the appearance aspect's rationale (the second text has none).
EXAMPLE = dict(
    predictions="011100001111\n00111000000000\n11100000011",
    references="001110011100\n00000000000000\n11101000111",
    tokens=(
        "pours a hazy golden color with a thick white head that lingers\n"
        "smells of citrus and pine , the taste is bitter with a dry finish\n"
        "deep amber body , clear , with a modest tan collar"
    ),
    threshold_rule=">=",
    threshold=0.5,
    zero_division="0",
    parse=NO_PARSER,
)
# One generative example: an LLM's replies quoting the texts (one reply a line; a reply of
# several lines as a JSON string), placed on the tokens by a policy.
LLM_EXAMPLE = dict(
    predictions='["hazy golden", "Thick white head"]\n"- citrus\\n- oak"\n[]',
    parse="quotes_normalized",
)
HEADLINE = (
    "precision", "recall", "f1", "sparsity", "micro_f1", "macro_f1",
    "example_precision", "example_recall", "example_f1", "iou_f1", "auprc",
)  # fmt: skip
# Limits, stated on the page and checked before parsing: the highlighted text and the
# per-example table grow with the input.
MAX_CHARS = 20_000
# Gradio keeps a copy of the page's state for each visitor session, 10,000 sessions by
# default: under load that is gigabytes (532 MB -> 3.1 GB in 180 s with 50 clients). The
# demo keeps nothing between requests, so the 50 most recent sessions are plenty.
SESSIONS = 50
COLORS = {"TP": "#2e7d32", "FP": "#c62828", "FN": "#f9a825"}


def _number(text, argument, line):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{argument}[{line}]: {text!r} is not a number") from None
    return int(value) if value.is_integer() else value


def parse_selections(text, argument):
    """One example per line: a 0/1 string ("0110"), numbers separated by spaces or
    commas ("0.1 0.9 0.4"), or a JSON list."""
    examples = []
    for line, row in enumerate(r for r in text.splitlines() if r.strip()):
        row = row.strip()
        if row.startswith("["):
            try:
                examples.append(json.loads(row))
            except json.JSONDecodeError as error:
                raise ValueError(f"{argument}[{line}]: not a JSON list ({error.msg})") from None
            except RecursionError:  # Python's reader gives up at about 1,000 levels
                raise ValueError(f"{argument}[{line}]: a JSON list nested too deeply to read") from None
        elif re.fullmatch(r"[01]+", row):
            examples.append([int(c) for c in row])
        else:
            examples.append([_number(item, argument, line) for item in re.split(r"[\s,]+", row)])
    if not examples:
        raise ValueError(f"{argument}: no examples given")
    return examples


def parse_tokens(text, references):
    """Whitespace-separated tokens, one text per line and as many as its reference; with
    no text at all the tokens are shown by position."""
    lines = [row.split() for row in text.splitlines() if row.strip()]
    if not lines:
        return [[str(i) for i in range(len(reference))] for reference in references]
    if len(lines) != len(references):
        raise ValueError(f"tokens: {len(lines)} lines of text but {len(references)} references")
    for line, (words, reference) in enumerate(zip(lines, references)):
        if len(words) != len(reference):
            raise ValueError(f"tokens[{line}]: {len(words)} tokens but references[{line}] has {len(reference)}")
    return lines


def parse_replies(text):
    """One model reply per line; a line that is a JSON string is that string."""
    replies = []
    for row in text.splitlines():
        value = json.loads(row) if row.lstrip().startswith('"') and _is_json(row) else row
        replies.append(value if isinstance(value, str) else row)
    return replies


def _is_json(row):
    try:
        json.loads(row)
    except (ValueError, RecursionError):
        return False
    return True


def compute_kwargs(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER):
    """The metric's keyword arguments for the demo's inputs (the tokens only label them,
    unless a parser places the replies' quotes on them)."""
    if parse not in PARSERS:
        raise ValueError(f"parse: {parse!r} is not one of {', '.join(PARSERS)}")
    for argument, text in (("predictions", predictions), ("references", references), ("tokens", tokens)):
        if len(text) > MAX_CHARS:
            raise ValueError(f"{argument}: {len(text):,} characters; this demo takes at most {MAX_CHARS:,} per box (use the package or the command line for more)")
    refs = parse_selections(references, "references")
    parse_tokens(tokens, refs)
    if parse == NO_PARSER:
        predicted, parsing = parse_selections(predictions, "predictions"), {}
    else:
        if not tokens.strip():
            raise ValueError("tokens: a parser places the replies' quotes on the tokens; give the texts, one a line")
        predicted = parse_replies(predictions)
        parsing = dict(parse=parse, sources=[row.split() for row in tokens.splitlines() if row.strip()])
    return dict(
        predictions=predicted,
        references=refs,
        threshold_rule=threshold_rule,
        threshold=float(threshold),
        zero_division="nan" if zero_division == "nan" else float(zero_division),
        **parsing,
    )


def highlight(words, prediction, reference, threshold_rule, threshold):
    """(token, "TP" / "FP" / "FN" / None) pairs; a prediction may list scored tokens only."""
    scores = iter(prediction) if len(prediction) != len(reference) else None
    for position, (word, gold) in enumerate(zip(words, reference)):
        if gold == -100:
            yield word + " ", None
            continue
        score = next(scores) if scores else prediction[position]
        chosen = score >= threshold if threshold_rule == ">=" else score > threshold
        yield word + " ", "TP" if chosen and gold else "FP" if chosen else "FN" if gold else None


def score(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER):
    try:
        kwargs = compute_kwargs(predictions, references, tokens, threshold_rule, threshold, zero_division, parse)
        # a new metric per request: one visitor's batch never reaches another's
        result = metric.fresh().compute(**kwargs, per_example=True, return_signature=True)
        if parse != NO_PARSER:  # the selections the quotes make, to highlight
            kwargs["predictions"] = parsing.parse_rationales(kwargs["predictions"], kwargs["sources"], parse)[0]
    except ValueError as error:
        # Gradio renders the toast as HTML: the message quotes user text
        raise gr.Error(html.escape(str(error), quote=False), print_exception=False) from None
    except RecursionError:  # the last line of defence, as the command line's
        raise gr.Error("the input is nested too deeply to read", print_exception=False) from None
    headline = {key: result[key] for key in HEADLINE if key in result}
    headline.update({key: result[key] for key in ("parse_failures", "parse_failure_examples", "quotes", "unmatched_quotes") if key in result})
    headline["signature"] = result["signature"]
    marked = []
    for words, prediction, reference in zip(parse_tokens(tokens, kwargs["references"]), kwargs["predictions"], kwargs["references"]):
        marked += list(highlight(words, prediction, reference, threshold_rule, float(threshold))) + [("\n", None)]
    columns = ["tokens", "gold", "predicted", "tp", "precision", "recall", "f1", "gold_spans", "predicted_spans", "matched_spans"]
    columns += ["auprc"] if "auprc" in result else []
    rows = [[i] + [round(row[c], 4) for c in columns] for i, row in enumerate(result["per_example"])]
    return headline, marked, {"headers": ["example"] + columns, "data": rows}


with gr.Blocks(title="rationale_f1") as demo:
    gr.Markdown(
        "# rationale_f1\n"
        "Rationale token P/R/F1 as DMR/FR (corpus sums, rationale class) beside the true "
        "micro / macro F1, A2R/ERASER per-example means, ERASER's IOU F1 and AUPRC. One "
        "example per line: selections as `0110`, as numbers (`0.1 0.9 0.4`, soft scores "
        "add AUPRC) or as a JSON list; `-100` in a reference marks padding.\n\n"
        f"**Limit:** at most {MAX_CHARS:,} characters per box; beyond that, use the package or "
        "`paperscore rationale`."
    )
    with gr.Row():
        predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predicted selections", lines=3, elem_id="predictions")
        references = gr.Textbox(value=EXAMPLE["references"], label="Gold selections", lines=3, elem_id="references")
    tokens = gr.Textbox(value=EXAMPLE["tokens"], label="Tokens (whitespace-separated, one text per line; optional)", lines=3, elem_id="tokens")
    with gr.Row():
        threshold_rule = gr.Dropdown([">=", ">"], value=EXAMPLE["threshold_rule"], label="threshold_rule (>= DMR, > FR/MGR/DAR)")
        threshold = gr.Slider(0, 1, value=EXAMPLE["threshold"], step=0.05, label="threshold")
        zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division")
        parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (predictions: model replies quoting the tokens, one a line)", elem_id="parse")
    button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
    result = gr.JSON(label="Result", elem_id="result")
    marked = gr.HighlightedText(label="Tokens: TP (selected, gold), FP (selected only), FN (gold only)", color_map=COLORS, show_legend=True, elem_id="highlighted")
    per_example = gr.Dataframe(label="Per example", elem_id="per-example")
    button.click(
        score,
        [predictions, references, tokens, threshold_rule, threshold, zero_division, parse],
        [result, marked, per_example],
        api_name="compute",
    )
    gr.Examples([[LLM_EXAMPLE["predictions"], EXAMPLE["references"], EXAMPLE["tokens"], LLM_EXAMPLE["parse"]]], [predictions, references, tokens, parse], label="Model replies (LLM quotes)")

if __name__ == "__main__":
    demo.launch(state_session_capacity=SESSIONS)
