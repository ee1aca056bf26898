"""Gradio demo of quad_match: prediction and reference strings in, one sample per line
(quad strings, or raw model text read by a parser chosen from a list);
the headline numbers and an alignment table (each predicted quad, its matched reference
quad, each element's similarity and the pair's degree) out. Builds `demo` on import;
launches only as a script."""

import importlib
import json
import os
import re
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
metric = evaluate.load(str(HERE / "quad_match.py"), keep_in_memory=True)
# The parsers from model text (the metric's vendored copy of paperscore.parse).
package = type(metric).__module__.rpartition(".")[0]
parsing = importlib.import_module(package + ".paperscore_parse")
NO_PARSER = "none: quad strings"
quad = importlib.import_module(package + ".paperscore_quad")
PARSERS = [NO_PARSER, *(name for name in quad.QUAD_PARSERS if name not in quad.FIXING_PARSERS)]  # those need each input sentence, which the page does not take
NO_CONVENTION = "none: quads as strings"
CONVENTIONS = [NO_CONVENTION, *quad.CONVENTIONS]
NO_SPANS = "none: quads as strings"
SPANS = [NO_SPANS, *quad.SPAN_CONVENTIONS]
sys.path.insert(0, str(HERE))  # the page helpers vendored beside app.py (a Space runs it from there)
import paperscore_demo as page  # noqa: E402

sys.path.remove(str(HERE))
compare = page.compare_module(metric)

EXAMPLE = dict(
    predictions="\n".join(
        [
            "food | good | food#taste | pos",
            "服务 | 很好 | 服务#态度 | 正面 & 价格 | 贵 | 价格#水平 | 负面",
            "great food | good | food#taste | pos & staff | rude | service#general | pos & food | good | pos",
        ]
    ),
    references="\n".join(
        [
            "food | good | food#taste | pos & service | bad | service#general | neg",
            "服务态度 | 好 | 服务#态度 | 正面",
            "food | good | food#taste | pos & service | bad | service#general | neg",
        ]
    ),
    tuple_len="0123",
    weights="1, 1, 1, 1",
    similarity="rouge_l",
    duplicates="multiset",
    legacy_keys=False,
    parse=NO_PARSER,
    convention=NO_CONVENTION,
    implicit_split=False,
    spans=NO_SPANS,
)
# One generative example: MvP's output, what the parser dropdown is for.
MVP_EXAMPLE = dict(
    predictions="[A] pizza [O] delicious [C] food quality [S] great [SSEP] [A] service [O] slow\ngarbage",
    references="[A] pizza [O] delicious [C] food quality [S] great [SSEP] [A] staff [O] rude [C] service general [S] bad\n"
    "[A] it [O] nice [C] ambience general [S] great",
    parse="mvp",
)
# Limits of a request, stated on the page and checked before any work, in quads: the pairs
# compared grow with the product of the quad counts (600 x 600 quads took 36 s); the DiaASQ
# zh test set (826 quads, at most 17 a dialogue) goes through.
MAX_QUADS_PER_SAMPLE = 50
MAX_QUADS = 2_000  # per text box
# A target or opinion of more tokens than the bit-parallel LCS holds in a word goes to
# rouge-score's own LCS, quadratic in Python: 50 x 50 quads of 100 CJK characters took 39 s.
MAX_ELEMENT_TOKENS = quad.WORD
LIMITS = (
    f"**Limits:** {MAX_QUADS_PER_SAMPLE} quads per sample, {MAX_QUADS:,} quads per box, {MAX_ELEMENT_TOKENS} tokens "
    f"(CJK characters or runs of letters and digits) in an element, {page.limits()}. Score more with the package or `paperscore quad`."
)
# The figure a visitor came for.
HEADLINE_FIGURE = ("exact_f1", "exact-match quad F1, as DiaASQ (Li et al., 2023) and the ASQP papers report it")
DIAASQ_HEADLINE = ("micro_f1", "DiaASQ run_eval.py Micro: quads by token spans, as DiaASQ (Li et al., Findings of ACL 2023) reports it")
DIAASQ_HEADERS = ["row (DiaASQ's name)", "precision", "recall", "F1"]
DIAASQ_NAMES = {"ta": "TA", "to": "TO", "ao": "AO", "cross_1": "Cross-1", "cross_2": "Cross-2", "cross_3": "Cross-3"}
# implicit_split: ACOS's rows, as its measureQuad_imp names them (E/I: explicit or implicit
# aspect term, our target, and opinion).
ACOS_NAMES = {kind: kind.upper().replace("_", "&") for kind in quad.IMPLICITNESS}  # ea_eo: EA&EO
ACOS_HEADERS = ["ACOS row (measureQuad_imp)", "exact precision", "exact recall", "exact F1"]
ELEMENTS = ("target", "opinion", "aspect", "polarity")
UNMATCHED = "(unmatched)"
HEADERS = ["sample", "prediction", "reference", *ELEMENTS, "degree"]


NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")  # a JSON number: 1 stays an int, as the legacy keys print it


def parse_weights(text):
    items = [item.strip() for item in text.split(",")]
    if not all(map(NUMBER.fullmatch, items)):  # never handed to a parser that could recurse ("[" * 5000)
        raise ValueError(f"weights: {text[:60]!r}{'...' if len(text) > 60 else ''} is not 4 comma-separated numbers")
    return tuple(json.loads(item) for item in items)


def samples(text, name, spans=False):
    """One sample a line: quad strings, or (a line starting with "{") a JSON sample as
    `paperscore quad --format json` reads one: {"quads": [...]} or a DiaASQ dialogue.
    With spans every line is JSON (a blank one a sample without quads): the quads whose
    target and opinion are [start, end] token spans."""
    out = []
    for number, line in enumerate(text.rstrip("\n").split("\n"), 1):
        if spans and not line.strip():
            line = []
        elif spans or line.lstrip().startswith("{"):
            try:
                line = quad.json_sample(json.loads(line))
            except (ValueError, RecursionError):
                what = 'with spans a line is JSON: [[[start, end], [start, end], "aspect", "polarity"], ...] or {"quads": [...]}' if spans else "a line starting with { is not a JSON sample"
                raise ValueError(f"{name} line {number}: {what}") from None
            if isinstance(line, dict):
                raise ValueError(f"{name} line {number}: this is not one sample per line (a JSON object without quads or triplets)")
        out.append(line)
    return out


def elements(sample):
    """The texts of a sample's quads: each element of its quad strings (or of a JSON
    sample's quads, lists or objects)."""
    quads = sample.split(" & ") if isinstance(sample, str) else sample if isinstance(sample, list) else []
    for one in quads:
        parts = one.split(" | ") if isinstance(one, str) else one.values() if isinstance(one, dict) else one if isinstance(one, (list, tuple)) else ()
        yield from (part for part in parts if isinstance(part, str))


def check_limits(name, text, parse=NO_PARSER, spans=False):
    """Refuse a box beyond the demo's limits, or no list of samples, before any work (a
    parser's quads counted by running it: it is cheap beside the matching)."""
    page.check_size(**{name: text})
    page.check_lines(text, name, "sample (quad strings or a JSON sample)" if parse == NO_PARSER else "model text", json_lines=True, tabs=parse != NO_PARSER)
    read = samples(text, name, spans) if parse == NO_PARSER else parsing.parse(text.rstrip("\n").split("\n"), parse, argument=name)[0]
    counts = [len(s) if isinstance(s, list) else s.count(" & ") + 1 if isinstance(s, str) and s.strip() else 0 for s in read]
    for number, count in enumerate(counts, 1):
        if count > MAX_QUADS_PER_SAMPLE:
            raise ValueError(f"{name} line {number}: {count} quads; this demo takes at most {MAX_QUADS_PER_SAMPLE} per sample")
    if sum(counts) > MAX_QUADS:
        raise ValueError(f"{name}: {sum(counts):,} quads; this demo takes at most {MAX_QUADS:,}")
    for number, sample in enumerate(read, 1):
        for element in elements(sample):
            if len(element) > MAX_ELEMENT_TOKENS and len(quad.tokenize(element)) > MAX_ELEMENT_TOKENS:
                raise ValueError(f"{name} line {number}: an element of {len(quad.tokenize(element)):,} tokens ({element[:40]!r}...); this demo takes at most {MAX_ELEMENT_TOKENS}")


