"""Gradio demo of rationale_f1: texts with gold and predicted token selections in; the
numbers, a per-example table and the text highlighted token by token as TP / FP / FN
out. Builds `demo` on import; launches only as a script."""

import html
import importlib
import json
import os
import re
import sys
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import evaluate  # noqa: E402
import gradio as gr  # noqa: E402

HERE = Path(__file__).resolve().parent
# By file path: on a Space the directory is `app/`, and evaluate would take app.py for the metric.
metric = evaluate.load(str(HERE / "rationale_f1.py"), keep_in_memory=True)
sys.path.insert(0, str(HERE))  # the page helpers vendored beside app.py (a Space runs it from there)
import paperscore_demo as page  # noqa: E402

sys.path.remove(str(HERE))
# The policies placing a model reply's quotes on the tokens (the metric's vendored package).
package = type(metric).__module__.rpartition(".")[0]
parsing = importlib.import_module(package + ".paperscore_parse")
faithfulness = importlib.import_module(package + ".paperscore_faithfulness")
NO_PARSER = "none (predictions are selections)"
rationale = importlib.import_module(package + ".paperscore_rationale")
PARSERS = [NO_PARSER, *rationale.RATIONALE_PARSERS]
compare = page.compare_module(metric)

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
    top_k_ratio="",
)
# One generative example: an LLM's replies quoting the texts (one reply a line; a reply of
# several lines as a JSON string), placed on the tokens by a policy.
LLM_EXAMPLE = dict(
    predictions='["hazy golden", "Thick white head"]\n"- citrus\\n- oak"\n[]',
    parse="quotes_normalized",
)
HEADLINE = (
    "precision", "recall", "f1", "sparsity", "micro_f1", "macro_f1",
    "example_precision", "example_recall", "example_f1", "iou_f1",
    "iou_micro_precision", "iou_micro_recall", "iou_micro_f1", "auprc",
)  # fmt: skip
# Limits, stated on the page, in tokens (the project's 200-example sample holds 16,000):
# the scoring and the highlighted text grow with them.
MAX_TOKENS = 200_000
# With a parser, the replies are text matched against the tokens: bounded in characters
# (quotes_exact placed 8,000 quotes on one 2,000-token text in 9 s). quotes_fuzzy measures
# a quote against every run of its text, a cell for each character of the text times
# the quote's length squared: 20,000 characters of quotes on 100 texts took 78 s.
MAX_REPLY_CHARACTERS = 50_000
MAX_FUZZY_CELLS = 20_000_000
# The figure a visitor came for: the rationale class's token F1 over corpus sums.
HEADLINE_FIGURE = ("f1", "DMR (Huang et al., 2021) and FR: token F1 of the rationale class over corpus sums")
# ERASER's faithfulness section: its results JSONL in (the first three lines of the
# project's sample, tests/data/rationale_eraser/movies_sample.a.jsonl), the numbers of its
# score_classifications out, AOPC at each threshold and a row per result line.
FAITHFULNESS_EXAMPLE = dict(
    results="\n".join([
        "{\"annotation_id\": \"negR_900.txt\", \"rationales\": [{\"docid\": \"negR_900.txt\", \"hard_rationale_predictions\": [{\"start_token\": 510, \"end_token\": 519}, {\"start_token\": 550, \"end_token\": 553}, {\"start_token\": 630, \"end_token\": 641}]}], \"classification\": \"NEG\", \"classification_scores\": {\"NEG\": 0.9607, \"POS\": 0.0393}, \"comprehensiveness_classification_scores\": {\"NEG\": 0.528, \"POS\": 0.472}, \"sufficiency_classification_scores\": {\"NEG\": 0.9189, \"POS\": 0.0811}, \"thresholded_scores\": [{\"threshold\": 0.01, \"comprehensiveness_classification_scores\": {\"NEG\": 0.8574, \"POS\": 0.1426}, \"sufficiency_classification_scores\": {\"NEG\": 0.6346, \"POS\": 0.3654}}, {\"threshold\": 0.05, \"comprehensiveness_classification_scores\": {\"NEG\": 0.8177, \"POS\": 0.1823}, \"sufficiency_classification_scores\": {\"NEG\": 0.7563, \"POS\": 0.2437}}, {\"threshold\": 0.1, \"comprehensiveness_classification_scores\": {\"NEG\": 0.8082, \"POS\": 0.1918}, \"sufficiency_classification_scores\": {\"NEG\": 0.6885, \"POS\": 0.3115}}, {\"threshold\": 0.2, \"comprehensiveness_classification_scores\": {\"NEG\": 0.6808, \"POS\": 0.3192}, \"sufficiency_classification_scores\": {\"NEG\": 0.7543, \"POS\": 0.2457}}, {\"threshold\": 0.5, \"comprehensiveness_classification_scores\": {\"NEG\": 0.342, \"POS\": 0.658}, \"sufficiency_classification_scores\": {\"NEG\": 0.9607, \"POS\": 0.0393}}]}",
        "{\"annotation_id\": \"posR_901.txt\", \"rationales\": [{\"docid\": \"posR_901.txt\", \"hard_rationale_predictions\": [{\"start_token\": 586, \"end_token\": 590}, {\"start_token\": 626, \"end_token\": 636}, {\"start_token\": 706, \"end_token\": 711}]}], \"classification\": \"POS\", \"classification_scores\": {\"NEG\": 0.1552, \"POS\": 0.8448}, \"comprehensiveness_classification_scores\": {\"NEG\": 0.5343, \"POS\": 0.4657}, \"sufficiency_classification_scores\": {\"NEG\": 0.258, \"POS\": 0.742}, \"thresholded_scores\": [{\"threshold\": 0.01, \"comprehensiveness_classification_scores\": {\"NEG\": 0.1708, \"POS\": 0.8292}, \"sufficiency_classification_scores\": {\"NEG\": 0.425, \"POS\": 0.575}}, {\"threshold\": 0.05, \"comprehensiveness_classification_scores\": {\"NEG\": 0.2325, \"POS\": 0.7675}, \"sufficiency_classification_scores\": {\"NEG\": 0.3594, \"POS\": 0.6406}}, {\"threshold\": 0.1, \"comprehensiveness_classification_scores\": {\"NEG\": 0.3627, \"POS\": 0.6373}, \"sufficiency_classification_scores\": {\"NEG\": 0.4252, \"POS\": 0.5748}}, {\"threshold\": 0.2, \"comprehensiveness_classification_scores\": {\"NEG\": 0.4877, \"POS\": 0.5123}, \"sufficiency_classification_scores\": {\"NEG\": 0.4343, \"POS\": 0.5657}}, {\"threshold\": 0.5, \"comprehensiveness_classification_scores\": {\"NEG\": 0.7339, \"POS\": 0.2661}, \"sufficiency_classification_scores\": {\"NEG\": 0.1552, \"POS\": 0.8448}}]}",
        "{\"annotation_id\": \"negR_902.txt\", \"rationales\": [{\"docid\": \"negR_902.txt\", \"hard_rationale_predictions\": [{\"start_token\": 338, \"end_token\": 342}, {\"start_token\": 378, \"end_token\": 386}, {\"start_token\": 458, \"end_token\": 465}]}], \"classification\": \"NEG\", \"classification_scores\": {\"NEG\": 0.88, \"POS\": 0.12}, \"comprehensiveness_classification_scores\": {\"NEG\": 0.6431, \"POS\": 0.3569}, \"sufficiency_classification_scores\": {\"NEG\": 0.5588, \"POS\": 0.4412}, \"thresholded_scores\": [{\"threshold\": 0.01, \"comprehensiveness_classification_scores\": {\"NEG\": 0.8431, \"POS\": 0.1569}, \"sufficiency_classification_scores\": {\"NEG\": 0.6606, \"POS\": 0.3394}}, {\"threshold\": 0.05, \"comprehensiveness_classification_scores\": {\"NEG\": 0.7781, \"POS\": 0.2219}, \"sufficiency_classification_scores\": {\"NEG\": 0.4892, \"POS\": 0.5108}}, {\"threshold\": 0.1, \"comprehensiveness_classification_scores\": {\"NEG\": 0.7398, \"POS\": 0.2602}, \"sufficiency_classification_scores\": {\"NEG\": 0.7178, \"POS\": 0.2822}}, {\"threshold\": 0.2, \"comprehensiveness_classification_scores\": {\"NEG\": 0.6408, \"POS\": 0.3592}, \"sufficiency_classification_scores\": {\"NEG\": 0.7733, \"POS\": 0.2267}}, {\"threshold\": 0.5, \"comprehensiveness_classification_scores\": {\"NEG\": 0.278, \"POS\": 0.722}, \"sufficiency_classification_scores\": {\"NEG\": 0.88, \"POS\": 0.12}}]}",
    ]),
    aopc_thresholds="0.01, 0.05, 0.1, 0.2, 0.5",
)  # fmt: skip
FAITHFULNESS_FIGURE = ("comprehensiveness", "ERASER (DeYoung et al., 2020): mean p(ŷ | x) − p(ŷ | x without the rationale)")
# Results lines a request may hold (stated on the page; beyond it, the command line).
MAX_RESULTS = 20_000
# Gradio keeps a copy of the page's state for each visitor session, 10,000 sessions by
# default: under load that is gigabytes (532 MB -> 3.1 GB in 180 s with 50 clients). The
# demo keeps nothing between requests, so the 50 most recent sessions are plenty.
SESSIONS = 50


