# GENERATED from shared/paperscore/demo.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""What every Space's Gradio page shares (issues 25 and 37).

The first screen: `main()` holds three `part`s: the inputs with Compute, the results
(the headline figure first, the signature in its own box, the other figures, the
comparison of two systems, what to take home) and the options. On a desktop the results
sit beside the inputs; on a phone (a screen under 768 px) they come right under Compute,
the options after them. Long per-item views below, cut to their first rows; the card in a
tab; file inputs as compact drop zones; errors in the user's terms, user text quoted at a
readable length, shown until closed, every output cleared first.

One visitor cannot hold everyone: every input is bounded before any parsing (the page
states its limits), CONCURRENCY requests are computed at once, and each gets TIME_LIMIT
seconds (within_time). Uploads are checked here, in the page's units, before Gradio's own
limit (GRADIO_FILE_BYTES, far above) would refuse one in its own.

Not part of the scoring package's API: it imports gradio only inside the functions that
build the page (the command line imports every module of the package). shared/vendor.py
copies it into each Space as paperscore_demo.py, which app.py imports from its own
directory: `sys.path.insert(0, str(HERE))`, then `import paperscore_demo as page` (on a
Space that directory is sys.path[0] already). The package modules a page needs beside its
metric's (compare, for the paired test) come from compare_module.