def compute_kwargs(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse=NO_PARSER, convention=NO_CONVENTION, implicit_split=False, spans=NO_SPANS):
    """The metric's keyword arguments for the demo's inputs: one sample per line. With a
    parser, both boxes hold model text and tuple_len is the parser's; with spans, JSON
    lines of span-index quads; under convention "diaasq", DiaASQ's dialogues."""
    if convention not in CONVENTIONS:
        raise ValueError(f"convention: {convention!r} is not one of {', '.join(CONVENTIONS)}")
    if convention != NO_CONVENTION:
        options = dict(tuple_len=tuple_len, weights=weights, similarity=similarity, duplicates=duplicates, legacy_keys=legacy_keys, parse=parse, implicit_split=implicit_split, spans=spans)
        return diaasq_kwargs(predictions, references, options)
    if parse not in PARSERS:
        raise ValueError(f"parse: {parse!r} is not one of {', '.join(PARSERS)}")
    if spans not in SPANS:
        raise ValueError(f"spans: {spans!r} is not one of {', '.join(SPANS)}")
    if spans != NO_SPANS and parse != NO_PARSER:  # before the parser reads the boxes' JSON as model text
        raise ValueError(f"spans: a parser reads model text, not span indices; choose {NO_PARSER!r} or {NO_SPANS!r}")
    for name, text in (("predictions", predictions), ("references", references)):
        if not text.strip():  # a blank line is a sample without quads; a blank box is no input
            raise ValueError(f"{name}: the box is empty (one sample per line)")
    spanned = spans != NO_SPANS
    check_limits("predictions", predictions, parse, spanned)
    check_limits("references", references, parse, spanned)
    parsing = {} if parse == NO_PARSER else {"parse": parse}
    return dict(
        predictions=samples(predictions, "predictions", spanned) if not parsing else predictions.rstrip("\n").split("\n"),
        references=samples(references, "references", spanned) if not parsing else references.rstrip("\n").split("\n"),
        **parsing,
        **({"spans": spans} if spanned else {}),
        tuple_len=None if parsing else tuple_len,
        weights=parse_weights(weights),
        similarity=similarity,
        duplicates=duplicates,
        legacy_keys=legacy_keys,
        implicit_split=implicit_split,
    )


def dialogues(text, name):
    """DiaASQ's dialogues from a box: one JSON array (its prediction or gold file as it
    writes it) or one dialogue a line; within the demo's limits (triplets as quads)."""
    def load(text, problem):
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            raise ValueError(problem) from None

    page.check_size(**{name: text})
    if text.lstrip().startswith("["):
        out = load(text, f"{name}: the box starts with [ but is not a JSON array of DiaASQ dialogues")
        if not isinstance(out, list):
            raise ValueError(f"{name}: the box is not a JSON array of DiaASQ dialogues")
    else:
        out = [load(line, f"{name} line {number}: not a JSON dialogue (DiaASQ's dialogues: one JSON array, or one a line)") for number, line in enumerate(text.rstrip("\n").split("\n"), 1)]
    counts = [len(d["triplets"]) if isinstance(d, dict) and isinstance(d.get("triplets"), list) else 0 for d in out]
    for number, count in enumerate(counts, 1):
        if count > MAX_QUADS_PER_SAMPLE:
            raise ValueError(f"{name} (dialogue {number}): {count} triplets; this demo takes at most {MAX_QUADS_PER_SAMPLE} per dialogue")
    if sum(counts) > MAX_QUADS:
        raise ValueError(f"{name}: {sum(counts):,} triplets; this demo takes at most {MAX_QUADS:,}")
    return out


def diaasq_kwargs(predictions, references, options):
    """convention="diaasq": the boxes' dialogues; every other option left at the page's
    default (DiaASQ's table takes none: a changed one is refused, never ignored)."""
    for name, value in options.items():
        if value != EXAMPLE[name]:
            raise ValueError(f"{name}: does not apply with convention diaasq (DiaASQ's table compares token spans); leave it at {EXAMPLE[name]!r}")
    for name, text in (("predictions", predictions), ("references", references)):
        if not text.strip():
            raise ValueError(f"{name}: the box is empty (DiaASQ's dialogues: one JSON array, or one a line)")
    return dict(predictions=dialogues(predictions, "predictions"), references=dialogues(references, "references"), convention="diaasq")