def _number(text, argument, line):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{argument}[{line}]: {text!r} is not a number") from None
    return int(value) if value.is_integer() else value


def parse_selections(text, argument):
    """One example per line: a 0/1 string ("0110"), numbers separated by spaces or
    commas ("0.1 0.9 0.4"), or a JSON list."""
    page.check_lines(text, argument, "example (0/1 selections, scores or a JSON list)", json_lines=True)
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
    tokens = sum(len(e) if isinstance(e, list) else 1 for e in examples)
    if tokens > MAX_TOKENS:
        raise ValueError(f"{argument}: {tokens:,} tokens; this demo takes at most {MAX_TOKENS:,} per box (use the package or the command line for more)")
    return examples


def parse_tokens(text, references):
    """Whitespace-separated tokens, one text per line and as many as its reference; with
    no text at all the tokens are shown by position."""
    lines = [row.split() for row in text.splitlines() if row.strip()]
    if not lines:
        return [[str(i) for i in range(len(reference))] for reference in references]
    if len(lines) != len(references):
        raise ValueError(f"tokens: {len(lines)} lines of text but {len(references)} references (texts of other examples? empty the Tokens box: it is optional)")
    for line, (words, reference) in enumerate(zip(lines, references)):
        if len(words) != len(reference):
            raise ValueError(f"tokens[{line}]: {len(words)} tokens but references[{line}] has {len(reference)}")
    return lines


