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
compare = page.compare_module(metric)
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


LIMITS = (
    f"**Limits:** at most {page.CSC_SENTENCES:,} sentences per box, {page.CSC_CHARACTERS} characters per sentence, "
    f"{page.limits()}; larger inputs are refused (score them with the package or the `paperscore sighan` command)."
)
# The standard sets the Space holds (data/, with their terms): the box each file fills.
DATA = HERE / "data"
SIGHAN15 = ("SIGHAN15_CSC_TestInput.txt", "SIGHAN15_CSC_TestTruth.txt")
SIGHAN13 = "FinalTest_SubTask2_Truth.txt"


def check_limits(**boxes):
    """Refuse a box beyond the limits stated on the page, or one that is no list of
    sentences or label lines, before any work."""
    for name, text in boxes.items():
        page.check_csc_box(text, name)


sentence_lines = page.sentence_lines


def compute_kwargs(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    """The metric's keyword arguments for the demo's inputs: an empty Sources box means
    label lines (sources=None), and so does the SIGHAN test set as a visitor holds it (the
    test input in Sources, the truth in References: page.csc_corpora); an empty
    Predictions or References box is an error."""
    for name, text in (("predictions", predictions), ("references", references)):
        if not sentence_lines(text):
            raise ValueError(f"{name}: the box is empty (one sentence per line, or with Sources empty, one label line `pid, pos, char, ...` per line)")
    if version not in VERSIONS:
        raise ValueError(f"version: {version!r} is not one of {', '.join(VERSIONS)}")
    lines = dict(predictions=sentence_lines(predictions), sources=sentence_lines(sources), references=sentence_lines(references))
    if parse != NO_PARSER and lines["sources"] and page.label_lines(lines["references"]):
        raise ValueError("parse: a parser reads replies into sentences, scored against reference sentences: give them in References (or choose parser none)")
    kwargs = dict(
        **page.csc_corpora(csc, **lines, length_mismatch=length_mismatch, positions_only=version == "2013 subtask 1"),
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
    return ", ".join(f"{p} {c}".strip() for p, c in pairs) or "0"


def sentence_rows(kwargs, result):
    """(headers, rows) of the per-sentence table as plain text (the CSV download): with
    sources, the three sentences; for label lines (no sources), the edits of the truth and
    of the result, in truth order; then each outcome."""
    outcomes = [key for key in OUTCOMES if key in result]
    labels = kwargs["sources"] is None
    headers = ["#"] + (["reference edits", "predicted edits"] if labels else ["source", "reference", "prediction"]) + [key.replace("_", " ") for key in outcomes]
    rows = []
    for k, (gold, predicted) in enumerate(zip(result["reference_edits"], result["predicted_edits"])):
        cells = [edits_text(gold), edits_text(predicted)] if labels else [kwargs[name][k] for name in ("sources", "references", "predictions")]
        rows.append([k + 1, *cells, *(result[key][k] for key in outcomes)])
    return headers, rows


def sentence_table(kwargs, result):
    """The per-sentence table on the page: with sources, the edits highlighted."""
    headers, rows = sentence_rows(kwargs, result)
    outcomes = len(headers) - (3 if kwargs["sources"] is None else 4)
    drawn = []
    for row, (gold, predicted) in zip(rows, zip(result["reference_edits"], result["predicted_edits"])):
        cells = [html.escape(str(cell)) for cell in row[1:-outcomes]]
        if kwargs["sources"] is not None:
            source, reference, prediction = row[1:4]
            gold_chars = dict(map(tuple, gold))
            prediction_marks = {p: "right" if gold_chars.get(p) == c else "wrong-char" if p in gold_chars else "wrong-place" for p, c in predicted}
            cells = [
                marked(source, {p: "source" for p in gold_chars.keys() | prediction_marks.keys()}),
                marked(reference, dict.fromkeys(gold_chars, "gold")),
                marked(prediction, prediction_marks),
            ]
        drawn.append([str(row[0]), *cells, *map(outcome, row[-outcomes:])])
    legend = page.legend({"right": "right", "wrong-char": "wrong char", "wrong-place": "wrong place"})
    intro = f"<p>Predicted edits: {legend}</p>" if kwargs["sources"] is not None else "<p>Label lines: the sentences in the truth's order, each edit `position character`.</p>"
    return intro + page.table(headers, drawn, first=page.FIRST_ROWS, escape=False)


def scored(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    """(the metric's keyword arguments, its result with the counts and each sentence's
    outcome), or the page's error."""
    try:
        check_limits(predictions=predictions, sources=sources, references=references)
        kwargs = compute_kwargs(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse)
        # A fresh metric per request: nothing of one request (or thread) reaches another.
        result = metric.fresh().compute(**kwargs, return_counts=True, per_sentence=True, return_signature=True)
    except ValueError as error:
        page.fail(error, "sentence")
    return kwargs, result


def summary(kwargs, result):
    """(the headline figures, the confusion matrix, the per-sentence kwargs and result) of a
    scored request: the figures of the chosen definition, the parser's report, the matrix
    (2013: the counts its figures are ratios of); with a parser, the sentences read."""
    headline = {key: value for key, value in result.items() if isinstance(value, float)}
    kwargs, result = dict(kwargs), dict(result)
    if "parse" in kwargs:  # the report (taken out of the counts below), and the table shows the sentences read
        headline.update(parse_failures=result.pop("parse_failures"), parse_failure_examples=result.pop("parse_failure_examples"))
        kwargs["predictions"] = parsing.parse(kwargs["predictions"], kwargs["parse"])[0]
    headline["signature"] = result["signature"]
    counts = {key: value for key, value in result.items() if isinstance(value, int) and not isinstance(value, bool)}
    if "detection_tp" in counts:  # 2014/2015: the confusion matrix
        matrix = {
            "headers": ["level", "TP", "FP", "TN", "FN"],
            "data": [[level] + [counts[f"{level}_{cell}"] for cell in ("tp", "fp", "tn", "fn")] for level in ("detection", "correction")],
        }
    else:  # 2013: the counts its figures are ratios of
        matrix = {"headers": ["count", "sentences"], "data": [[key, value] for key, value in counts.items()]}
    return headline, matrix, kwargs, result


def score(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    headline, matrix, kwargs, result = summary(*scored(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse))
    return headline, matrix, sentence_table(kwargs, result)


def upload(path, argument):
    """A file of sentences, an official test input (`(pid=ID)<TAB>sentence`, kept whole:
    its pids name the sentences) or label lines, one line each in the box."""
    return page.read_csc_upload(path, argument)


def draw(headline, matrix, table, version):
    key, paper = HEADLINE_FIGURE[version]
    return (
        headline,
        page.headline(key, headline[key], paper),
        headline["signature"],
        page.parse_report(headline, "sentence") + page.figures(headline, skip=(key, "signature", "parse_failures")) + page.table(matrix["headers"], matrix["data"]),
        table,
    )


def show(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER):
    """The page: the raw figures, the headline, the signature, the parser's report and the
    other figures (with the confusion matrix), and the per-sentence table."""
    return draw(*score(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse), version)


def command(kwargs, names, parse):
    """(the words of the `paperscore sighan` command giving the page's numbers, {file name:
    lines} of the files it reads): label files as the jar's -i / -t, or sentence files."""
    options = ["--version", kwargs["version"], *(["--subtask", kwargs["subtask"]] if "subtask" in kwargs else [])]
    options += ["--correction-match", kwargs["correction_match"], "--zero-division", page.number(kwargs["zero_division"])]
    if kwargs["sources"] is None:
        files = {names["predictions"]: kwargs["predictions"], names["references"]: kwargs["references"]}
        return ["paperscore", "sighan", "-i", names["predictions"], "-t", names["references"], *options], files
    files = {names[name]: kwargs[name] for name in ("sources", "predictions", "references")}
    words = ["paperscore", "sighan", *(word for name in ("sources", "predictions", "references") for word in (f"--{name}", names[name]))]
    return [*words, *options, "--length-mismatch", kwargs["length_mismatch"], *(["--parse", parse] if parse != NO_PARSER else [])], files


# The standard sets the Space holds (data/README.md: their terms), as the boxes show them
# once read: the set's name, the boxes (and version) it fills.
SETS = {
    "SIGHAN 2015 test (1,100 sentences): its test input and truth": {"sources": SIGHAN15[0], "references": SIGHAN15[1], "version": "2015"},
    "SIGHAN 2013 test, subtask 2 (1,000 sentences): its truth; bring the jar's label lines": {"sources": None, "references": SIGHAN13, "version": "2013 subtask 2"},
}
# The held files as the boxes show them: {text: file name}.
HELD = {upload(DATA / name, "held"): name for files in SETS.values() for key, name in files.items() if key != "version" and name}


def respond(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse=NO_PARSER, predictions_b="", sources_file=None, references_file=None, predictions_file=None):
    """The page: show()'s outputs, then system B's paired test (when given), the downloads
    (the per-sentence table, the files the command reads) and the command."""
    kwargs, result = scored(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse)
    headline, matrix, shown_kwargs, shown_result = summary(kwargs, result)
    comparison = ""
    if predictions_b.strip():

        def read_b():
            check_limits(predictions_b=predictions_b)
            return compute_kwargs(predictions_b, sources, references, version, correction_match, length_mismatch, zero_division, parse)["predictions"]

        comparison = page.system_b(read_b, compare, "csc_sighan", kwargs, HEADLINE_FIGURE[version][0], "sentence")
    names = page.file_names(dict(sources=sources, references=references, predictions=predictions), dict(sources=sources_file, references=references_file, predictions=predictions_file), upload, HELD)
    if parse == NO_PARSER and kwargs["predictions"] != page.test_input(csc, sentence_lines(predictions))[1]:  # sentences written as label lines
        names["predictions"] = f"{Path(names['predictions']).stem}.labels.txt"
    words, files = command(kwargs, names, parse)
    table = sentence_table(shown_kwargs, shown_result)
    return (*draw(headline, matrix, table, version), comparison, page.downloads("csc_sighan", *sentence_rows(shown_kwargs, shown_result), files), page.command(words))


def csc_sighan(predictions: str, references: str, sources: str = "", version: str = "2015", correction_match: str = "subset", length_mismatch: str = "error", zero_division: str = "0", parse: str = NO_PARSER) -> str:
    """Score a Chinese spelling check system as the official SIGHAN 2013/2014/2015 jars do (the bake-offs' figures: detection and correction precision, recall, F1, accuracy, false positive rate).

    Args:
        predictions: The system's corrected sentences, one per line; or, with sources empty, the jar's result label lines (`pid, 0` or `pid, pos, char, ...`).
        references: The gold corrected sentences, one per line; or the truth's label lines.
        sources: The input sentences, one per line, or the official test input (`(pid=ID)<TAB>sentence`, whose pids let sentence predictions meet label-line references); empty when both sides are label lines.
        version: "2015", "2014", "2013 subtask 1" or "2013 subtask 2".
        correction_match: "subset" (the jar: predicted characters among the gold ones), "exact" or "set" (CCL2022).
        length_mismatch: What a sentence of another length than its source is: "error", "truncate", "whole" or "align".
        zero_division: The value of a 0/0 ratio: "0", "1" or "nan" (the jar prints nan).
        parse: "none: sentences", or the name of a parser reading a chat model's replies (one a line) into sentences: csc_reply, ...

    Returns:
        The result as JSON: compute()'s figures (floats in [0, 1]), the counts, and the signature to report beside them.
    """
    kwargs, result = scored(predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse)
    return page.as_json({key: value for key, value in result.items() if not isinstance(value, list)})


with gr.Blocks(title="csc_sighan", delete_cache=page.DELETE_CACHE) as demo:
    with gr.Tab("Demo"):
        gr.Markdown(
            "# csc_sighan\nThe SIGHAN 2013/2014/2015 bake-offs' figures, as their jars compute them (details and limits below)."
        )
        with page.main():
            with page.part("inputs"):
                with gr.Row():
                    sources = gr.Textbox(value=EXAMPLE["sources"], label="Sources", placeholder="input sentences, one a line, or the test input (empty: label lines)", elem_id="sources", **page.BOX)
                    references = gr.Textbox(value=EXAMPLE["references"], label="References", placeholder="gold sentences, or the truth's label lines", elem_id="references", **page.BOX)
                    predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions", placeholder="the system's sentences (or label lines)", elem_id="predictions", **page.BOX)
                files = page.uploads({"sources": sources, "references": references, "predictions": predictions})
                button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
            with page.part("results"):
                headline, signature, figures = page.outputs()
                comparison, downloads, command_line = page.take_home()
            with page.part("options"):
                with gr.Row():
                    version = gr.Dropdown(list(VERSIONS), value=EXAMPLE["version"], label="version (2014 and 2015: the same definition)", min_width=160)
                    correction_match = gr.Dropdown(["subset", "exact", "set"], value=EXAMPLE["correction_match"], label="correction_match (subset: the jar; set: CCL2022)", min_width=160)
                    length_mismatch = gr.Dropdown(["error", "truncate", "whole", "align"], value=EXAMPLE["length_mismatch"], label="length_mismatch", min_width=160)
                    zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division (nan: the jar)", min_width=160)
                    parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (Predictions: a chat model's replies, one a line)", elem_id="parse", min_width=160)
                page.standard_sets(
                    {name: {sources: upload(DATA / files["sources"], "sources") if files["sources"] else "", references: upload(DATA / files["references"], "references"), version: files["version"]} for name, files in SETS.items()},
                    "Unchanged copies of the official releases (data/ of this Space, with their terms): put your system's output in Predictions.",
                )
                predictions_b = page.second_system("output")
                files_b = page.uploads({"predictions_b": predictions_b})
                page.csc_reply_examples(dict(sources=sources, references=references, predictions=predictions, length_mismatch=length_mismatch, parse=parse))
        gr.Markdown(
            "An edit is a position where a sentence differs from its source. A false positive is a flagged **error-free** sentence; "
            "a wrong correction of an erroneous sentence is a false negative. With the Sources box empty, the other two boxes hold "
            "the jars' label lines (`pid, 0` or `pid, pos, char, ...`; 2013 subtask 1: `pid, pos, ...`), matched by pid. "
            "The SIGHAN test set as you hold it works too: its test input (`(pid=ID)<TAB>sentence`) in Sources, its truth lines in "
            "References and your corrected sentences in Predictions (their edits are written as the jar's label lines under the "
            "test input's pids). A file holds the same. Preloaded: the SIGHAN15 toy result's outcomes on ten SIGHAN15 test sentences "
            "(the figures of `SIGHAN15_Toy_Evaluation.txt`). With a parser, each Predictions line is a chat model's reply, read by it "
            "(the table shows the sentences read; replies it cannot read are reported). Predictions B: a second system's output, "
            f"tested against the first by a paired bootstrap ({page.PAIRED['n_resamples']:,} resamples, seed {page.PAIRED['seed']}).\n\n" + LIMITS
        )
        table = gr.HTML(elem_id="per-sentence")
        result = page.raw_json()
    page.card_tab(HERE)
    page.tool(csc_sighan)
    # predictions first: the contract's first input
    shown_inputs = [predictions, sources, references, version, correction_match, length_mismatch, zero_division, parse]  # show()'s, the contract of /compute
    shown_outputs = [result, headline, signature, figures, table]
    page.connect(
        demo,
        button,
        respond,
        [*shown_inputs, predictions_b, *(files[name][0] for name in ("sources", "references", "predictions"))],
        [*shown_outputs, comparison, downloads, command_line],
        api=(show, shown_inputs, shown_outputs),
        files={**files, **files_b},
        reader=upload,
    )

if __name__ == "__main__":
    demo.launch(**page.launch_options(SESSIONS))
