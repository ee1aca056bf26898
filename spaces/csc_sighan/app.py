"""Gradio demo of csc_sighan: source, reference and predicted sentences in; the official
figures, the confusion matrix and a per-sentence table with the edits highlighted out.
Builds `demo` on import; launches only as a script."""

import html
import os
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import evaluate  # noqa: E402
import gradio as gr  # noqa: E402

HERE = Path(__file__).resolve().parent
# By file path: on a Space the directory is `app/`, and evaluate would take app.py for the metric.
metric = evaluate.load(str(HERE / "csc_sighan.py"), keep_in_memory=True)

# Ten sentences of the SIGHAN 2015 test set (source, reference) and a system output that
# falls, sentence by sentence, in the cells of the SIGHAN15 toy result: TN, FN (a position
# missed), TN, TP, TP with a wrong character (correction FN), FN (missed), FP, TP, FN, TP.
# Same figures as the release's SIGHAN15_Toy_Evaluation.txt.
TOY = [
    ("我起床的時候，吃早飯。", "我起床的時候，吃早飯。", "我起床的時候，吃早飯。"),
    ("我以前想要高訴你，可是我忘了。我真戶禿。", "我以前想要告訴你，可是我忘了。我真糊塗。", "我以前想要告訴你，可是我忘了。我真糊禿。"),
    ("我請你吃飯，可以嗎？", "我請你吃飯，可以嗎？", "我請你吃飯，可以嗎？"),
    ("真麻煩你了。希望你們好好的跳無。", "真麻煩你了。希望你們好好的跳舞。", "真麻煩你了。希望你們好好的跳舞。"),
    ("我門看美國電影，我覺得很有意事。", "我們看美國電影，我覺得很有意思。", "我們看美國電影，我覺得很有意識。"),
    ("吃了早菜以後他去上課。", "吃了早餐以後他去上課。", "吃了早菜以後他去上課。"),
    ("我聽過她說的話了，我高興的不得了。", "我聽過她說的話了，我高興的不得了。", "我聽過她說的話了，我高興得不得了。"),
    ("我每天六天半起床。", "我每天六點半起床。", "我每天六點半起床。"),
    ("我覺得你們會好好的完。", "我覺得你們會好好的玩。", "我覺得你們會好好的完。"),
    ("身體建錓。", "身體健康。", "身體健康。"),
]
EXAMPLE = dict(
    predictions="\n".join(p for _, _, p in TOY),
    sources="\n".join(s for s, _, _ in TOY),
    references="\n".join(r for _, r, _ in TOY),
    version="2015",
    correction_match="subset",
    length_mismatch="error",
    zero_division="0",
)
HEADLINE = (
    "false_positive_rate",
    "detection_accuracy", "detection_precision", "detection_recall", "detection_f1",
    "correction_accuracy", "correction_precision", "correction_recall", "correction_f1",
)  # fmt: skip
CLASS_COLOURS = {"TP": "#2e7d32", "FP": "#c62828", "TN": "#757575", "FN": "#ef6c00"}
EDIT_COLOURS = {"right": "#c8e6c9", "wrong char": "#ffe0b2", "wrong place": "#ffcdd2", "gold": "#c8e6c9", "source": "#eeeeee"}


# What one request may hold (each box): enough for a test set's worth of sentences, while
# the page's per-sentence table stays a page.
MAX_LINES = 2_000
MAX_CHARACTERS = 200_000


def check_limits(**boxes):
    """Refuse a box beyond the limits stated on the page, before any work."""
    for name, text in boxes.items():
        if len(text) > MAX_CHARACTERS:
            raise ValueError(f"{name}: {len(text):,} characters; this demo takes at most {MAX_CHARACTERS:,} per box")
        if text.count("\n") + 1 > MAX_LINES:
            raise ValueError(f"{name}: {text.count(chr(10)) + 1:,} lines; this demo takes at most {MAX_LINES:,} per box")


def sentence_lines(text):
    """One sentence per line; blank lines are ignored."""
    return [line.removesuffix("\r") for line in text.split("\n") if line.strip()]


def compute_kwargs(predictions, sources, references, version, correction_match, length_mismatch, zero_division):
    """The metric's keyword arguments for the demo's inputs."""
    return dict(
        predictions=sentence_lines(predictions),
        sources=sentence_lines(sources),
        references=sentence_lines(references),
        version=version,
        correction_match=correction_match,
        length_mismatch=length_mismatch,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )


def marked(text, marks):
    """The sentence with the characters at the 1-based positions of `marks` highlighted
    (position 0: the whole sentence, a length-changed prediction)."""
    if 0 in marks:
        return f'<span style="background:{EDIT_COLOURS[marks[0]]}">{html.escape(text)}</span>'
    return "".join(
        f'<span style="background:{EDIT_COLOURS[marks[i]]};font-weight:bold">{html.escape(c)}</span>' if i in marks else html.escape(c)
        for i, c in enumerate(text, 1)
    )