def parse_replies(text):
    """One model reply per line; a line that is a JSON string is that string."""
    if len(text) > MAX_REPLY_CHARACTERS:
        raise ValueError(f"predictions: {len(text):,} characters of replies; this demo takes at most {MAX_REPLY_CHARACTERS:,} (use the package or the command line for more)")
    replies = []
    for row in text.splitlines():
        value = json.loads(row) if row.lstrip().startswith('"') and _is_json(row) else row
        replies.append(value if isinstance(value, str) else row)
    return replies


def check_fuzzy_work(replies, sources):
    """Refuse quotes_fuzzy on more work than the page's bound, before any matching: each
    quote costs its text's characters times its own length squared."""
    cells = sum(sum(map(len, words)) * sum(len(quote) ** 2 for quote in parsing.read_quotes(reply)[0]) for reply, words in zip(replies, sources))
    if cells > MAX_FUZZY_CELLS:
        raise ValueError(f"parse: quotes_fuzzy would measure {cells:,} cells here, more than the {MAX_FUZZY_CELLS:,} this page takes (fewer or shorter quotes, quotes_normalized, or the command line)")


def _is_json(row):
    try:
        json.loads(row)
    except (ValueError, RecursionError):
        return False
    return True


def parse_ratio(text):
    """A2R's top_k_ratio from its box: empty for none (the threshold selects)."""
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"top_k_ratio: {text!r:.40} is not a number (leave it empty to select by the threshold)") from None


