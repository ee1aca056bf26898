"""Gradio demo of micro_macro: labels in (typed or uploaded), or a seq2seq model's text
with OmniEvent items, read by a parser chosen from a list; the micro F1 first, every
figure, a per-class table and the confusion matrix as a heatmap out. Builds `demo` on
import; launches only as a script."""

import importlib
import json
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
metric = evaluate.load(str(HERE / "micro_macro.py"), keep_in_memory=True)
# The label-file reader of the command line (the metric's vendored copy of the package).
reading = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_micro_macro")
sys.path.insert(0, str(HERE))  # the page helpers vendored beside app.py (a Space runs it from there)
import paperscore_demo as page  # noqa: E402

sys.path.remove(str(HERE))
# The parsers from model text (the package's own list).
NO_PARSER = "none: labels"
PARSERS = [NO_PARSER, *reading.EVENT_PARSERS]
# Span-level event detection (the package's own list of counting rules).
events = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_event_spans")
compare = page.compare_module(metric)
NO_SPANS = "none: labels"
SPANS = [NO_SPANS, *events.RULES]
# How a span-level example is written: span records, or a tag scheme read into trigger spans.
NO_SCHEME = "none: span records"
SCHEMES = [NO_SCHEME, *(scheme for scheme in events.SCHEMES if scheme)]