Every colour drawn here is a class of CSS with its text and background colours both set
(highlights, badges), or set per colour scheme (coloured text on the page: Gradio adds
`dark` to the body in dark mode), at >= 4.5:1 (WCAG AA); tests/test_spaces.py reads them
back in Chromium in both schemes.
"""

import csv
import ctypes
import functools
import html
import importlib.util
import io
import json
import math
import os
import re
import shlex
import shutil
import sys
import tempfile
import threading
import time
import uuid
import warnings
from pathlib import Path

# Rows of a per-item view drawn at once; the rest wait behind a "show" (a 5,000-row table
# took 9-23 s to draw).
FIRST_ROWS = 50
# An uploaded file's limit, and a text box's in characters, stated on each page and checked
# here before any reading.
MAX_FILE_BYTES = 2_000_000
MAX_TEXT = MAX_FILE_BYTES
# Gradio refuses a larger upload itself, in its own units and for a few seconds only: far
# above the page's limit, so that the page's message is the one a visitor meets.
GRADIO_FILE_BYTES = 50_000_000
# Requests computed at once (Gradio's default is one: a long request held every visitor),
# and the seconds each may run.
CONCURRENCY = 4
TIME_LIMIT = 20


def limits(text=MAX_TEXT):
    """What every page states of its limits (a page whose box may hold more says so)."""
    return (
        f"files of up to {MAX_FILE_BYTES // 1_000_000} MB ({MAX_FILE_BYTES:,} bytes), text boxes of up to {text:,} "
        f"characters; each request may run {TIME_LIMIT} s, {CONCURRENCY} at once"
    )


# Gradio's copies of uploads and downloads: looked for every 10 minutes, dropped after an hour.
DELETE_CACHE = (600, 3600)
# The phone layout below this width (Gradio's own columns wrap near it).
PHONE = 768

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
        ".ps-scroll:focus-visible{outline:2px solid var(--color-accent);outline-offset:2px}",
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
    # The first screen (main, part): results beside the inputs, or under Compute on a phone.
    rules += [
        '#ps-main{display:grid!important;grid-template-columns:minmax(0,3fr) minmax(0,2fr);grid-template-areas:"inputs results" "options results";align-items:start}',
        "#ps-inputs{grid-area:inputs}#ps-results{grid-area:results}#ps-options{grid-area:options}",
        f'@media (max-width:{PHONE - 1}px){{#ps-main{{grid-template-columns:minmax(0,1fr);grid-template-areas:"inputs" "results" "options"}}}}',
        # compact drop zones: one line of text, no icon
        ".ps-drop [data-testid=upload-icon]{display:none}",
        ".ps-drop [data-testid=upload-text]{flex-direction:row;flex-wrap:wrap;justify-content:center;gap:0 .3em;font-size:var(--text-sm);padding-top:22px}",
        ".ps-drop [data-testid=upload-text] .or{margin:0}",
    ]
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
        f'<div class="ps-headline"><span class="ps-value" data-key="{html.escape(name)}">{figure(value)}</span>'
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
    """An HTML table in a box of its own that scrolls sideways (a phone's column is 326 px)
    and takes the keyboard's focus (so that its arrows scroll it: axe's
    scrollable-region-focusable); past `first` rows the rest sit behind a "show" element, not
    drawn until opened. Cells are escaped unless `escape` is False (cells already HTML);
    columns in `wrap` wrap."""

    def cell(i, value, tag="td"):
        text = html.escape(str(value)) if escape else str(value)
        return f'<{tag} class="ps-wrap">{text}</{tag}>' if i in wrap else f"<{tag}>{text}</{tag}>"

    head = "<tr>" + "".join(cell(i, h, "th") for i, h in enumerate(headers)) + "</tr>"
    body = ["<tr>" + "".join(cell(i, v) for i, v in enumerate(row)) + "</tr>" for row in rows]
    label = html.escape(f"table: {', '.join(map(str, headers[:4]))}", quote=True)
    opening = f'<div class="ps-scroll" tabindex="0" role="region" aria-label="{label}"><table>{head}'
    shown = opening + "".join(body[:first]) + "</table></div>"
    if first is None or len(body) <= first:
        return shown
    rest = opening + "".join(body[first:]) + "</table></div>"
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
# A run of text without a space longer than this is cut in a message (a 300,000-character
# label was quoted whole); a message longer than MESSAGE keeps its start and its end.
RUN = 80
MESSAGE = 600


def user_terms(message, item="example"):
    """`predictions[0]: ...` (the package's 0-based index) as the page numbers its rows:
    `predictions (example 1): ...`."""
    return CORPUS.sub(lambda m: f"{m[1]} ({item} {int(m[2]) + 1})", message)


def readable(message):
    """A message as a visitor should read it: an uploaded file named by its name (not the
    server's copy of it), each quoted run of text cut to RUN characters, the whole to
    about MESSAGE."""
    import gradio as gr

    folder = re.escape(gr.utils.get_upload_folder())
    message = re.sub(folder + r"/[^/\s]+/", "", message)
    message = re.sub(r"\S{%d,}" % (RUN + 1), lambda m: f"{m[0][: RUN - 20]}...({len(m[0]):,} characters)", message)
    if len(message) > MESSAGE:
        message = f"{message[: MESSAGE - 150]} ... {message[-120:]}"
    return message


def fail(error, item="example"):
    """A ValueError as the page's error message: 1-based, readable, escaped (Gradio renders
    it as HTML and it may quote the user's text), shown until the visitor closes it."""
    import gradio as gr

    raise gr.Error(html.escape(readable(user_terms(str(error), item)), quote=False), duration=None, print_exception=False) from None


class OverTime(BaseException):
    """Raised inside a request's thread past TIME_LIMIT (a BaseException: no `except
    Exception` on the way catches it)."""


def _raise_in(thread, exception):
    """Make `thread` raise `exception` at its next Python instruction (None: take back one
    not raised yet)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exception) if exception else None)


def within_time(fn, seconds=None):
    """`fn` stopped after `seconds` (TIME_LIMIT) with the page's error: a watchdog raises
    OverTime in the request's thread, at its next Python instruction (the inputs' bounds
    keep each step short). Gradio runs each request in a thread of its own pool."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        limit = TIME_LIMIT if seconds is None else seconds
        thread, lock, state = threading.get_ident(), threading.Lock(), {"running": True, "fired": False}

        def stop():
            with lock:
                if state["running"]:
                    state["fired"] = True
                    _raise_in(thread, OverTime)

        timer = threading.Timer(limit, stop)
        timer.daemon = True
        try:
            try:
                timer.start()  # within the try: on a loaded machine the timer may fire before start() returns
                return fn(*args, **kwargs)
            finally:
                timer.cancel()
                with lock:
                    state["running"] = False
                    if state["fired"]:  # raised after fn returned: not yet delivered
                        _raise_in(thread, None)
        except OverTime:
            fail(ValueError(f"this request took more than {limit} s, the page's limit for one request: score it with the command line (below) or the package"))

    return run


# ---------------------------------------------------------------------------------------
# Bounds and forms, checked before any parsing


def check_size(limit=MAX_TEXT, **boxes):
    """Refuse a text box holding more than `limit` characters, before anything reads it."""
    for argument, text in boxes.items():
        if len(text) > limit:
            raise ValueError(f"{argument}: {len(text):,} characters, more than the {limit:,} this page takes in a box")


# The start of a document that is no list of lines: CoNLL (its #begin document, CoNLL-U's
# # newdoc or # sent_id), or JSON over several lines (a lone { or [ on the first line).
DOCUMENT = re.compile(r"\A\s*(#begin document|# newdoc|# sent_id|# global\.columns|[{[]\s*\n)")


def check_lines(text, argument, what, json_lines=False, tabs=None):
    """Refuse a box that holds a document of another form than one `what` per line (a JSON
    file, a CoNLL document), instead of scoring its lines. json_lines: a line may be JSON
    (else a box starting with { or [ is a JSON file); tabs: the pattern a line holding tabs
    must match (the official test input's `(pid=ID)<TAB>sentence`), else tabs are columns."""
    found = DOCUMENT.match(text)
    if found or (not json_lines and text.lstrip()[:1] in ("{", "[")):
        kind = "a CoNLL document" if found and found[1].startswith("#") else "JSON"
        raise ValueError(f"{argument}: this is not one {what} per line (it reads as {kind})")
    for number, line in enumerate(text.split("\n"), 1):
        if "\t" in line and not (tabs is True or (tabs and tabs.match(line))):
            raise ValueError(f"{argument}: this is not one {what} per line (line {number} holds tab-separated columns: a CoNLL document or a table?)")


# ---------------------------------------------------------------------------------------
# Files


def file_path(upload):
    """The path of an upload: Gradio's path string (a file object's name in older Gradios)."""
    return os.fspath(upload) if isinstance(upload, (str, os.PathLike)) else upload.name


def file_name(upload):
    """An uploaded file's own name (Gradio keeps it as the last part of its copy's path)."""
    return Path(file_path(upload)).name


def megabytes(size):
    return f"{size / 1_000_000:.1f} MB"


def upload_path(upload, argument, limit=MAX_FILE_BYTES):
    """The path of an uploaded file, within the page's stated size limit (named by the
    file's name, in the page's units)."""
    path = file_path(upload)
    size = os.path.getsize(path)
    if size > limit:
        raise ValueError(f"{argument} file {file_name(path)}: {megabytes(size)} ({size:,} bytes), more than the {limit / 1_000_000:g} MB ({limit:,} bytes) this page takes")
    return path


def read_upload(upload, argument, limit=MAX_FILE_BYTES):
    """The text of an uploaded file, within the page's stated size limit."""
    path = upload_path(upload, argument, limit)
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{argument} file {file_name(path)}: not UTF-8 text (byte {error.start})") from None


# A text box of the first screen: short (it scrolls), so that the result stays in view.
BOX = dict(lines=3, max_lines=4, min_width=140)


def drop_zone(label, elem_id):
    """A compact file input (a line of text, no icon; no file types: the page checks files)."""
    import gradio as gr

    return gr.File(label=label, elem_id=elem_id, elem_classes="ps-drop", height=64, min_width=100)


def uploads(boxes):
    """A compact drop zone for each text box ({argument: textbox}): {argument: (file, box)}
    for connect(), which reads a dropped file into its box."""
    import gradio as gr

    with gr.Row():
        return {argument: (drop_zone(f"{argument} file", f"{argument}-file"), box) for argument, box in boxes.items()}


def write_file(name, text):
    """`text` as a file called `name` for a download (a fresh folder each time; folders older
    than Gradio keeps its copies are removed)."""
    root = Path(tempfile.gettempdir()) / "paperscore-demo"
    root.mkdir(exist_ok=True)
    for old in root.iterdir():
        try:
            if time.time() - old.stat().st_mtime > DELETE_CACHE[1]:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:  # removed by another request meanwhile
            pass
    folder = root / uuid.uuid4().hex
    folder.mkdir()
    path = folder / name
    path.write_text(text, encoding="utf-8", newline="\n")
    return str(path)


def csv_text(headers, rows):
    """A table as CSV (cells as the page computed them, not as it rounds them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue()


def command(words):
    """A shell command from its words, quoted where they need it."""
    return shlex.join(str(word) for word in words)


def number(value):
    """An option's number as a command line takes it (0.0 as 0; "nan" as it is)."""
    return value if isinstance(value, str) else f"{value:g}"


# ---------------------------------------------------------------------------------------
# The page


def card_text(here):
    """The Space's README.md without its YAML header: the metric card."""
    text = (Path(here) / "README.md").read_text(encoding="utf-8")
    return re.sub(r"\A---\n.*?\n---\n", "", text, count=1, flags=re.S)


def main():
    """The first screen's grid: `with main():` three `with part(name):` (inputs, results,
    options), laid out by the page's style."""
    import gradio as gr

    gr.HTML(STYLE, elem_id="ps-style", padding=False)
    return gr.Row(elem_id="ps-main")


def part(name):
    import gradio as gr

    return gr.Column(elem_id=f"ps-{name}", min_width=0)


def outputs():
    """The headline, the signature box and the other figures, in this order on the page."""
    import gradio as gr

    top = gr.HTML(elem_id="headline", padding=False)
    signature = gr.Textbox(label="Signature (paste it beside the number you report)", elem_id="signature", interactive=False, lines=2, max_lines=4, buttons=["copy"])
    others = gr.HTML(elem_id="figures", padding=False)
    return top, signature, others


def take_home():
    """The comparison of two systems, the downloads (the per-item table as CSV, the files
    the command reads) and the command, after the figures."""
    import gradio as gr

    comparison = gr.HTML(elem_id="comparison", padding=False)
    downloads = gr.File(label="Take it home: the per-item table (CSV) and the files the command below reads", file_count="multiple", interactive=False, elem_id="downloads")
    line = gr.Textbox(label="The same numbers from the command line (pip install paperscore)", elem_id="command", interactive=False, lines=2, max_lines=6, buttons=["copy"])
    return comparison, downloads, line


def second_system(what):
    """A box (and a drop zone, by uploads()) for system B's output: its paired test
    against the Predictions."""
    import gradio as gr

    return gr.Textbox(value="", label=f"Predictions B (optional): a second system's {what}, the same form; the page tests B against the Predictions", lines=2, max_lines=6, elem_id="predictions_b")


def raw_json():
    """The dict compute() returned, folded at the bottom of the page."""
    import gradio as gr

    with gr.Accordion("Raw result (the dict compute() returns)", open=False):
        return gr.JSON(label="Result", elem_id="result")


def card_tab(here):
    import gradio as gr

    with gr.Tab("Metric card", elem_id="card-tab"):
        gr.Markdown(card_text(here), elem_id="card")


def _emptied(components):
    """A script that empties these components (a JSON or file output: null; text: "")."""
    import gradio as gr

    values = ["null" if isinstance(c, (gr.JSON, gr.File)) else "''" for c in components]
    return f"() => [{', '.join(values)}]"


def _read_into_box(reader, argument):
    def read(upload):
        try:
            return reader(upload, argument)
        except ValueError as error:
            fail(error)

    return read


def connect(demo, button, fn, inputs, outs, files=None, reader=None, clear=(), api_name="compute", api=None):
    """The button, every output emptied first so that an error leaves no result of other
    inputs on the page; the same on page load (the example); the drop zones `files`
    (connect_uploads). The endpoint /<api_name>: the button's, or with `api` = (function,
    inputs, outputs) that function's (the page's contract for gradio_client: show(), the
    page's first inputs and outputs), on a button never drawn. Neither is an MCP tool
    (their outputs are the page's HTML; each page names its own tool): Gradio's MCP server
    lists the functions whose _mcp_type is "tool", the default, and no other kind. Every
    request within TIME_LIMIT, CONCURRENCY at once."""
    import gradio as gr

    demo.queue(default_concurrency_limit=CONCURRENCY)
    limited = within_time(fn)
    limited._mcp_type = "page"
    button.click(None, None, outs, js=_emptied(outs)).then(limited, inputs, outs, api_name=False if api else api_name)
    demo.load(limited, inputs, outs, api_name=False)
    if api:
        endpoint, api_inputs, api_outputs = api
        limited_api = within_time(endpoint)
        limited_api._mcp_type = "page"
        gr.Button(visible=False).click(limited_api, api_inputs, api_outputs, api_name=api_name)
    connect_uploads(outs, files or {}, reader, clear)


def connect_uploads(outs, files, reader, clear=()):
    """Each drop zone of `files` ({argument: (file, box)}): the outputs, `clear` and its box
    emptied, then the file read into the box by `reader(path, argument)`, its refusal the
    page's error (box None: the file is an input of its own, which `reader` only checks)."""
    for argument, (upload, box) in files.items():
        emptied = [*outs, *clear] + ([box] if box is not None else [])
        upload.upload(None, None, emptied, js=_emptied(emptied)).then(within_time(_read_into_box(reader, argument)), upload, box, api_name=False)


def standard_sets(sets, note):
    """A list of the standard test sets this Space holds ({name: {component: value}}, after
    "your own"): picking one fills its boxes (and options), so that a visitor brings only a
    system's output; `note` says which copies the Space holds. Returns the dropdown."""
    import gradio as gr

    own = "your own (the boxes as they are)"
    picker = gr.Dropdown([own, *sets], value=own, label="Standard set: pick one, then bring only your system's output", info=note, elem_id="standard-set")
    components = list(dict.fromkeys(c for values in sets.values() for c in values))

    def pick(name):
        chosen = sets.get(name, {})
        return [chosen[c] if c in chosen else gr.update() for c in components]

    picker.change(pick, picker, components, api_name=False)
    return picker


def tool(fn):
    """`fn` as an API endpoint named after it, so an MCP tool (launch(mcp_server=True)) that
    its docstring and type hints describe; within TIME_LIMIT."""
    import gradio as gr

    gr.api(within_time(fn), api_name=fn.__name__)


def as_json(result):
    """A result as JSON text for an agent (NaN, which JSON lacks, as null)."""

    def clean(value):
        if isinstance(value, float) and math.isnan(value):
            return None
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(item) for item in value]
        return value

    return json.dumps(clean(result), ensure_ascii=False)