def compute_kwargs(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER, top_k_ratio=""):
    """The metric's keyword arguments for the demo's inputs (the tokens only label them,
    unless a parser places the replies' quotes on them)."""
    page.check_size(predictions=predictions, references=references, tokens=tokens)
    page.check_lines(tokens, "tokens", "text", tabs=True)
    ratio = parse_ratio(top_k_ratio)
    if parse not in PARSERS:
        raise ValueError(f"parse: {parse!r} is not one of {', '.join(PARSERS)}")
    refs = parse_selections(references, "references")
    parse_tokens(tokens, refs)
    if parse == NO_PARSER:
        predicted, parsed = parse_selections(predictions, "predictions"), {}
    else:
        if not tokens.strip():
            raise ValueError("tokens: a parser places the replies' quotes on the tokens; give the texts, one a line")
        predicted = parse_replies(predictions)
        parsed = dict(parse=parse, sources=[row.split() for row in tokens.splitlines() if row.strip()])
        if parse == "quotes_fuzzy":
            check_fuzzy_work(predicted, parsed["sources"])
    return dict(
        predictions=predicted,
        references=refs,
        threshold_rule=threshold_rule,
        threshold=float(threshold),
        zero_division="nan" if zero_division == "nan" else float(zero_division),
        **parsed,
        **({} if ratio is None else {"top_k_ratio": ratio}),
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


def top_k_selections(predictions, references, ratio):
    """A2R's selections as 0/1 over each example's scored tokens (the package's own rule), to highlight."""
    values, _, lengths, widths = rationale.scored_tokens(predictions, references, widths=True)
    selected = rationale.select_top(values, lengths, widths, ratio).astype(int).tolist()
    ends = [int(end) for end in lengths.cumsum()]
    return [selected[end - length : end] for end, length in zip(ends, lengths.tolist())]


def scored(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER, top_k_ratio=""):
    """(the metric's keyword arguments, its result with each example's figures, the
    selections to highlight), or the page's error."""
    try:
        kwargs = compute_kwargs(predictions, references, tokens, threshold_rule, threshold, zero_division, parse, top_k_ratio)
        # a new metric per request: one visitor's batch never reaches another's
        result = metric.fresh().compute(**kwargs, per_example=True, return_signature=True)
        selected = kwargs["predictions"]
        if parse != NO_PARSER:  # the selections the quotes make, to highlight
            selected = parsing.parse_rationales(selected, kwargs["sources"], parse)[0]
        if "top_k_ratio" in kwargs:  # the tokens A2R's rule selects, to highlight
            selected = top_k_selections(selected, kwargs["references"], kwargs["top_k_ratio"])
    except ValueError as error:
        page.fail(error)
    except RecursionError:  # the last line of defence, as the command line's
        raise gr.Error("the input is nested too deeply to read", duration=None, print_exception=False) from None
    return kwargs, result, selected


def example_rows(result):
    """(headers, rows) of the per-example table, unrounded."""
    columns = ["tokens", "gold", "predicted", "tp", "precision", "recall", "f1", "gold_spans", "predicted_spans", "matched_spans"]
    columns += ["auprc"] if "auprc" in result else []
    return ["example"] + columns, [[i] + [row[c] for c in columns] for i, row in enumerate(result["per_example"], 1)]


def summary(kwargs, result, selected, tokens, threshold_rule, threshold):
    """(the headline figures, the tokens marked TP / FP / FN, the per-example table)."""
    headline = {key: result[key] for key in HEADLINE if key in result}
    headline.update({key: result[key] for key in ("parse_failures", "parse_failure_examples", "quotes", "unmatched_quotes") if key in result})
    headline["signature"] = result["signature"]
    marked = []
    for words, prediction, reference in zip(parse_tokens(tokens, kwargs["references"]), selected, kwargs["references"]):
        marked += list(highlight(words, prediction, reference, threshold_rule, float(threshold))) + [("\n", None)]
    headers, rows = example_rows(result)
    return headline, marked, {"headers": headers, "data": [[row[0]] + [round(v, 4) for v in row[1:]] for row in rows]}


def score(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER, top_k_ratio=""):
    kwargs, result, selected = scored(predictions, references, tokens, threshold_rule, threshold, zero_division, parse, top_k_ratio)
    return summary(kwargs, result, selected, tokens, threshold_rule, threshold)


def highlighted(marked):
    """The (token, class) pairs as text, one example a line numbered as the table, TP / FP /
    FN highlighted; the first examples drawn, the rest behind a "show"."""
    examples, words = [], []
    for word, kind in marked:
        if word == "\n":
            examples.append(f'<div class="ps-text"><b>{len(examples) + 1}</b> {"".join(words)}</div>')
            words = []
        else:
            words.append(page.mark(word, kind.lower()) if kind else html.escape(word))
    return page.blocks(examples)


def draw(headline, marked, table):
    key, paper = HEADLINE_FIGURE
    rows = [[number, *map(page.figure, rest)] for number, *rest in table["data"]]
    return (
        headline,
        page.headline(key, headline[key], paper),
        headline["signature"],
        page.parse_report(headline) + page.figures(headline, skip=(key, "signature", "parse_failures", "parse_failure_examples", "quotes", "unmatched_quotes")),
        highlighted(marked),
        page.table(table["headers"], rows, first=page.FIRST_ROWS),
    )


def show(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER, top_k_ratio=""):
    """The page: the raw figures, the headline, the signature, the parse report and the
    other figures, the highlighted text and the per-example table."""
    return draw(*score(predictions, references, tokens, threshold_rule, threshold, zero_division, parse, top_k_ratio))


def command(kwargs, names):
    """(the words of the `paperscore rationale` command giving the page's numbers, {file
    name: lines} of the files it reads: a JSON list a line; replies as JSON strings, and
    their source texts, with a parser)."""
    words = ["paperscore", "rationale", "--predictions", names["predictions"], "--references", names["references"]]
    words += ["--threshold", page.number(kwargs["threshold"]), "--threshold-rule", kwargs["threshold_rule"], "--zero-division", page.number(kwargs["zero_division"])]
    words += ["--top-k-ratio", page.number(kwargs["top_k_ratio"])] if "top_k_ratio" in kwargs else []
    files = {names[side]: [json.dumps(value, ensure_ascii=False) for value in kwargs[side]] for side in ("predictions", "references")}
    if "parse" in kwargs:
        words += ["--parse", kwargs["parse"], "--sources", names["tokens"]]
        files[names["tokens"]] = [" ".join(words_) for words_ in kwargs["sources"]]
    return words, files


# The sample the Space holds (data/README.md): 200 examples' gold selections.
DATA = HERE / "data"
SAMPLE = "sample.gold.jsonl"


def respond(predictions, references, tokens, threshold_rule, threshold, zero_division, parse=NO_PARSER, top_k_ratio="", predictions_b="", predictions_file=None, references_file=None):
    """The page: show()'s outputs, then system B's paired test (when given), the downloads
    (the per-example table, the files the command reads) and the command."""
    options = (threshold_rule, threshold, zero_division, parse, top_k_ratio)
    kwargs, result, selected = scored(predictions, references, tokens, *options)
    comparison = ""
    if predictions_b.strip():
        comparison = page.system_b(lambda: compute_kwargs(predictions_b, references, tokens, *options)["predictions"], compare, "rationale_f1", kwargs, HEADLINE_FIGURE[0])
    uploads, texts = dict(predictions=predictions_file, references=references_file), dict(predictions=predictions, references=references)
    names = page.file_names(texts, uploads, page.read_upload, {HELD: SAMPLE}, ".jsonl")
    words, files = command(kwargs, {**names, "tokens": "tokens.txt"})
    shown = draw(*summary(kwargs, result, selected, tokens, threshold_rule, threshold))
    return (*shown, comparison, page.downloads("rationale_f1", *example_rows(result), files), page.command(words))


def rationale_f1(predictions: str, references: str, tokens: str = "", threshold_rule: str = ">=", threshold: float = 0.5, zero_division: str = "0", parse: str = NO_PARSER, top_k_ratio: str = "") -> str:
    """Score token rationales (the tokens a model selects as its explanation): token precision, recall and F1 of the rationale class as DMR/FR report them, the true micro / macro F1, A2R/ERASER per-example means, ERASER's IOU F1 and AUPRC.

    Args:
        predictions: One example a line: 0/1 selections ("0110"), scores ("0.1 0.9 0.4") or a JSON list; with a parser, a model's reply quoting its text a line.
        references: The gold selections, one example a line (a JSON list; -100 marks padding).
        tokens: The texts, one a line, their tokens separated by spaces (optional; with a parser, where the quotes are placed).
        threshold_rule: ">=" (DMR) or ">" (FR/MGR/DAR): how a score at the threshold selects.
        threshold: The score at which a token is selected.
        zero_division: The value of a 0/0 ratio: "0", "1" or "nan".
        parse: "none (predictions are selections)", or how a reply's quotes are placed on the tokens: quotes_exact, quotes_normalized, quotes_fuzzy.
        top_k_ratio: A2R's selection instead of the threshold: each example's int(width x ratio) highest scores (empty: none).

    Returns:
        The result as JSON: compute()'s figures (floats in [0, 1]) and the signature to report beside them.
    """
    kwargs, result, _ = scored(predictions, references, tokens, threshold_rule, threshold, zero_division, parse, top_k_ratio)
    return page.as_json({key: value for key, value in result.items() if key != "per_example"})


def show_faithfulness(results, aopc_thresholds):
    """ERASER's faithfulness section: the headline (comprehensiveness), the signature, the
    other numbers, AOPC at each threshold and a row per result line."""
    try:
        thresholds = faithfulness.parse_thresholds(aopc_thresholds)
        lines = results.splitlines()
        if sum(1 for line in lines if line.strip()) > MAX_RESULTS:
            raise ValueError(f"results: more than {MAX_RESULTS:,} lines; this demo takes at most {MAX_RESULTS:,} (use the package or `paperscore faithfulness`)")
        result = faithfulness.compute_results(lines, thresholds, per_example=True)
    except ValueError as error:
        page.fail(error)
    except RecursionError:
        raise gr.Error("the input is nested too deeply to read", duration=None, print_exception=False) from None
    key, paper = FAITHFULNESS_FIGURE
    rows = [[f"{k:g}", page.figure(result["comprehensiveness_aopc_points"][i]), page.figure(result["sufficiency_aopc_points"][i])] for i, k in enumerate(result.get("aopc_thresholds", []))]
    aopc = page.table(["k (fraction of tokens)", "comprehensiveness", "sufficiency"], rows) if rows else "<p>No thresholded_scores in these results: no AOPC.</p>"
    columns = [c for c in ("comprehensiveness", "sufficiency", "comprehensiveness_aopc", "sufficiency_aopc") if c in result["per_example"][0]]
    examples = [[row["line"], row["annotation_id"], *(page.figure(row[c]) for c in columns)] for row in result["per_example"]]
    return (
        page.headline(key, result[key], paper),
        result["signature"],
        page.figures(result, skip=(key, "signature")),
        aopc,
        page.table(["line", "annotation_id", *columns], examples, first=page.FIRST_ROWS),
    )


HELD = page.read_upload(DATA / SAMPLE, "references")


with gr.Blocks(title="rationale_f1", delete_cache=page.DELETE_CACHE) as demo:
    with gr.Tab("Demo"):
        gr.Markdown("# rationale_f1\nToken rationales scored as DMR/FR, A2R and ERASER report them (details and limits below).")
        with page.main():
            with page.part("inputs"):
                with gr.Row():
                    predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predicted selections", placeholder="one example a line: 0110, scores or a JSON list", elem_id="predictions", **page.BOX)
                    references = gr.Textbox(value=EXAMPLE["references"], label="Gold selections", placeholder="one example a line (-100: padding)", elem_id="references", **page.BOX)
                files = page.uploads({"predictions": predictions, "references": references})
                button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
            with page.part("results"):
                headline, signature, figures = page.outputs()
                comparison, downloads, command_line = page.take_home()
            with page.part("options"):
                tokens = gr.Textbox(value=EXAMPLE["tokens"], label="Tokens (optional: the texts, one a line, split on spaces; emptied when a file is uploaded)", lines=3, max_lines=6, elem_id="tokens")
                with gr.Row():
                    threshold_rule = gr.Dropdown([">=", ">"], value=EXAMPLE["threshold_rule"], label="threshold_rule (>= DMR, > FR/MGR/DAR)", min_width=160)
                    threshold = gr.Slider(0, 1, value=EXAMPLE["threshold"], step=0.05, label="threshold", min_width=160)
                    zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division", min_width=160)
                with gr.Row():
                    parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (predictions: model replies quoting the tokens, one a line)", elem_id="parse", min_width=160)
                    top_k_ratio = gr.Textbox(value=EXAMPLE["top_k_ratio"], label="top_k_ratio (A2R: each example's int(width × r) highest scores; empty: the threshold)", elem_id="top-k-ratio", min_width=160)
                page.standard_sets(
                    {"The project's 200-example sample: its gold selections": {references: HELD, tokens: "", parse: NO_PARSER}},
                    "A synthetic sample made for the project (data/ of this Space): put your system's selections or scores in Predictions.",
                )
                predictions_b = page.second_system("selections or scores")
                files_b = page.uploads({"predictions_b": predictions_b})
                gr.Examples(
                    [[LLM_EXAMPLE["predictions"], EXAMPLE["references"], EXAMPLE["tokens"], LLM_EXAMPLE["parse"]]],
                    [predictions, references, tokens, parse],
                    label="A generative example (an LLM's replies quoting the texts)",
                )
        gr.Markdown(
            "Rationale token P/R/F1 as DMR/FR (corpus sums, rationale class) beside the true "
            "micro / macro F1, A2R/ERASER per-example means, ERASER's IOU F1 and AUPRC. One "
            "example per line: selections as `0110`, as numbers (`0.1 0.9 0.4`, soft scores "
            "add AUPRC) or as a JSON list; `-100` in a reference marks padding. A file holds one "
            "JSON list per line, as `paperscore rationale` reads it; uploading one empties the Tokens box (texts of the "
            "example, not of the file). With a parser, each Predictions line "
            "is a model's reply quoting its text (a reply of several lines as a JSON string), placed on the "
            "tokens by the chosen policy; quotes that match nothing are counted. Predictions B: a second system, tested "
            f"against the first by a paired bootstrap ({page.PAIRED['n_resamples']:,} resamples, seed {page.PAIRED['seed']}) on the token F1.\n\n"
            f"**Limits:** at most {MAX_TOKENS:,} tokens per box, {MAX_REPLY_CHARACTERS:,} characters of replies ({MAX_FUZZY_CELLS:,} cells of "
            f"quotes_fuzzy's matching: a text's characters times each quote's length squared), {page.limits()}; "
            "beyond that, use the package or `paperscore rationale`."
        )
        gr.Markdown("Tokens: " + page.legend({"tp": "TP (selected, gold)", "fp": "FP (selected only)", "fn": "FN (gold only)"}))
        marked = gr.HTML(elem_id="highlighted")
        gr.Markdown("Per example")
        per_example = gr.HTML(elem_id="per-example")
        result = page.raw_json()
        gr.Markdown(
            "## Faithfulness (ERASER)\n"
            "Comprehensiveness, sufficiency and their AOPC (DeYoung et al., 2020) from ERASER's results JSONL, "
            "one instance a line as its scripts write it: the class probabilities on the full input "
            "(`classification_scores`), without the rationale (`comprehensiveness_classification_scores`), on the "
            "rationale alone (`sufficiency_classification_scores`) and, for AOPC, at each threshold "
            "(`thresholded_scores`); `classification` is ŷ. No model runs here. "
            f"**Limits:** at most {MAX_RESULTS:,} lines, {page.limits()}; "
            "beyond that, use `paperscore faithfulness RESULTS.jsonl`."
        )
        eraser_results = gr.Textbox(value=FAITHFULNESS_EXAMPLE["results"], label="ERASER results (JSON lines)", lines=3, max_lines=8, elem_id="results")
        results_file = page.uploads({"results": eraser_results})
        aopc_thresholds = gr.Textbox(value=FAITHFULNESS_EXAMPLE["aopc_thresholds"], label="AOPC thresholds k (fractions of the tokens; ERASER's default)", elem_id="aopc-thresholds")
        faithfulness_button = gr.Button("Compute faithfulness", variant="primary", elem_id="faithfulness-btn")
        faithfulness_headline = gr.HTML(elem_id="faithfulness-headline", padding=False)
        faithfulness_signature = gr.Textbox(label="Signature (paste it beside the number you report)", elem_id="faithfulness-signature", interactive=False, lines=2, max_lines=4, buttons=["copy"])
        faithfulness_figures = gr.HTML(elem_id="faithfulness-figures", padding=False)
        gr.Markdown("AOPC at each threshold")
        faithfulness_aopc = gr.HTML(elem_id="faithfulness-aopc", padding=False)
        gr.Markdown("Per result line")
        faithfulness_rows = gr.HTML(elem_id="faithfulness-per-example", padding=False)
    page.card_tab(HERE)
    page.tool(rationale_f1)
    faithfulness_outputs = [faithfulness_headline, faithfulness_signature, faithfulness_figures, faithfulness_aopc, faithfulness_rows]
    page.connect(demo, faithfulness_button, show_faithfulness, [eraser_results, aopc_thresholds], faithfulness_outputs, files=results_file, reader=page.read_upload, api_name="faithfulness")
    shown_inputs = [predictions, references, tokens, threshold_rule, threshold, zero_division, parse, top_k_ratio]  # show()'s, the contract of /compute
    shown_outputs = [result, headline, signature, figures, marked, per_example]
    page.connect(
        demo,
        button,
        respond,
        [*shown_inputs, predictions_b, files["predictions"][0], files["references"][0]],
        [*shown_outputs, comparison, downloads, command_line],
        api=(show, shown_inputs, shown_outputs),
        files={**files, **files_b},
        reader=page.read_upload,
        clear=[tokens],
    )

if __name__ == "__main__":
    demo.launch(**page.launch_options(SESSIONS))