def diaasq_table(result):
    """DiaASQ's 13 rows (those the predictions give), in its order, P/R/F1 each."""
    rows = [row for row in quad.DIAASQ_ROWS if f"{row}_f1" in result]
    return [[f"{row} ({DIAASQ_NAMES.get(row, row.title())})", *(page.figure(result[f"{row}_{f}"]) for f in ("precision", "recall", "f1"))] for row in rows]


def acos_table(result):
    """implicit_split: ACOS's four rows (EA&EO, IA&EO, EA&IO, IA&IO), exact P/R/F1 each."""
    rows = [[f"{name} ({kind})", *(page.figure(result[f"exact_{f}_{kind}"]) for f in ("precision", "recall", "f1"))] for kind, name in ACOS_NAMES.items()]
    return page.table(ACOS_HEADERS, rows)


def alignment_table(samples):
    """One row per matched pair or unmatched quad: sample number, both quads, each element's
    similarity (blank where tuple_len leaves the element out) and the pair's degree."""
    rows = []
    for number, sample in enumerate(samples, 1):
        for pair in sample["alignment"]:
            prediction = pair["prediction"] if pair["prediction"] is not None else UNMATCHED
            if "malformed" in pair:
                prediction += f"  (malformed: {pair['malformed']})"
            similarity = pair["similarity"] or {}
            rows.append(
                [number, prediction, pair["reference"] if pair["reference"] is not None else UNMATCHED]
                + [round(similarity[e], 4) if e in similarity else "" for e in ELEMENTS]
                + [round(pair["degree"], 4)]
            )
    return {"headers": HEADERS, "data": rows}


def scored(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse=NO_PARSER, convention=NO_CONVENTION, implicit_split=False, spans=NO_SPANS):
    """(the metric's keyword arguments, its result: with each sample's alignment, but under
    convention "diaasq"), or the page's error."""
    diaasq = convention != NO_CONVENTION
    try:
        kwargs = compute_kwargs(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse, convention, implicit_split, spans)
        # a fresh metric per request: one request cannot leave state for the next, or another thread
        result = metric.fresh().compute(**kwargs, **({} if diaasq else {"details": True}), return_signature=True)
    except ValueError as error:
        page.fail(error, "dialogue" if diaasq else "sample")
    return kwargs, result


def summary(result, convention=NO_CONVENTION):
    """(the figures, the per-item table): the alignment, or under convention "diaasq"
    DiaASQ's rows."""
    if convention != NO_CONVENTION:
        return result, {"headers": DIAASQ_HEADERS, "data": diaasq_table(result)}
    result = dict(result)
    return result, alignment_table(result.pop("samples"))


def score(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse=NO_PARSER, convention=NO_CONVENTION, implicit_split=False, spans=NO_SPANS):
    """(the metric's result, the per-item table): the alignment, or under convention
    "diaasq" DiaASQ's rows."""
    return summary(scored(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse, convention, implicit_split, spans)[1], convention)


def upload(path, argument):
    """A file as `paperscore quad` reads it: quad strings one sample a line, or (.json,
    .jsonl) JSON samples, DiaASQ dialogues among them, each a {"quads": [...]} line."""
    path = page.upload_path(path, argument)
    if not str(path).endswith((".json", ".jsonl")):
        text = page.read_upload(path, argument)
        page.check_lines(text, argument, "sample (quad strings) or model text", json_lines=True, tabs=True)
        return text
    if str(path).endswith(".json") and page.read_upload(path, argument).lstrip().startswith("["):
        whole = quad.read_dialogues(path, argument)
        if whole and quad.is_dialogues(whole, []):  # DiaASQ's file: its dialogues kept whole, one a line, for either convention
            return "\n".join(json.dumps(d, ensure_ascii=False) for d in whole)
    return "\n".join(json.dumps({"quads": sample}, ensure_ascii=False) for sample in quad.read_samples(path, argument, "json"))


