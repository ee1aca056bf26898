"""Gradio demo of micro_macro: labels in (or a seq2seq model's text with OmniEvent items,
read by a parser chosen from a list); headline numbers, a per-class table and the
confusion matrix as a heatmap out. Builds `demo` on import; launches only as a script."""

import html
import importlib
import json
import os
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import evaluate  # noqa: E402
import gradio as gr  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

# Gradio keeps a copy of the page's state for each visitor session, 10,000 sessions by
# default: under load that is gigabytes (rationale_f1: 532 MB -> 3.1 GB in 180 s with 50
# clients). The demo keeps nothing between requests, so the 50 most recent are plenty.
SESSIONS = 50

HERE = Path(__file__).resolve().parent
# By file path: on a Space the directory is `app/`, and evaluate would take app.py for the metric.
metric = evaluate.load(str(HERE / "micro_macro.py"), keep_in_memory=True)
# The parsers from model text (the metric's vendored copy of the package).
NO_PARSER = "none: labels"
PARSERS = [NO_PARSER, *importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_micro_macro").EVENT_PARSERS]

# MAVEN-style event detection: "None" is the NA class, left out by convention="maven".
EXAMPLE = dict(
    predictions="None Attack Attack None Movement None Transport Attack None None Attack None",
    references="None Attack None Attack Movement None Movement Attack None Transport Attack None",
    convention="maven",
    negative_labels="",
    zero_division="0",
    parse=NO_PARSER,
    types="",
)
# One generative example: an OmniEvent seq2seq reply per line, an OmniEvent item per line.
OMNIEVENT_EXAMPLE = dict(
    predictions="<extra_id_0> attack: fired <extra_id_1><extra_id_0> die: died <extra_id_1></s>\n<extra_id_0> die: troops",
    references="\n".join(
        json.dumps(item)
        for item in (
            {"text": "troops fired ; two died", "events": [{"type": "Conflict.Attack", "triggers": [{"trigger_word": "fired", "position": [7, 12]}]}, {"type": "Life.Die", "triggers": [{"trigger_word": "died", "position": [19, 23]}]}], "negative_triggers": [{"trigger_word": "troops", "position": [0, 6]}]},
            {"text": "troops fired", "events": [{"type": "Conflict.Attack", "triggers": [{"trigger_word": "fired", "position": [7, 12]}]}], "negative_triggers": [{"trigger_word": "troops", "position": [0, 6]}]},
        )
    ),
    convention="omnievent",
    parse="omnievent_s2s",
    types="Conflict.Attack, Life.Die",
)
# Limits, stated on the page and checked before any work: the heatmap grows with the
# square of the class count (300 classes would be a 2.3 GB image).
MAX_CHARS = 20_000
MAX_CLASSES = 40
HEADLINE = ("accuracy", "micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall", "macro_f1")


def parse_labels(text, argument):
    """Whitespace- or comma-separated labels; all-integer input is read as ints."""
    labels = text.replace(",", " ").split()
    if not labels:
        raise ValueError(f"{argument}: no labels given")
    try:
        return [int(label) for label in labels]
    except ValueError:
        return labels


def check_size(**texts):
    """Refuse, before any parsing, a text box over the page's stated size limit."""
    for argument, text in texts.items():
        if len(text) > MAX_CHARS:
            raise ValueError(f"{argument}: {len(text):,} characters; this demo takes at most {MAX_CHARS:,} per box (use the package or the command line for more)")


def parse_items(text):
    """One OmniEvent item (a JSON object) per non-blank line."""
    items = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except ValueError as error:
                raise ValueError(f"references: line {number} is not JSON ({error})") from None
    return items


def compute_kwargs(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types=""):
    """The metric's keyword arguments for the demo's inputs, within the page's limits.
    With a parser: a model text per line, an OmniEvent item per line, comma-separated types."""
    check_size(predictions=predictions, references=references, negative_labels=negative_labels, types=types)
    if parse not in PARSERS:
        raise ValueError(f"parse: {parse!r} is not one of {', '.join(PARSERS)}")
    negatives = parse_labels(negative_labels, "negative_labels") if negative_labels.strip() else None
    kwargs = dict(
        convention=None if convention == "none" else convention,
        negative_labels=negatives,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    if parse != NO_PARSER:
        names = [name.strip() for name in types.split(",") if name.strip()]
        texts = predictions[:-1].split("\n") if predictions.endswith("\n") else predictions.split("\n")
        kwargs.update(predictions=texts, references=parse_items(references), parse=parse, types=names or None)
        return kwargs
    kwargs.update(predictions=parse_labels(predictions, "predictions"), references=parse_labels(references, "references"))
    classes = len(set(kwargs["predictions"]) | set(kwargs["references"]))
    if classes > MAX_CLASSES:
        raise ValueError(f"{classes} classes; this demo scores and draws at most {MAX_CLASSES} (use the package or the command line for more)")
    return kwargs


def heatmap(labels, matrix):
    """The confusion matrix as a picture: rows are references, columns predictions,
    each cell shaded by its share of the row."""
    cell, margin = 72, 100
    font = ImageFont.load_default(size=14)
    size = (margin + cell * len(labels) + 10, margin + cell * len(labels) + 10)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for i, row in enumerate(matrix):
        total = sum(row) or 1
        for j, count in enumerate(row):
            shade = int(235 * (1 - count / total))
            box = (margin + j * cell, margin + i * cell, margin + (j + 1) * cell, margin + (i + 1) * cell)
            draw.rectangle(box, fill=(shade, shade + (255 - shade) // 3, 255), outline="grey")
            draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(count), fill="black" if shade > 120 else "white", font=font, anchor="mm")
    for k, label in enumerate(labels):
        name = str(label)[:12]
        draw.text((margin - 6, margin + k * cell + cell / 2), name, fill="black", font=font, anchor="rm")
        draw.text((margin + k * cell + cell / 2, margin - 6), name[:9], fill="black", font=font, anchor="ms")
    return image


def score(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types=""):
    try:
        kwargs = compute_kwargs(predictions, references, convention, negative_labels, zero_division, parse, types)
        # a new metric per request: one visitor's batch never reaches another's
        result = metric.fresh().compute(**kwargs, per_class=True, confusion_matrix=True, return_signature=True)
        if len(result["labels"]) > MAX_CLASSES:  # a parser's classes are known once read
            raise ValueError(f"{len(result['labels'])} classes; this demo scores and draws at most {MAX_CLASSES} (use the package or the command line for more)")
    except ValueError as error:
        # Gradio renders the toast as HTML: the message quotes user text
        raise gr.Error(html.escape(str(error), quote=False), print_exception=False) from None
    headline = {key: result[key] for key in HEADLINE + ("weighted_f1",)}
    headline.update({key: result[key] for key in ("parse_failures", "parse_failure_examples", "unplaced_triggers") if key in result})
    headline["signature"] = result["signature"]
    rows = [
        [str(label), round(v["precision"], 4), round(v["recall"], 4), round(v["f1"], 4), v["support"]]
        for label, v in result["per_class"].items()
    ]
    table = {"headers": ["class", "precision", "recall", "f1", "support"], "data": rows}
    return headline, table, heatmap(result["labels"], result["confusion_matrix"])


with gr.Blocks(title="micro_macro") as demo:
    gr.Markdown(
        "# micro_macro\n"
        "Multi-class precision, recall and F1, micro / macro / weighted, equal to sklearn. "
        "Labels are separated by spaces or commas. `convention=maven` leaves the NA class "
        '("None" or 0) out of the averages; `jmee` scores only gold-event tokens.\n\n'
        f"**Limits:** at most {MAX_CHARS:,} characters per box and {MAX_CLASSES} classes "
        "(the confusion matrix is drawn); beyond that, use the package or `paperscore micro_macro`."
    )
    with gr.Row():
        predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions", lines=3, elem_id="predictions")
        references = gr.Textbox(value=EXAMPLE["references"], label="References", lines=3, elem_id="references")
    with gr.Row():
        convention = gr.Dropdown(["none", "maven", "jmee", "omnievent"], value=EXAMPLE["convention"], label="convention")
        negative_labels = gr.Textbox(value=EXAMPLE["negative_labels"], label="negative_labels (optional)")
        zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division")
    with gr.Row():
        parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parse (model text)")
        types = gr.Textbox(value=EXAMPLE["types"], label="types (with a parser; comma-separated)")
    gr.Examples([[OMNIEVENT_EXAMPLE[name] for name in ("predictions", "references", "convention", "parse", "types")]], [predictions, references, convention, parse, types], label="A generative example (OmniEvent seq2seq)")
    button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
    result = gr.JSON(label="Result", elem_id="result")
    with gr.Row():
        per_class = gr.Dataframe(label="Per class", elem_id="per-class")
        picture = gr.Image(label="Confusion matrix (rows: reference, columns: prediction)", type="pil", elem_id="confusion-matrix")
    button.click(
        score,
        [predictions, references, convention, negative_labels, zero_division, parse, types],
        [result, per_class, picture],
        api_name="compute",
    )

if __name__ == "__main__":
    demo.launch(state_session_capacity=SESSIONS)