def launch_options(sessions):
    """What app.py passes to launch(): Gradio's own upload limit far above the page's, few
    sessions kept (Gradio keeps 10,000 sessions' page state by default: gigabytes under
    load), and the MCP server."""
    return dict(max_file_size=GRADIO_FILE_BYTES, state_session_capacity=sessions, mcp_server=True)


# ---------------------------------------------------------------------------------------
# Two systems, and taking the numbers home


class _Beside:
    """Finds `<package>.paperscore_<name>` beside app.py when the metric's own copy of the
    package (where evaluate put only the modules the metric script imports) lacks it: the
    modules the paired test imports, at the top or inside its functions. A finder on
    sys.meta_path after Python's own, not the package's __path__ (the command lookup lists
    every module there, app.py too)."""

    def __init__(self, package):
        self.package = package

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        file = Path(__file__).resolve().parent / f"{name}.py"
        if package == self.package and name.startswith("paperscore_") and file.is_file():
            return importlib.util.spec_from_file_location(fullname, file)
        return None


def compare_module(metric):
    """paperscore.compare in the metric's copy of the package, so that the families it
    finds are the metric's own; the modules it needs beyond the metric's (shared/vendor.py's
    DEMO_MODULES and what they import) come from beside app.py."""
    package = type(metric).__module__.rpartition(".")[0]
    if not any(isinstance(finder, _Beside) and finder.package == package for finder in sys.meta_path):
        sys.meta_path.append(_Beside(package))
    return importlib.import_module(f"{package}.paperscore_compare")