def draw(result, table, tuple_len, parse, convention, implicit_split):
    key, paper = HEADLINE_FIGURE if convention == NO_CONVENTION else DIAASQ_HEADLINE
    if convention == NO_CONVENTION and parse == NO_PARSER and tuple_len != "0123":  # a subtask: name its tuples
        paper = f"exact-match F1 of ({', '.join(ELEMENTS[int(code)] for code in tuple_len)}) tuples, tuple_len {tuple_len}"
    rows = [[cell if isinstance(cell, str) else page.figure(cell) for cell in row] for row in table["data"]]
    acos = [f"exact_{f}_{kind}" for kind in ACOS_NAMES for f in ("precision", "recall", "f1")] if implicit_split else []
    return (
        result,
        page.headline(key, result[key], paper),
        result["signature"],
        (acos_table(result) if acos else "") + page.figures(result, skip=(key, *acos)),
        page.table(table["headers"], rows, first=page.FIRST_ROWS, wrap=(1, 2) if convention == NO_CONVENTION else ()),
    )


def show(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse=NO_PARSER, convention=NO_CONVENTION, implicit_split=False, spans=NO_SPANS):
    """The page: the raw figures, the headline, the signature, (implicit_split) ACOS's four
    rows, the other figures and the alignment table (its first rows), or DiaASQ's 13 rows."""
    scored_ = score(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse, convention, implicit_split, spans)
    return draw(*scored_, tuple_len, parse, convention, implicit_split)


def command(kwargs, names):
    """(the words of the `paperscore quad` command giving the page's numbers, {file name:
    lines} of the files it reads): DiaASQ's files as one JSON array each; quad strings (or
    model text) one a line, as JSON lines (--format json) where a line would not read back
    as text."""
    words = ["paperscore", "quad", "--predictions", names["predictions"], "--references", names["references"]]
    sides = ("predictions", "references")
    if kwargs.get("convention"):
        return [*words, "--convention", kwargs["convention"]], {names[side]: [json.dumps(kwargs[side], ensure_ascii=False)] for side in sides}
    text = all(isinstance(x, str) and x.lstrip()[:1] not in ("[", '"') and "\n" not in x for side in sides for x in kwargs[side])
    files = {names[side]: [x if text else json.dumps(x, ensure_ascii=False) for x in kwargs[side]] for side in sides}
    words += [] if text else ["--format", "json"]
    words += ["--tuple-len", kwargs["tuple_len"]] if kwargs["tuple_len"] else []
    words += ["--weights", ",".join(map(str, kwargs["weights"])), "--similarity", kwargs["similarity"], "--duplicates", kwargs["duplicates"]]
    words += [word for option in ("spans", "parse") if kwargs.get(option) for word in (f"--{option}", kwargs[option])]
    words += [flag for flag, on in (("--implicit-split", kwargs["implicit_split"]), ("--legacy-keys", kwargs["legacy_keys"])) if on]
    return words, files


# The standard sets the Space holds (data/README.md: DiaASQ's test sets, MIT): its gold file
# in References under convention diaasq.
DATA = HERE / "data"
SETS = {
    "DiaASQ test, Chinese (100 dialogues): its gold file; bring your prediction file": "diaasq_zh_test.json",
    "DiaASQ test, English (100 dialogues): its gold file; bring your prediction file": "diaasq_en_test.json",
}
# The held files as the boxes show them: {text: file name}.
HELD = {upload(str(DATA / name), "references"): name for name in SETS.values()}


def respond(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse=NO_PARSER, convention=NO_CONVENTION, implicit_split=False, spans=NO_SPANS, predictions_b="", predictions_file=None, references_file=None):
    """The page: show()'s outputs, then system B's paired test (when given), the downloads
    (the per-item table, the files the command reads) and the command."""
    options = (tuple_len, weights, similarity, duplicates, legacy_keys, parse, convention, implicit_split, spans)
    kwargs, result = scored(predictions, references, *options)
    comparison = ""
    if predictions_b.strip():
        key = (HEADLINE_FIGURE if convention == NO_CONVENTION else DIAASQ_HEADLINE)[0]
        tested = {name: value for name, value in kwargs.items() if name != "legacy_keys"}  # it only adds keys
        comparison = page.system_b(lambda: compute_kwargs(predictions_b, references, *options)["predictions"], compare, "quad_match", tested, key, "dialogue" if convention != NO_CONVENTION else "sample")
    uploads, texts = dict(predictions=predictions_file, references=references_file), dict(predictions=predictions, references=references)
    names = page.file_names(texts, uploads, upload, HELD, ".json" if convention != NO_CONVENTION else ".txt")
    words, files = command(kwargs, names)
    shown, table = summary(result, convention)
    outputs = draw(shown, table, tuple_len, parse, convention, implicit_split)
    return (*outputs, comparison, page.downloads("quad_match", table["headers"], table["data"], files), page.command(words))


