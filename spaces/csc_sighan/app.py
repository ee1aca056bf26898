"""Gradio demo of csc_sighan: source, reference and predicted sentences in; the official
figures, the confusion matrix and a per-sentence table with the edits highlighted out.
Builds `demo` on import; launches only as a script."""

import html
import importlib
import os
import sys
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import evaluate  # noqa: E402
import gradio as gr  # noqa: E402

# Gradio keeps a copy of the page's state for each visitor session, 10,000 sessions by
# default: under load that is gigabytes (rationale_f1: 532 MB -> 3.1 GB in 180 s with 50
# clients). The demo keeps nothing between requests, so the 50 most recent are plenty.
SESSIONS = 50

HERE = Path(__file__).resolve().parent
# By file path: on a Space the directory is `app/`, and evaluate would take app.py for the metric.
metric = evaluate.load(str(HERE / "csc_sighan.py"), keep_in_memory=True)
# The command line's reader of sentence files (the metric's vendored copy of paperscore.csc).
csc = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_csc")
sys.path.insert(0, str(HERE))  # the page helpers vendored beside app.py (a Space runs it from there)
import paperscore_demo as page  # noqa: E402

sys.path.remove(str(HERE))
# The parsers from a corrector's replies (the metric's vendored copy of paperscore.parse).
parsing = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_parse")
NO_PARSER = "none: sentences"
PARSERS = [NO_PARSER, *parsing.CSC_PARSERS]
REPLY_EXAMPLE = page.CSC_REPLY_EXAMPLE

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
    parse=NO_PARSER,
)
# The definitions the page offers: the jars' versions (2014 and 2015 share one), and the
# metric's keyword arguments for each.
VERSIONS = {"2015": dict(version="2015"), "2014": dict(version="2014"), "2013 subtask 1": dict(version="2013", subtask=1), "2013 subtask 2": dict(version="2013", subtask=2)}
# The figure a visitor came for, by version: (its key, the bake-off that reports it).
HEADLINE_FIGURE = {
    "2015": ("correction_f1", "SIGHAN 2015 bake-off (Tseng et al., 2015), the official jar"),
    "2014": ("correction_f1", "SIGHAN 2014 bake-off (Yu et al., 2014), the official jar"),
    "2013 subtask 1": ("detection_f1", "SIGHAN 2013 subtask 1 (Wu et al., 2013), error detection"),
    "2013 subtask 2": ("correction_accuracy", "SIGHAN 2013 subtask 2 (Wu et al., 2013), error correction"),
}


# What one request may hold (each box), in sentences: SIGHAN15's 1,100 test sentences of
# at most 124 characters go through; the page draws the first rows of its table.
MAX_SENTENCES = 5_000
MAX_SENTENCE_CHARACTERS = 300


def check_limits(**boxes):
    """Refuse a box beyond the limits stated on the page, before any work."""
    for name, text in boxes.items():
        lines = sentence_lines(text)
        if len(lines) > MAX_SENTENCES:
            raise ValueError(f"{name}: {len(lines):,} sentences, more than the {MAX_SENTENCES:,} this page takes")
        for number, line in enumerate(lines, 1):
            if len(line) > MAX_SENTENCE_CHARACTERS:
                raise ValueError(f"{name}: sentence {number} has {len(line):,} characters, more than the {MAX_SENTENCE_CHARACTERS:,} this page takes")


def sentence_lines(text):
    """One sentence (or label line) per line; blank lines are ignored."""
    return [line.removesuffix("\r") for line in text.split("\n") if line.strip()]