# The paired test the page runs (fixed, so that the command gives the same numbers).
PAIRED = dict(method="bootstrap", n_resamples=1000, confidence_level=0.95, seed=0)
_WARNINGS = threading.Lock()  # warnings.catch_warnings changes the whole process's state


def paired_test(compare, space, kwargs, system_b, metric_key):
    """paperscore.compare.compare of system B (`system_b`, read as the predictions) against
    the page's system A (kwargs' predictions) on `metric_key`, under the page's options:
    (its result, the warnings it gave)."""
    options = {key: value for key, value in kwargs.items() if key not in ("predictions", "references")}
    with _WARNINGS, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = compare.compare(space, kwargs["references"], kwargs["predictions"], system_b, metric_key=metric_key, **PAIRED, **options)
        except TypeError as error:  # an option of compute() that the paired test does not take
            unknown = re.search(r"unexpected keyword argument '(\w+)'", str(error))
            if not unknown:
                raise
            raise ValueError(f"{unknown[1]}: the paired test of two systems does not take this option; compare without it") from None
    return result, [str(warning.message) for warning in caught]


def system_b(read, compare, space, kwargs, metric_key, item="example"):
    """The paired test of system B on the page: `read()` gives B's predictions as the page
    reads its Predictions; an error names them as predictions B's."""
    try:
        return comparison(*paired_test(compare, space, kwargs, read(), metric_key))
    except ValueError as error:
        fail(ValueError(re.sub(r"\bpredictions\b", "predictions B", user_terms(str(error), item))), item)


