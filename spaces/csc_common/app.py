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
compare = page.compare_module(metric)
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
LIMITS = (
    f"**Limits:** at most {page.CSC_SENTENCES:,} sentences in each box, {page.CSC_CHARACTERS:,} characters "
    f"in a sentence, {page.limits()}; for more, use the package or `paperscore csc`."
)
# Whose released evaluation code each variant follows, for the headline.
PROJECTS = dict(zip(VARIANTS, ["ReaLiSe", "SCOPE", "SpellGCN", "PLOME", "CRASpell", "Pointer Networks", "FASPell", "FASPell (non-strict)", "CSCD-NS", "pycorrector", "PaddleNLP", "LEMON", "C-LLM", "simple-csc", "MSLLM"], strict=True))


sentence_lines = page.sentence_lines


def check_limits(**boxes):
    """A ValueError naming the box when a text is beyond the page's limits or no list of
    sentences or label lines, or when the predictions or references box is empty (Sources
    may be: label lines)."""
    for name, text in boxes.items():
        if not sentence_lines(text) and name != "sources":
            raise ValueError(f"{name}: the box is empty (one sentence, or one label line, per line)")
        page.check_csc_box(text, name)


def compute_kwargs(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    """The metric's keyword arguments for the demo's inputs (an empty Sources box, or the
    SIGHAN test set as a visitor holds it: label lines, page.csc_corpora)."""
    lines = dict(predictions=sentence_lines(predictions), sources=sentence_lines(sources), references=sentence_lines(references))
    if parse != NO_PARSER and lines["sources"] and page.label_lines(lines["references"]):
        raise ValueError("parse: a parser reads replies into sentences, scored against reference sentences: give them in References (or choose parser none)")
    mismatch = None if length_mismatch == "preset" else length_mismatch
    kwargs = dict(
        **page.csc_corpora(csc, **lines, length_mismatch=mismatch or "error"),
        variant=variant,
        char_subset=None if char_subset == "preset" else char_subset,
        length_mismatch=mismatch,
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


def sentence_rows(kwargs, result, official):
    """(headers, rows) of the per-sentence table as plain text (the CSV download): each
    sentence's edits and its sentence correction class under the variant's count (for
    "all", the paper-common one of ReaLiSe) and, for "all", the official-style one of
    PaddleNLP, where a wrong answer on an erroneous sentence is only a false negative."""
    counts = [(f"{kwargs['variant'] if kwargs['variant'] != 'all' else 'realise'}", result)] + ([("paddle", official)] if official else [])
    counts = [(name, r["sentence_correction_classes"]) for name, r in counts if "sentence_correction_classes" in r]
    headers = ["#", "source", "reference", "prediction", "predicted edits", "at gold positions"] + [f"sentence correction ({name})" for name, _ in counts]
    sources = [""] * len(kwargs["predictions"]) if kwargs["sources"] is None else kwargs["sources"]  # label lines: no sources
    columns = zip(sources, kwargs["references"], kwargs["predictions"], result["reference_edits"], result["predicted_edits"])
    rows = []
    for number, (source, reference, prediction, gold, predicted) in enumerate(columns, 1):
        gold_positions = {p for p, _ in gold}
        edits = ", ".join(f"{p} {c}" for p, c in predicted)
        rows.append([number, source, reference, prediction, edits, sum(p in gold_positions for p, _ in predicted), *(classes[number - 1] for _, classes in counts)])
    return headers, rows


def sentence_table(kwargs, result, official):
    """The per-sentence table on the page: with sources, each sentence's edits highlighted;
    the classes as badges."""
    headers, rows = sentence_rows(kwargs, result, official)
    labels = kwargs["sources"] is None  # label lines: the lines as they are, nothing to highlight
    drawn = []
    for row, gold, predicted in zip(rows, result["reference_edits"], result["predicted_edits"]):
        number, source, reference, prediction, edits, hits, *classes = row
        gold_chars = dict(map(tuple, gold))
        prediction_marks = {p: "right" if gold_chars.get(p) == c else "wrong-char" if p in gold_chars else "wrong-place" for p, c in predicted}
        drawn.append([
            str(number),
            marked(source, {p: "source" for p in gold_chars.keys() | prediction_marks.keys()}),
            marked(reference, {} if labels else dict.fromkeys(gold_chars, "gold")),
            marked(prediction, {} if labels else prediction_marks),
            html.escape(edits),
            str(hits),
            *map(page.badge, classes),
        ])  # fmt: skip
    legend = page.legend({"right": "right", "wrong-char": "wrong char", "wrong-place": "wrong place"})
    return f"<p>Predicted edits: {legend}</p>" + page.table(headers, drawn, first=page.FIRST_ROWS, escape=False)


def scored(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    """(the metric's keyword arguments, its result with each sentence's edits, for "all"
    PaddleNLP's per-sentence classes), or the page's error."""
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
    return kwargs, result, official


def summary(kwargs, result, official):
    """(the headline figures, every figure side by side, the per-sentence kwargs): with a
    parser, its report, and the sentences it read for the table."""
    top = headline(result, kwargs["variant"])
    shown = dict(kwargs)
    if "parse" in kwargs:  # the report, and the table shows the sentences read
        top.update(parse_failures=result["parse_failures"], parse_failure_examples=result["parse_failure_examples"])
        shown["predictions"] = parsing.parse(kwargs["predictions"], kwargs["parse"])[0]
    top["signature"] = result["signature"]
    return top, side_by_side(result, kwargs["variant"]), shown


def score(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    kwargs, result, official = scored(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse)
    top, table, shown = summary(kwargs, result, official)
    return top, table, sentence_table(shown, result, official)


def headline_figure(top, variant):
    """(key, value, paper) of the figure a visitor came for: the variant's sentence
    correction F1 (for "all", ReaLiSe's), or its character one where it has no sentence level."""
    name = "realise" if variant == "all" else variant
    prefix = "realise/" if variant == "all" else ""
    key = next(k for k in (f"{prefix}sentence_correction_f1", f"{prefix}char_correction_f1") if k in top)
    return key, top[key], f"{PROJECTS.get(name, name)}'s released evaluation code"


def upload(path, argument):
    """A file of sentences, an official test input (`(pid=ID)<TAB>sentence`, kept whole:
    its pids name the sentences) or label lines, one line each in the box."""
    return page.read_csc_upload(path, argument)


def draw(top, table, details, variant):
    key, value, paper = headline_figure(top, variant)
    rows = [[figure, *map(page.figure, rest)] for figure, *rest in table["data"]]
    return top, page.headline(key, value, paper), top["signature"], page.parse_report(top, "sentence") + page.table(table["headers"], rows), details


def show(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER):
    """The page: the raw figures, the headline, the signature, the parser's report and
    every figure side by side, and the per-sentence table."""
    return draw(*score(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse), variant)


def command(kwargs, names, parse):
    """(the words of the `paperscore csc` command giving the page's numbers, {file name:
    lines} of the files it reads)."""
    boxes = ("predictions", "references") if kwargs["sources"] is None else ("sources", "predictions", "references")
    words = ["paperscore", "csc", *(word for name in boxes for word in (f"--{name}", names[name])), "--variant", kwargs["variant"]]
    words += [word for option in ("char_subset", "length_mismatch") if kwargs[option] for word in (f"--{option.replace('_', '-')}", kwargs[option])]
    words += (["--remove-de"] if kwargs["remove_de"] else []) + ["--zero-division", page.number(kwargs["zero_division"])]
    words += ["--parse", parse] if parse != NO_PARSER else []
    return words, {names[name]: kwargs[name] for name in boxes}


# The standard set the Space holds (data/README.md: its terms): the SIGHAN15 test input in
# Sources, its truth's edits applied to it in References (csc_common scores sentences).
DATA = HERE / "data"
SIGHAN15 = ("SIGHAN15_CSC_TestInput.txt", "SIGHAN15_CSC_TestTruth.txt")


def sighan15():
    """{box: text} of the SIGHAN15 test set: its test input, and its corrected sentences."""
    pids, sentences = csc.read_sources(str(DATA / SIGHAN15[0]))
    truth_pids, edits = csc.parse_label_lines(csc.read_lines(str(DATA / SIGHAN15[1]), "references"), "references")
    corrected = csc.apply_edits(sentences, csc.align_pids(pids, truth_pids, edits, argument="references"))
    return {"sources": upload(DATA / SIGHAN15[0], "sources"), "references": "\n".join(corrected)}


SETS = {"SIGHAN 2015 test (1,100 sentences): its test input, and its truth's corrections as sentences": sighan15()}
# The held files as the boxes show them: {text: file name} (the corrected sentences: a file of the command's).
HELD = {text: {"sources": SIGHAN15[0], "references": "SIGHAN15_CSC_TestTruth.sentences.txt"}[box] for texts in SETS.values() for box, text in texts.items()}


def respond(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse=NO_PARSER, predictions_b="", sources_file=None, references_file=None, predictions_file=None):
    """The page: show()'s outputs, then system B's paired test (when given, under the
    variant's headline; for "all", ReaLiSe's), the downloads and the command."""
    kwargs, result, official = scored(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse)
    top, table, shown = summary(kwargs, result, official)
    comparison = ""
    if predictions_b.strip():

        def read_b():
            check_limits(predictions_b=predictions_b)
            return compute_kwargs(predictions_b, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse)["predictions"]

        chosen = {**kwargs, "variant": "realise"} if variant == "all" else kwargs
        comparison = page.system_b(read_b, compare, "csc_common", chosen, headline_figure(top, variant)[0].split("/")[-1], "sentence")
    texts = dict(sources=sources, references=references, predictions=predictions)
    uploads = dict(sources=sources_file, references=references_file, predictions=predictions_file)
    names = page.file_names(texts, uploads, upload, HELD)
    if parse == NO_PARSER and kwargs["predictions"] != page.test_input(csc, sentence_lines(predictions))[1]:  # sentences written as label lines
        names["predictions"] = f"{Path(names['predictions']).stem}.labels.txt"
    words, files = command(kwargs, names, parse)
    take_home = page.downloads("csc_common", *sentence_rows(shown, result, official), files)
    return (*draw(top, table, sentence_table(shown, result, official), variant), comparison, take_home, page.command(words))


def csc_common(predictions: str, references: str, sources: str = "", variant: str = "all", char_subset: str = "preset", length_mismatch: str = "preset", remove_de: bool = False, zero_division: str = "0", parse: str = NO_PARSER) -> str:
    """Score a Chinese spelling check system as papers do: each variant is one project's released evaluation code (ReaLiSe, SCOPE, SpellGCN, PLOME, CRASpell, PaddleNLP, pycorrector, LLM correctors' ...), "all" every one side by side.

    Args:
        predictions: The system's corrected sentences, one per line; or, with sources empty, label lines (`pid, 0` or `pid, pos, char, ...`).
        references: The gold corrected sentences, one per line; or the truth's label lines.
        sources: The input sentences, one per line, or the official test input (`(pid=ID)<TAB>sentence`); empty when both sides are label lines.
        variant: "all", or one of realise, scope, spellgcn, plome, craspell, pointer, faspell, faspell_nonstrict, cscd_ns, pycorrector, paddle, lemon, cllm, simple_csc, msllm.
        char_subset: "preset", "all" or "erroneous": the sentences the character level counts.
        length_mismatch: "preset", "error", "truncate", "whole" or "align": a sentence of another length than its source.
        remove_de: Drop predicted edits into 地/得 (ReaLiSe's SIGHAN13 post-processing).
        zero_division: The value of a 0/0 ratio: "0", "1" or "nan".
        parse: "none: sentences", or the name of a parser reading a chat model's replies (one a line) into sentences: csc_reply, ...

    Returns:
        The result as JSON: compute()'s figures (floats in [0, 1]; for "all", each prefixed `<variant>/`) and the signature to report beside them.
    """
    kwargs, result, _ = scored(predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse)
    return page.as_json({key: value for key, value in result.items() if not isinstance(value, list)})


with gr.Blocks(title="csc_common", delete_cache=page.DELETE_CACHE) as demo:
    with gr.Tab("Demo"):
        gr.Markdown("# csc_common\nChinese spelling check scored as each paper's released code scores it, side by side (details and limits below).")
        with page.main():
            with page.part("inputs"):
                with gr.Row():
                    sources = gr.Textbox(value=EXAMPLE["sources"], label="Sources", placeholder="input sentences, one a line, or the test input (empty: label lines)", elem_id="sources", **page.BOX)
                    references = gr.Textbox(value=EXAMPLE["references"], label="References", placeholder="gold sentences (or label lines)", elem_id="references", **page.BOX)
                    predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions", placeholder="the system's sentences (or label lines)", elem_id="predictions", **page.BOX)
                files = page.uploads({"sources": sources, "references": references, "predictions": predictions})
                button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
            with page.part("results"):
                headline_box, signature, table = page.outputs()
                comparison, downloads, command_line = page.take_home()
            with page.part("options"):
                with gr.Row():
                    variant = gr.Dropdown(["all"] + VARIANTS, value=EXAMPLE["variant"], label="variant (all: side by side)", min_width=160)
                    char_subset = gr.Dropdown(["preset", "all", "erroneous"], value=EXAMPLE["char_subset"], label="char_subset", min_width=160)
                    length_mismatch = gr.Dropdown(["preset", "error", "truncate", "whole", "align"], value=EXAMPLE["length_mismatch"], label="length_mismatch", min_width=160)
                with gr.Row():  # three a row: a checkbox takes no min_width, only a row's share
                    remove_de = gr.Checkbox(value=EXAMPLE["remove_de"], label="remove_de (SIGHAN13 地/得)", min_width=160)
                    zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division", min_width=160)
                    parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (Predictions: a chat model's replies, one a line)", elem_id="parse", min_width=160)
                page.standard_sets(
                    {name: {sources: texts["sources"], references: texts["references"]} for name, texts in SETS.items()},
                    "The official release's test input and truth (data/ of this Space, with their terms): put your system's sentences in Predictions.",
                )
                predictions_b = page.second_system("output")
                files_b = page.uploads({"predictions_b": predictions_b})
                page.csc_reply_examples(dict(sources=sources, references=references, predictions=predictions, length_mismatch=length_mismatch, parse=parse))
        gr.Markdown(
            "Each column is one project's released evaluation code "
            "(ReaLiSe, SCOPE, SpellGCN, PLOME, CRASpell, Pointer Networks, FASPell, CSCD-NS, pycorrector, PaddleNLP, LEMON; "
            "for LLM correctors C-LLM, simple-csc and MSLLM, which read every sentence in their own way). "
            "One sentence per line, the three boxes in the same order; an edit is a position where a sentence differs "
            "from its source. A file holds the same (or an official test input, `(pid=ID)<TAB>sentence`); with Sources empty, "
            "label lines (`pid, 0` or `pid, pos, char, ...`). The SIGHAN test input in Sources with its truth's label lines in "
            "References and your sentences in Predictions is read as label lines. "
            "Preloaded: eight sentences on which the conventions disagree. For the official SIGHAN "
            "figures see the `csc_sighan` Space. Predictions of another length than their source (an LLM corrector's): "
            "`length_mismatch` = `align` reads insertions and deletions as edits. With a parser, each Predictions line is a chat "
            "model's reply, read by it (the table shows the sentences read; replies it cannot read are reported). Predictions B: "
            f"a second system, tested against the first by a paired bootstrap ({page.PAIRED['n_resamples']:,} resamples, seed "
            f"{page.PAIRED['seed']}) on the headline's figure.\n\n" + LIMITS
        )
        details = gr.HTML(elem_id="per-sentence")
        result = page.raw_json()
    page.card_tab(HERE)
    page.tool(csc_common)
    # predictions first: the contract's first input
    shown_inputs = [predictions, sources, references, variant, char_subset, length_mismatch, remove_de, zero_division, parse]  # show()'s, the contract of /compute
    shown_outputs = [result, headline_box, signature, table, details]
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
