"""Gradio demo of coref_conll: a key and a response document in, the reference scorer's
metrics out, with both texts side by side and each mention coloured by its entity.
Builds `demo` on import; launches only as a script."""

import html
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
metric = evaluate.load(str(HERE / "coref_conll.py"), keep_in_memory=True)
# The vendored scoring package that evaluate loaded beside the metric script.
package = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_coref")
core = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_core")
corefud = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_corefud")
# The parsers of model text (the metric's vendored copy of paperscore.parse).
parsing = importlib.import_module(type(metric).__module__.rpartition(".")[0] + ".paperscore_parse")
NO_PARSER = "none: documents or clusters"
PARSERS = [NO_PARSER, *package.COREF_PARSERS]
sys.path.insert(0, str(HERE))  # the page helpers vendored beside app.py (a Space runs it from there)
import paperscore_demo as page  # noqa: E402

sys.path.remove(str(HERE))
compare = page.compare_module(metric)


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
EXAMPLE = dict(predictions=EXAMPLES[FIRST][0], references=EXAMPLES[FIRST][1], key_file=None, response_file=None, keep_singletons=True, zero_division="0")
METRICS = ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mentions"]
# The figure a visitor came for.
HEADLINE_FIGURE = ("conll_f1", "the CoNLL-2011/2012 shared tasks (Pradhan et al., 2014): mean of MUC, B3 and CEAFe F1")
# CorefUD CoNLL-U: the CRAC shared tasks' CoNLL F1, under the matching chosen.
CONLLU_HEADLINE = "CoNLL F1 under {} matching, as corefud-scorer v1.2 gives it for the CRAC shared tasks (Novák et al., 2022-2024)"


# The demo's limits, stated on the page and checked before any work.
MAX_BYTES = 1_000_000  # a text box or an uploaded file
MAX_TOKENS = 100_000  # a document's tokens, and any span end
MAX_MENTIONS = 20_000  # mentions of one side, all documents together
MAX_PARSED_TOKENS = 5_000  # with a parser: difflib aligns the reply's words to the source's
MAX_REPLY_CHARACTERS = 20_000  # with a parser: a 60,000-character reply took 11-15 s to place
LIMITS = (
    f"**Limits:** {MAX_BYTES // 1_000_000} MB ({MAX_BYTES:,} bytes) per text box or file, documents of up to {MAX_TOKENS:,} tokens "
    f"(span ends below {MAX_TOKENS:,}), {MAX_MENTIONS:,} mentions per side; with a parser, a reply of up to "
    f"{MAX_REPLY_CHARACTERS:,} characters on a source document of up to {MAX_PARSED_TOKENS:,} tokens; each request may run "
    f"{page.TIME_LIMIT} s, {page.CONCURRENCY} at once."
)


def refuse(argument, problem):
    raise ValueError(f"{argument}: {problem}")


def check_upload(upload, argument):
    """An uploaded file's path, within the demo's limit (checked on upload too)."""
    path = page.file_path(upload)
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        refuse(argument, f"the file is larger than the demo's limit of {MAX_BYTES:,} bytes ({page.file_name(path)}: {page.megabytes(size)}, {size:,} bytes)")
    return path


def read_side(text, upload, argument, span_convention="token_inclusive"):
    """One side: an uploaded CoNLL or jsonlines file when given, else the text box (JSON
    clusters starting with "[", jsonlines with its spans in span_convention, or CoNLL
    lines with or without #begin document). Returns (form, documents or JSON clusters,
    text); sizes checked first."""
    if upload:
        path = check_upload(upload, argument)
        data = page.read_upload(path, argument, MAX_BYTES)
        source = f"{argument} file {Path(path).name}"
    else:
        if len(text) > MAX_BYTES:
            refuse(argument, f"the text is longer than the demo's limit of {MAX_BYTES:,} characters")
        if not text.strip():
            refuse(argument, "no document given")
        data, source = text, argument
    if corefud.is_conllu(data):  # CorefUD CoNLL-U (# newdoc, Entity= in MISC)
        return "conllu", corefud.read_conllu(data, source), data
    if not data.lstrip().startswith("["):
        form, documents = package.parse_documents(data, source, whole=True, predicted=argument == "predictions", span_convention=span_convention)
        if form == "conll" and "\t" not in data and not any(len(d.first) for d in documents):
            refuse(argument, "the format was not recognised: give CoNLL lines (tab-separated, coreference in the last column), JSON clusters starting with [, or a jsonlines line starting with {")
        return form, documents, data
    try:
        clusters = json.loads(data)
    except json.JSONDecodeError as error:
        refuse(argument, f"not valid JSON ({error.msg}, line {error.lineno} column {error.colno})")
    except RecursionError:
        refuse(argument, "JSON nested too deeply")
    package.check_inputs([clusters], [[]])  # names a bad cluster or mention
    if span_convention != "token_inclusive":
        refuse(argument, f"span_convention={span_convention!r} applies to jsonlines input; JSON clusters are read as token positions with the end included (token_inclusive)")
    return "clusters", clusters, data