def quad_match(predictions: str, references: str, tuple_len: str = "0123", weights: str = "1, 1, 1, 1", similarity: str = "rouge_l", duplicates: str = "multiset", legacy_keys: bool = False, parse: str = NO_PARSER, convention: str = NO_CONVENTION, implicit_split: bool = False, spans: str = NO_SPANS) -> str:
    """Score aspect-sentiment quads (target, opinion, aspect, polarity): exact-match F1 as the ASQP and DiaASQ papers report it, and the soft match (ROUGE-L on target and opinion); or DiaASQ's own 13-row table.

    Args:
        predictions: One sample per line: quads `target | opinion | aspect | polarity` joined by ` & `, or a JSON sample ({"quads": [...]}); with a parser, a model's text a line; under convention diaasq, DiaASQ dialogues (one JSON array, or one a line).
        references: The gold samples, the same way.
        tuple_len: Which elements the quad strings hold, in order: 0 target, 1 opinion, 2 aspect, 3 polarity (e.g. "0123", "02").
        weights: The weights of target, opinion, aspect and polarity in the soft match, comma-separated.
        similarity: "rouge_l" or "exact": how target and opinion match in the soft match.
        duplicates: "multiset", "list" or "set": how exact match counts repeated quads.
        legacy_keys: Add the original quad Space's keys.
        parse: "none: quad strings", or the parser of a generative model's text: mvp, asqp_paraphrase, gas_*, llm_json, ...
        convention: "none: quads as strings", or "diaasq": DiaASQ's run_eval.py table over its files.
        implicit_split: Add ACOS's exact figures by explicit or implicit target and opinion.
        spans: "none: quads as strings", "exclusive" or "inclusive": span-index quads (JSON lines, with similarity exact).

    Returns:
        The result as JSON: compute()'s figures (floats in [0, 1]) and the signature to report beside them.
    """
    kwargs, result = scored(predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse, convention, implicit_split, spans)
    return page.as_json({key: value for key, value in result.items() if key != "samples"})


