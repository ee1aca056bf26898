# GENERATED from shared/paperscore/demo.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""What every Space's Gradio page shares: the headline figure first, the signature in its
own box, the other figures at 4 significant digits, the raw dict folded below, the card in
a tab, long per-item views cut to their first rows, file uploads, errors in the user's terms.

Not part of the scoring package's API: it imports gradio only inside the functions that
build the page (the command line imports every module of the package). shared/vendor.py
copies it into each Space as paperscore_demo.py, which app.py imports from its own
directory: `sys.path.insert(0, str(HERE))`, then `import paperscore_demo as page` (on a
Space that directory is sys.path[0] already).

Every colour drawn here is a class of CSS with its text and background colours both set
(highlights, badges), or set per colour scheme (coloured text on the page: Gradio adds
`dark` to the body in dark mode), at >= 4.5:1 (WCAG AA); tests/test_spaces.py reads them
back in Chromium in both schemes.
"""

import html
import math
import os
import re
from pathlib import Path

# Rows of a per-item view drawn at once; the rest wait behind a "show" (a 5,000-row table
# took 9-23 s to draw).
FIRST_ROWS = 50
# An uploaded file's limit, stated on each page (launch(max_file_size=...) and checked again
# here: the Space's limit, not the reader's).
MAX_FILE_BYTES = 2_000_000

# Highlights and badges: text and background both set, the same in both schemes.
# Coloured text on the page (coref's entities): one colour per scheme.
ENTITY_COLOURS = {
    "light": ["#1f77b4", "#c62828", "#2e7d32", "#6a3d9a", "#b45309", "#00695c", "#8c564b", "#ad1457", "#5d6400", "#393b79", "#637939", "#ad494a"],
    "dark": ["#7cb5ec", "#ff8a80", "#81c784", "#ce93d8", "#ffb74d", "#4dd0e1", "#bcaaa4", "#f48fb1", "#dce775", "#9fa8da", "#c5e1a5", "#ef9a9a"],
}
GREY = {"light": "#595959", "dark": "#b0b0b0"}
HIGHLIGHTS = {  # class: (background, text)
    "right": ("#c8e6c9", "#111111"),
    "gold": ("#c8e6c9", "#111111"),
    "wrong-char": ("#ffe0b2", "#111111"),
    "wrong-place": ("#ffcdd2", "#111111"),
    "source": ("#e0e0e0", "#111111"),
    "tp": ("#c8e6c9", "#111111"),
    "fp": ("#ffcdd2", "#111111"),
    "fn": ("#fff59d", "#111111"),
}
BADGES = {"TP": "#2e7d32", "FP": "#c62828", "TN": "#616161", "FN": "#a84300", "FP+FN": "#6a1b9a"}  # white text


def _css():
    rules = [
        ".ps-headline{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 1rem}",
        ".ps-headline .ps-value{font-size:3rem;font-weight:700;line-height:1.1}",
        ".ps-headline .ps-name{font-size:1.2rem;font-weight:600}",
        ".ps-scroll{max-width:100%;overflow-x:auto}",
        ".ps-scroll table{border-collapse:collapse;width:auto}",
        ".ps-scroll td,.ps-scroll th{padding:2px 8px;text-align:left;white-space:nowrap}",
        ".ps-scroll td.ps-wrap{white-space:normal;min-width:12em}",
        ".ps-mark{padding:0 1px}",
        ".ps-cell{display:inline-block;min-width:2.5em;padding:2px 4px;text-align:center}",
        ".ps-badge{color:#ffffff;padding:1px 6px;border-radius:4px}",
        ".ps-text{line-height:2}",
        f".ps-grey{{color:{GREY['light']}!important}}",
        f".dark .ps-grey{{color:{GREY['dark']}!important}}",
    ]
    # !important: Gradio's own text colours (Markdown in dark mode) are more specific
    rules += [f".ps-{name}{{background:{bg}!important;color:{fg}!important}}" for name, (bg, fg) in HIGHLIGHTS.items()]
    rules += [f".ps-badge-{name.replace('+', '')}{{background:{bg}!important;color:#ffffff!important}}" for name, bg in BADGES.items()]
    for scheme, prefix in (("light", ""), ("dark", ".dark ")):
        rules += [f"{prefix}.ps-e{n}{{color:{c}!important}}" for n, c in enumerate(ENTITY_COLOURS[scheme])]
    return "\n".join(rules)


STYLE = f"<style>{_css()}</style>"


def mark(text, kind):
    """`text` (user text: escaped here) highlighted as `kind` (a HIGHLIGHTS class)."""
    return f'<span class="ps-mark ps-{kind}">{html.escape(text)}</span>'


def badge(cell):
    """A class (TP, FP, TN, FN, FP+FN) as a white-on-colour badge; None: nothing."""
    if cell is None:
        return ""
    return f'<span class="ps-badge ps-badge-{cell.replace("+", "")}">{cell}</span>'


def _luminance(colour):
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(background):
    """Near-black or white, whichever reads better on `background` ("#rrggbb"): one of
    the two is always above 4.5:1 (WCAG's relative luminance)."""
    light = _luminance(background)
    return "#111111" if (light + 0.05) / (_luminance("#111111") + 0.05) >= 1.05 / (light + 0.05) else "#ffffff"


def legend(kinds):
    """{class: label} as highlighted words."""
    return " ".join(mark(label, kind) for kind, label in kinds.items())


def entity(n):
    """The CSS class of entity `n`'s colour (None: an entity with no counterpart, grey)."""
    return "ps-grey" if n is None else f"ps-e{n % len(ENTITY_COLOURS['light'])}"


# ---------------------------------------------------------------------------------------
# Numbers


def figure(value):
    """A number at 4 significant digits (ints as they are)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return html.escape(str(value))
    if isinstance(value, int):
        return f"{value:,}"
    return "nan" if math.isnan(value) else f"{value:.4g}"


def headline(name, value, paper):
    """The figure the visitor came for, large, with its name and the paper it follows."""
    return (
        f'<div class="ps-headline" id="ps-headline-box"><span class="ps-value" data-key="{html.escape(name)}">{figure(value)}</span>'
        f'<span class="ps-name">{html.escape(name)}</span><span class="ps-paper">{html.escape(paper)}</span></div>'
    )


def figures(result, skip=()):
    """Every other number of `result` (floats and counts, not the signature or per-item
    lists) as a two-column table at 4 significant digits."""
    rows = [[key, figure(v)] for key, v in result.items() if key not in skip and isinstance(v, (int, float)) and not isinstance(v, bool)]
    return table(["figure", "value"], rows, escape=False)


def parse_report(result, item="example"):
    """A parser's report (`parse_failures`, `parse_failure_examples`: 0-based, and
    micro_macro's `unplaced_triggers`, rationale_f1's `quotes` and `unmatched_quotes`,
    coref_conll's `mentions_on_changed_text`) as
    one line, its examples counted from 1 as the page counts its rows; nothing when no
    parser read the predictions."""
    if "parse_failures" not in result:
        return ""
    examples = [str(i + 1) for i in result["parse_failure_examples"]]
    text = f"Parse failures: {result['parse_failures']:,}"
    if examples:
        more = ", ..." if result["parse_failures"] > len(examples) else ""
        text += f" ({item}{'s' if len(examples) > 1 else ''} {', '.join(examples)}{more})"
    if "unplaced_triggers" in result:
        text += f"; unplaced triggers: {result['unplaced_triggers']:,}"
    if "mentions_on_changed_text" in result:  # coref_conll: mentions the parser could not place
        text += f"; mentions on text the model changed: {result['mentions_on_changed_text']:,}"
    if "unmatched_quotes" in result:
        text += f"; quotes: {result['quotes']:,}, matching nothing: {result['unmatched_quotes']:,}"
    return f'<p id="parse-report">{html.escape(text)}</p>'


def table(headers, rows, first=None, escape=True, wrap=()):
    """An HTML table in a box of its own that scrolls sideways (a phone's column is 326 px);
    past `first` rows the rest sit behind a "show" element, not drawn until opened.
    Cells are escaped unless `escape` is False (cells already HTML); columns in `wrap` wrap."""

    def cell(i, value, tag="td"):
        text = html.escape(str(value)) if escape else str(value)
        return f'<{tag} class="ps-wrap">{text}</{tag}>' if i in wrap else f"<{tag}>{text}</{tag}>"

    head = "<tr>" + "".join(cell(i, h, "th") for i, h in enumerate(headers)) + "</tr>"
    body = ["<tr>" + "".join(cell(i, v) for i, v in enumerate(row)) + "</tr>" for row in rows]
    shown = f'<div class="ps-scroll"><table>{head}{"".join(body[:first])}</table></div>'
    if first is None or len(body) <= first:
        return shown
    rest = f'<div class="ps-scroll"><table>{head}{"".join(body[first:])}</table></div>'
    return shown + f'<details class="ps-rest"><summary>Show the other {len(body) - first:,} rows (of {len(body):,})</summary>{rest}</details>'


def blocks(parts, first=FIRST_ROWS):
    """Per-item HTML blocks (one per example), the first `first` drawn, the rest behind a "show"."""
    if len(parts) <= first:
        return "".join(parts)
    rest = "".join(parts[first:])
    return "".join(parts[:first]) + f'<details class="ps-rest"><summary>Show the other {len(parts) - first:,} examples (of {len(parts):,})</summary>{rest}</details>'


# ---------------------------------------------------------------------------------------
# Errors


CORPUS = re.compile(r"\b(predictions|references|sources|tokens)\[(\d+)\]")


def user_terms(message, item="example"):
    """`predictions[0]: ...` (the package's 0-based index) as the page numbers its rows:
    `predictions (example 1): ...`."""
    return CORPUS.sub(lambda m: f"{m[1]} ({item} {int(m[2]) + 1})", message)


def fail(error, item="example"):
    """A ValueError as the page's error message: 1-based, escaped (Gradio renders it as
    HTML and it may quote the user's text), shown until the visitor closes it."""
    import gradio as gr

    raise gr.Error(html.escape(user_terms(str(error), item), quote=False), duration=None, print_exception=False) from None


# ---------------------------------------------------------------------------------------
# Files


def upload_path(upload, argument):
    """The path of an uploaded file, within the page's stated size limit."""
    path = getattr(upload, "name", upload)
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise ValueError(f"{argument}: the file has {size:,} bytes, more than the {MAX_FILE_BYTES:,} this page takes")
    return path


def read_upload(upload, argument):
    """The text of an uploaded file, within the page's stated size limit."""
    path = upload_path(upload, argument)
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{argument}: the file is not UTF-8 text (byte {error.start})") from None


def uploads(boxes, reader, file_types, what):
    """A file upload beside each text box ({argument: textbox}): the file goes through
    `reader(path, argument) -> text for the box`, refusals shown as errors."""
    import gradio as gr

    def handler(argument):
        def load(upload):
            if upload is None:
                return gr.update()
            try:
                return reader(upload, argument)
            except ValueError as error:
                fail(error)

        return load

    with gr.Row():
        for argument, box in boxes.items():
            upload = gr.File(label=f"{argument} file ({what}; up to {MAX_FILE_BYTES // 1_000_000} MB)", file_types=file_types, elem_id=f"{argument}-file")
            upload.upload(handler(argument), upload, box, api_name=False)


# ---------------------------------------------------------------------------------------
# The page


def card_text(here):
    """The Space's README.md without its YAML header: the metric card."""
    text = (Path(here) / "README.md").read_text(encoding="utf-8")
    return re.sub(r"\A---\n.*?\n---\n", "", text, count=1, flags=re.S)


def outputs():
    """The headline, the signature box and the other figures, in this order on the page."""
    import gradio as gr

    gr.HTML(STYLE, elem_id="ps-style", padding=False)
    top = gr.HTML(elem_id="headline", padding=False)
    signature = gr.Textbox(label="Signature (paste it beside the number you report)", elem_id="signature", interactive=False, lines=2, max_lines=4, buttons=["copy"])
    others = gr.HTML(elem_id="figures", padding=False)
    return top, signature, others


def raw_json():
    """The dict compute() returned, folded at the bottom of the page."""
    import gradio as gr

    with gr.Accordion("Raw result (the dict compute() returns)", open=False):
        return gr.JSON(label="Result", elem_id="result")


def card_tab(here):
    import gradio as gr

    with gr.Tab("Metric card", elem_id="card-tab"):
        gr.Markdown(card_text(here), elem_id="card")


def connect(demo, button, fn, inputs, outs):
    """The Compute button (the API endpoint /compute) and the default example on page load."""
    button.click(fn, inputs, outs, api_name="compute")
    demo.load(fn, inputs, outs, api_name=False)


# Both CSC demos' generative example: a chat model's replies, read by csc_reply (the third
# has nothing left once its label is removed: a parse failure, scored as the empty sentence).
CSC_REPLY_EXAMPLE = dict(
    sources="我今天很搞兴。\n他门去学校了。\n今天很热。",
    references="我今天很高兴。\n他们去学校了。\n今天很热。",
    predictions="修改后：“我今天很高兴。”\n纠正后的句子：他们去学校了。\n修改后：",
    length_mismatch="align",
    parse="csc_reply",
)


def csc_reply_examples(boxes):
    """The example above under the boxes `boxes` names (sources, references, predictions,
    length_mismatch, parse), as one row of examples."""
    import gradio as gr

    gr.Examples([[CSC_REPLY_EXAMPLE[name] for name in boxes]], list(boxes.values()), label="A generative example (a chat model's replies, read by csc_reply)")


def read_replies(kwargs, predictions, parse, parsers):
    """With a parser (any of `parsers` but the first, "none"), every line of the Predictions
    box is one reply, a blank one too; without, kwargs as they are."""
    if parse not in parsers:
        raise ValueError(f"parse: {parse!r} is not one of {', '.join(parsers)}")
    if parse == parsers[0]:
        return kwargs
    return {**kwargs, "predictions": [line.removesuffix("\r") for line in predictions.removesuffix("\n").split("\n")], "parse": parse}
