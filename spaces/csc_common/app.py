"""Gradio demo of csc_common: source, reference and predicted sentences in; every paper
convention side by side, and each sentence's edits with how the conventions count it.
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
metric = evaluate.load(str(HERE / "csc_common.py"), keep_in_memory=True)
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

VARIANTS = ["realise", "scope", "spellgcn", "plome", "craspell", "pointer", "faspell", "faspell_nonstrict", "cscd_ns", "pycorrector", "paddle", "lemon", "cllm", "simple_csc", "msllm"]
# Eight sentences where the conventions part ways (source, reference, prediction).
MIXED = [
    ("他門很好", "他們很好", "他們很好"),  # corrected
    ("我門走吧", "我們走吧", "我悶走吧"),  # right position, wrong character
    ("吃了早菜", "吃了早餐", "吃乐早菜"),  # wrong position
    ("今天很熱", "今天很熱", "今天很熟"),  # false alarm on an error-free sentence
    ("我很高興", "我很高興", "我很高興"),  # left alone
    ("我门去公圆", "我们去公园", "我们去公圆"),  # one of two errors found
    ("身體建康", "身體健康", "身體建康"),  # an error left untouched
    ("我门去公圆", "我们去公园", "我园去公们"),  # right positions, characters swapped
]
EXAMPLE = dict(
    predictions="\n".join(p for _, _, p in MIXED),
    sources="\n".join(s for s, _, _ in MIXED),
    references="\n".join(r for _, r, _ in MIXED),
    variant="all",
    char_subset="preset",
    length_mismatch="preset",
    remove_de=False,
    zero_division="0",
    parse=NO_PARSER,
)
# Stated on the page and checked before any work, in sentences (the standard test sets go
# through: SIGHAN15 has 1,100 sentences of at most 124 characters); the alignment is
# quadratic in a sentence's length, so a sentence is bounded too.
MAX_SENTENCES = 5_000
MAX_SENTENCE_CHARACTERS = 300
LIMITS = (
    f"Limits: at most {MAX_SENTENCES:,} sentences in each box, {MAX_SENTENCE_CHARACTERS:,} characters "
    f"in a sentence and files of {page.MAX_FILE_BYTES // 1_000_000} MB; for more, use the package or `paperscore csc`."
)
# Whose released evaluation code each variant follows, for the headline.
PROJECTS = dict(zip(VARIANTS, ["ReaLiSe", "SCOPE", "SpellGCN", "PLOME", "CRASpell", "Pointer Networks", "FASPell", "FASPell (non-strict)", "CSCD-NS", "pycorrector", "PaddleNLP", "LEMON", "C-LLM", "simple-csc", "MSLLM"], strict=True))


def sentence_lines(text):
    """One sentence per line; blank lines are ignored."""
    return [line.removesuffix("\r") for line in text.split("\n") if line.strip()]


def check_limits(**boxes):
    """A ValueError naming the box when a text is beyond the page's limits, or when the
    predictions or references box is empty (Sources may be: label lines)."""
    for name, text in boxes.items():
        lines = sentence_lines(text)
        if not lines and name != "sources":
            raise ValueError(f"{name}: the box is empty (one sentence, or one label line, per line)")
        if len(lines) > MAX_SENTENCES:
            raise ValueError(f"{name}: {len(lines):,} sentences, more than the {MAX_SENTENCES:,} this page takes")
        for number, line in enumerate(lines, 1):
            if len(line) > MAX_SENTENCE_CHARACTERS:
                raise ValueError(f"{name}: sentence {number} has {len(line):,} characters, more than the {MAX_SENTENCE_CHARACTERS:,} this page takes")


def compute_kwargs(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    """The metric's keyword arguments for the demo's inputs."""
    kwargs = dict(
        predictions=sentence_lines(predictions),
        sources=sentence_lines(sources) or None,  # an empty box: label lines
        references=sentence_lines(references),
        variant=variant,
        char_subset=None if char_subset == "preset" else char_subset,
        length_mismatch=None if length_mismatch == "preset" else length_mismatch,
        remove_de=bool(remove_de),
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    return page.read_replies(kwargs, predictions, parse, PARSERS)


def headline(result, variant):
    """A single variant's every figure; for "all", realise's (the default) and each other
    convention's headline (sentence correction F1, or character correction F1 where there
    is no sentence level)."""
    if variant != "all":
        return {key: value for key, value in result.items() if isinstance(value, float)}
    out = {key: value for key, value in result.items() if key.startswith("realise/") and isinstance(value, float)}
    for name in VARIANTS[1:]:
        key = f"{name}/sentence_correction_f1" if f"{name}/sentence_correction_f1" in result else f"{name}/char_correction_f1"
        if key in result:  # label lines: the LLM presets need sentences
            out[key] = result[key]
    return out


def side_by_side(result, variant):
    names = [name for name in VARIANTS if any(key.startswith(f"{name}/") for key in result)] if variant == "all" else [variant]
    figures = list(dict.fromkeys(k.split("/")[-1] for k, v in result.items() if isinstance(v, float)))
    figures.sort(key=lambda name: not name.startswith("sentence"))

    def cell(name, figure):
        value = result.get(f"{name}/{figure}" if variant == "all" else figure)
        return "" if value is None else round(value, 4)

    return {"headers": ["figure"] + names, "data": [[figure] + [cell(name, figure) for name in names] for figure in figures]}


def marked(text, marks):
    """The sentence with the characters at the 1-based positions of `marks` highlighted
    (position 0: the whole sentence, a length-changed one)."""
    if 0 in marks:
        return page.mark(text, marks[0])
    return "".join(f"<b>{page.mark(c, marks[i])}</b>" if i in marks else html.escape(c) for i, c in enumerate(text, 1))


def sentence_table(kwargs, result, official):
    """Each sentence's edits and its sentence correction class: under the variant's count
    (for "all", the paper-common one of ReaLiSe) and, for "all", the official-style one of
    PaddleNLP, where a wrong answer on an erroneous sentence is only a false negative."""
    names = ["#", "source", "reference", "prediction", "predicted edits", "at gold positions"]
    counts = [(f"{kwargs['variant'] if kwargs['variant'] != 'all' else 'realise'}", result)] + ([("paddle", official)] if official else [])
    counts = [(name, r["sentence_correction_classes"]) for name, r in counts if "sentence_correction_classes" in r]
    rows = []
    labels = kwargs["sources"] is None  # label lines: the lines as they are, nothing to highlight
    sources = [""] * len(kwargs["predictions"]) if labels else kwargs["sources"]
    columns = zip(sources, kwargs["references"], kwargs["predictions"], result["reference_edits"], result["predicted_edits"])
    for number, (source, reference, prediction, gold, predicted) in enumerate(columns, 1):
        gold_chars = dict(map(tuple, gold))
        prediction_marks = {p: "right" if gold_chars.get(p) == c else "wrong-char" if p in gold_chars else "wrong-place" for p, c in predicted}
        cells = [
            str(number),
            marked(source, {p: "source" for p in gold_chars.keys() | prediction_marks.keys()}),
            marked(reference, {} if labels else dict.fromkeys(gold_chars, "gold")),
            marked(prediction, {} if labels else prediction_marks),
            html.escape(", ".join(f"{p} {c}" for p, c in predicted)),
            str(sum(p in gold_chars for p, _ in predicted)),
        ] + [page.badge(classes[number - 1]) for _, classes in counts]
        rows.append(cells)
    legend = page.legend({"right": "right", "wrong-char": "wrong char", "wrong-place": "wrong place"})
    headers = names + [f"sentence correction ({name})" for name, _ in counts]
    return f"<p>Predicted edits: {legend}</p>" + page.table(headers, rows, first=page.FIRST_ROWS, escape=False)


def score(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    try:
        check_limits(predictions=predictions, sources=sources, references=references)
        kwargs = compute_kwargs(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse)
        # each request on its own empty metric: one request cannot affect another
        result = metric.fresh().compute(**kwargs, per_sentence=True, return_signature=True)
        official = None
        if variant == "all":  # the official-style classes beside the paper-common ones
            official = metric.fresh().compute(**{**kwargs, "variant": "paddle", "char_subset": None}, per_sentence=True)
    except ValueError as error:
        page.fail(error, "sentence")
    top = headline(result, variant)
    if "parse" in kwargs:  # the report, and the table shows the sentences read
        top.update(parse_failures=result["parse_failures"], parse_failure_examples=result["parse_failure_examples"])
        kwargs["predictions"] = parsing.parse(kwargs["predictions"], parse)[0]
    top["signature"] = result["signature"]
    return top, side_by_side(result, variant), sentence_table(kwargs, result, official)


def headline_figure(top, variant):
    """(key, value, paper) of the figure a visitor came for: the variant's sentence
    correction F1 (for "all", ReaLiSe's), or its character one where it has no sentence level."""
    name = "realise" if variant == "all" else variant
    prefix = "realise/" if variant == "all" else ""
    key = next(k for k in (f"{prefix}sentence_correction_f1", f"{prefix}char_correction_f1") if k in top)
    return key, top[key], f"{PROJECTS.get(name, name)}'s released evaluation code"


def upload(path, argument):
    """A file of sentences, an official test input (`(pid=ID)<TAB>sentence`: the sentences)
    or label lines, read as the command line reads its sources, one line each in the box."""
    return "\n".join(csc.read_sources(page.upload_path(path, argument), argument)[1])


def show(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    """The page: the raw figures, the headline, the signature, the parser's report and
    every figure side by side, and the per-sentence table."""
    top, table, details = score(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse)
    key, value, paper = headline_figure(top, variant)
    rows = [[figure, *map(page.figure, rest)] for figure, *rest in table["data"]]
    return top, page.headline(key, value, paper), top["signature"], page.parse_report(top, "sentence") + page.table(table["headers"], rows), details


with gr.Blocks(title="csc_common") as demo:
    with gr.Tab("Demo"):
        gr.Markdown(
            "# csc_common\n"
            "Chinese spelling check scored as papers score it: each column is one project's released evaluation code "
            "(ReaLiSe, SCOPE, SpellGCN, PLOME, CRASpell, Pointer Networks, FASPell, CSCD-NS, pycorrector, PaddleNLP, LEMON; "
            "for LLM correctors C-LLM, simple-csc and MSLLM, which read every sentence in their own way). "
            "One sentence per line, the three boxes in the same order; an edit is a position where a sentence differs "
            "from its source. A file holds the same (or an official test input, `(pid=ID)<TAB>sentence`). "
            "Preloaded: eight sentences on which the conventions disagree. For the official SIGHAN "
            "figures see the `csc_sighan` Space. Predictions of another length than their source (an LLM corrector's): "
            "`length_mismatch` = `align` reads insertions and deletions as edits. With a parser, each Predictions line is a chat "
            "model's reply, read by it (the table shows the sentences read; replies it cannot read are reported).\n\n" + LIMITS
        )
        with gr.Row():
            sources = gr.Textbox(value=EXAMPLE["sources"], label="Sources (input sentences)", lines=8, max_lines=10, elem_id="sources")
            references = gr.Textbox(value=EXAMPLE["references"], label="References (gold corrections)", lines=8, max_lines=10, elem_id="references")
            predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions (system output)", lines=8, max_lines=10, elem_id="predictions")
        page.uploads({"sources": sources, "references": references, "predictions": predictions}, upload, [".txt", ".tsv"], "sentences or label lines")
        with gr.Row():
            variant = gr.Dropdown(["all"] + VARIANTS, value=EXAMPLE["variant"], label="variant (all: side by side)")
            char_subset = gr.Dropdown(["preset", "all", "erroneous"], value=EXAMPLE["char_subset"], label="char_subset")
            length_mismatch = gr.Dropdown(["preset", "error", "truncate", "whole", "align"], value=EXAMPLE["length_mismatch"], label="length_mismatch")
            remove_de = gr.Checkbox(value=EXAMPLE["remove_de"], label="remove_de (SIGHAN13 地/得)")
            zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division")
            parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (Predictions: a chat model's replies, one a line)", elem_id="parse")
        page.csc_reply_examples(dict(sources=sources, references=references, predictions=predictions, length_mismatch=length_mismatch, parse=parse))
        button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
        headline_box, signature, table = page.outputs()
        details = gr.HTML(elem_id="per-sentence")
        result = page.raw_json()
    page.card_tab(HERE)
    # predictions first: the contract's first input
    page.connect(
        demo,
        button,
        show,
        [predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse],
        [result, headline_box, signature, table, details],
    )

if __name__ == "__main__":
    demo.launch(max_file_size=page.MAX_FILE_BYTES, state_session_capacity=SESSIONS)