# MAVEN-style event detection: "None" is the NA class, left out by convention="maven".
EXAMPLE = dict(
    predictions="None Attack Attack None Movement None Transport Attack None None Attack None",
    references="None Attack None Attack Movement None Movement Attack None Transport Attack None",
    convention="maven",
    negative_labels="",
    zero_division="0",
    parse=NO_PARSER,
    types="",
    spans=NO_SPANS,
    scheme=NO_SCHEME,
)
# One span-level example (the card's, by hand): gold triggers fired (1-2, Attack) and died
# (7-8, Die); the prediction finds both spans, calls died an Attack, and adds it twice.
SPANS_EXAMPLE = dict(
    predictions='[[1, 2, "Attack"], [7, 8, "Attack"], [7, 8, "Attack"]]',
    references='[[1, 2, "Attack"], [7, 8, "Die"]]',
    convention="none",
    spans="textee",
)
# The same by BIO tags (scheme "bio"), one example a line: gold Attack at 1-3 and 4-5 and a
# Die at 0-1; the prediction tags 4-5 Die. Tri-I 3 of 3; Tri-C 2 of 3: P = R = F1 = 2/3.
BIO_EXAMPLE = dict(
    predictions="O B-Attack I-Attack O B-Die\nB-Die O",
    references="O B-Attack I-Attack O B-Attack\nB-Die O",
    convention="none",
    spans="textee",
    scheme="bio",
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
# Limits, stated on the page and checked before any work, in labels (MAVEN's 2,000-candidate
# sample goes through) and classes (MAVEN's 169 with NA go through); the heatmap, which
# grows with the square of the class count, is drawn up to DRAWN_CLASSES.
MAX_LABELS = 200_000
MAX_CLASSES = 1_000
DRAWN_CLASSES = 40
# The figure a visitor came for, by convention: (its name, the papers that report it).
HEADLINE_FIGURE = {
    "none": ("micro_f1", "sklearn's f1_score(average='micro'): every class counted"),
    "maven": ("micro_f1", "MAVEN (Wang et al., 2020) evaluate.py: the NA class left out"),
    "jmee": ("micro_f1", "JMEE (Liu et al., 2018) as in OntoED's baselines: gold events only"),
    "omnievent": ("micro_f1", "OmniEvent's compute_unified_micro_f1: NA left out, the references' classes only"),
}
SPANS_HEADLINE = {
    "textee": ("trigger_cls_f1", "trigger classification F1 (Tri-C), TextEE's scorer.py (Huang et al., 2024)"),
    "oneie": ("trigger_cls_f1", "trigger classification F1 (Tri-C), OneIE's score_graphs (Lin et al., ACL 2020)"),
}
# Span records per box, counted in triggers and arguments (a record's work).
MAX_SPANS = 200_000
# A box's characters: as many as MAX_SPANS records' triggers take.
MAX_TEXT = 5_000_000
HEADLINE = ("accuracy", "micro_precision", "micro_recall", "micro_f1", "macro_precision", "macro_recall", "macro_f1")


def parse_labels(text, argument):
    """Whitespace- or comma-separated labels; all-integer input is read as ints."""
    page.check_lines(text, argument, "label")
    labels = text.replace(",", " ").split()
    if not labels:
        raise ValueError(f"{argument}: no labels given")
    try:
        return [int(label) for label in labels]
    except ValueError:
        return labels


def limited(labels, argument, what="labels"):
    if len(labels) > MAX_LABELS:
        raise ValueError(f"{argument}: {len(labels):,} {what}; this demo takes at most {MAX_LABELS:,} per box (use the package or the command line for more)")
    return labels


def parse_items(text):
    """One OmniEvent item (a JSON object) per non-blank line."""
    page.check_lines(text, "references", "OmniEvent item (a JSON object)", json_lines=True)
    items = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except ValueError as error:
                raise ValueError(f"references: line {number} is not JSON ({error})") from None
    return items


def span_records(text, argument):
    """One span record a line (JSON: [start, end, type] triggers, {"triggers": [...]} or
    TextEE's {"events": [...]}), within the page's limit in triggers and arguments."""
    page.check_lines(text, argument, "span record", json_lines=True)
    records, spans = [], 0
    for number, line in enumerate(text.rstrip("\n").split("\n"), 1):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise ValueError(f"{argument} line {number}: not a JSON span record (a list of [start, end, type] triggers, or {{\"triggers\": ...}} or {{\"events\": ...}})") from None
        found = record.get("triggers", record.get("events")) if isinstance(record, dict) else record
        found = found if isinstance(found, list) else []
        spans += sum(1 + len(e["arguments"]) if isinstance(e, dict) and isinstance(e.get("arguments"), list) else 1 for e in found)
        records.append(record)
    if spans > MAX_SPANS:
        raise ValueError(f"{argument}: {spans:,} triggers and arguments; this demo takes at most {MAX_SPANS:,} per box (use the package or the command line for more)")
    return records


def tag_lines(text, argument):
    """scheme "bio": one example a line, its BIO tags separated by spaces or as a JSON list
    (as `paperscore micro_macro --scheme bio` reads a line), within the page's label limit."""
    page.check_lines(text, argument, "example's BIO tags", json_lines=True)
    examples = []
    for number, line in enumerate(text.rstrip("\n").split("\n"), 1):
        if line.lstrip().startswith("["):
            try:
                line = json.loads(line)
            except (ValueError, RecursionError):
                raise ValueError(f"{argument} line {number}: starts with [ but is not a JSON list of BIO tags") from None
            examples.append(line)
        else:
            examples.append(line.split())
    limited([tag for tags in examples if isinstance(tags, list) for tag in tags], argument, "tags")
    return examples


def compute_kwargs(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types="", spans=NO_SPANS, scheme=NO_SCHEME):
    """The metric's keyword arguments for the demo's inputs, within the page's limits.
    With a parser: a model text per line, an OmniEvent item per line, comma-separated types.
    With spans: a span record per line, or with scheme "bio" a tag sequence per line (the
    label options are refused by the metric)."""
    page.check_size(MAX_TEXT, predictions=predictions, references=references, negative_labels=negative_labels, types=types)
    if parse not in PARSERS:
        raise ValueError(f"parse: {parse!r} is not one of {', '.join(PARSERS)}")
    if spans not in SPANS:
        raise ValueError(f"spans: {spans!r} is not one of {', '.join(SPANS)}")
    if scheme not in SCHEMES:
        raise ValueError(f"scheme: {scheme!r} is not one of {', '.join(SCHEMES)}")
    if scheme != NO_SCHEME and spans == NO_SPANS:
        raise ValueError(f"scheme: {scheme!r} reads tags into trigger spans for span-level scoring; choose spans textee or oneie")
    negatives = parse_labels(negative_labels, "negative_labels") if negative_labels.strip() else None
    kwargs = dict(
        convention=None if convention == "none" else convention,
        negative_labels=negatives,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    if spans != NO_SPANS:
        if parse != NO_PARSER or types.strip():
            raise ValueError(f"parse: applies to model text, not to spans={spans!r} (choose {NO_PARSER!r} and leave types empty)")
        if scheme != NO_SCHEME:
            kwargs.update(predictions=tag_lines(predictions, "predictions"), references=tag_lines(references, "references"), spans=spans, scheme=scheme)
        else:
            kwargs.update(predictions=span_records(predictions, "predictions"), references=span_records(references, "references"), spans=spans)
        return kwargs
    if parse != NO_PARSER:
        names = [name.strip() for name in types.split(",") if name.strip()]
        texts = predictions[:-1].split("\n") if predictions.endswith("\n") else predictions.split("\n")
        kwargs.update(predictions=limited(texts, "predictions", "texts"), references=limited(parse_items(references), "references", "items"), parse=parse, types=names or None)
        return kwargs
    kwargs.update(predictions=limited(parse_labels(predictions, "predictions"), "predictions"), references=limited(parse_labels(references, "references"), "references"))
    classes = len(set(kwargs["predictions"]) | set(kwargs["references"]))
    if classes > MAX_CLASSES:
        raise ValueError(f"{classes:,} classes; this demo scores at most {MAX_CLASSES:,} (use the package or the command line for more)")
    return kwargs


def heatmap(labels, matrix):
    """The confusion matrix as a table: rows are references, columns predictions, each
    cell shaded by its share of the row, its count in the colour that reads best on it;
    beyond DRAWN_CLASSES, a line saying where to find it."""
    if len(labels) > DRAWN_CLASSES:
        return f"<p>{len(labels):,} classes: the matrix is drawn up to {DRAWN_CLASSES}; `paperscore micro_macro --confusion-matrix` prints it.</p>"
    rows = []
    for label, row in zip(labels, matrix):
        total = sum(row) or 1
        cells = []
        for count in row:
            shade = int(235 * (1 - count / total))
            background = f"#{shade:02x}{shade + (255 - shade) // 3:02x}ff"
            cells.append(f'<span class="ps-cell" style="background:{background};color:{page.text_on(background)}">{count}</span>')
        rows.append([f"<b>{page.figure(label)}</b>", *cells])
    return page.table(["reference \\ prediction", *map(page.figure, labels)], rows, escape=False)


def upload(path, argument):
    """A label file as the command line reads it (one label per line, or a JSON list of
    labels per line), one label per line in the box; or span records (a first line
    starting with { or [[), as they are."""
    text = page.read_upload(path, argument)
    if text.lstrip().startswith(("{", "[[")):  # span records (spans=): kept as they are, one a line
        page.check_lines(text, argument, "span record", json_lines=True)
        span_records(text, argument)
        return text.rstrip("\n")
    page.check_lines(text, argument, "label (or a JSON list of labels)", json_lines=True)
    labels = reading._as_labels(reading.read_labels(page.upload_path(path, argument), argument))
    for number, label in enumerate(labels, 1):
        if isinstance(label, list) or (isinstance(label, str) and (not label or any(c.isspace() or c == "," for c in label))):
            raise ValueError(f"{argument} line {number}: {label!r}; this page reads one label per line, without spaces or commas (use `paperscore micro_macro` for sequences)")
    return "\n".join(map(str, limited(labels, argument)))


def measure_rows(result):
    """spans=: one row per measure (P, R, F1 and TextEE's counts)."""
    measures = [m for m in events.MEASURES if f"{m}_f1" in result]
    rows = [[m, *(result[f"{m}_{f}"] for f in ("precision", "recall", "f1")), *(result[f"{m}_{c}"] for c in events.COUNTS)] for m in measures]
    return ["measure", "precision", "recall", "f1", *events.COUNTS], rows


def class_rows(result):
    """One row per class: precision, recall, F1 (unrounded) and support."""
    return ["class", "precision", "recall", "f1", "support"], [[str(label), v["precision"], v["recall"], v["f1"], v["support"]] for label, v in result["per_class"].items()]


def scored(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types="", spans=NO_SPANS, scheme=NO_SCHEME):
    """(the metric's keyword arguments, its result: with spans, the measures; else with
    the per-class figures and the confusion matrix), or the page's error."""
    try:
        kwargs = compute_kwargs(predictions, references, convention, negative_labels, zero_division, parse, types, spans, scheme)
        # a new metric per request: one visitor's batch never reaches another's
        extra = {} if spans != NO_SPANS else dict(per_class=True, confusion_matrix=True)
        result = metric.fresh().compute(**kwargs, **extra, return_signature=True)
        if spans == NO_SPANS and len(result["labels"]) > MAX_CLASSES:  # a parser's classes are known once read
            raise ValueError(f"{len(result['labels']):,} classes; this demo scores at most {MAX_CLASSES:,} (use the package or the command line for more)")
    except ValueError as error:
        page.fail(error, "label" if spans == NO_SPANS else "record" if scheme == NO_SCHEME else "example")
    return kwargs, result


def summary(result, spans=NO_SPANS):
    """(the headline figures, the per-class (with spans, per-measure) table, the heatmap)."""
    if spans != NO_SPANS:  # no confusion matrix
        headers, rows = measure_rows(result)
        return result, {"headers": headers, "data": rows}, ""
    headline = {key: result[key] for key in HEADLINE + ("weighted_f1",)}
    headline.update({key: result[key] for key in ("parse_failures", "parse_failure_examples", "unplaced_triggers") if key in result})
    headline["signature"] = result["signature"]
    headers, rows = class_rows(result)
    table = {"headers": headers, "data": [[label, *(round(v, 4) for v in figures), support] for label, *figures, support in rows]}
    return headline, table, heatmap(result["labels"], result["confusion_matrix"])


def score(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types="", spans=NO_SPANS, scheme=NO_SCHEME):
    return summary(scored(predictions, references, convention, negative_labels, zero_division, parse, types, spans, scheme)[1], spans)


def draw(headline, table, matrix, convention, spans, scheme):
    key, paper = HEADLINE_FIGURE[convention] if spans == NO_SPANS else SPANS_HEADLINE[spans]
    if scheme == "bio":
        paper += "; triggers read from BIO tags as seqeval's get_entities reads them"
    per_class = [[label, *map(page.figure, rest)] for label, *rest in table["data"]]
    return (
        headline,
        page.headline(key, headline[key], paper),
        headline["signature"],
        page.parse_report(headline) + page.figures(headline, skip=(key, "parse_failures", "unplaced_triggers")),
        page.table(table["headers"], per_class, first=page.FIRST_ROWS),
        matrix,
    )


def show(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types="", spans=NO_SPANS, scheme=NO_SCHEME):
    """The page: the raw figures, the headline, the signature, the parser's report and the
    other figures, the per-class table (or with spans, the per-measure table) and the heatmap."""
    return draw(*score(predictions, references, convention, negative_labels, zero_division, parse, types, spans, scheme), convention, spans, scheme)


def command(kwargs, names):
    """(the words of the `paperscore micro_macro` command giving the page's numbers, {file
    name: lines} of the files it reads: a label a line; with a parser, texts and OmniEvent
    items; with spans, records; with scheme bio, a JSON list of tags a line)."""
    words = ["paperscore", "micro_macro", "--predictions", names["predictions"], "--references", names["references"]]
    for option in ("convention", "spans", "scheme", "parse"):
        words += [f"--{option}", kwargs[option]] if kwargs.get(option) else []
    words += ["--negative-labels", ",".join(map(str, kwargs["negative_labels"]))] if kwargs["negative_labels"] else []
    words += ["--types", ",".join(kwargs["types"])] if kwargs.get("types") else []
    words += ["--zero-division", page.number(kwargs["zero_division"])]
    plain = "spans" not in kwargs and "parse" not in kwargs  # labels: one a line, as they are
    files = {names[name]: [str(v) if plain or isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in kwargs[name]] for name in ("predictions", "references")}
    return words, files


# The sample the Space holds (data/README.md): MAVEN-style event detection, 2,000 candidates.
DATA = HERE / "data"
SAMPLE = "maven_sample.gold.txt"


def respond(predictions, references, convention, negative_labels, zero_division, parse=NO_PARSER, types="", spans=NO_SPANS, scheme=NO_SCHEME, predictions_b="", predictions_file=None, references_file=None):
    """The page: show()'s outputs, then system B's paired test (when given), the downloads
    (the per-class table, the files the command reads) and the command."""
    kwargs, result = scored(predictions, references, convention, negative_labels, zero_division, parse, types, spans, scheme)
    comparison = ""
    if predictions_b.strip():
        key = HEADLINE_FIGURE[convention][0] if spans == NO_SPANS else SPANS_HEADLINE[spans][0]
        comparison = page.system_b(lambda: compute_kwargs(predictions_b, references, convention, negative_labels, zero_division, parse, types, spans, scheme)["predictions"], compare, "micro_macro", kwargs, key, "label")
    uploads = dict(predictions=predictions_file, references=references_file)
    texts = dict(predictions=predictions, references=references)
    names = page.file_names(texts, uploads, upload, {HELD: SAMPLE})
    words, files = command(kwargs, names)
    headers, rows = (measure_rows if spans != NO_SPANS else class_rows)(result)
    shown = draw(*summary(result, spans), convention, spans, scheme)
    return (*shown, comparison, page.downloads("micro_macro", headers, rows, files), page.command(words))


def micro_macro(predictions: str, references: str, convention: str = "none", negative_labels: str = "", zero_division: str = "0", parse: str = NO_PARSER, types: str = "", spans: str = NO_SPANS, scheme: str = NO_SCHEME) -> str:
    """Score multi-class labels (event detection, classification): accuracy, micro / macro / weighted precision, recall and F1, equal to sklearn, under a paper's convention; or span-level event detection as TextEE or OneIE count it.

    Args:
        predictions: The predicted labels, separated by spaces, commas or new lines (with a parser: a seq2seq model's text a line; with spans: one JSON span record a line).
        references: The gold labels, the same way (with a parser: one OmniEvent item, a JSON object, a line).
        convention: "none" (sklearn), "maven" (the NA class, None or 0, left out of the averages), "jmee" (gold events only) or "omnievent".
        negative_labels: Labels left out of the averages, comma-separated (optional).
        zero_division: The value of a 0/0 ratio: "0", "1" or "nan".
        parse: "none: labels", or the parser reading model text: omnievent_s2s, ...
        types: With a parser, the event types, comma-separated.
        spans: "none: labels", "textee" or "oneie": span-level event detection over JSON records.
        scheme: "none: span records", or "bio": each line an example's BIO tags.

    Returns:
        The result as JSON: compute()'s figures (floats in [0, 1]) and the signature to report beside them.
    """
    kwargs, result = scored(predictions, references, convention, negative_labels, zero_division, parse, types, spans, scheme)
    return page.as_json({key: value for key, value in result.items() if key not in ("per_class", "confusion_matrix", "labels")})


HELD = upload(DATA / SAMPLE, "references")


with gr.Blocks(title="micro_macro", delete_cache=page.DELETE_CACHE) as demo:
    with gr.Tab("Demo"):
        gr.Markdown("# micro_macro\nMulti-class precision, recall and F1, micro / macro / weighted, equal to sklearn, under each paper's convention (details and limits below).")
        with page.main():
            with page.part("inputs"):
                with gr.Row():
                    predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions", placeholder="labels separated by spaces, commas or lines", elem_id="predictions", **page.BOX)
                    references = gr.Textbox(value=EXAMPLE["references"], label="References", placeholder="gold labels, the same way", elem_id="references", **page.BOX)
                files = page.uploads({"predictions": predictions, "references": references})
                button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
            with page.part("results"):
                headline, signature, figures = page.outputs()
                comparison, downloads, command_line = page.take_home()
            with page.part("options"):
                with gr.Row():
                    convention = gr.Dropdown(["none", "maven", "jmee", "omnievent"], value=EXAMPLE["convention"], label="convention", elem_id="convention", min_width=160)
                    negative_labels = gr.Textbox(value=EXAMPLE["negative_labels"], label="negative_labels (optional)", min_width=160)
                    zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division", min_width=160)
                with gr.Row():
                    parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parse (model text)", elem_id="parse", min_width=160)
                    types = gr.Textbox(value=EXAMPLE["types"], label="types (with a parser; comma-separated)", elem_id="types", min_width=160)
                    spans = gr.Dropdown(SPANS, value=EXAMPLE["spans"], label="spans (span-level event detection: JSON records a line)", elem_id="spans", min_width=160)
                    scheme = gr.Dropdown(SCHEMES, value=EXAMPLE["scheme"], label="scheme (with spans: bio, BIO tags a line)", elem_id="scheme", min_width=160)
                page.standard_sets(
                    {"The project's MAVEN-style sample (2,000 candidates, 20 types and None): its gold labels": {references: HELD, convention: "maven", parse: NO_PARSER, spans: NO_SPANS}},
                    "A synthetic sample made for the project (data/ of this Space): put your system's labels in Predictions.",
                )
                predictions_b = page.second_system("labels")
                files_b = page.uploads({"predictions_b": predictions_b})
                gr.Examples([[OMNIEVENT_EXAMPLE[name] for name in ("predictions", "references", "convention", "parse", "types")]], [predictions, references, convention, parse, types], label="A generative example (OmniEvent seq2seq)")
                gr.Examples([[SPANS_EXAMPLE[name] for name in ("predictions", "references", "convention", "spans")]], [predictions, references, convention, spans], label="A span-level example (triggers)")
                gr.Examples([[BIO_EXAMPLE[name] for name in ("predictions", "references", "convention", "spans", "scheme")]], [predictions, references, convention, spans, scheme], label="A span-level example (BIO tags)")
        gr.Markdown(
            "Labels are separated by spaces, commas or new lines; a file holds one label per line "
            '(or a JSON list per line), as `paperscore micro_macro` reads it. `convention=maven` leaves the NA class '
            '("None" or 0) out of the averages; `jmee` scores only gold-event tokens. With a parser, Predictions hold a seq2seq '
            "model's text, one a line, References OmniEvent items (one JSON object a line), `types` the event types "
            "(comma-separated), and `omnievent` scores as OmniEvent does. With `spans` (convention none), each box holds "
            'span records, one JSON line an example: `[[start, end, "type"], ...]` triggers, `{"triggers": [...]}` or '
            'TextEE\'s `{"events": [{"trigger": [s, e, "type"], "arguments": [[s, e, "role"], ...]}]}`, counted as '
            "TextEE's scorer (`textee`) or OneIE's `score_graphs` (`oneie`); with `scheme` `bio`, each line is an example's "
            "BIO tags (`O B-Attack I-Attack`, or a JSON list), read into trigger spans as seqeval reads them. Predictions B: "
            f"a second system, tested against the first by a paired bootstrap ({page.PAIRED['n_resamples']:,} resamples, seed "
            f"{page.PAIRED['seed']}) on the headline's figure.\n\n"
            f"**Limits:** at most {MAX_LABELS:,} labels (or texts, or items) per box, {MAX_CLASSES:,} classes "
            f"(the confusion matrix is drawn up to {DRAWN_CLASSES}), {MAX_SPANS:,} triggers and arguments per box with `spans`, {page.limits(MAX_TEXT)}; "
            "beyond that, use the package or `paperscore micro_macro`."
        )
        gr.Markdown("Per class (with spans: per measure, trigger and argument identification / classification)")
        per_class = gr.HTML(elem_id="per-class")
        gr.Markdown("Confusion matrix (rows: reference, columns: prediction)")
        picture = gr.HTML(elem_id="confusion-matrix")
        result = page.raw_json()
    page.card_tab(HERE)
    page.tool(micro_macro)
    shown_inputs = [predictions, references, convention, negative_labels, zero_division, parse, types, spans, scheme]  # show()'s, the contract of /compute
    shown_outputs = [result, headline, signature, figures, per_class, picture]
    page.connect(
        demo,
        button,
        respond,
        [*shown_inputs, predictions_b, files["predictions"][0], files["references"][0]],
        [*shown_outputs, comparison, downloads, command_line],
        api=(show, shown_inputs, shown_outputs),
        files={**files, **files_b},
        reader=upload,
    )

if __name__ == "__main__":
    demo.launch(**page.launch_options(SESSIONS))
