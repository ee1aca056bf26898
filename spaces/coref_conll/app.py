"""Gradio demo of coref_conll: a key and a response document in, the reference scorer's
metrics out, with both texts side by side and each mention coloured by its entity.
Builds `demo` on import; launches only as a script."""

import html
import importlib
import json
import os
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import evaluate  # noqa: E402
import gradio as gr  # noqa: E402

HERE = Path(__file__).resolve().parent
# By file path: on a Space the directory is `app/`, and evaluate would take app.py for the metric.
metric = evaluate.load(str(HERE / "coref_conll.py"), keep_in_memory=True)
# The vendored scoring package that evaluate loaded beside the metric script.
package = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_coref")


def example_file(name):
    return (HERE / "examples" / name).read_text(encoding="utf-8")


KEY_IDS = [["a", "b", "d"], ["c", "e", "f", "g"], ["h", "i", "j", "k"]]
RESPONSE_IDS = [["a", "b", "c"], ["d", "e", "f", "g"], ["h", "i", "j"], ["k"]]
EXAMPLES = {
    "LitBank: The Masque of the Red Death (CoNLL)": (example_file("masque_response.conll"), example_file("masque_key.conll")),
    "metric4coref's README example (clusters of mention ids)": (json.dumps(RESPONSE_IDS), json.dumps(KEY_IDS)),
    "A twinless mention and a repeated key span (clusters of spans)": ("[[[0, 1], [4, 4]], [[4, 4], [6, 6]], [[8, 9]]]", "[[[0, 1], [4, 4], [6, 6]], [[2, 2]]]"),
}
FIRST = next(iter(EXAMPLES))
EXAMPLE = dict(predictions=EXAMPLES[FIRST][0], references=EXAMPLES[FIRST][1], keep_singletons=True, zero_division="0")
METRICS = ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mentions"]
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#bcbd22", "#393b79", "#637939", "#ad494a"]
UNMATCHED = "#7f7f7f"


def read_document(text, argument):
    """One document: JSON clusters (text starting with "[") or a CoNLL document."""
    if not text.strip():
        raise ValueError(f"{argument}: no document given")
    if not text.lstrip().startswith("["):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{argument}: not valid JSON ({error.msg}, line {error.lineno} column {error.colno})") from None


def compute_kwargs(predictions, references, keep_singletons, zero_division):
    """The metric's keyword arguments for the demo's inputs."""
    return dict(
        predictions=[read_document(predictions, "predictions")],
        references=[read_document(references, "references")],
        keep_singletons=keep_singletons,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )


def conll_words(text):
    """The words of a CoNLL document: its non-blank lines inside #begin/#end document (or
    all of them), the fourth column when there are five or more."""
    lines = text.split("\n")
    begin = next((i for i, line in enumerate(lines) if line.startswith("#") and "begin document" in line), None)
    if begin is not None:
        lines = lines[begin + 1 :]
        lines = lines[: next((i for i, line in enumerate(lines) if "end document" in line), len(lines))]
    cells = [line.rstrip("\t").split("\t") for line in lines if line.strip()]
    return [c[3] if len(c) > 4 else c[0] for c in cells]


def as_clusters(document):
    """A document as (clusters of mentions, words or None)."""
    if isinstance(document, str):
        return package.conll_to_clusters(document), conll_words(document)
    return document, None


def colours(key, response):
    """Each key entity a colour; a response entity takes the colour of the key entity it
    shares most mentions with (greedy, one to one), others grey."""
    key_colour = [PALETTE[i % len(PALETTE)] for i in range(len(key))]
    owner = {json.dumps(m): i for i, cluster in enumerate(key) for m in cluster}
    shared = [
        (sum(owner.get(json.dumps(m)) == k for m in cluster), -r, k, r)
        for r, cluster in enumerate(response)
        for k in {owner.get(json.dumps(m)) for m in cluster} - {None}
    ]
    response_colour, taken = [UNMATCHED] * len(response), set()
    for _, _, k, r in sorted(shared, reverse=True):
        if k not in taken and response_colour[r] == UNMATCHED:
            response_colour[r] = key_colour[k]
            taken.add(k)
    return key_colour, response_colour