def comparison(result, notes):
    """The paired test on the page: B - A with its interval and the p-value."""
    level = f"{PAIRED['confidence_level']:.0%}"
    lines = [
        f"<p><b>B − A</b> on {html.escape(result['metric_key'])}: <span class=\"ps-difference\">{result['difference']:+.4g}</span> "
        f"({level} interval {result['difference_low']:+.4g} to {result['difference_high']:+.4g}), "
        f"<b>p = {result['p_value']:.3g}</b></p>",
        f"<p>A {figure(result['score_a'])}, B {figure(result['score_b'])}; paired bootstrap over the examples, "
        f"{result['n_resamples']:,} resamples, seed {PAIRED['seed']} (Koehn, 2004).</p>",
    ]
    lines += [f"<p><b>Note:</b> {html.escape(readable(note))}</p>" for note in notes]
    return f'<div id="comparison-result">{"".join(lines)}<p class="ps-grey">{html.escape(result["signature"])}</p></div>'


def downloads(space, headers, rows, files):
    """The per-item table as CSV and the files the command reads ({name: lines})."""
    made = [write_file(f"{space}_per_item.csv", csv_text(headers, rows))]
    return made + [write_file(name, "".join(f"{line}\n" for line in lines)) for name, lines in files.items()]


def file_names(texts, uploads, reader, held, suffix=".txt"):
    """Each box's file name for the command ({box: text}, {box: upload or None}): the held
    file's ({text: name}) or the uploaded file's, when the box still holds what `reader`
    made of it; else <box><suffix> (the box saved under that name)."""

    def name(box, text):
        if text in held:
            return held[text]
        try:
            if uploads.get(box) is not None and reader(uploads[box], box) == text:
                return file_name(uploads[box])
        except (ValueError, OSError):
            pass
        return f"{box}{suffix}"

    return {box: name(box, text) for box, text in texts.items()}