with gr.Blocks(title="quad_match", delete_cache=page.DELETE_CACHE) as demo:
    with gr.Tab("Demo"):
        gr.Markdown("# quad_match\nSentiment quads scored as the ASQP and DiaASQ papers score them, exact and soft (details and limits below).")
        with page.main():
            with page.part("inputs"):
                with gr.Row():
                    predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions", placeholder="one sample a line: target | opinion | aspect | polarity, joined by &", elem_id="predictions", **page.BOX)
                    references = gr.Textbox(value=EXAMPLE["references"], label="References", placeholder="the gold samples, the same way", elem_id="references", **page.BOX)
                files = page.uploads({"predictions": predictions, "references": references})
                button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
            with page.part("results"):
                headline, signature, figures = page.outputs()
                comparison, downloads, command_line = page.take_home()
            with page.part("options"):
                with gr.Row():
                    tuple_len = gr.Dropdown(list(quad.TUPLE_LEN_SUBSETS), value=EXAMPLE["tuple_len"], allow_custom_value=True, label="tuple_len (0 target, 1 opinion, 2 aspect, 3 polarity; any order)", elem_id="tuple-len", min_width=200)
                    weights = gr.Textbox(value=EXAMPLE["weights"], label="weights (target, opinion, aspect, polarity)", min_width=200)
                    similarity = gr.Dropdown(["rouge_l", "exact"], value=EXAMPLE["similarity"], label="similarity", elem_id="similarity", min_width=200)
                with gr.Row():
                    duplicates = gr.Dropdown(["multiset", "list", "set"], value=EXAMPLE["duplicates"], label="duplicates (exact match)", min_width=200)
                    parse = gr.Dropdown(PARSERS, value=EXAMPLE["parse"], label="parser (model text in; tuple_len is the parser's)", elem_id="parse", min_width=200)
                    convention = gr.Dropdown(CONVENTIONS, value=EXAMPLE["convention"], label="convention (diaasq: DiaASQ's dialogues in, its table out)", elem_id="convention", min_width=200)
                with gr.Row():
                    spans = gr.Dropdown(SPANS, value=EXAMPLE["spans"], label="spans (span-index quads, JSON lines; with similarity exact)", elem_id="spans", min_width=200)
                    implicit_split = gr.Checkbox(value=EXAMPLE["implicit_split"], label="implicit_split (ACOS's EA&EO / IA&EO / EA&IO / IA&IO rows)", elem_id="implicit-split", min_width=200)
                    legacy_keys = gr.Checkbox(value=EXAMPLE["legacy_keys"], label="add the original Space's keys", min_width=200)
                defaults = {tuple_len: EXAMPLE["tuple_len"], weights: EXAMPLE["weights"], similarity: EXAMPLE["similarity"], duplicates: EXAMPLE["duplicates"], legacy_keys: False, parse: NO_PARSER, implicit_split: False, spans: NO_SPANS}
                page.standard_sets(
                    {name: {references: text, convention: "diaasq", **defaults} for name, text in zip(SETS, HELD)},
                    "DiaASQ's test sets (github.com/unikcc/DiaASQ, MIT; data/ of this Space holds the fields its scorer reads): put your prediction file in Predictions.",
                )
                predictions_b = page.second_system("samples")
                files_b = page.uploads({"predictions_b": predictions_b})
                gr.Examples([[MVP_EXAMPLE[name] for name in ("predictions", "references", "parse")]], [predictions, references, parse], label="Model text (MvP)")
        gr.Markdown(
            "Sentiment quads `target | opinion | aspect | polarity`, joined by ` & `, one sample per line. "
            "Each predicted quad is matched one-to-one to the reference quad that maximises the total match "
            "degree (target and opinion by ROUGE-L over Chinese characters and words, aspect and polarity "
            "exactly); a pair of degree 0.75 counts as 0.75 of a true positive. The exact-match F1 is the "
            "papers' number. Or paste what a generative model writes (one text per line, references as "
            "the gold target texts) and choose its decoding convention under parser: the result counts "
            "the texts it could not fully read (parse_failures). A file holds quad strings one sample a line, "
            "or JSON samples (.json, .jsonl; DiaASQ dialogues too), as `paperscore quad` reads them. "
            "convention `diaasq`: DiaASQ's own 13-row table (its `run_eval.py`) over its prediction and gold "
            "files (upload both, or paste each as one JSON array or one dialogue a line), spans by token index; "
            "leave the other options as they are. "
            "tuple_len: which elements each quad string holds, in order (any subset of the four; type another order, "
            "such as 30, if your strings have it). implicit_split: ACOS's exact figures by explicit or implicit (NULL) "
            "target and opinion, its four rows EA&EO, IA&EO, EA&IO, IA&IO. spans (with similarity exact): span-index quads, "
            'one JSON line a sample, target and opinion as [start, end] token indices: `[[[0, 1], [3, 4], "food#taste", "pos"]]` '
            "(end exclusive as DiaASQ and ACOS write it, or inclusive as Span-ASTE does; null or [-1, -1]: implicit)."
            " Predictions B: a second system, tested against the first by a paired bootstrap "
            f"({page.PAIRED['n_resamples']:,} resamples, seed {page.PAIRED['seed']}) on the headline's figure.\n\n" + LIMITS
        )
        gr.Markdown("Alignment: matched pairs, then unmatched quads (degree 0); under convention diaasq, DiaASQ's rows")
        alignment = gr.HTML(elem_id="alignment")
        result = page.raw_json()
    page.card_tab(HERE)
    page.tool(quad_match)
    shown_inputs = [predictions, references, tuple_len, weights, similarity, duplicates, legacy_keys, parse, convention, implicit_split, spans]  # show()'s, the contract of /compute
    shown_outputs = [result, headline, signature, figures, alignment]
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