def check_limits(form, documents, argument):
    """Refuse a side beyond the demo's token and mention limits, before any work."""
    if form == "conllu":  # every document's words together
        words = sum(len(sentence.nodes) for sentence in documents.sentences)
        if words > MAX_TOKENS:
            refuse(argument, f"{words:,} words, beyond the demo's limit of {MAX_TOKENS:,} (all documents of a CoNLL-U side together)")
        n_mentions, ends = sum(len(ms) for _, entities in documents.documents for _, ms in entities), []
    elif form == "clusters":
        spans = [m for cluster in documents for m in cluster if not isinstance(m, str)]
        n_mentions, ends = sum(map(len, documents)), [int(m[1]) + 1 for m in spans]
    else:
        n_mentions = sum(len(d.first) for d in documents)
        ends = [d.n_tokens for d in documents]
    if max(ends, default=0) > MAX_TOKENS:
        refuse(argument, f"a document reaches token {max(ends) - 1:,}, beyond the demo's limit of {MAX_TOKENS:,} tokens")
    if n_mentions > MAX_MENTIONS:
        refuse(argument, f"{n_mentions:,} mentions, beyond the demo's limit of {MAX_MENTIONS:,}")


def conllu_entities(conllu, name):
    """A CoNLL-U document's entities as lists of mention texts (its words, with the
    sentence and word of its start), for drawing; None when the document is not there."""
    forms = [dict(zip(sentence.nodes, sentence.forms)) for sentence in conllu.sentences]
    entities = dict(conllu.documents).get(name)
    if entities is None:
        return None
    return [[" ".join(forms[s - 1].get(n, "_") for s, n in m.words) + f" ({m.words[0][0]}:{m.words[0][1]})" for m in ms] for _, ms in entities]