# ---------------------------------------------------------------------------------------
# Both CSC demos

LABEL_LINE = re.compile(r"[^\s,]+\s*,\s*\d+\s*(,.*)?")


def sentence_lines(text):
    """One sentence (or label line) per line; blank lines are ignored."""
    return [line.removesuffix("\r") for line in text.split("\n") if line.strip()]


def label_lines(lines):
    """Whether these are the jars' label lines (`pid, 0`, `pid, pos, char, ...`)."""
    return bool(lines) and all(LABEL_LINE.fullmatch(line.strip()) for line in lines)


def test_input(csc, lines):
    """(pids or None, sentences): an official test input's lines (`(pid=ID)<TAB>sentence`,
    2013's `(NID=ID) sentence`) read as its sentences, other lines as they are."""
    if lines and csc.TEST_INPUT.match(lines[0]):
        return csc.parse_test_input(lines, "sources")
    return None, lines


def csc_corpora(csc, predictions, sources, references, length_mismatch, positions_only=False):
    """{predictions, references, sources} for compute() from the CSC boxes' lines: test
    input lines read as their sentences; with Sources empty, label lines. The SIGHAN test
    set as a visitor holds it (the test input in Sources, the truth's label lines in
    References, a system's sentences in Predictions) is read as the jars read label files:
    the sentences' edits written as label lines under the test input's pids."""
    pids, sources = test_input(csc, sources)
    predictions, references = (test_input(csc, lines)[1] for lines in (predictions, references))
    if not label_lines(references):
        return dict(predictions=predictions, references=references, sources=sources or None)
    if not sources or label_lines(predictions):
        return dict(predictions=predictions, references=references, sources=None)
    if pids is None:
        raise ValueError(
            "references: label lines are matched by pid: put the official test input (`(pid=ID)<TAB>sentence` lines, "
            "which carry the pids) in Sources, or empty Sources and give label lines in Predictions too"
        )
    if length_mismatch not in ("error", "truncate"):
        raise ValueError(f"length_mismatch: {length_mismatch!r} has no label lines to write: with label-line references choose error or truncate, or give reference sentences")
    (edits,) = csc.extract_edits(sources, predictions, names=("predictions",), length_mismatch=length_mismatch)
    return dict(predictions=csc.format_label_lines(pids, edits, positions_only), references=references, sources=None)