def compute_kwargs(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    """The metric's keyword arguments for the demo's inputs: an empty Sources box means
    label lines (sources=None); an empty Predictions or References box is an error."""
    for name, text in (("predictions", predictions), ("references", references)):
        if not sentence_lines(text):
            raise ValueError(f"{name}: the box is empty (one sentence per line, or with Sources empty, one label line `pid, pos, char, ...` per line)")
    kwargs = dict(
        predictions=sentence_lines(predictions),
        sources=sentence_lines(sources) or None,
        references=sentence_lines(references),
        **VERSIONS[version],
        correction_match=correction_match,
        length_mismatch=length_mismatch,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    return page.read_replies(kwargs, predictions, parse, PARSERS)


def marked(text, marks):
    """The sentence with the characters at the 1-based positions of `marks` highlighted
    (position 0: the whole sentence, a length-changed prediction)."""
    if 0 in marks:
        return page.mark(text, marks[0])
    return "".join(f"<b>{page.mark(c, marks[i])}</b>" if i in marks else html.escape(c) for i, c in enumerate(text, 1))


# Per-sentence outcomes the metric returns (per_sentence=True), by definition.
OUTCOMES = ("detection_classes", "correction_classes", "location_correct", "correction_correct")


def outcome(value):
    """A class as a badge; a 2013 yes/no as a mark (None: a sentence subtask 2 does not score)."""
    if isinstance(value, str):
        return page.badge(value)
    return {True: "✓", False: "✗", None: "–"}[value]


def edits_text(pairs):
    return html.escape(", ".join(f"{p} {c}".strip() for p, c in pairs) or "0")


def sentence_table(kwargs, result):
    """One row per sentence: with sources, the three sentences with the edits highlighted;
    for label lines (no sources), the edits of the truth and of the result, in truth order."""
    outcomes = [key for key in OUTCOMES if key in result]
    rows = []
    for k, (gold, predicted) in enumerate(zip(result["reference_edits"], result["predicted_edits"])):
        cells = [str(k + 1)]
        if kwargs["sources"] is None:
            cells += [edits_text(gold), edits_text(predicted)]
        else:
            source, reference, prediction = kwargs["sources"][k], kwargs["references"][k], kwargs["predictions"][k]
            gold_chars = dict(map(tuple, gold))
            prediction_marks = {p: "right" if gold_chars.get(p) == c else "wrong-char" if p in gold_chars else "wrong-place" for p, c in predicted}
            cells += [
                marked(source, {p: "source" for p in gold_chars.keys() | prediction_marks.keys()}),
                marked(reference, dict.fromkeys(gold_chars, "gold")),
                marked(prediction, prediction_marks),
            ]
        cells += [outcome(result[key][k]) for key in outcomes]
        rows.append(cells)
    names = ["#"] + (["reference edits", "predicted edits"] if kwargs["sources"] is None else ["source", "reference", "prediction"])
    names += [key.replace("_", " ") for key in outcomes]
    legend = page.legend({"right": "right", "wrong-char": "wrong char", "wrong-place": "wrong place"})
    intro = f"<p>Predicted edits: {legend}</p>" if kwargs["sources"] is not None else "<p>Label lines: the sentences in the truth's order, each edit `position character`.</p>"
    return intro + page.table(names, rows, first=page.FIRST_ROWS, escape=False)


def score(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    try:
        check_limits(predictions=predictions, sources=sources, references=references)
        kwargs = compute_kwargs(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse)
        # A fresh metric per request: nothing of one request (or thread) reaches another.
        result = metric.fresh().compute(**kwargs, return_counts=True, per_sentence=True, return_signature=True)
    except ValueError as error:
        page.fail(error, "sentence")
    # The figures of the chosen definition (floats; the counts are ints), in the jar's order.
    headline = {key: value for key, value in result.items() if isinstance(value, float)}
    if "parse" in kwargs:  # the report (taken out of the counts below), and the table shows the sentences read
        headline.update(parse_failures=result.pop("parse_failures"), parse_failure_examples=result.pop("parse_failure_examples"))
        kwargs["predictions"] = parsing.parse(kwargs["predictions"], parse)[0]
    headline["signature"] = result["signature"]
    counts = {key: value for key, value in result.items() if isinstance(value, int) and not isinstance(value, bool)}
    if "detection_tp" in counts:  # 2014/2015: the confusion matrix
        matrix = {
            "headers": ["level", "TP", "FP", "TN", "FN"],
            "data": [[level] + [counts[f"{level}_{cell}"] for cell in ("tp", "fp", "tn", "fn")] for level in ("detection", "correction")],
        }
    else:  # 2013: the counts its figures are ratios of
        matrix = {"headers": ["count", "sentences"], "data": [[key, value] for key, value in counts.items()]}
    return headline, matrix, sentence_table(kwargs, result)


def upload(path, argument):
    """A file of sentences, an official test input (`(pid=ID)<TAB>sentence`: the sentences)
    or label lines, read as the command line reads its sources, one line each in the box."""
    return "\n".join(csc.read_sources(page.upload_path(path, argument), argument)[1])


def show(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    """The page: the raw figures, the headline, the signature, the parser's report and the
    other figures (with the confusion matrix), and the per-sentence table."""
    headline, matrix, table = score(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse)
    key, paper = HEADLINE_FIGURE[version]
    return (
        headline,
        page.headline(key, headline[key], paper),
        headline["signature"],
        page.parse_report(headline, "sentence") + page.figures(headline, skip=(key, "signature", "parse_failures")) + page.table(matrix["headers"], matrix["data"]),
        table,
    )


with gr.Blocks(title="csc_sighan") as demo:
    with gr.Tab("Demo"):
        gr.Markdown(
            "# csc_sighan\n"
            "The official SIGHAN 2013/2014/2015 Chinese spelling check evaluation, as the bake-off jars compute it. "
            "One sentence per line, the three boxes in the same order; an edit is a position where a sentence "
            "differs from its source. A false positive is a flagged **error-free** sentence; a wrong correction "
            "of an erroneous sentence is a false negative. With the Sources box empty, the other two boxes hold "
            "the jars' label lines (`pid, 0` or `pid, pos, char, ...`; 2013 subtask 1: `pid, pos, ...`), matched "
            "by pid. A file holds the same (or an official test input, `(pid=ID)<TAB>sentence`). Preloaded: the "
            "SIGHAN15 toy result's outcomes on ten SIGHAN15 test sentences (the figures of `SIGHAN15_Toy_Evaluation.txt`). "
            "With a parser, each Predictions line is a chat model's reply, read by it (the table shows the sentences read; "
            "replies it cannot read are reported).\n\n"
            f"**Limits:** at most {MAX_SENTENCES:,} sentences per box, {MAX_SENTENCE_CHARACTERS} characters per sentence "
            f"and files of {page.MAX_FILE_BYTES // 1_000_000} MB; larger inputs are refused (score them with the package "
            "or the `paperscore sighan` command)."
        )
        with gr.Row():
            sources = gr.Textbox(value=EXAMPLE["sources"], label="Sources (input sentences; empty: label lines)", lines=10, max_lines=10, elem_id="sources")
            references = gr.Textbox(value=EXAMPLE["references"], label="References (gold corrections)", lines=10, max_lines=10, elem_id="references")
            predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions (system output)", lines=10, max_lines=10, elem_id="predictions")
        page.uploads({"sources": sources, "references": references, "predictions": predictions}, upload, [".txt"], "sentences or label lines")
        with gr.Row():
            version = gr.Dropdown(list(VERSIONS), value=EXAMPLE["version"], label="version (2014 and 2015: the same definition)")
            correction_match = gr.Dropdown(["subset", "exact", "set"], value=EXAMPLE["correction_match"], label="correction_match (subset: the jar; set: CCL2022)")
            length_mismatch = gr.Dropdown(["error", "truncate", "whole", "align"], value=EXAMPLE["length_mismatch"], label="length_mismatch")
            zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division (nan: the jar)")
            parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (Predictions: a chat model's replies, one a line)", elem_id="parse")
        page.csc_reply_examples(dict(sources=sources, references=references, predictions=predictions, length_mismatch=length_mismatch, parse=parse))
        button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
        headline, signature, figures = page.outputs()
        table = gr.HTML(elem_id="per-sentence")
        result = page.raw_json()
    page.card_tab(HERE)
    # predictions first: the contract's first input
    page.connect(
        demo,
        button,
        show,
        [predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse],
        [result, headline, signature, figures, table],
    )

if __name__ == "__main__":
    demo.launch(max_file_size=page.MAX_FILE_BYTES, state_session_capacity=SESSIONS)