def prepare_conllu(sides, keep_singletons, zero_division, document, matching, zero_matching="dependent"):
    """CorefUD CoNLL-U on both sides: (metric keyword arguments, no unmatched documents
    (the scorer refuses them), per side the shown document's (name, mention texts, None))."""
    for (form, _, _), argument in zip(sides, ("references", "predictions")):
        if form != "conllu":
            refuse(argument, "is not CorefUD CoNLL-U while the other side is: give both sides as CoNLL-U (# newdoc, Entity= in MISC)")
    (_, key, key_text), (_, response, response_text) = sides
    names = [name for name, _ in key.documents]
    if not (isinstance(document, (int, float)) and float(document).is_integer() and 1 <= document <= len(names)):
        refuse("document", f"{document!r} is not a document number from 1 to {len(names)} (the key's documents, in order)")
    name = names[int(document) - 1]
    title = f"{name} ({int(document)} of {len(names)})" if len(names) > 1 else name
    kwargs = dict(
        predictions=[response_text],
        references=[key_text],
        matching=matching,
        zero_matching=zero_matching,
        keep_singletons=keep_singletons,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    shown = tuple((title, conllu_entities(side, name) or [], None) for side in (key, response))
    return kwargs, {"missing_documents": [], "extra_documents": []}, shown


def prepare_parsed(reply, references, key_file, response_file, keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens):
    """A model's reply to one key document, read by the parser `parse` and placed on the
    source tokens (the tokens box, split on whitespace, else the key's own words) as
    compute(parse=...) places them: (metric keyword arguments, no unmatched documents,
    what to draw: the key, and the mentions the parser placed, on the source tokens)."""
    if response_file:
        refuse("response_file", "with a parser, paste the model's reply in the predictions box (one document)")
    if matching != "exact" or zero_matching != "dependent":
        refuse("matching" if matching != "exact" else "zero_matching", "applies to CorefUD CoNLL-U; a parser places model text on CoNLL-2012 or jsonlines keys, or JSON clusters with the source tokens")
    if len(reply) > MAX_REPLY_CHARACTERS:
        refuse("predictions", f"a reply of {len(reply):,} characters, longer than the demo's limit of {MAX_REPLY_CHARACTERS:,} with a parser")
    form, key, key_text = read_side(references, key_file, "references", span_convention)
    if form == "conllu":
        refuse("references", "with a parser the key is a CoNLL-2012 or jsonlines document, or JSON clusters with the source tokens; not CorefUD CoNLL-U")
    check_limits(form, key, "references")
    if form != "clusters" and len(key) != 1:
        refuse("references", f"holds {len(key)} documents; with a parser give the one document the model's reply is for")
    if document != 1:
        refuse("document", f"{document!r}: with a parser there is one document, number 1")
    given = tokens.split() if tokens.strip() else None
    if given is not None and len(given) > MAX_PARSED_TOKENS:
        refuse("tokens", f"{len(given):,} tokens, beyond the demo's limit of {MAX_PARSED_TOKENS:,} with a parser")
    key_item = key if form == "clusters" else key_text
    words = package.source_tokens([key_item], None if given is None else [given])[0]  # the package's reading
    if len(words) > MAX_PARSED_TOKENS:
        refuse("references", f"a document of {len(words):,} tokens, beyond the demo's limit of {MAX_PARSED_TOKENS:,} with a parser")
    kwargs = dict(
        predictions=[reply],
        references=[key_item],
        tokens=[words],
        parse=parse,
        span_convention=span_convention,
        keep_singletons=keep_singletons,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    placed = parsing.parse_coref([reply], parse, [words])[0][0]  # for drawing: the mentions placed
    response = [spans for spans in ([span for span in cluster if span is not None] for cluster in placed) if spans]
    key_clusters = key if form == "clusters" else package.document_clusters(key[0])
    name = None if form == "clusters" else key[0].name
    return kwargs, {"missing_documents": [], "extra_documents": []}, ((name, key_clusters, words), (name, response, words))


def prepare(predictions, references, key_file, response_file, keep_singletons, zero_division, document=1, span_convention="token_inclusive", matching="exact", zero_matching="dependent", parse=NO_PARSER, tokens=""):
    """(metric keyword arguments, unmatched documents, what to draw: per side the shown
    document's (name, clusters, words); `document`: which one, 1-based in the key's order;
    span_convention: how jsonlines spans count, on both sides; matching, zero_matching: CoNLL-U's;
    parse: a parser of model text (PARSERS) for the predictions box, tokens its source tokens)."""
    if matching not in corefud.MATCHING:
        refuse("matching", f"{matching!r} is not one of {', '.join(corefud.MATCHING)}")
    if zero_matching not in corefud.ZERO_MATCHING:
        refuse("zero_matching", f"{zero_matching!r} is not one of {', '.join(corefud.ZERO_MATCHING)}")
    if parse not in PARSERS:
        refuse("parse", f"{parse!r} is not one of {', '.join(PARSERS)}")
    if parse != NO_PARSER:
        return prepare_parsed(predictions, references, key_file, response_file, keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens)
    if tokens.strip():
        refuse("tokens", "the source tokens are read with a parser only: choose one, or leave the box empty")
    sides = [read_side(references, key_file, "references", span_convention), read_side(predictions, response_file, "predictions", span_convention)]
    for (form, documents, _), argument in zip(sides, ("references", "predictions")):
        check_limits(form, documents, argument)
    if "conllu" in (sides[0][0], sides[1][0]):
        return prepare_conllu(sides, keep_singletons, zero_division, document, matching, zero_matching)
    if matching != "exact":
        refuse("matching", f"{matching!r} needs CorefUD CoNLL-U on both sides (its mentions carry heads); other input matches spans exactly")
    if zero_matching != "dependent":
        refuse("zero_matching", f"{zero_matching!r} applies to CorefUD CoNLL-U zeros (empty nodes); other input has none")
    (key_form, key, key_text), (response_form, response, response_text) = sides
    unmatched = {"missing_documents": [], "extra_documents": []}
    if "clusters" in (key_form, response_form) or len(key) == len(response) == 1:
        # one document a side: a pair, whatever the names
        for (form, documents, _), argument in zip(sides, ("references", "predictions")):
            if form != "clusters" and len(documents) != 1:
                refuse(argument, f"holds {len(documents)} documents, the other side one: give one document a side, or upload two files to match documents by name")
        sizes = [d[0].n_tokens for form, d, _ in sides if form != "clusters"]
        if len(sizes) == 2 and sizes[0] != sizes[1]:
            refuse("predictions", f"the document holds {sizes[1]} tokens, the references' {sizes[0]}; both sides must hold the same tokens")
    else:
        key, response, unmatched["missing_documents"], unmatched["extra_documents"] = package.pair_documents(
            (key_form, key), (response_form, response), "references", "predictions"
        )

    def clusters(form, documents):
        return [documents] if form == "clusters" else [package.document_clusters(d) for d in documents]

    n_documents = 1 if key_form == "clusters" else len(key)
    if not (isinstance(document, (int, float)) and float(document).is_integer() and 1 <= document <= n_documents):
        refuse("document", f"{document!r} is not a document number from 1 to {n_documents} (the key's documents, in order)")
    index = int(document) - 1

    def shown(form, documents, text):
        if form == "clusters":
            return None, documents, None
        document = documents[index]
        words = document.words if form == "jsonlines" else conll_words(text, document.name)
        return document.name, package.document_clusters(document), words

    kwargs = dict(
        predictions=clusters(response_form, response),
        references=clusters(key_form, key),
        keep_singletons=keep_singletons,
        zero_division="nan" if zero_division == "nan" else float(zero_division),
    )
    return kwargs, unmatched, (shown(key_form, key, key_text), shown(response_form, response, response_text))


def compute_kwargs(predictions, references, key_file, response_file, keep_singletons, zero_division, span_convention="token_inclusive", matching="exact", zero_matching="dependent"):
    """The metric's keyword arguments for the demo's inputs."""
    return prepare(predictions, references, key_file, response_file, keep_singletons, zero_division, span_convention=span_convention, matching=matching, zero_matching=zero_matching)[0]


def conll_words(text, name=None):
    """The words of a CoNLL document: the non-blank lines inside `#begin document NAME`
    and `#end document` (without a name, the first document or the whole text), the
    fourth column when there are five or more; None when the document is not there."""
    lines = text.split("\n")
    begins = [i for i, line in enumerate(lines) if line.startswith("#") and "begin document" in line]
    if name is not None:
        begins = [i for i in begins if lines[i].rstrip("\r").endswith(f"begin document {name}")]
        if not begins:
            return None
    if begins:
        lines = lines[begins[0] + 1 :]
        lines = lines[: next((i for i, line in enumerate(lines) if "end document" in line), len(lines))]
    cells = [line.rstrip("\r").rstrip("\t").split("\t") for line in lines if line.strip()]
    return [c[3] if len(c) > 4 else c[0] for c in cells]


def colours(key, response):
    """Each key entity a colour (its number); a response entity takes the colour of the key
    entity it shares most mentions with (greedy, one to one), others none (grey)."""
    key_colour = list(range(len(key)))
    owner = {json.dumps(m): i for i, cluster in enumerate(key) for m in cluster}
    shared = [
        (sum(owner.get(json.dumps(m)) == k for m in cluster), -r, k, r)
        for r, cluster in enumerate(response)
        for k in {owner.get(json.dumps(m)) for m in cluster} - {None}
    ]
    response_colour, taken = [None] * len(response), set()
    for _, _, k, r in sorted(shared, reverse=True):
        if k not in taken and response_colour[r] is None:
            response_colour[r] = key_colour[k]
            taken.add(k)
    return key_colour, response_colour


def render(clusters, words, palette, title):
    """The text with each mention in brackets coloured by its entity (its number below
    the closing bracket), or, without a text, the clusters as lists."""
    head = f"<h3>{html.escape(title)}</h3>"
    if words is None and clusters and isinstance(clusters[0][0], str):
        rows = [
            f'<li class="{page.entity(palette[n])}">entity {n}: ' + ", ".join(html.escape(m) for m in cluster) + "</li>"
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
        out += [f'<b class="{page.entity(palette[n])}">[</b>' for _, n in sorted(opens[t])]
        out.append(html.escape(word))
        out += [f'<b class="{page.entity(palette[n])}">]<sub>{n}</sub></b>' for _, n in sorted(closes[t])]
        out.append(" ")
    return head + f'<div style="line-height:2;font-size:15px">{"".join(out)}</div>'


def scored(predictions, references, key_file=None, response_file=None, keep_singletons=True, zero_division="0", document=1, span_convention="token_inclusive", matching="exact", zero_matching="dependent", parse=NO_PARSER, tokens=""):
    """(the metric's keyword arguments, the unmatched documents, the document to draw, the
    metrics scored, the result with its counts), or the page's error."""
    try:
        kwargs, unmatched, shown = prepare(predictions, references, key_file, response_file, keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens)
        # CoNLL-U: corefud-scorer's -m all (no mention figures; its mor and zero instead)
        chosen = METRICS if "matching" not in kwargs else list(corefud.METRICS)
        result = metric.fresh().compute(**kwargs, metrics=chosen, return_counts=True, return_signature=True)
    except ValueError as error:
        page.fail(error, "document")
    return kwargs, unmatched, shown, chosen, result


def metric_rows(chosen, result):
    """(headers, rows) of the metrics table: each metric's recall, precision, F1 and the
    counts the reference prints (BLANC: coreference links · non-coreference links)."""
    rows = []
    for m in chosen:
        counts = {part: f"{n:g} / {d:g}" for part, (n, d) in result["counts"][m].items()}
        if m == "blanc":  # coreference links, then non-coreference links
            counts = {part: f"{counts['coreference_' + part]} · {counts['non_coreference_' + part]}" for part in ("recall", "precision")}
        rows.append([m, result[f"{m}_recall"], result[f"{m}_precision"], result[f"{m}_f1"], counts["recall"], counts["precision"]])
    return ["metric", "recall", "precision", "f1", "recall counts", "precision counts"], rows


def summary(kwargs, unmatched, shown, chosen, result, document=1, parse=NO_PARSER):
    """(the headline figures, the metrics table, both sides drawn)."""
    (key_name, key, key_words), (response_name, response, response_words) = shown
    headline = {"conll_f1": result["conll_f1"]}
    headline.update((f"{m}_{part}", result[f"{m}_{part}"]) for m in chosen if m != "mentions" for part in ("recall", "precision", "f1"))
    headline.update(unmatched)
    for name in ("parse_failures", "parse_failure_examples", "mentions_on_changed_text", "mentions_on_changed_text_examples"):
        if name in result:  # a parser read the predictions
            headline[name] = result[name]
    headline["signature"] = result["signature"]
    headers, rows = metric_rows(chosen, result)
    table = {"headers": headers, "data": [[m, round(r, 4), round(p, 4), round(f, 4), *counts] for m, r, p, f, *counts in rows]}
    key_colour, response_colour = colours(key, response)
    words = key_words or response_words
    title = f" — document {key_name}" + (f" ({int(document)} of {len(kwargs['references'])})" if len(kwargs["references"]) > 1 else "") if key_name else ""
    return (
        headline,
        table,
        render(key, key_words or words, key_colour, "Key (references)" + title),
        render(response, response_words or words, response_colour, ("Response (predictions)" if parse == NO_PARSER else f"Response: the mentions {parse} placed on the source tokens") + title),
    )


def score(predictions, references, key_file=None, response_file=None, keep_singletons=True, zero_division="0", document=1, span_convention="token_inclusive", matching="exact", zero_matching="dependent", parse=NO_PARSER, tokens=""):
    found = scored(predictions, references, key_file, response_file, keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens)
    return summary(*found, document, parse)


def draw(headline, table, key_html, response_html, matching):
    key, paper = HEADLINE_FIGURE
    if "|format:conllu|" in headline["signature"]:
        paper = CONLLU_HEADLINE.format(matching)
    rows = [[cell if isinstance(cell, str) else page.figure(cell) for cell in row] for row in table["data"]]
    unmatched = "".join(f"<p>{name.replace('_', ' ')}: {html.escape(', '.join(headline[name]))}</p>" for name in ("missing_documents", "extra_documents") if headline[name])
    others = page.parse_report(headline, "document") + page.figures(headline, skip=(key,)) + page.table(table["headers"], rows) + unmatched
    return headline, page.headline(key, headline[key], paper), headline["signature"], others, key_html, response_html


def show(predictions, references, key_file=None, response_file=None, keep_singletons=True, zero_division="0", document=1, span_convention="token_inclusive", matching="exact", zero_matching="dependent", parse=NO_PARSER, tokens=""):
    """The page: the raw figures, the headline, the signature, the metrics table and both
    texts drawn (CoNLL-U: each entity's mentions listed); with a parser, its report."""
    return draw(*score(predictions, references, key_file, response_file, keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens), matching)


def command(kwargs, chosen, sides, plain):
    """(the words of the command giving the page's numbers, {file name: lines} of the files
    it reads): `paperscore coref KEY RESPONSE` when `plain` (both sides CoNLL, jsonlines or
    CoNLL-U documents that the command pairs as the page did: sides {name: (file name, text)});
    else a Python call on the keyword arguments the page gave the metric, as JSON."""
    if plain:
        (key_name, key_text), (response_name, response_text) = sides["references"], sides["predictions"]
        words = ["paperscore", "coref", key_name, response_name]
        words += [] if kwargs["keep_singletons"] else ["--remove-singletons"]
        words += ["--format", "conllu", "--matching", kwargs["matching"], "--zero-matching", kwargs["zero_matching"]] if "matching" in kwargs else []
        words += ["--zero-division", page.number(kwargs["zero_division"])]
        return words, {key_name: key_text.split("\n"), response_name: response_text.split("\n")}
    call = "import json, paperscore.coref as coref; print(json.dumps(coref.compute(**json.load(open('coref_conll_inputs.json')))))"
    return ["python", "-c", call], {"coref_conll_inputs.json": [json.dumps({**kwargs, "metrics": chosen}, ensure_ascii=False)]}


def side_text(text, upload):
    """A side's text: its uploaded file's when given (read_side checked it), else the box's."""
    return page.read_upload(upload, "file", MAX_BYTES) if upload else text


# The LitBank keys the Space holds (data/README.md: CC BY 4.0).
DATA = HERE / "data"
SETS = {
    "LitBank: Emma, its first ~2,000 words (key)": "158_emma_brat.conll",
    "LitBank: The Masque of the Red Death (key)": "1064_the_masque_of_the_red_death_brat.conll",
}
# The held files as the boxes show them: {text: file name}.
HELD = {(DATA / name).read_text(encoding="utf-8"): name for name in SETS.values()}


def respond(predictions, references, key_file=None, response_file=None, keep_singletons=True, zero_division="0", document=1, span_convention="token_inclusive", matching="exact", zero_matching="dependent", parse=NO_PARSER, tokens="", predictions_b=""):
    """The page: show()'s outputs, then system B's paired test (when given), the downloads
    (the metrics table, the files the command reads) and the command."""
    options = (keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens)
    kwargs, unmatched, shown, chosen, result = scored(predictions, references, key_file, response_file, *options)
    comparison = ""
    if predictions_b.strip():
        comparison = page.system_b(lambda: prepare(predictions_b, references, key_file, None, *options)[0]["predictions"], compare, "coref_conll", kwargs, HEADLINE_FIGURE[0], "document")
    texts = {"references": side_text(references, key_file), "predictions": side_text(predictions, response_file)}
    names = {name: page.file_name(upload) if upload else HELD.get(texts[name]) or f"{'key' if name == 'references' else 'response'}.conll" for name, upload in (("references", key_file), ("predictions", response_file))}
    one_each = len(kwargs["references"]) == 1 and shown[0][0] != shown[1][0]  # two single documents paired whatever their names
    plain = parse == NO_PARSER and span_convention == "token_inclusive" and not one_each and not any(text.lstrip().startswith("[") for text in texts.values())
    words, files = command(kwargs, chosen, {name: (names[name], texts[name]) for name in texts}, plain)
    outputs = draw(*summary(kwargs, unmatched, shown, chosen, result, document, parse), matching)
    return (*outputs, comparison, page.downloads("coref_conll", *metric_rows(chosen, result), files), page.command(words))


def coref_conll(predictions: str, references: str, keep_singletons: bool = True, zero_division: str = "0", span_convention: str = "token_inclusive", matching: str = "exact", zero_matching: str = "dependent", parse: str = NO_PARSER, tokens: str = "") -> str:
    """Score coreference as the CoNLL reference scorer does: MUC, B3, CEAFm, CEAFe, BLANC, LEA and the CoNLL F1 (for CorefUD CoNLL-U, as corefud-scorer does).

    Args:
        predictions: The response: a CoNLL-2011/2012 document (coreference in the last column), JSON clusters (mention ids, or [start, end] token spans), jsonlines (doc_key, sentences, clusters) or CorefUD CoNLL-U; with a parser, an LLM's reply for the key's one document.
        references: The key, the same way (documents matched by name).
        keep_singletons: Keep entities of one mention (the reference scorer does).
        zero_division: The value of a 0/0 ratio: "0", "1" or "nan".
        span_convention: How jsonlines spans count, both sides: "token_inclusive" (e2e-coref) or "token_exclusive" (wl-coref).
        matching: CorefUD CoNLL-U only: "exact", "partial" or "head".
        zero_matching: CorefUD CoNLL-U zeros: "dependent" or "linear".
        parse: "none: documents or clusters", or the parser of an LLM's reply: coref_markdown ([Mary](#1) markup) or coref_clusters (JSON clusters of mention strings).
        tokens: With a parser, the source tokens separated by spaces (empty: the key document's own words).

    Returns:
        The result as JSON: compute()'s figures (floats in [0, 1]), the documents missing from or extra in the response, and the signature to report beside them.
    """
    kwargs, unmatched, _, _, result = scored(predictions, references, None, None, keep_singletons, zero_division, 1, span_convention, matching, zero_matching, parse, tokens)
    return page.as_json({**{key: value for key, value in result.items() if key != "counts"}, **unmatched})


def pick(name):
    return EXAMPLES[name]


def checked_upload(upload, argument):
    """A dropped key or response file checked at once (size, UTF-8): the page's error."""
    page.read_upload(check_upload(upload, argument), argument, MAX_BYTES)


with gr.Blocks(title="coref_conll", delete_cache=page.DELETE_CACHE) as demo:
    with gr.Tab("Demo"):
        gr.Markdown("# coref_conll\nMUC, B3, CEAFm, CEAFe, BLANC, LEA and the CoNLL score, as the CoNLL reference scorer computes them (details and limits below).")
        with page.main():
            with page.part("inputs"):
                with gr.Row():
                    predictions = gr.Textbox(value=EXAMPLE["predictions"], label="Predictions (response)", placeholder="a CoNLL document, JSON clusters or a jsonlines line", elem_id="predictions", **{**page.BOX, "max_lines": 6})
                    references = gr.Textbox(value=EXAMPLE["references"], label="References (key)", placeholder="the key, the same way", elem_id="references", **{**page.BOX, "max_lines": 6})
                with gr.Row():
                    response_file = page.drop_zone("Response file (replaces the box)", "response-file")
                    key_file = page.drop_zone("Key file (replaces the box)", "key-file")
                button = gr.Button("Compute", variant="primary", elem_id="compute-btn")
            with page.part("results"):
                headline, signature, metrics_table = page.outputs()
                comparison, downloads, command_line = page.take_home()
            with page.part("options"):
                example = gr.Dropdown(list(EXAMPLES), value=FIRST, label="Pick an example")
                with gr.Row():
                    keep_singletons = gr.Checkbox(value=EXAMPLE["keep_singletons"], label="keep_singletons (the reference keeps them)", min_width=160)
                    zero_division = gr.Dropdown(["0", "1", "nan"], value=EXAMPLE["zero_division"], label="zero_division", min_width=160)
                    document = gr.Number(value=1, precision=0, minimum=1, label="Document to draw (1-based, in the key's order; all are scored)", elem_id="document", min_width=160)
                with gr.Row():
                    matching = gr.Dropdown(list(corefud.MATCHING), value="exact", label="matching (CorefUD CoNLL-U: exact, partial or head, as CRAC's tables)", elem_id="matching", min_width=160)
                    zero_matching = gr.Dropdown(list(corefud.ZERO_MATCHING), value="dependent", label="zero_matching (CorefUD CoNLL-U zeros: by their DEPS, or by position)", elem_id="zero-matching", min_width=160)
                    span_convention = gr.Dropdown(list(package.SPAN_CONVENTIONS), value="token_inclusive", label="span_convention of jsonlines spans, both sides (e2e-coref: token_inclusive; wl-coref: token_exclusive)", elem_id="span-convention", min_width=160)
                with gr.Row():
                    parse = gr.Dropdown(PARSERS, value=NO_PARSER, label="parser: the predictions box holds an LLM's reply for the key's one document (coref_markdown: Le & Ritter's [Mary](#1) markup; coref_clusters: JSON clusters of mention strings)", elem_id="parse", min_width=160)
                    tokens = gr.Textbox(value="", label="Source tokens, with a parser (separated by spaces; empty: the key document's own words)", lines=2, elem_id="tokens", min_width=160)
                page.standard_sets(
                    {name: {references: text, key_file: None} for name, text in zip(SETS, HELD)},
                    "Documents of LitBank's coreference layer (github.com/dbamman/litbank, CC BY 4.0; data/ of this Space): put your system's response in Predictions.",
                )
                predictions_b = page.second_system("response")
                files_b = page.uploads({"predictions_b": predictions_b})
        gr.Markdown(
            "Paste one document per box: a CoNLL-2011/2012 document (coreference "
            "in the last column) or JSON clusters (mention ids, or `[start, end]` token spans). Or upload a "
            "key and a response file, each CoNLL or jsonlines (`doc_key`, `sentences`, `clusters`, as the "
            "e2e-coref family writes it): documents are matched by name, a CoNLL `(NAME); part N` meeting the "
            "doc_key `NAME_N`, and documents missing or extra are listed in the result. An upload replaces "
            "its text box. CorefUD CoNLL-U (`# newdoc`, `Entity=` in MISC), both sides, is scored as corefud-scorer "
            "v1.2 (the CRAC shared tasks' scorer) under the `matching` chosen: `exact`, `partial` or `head` (CRAC 2023-2025 "
            "report head matching without singletons: untick keep_singletons), zeros aligned by `zero_matching`, with the scorer's "
            "Mention Overlap Ratio (`mor`) and zero anaphor score (`zero`) beside the six metrics. An LLM's reply "
            "(`[Mary](#1) said [she](#1)` markup, or JSON clusters of mention strings) is read by the **parser** chosen "
            "and placed on the key's words (or the source tokens typed): mentions on text the model changed are counted "
            "and scored as matching nothing. Predictions B: a second system's response, tested against the first by a paired "
            f"bootstrap over the documents ({page.PAIRED['n_resamples']:,} resamples, seed {page.PAIRED['seed']}) on the CoNLL F1.\n\n" + LIMITS
        )
        gr.Markdown("Each mention is in brackets coloured by its entity; a response entity shares the colour of the key entity it overlaps most, grey when it has none.")
        with gr.Row():
            key_text = gr.HTML(elem_id="key-text")
            response_text = gr.HTML(elem_id="response-text")
        result = page.raw_json()
        example.change(pick, example, [predictions, references], api_name=False)
    page.card_tab(HERE)
    page.tool(coref_conll)
    shown_inputs = [predictions, references, key_file, response_file, keep_singletons, zero_division, document, span_convention, matching, zero_matching, parse, tokens]  # show()'s, the contract of /compute
    shown_outputs = [result, headline, signature, metrics_table, key_text, response_text]
    outputs = [*shown_outputs, comparison, downloads, command_line]
    page.connect(
        demo,
        button,
        respond,
        [*shown_inputs, predictions_b],
        outputs,
        api=(show, shown_inputs, shown_outputs),
        files={"references": (key_file, None), "predictions": (response_file, None)},
        reader=checked_upload,
    )
    page.connect_uploads(outputs, files_b, lambda upload, argument: page.read_upload(check_upload(upload, argument), argument, MAX_BYTES))

if __name__ == "__main__":
    demo.launch(**page.launch_options(SESSIONS))