def read_csc_upload(upload, argument):
    """A file of sentences, an official test input or label lines, one line each in the box
    (blank lines dropped), refused when it is no list of lines."""
    text = read_upload(upload, argument)
    check_csc_box(text, argument)
    return "\n".join(sentence_lines(text))


# The lines of a CSC box that may hold tabs: an official test input's, and label lines (the
# SIGHAN 2013 toy files start each with one; the jars trim them).
TABBED_CSC_LINE = re.compile(rf"\((?:pid|NID)=[^)]*\)[\t ]|\s*(?:{LABEL_LINE.pattern})$")
# What a CSC box may hold, in sentences: SIGHAN15's 1,100 test sentences of at most 124
# characters go through; the alignment is quadratic in a sentence's length.
CSC_SENTENCES = 5_000
CSC_CHARACTERS = 300


def check_csc_box(text, argument):
    """A CSC box within the page's limits, and a list of sentences or label lines, before
    any work."""
    check_size(**{argument: text})
    check_lines(text, argument, "sentence or label line", tabs=TABBED_CSC_LINE)
    lines = sentence_lines(text)
    if len(lines) > CSC_SENTENCES:
        raise ValueError(f"{argument}: {len(lines):,} sentences, more than the {CSC_SENTENCES:,} this page takes")
    for number, line in enumerate(lines, 1):
        if len(line) > CSC_CHARACTERS:
            raise ValueError(f"{argument}: sentence {number} has {len(line):,} characters, more than the {CSC_CHARACTERS:,} this page takes")


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