def render(clusters, words, palette, title):
    """The text with each mention in brackets coloured by its entity (its number below
    the closing bracket), or, without a text, the clusters as lists."""
    head = f"<h3>{html.escape(title)}</h3>"
    if words is None and clusters and isinstance(clusters[0][0], str):
        rows = [
            f'<li style="color:{palette[n]}">entity {n}: ' + ", ".join(html.escape(m) for m in cluster) + "</li>"
            for n, cluster in enumerate(clusters)
        ]
        return head + "<ul>" + "".join(rows) + "</ul>"
    end = max((e for cluster in clusters for _, e in cluster), default=-1) + 1
    words = words or [f"t{i}" for i in range(end)]
    words = words + [f"t{i}" for i in range(len(words), end)]
    opens, closes = [[] for _ in words], [[] for _ in words]
    for n, cluster in enumerate(clusters):
        for s, e in cluster:
            opens[s].append((-e, n))
            closes[e].append((-s, n))
    out = []
    for t, word in enumerate(words):
        out += [f'<b style="color:{palette[n]}">[</b>' for _, n in sorted(opens[t])]
        out.append(html.escape(word))
        out += [f'<b style="color:{palette[n]}">]<sub>{n}</sub></b>' for _, n in sorted(closes[t])]
        out.append(" ")
    return head + f'<div style="line-height:2;font-size:15px">{"".join(out)}</div>'


def score(predictions, references, keep_singletons, zero_division):
    try:
        kwargs = compute_kwargs(predictions, references, keep_singletons, zero_division)
        result = metric.compute(**kwargs, metrics=METRICS, return_counts=True, return_signature=True)
        (response, response_words), (key, key_words) = as_clusters(kwargs["predictions"][0]), as_clusters(kwargs["references"][0])
    except ValueError as error:
        raise gr.Error(str(error), print_exception=False) from None
    headline = {"conll_f1": result["conll_f1"]}
    headline.update((f"{m}_{part}", result[f"{m}_{part}"]) for m in METRICS[:-1] for part in ("recall", "precision", "f1"))
    headline["signature"] = result["signature"]
    rows = []
    for m in METRICS:
        counts = {part: f"{n:g} / {d:g}" for part, (n, d) in result["counts"][m].items()}
        if m == "blanc":  # coreference links, then non-coreference links
            counts = {part: f"{counts['coreference_' + part]} · {counts['non_coreference_' + part]}" for part in ("recall", "precision")}
        rows.append([m, round(result[f"{m}_recall"], 4), round(result[f"{m}_precision"], 4), round(result[f"{m}_f1"], 4), counts["recall"], counts["precision"]])
    table = {"headers": ["metric", "recall", "precision", "f1", "recall counts", "precision counts"], "data": rows}
    key_colour, response_colour = colours(key, response)
    words = key_words or response_words
    return (
        headline,
        table,
        render(key, key_words or words, key_colour, "Key (references)"),
        render(response, response_words or words, response_colour, "Response (predictions)"),
    )


def pick(name):
    return EXAMPLES[name]


with gr.Blocks(title="coref_conll") as demo:
    gr.Markdown(
        "# coref_conll\n"
        "MUC, B3, CEAFm, CEAFe, BLANC, LEA and the CoNLL score, exactly as the CoNLL reference "
        "scorer computes them. Paste one document per box: a CoNLL-2011/2012 document (coreference "
        "in the last column) or JSON clusters (mention ids, or `[start, end]` token spans)."
    )
    example = gr.Dropdown(list(EXAMPLES), value=FIRST, label="Pick an example")
    with gr.Row():
        predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions (response)", lines=12, max_lines=12, elem_id="predictions")
        references = gr.Textbox(value=EXAMPLE["references"], label="References (key)", lines=12, max_lines=12, elem_id="references")
    with gr.Row():
        keep_singletons = gr.Checkbox(value=EXAMPLE["keep_singletons"], label="keep_singletons (the reference keeps them)")
        zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division")
    button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
    result = gr.JSON(label="Result", elem_id="result")
    metrics_table = gr.Dataframe(label="Metrics, with the counts the reference prints (BLANC: coreference links · non-coreference links)", elem_id="metrics")
    gr.Markdown("Each mention is in brackets coloured by its entity; a response entity shares the colour of the key entity it overlaps most, grey when it has none.")
    with gr.Row():
        key_text = gr.HTML(elem_id="key-text")
        response_text = gr.HTML(elem_id="response-text")
    example.change(pick, example, [predictions, references], api_name=False)
    button.click(
        score,
        [predictions, references, keep_singletons, zero_division],
        [result, metrics_table, key_text, response_text],
        api_name="compute",
    )

if __name__ == "__main__":
    demo.launch()