def badge(cell):
    return f'<span style="color:white;background:{CLASS_COLOURS[cell]};padding:1px 6px;border-radius:4px">{cell}</span>'


def sentence_table(kwargs, result):
    rows = []
    columns = zip(kwargs["sources"], kwargs["references"], kwargs["predictions"], result["reference_edits"], result["predicted_edits"])
    for number, (source, reference, prediction, gold, predicted) in enumerate(columns, 1):
        gold_chars = dict(map(tuple, gold))
        prediction_marks = {p: "right" if gold_chars.get(p) == c else "wrong char" if p in gold_chars else "wrong place" for p, c in predicted}
        cells = [
            str(number),
            marked(source, {p: "source" for p in gold_chars.keys() | prediction_marks.keys()}),
            marked(reference, dict.fromkeys(gold_chars, "gold")),
            marked(prediction, prediction_marks),
            badge(result["detection_classes"][number - 1]),
            badge(result["correction_classes"][number - 1]),
        ]
        rows.append("<tr>" + "".join(f'<td style="padding:2px 8px">{cell}</td>' for cell in cells) + "</tr>")
    header = "".join(f'<th style="padding:2px 8px;text-align:left">{name}</th>' for name in ("#", "source", "reference", "prediction", "detection", "correction"))
    legend = " ".join(f'<span style="background:{EDIT_COLOURS[k]};padding:0 4px">{k}</span>' for k in ("right", "wrong char", "wrong place"))
    return f'<p>Predicted edits: {legend}</p><table style="border-collapse:collapse"><tr>{header}</tr>{"".join(rows)}</table>'


def score(predictions, sources, references, version, correction_match, length_mismatch, zero_division):
    try:
        check_limits(predictions=predictions, sources=sources, references=references)
        kwargs = compute_kwargs(predictions, sources, references, version, correction_match, length_mismatch, zero_division)
        # A fresh metric per request: nothing of one request (or thread) reaches another.
        result = metric.fresh().compute(**kwargs, return_counts=True, per_sentence=True, return_signature=True)
    except ValueError as error:  # the toast renders HTML: the message may quote user text
        raise gr.Error(html.escape(str(error), quote=False), print_exception=False) from None
    headline = {key: result[key] for key in HEADLINE}
    headline["signature"] = result["signature"]
    matrix = {
        "headers": ["level", "TP", "FP", "TN", "FN"],
        "data": [[level] + [result[f"{level}_{cell}"] for cell in ("tp", "fp", "tn", "fn")] for level in ("detection", "correction")],
    }
    return headline, matrix, sentence_table(kwargs, result)


with gr.Blocks(title="csc_sighan") as demo:
    gr.Markdown(
        "# csc_sighan\n"
        "The official SIGHAN 2014/2015 Chinese spelling check evaluation, as the bake-off jar computes it. "
        "One sentence per line, the three boxes in the same order; an edit is a position where a sentence "
        "differs from its source. A false positive is a flagged **error-free** sentence; a wrong correction "
        "of an erroneous sentence is a false negative. Preloaded: the SIGHAN15 toy result's outcomes on ten "
        "SIGHAN15 test sentences (the figures of `SIGHAN15_Toy_Evaluation.txt`).\n\n"
        f"**Limits:** at most {MAX_LINES:,} lines and {MAX_CHARACTERS:,} characters per box; "
        "larger inputs are refused (score them with the package or the `paperscore sighan` command)."
    )
    with gr.Row():
        sources = gr.Textbox(value=EXAMPLE["sources"], label="Sources (input sentences)", lines=10, elem_id="sources")
        references = gr.Textbox(value=EXAMPLE["references"], label="References (gold corrections)", lines=10, elem_id="references")
        predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions (system output)", lines=10, elem_id="predictions")
    with gr.Row():
        version = gr.Dropdown(["2015", "2014"], value=EXAMPLE["version"], label="version (the same definition)")
        correction_match = gr.Dropdown(["subset", "exact"], value=EXAMPLE["correction_match"], label="correction_match (subset: the jar)")
        length_mismatch = gr.Dropdown(["error", "truncate", "whole"], value=EXAMPLE["length_mismatch"], label="length_mismatch")
        zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division (nan: the jar)")
    button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
    with gr.Row():
        result = gr.JSON(label="Result", elem_id="result")
        confusion = gr.Dataframe(label="Confusion matrix (sentences)", elem_id="confusion-matrix")
    table = gr.HTML(elem_id="per-sentence")
    # predictions first: the contract's first input
    button.click(
        score,
        [predictions, sources, references, version, correction_match, length_mismatch, zero_division],
        [result, confusion, table],
        api_name="compute",
    )

if __name__ == "__main__":
    demo.launch()
