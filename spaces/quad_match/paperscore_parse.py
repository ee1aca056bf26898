# GENERATED from shared/paperscore/parse.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Parsers from what a generative model writes to the structures a family's compute() takes.

Every repository turns generated text into tuples with its own decoding function, and the
choice moves the numbers as much as the metric does. Each parser here restates one
published decoder, exactly (checked against the repository's own function on thousands of
random and malformed strings, tests/data/parse/), under a name and a version that go into
the signature: `asqp_paraphrase@2`. The parsers whose source is "paperscore"
are this project's own conventions, for model text no repository decodes (LLM JSON, chat
replies). Every reader runs in time linear in the text (tests/test_fuzz.py bounds it per
character), including on the periodic texts where a backtracking regular expression or
a search restarted at each offset is quadratic.

A text is never dropped: the pieces a parser cannot read become what the source repository
makes of them (each parser says which), usually a quad of empty strings, which
quad_match.compute counts as a predicted quad that matches nothing (and a quad whose
elements quad_match would read otherwise than the repository compares them: see
literal_elements). The report beside the
structures counts the texts with such a piece (`parse_failures`, with the first 0-based
indices); `strict=True` makes the first one a ValueError instead.

Quads (family quad_match) come back as lists of strings in the parser's `tuple_len` order
(quad.py's codes: 0 target, 1 opinion, 2 aspect category, 3 polarity), ready for
quad_match.compute(..., tuple_len=parser.tuple_len). Element strings are exactly as the
decoder leaves them (MvP writes an implicit target "null"; ABSA-QUAD's ASQP keeps its
sentiment words "great"/"bad"/"ok"), so references must go through the same parser, as the
papers' scripts do.
Event triggers (family micro_macro) come back as [trigger, type] pairs, which
place_triggers puts onto the candidates (micro_macro.compute(parse=...) does both).
CSC replies (family csc) come back as the corrected sentence; a reply the parser does not
recognise is the empty string, reported (paperscore's own parsers), or what the repository
reads of it, reported where the repository would not score it so.
A name alone is the parser's newest version (`csc_reply` is `csc_reply@2`), and a changed
reading is always a new version. An older one is selected by its full name while it still
reads as it did (`csc_reply@1`); one that read wrongly or stalled (the quad parsers' @1,
`coref_clusters@1`) is retired: its name is refused, saying what changed (RETIRED).
"""

import ast
import itertools
import json
import re
import unicodedata
import warnings
from bisect import bisect_left, bisect_right, insort
from collections import Counter, namedtuple

import numpy as np

from .paperscore_core import check_flags, input_error, read_json_values, read_lines

# fix: None, or a function (structure, source tokens, carry) -> (structure, problems) that
# corrects a prediction against its sentence after read (GAS's fix_pred_with_editdistance;
# `carry`, one dict per call of parse(), is what the repository's loop keeps between texts).
Parser = namedtuple("Parser", "name version family tuple_len read source fix", defaults=(None,))
FAILURE_EXAMPLES = 5  # how many failing example indices the report lists


def parser_id(parser):
    return f"{parser.name}@{parser.version}"


def _unread(width):
    """What an unreadable piece becomes: a quad of empty strings, malformed in quad_match
    (an empty aspect or polarity) for every tuple_len except "01"."""
    return [""] * width


TERMS = {"0": "target (aspect term)", "1": "opinion term"}  # the elements quad_match reads as implicit when empty


def literal_elements(quad, tuple_len, number, problems):
    """The quad, or else (reported) a malformed one, if quad_match would read one of its
    elements otherwise than the repository compares it, as it is: an empty target or
    opinion term, which quad_match reads as implicit (NULL), or an element with white space
    at either end, which quad_match strips. The repository's "" never matches an implicit
    "NULL" (a double space where ASQP's "it" was: a miss in ABSA-QUAD, a hit in quad_match
    as read before), nor "pizza " its gold "pizza". The malformed quad is the quad with one
    element more, the quad in JSON: it matches nothing, and two are equal (under
    duplicates="set") exactly when the repository's tuples are."""
    empty = next((TERMS[code] for code, element in zip(tuple_len, quad) if code in TERMS and element == ""), None)
    spaced = next((element for element in quad if isinstance(element, str) and element != element.strip()), None)
    if (empty is None and spaced is None) or quad == _unread(len(quad)):
        return quad
    what = f"an empty {empty}" if empty else f"the element {spaced!r} with white space at an end"
    problems.append(f"quad {number} {quad!r}: {what}, which the repository compares as it is (quad_match would not): a quad that matches nothing")
    return [*quad, json.dumps(quad, ensure_ascii=False)]


def compares_literally(parser):
    """Whether literal_elements applies: a quad parser restating a repository's decoder (the
    project's own conventions, source "paperscore", read null and "" as implicit)."""
    return parser.family == "quad_match" and not parser.source.startswith("paperscore")


def parse_one(parser, text, words=None, carry=None):
    """(structure, problems) of one text: parser.read; then parser.fix against the words of
    its sentence, for a parser that has one; then literal_elements on every quad, for a parser
    that compares_literally."""
    structure, problems = parser.read(text)
    if parser.fix:
        structure, more = parser.fix(structure, words, carry)
        problems = problems + more
    if compares_literally(parser):
        structure = [literal_elements(quad, parser.tuple_len, number, problems) for number, quad in enumerate(structure, 1)]
    return structure, problems


# ---------------------------------------------------------------------------------------
# ASQP paraphrase: "food quality is great because pizza is delicious [SSEP] ..."
# (IsakZhang/ABSA-QUAD eval_utils.extract_spans_para, task "asqp")


def _read_pieces(text, width, read_piece, template):
    """Pieces split on "[SSEP]" and stripped, each read by read_piece(piece, number,
    problems), or an empty tuple (reported) where that gives None: a blank text is one
    unreadable piece, as in ABSA-QUAD."""
    tuples, problems = [], []
    for number, piece in enumerate(text.split("[SSEP]"), 1):
        piece = piece.strip()
        read = read_piece(piece, number, problems)
        if read is None:
            read = _unread(width)
            problems.append(f"piece {number} {piece!r} is not '{template}'")
        tuples.append(read)
    return tuples, problems


def _because_is(piece):
    """"a is b because c is d" -> [[a, b], [c, d]]: exactly two parts on " because ", each
    exactly two on " is "; else None."""
    halves = piece.split(" because ")
    parts = [half.split(" is ") for half in halves]
    return parts if len(halves) == 2 and all(len(part) == 2 for part in parts) else None


def _implicit(aspect):
    return "NULL" if aspect.lower() == "it" else aspect


def _asqp_quad(piece, number, problems):
    parts = _because_is(piece)
    if parts:
        (category, sentiment), (aspect, opinion) = parts
        return [_implicit(aspect), opinion, category, sentiment]


def read_asqp_paraphrase(text):
    """"{category} is {sentiment word} because {aspect term} is {opinion term}" pieces (see
    _read_pieces, _because_is); an aspect term "it" (any case) is the implicit "NULL"."""
    return _read_pieces(text, 4, _asqp_quad, "category is sentiment because aspect is opinion")


SENTIMENT_WORDS = {"great": "positive", "bad": "negative", "ok": "neutral"}  # ABSA-QUAD's opinion2word


def _sentiment(word, number, problems):
    if word not in SENTIMENT_WORDS:
        problems.append(f"piece {number}: {word!r} is not one of {', '.join(SENTIMENT_WORDS)} (read as 'nope')")
    return SENTIMENT_WORDS.get(word, "nope")


def _aste_triplet(piece, number, problems):
    halves = piece.split(" because ")
    pair = halves[-1].split(" is ")
    if len(halves) == 2 and len(pair) == 2:
        return [*pair, _sentiment(halves[0][6:], number, problems)]


def read_asqp_paraphrase_aste(text):
    """ABSA-QUAD's task "aste": "It is {great|bad|ok} because {aspect} is {opinion}". The
    first 6 characters before " because " are dropped whatever they are; the sentiment word
    becomes positive/negative/neutral, any other word "nope" (reported). A piece that does
    not split into exactly two on " because " and then on " is " is an empty triplet."""
    return _read_pieces(text, 3, _aste_triplet, "It is sentiment because aspect is opinion")


def _tasd_triplet(piece, number, problems):
    parts = _because_is(piece)
    if parts:
        (category, first), (aspect, second) = parts
        sentiment = _sentiment(first, number, problems)
        if SENTIMENT_WORDS.get(second, "nope") != sentiment:
            problems.append(f"piece {number}: the sentiment words {first!r} and {second!r} disagree (the first is used)")
        return [_implicit(aspect), category, sentiment]


def read_asqp_paraphrase_tasd(text):
    """ABSA-QUAD's task "tasd": "{category} is {word} because {aspect} is {word}", read as
    (aspect, category, sentiment of the first word: positive/negative/neutral, else "nope",
    reported; a second word that disagrees is reported, as ABSA-QUAD prints it, and
    ignored). An aspect "it" (any case) is "NULL". Unreadable pieces are empty triplets."""
    return _read_pieces(text, 3, _tasd_triplet, "category is sentiment because aspect is sentiment")


# Many texts at once (rewards score 100,000 completions a step): each "[SSEP]" parser's
# reading of one stripped piece and its width, so that each distinct piece is read once;
# keyed by name@version, so that another version of a parser never borrows them.
PIECE_READERS = {"asqp_paraphrase@2": (_asqp_quad, 4), "asqp_paraphrase_aste@2": (_aste_triplet, 3), "asqp_paraphrase_tasd@2": (_tasd_triplet, 3)}
SSEP = "[SSEP]"


def split_pieces(texts):
    """(every text's pieces as _read_pieces cuts them: split on "[SSEP]", stripped; flat,
    in order; each text's number of pieces). One split of the texts joined by "[SSEP]" cuts
    them where each alone is cut: no proper prefix of "[SSEP]" is also a suffix of it, so
    no occurrence can straddle a joint."""
    if not texts:
        return [], np.zeros(0, np.int64)
    counts = np.fromiter(map(str.count, texts, itertools.repeat(SSEP)), np.int64, len(texts)) + 1
    return list(map(str.strip, SSEP.join(texts).split(SSEP))), counts


class QuadReader:
    """Model texts read by a quad_match parser as parser.read reads them, each distinct
    text once, and for the "[SSEP]" parsers each distinct piece once. `quads` holds every
    quad read (the parser's lists); equal pieces (or equal quads of other parsers) share
    an index, across calls of read()."""

    def __init__(self, parser):
        if parser.fix:
            raise ValueError(f"parse: {parser_id(parser)} corrects each prediction against its sentence (sources), which this reader is not given")
        self.parser, self.quads, self.seen, self.bad = parser, [], {}, []  # bad: per quad, read with a problem

    def read(self, texts):
        """(numbers, counts, failed) of a list of strings: every text's quads in order,
        flat, as indices into self.quads; each text's number of quads; whether a text had
        something the parser could not read (parse()'s failure rule)."""
        if parser_id(self.parser) in PIECE_READERS:
            read_piece, width = PIECE_READERS[parser_id(self.parser)]
            pieces, counts = split_pieces(texts)
            for piece in dict.fromkeys(pieces):
                if piece not in self.seen:
                    problems = []
                    quad = read_piece(piece, 0, problems)
                    if quad is None:
                        problems.append("unreadable")
                    self._add(piece, literal_elements(quad or _unread(width), self.parser.tuple_len, 0, problems), bool(problems))
            numbers = np.fromiter(map(self.seen.__getitem__, pieces), np.int64, len(pieces))
            bad = np.array(self.bad, bool)[numbers]
            failed = np.logical_or.reduceat(bad, np.cumsum(counts) - counts) if len(texts) else np.zeros(0, bool)
            return numbers, counts, failed
        done = {}
        for text in dict.fromkeys(texts):
            quads, problems = parse_one(self.parser, text)
            done[text] = ([self._add(tuple(quad), quad, False) for quad in quads], bool(problems))
        read = [done[text] for text in texts]
        numbers = np.fromiter(itertools.chain.from_iterable(found for found, _ in read), np.int64)
        counts = np.fromiter((len(found) for found, _ in read), np.int64, len(read))
        return numbers, counts, np.array([failed for _, failed in read], bool)

    def _add(self, key, quad, bad):
        if key not in self.seen:
            self.seen[key] = len(self.quads)
            self.quads.append(quad)
            self.bad.append(bad)
        return self.seen[key]


# ---------------------------------------------------------------------------------------
# GAS extraction tuples: "(pizza, delicious, positive); (service, slow, negative)"
# (IsakZhang/Generative-ABSA eval_utils.extract_spans_extraction)


def _read_gas(text, width, none_is_empty):
    """Pieces split on "; ", each losing its first and last character (the parentheses,
    whatever they are) and splitting on ", " into exactly `width` elements, else an empty
    tuple. Only UABSA reads "none" (any case, the whole text) as no tuples; a blank text is
    one unreadable piece."""
    if none_is_empty and text.lower() == "none":
        return [], []
    tuples, problems = [], []
    for number, piece in enumerate(text.split("; "), 1):
        elements = piece[1:-1].split(", ")
        if len(elements) != width:
            tuples.append(_unread(width))
            problems.append(f"piece {number} {piece!r} does not hold {width} elements joined by ', '")
            continue
        tuples.append(elements)
    return tuples, problems


def read_gas_uabsa(text):
    """(aspect term, sentiment), tuple_len "03"."""
    return _read_gas(text, 2, True)


def read_gas_aope(text):
    """(aspect term, opinion term), tuple_len "01"; an unreadable piece is ("", ""), which
    quad_match reads as an implicit pair."""
    return _read_gas(text, 2, False)


def read_gas_aste(text):
    """(aspect term, opinion term, sentiment), tuple_len "013"."""
    return _read_gas(text, 3, False)


def read_gas_tasd(text):
    """(aspect term, aspect category, sentiment), tuple_len "023"."""
    return _read_gas(text, 3, False)


# GAS annotation: the sentence with "[aspect|sentiment]" / "[aspect|opinion, opinion]" /
# "[aspect|sentiment|opinion, ...]" / "[aspect|category, ...|sentiment]" in place
# (IsakZhang/Generative-ABSA eval_utils.extract_spans_annotation)

SENTIMENTS = ("positive", "negative", "neutral")


def bracketed(text):
    """What GAS's re.findall(r"\[.*?\]", text) finds, in linear time: from each "[", the
    text to the first "]" after it on its line ("." stops at "\n"), the search going on
    after that "]". A "[" with no "]" after it on its line closes nothing, nor does any
    later "[" of that line: the regular expression rescans the rest of the line from each
    one (30,000 "[" took 87 s)."""
    found = []
    for line in text.split("\n"):
        start = line.find("[")
        while start >= 0:
            end = line.find("]", start + 1)
            if end < 0:
                break
            found.append(line[start : end + 1])
            start = line.find("[", end + 1)
    return found


def _read_annotation(text, width):
    """Every "[...]" (shortest, on one line: bracketed) split on "|" into exactly `width`
    parts, else an empty tuple (reported). Pairs: a second part holding "," is split on ", "
    into one pair each. Triplets: if the middle part is a sentiment word (ASTE:
    aspect|sentiment|opinions) the last part, else (TASD: aspect|categories|sentiment) the
    middle part, is split so."""
    tuples, problems = [], []
    for number, found in enumerate(bracketed(text), 1):
        parts = found[1:-1].split("|")
        if len(parts) != width:
            tuples.append(_unread(width))
            problems.append(f"annotation {number} {found!r} does not hold {width} parts joined by '|'")
            continue
        many = width - 1 if width == 2 or parts[1] in SENTIMENTS else 1
        values = parts[many].split(", ") if "," in parts[many] else [parts[many]]
        tuples.extend(parts[:many] + [value] + parts[many + 1 :] for value in values)
    return tuples, problems


def read_gas_annotation_uabsa(text):
    """"[aspect|sentiment]", tuple_len "03"."""
    return _read_annotation(text, 2)


def read_gas_annotation_aope(text):
    """"[aspect|opinion, opinion]", tuple_len "01"."""
    return _read_annotation(text, 2)


def read_gas_annotation_aste(text):
    """"[aspect|sentiment|opinion, opinion]" as (aspect, opinion, sentiment), tuple_len
    "013" (GAS's own tuple is (aspect, sentiment, opinion); every tuple is reordered)."""
    tuples, problems = _read_annotation(text, 3)
    return [[a, c, b] for a, b, c in tuples], problems


def read_gas_annotation_tasd(text):
    """"[aspect|category, category|sentiment]", tuple_len "023"."""
    return _read_annotation(text, 3)


# GAS's "fixed" figures (eval_utils.fix_pred_with_editdistance, printed beside the raw ones
# by compute_scores): each predicted term not found in the sentence, and each sentiment or
# category not in its list, replaced word by word by the nearest word of the sentence or
# list. Its own names: the sentence is the input's words (str.split()).
GAS_CATEGORIES = (  # eval_utils.aspect_cate_list (without "food general")
    "location general", "food prices", "food quality", "ambience general", "service general", "restaurant prices",
    "drinks prices", "restaurant miscellaneous", "drinks quality", "drinks style_options", "restaurant general", "food style_options",
)  # fmt: skip


def levenshtein(a, b):
    """The edit distance of two strings (the editdistance package's eval, by character):
    the last of _distances, the longer string as the bit vector, a step per character of
    the shorter."""
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    distance = len(longer)
    for distance in _distances(longer, shorter, anchored=True) if shorter else ():
        pass
    return distance


def _closest(part, words):
    """The first of `words` at the least edit distance from `part` (GAS's
    edit_dis.index(min(edit_dis))); a word whose length alone puts it as far as the best so
    far is not measured."""
    best, chosen = None, None
    for word in words:
        if best is None or abs(len(word) - len(part)) < best:
            distance = levenshtein(part, word)
            if best is None or distance < best:
                best, chosen = distance, word
    return chosen


def _nearest(term, words, memo):
    """GAS's recover_terms_with_editdistance: each word of the term (split on " ") replaced
    by its _closest of `words`; `memo` keeps each word's answer for this list of words (a
    long prediction repeats its words)."""
    for part in term.split(" "):
        if part not in memo:
            memo[part] = _closest(part, words)
    return " ".join(memo[part] for part in term.split(" "))


def _gas_fix(task, annotation):
    """fix(structure, words, carry) for GAS's task, the structure in our tuple_len order."""

    def fix(pairs, words, carry):
        sentence, problems, fixed, memo = " ".join(words), [], [], ({}, {}, {})  # answers among words, sentiments, categories
        near = lambda term: term if term in sentence else _nearest(term, words, memo[0])  # noqa: E731 (a term not in the sentence)
        feeling = lambda word: word if word in SENTIMENTS else _nearest(word, SENTIMENTS, memo[1])  # noqa: E731
        for number, pair in enumerate(pairs, 1):
            if task == "uabsa":
                aspect, sentiment = pair
                fixed.append([near(aspect), feeling(sentiment)])
            elif task == "aope":
                aspect, opinions = pair
                fixed.append([near(aspect), ", ".join(map(near, opinions.split(", ")))])
            elif task == "tasd":
                aspect, categories, sentiment = pair
                aspect = aspect if aspect in sentence + "NULL" else _nearest(aspect, words, memo[0])
                categories = ", ".join(c if c in GAS_CATEGORIES else _nearest(c, GAS_CATEGORIES, memo[2]) for c in categories.split(", "))
                fixed.append([aspect, categories, feeling(sentiment)])
            else:  # aste: GAS's own tuple is (aspect, sentiment, opinion) when annotated
                first, second, third = (pair[0], pair[2], pair[1]) if annotation else pair
                if second in SENTIMENTS:  # GAS: the annotated order
                    carry.update(aspect=first, opinions=third, sentiment=second, annotated=True)
                elif third in SENTIMENTS:
                    carry.update(aspect=first, opinions=second, sentiment=third, annotated=False)
                elif not carry:
                    problems.append(f"triplet {number} {pair!r} has no sentiment word where GAS's fix looks, and no triplet before it (GAS stops on an unbound variable): kept as read")
                    fixed.append(pair)
                    continue
                else:
                    problems.append(f"triplet {number} {pair!r} has no sentiment word where GAS's fix looks: GAS writes the previous such triplet again, fixed against this sentence")
                aspect, opinions, sentiment = near(carry["aspect"]), ", ".join(map(near, carry["opinions"].split(", "))), feeling(carry["sentiment"])
                # GAS appends (aspect, sentiment, opinion) in the annotated order, else (aspect, opinion, sentiment);
                # the annotated parser reorders GAS's tuples to tuple_len "013", so one written the other way stays crossed
                fixed.append([aspect, opinions, sentiment] if carry["annotated"] == annotation else [aspect, sentiment, opinions])
        return fixed, problems

    return fix


# ---------------------------------------------------------------------------------------
# MvP element markers in any order: "[A] pizza [O] delicious [C] food quality [S] great"
# (ZubinGou/multi-view-prompting src/eval_utils.extract_spans_para)

MVP_MARKERS = ("[C]", "[S]", "[A]", "[O]")  # the order MvP appends missing ones in


def read_mvp(text):
    """Pieces split on "[SSEP]" and stripped. A marker a piece lacks is appended with the
    value "null" (so every piece is a quad; the report counts such pieces). Each element
    runs from 4 characters after its marker's first occurrence (the marker and one space:
    a character glued to the marker is lost, as in MvP) to the next marker, stripped. An
    aspect term "it" (any case) is the implicit "null"."""
    quads, problems = [], []
    for number, piece in enumerate(text.split("[SSEP]"), 1):
        piece = piece.strip()
        missing = [marker for marker in MVP_MARKERS if marker not in piece]
        if missing:
            problems.append(f"piece {number} {piece!r} lacks {' '.join(missing)}")
        piece += "".join(f" {marker} null" for marker in missing)
        starts = {marker: piece.index(marker) for marker in MVP_MARKERS}
        ends = sorted(starts.values()) + [len(piece)]
        value = {marker: piece[start + 4 : ends[ends.index(start) + 1]].strip() for marker, start in starts.items()}
        aspect = "null" if value["[A]"].lower() == "it" else value["[A]"]
        quads.append([aspect, value["[O]"], value["[C]"], value["[S]"]])
    return quads, problems


# ---------------------------------------------------------------------------------------
# DLO / ILO (Hu et al., EMNLP 2022, template-order augmentation): element markers in any
# order, "[AT] pizza [OT] delicious [AC] food quality [SP] great [SSEP] ..." (hmt2014/
# AspectQuad DLO/eval_utils.extract_spans_para, task "asqp"; ILO's file decodes alike)

DLO_MARKERS = ("[AC]", "[SP]", "[AT]", "[OT]")


def read_dlo(text):
    """Pieces split on "[SSEP]" and stripped. Each element runs from 4 characters after its
    marker's first occurrence (a character glued to the marker is kept, unlike MvP) to the
    next marker, stripped; a piece lacking a marker is an empty quad (reported). The
    sentiment stays as written ("great"/"bad"/"ok"); an aspect term "it" (any case) is the
    implicit "NULL"."""
    quads, problems = [], []
    for number, piece in enumerate(text.split(SSEP), 1):
        piece = piece.strip()
        starts = [piece.find(marker) for marker in DLO_MARKERS]
        if -1 in starts:
            quads.append(_unread(4))
            problems.append(f"piece {number} {piece!r} lacks {' '.join(m for m, at in zip(DLO_MARKERS, starts) if at < 0)}")
            continue
        order = sorted(starts) + [len(piece)]
        category, sentiment, aspect, opinion = (piece[start + 4 : order[order.index(start) + 1]].strip() for start in starts)
        quads.append([_implicit(aspect), opinion, category, sentiment])
    return quads, problems


# ---------------------------------------------------------------------------------------
# LLM replies as Python literals (ZubinGou/multi-view-prompting src/llms/eval.py)


def _read_literal(text, width):
    """The stripped text read by ast.literal_eval; if that fails there are no quads, as in
    MvP. A list or tuple gives one quad per item: a tuple of strings as it is (a wrong
    width is malformed in quad_match, as it can never equal a gold tuple in MvP); any other
    item is an empty quad (MvP counts it and it never matches). Our choice where MvP would
    crash or count characters or keys: any other value (a string, dict, number) is no quads."""
    try:
        with warnings.catch_warnings():  # a reply such as "1st" warns on stderr; nothing is printed
            warnings.simplefilter("ignore")
            value = ast.literal_eval(text.strip())
    except Exception as error:  # MvP's bare except: any failure is no quads
        return [], [f"not a Python literal ({type(error).__name__})"]
    if not isinstance(value, (list, tuple)):
        return [], [f"a {type(value).__name__}, not a list of tuples"]
    quads, problems = [], []
    for number, item in enumerate(value, 1):
        if isinstance(item, tuple) and all(isinstance(element, str) for element in item):
            quads.append(list(item))
        else:
            quads.append(_unread(width))
            problems.append(f"item {number} {item!r} is not a tuple of strings")
    return quads, problems


def read_mvp_llm(text):
    """[('aspect term', 'opinion term', 'aspect category', 'sentiment polarity'), ...]"""
    return _read_literal(text, 4)


def read_mvp_llm_triplets(text):
    """ASTE [('aspect term', 'opinion term', 'sentiment polarity'), ...] or TASD
    [('aspect term', 'aspect category', 'sentiment polarity'), ...]."""
    return _read_literal(text, 3)


# ---------------------------------------------------------------------------------------
# LLM JSON: a list of objects, possibly in a ``` fenced block (our convention, no paper's)

FENCE = re.compile(r"```[\w+-]*\n?(.*?)(?:```|\Z)", re.S)  # an info string such as "json"
JSON_KEYS = {
    "llm_json": ("target", "opinion", "aspect", "polarity"),
    "llm_json_absa": ("aspect term", "opinion term", "aspect category", "sentiment polarity"),
    "llm_json_zh": ("对象", "观点", "方面", "极性"),
}


def _read_json(text, keys):
    """The first ``` fenced block (its info string such as "json" skipped; an unclosed
    block runs to the end), else the whole text, read as JSON; if that fails, or it is not
    a list, there are no quads. Each item must be an object holding the four keys with
    string values (null allowed for target and opinion: implicit, quad_match's NULL); keys
    beyond the four are ignored. Any other item is an empty quad (matches nothing)."""
    fenced = FENCE.search(text)
    try:
        value = json.loads(fenced.group(1) if fenced else text)
    except (ValueError, RecursionError) as error:
        return [], [f"not JSON ({type(error).__name__})"]
    if not isinstance(value, list):
        return [], [f"JSON {type(value).__name__}, not a list of objects"]
    quads, problems = [], []
    for number, item in enumerate(value, 1):
        problem = None
        if not isinstance(item, dict):
            problem = f"is a JSON {type(item).__name__}, not an object"
        elif any(key not in item for key in keys):
            problem = f"lacks the key {next(key for key in keys if key not in item)!r}"
        else:
            bad = [key for code, key in enumerate(keys) if not (isinstance(item[key], str) or (item[key] is None and code < 2))]
            if bad:
                problem = f"has {bad[0]!r}: {item[bad[0]]!r}, not a string"
        if problem:
            quads.append(_unread(4))
            problems.append(f"item {number} {problem}")
        else:
            quads.append([item[key] for key in keys])
    return quads, problems


def _json_reader(preset):
    def read(text):
        return _read_json(text, JSON_KEYS[preset])

    read.__doc__ = f"JSON objects with the keys {', '.join(JSON_KEYS[preset])}: see _read_json."
    return read


# ---------------------------------------------------------------------------------------
# CSC: a chat model's reply turned into the corrected sentence, then scored by csc_common or
# csc_sighan under any length rule or preset. Nothing else is normalised (no width, no OpenCC).
# Three parsers equal a repository's own clean-up (cllm_reply, pycorrector_gpt,
# simple_csc_line: tests/data/parse/); csc_label, csc_first_line, csc_quotes and csc_reply
# are this project's own conventions (source "paperscore"), for chat models no repository
# cleans: opt-in, by name. Version 2 of these reads the reply styles of
# tests/data/parse/csc_reply_styles.json and makes every reply it does not recognise a
# failure read as "" (version 1 read any reply, failing only where nothing was left).

REPLY_LABEL = re.compile(
    r"\A\s*(?:修改后的?句子|修改后|改正后的?句子|改正后|纠正后的?句子|纠正后|正确的?句子|更正后|"
    r"输出|答案|结果|corrected sentence|correction|corrected|output|answer)\s*[：:]\s*",
    re.I,
)  # version 1's labels
QUOTES = ("“”", "「」", "『』", '""', "''", "‘’")


def _reply_text(text, problem):
    """(text, problems): a blank result is "" and a failure."""
    return (text, []) if text.strip() else ("", [problem])


def read_csc_label_v1(text):
    """A leading label such as "修改后：", "纠正后的句子:", "输出：" or "Corrected:" (any
    case; full- or half-width colon) removed with the white space around it."""
    return _reply_text(REPLY_LABEL.sub("", text, count=1), "nothing is left once the label is removed")


def read_csc_first_line_v1(text):
    """The first non-blank line, stripped: what follows (an explanation) is dropped."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return _reply_text(lines[0] if lines else "", "the reply is blank")


def _unquoted(text):
    """One pair of quotes around the whole text (QUOTES) removed."""
    for opening, closing in QUOTES:
        if len(text) >= 2 and text[0] == opening and text[-1] == closing:
            return text[1:-1]
    return text


def read_csc_quotes_v1(text):
    """One pair of quotes around the whole stripped text (“” 「」 『』 "" '' ‘’) removed."""
    return _reply_text(_unquoted(text.strip()), "nothing is left inside the quotes")


def read_csc_reply_v1(text):
    """read_csc_label, then read_csc_first_line, then read_csc_quotes (version 1 each):
    "修改后：“我今天很高兴。”\n解释：…" -> "我今天很高兴。"."""
    for read in (read_csc_label_v1, read_csc_first_line_v1, read_csc_quotes_v1):
        text, problems = read(text)
        if problems:
            return text, problems
    return text, []


# Version 2. A reply's lines are classed by patterns matched at a line's start, its "**" removed
# (simplified and traditional characters, English in any case; possessive quantifiers keep each
# match linear in the line). LABEL: what names the corrected sentence, after an optional list or
# heading mark and lead-in ("好的，以下是", "Here is the"): with a colon, or alone on its line (a
# heading), or "应改为" before a quote; or such a label after a clause's punctuation mid-line.
_MARK = r"\s*+(?:#{1,6}\s*+|>\s*+|[-*•]\s++|\d{1,2}[.、)]\s*+)?"
_LEAD = (
    r"(?:(?:好的|好|当然|當然|没问题|沒問題|可以|ok|okay|sure|certainly)\s*+[，,。.！!]\s*+)?"
    r"(?:(?:以下是|下面是|这是|這是|这里是|這裡是|here\s++is|here's|below\s++is)\s*+)?(?:您的|你的|the\s++|your\s++)?"
)
_NAMED = (
    r"(?:修改|改正|纠正|糾正|更正|修正|纠错|糾錯|订正|訂正)[后後]的?(?:句子|文本|文字|版本|结果|結果|内容|內容)?"
    r"|正[确確]的?(?:句子|文本|写法|寫法|版本)|(?:corrected|revised|fixed)\s++(?:sentence|text|version)"
)
_SHORT = r"修改|改正|纠正|糾正|更正|输出|輸出|答案|结果|結果|corrected|correction|revised|fixed|output|answer|result"
_TAIL = r"\s*+(?:(?:为|為|是|如下|应为|應為|应该是|應該是|应该为|應該為|is|would\s++be)\s*+)?"
_CHANGE_TO = r"(?:这句话|這句話|这个句子|這個句子|该句子?|該句子?|此句|原句|句子)?\s*+(?:应该|應該|应|應|可以|需要)?(?:修?改[为為成]|更正[为為]|纠正[为為]|糾正[為为])"
LABEL = re.compile(
    rf"{_MARK}(?:{_LEAD}(?:{_NAMED}){_TAIL}(?:[：:]|[。.]?\s*+$)|(?P<short>{_SHORT}){_TAIL}[：:]|{_CHANGE_TO}\s*+(?:[：:]|(?=[“「『\"])))\s*+", re.I
)
INNER_LABEL = re.compile(rf"[，,。.！!；;]\s*+{_LEAD}(?:{_NAMED}){_TAIL}[：:]\s*+", re.I)
JSON_KEY = re.compile(rf"{_NAMED}|{_SHORT}|target", re.I)  # "corrected_sentence", "修改后", "output"
ORIGINAL = re.compile(rf"{_MARK}(?:原句子?|原文|原始句子|原来的句子|原來的句子|输入|輸入|错误的?句子|錯誤的?句子|original(?:\s++sentence)?|source|input)\s*+[：:]", re.I)
EXPLANATION = re.compile(
    rf"{_MARK}(?:(?:修改|改动|改動|纠错|糾錯|更正|纠正|糾正|错误|錯誤)?(?:说明|說明|理由|原因|内容|內容|分析|点|點)"
    r"|解[释釋]|注意?|[备備][注註]|explanation|notes?|changes(?:\s++made)?|corrections\s++made|reason|analysis)\s*+(?:[：:]|$)",
    re.I,
)
ACKNOWLEDGEMENT = re.compile(r"(?:好的|好|当然|當然|当然可以|當然可以|没问题|沒問題|可以|ok|okay|sure|certainly)[，,。.！!～~\s]*+$", re.I)
# A statement that the sentence has no error: about the sentence, or with nothing else on its line.
NO_ERROR = re.compile(
    r"(?:[没沒]有|[无無]|不存在|未[发發][现現])(?:任何)?(?:拼写|拼寫)?(?:错误|錯誤|错别字|錯別字|需要修改)|[无無]需(?:修改|改[动動]|[纠糾]正|更正)"
    r"|不需要(?:修改|改[动動]|[纠糾]正)|正[确確][无無][误誤]|no\s++(?:spelling\s++)?(?:errors?|mistakes?|corrections?)|(?:is|are)\s++(?:already\s++)?correct",
    re.I,
)
SUBJECT = re.compile(r"[这這]句[话話]?|[这這][个個]句子|[该該]句|此句|原句|句子|句中|原文|文本|sentence", re.I)
LIST_ITEM = re.compile(r"(?:[-*•]|\d{1,2}[.、)])\s")
# What may follow a bare sentence as its note: a bracketed, listed or headed line, or a change
# (a quoted piece before or after 改为/应为/应该是..., an arrow, 错别字).
NOTE = re.compile(rf"[（(【\[#>]|{LIST_ITEM.pattern}")
_PIECE = r"[^\s“”「」『』\"'‘’]"
_QUOTED = rf"[“「『\"'‘]{_PIECE}{{1,6}}[”」』\"'’]"
_TO = r"(?:修?改[为為成]|[应應][该該]?改?[为為成]|[应應][该該]?是|替[换換][为為]|更正[为為]|[纠糾]正[为為]|正[确確]的?(?:是|为|為))"
CHANGE = re.compile(rf"→|->|=>|{_QUOTED}\s*+{_PIECE}{{0,4}}?{_TO}|{_TO}\s*+{_QUOTED}|[错錯][别別]字|typo|should\s++be", re.I)
# A line that only names a change ("“搞”应改为“高”。", "搞 → 高"), no sentence.
CHANGE_ONLY = re.compile(rf"[将把將]?(?:{_QUOTED}\s*+(?:{_TO}|→|->|=>)\s*+{_QUOTED}|{_PIECE}{{1,3}}\s*+(?:→|->|=>)\s*+{_PIECE}{{1,3}})[。.]?")
TRAILING_NOTE = re.compile(r"[（(][^（）()]*+[）)]\s*+\Z")  # "（“搞”改为“高”）" after the sentence
ARROW = re.compile(r"→|->|=>")
SEPARATOR = frozenset("-*_= ")  # a line of these is blank (Markdown rules)
FORMATTING = ("**", "```", "<think>", "</think>")
REPLY_FENCE = re.compile(r"```(?:[\w+-]*\n)?(.*?)(?:```|\Z)", re.S)  # FENCE, but "```我很好。```" keeps its text
CLASS_PROBLEMS = {
    "label": "only a label is left", "short": "only a label is left", "original": "it is labelled as the original sentence",
    "explanation": "it is labelled as an explanation", "no_error": "it says the sentence has no error without giving it",
    "preamble": "it ends with a colon: a preamble or a label without the sentence", "change": "it names a change, not the sentence",
}  # fmt: skip


def _line_class(line):
    """(class, what follows the label) of a stripped line: "label" (LABEL or INNER_LABEL),
    "short" (a bare 修改：/输出：/Answer:), "original", "explanation", "no_error", "change"
    (CHANGE_ONLY), "acknowledgement" ("好的。", "Sure!"), "preamble" (a line ending with a
    colon) or "text"."""
    plain = line.replace("**", "")
    found = LABEL.match(plain) or INNER_LABEL.search(plain)
    if found:
        return ("short" if found.re is LABEL and found.group("short") else "label"), plain[found.end() :].strip()
    for name, pattern in (("original", ORIGINAL), ("explanation", EXPLANATION)):
        if pattern.match(plain):
            return name, ""
    if _says_no_error(plain):
        return "no_error", ""
    if CHANGE_ONLY.fullmatch(plain):
        return "change", ""
    if ACKNOWLEDGEMENT.match(plain):
        return "acknowledgement", ""
    return ("preamble" if plain.endswith((":", "：")) else "text"), ""


def _says_no_error(line):
    """The line says the sentence has no error: a NO_ERROR phrase with the sentence named, or
    with nothing but punctuation beside it."""
    found = NO_ERROR.search(line)
    if not found:
        return False
    return bool(SUBJECT.search(line)) or not any(c.isalnum() for c in line[: found.start()] + line[found.end() :])


def _sentence_problem(sentence):
    """Why a sentence read is not one (None if it is): blank, several lines, formatting or a
    reasoning tag left, JSON, or a line of another class than "text" (CLASS_PROBLEMS)."""
    if not sentence.strip():
        return "nothing is left of the reply"
    if len(sentence.splitlines()) > 1:
        return "more than one line is left: which is the sentence?"
    if any(mark in sentence for mark in FORMATTING):
        return "Markdown or a reasoning tag is left"
    if sentence.lstrip()[:1] in ("{", "[") and isinstance(_json_value(sentence), (dict, list)):
        return "it is JSON"
    return CLASS_PROBLEMS.get(_line_class(sentence.strip())[0])


def _read_v2(sentence, problem=None):
    """(sentence, problems) of version 2: a problem (given, or _sentence_problem's) makes it ""."""
    problem = problem or _sentence_problem(sentence)
    return ("", [problem]) if problem else (sentence, [])


def _read_bare(sentence, problem=None):
    """_read_v2 of the one-wrapping parsers (csc_label, csc_first_line, csc_quotes): what is
    left must be bare, with nothing csc_reply would unwrap (_sentence_of)."""
    wrapped = _sentence_of(sentence) != sentence.strip()
    return _read_v2(sentence, problem or ("more wrapping is left (quotes, a note, an arrow...): csc_reply reads it" if wrapped else None))


def read_csc_label(text):
    """A leading label, as csc_reply reads them ("修改后：", "**修改后的句子：**", "### 修改后",
    "纠错后的句子：", "好的，以下是修改后的句子：", "Corrected sentence:"...), removed; what is
    left, stripped (without a label: the stripped reply), must be one line, a bare sentence
    (else a failure, read as "")."""
    first, _, after = text.strip().partition("\n")
    kind, rest = _line_class(first.strip())
    return _read_bare((f"{rest}\n{after}" if kind in ("label", "short") else text).strip())


def read_csc_first_line(text):
    """The first non-blank line, stripped, a bare sentence; the next line, if any, must be
    its note (as csc_reply's); else a failure, read as ""."""
    lines = _reply_lines(text)
    return _read_bare(lines[0], _note_problem(lines, [_line_class(line) for line in lines[:2]], 0)) if lines else _read_v2("")


def read_csc_quotes(text):
    """One pair of quotes around the whole stripped text (“” 「」 『』 "" '' ‘’) removed; what
    is left must be one line, a bare sentence (else a failure, read as "")."""
    return _read_bare(_unquoted(text.strip()))


def _sentence_of(line):
    """A line given as the sentence, without its wrapping: "> ", "**…**", `…`, a trailing
    bracketed note of the change or of no error, an "original → corrected" arrow's left side
    and one pair of quotes."""
    line = line.strip().removeprefix(">").strip()
    if len(line) > 4 and line.startswith("**") and line.endswith("**"):
        line = line[2:-2].strip()
    if len(line) > 2 and line[0] == line[-1] == "`":
        line = line[1:-1].strip()
    note = TRAILING_NOTE.search(line)
    if note and (CHANGE.search(note.group()) or NO_ERROR.search(note.group())):
        line = line[: note.start()].strip()
    arrows = ARROW.findall(line)
    if len(arrows) == 1:
        line = line.split(arrows[0])[1]
    return _unquoted(line.strip()).strip()


def _reply_body(text):
    """(body, problem): the reply after its reasoning (a <think>…</think> block, or anything
    before a "</think>" whose opening tag the chat template wrote), then only the first ```
    fenced block if there is one; stripped."""
    end = text.find("</think>")
    if end != -1:
        text = text[end + len("</think>") :]
    elif text.lstrip().startswith("<think>"):
        return "", "the reasoning block (<think>) is not closed"
    fenced = REPLY_FENCE.search(text)
    return (fenced.group(1) if fenced else text).strip(), None


def _json_value(text):
    """The JSON value of a text, or None if it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _json_sentence(body):
    """(sentence, problem) of a reply that is JSON: a string, or an object with one key
    naming the corrected sentence (JSON_KEY; "_" and "-" read as spaces) that holds a
    string; (None, None) if the reply is not JSON."""
    value = _json_value(body)
    if value is None:
        return None, None
    if isinstance(value, str):
        return value.strip(), None
    found = [v for k, v in value.items() if JSON_KEY.fullmatch(re.sub(r"[_-]", " ", k).strip())] if isinstance(value, dict) else []
    if len(found) == 1 and isinstance(found[0], str):
        return found[0].strip(), None
    return "", f"JSON {type(value).__name__} without one string under a key naming the corrected sentence"


def _label_allowed(classes, i):
    """A LABEL anywhere; a bare 修改：/输出：/Answer: only before any text (an explanation
    "修改：搞→高" may follow the sentence)."""
    kind = classes[i][0]
    return kind == "label" or (kind == "short" and all(c in ("original", "acknowledgement", "preamble", "no_error") for c, _ in classes[:i]))


def read_csc_reply(text):
    """The corrected sentence of a chat model's reply (tests/data/parse/csc_reply_styles.json
    holds a case per style). The reasoning before "</think>" goes; a ``` fenced block, if
    any, is the reply; a reply that is JSON is read by its string or its one key naming the
    sentence. Else, of its non-blank lines (classed by _line_class): the sentence follows the
    first label (修改后：, **修改后的句子：**, ### 修改后, 纠错后的句子：, 以下是修改后的句子：,
    Corrected sentence:, 这句话应改为“…”, …，修改后的句子为：), on its line or alone on the
    next; without one, it is the first line, or the line after a preamble (好的。, a line
    ending with a colon, an original 原句：…, a statement that there is no error), and the
    line after it must be its note (解释：, 说明：, a bracket, a list, a heading, a change
    such as 搞 → 高 or 改为). Its wrapping goes (_sentence_of). Anything else (two candidate
    lines, a label followed by no sentence, a list, a statement that there is no error
    without the sentence, formatting left) is a failure read as ""."""
    body, problem = _reply_body(text)
    if problem:
        return "", [problem]
    if body[:1] in ('"', "{"):
        sentence, problem = _json_sentence(body)
        if sentence is not None:
            return _read_v2(sentence, problem)
    lines = _reply_lines(body)
    classes = [_line_class(line) for line in lines]
    for i, (kind, rest) in enumerate(classes):
        if _label_allowed(classes, i):
            if rest:
                return _read_v2(_sentence_of(rest))
            if i + 1 < len(lines) and classes[i + 1][0] == "text" and not LIST_ITEM.match(lines[i + 1]):
                return _read_v2(_sentence_of(lines[i + 1]))
            follows = "a list: which item is the sentence?" if i + 1 < len(lines) and LIST_ITEM.match(lines[i + 1]) else "no sentence"
            return _read_v2("", f"the label {lines[i]!r:.40} is followed by {follows}")
    if not lines:
        return _read_v2("")
    at = 1 if classes[0][0] in ("acknowledgement", "preamble", "original", "no_error") and len(lines) > 1 else 0
    if classes[at][0] not in ("text", "acknowledgement") or LIST_ITEM.match(lines[at]):
        return _read_v2("", f"line {at + 1} {lines[at]!r:.40}: {CLASS_PROBLEMS.get(classes[at][0], 'a list item: which is the sentence?')}")
    return _read_v2(_sentence_of(lines[at]), _note_problem(lines, classes, at))


def _reply_lines(text):
    """The stripped non-blank lines of a reply; a line of only -, *, _, = is blank (a Markdown rule)."""
    return [line.strip() for line in text.splitlines() if line.strip() and not set(line) <= SEPARATOR]


def _note_problem(lines, classes, at):
    """None where the line after lines[at], if any, is its note: explanation, no_error,
    original or change class, NOTE or CHANGE; else why not."""
    if at + 1 < len(lines):
        after, kind = lines[at + 1], classes[at + 1][0]
        if kind not in ("explanation", "no_error", "original", "change") and not NOTE.match(after) and not CHANGE.search(after):
            return f"line {at + 2} {after!r:.40} is no note of line {at + 1}: which line is the sentence?"
    return None


CLLM_LABEL = "纠错后的句子："
NO_EDIT = ("没有错误", "无法标注")  # ChERRANT's Annotator: the source unchanged (no edit, or "not annotatable")


def read_cllm_reply_v1(text):
    """ktlKTL/C-LLM's reading of a reply before ChERRANT (calcuate_metric.process_txt):
    what follows the first "纠错后的句子：" (label-less: the text before its first line
    end, or, when the text starts with one, everything after that line end), not
    stripped. An empty reply is reported (C-LLM stops on an assertion), and so is a
    blank result, kept as C-LLM keeps it. (This is C-LLM's ChERRANT path; its difflib
    scoring, csc_common's "cllm" preset, reads the replies as they are.)"""
    if not text:
        return "", ["the reply is empty (C-LLM's process_txt asserts)"]
    label, line_end = text.find(CLLM_LABEL), text.find("\n")
    if label != -1:
        text = text[label + len(CLLM_LABEL) :]
    elif line_end != -1:
        text = text[:line_end] if line_end else text[1:]
    return text, [] if text.strip() else ["nothing but white space is left of the reply (kept as it is)"]


def read_cllm_reply(text):
    """The sentence C-LLM's ChERRANT step reads from a reply (its parallel_to_m2.py on the
    `id<TAB>source<TAB>prediction` lines process_txt writes): process_txt's cut (version 1),
    its line of the file as Python's text mode reads it back (up to the first "\n", "\r" or
    "\r\n"), the part before a tab, every white space character removed
    ("".join(target.strip().split())). Reported, where C-LLM's pipeline does not score the
    reply so: an empty reply (process_txt asserts); more after the line end (a line
    ChERRANT cannot read: it stops, unless the reply is the file's last); a tab (what
    follows is read as a second corrected sentence); nothing left (ChERRANT stops); "没有错误"
    or "无法标注" (ChERRANT leaves the source unchanged, which this parser cannot see). Not
    done: ChERRANT's OpenCC t2s conversion of the sentence (normalize="simplified" converts
    all three sentences)."""
    cut, problems = read_cllm_reply_v1(text)
    if not text:
        return cut, problems
    line, _, after = (cut + "\n").replace("\r\n", "\n").replace("\r", "\n").partition("\n")
    first, *more = line.split("\t")
    sentence = "".join(first.split())
    problems = [
        problem for problem, found in (
            ("more follows a line end: C-LLM's file gets a line ChERRANT cannot read (it stops)", after),
            ("a tab: ChERRANT reads what follows as a second corrected sentence", more),
            ("nothing but white space is left (ChERRANT stops)", not sentence),
            (f"{sentence!r}: ChERRANT reads it as no edit, the source unchanged", sentence in NO_EDIT),
        ) if found
    ]  # fmt: skip
    return sentence, problems


THINK = "<think>\n\n</think>"  # an empty reasoning block (Qwen3 without thinking)


def read_pycorrector_gpt(text):
    """shibing624/pycorrector's GptModel.predict: the reply stripped; one that then starts
    with an empty "<think>\n\n</think>" block loses every such block and is stripped
    again. (pycorrector's GptCorrector then aligns it with the source by difflib, which
    is no reading of the text: not done here.)"""
    text = text.strip()
    if text.startswith(THINK):
        text = text.replace(THINK, "").strip()
    return _reply_text(text, "the reply is blank")


def read_simple_csc_line(text):
    """Jacob-Zhou/simple-csc's run.py writing a hypothesis as its prediction line:
    stripped, each "\n" made a space (MSLLM's run.py writes its lines alike, after steps
    that need the source)."""
    return _reply_text(text.strip().replace("\n", " "), "the reply is blank")


def check_parser_options(parse, strict, **unread):
    """strict is True or False; without a parser, strict=True and each option that only a
    parser reads (name=True where it was given) are refused by name."""
    check_flags(strict=strict)
    if parse is None:
        for name, given in {"strict": strict, **unread}.items():
            if given:
                raise ValueError(f"{name}: applies to model texts read by a parser; pass parse=NAME")


def read_replies(predictions, parse_name, strict, labels):
    """csc_common's and csc_sighan's parse= and strict=: (predictions, report), each
    prediction a corrector's reply read by the csc parser `parse_name` before any scoring
    rule (report None, predictions untouched, without one). labels: the corpus is label
    lines (no sources), which no parser reads."""
    check_parser_options(parse_name, strict)
    if parse_name is None:
        return predictions, None
    parser = get_parser(parse_name, "csc")
    if labels:
        raise ValueError(f"parse: {parser_id(parser)} reads a corrector's replies, which are sentences: pass sources (label lines are read as they are)")
    return parse(predictions, parser, strict)


REPLY_FORMATS = ("lines", "json")


def add_reply_arguments(parser):
    """`paperscore csc` and `paperscore sighan`: --parse NAME, --strict, --replies-format."""
    ids = sorted(key for key, p in PARSERS.items() if p.family == "csc")
    parser.add_argument("--parse", choices=CSC_PARSERS + ids, metavar="NAME", help=f"--predictions holds a corrector's replies, read by this parser into sentences: {', '.join(CSC_PARSERS)} (the newest version; NAME@VERSION for another)")
    parser.add_argument("--strict", action="store_true", help="with --parse: a reply the parser cannot read is an error")
    parser.add_argument("--replies-format", choices=REPLY_FORMATS, help="with --parse: lines (one reply a line, as it is; the default) or json (a JSON array of strings, or JSON lines of strings: replies over several lines)")


def read_reply_file(args, argument="--predictions"):
    """The replies of --predictions under --parse (None without it: an error if --strict
    or --replies-format is given)."""
    if args.parse is None:
        for flag, value in (("--strict", args.strict), ("--replies-format", args.replies_format)):
            if value:
                raise ValueError(f"{flag}: applies with --parse NAME only")
        return None
    path = args.predictions
    if args.replies_format != "json":
        return read_lines(path, argument, allow_empty=True)
    replies = read_json_values(path, argument)
    for index, reply in enumerate(replies):
        if not isinstance(reply, str):
            raise ValueError(f"{argument}: {path} reply {index + 1} is a JSON {type(reply).__name__}, not a string")
    return replies


# ---------------------------------------------------------------------------------------
# Event detection: OmniEvent's seq2seq triggers ("<extra_id_0> attack: fired <extra_id_1>")
# (THU-KEG/OmniEvent input_engineering/seq2seq_processor.extract_argument, after
# evaluation/utils.get_pred_s2s's clean-up), then put onto candidates as
# evaluation/convert_format.get_trigger_detection_s2s does

S2S_MARKERS = re.compile("<extra_id_0>|<extra_id_1>")
T5_SPECIAL = ("</s>", "<pad>")  # the eos and pad tokens get_pred_s2s removes (T5's)


def read_omnievent_s2s(text):
    """[trigger, type] pairs. T5's "</s>" and "<pad>" removed and the text stripped; the
    pieces between the markers, stripped, each split on ":" into exactly a type and a
    trigger, each stripped and with every " " removed; a piece that is not two non-empty
    parts is skipped, as in OmniEvent (and reported), a blank piece silently."""
    for token in T5_SPECIAL:
        text = text.replace(token, "")
    pairs, problems = [], []
    for number, piece in enumerate(S2S_MARKERS.split(text.strip()), 1):
        if not piece.strip():
            continue
        parts = [part.strip().replace(" ", "") for part in piece.strip().split(":")]
        if len(parts) != 2 or not all(parts):
            problems.append(f"piece {number} {piece.strip()!r} is not 'type: trigger'")
            continue
        pairs.append([parts[1], parts[0]])
    return pairs, problems


def plain_label(label):
    """OmniEvent's get_plain_label: "Conflict.Attack" -> "attack", "Life.Be-Born" ->
    "beborn" (the part after the last ".", without "-" and "_", lower case); "NA" stays."""
    return label if label == "NA" else label.split(".")[-1].replace("-", "").replace("_", "").lower()


def omnievent_candidates(pairs, texts, positions, labels, types):
    """Per example, the label each candidate gets from that example's generated [trigger,
    type] pairs: the candidate's word is texts[i][start:end] (character offsets); of the
    pairs with that trigger and a type in `types`, the gold label (labels[i][j], as
    OmniEvent compares them: plain_label) if one has it, else the first, else "NA"; the
    pair used is then consumed. Exactly OmniEvent's rule, gold preference included, so the
    numbers are its numbers. A candidate outside its text is a ValueError."""
    return [predicted for predicted, _ in place_triggers("omnievent", pairs, texts, positions, labels, types)]


def _place_omnievent(left, words, gold, types):
    """OmniEvent's get_pred_per_mention(paradigm="s2s") for each candidate in turn."""
    predicted = []
    for word, label in zip(words, gold):
        found = [kind for trigger, kind in left if trigger == word and kind in types]
        choice = label if label in found else (found[0] if found else "NA")
        if (word, choice) in left:
            left.remove((word, choice))
        predicted.append(choice)
    return predicted


def _place_strict(left, words, gold, types):
    """The strict offset policy: each pair, in the order generated, takes the first free
    candidate in text order (start, then end offset) whose word, spaces removed as the
    reader removes them from the trigger, equals its trigger; the candidate gets the pair's
    type as generated (in `types` or not: a type outside the schema is a wrong type). The
    gold labels are never looked at. Pairs that find no free candidate stay in `left`."""
    order = sorted(range(len(words)), key=lambda j: words[j][1])
    predicted, taken, unplaced = ["NA"] * len(words), set(), []
    for trigger, kind in left:
        free = next((j for j in order if j not in taken and words[j][0].replace(" ", "") == trigger), None)
        if free is None:
            unplaced.append((trigger, kind))
        else:
            predicted[free] = kind
            taken.add(free)
    left[:] = unplaced
    return predicted


PLACEMENTS = {"omnievent": _place_omnievent, "strict": _place_strict}
POLICY = {"omnievent_s2s": "omnievent", "omnievent_s2s_strict": "strict"}  # each event parser's placement


def place_triggers(policy, pairs, texts, positions, labels, types):
    """Per example (predicted candidate labels, the pairs no candidate took), under the
    policy "omnievent" (OmniEvent's rule, which drops those pairs) or "strict" (which
    scores them as false positives: see _place_strict). types: the type names a pair may
    carry ("omnievent": others are ignored, as OmniEvent does; "strict": None or a list,
    not used). A candidate outside its text is a ValueError."""
    if isinstance(types, str):
        raise ValueError(f"types: {types!r} is a string; give a list of type names")
    if types is None and policy == "omnievent":
        raise ValueError("types: OmniEvent's conversion keeps only pairs whose type is in the schema; give the list of type names")
    types = set(types or ())
    for argument, values in (("texts", texts), ("positions", positions), ("labels", labels)):
        if len(values) != len(pairs):
            raise ValueError(f"{argument}: {len(values)} examples, but {len(pairs)} parsed predictions")
    place = PLACEMENTS[policy]
    result = []
    for index, (left, text, spans, gold) in enumerate(zip(pairs, texts, positions, labels)):
        if len(spans) != len(gold):
            raise input_error("labels", index, f"{len(gold)} labels for {len(spans)} candidates")
        for number, (start, end) in enumerate(spans):
            if not 0 <= start <= end <= len(text):
                raise input_error("positions", f"{index}][{number}", f"({start}, {end}) is not inside the text of {len(text)} characters")
        words = [text[start:end] for start, end in spans] if policy == "omnievent" else [(text[s:e], (s, e)) for s, e in spans]
        left = [tuple(pair) for pair in left]
        result.append((place(left, words, gold, types), left))
    return result


# ---------------------------------------------------------------------------------------
# Quads, continued (issue 21): ACOS's generative baseline and DiaASQ's triplets as JSON

# GEN-SCL-NAT (Peper and Wang, EMNLP 2022 Findings), the generative ACOS baseline:
# "{category} | THE {aspect} IS {opinion} | {sentiment}" pieces joined by " [SSEP] "
# (jpeper/GEN_SCL_NAT source/eval_utils.extract_spans_para, task "gen_scl_nat"). It reads a
# piece with the `parse` package's patterns "{0}|{1}|{2}|{3}", then "{0}| THE{1}IS{2}|{3}"
# (case_sensitive=True): regular expressions where each field is (.+?), matching the whole
# piece, "." matching line breaks. lazy_fields reads them in linear time.
GEN_SCL_NAT_SEPARATORS = (("|", "|", "|"), ("| THE", "IS", "|"))


def lazy_fields(piece, separators):
    """The fields of the whole `piece` matched by "(.+?)" fields with the `separators`
    between them (re.S), as re.fullmatch gives them, in linear time; None if it does not
    match. Each field ends at the first occurrence of its separator that leaves it
    non-empty: a later one leaves the rest less room, so if the leftmost choices fail
    every choice fails (the regular expression tries them all, quadratic in the piece)."""
    fields, at = [], 0
    for separator in separators:
        found = piece.find(separator, at + 1)
        if found < 0:
            return None
        fields.append(piece[at:found])
        at = found + len(separator)
    return fields + [piece[at:]] if at < len(piece) else None


def read_gen_scl_nat(text):
    """An empty text has no quads. Otherwise pieces split on "[SSEP]" and stripped; a piece
    that is four fields joined by "|" (tried first: category, aspect, opinion, sentiment)
    or "{category}| THE{aspect}IS{opinion}|{sentiment}" gives those fields, each stripped
    of spaces (" " only). An implicit aspect stays "it", as GEN-SCL-NAT leaves it (its test
    `at.lower == 'it'` compares a method and never holds), on gold and prediction alike. A
    piece matching neither is GEN-SCL-NAT's (category "", aspect NULL, sentiment "",
    opinion NULL), malformed in quad_match (an empty category), reported."""
    if not text:
        return [], []
    quads, problems = [], []
    for number, piece in enumerate(text.split("[SSEP]"), 1):
        piece = piece.strip()
        found = next((fields for fields in (lazy_fields(piece, separators) for separators in GEN_SCL_NAT_SEPARATORS) if fields), None)
        if found is None:
            quads.append(["NULL", "NULL", "", ""])
            problems.append(f"piece {number} {piece!r} is not 'category | THE aspect IS opinion | sentiment'")
            continue
        category, aspect, opinion, sentiment = (field.strip(" ") for field in found)
        quads.append([aspect, opinion, category, sentiment])
    return quads, problems


# DiaASQ's triplets as a model writes them in JSON: the layout of DiaASQ's prediction files
# (unikcc/DiaASQ src/utils.py save2file), [t_start, t_end, a_start, a_end, o_start, o_end,
# polarity, target, aspect, opinion]. DiaASQ decodes no text (its model tags tokens), so
# this is our reading, the same as quad_match's of DiaASQ's files (quad.json_sample).


def read_diaasq_json(text):
    """The first ``` fenced block, else the whole text, read as JSON: a list of triplets, or
    an object holding them under "triplets" (a dialogue); anything else (or not JSON) is
    no quads, reported. A triplet of 10 entries with string texts gives the quad (target,
    opinion, aspect, polarity), an empty element NULL (implicit); its span indices are not
    read (quad_match compares texts; DiaASQ's own scoring is convention="diaasq"). A
    triplet of polarity -1 is DiaASQ's target-aspect pair without an opinion: no quad, as
    quad_match reads DiaASQ's files. Any other item is an empty quad, reported."""
    fenced = FENCE.search(text)
    try:
        value = json.loads(fenced.group(1) if fenced else text)
    except (ValueError, RecursionError) as error:
        return [], [f"not JSON ({type(error).__name__})"]
    if isinstance(value, dict) and isinstance(value.get("triplets"), list):
        value = value["triplets"]
    if not isinstance(value, list):
        return [], [f"JSON {type(value).__name__}, not a list of triplets or an object with one under 'triplets'"]
    quads, problems = [], []
    for number, item in enumerate(value, 1):
        if isinstance(item, list) and len(item) == 10 and item[6] == -1 and not isinstance(item[6], bool):
            continue
        if not (isinstance(item, list) and len(item) == 10 and all(isinstance(e, str) for e in item[6:])):
            quads.append(_unread(4))
            problems.append(f"item {number} {str(item)[:60]!r} is not a triplet [t_start, t_end, a_start, a_end, o_start, o_end, polarity, target, aspect, opinion] with string texts")
            continue
        polarity, target, aspect, opinion = item[6:]
        quads.append([target or "NULL", opinion or "NULL", aspect or "NULL", polarity])
    return quads, problems


# ---------------------------------------------------------------------------------------
# Coreference: an LLM's rewrite of the document with its mentions marked, in the markdown
# of Le & Ritter's document template ("[Mary](#cluster_0) said [she](#cluster_0) ...",
# nested "[[Hong Kong](#hk) Disneyland](#park)": nle18/coref-llms src/data_processing.py,
# which writes the markup; read here by paperscore's own reader, since that repository's
# _get_mentions says it fails on nesting), or clusters of mention strings as JSON. Both are
# then placed on the source tokens by place_coref.

MARK_CLOSE = re.compile(r"\]\(#([^()\s]*)\)")


def read_coref_markdown(text):
    """(tokens, mentions): the text without its markup, split on whitespace and at every
    mention boundary, and per mention [first token, last token, cluster id] (ids as
    written). "[" opens a mention, "](#id)" closes the innermost open one; a "[" never
    closed and a "](#id)" with none open stay as text and are reported, as is a mention
    without an id "(#)" (the template's unresolved mark), which is then a singleton, and
    an empty mention "[](#id)", which is [None, None, id]: a mention nowhere in the text."""
    opened, pairs, problems = [], {}, []
    position = 0
    while position < len(text):
        close = MARK_CLOSE.match(text, position)
        if close:
            if opened:
                pairs[opened.pop()] = (position, close.end(), close.group(1))
            else:
                problems.append(f"{close.group(0)!r} at character {position} closes no '['")
            position = close.end()
        else:
            if text[position] == "[":
                opened.append(position)
            position += 1
    problems += [f"the '[' at character {start} is never closed by '](#id)'" for start in opened]
    ends = {end: start for start, (end, _, _) in pairs.items()}
    plain, cuts, starts, marked = [], set(), {}, []
    position = 0
    while position < len(text):
        here = len(plain)
        if position in pairs:
            cuts.add(here)
            starts[position] = here
            position += 1
        elif position in ends:
            start = ends[position]
            cuts.add(here)
            marked.append((starts[start], here, pairs[start][2]))
            position = pairs[start][1]
        else:
            plain.append(text[position])
            position += 1
    tokens, spans = _cut_tokens("".join(plain), cuts)
    lows, highs = [low for low, _ in spans], [high for _, high in spans]
    mentions = []
    for start, end, name in marked:
        inside = range(bisect_left(lows, start), bisect_right(highs, end))  # the tokens within [start, end)
        if not name:  # "(#)": the template's unresolved mention, a cluster of its own
            problems.append(f"the mention ending at character {end} of the text without markup has no cluster id '(#)' (a singleton)")
            name = ("no id", start, end)
        if inside:
            mentions.append([inside[0], inside[-1], name])
        else:
            mentions.append([None, None, name])
            problems.append(f"the mention (#{name}) ending at character {end} of the text without markup is empty")
    return (tokens, mentions), problems


def _cut_tokens(text, cuts):
    """Tokens of `text` split on whitespace and at the character positions `cuts`, with
    their (start, end) characters."""
    tokens, spans, cuts = [], [], sorted(cuts)
    for word in re.finditer(r"\S+", text):
        low = word.start()
        for cut in cuts[bisect_right(cuts, word.start()) : bisect_left(cuts, word.end())]:
            tokens.append(text[low:cut]), spans.append((low, cut))
            low = cut
        tokens.append(text[low : word.end()]), spans.append((low, word.end()))
    return tokens, spans


def read_coref_clusters(text):
    """Clusters of mention strings: a JSON list of lists of strings, possibly inside a
    fenced block (the first). Anything else is no clusters, reported; an item of a cluster
    that is not a string is kept and reported (place_coref cannot place it)."""
    fenced = FENCE.search(text)
    body = fenced.group(1) if fenced else text
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as error:  # RecursionError: nested too deep ("[" * 3000)
        return [], [f"not JSON: {error}"]
    if not isinstance(value, list) or not all(isinstance(cluster, list) for cluster in value):
        return [], ["not a JSON list of lists of mention strings"]
    problems = [f"cluster {c + 1} item {i + 1} {item!r} is not a string" for c, cluster in enumerate(value) for i, item in enumerate(cluster) if not isinstance(item, str)]
    return value, problems


def _unspaced(token):
    return "".join(token.split())


def _common_ends(a, b):
    """(the length of the longest common prefix of two strings, of the longest common
    suffix of what follows it)."""
    limit = min(len(a), len(b))
    prefix = next((k for k in range(limit) if a[k] != b[k]), limit)
    suffix = next((k for k in range(limit - prefix) if a[-1 - k] != b[-1 - k]), limit - prefix)
    return prefix, suffix


SHORT_STRETCH = 512  # _equal_blocks: tokens of both sides in a stretch aligned by its rarest common token


def _increasing(pairs):
    """The longest run of `pairs` (i, j), in the order given, whose j increase (patience
    sorting, with back links)."""
    tails, links, last = [], [], []  # tails[k]: the least j ending a run of k + 1; last[k]: that pair's index
    for index, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        links.append(last[k - 1] if k else -1)
        tails[k : k + 1], last[k : k + 1] = [j], [index]
    run, index = [], last[-1] if last else -1
    while index >= 0:
        run.append(pairs[index])
        index = links[index]
    return run[::-1]


def _equal_blocks(a, b):
    """Runs of equal tokens (i, j, size) of `a` and `b`, in order in both, by patience
    diff: the common prefix and suffix; then the tokens found once in each, in the longest
    run in order in both, as anchors; the stretches between them alike. A short stretch
    with no such token takes its rarest common token ("John John" against "ZZZ John John":
    histogram diff); a long one (repetitive text) stays unequal. Near linear time
    (difflib's search for the longest match is quadratic on repetitive text: 76 s for
    4,500 tokens)."""
    blocks, stack = [], [(0, len(a), 0, len(b))]
    while stack:
        a_low, a_high, b_low, b_high = stack.pop()
        k = 0
        while a_low + k < a_high and b_low + k < b_high and a[a_low + k] == b[b_low + k]:
            k += 1
        if k:
            blocks.append((a_low, b_low, k))
            a_low, b_low = a_low + k, b_low + k
        k = 0
        while a_high - k > a_low and b_high - k > b_low and a[a_high - 1 - k] == b[b_high - 1 - k]:
            k += 1
        if k:
            blocks.append((a_high - k, b_high - k, k))
            a_high, b_high = a_high - k, b_high - k
        if a_low == a_high or b_low == b_high:
            continue
        in_a, in_b = Counter(a[a_low:a_high]), Counter(b[b_low:b_high])
        where = {b[j]: j for j in range(b_low, b_high) if in_b[b[j]] == 1 and in_a[b[j]] == 1}
        anchors = _increasing([(i, where[a[i]]) for i in range(a_low, a_high) if a[i] in where])
        common = in_a.keys() & in_b.keys()
        if not anchors and common and a_high - a_low + b_high - b_low <= SHORT_STRETCH:  # histogram diff: the rarest common token
            rarest = min(common, key=lambda token: (in_a[token] + in_b[token], a.index(token, a_low)))
            anchors = [(a.index(rarest, a_low), b.index(rarest, b_low))]
        for i, j in anchors:
            stack.append((a_low, i, b_low, j))
            blocks.append((i, j, 1))
            a_low, b_low = i + 1, j + 1
        if anchors:
            stack.append((a_low, a_high, b_low, b_high))
    return sorted(blocks)


def _character_map(tokens, source):
    """(per character of the model's text without white space, the offset of the source
    character it is in the source tokens joined without white space, or -1 on text the
    model changed; those joined source characters' token starts). Tokenization is no
    change: "Mary's" is the source's "Mary" "'s". If the two texts are equal every
    character is itself; else the tokens are aligned (_equal_blocks), each equal run maps
    whole, and between two runs the characters of the common prefix and suffix map
    ("Mary's" against "Mary" "'s": all of them)."""
    model, model_starts = _joined(tokens, _unspaced)
    text, starts = _joined(source, _unspaced)
    if model == text:
        return np.arange(len(model)), starts
    where = np.full(len(model), -1, np.int64)
    pieces = [_unspaced(token) for token in source]
    low = b_low = 0
    for i, j, size in [*_equal_blocks(tokens, pieces), (len(tokens), len(pieces), 0)]:
        a, b, x, y = model_starts[low], model_starts[i], starts[b_low], starts[j]  # the unequal stretch before the run
        prefix, suffix = _common_ends(model[a:b], text[x:y])
        where[a : a + prefix] = np.arange(x, x + prefix)
        where[b - suffix : b] = np.arange(y - suffix, y)
        where[model_starts[i] : model_starts[i + size]] = np.arange(starts[j], starts[j + size])
        low, b_low = i + size, j + size
    return where, starts


def _place_markdown(tokens, mentions, source):
    """coref_markdown@2's placement (see place_coref): per mention its [start, end] span or
    None, and the descriptions of the unplaced."""
    where, starts = _character_map(tokens, source)
    model_starts = _joined(tokens, _unspaced)[1]
    breaks = np.ones(len(where) + 1, np.int64)  # breaks[c]: character c is unmapped or not the next after c - 1's
    breaks[1:][where >= 0] = 0
    breaks[2:][(where[1:] != where[:-1] + 1) & (where[1:] >= 0)] = 1
    runs = np.cumsum(breaks)
    spans, unplaced = [], []
    for first, last, name in mentions:
        if first is None:
            unplaced.append(f"the mention (cluster {name!r}) is empty")
            spans.append(None)
            continue
        begin, end = model_starts[first], model_starts[last + 1]
        covered = where[begin] >= 0 and runs[end] == runs[begin + 1] and _covering(int(where[begin]), int(where[begin]) + end - begin, starts)
        if not covered:
            unplaced.append(f"the mention {' '.join(tokens[first : last + 1])!r} (cluster {name!r}) is on text the model changed (or does not begin and end where source tokens do)")
        spans.append([covered[0], covered[1] - 1] if covered else None)
    return spans, unplaced


def _place_strings(clusters, source):
    """coref_clusters@2's placement (see place_coref): per cluster, per item its [start,
    end] span or None; and the descriptions of the unplaced."""
    text, starts = _joined(source, _unspaced)
    needles = [[_unspaced(item) if isinstance(item, str) else "" for item in cluster] for cluster in clusters]
    placed = [[None] * len(cluster) for cluster in clusters]
    found, free, used, covered, own = {}, {}, set(), bytearray(len(source)), [[] for _ in clusters]  # own[c]: cluster c's spans, by start

    def spans(needle):  # the needle's token-aligned occurrences, found as far as asked
        for at in occurrences(text, needle):
            span = _covering(at, at + len(needle), starts)
            if span:
                yield span[0], span[1] - 1

    def choose(needle, c):
        """The first free occurrence that overlaps no mention, else the first that overlaps
        none of cluster c's, else the first free one; None if none is free."""
        seen, more = found[needle]
        while free[needle] < len(seen) and seen[free[needle]] in used:  # the occurrences before it are all taken
            free[needle] += 1
        fallback, k = [None, None], free[needle]
        while True:
            if k == len(seen):
                span = next(more, None)
                if span is None:
                    return fallback[0] if fallback[0] is not None else fallback[1]
                seen.append(span)
            span, k = seen[k], k + 1
            if span in used:
                continue
            before = bisect_right(own[c], (span[1], len(source))) - 1
            if before >= 0 and own[c][before][1] >= span[0]:  # on a mention of its own cluster
                fallback[1] = span if fallback[1] is None else fallback[1]
            elif any(covered[span[0] : span[1] + 1]):
                fallback[0] = span if fallback[0] is None else fallback[0]
            else:
                return span

    order = sorted(((c, i) for c, row in enumerate(needles) for i, needle in enumerate(row) if needle), key=lambda ci: -len(needles[ci[0]][ci[1]]))
    for c, i in order:
        needle = needles[c][i]
        found.setdefault(needle, ([], spans(needle)))
        free.setdefault(needle, 0)
        span = choose(needle, c)
        if span is not None:
            placed[c][i] = list(span)
            used.add(span)
            insort(own[c], span)
            covered[span[0] : span[1] + 1] = b"\x01" * (span[1] - span[0] + 1)
    unplaced = [
        f"the mention {item!r} (cluster {c + 1}) has no occurrence in the source tokens (white space aside) that is not already a mention"
        for c, cluster in enumerate(clusters) for item, span in zip(cluster, placed[c]) if span is None
    ]  # fmt: skip
    return [row for row in placed if row], unplaced


def place_coref(structure, parser, source):
    """(clusters of [start, end] inclusive spans over `source`, the source tokens, with None
    for each mention that could not be placed, in its cluster; the descriptions of those
    mentions). A mention is never moved elsewhere: an unplaced one is scored as a response
    mention that matches no key mention (paperscore.coref). Text is compared without its
    white space, so that tokenization is no change ("Mary's brother" is the source's
    "Mary 's brother"); a mention must begin and end where source tokens do.
    coref_markdown: a mention is placed where each of its characters is one the model left
    unchanged (_character_map) and they stay contiguous; else it is on text the model
    changed (or empty). coref_clusters: strings are placed longest first (so "Mary Smith"
    before the "Mary" that could fall inside it), then clusters and items in the model's
    order, each on an occurrence in the source that is not already a mention's span: the
    first that overlaps no mention placed so far; else the first that overlaps none of its
    own cluster (a possessive "Mary" inside "Mary 's brother"); else the first free one (a
    pronoun inside a long mention of its own entity, as LitBank annotates). So a repeated
    "Mary" goes to its own occurrence, not inside "Mary Smith". A string with no free
    occurrence, or an item that is not a string, is unplaced."""
    if parser.name == "coref_markdown":
        tokens, mentions = structure
        spans, unplaced = _place_markdown(tokens, mentions, source)
        clusters = {}
        for (_, _, name), span in zip(mentions, spans):
            clusters.setdefault(name, []).append(span)
        return list(clusters.values()), unplaced
    return _place_strings(structure, source)


def parse_coref(texts, parser, sources, strict=False, argument="predictions"):
    """(clusters per text, report): each model text read by `parser` (parse()) and placed
    on its source tokens (place_coref: None for a mention it cannot place); the report
    adds "mentions_on_changed_text" (how many mentions could not be placed) and
    "mentions_on_changed_text_examples" (the first 0-based indices). strict=True: an
    unplaced mention is a ValueError naming the example."""
    parser = get_parser(parser, "coref") if not isinstance(parser, Parser) else parser
    structures, report = parse(texts, parser, strict, argument)
    if len(sources) != len(structures):
        raise ValueError(f"{argument}: {len(structures)} model texts, but {len(sources)} source documents")
    clusters, count, examples = [], 0, []
    for index, (structure, source) in enumerate(zip(structures, sources)):
        placed, unplaced = place_coref(structure, parser, list(source))
        if unplaced:
            if strict:
                raise input_error(argument, index, f"{parser_id(parser)}: {unplaced[0]} ({len(unplaced)} mention(s) not placed)")
            count += len(unplaced)
            examples.append(index)
        clusters.append(placed)
    report.update(mentions_on_changed_text=count, mentions_on_changed_text_examples=examples[:FAILURE_EXAMPLES])
    return clusters, report


# ---------------------------------------------------------------------------------------
# Rationales (family rationale_f1): the words or spans of its input an LLM quotes, mapped
# back to the input's tokens. No published repository maps quoted rationales to tokens with
# a function of its own (searched 2026-11-24), so the reading and the three matching
# policies are the project's own, defined here and in rationale_f1's card.

QUOTE_CLOSING = {'"': '"', "“": "”", "「": "」", "『": "』"}  # '"' closes on its own line only
QUOTE_OPENING = re.compile('["“「『]')
BULLET = re.compile(r"\A(?:[-*•]|[0-9]+[.)])\s+")
FUZZY_MIN = (4, 5)  # the least similarity of a fuzzy match: 1 - distance / length >= 4/5
WINDOW_KEY, WINDOWS_KEPT = 32, 4  # _fuzzy_span: measured starts kept by their window's first characters, the last few


def read_quotes(text):
    """(quotes, problems): what a reply quotes. The first ``` fenced block (else the whole
    text), stripped, read as JSON if it is a JSON list (each string item a quote; any other
    item a problem) or a JSON string (one quote); any other JSON value (an object, a number)
    is no quote and a problem; else the texts inside double quotes
    ("…" on one line, “…”, 「…」, 『…』) if there are any; else each non-blank line, stripped,
    a leading bullet ("- ", "* ", "• ", "1. ", "1) ") removed. A blank reply quotes nothing."""
    fenced = FENCE.search(text)
    body = (fenced.group(1) if fenced else text).strip()
    if not body:
        return [], []
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, str):
        return [value], []
    if isinstance(value, list):
        problems = [f"item {number} {item!r:.60} is not a string" for number, item in enumerate(value, 1) if not isinstance(item, str)]
        return [item for item in value if isinstance(item, str)], problems
    if value is not None or body == "null":
        return [], [f"JSON {type(value).__name__}, not a list of quotes"]
    quoted = _quoted(body)
    if quoted:
        return quoted, []
    return [BULLET.sub("", line.strip()) for line in body.splitlines() if line.strip()], []


def _quoted(body):
    """The texts inside quote marks, left to right, each quoted text taken whole: what
    re.findall(r'"([^"\n]*)"|“([^”]*)”|「([^」]*)」|『([^』]*)』') finds, in linear time. A
    mark whose closing mark never follows (for '"': before the line ends) quotes nothing and
    the search goes on after it; a mark with no closing mark anywhere after it is not looked
    for again (the regular expression rescans the rest of the text from each one)."""
    found, at, hopeless = [], 0, set()
    while True:
        opening = QUOTE_OPENING.search(body, at)
        if opening is None:
            return found
        start, mark = opening.start(), opening.group()
        end = -1 if mark in hopeless else body.find(QUOTE_CLOSING[mark], start + 1)
        if end < 0:
            hopeless.add(mark)
        elif mark != '"' or body.find("\n", start + 1, end) < 0:
            found.append(body[start + 1 : end])
            at = end + 1
            continue
        at = start + 1


def normalized(text):
    """NFKC, case folded, without punctuation (Unicode category P*) and white space."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in folded if not (unicodedata.category(c).startswith("P") or c.isspace()))


QUICK_TRIES = 32  # occurrences found by str.find or list.index before occurrences() turns to KMP


def _kmp(sequence, pattern, start):
    """Every offset >= start where `pattern` (not empty) occurs in `sequence`, left to
    right, in time linear in both (Knuth-Morris-Pratt)."""
    border, k = [0] * len(pattern), 0  # border[i]: the longest proper border of pattern[: i + 1]
    for i in range(1, len(pattern)):
        while k and pattern[i] != pattern[k]:
            k = border[k - 1]
        k += pattern[i] == pattern[k]
        border[i] = k
    k = 0
    for i in range(start, len(sequence)):
        while k and sequence[i] != pattern[k]:
            k = border[k - 1]
        k += sequence[i] == pattern[k]
        if k == len(pattern):
            yield i - k + 1
            k = border[k - 1]


def occurrences(sequence, pattern):
    """Every offset where `pattern` (not empty) occurs in `sequence`, a string or a list of
    tokens, left to right: the first QUICK_TRIES by str.find (list.index and a comparison),
    fastest when occurrences are few; then by _kmp, so that a caller taking the first
    occurrence it accepts costs time linear in both lengths even in a periodic text where
    the pattern occurs at every offset (each str.find or comparison costs its length)."""
    at, text = 0, isinstance(sequence, str)
    for _ in range(QUICK_TRIES):
        if text:
            at = sequence.find(pattern, at)
        else:
            try:
                at = sequence.index(pattern[0], at)
            except ValueError:
                at = -1
        if at < 0:
            return
        if text or sequence[at : at + len(pattern)] == pattern:
            yield at
        at += 1
    yield from _kmp(sequence, pattern, at)


def _exact_span(quote, tokens, joined=None):
    """The first run of tokens equal to the quote's white-space-separated words, or None."""
    words = quote.split()
    start = next(occurrences(tokens, words), None) if words else None
    return None if start is None else (start, start + len(words))


def _joined(tokens, normal=normalized):
    """(the tokens, each made normal (normalized), joined; each token's start offset in it
    and the end)."""
    pieces = [normal(token) for token in tokens]
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece))
    return "".join(pieces), starts


def _covering(start, end, starts):
    """The tokens [begin, stop) whose normalized text is [start, end) of the joined text:
    from the token with text starting at `start` to the one ending at `end` (tokens
    without text between them included), or None if those are not token boundaries.
    `starts` is non-decreasing: the last token starting at `start`, the first ending at `end`."""
    begin, stop = bisect_right(starts, start) - 1, bisect_left(starts, end)
    if 0 <= begin < len(starts) - 1 and starts[begin] == start and 0 < stop < len(starts) and starts[stop] == end:
        return begin, stop
    return None


def _normalized_span(quote, tokens, joined=None):
    """The first run of tokens whose normalized texts, joined, equal the normalized quote
    ("Don't," matches the tokens "do" "n't"; "hazy, golden" the tokens "hazy" "," "golden"),
    or None."""
    joined, starts = joined or _joined(tokens)
    wanted = normalized(quote)
    spans = (_covering(at, at + len(wanted), starts) for at in occurrences(joined, wanted)) if wanted else ()
    return next((span for span in spans if span), None)


def _distances(wanted, text, anchored):
    """Per character of `text`, the Levenshtein distance from `wanted` to the text up to and
    including it: from the text's start (anchored), or from wherever it is least (not
    anchored: the search form). Bit-parallel (Myers 1999, in Hyyro's form): one column of
    the table is two bit vectors of vertical differences, `wanted` (not empty) one bit a
    character, updated in a few integer operations a character."""
    full, top = (1 << len(wanted)) - 1, 1 << (len(wanted) - 1)
    equal = {}
    for i, char in enumerate(wanted):
        equal[char] = equal.get(char, 0) | 1 << i
    plus, minus, distance = full, 0, len(wanted)  # vertical +1 / -1 differences; the bottom cell
    for char in text:
        eq = equal.get(char, 0)
        xv = eq | minus
        xh = (((eq & plus) + plus) ^ plus) | eq
        hplus, hminus = minus | (~(xh | plus) & full), plus & xh
        distance += bool(hplus & top) - bool(hminus & top)
        hplus, hminus = ((hplus << 1) | anchored) & full, (hminus << 1) & full  # the top row: +1 a character when anchored
        plus, minus = hminus | (~(xv | hplus) & full), hplus & xv
        yield distance


def _fuzzy_span(quote, tokens, joined=None):
    """The normalized match; else, of the runs of tokens (each from a token with normalized
    text to one), the one most similar to the normalized quote, similarity 1 - Levenshtein
    distance / the longer length, at least FUZZY_MIN; ties to the leftmost start, then the
    shorter run; or None. A run longer than the quote / FUZZY_MIN cannot reach it (the
    distance is at least the difference of lengths) and is not measured. The runs of one
    start share one bit-parallel column of the distance table (_distances); a start is
    measured only where it can win: `least`, its least distance to the quote over any
    end (one search pass over the reversed text for all starts), d >= max(least, |L - m|)
    for a run of L characters and a quote of m, so its similarity is at most
    1 - least / min(m + least, max(m, the longest run it can have)), which must reach
    FUZZY_MIN and beat the best so far; and a start whose window (its characters and token
    ends up to its last measured end) is the beginning of an earlier measured start's (a
    periodic text, the windows cut short by its end included) has no run the earlier one
    lacks, so it can only tie, which the earlier start wins. Time: the pass over the text,
    then per measured start a window of at most 5/4 of the quote, each character a few
    operations on integers as long as the quote."""
    joined, starts = joined or _joined(tokens)
    span = _normalized_span(quote, tokens, (joined, starts))
    wanted = normalized(quote)
    if span or not wanted:
        return span
    low, high = FUZZY_MIN
    m = len(wanted)
    least = list(_distances(wanted[::-1], joined[::-1], anchored=False))[::-1]  # least[s]: from offset s to any end
    ends = {end for begin, end in zip(starts, starts[1:]) if end > begin}
    marks = "".join("|" if offset in ends else "." for offset in range(len(joined) + 1))  # marks[k]: a token ends at offset k
    best, found, measured = None, None, {}  # (distance, length) of the best run so far, and its tokens; measured starts by their window's beginning
    for first in range(len(tokens)):
        begin = starts[first]
        if starts[first + 1] == begin:  # no text: no run starts here
            continue
        stop = min(len(joined), begin + m * high // low)
        longest = min(m + least[begin], max(m, stop - begin))  # the longer length at which least can be reached
        if least[begin] * high > longest * (high - low):
            continue
        if best is not None and least[begin] * best[1] >= best[0] * longest:
            continue
        window, window_ends = joined[begin:stop], marks[begin + 1 : stop + 1]
        earlier = measured.setdefault((window[:WINDOW_KEY], window_ends[:WINDOW_KEY]), [])
        if any(joined[other : other + len(window)] == window and marks[other + 1 : other + 1 + len(window)] == window_ends for other in earlier):
            continue
        del earlier[: max(0, len(earlier) - WINDOWS_KEPT + 1)]  # the most recent few of each beginning
        earlier.append(begin)
        for offset, distance in enumerate(_distances(wanted, joined[begin:stop], anchored=True), begin + 1):
            if offset in ends:
                longer = max(offset - begin, m)
                # distance / longer <= 1 - low / high, and below the best so far (exactly)
                if distance * high <= longer * (high - low) and (best is None or distance * best[1] < best[0] * longer):
                    best, found = (distance, longer), _covering(begin, offset, starts)
    return found


def _rationale_reader(find, rule):
    def read(text, tokens):
        quotes, problems = read_quotes(text)
        items = len(quotes) + len(problems)
        mask, joined, spans = [0] * len(tokens), _joined(tokens), {}  # the tokens joined once, each distinct quote placed once
        for number, quote in enumerate(quotes, 1):
            if quote not in spans:
                spans[quote] = find(quote, tokens, joined)
            span = spans[quote]
            if span is None:
                problems.append(f"quote {number} {quote!r:.60} matches no run of tokens")
            else:
                mask[span[0] : span[1]] = [1] * (span[1] - span[0])
        return mask, problems, items

    read.__doc__ = (
        f"(0/1 per token, problems, number of items): the quotes of read_quotes, each placed on the first run of tokens where {rule}; "
        "a quote placed nowhere (or an item that is no quote) is a problem each and selects nothing."
    )
    return read


RATIONALE_POLICIES = {
    "quotes_exact": (_exact_span, "the quote's white-space-separated words equal the tokens"),
    "quotes_normalized": (_normalized_span, "the joined normalized tokens equal the normalized quote (see normalized)"),
    "quotes_fuzzy": (_fuzzy_span, "the tokens match as quotes_normalized, else are the most similar run (see _fuzzy_span)"),
}


def parse_rationales(texts, sources, parser, strict=False, argument="predictions"):
    """(masks, report): each text's quotes mapped onto its example's tokens (sources[i]: a
    list of tokens) by `parser`, one 0/1 list per token; the report adds "quotes" and
    "unmatched_quotes" (quotes and items that match no tokens) to parse()'s. strict: the
    first text with such a quote is a ValueError naming `argument`[index]."""
    parser = parser if isinstance(parser, Parser) else get_parser(parser, "rationale_f1")
    masks, failed, quotes, unmatched = [], [], 0, 0
    for index, (text, tokens) in enumerate(zip(texts, sources)):
        if not isinstance(text, str):
            raise input_error(argument, index, f"is a {type(text).__name__}, not a model text for the parser {parser_id(parser)}")
        mask, problems, count = parser.read(text, tokens)
        if problems:
            if strict:
                raise input_error(argument, index, f"{parser_id(parser)} cannot place it: {problems[0]}")
            failed.append(index)
        masks.append(mask)
        quotes += count
        unmatched += len(problems)
    report = {"parser": parser_id(parser), "parse_failures": len(failed), "parse_failure_examples": failed[:FAILURE_EXAMPLES]}
    return masks, {**report, "quotes": quotes, "unmatched_quotes": unmatched}


# ---------------------------------------------------------------------------------------
# The registry

ABSA_QUAD = "IsakZhang/ABSA-QUAD@ce4d4a5 eval_utils.extract_spans_para"
GAS = "IsakZhang/Generative-ABSA@8f4671b eval_utils.extract_spans_extraction"
GAS_ANNOTATION = "IsakZhang/Generative-ABSA@8f4671b eval_utils.extract_spans_annotation"
GAS_FIXED = "IsakZhang/Generative-ABSA@8f4671b eval_utils.fix_pred_with_editdistance"
MVP = "ZubinGou/multi-view-prompting@549a2b7"

PARSERS = {
    parser_id(parser): parser
    for parser in (
        Parser("asqp_paraphrase", 2, "quad_match", "0123", read_asqp_paraphrase, ABSA_QUAD + "(task='asqp')"),
        Parser("asqp_paraphrase_aste", 2, "quad_match", "013", read_asqp_paraphrase_aste, ABSA_QUAD + "(task='aste')"),
        Parser("asqp_paraphrase_tasd", 2, "quad_match", "023", read_asqp_paraphrase_tasd, ABSA_QUAD + "(task='tasd')"),
        Parser("gas_uabsa", 2, "quad_match", "03", read_gas_uabsa, GAS + "(task='uabsa')"),
        Parser("gas_aope", 2, "quad_match", "01", read_gas_aope, GAS + "(task='aope')"),
        Parser("gas_aste", 2, "quad_match", "013", read_gas_aste, GAS + "(task='aste')"),
        Parser("gas_tasd", 2, "quad_match", "023", read_gas_tasd, GAS + "(task='tasd')"),
        Parser("gas_annotation_uabsa", 2, "quad_match", "03", read_gas_annotation_uabsa, GAS_ANNOTATION + "(task='uabsa')"),
        Parser("gas_annotation_aope", 2, "quad_match", "01", read_gas_annotation_aope, GAS_ANNOTATION + "(task='aope')"),
        Parser("gas_annotation_aste", 2, "quad_match", "013", read_gas_annotation_aste, GAS_ANNOTATION + "(task='aste')"),
        Parser("gas_annotation_tasd", 2, "quad_match", "023", read_gas_annotation_tasd, GAS_ANNOTATION + "(task='tasd')"),
        *(
            Parser(f"gas{'_annotation' if annotation else ''}_{task}_fixed", 1, "quad_match", tuple_len, read, f"{GAS_FIXED}(task='{task}'{', annotation' if annotation else ''})", _gas_fix(task, annotation))
            for annotation, readers in ((False, (read_gas_uabsa, read_gas_aope, read_gas_aste, read_gas_tasd)), (True, (read_gas_annotation_uabsa, read_gas_annotation_aope, read_gas_annotation_aste, read_gas_annotation_tasd)))
            for (task, tuple_len), read in zip((("uabsa", "03"), ("aope", "01"), ("aste", "013"), ("tasd", "023")), readers)
        ),
        Parser("mvp", 2, "quad_match", "0123", read_mvp, MVP + " src/eval_utils.extract_spans_para"),
        Parser("mvp_llm", 2, "quad_match", "0123", read_mvp_llm, MVP + " src/llms/eval.py (asqp, acos)"),
        Parser("mvp_llm_aste", 2, "quad_match", "013", read_mvp_llm_triplets, MVP + " src/llms/eval.py (aste)"),
        Parser("mvp_llm_tasd", 2, "quad_match", "023", read_mvp_llm_triplets, MVP + " src/llms/eval.py (tasd)"),
        Parser("dlo", 1, "quad_match", "0123", read_dlo, "hmt2014/AspectQuad@b3c801f DLO/eval_utils.extract_spans_para(task='asqp')"),
        *(Parser(preset, 1, "quad_match", "0123", _json_reader(preset), "paperscore") for preset in JSON_KEYS),
        Parser("omnievent_s2s", 1, "micro_macro", None, read_omnievent_s2s, "THU-KEG/OmniEvent@ec72e72 seq2seq_processor.extract_argument"),
        Parser("omnievent_s2s_strict", 1, "micro_macro", None, read_omnievent_s2s, "OmniEvent's reading; paperscore's strict offset policy"),
        Parser("csc_label", 1, "csc", None, read_csc_label_v1, "paperscore"),
        Parser("csc_first_line", 1, "csc", None, read_csc_first_line_v1, "paperscore"),
        Parser("csc_quotes", 1, "csc", None, read_csc_quotes_v1, "paperscore"),
        Parser("csc_reply", 1, "csc", None, read_csc_reply_v1, "paperscore"),
        Parser("csc_label", 2, "csc", None, read_csc_label, "paperscore"),
        Parser("csc_first_line", 2, "csc", None, read_csc_first_line, "paperscore"),
        Parser("csc_quotes", 2, "csc", None, read_csc_quotes, "paperscore"),
        Parser("csc_reply", 2, "csc", None, read_csc_reply, "paperscore"),
        Parser("cllm_reply", 1, "csc", None, read_cllm_reply_v1, "ktlKTL/C-LLM@7cd0d8c calcuate_metric.process_txt"),
        Parser("cllm_reply", 2, "csc", None, read_cllm_reply, "ktlKTL/C-LLM@7cd0d8c calcuate_metric.process_txt, then HillZhang1999/MuCGEC@3922193 ChERRANT parallel_to_m2.py's reading"),
        Parser("pycorrector_gpt", 1, "csc", None, read_pycorrector_gpt, "shibing624/pycorrector@fc8aa56 pycorrector/gpt/gpt_model.GptModel.predict"),
        Parser("simple_csc_line", 1, "csc", None, read_simple_csc_line, "Jacob-Zhou/simple-csc@7701e46 run.py"),
        Parser("gen_scl_nat", 2, "quad_match", "0123", read_gen_scl_nat, "jpeper/GEN_SCL_NAT@e9ee190 source/eval_utils.extract_spans_para(task='gen_scl_nat')"),
        Parser("diaasq_json", 1, "quad_match", "0123", read_diaasq_json, "paperscore (unikcc/DiaASQ@a7e3e35 save2file's triplet layout)"),
        Parser("coref_markdown", 2, "coref", None, read_coref_markdown, "nle18/coref-llms@6d0e16e src/data_processing.py (its markup; paperscore's reader)"),
        Parser("coref_clusters", 2, "coref", None, read_coref_clusters, "paperscore"),
        *(Parser(name, 1, "rationale_f1", None, _rationale_reader(find, rule), "paperscore") for name, (find, rule) in RATIONALE_POLICIES.items()),
    )
}


# A parser whose reading changes gets the next version (its signature changes with it);
# the previous one is retired here, with what changed: paperscore's earlier releases read
# as it did (the signature names the package version too).
LITERAL_TERMS = "a quad with an empty target or opinion term, or white space around an element, is unreadable (literal_elements), as the repository compares it"
RETIRED = {
    **{f"{name}@1": LITERAL_TERMS for name in (
        "asqp_paraphrase", "asqp_paraphrase_aste", "asqp_paraphrase_tasd", "gas_uabsa", "gas_aope", "gas_aste", "gas_tasd",
        "gas_annotation_uabsa", "gas_annotation_aope", "gas_annotation_aste", "gas_annotation_tasd", "mvp", "mvp_llm",
        "mvp_llm_aste", "mvp_llm_tasd", "gen_scl_nat")},
    "coref_markdown@1": "text differing from the source tokens only in white space (\"Mary's\" for \"Mary 's\") is not changed text",
    "coref_clusters@1": "mention strings match the source ignoring white space, placed longest first, on an occurrence inside no other mention while one is free",
}  # fmt: skip
FIXING_PARSERS = sorted(parser.name for parser in PARSERS.values() if parser.fix)


def get_parser(name, family=None):
    """The parser called `name` ("asqp_paraphrase", its newest version, or
    "asqp_paraphrase@2"); an unknown name or version, or one of another family, is a
    ValueError listing the names; a retired version says what changed."""
    if not isinstance(name, str):
        raise ValueError(f"parse: {name!r} is not a parser name")
    if name in RETIRED:
        raise ValueError(f"parse: {name} is retired ({RETIRED[name]}); this paperscore reads with {parser_id(get_parser(name.split('@')[0]))}")
    versions = [parser for parser in PARSERS.values() if parser.name == name]
    wanted = name if "@" in name or not versions else parser_id(max(versions, key=lambda parser: parser.version))
    parser = PARSERS.get(wanted)
    if parser is None or (family is not None and parser.family != family):
        known = sorted(key for key, p in PARSERS.items() if family is None or p.family == family)
        raise ValueError(f"parse: unknown parser {name!r}{f' for {family}' if family else ''}; known: {', '.join(known)}")
    return parser


def token_lists(sources, count, argument="sources"):
    """Each example's input words: a text split on white space, or a list of strings; one
    example per model text (`count`)."""
    if isinstance(sources, (str, bytes, dict)) or not hasattr(sources, "__iter__"):
        raise ValueError(f"{argument}: expected one input per example (a text or a list of words), got {type(sources).__name__}")
    sources = list(sources)
    if len(sources) != count:
        raise ValueError(f"{argument} and predictions differ in length: {len(sources)} against {count} examples")
    words = []
    for index, source in enumerate(sources):
        if isinstance(source, str):
            words.append(source.split())
        elif isinstance(source, (list, tuple, np.ndarray)) and all(isinstance(word, str) for word in source):
            words.append([str(word) for word in source])
        else:
            raise input_error(argument, index, f"expected a text or a list of words, got {type(source).__name__} {source!r:.60}")
    return words


def parse(texts, parser, strict=False, argument="predictions", sources=None):
    """(structures, report): each text read by `parser` (a name or a Parser), one structure
    per text (parse_one), and {"parser": "name@version", "parse_failures": how many texts
    had a piece the parser could not read, "parse_failure_examples": the first few of their
    0-based indices}. strict=True: a ValueError naming `argument`[index] and the piece
    instead. sources: for a parser that fixes predictions against their sentence (GAS's
    gas_*_fixed), each text's input, a text or a list of words (token_lists); refused
    for any other parser."""
    parser = parser if isinstance(parser, Parser) else get_parser(parser)
    if isinstance(texts, (str, bytes, dict)) or not hasattr(texts, "__iter__"):
        raise ValueError(f"{argument}: expected a list of model texts, got {type(texts).__name__}")
    texts = list(texts)
    if parser.fix and sources is None:
        raise ValueError(f"sources: {parser_id(parser)} corrects each prediction against its sentence; pass sources, one text (split on white space) or list of words per example")
    if sources is not None and not parser.fix:
        raise ValueError(f"sources: {parser_id(parser)} reads the model texts alone; sources apply to the parsers that fix predictions against the sentence ({', '.join(FIXING_PARSERS)})")
    words = token_lists(sources, len(texts)) if parser.fix else [None] * len(texts)
    for index, sentence in enumerate(words):
        if sentence == []:
            raise input_error("sources", index, f"has no words: {parser_id(parser)} recovers terms from the sentence's words")
    structures, failed, carry = [], [], {}
    for index, (text, sentence) in enumerate(zip(texts, words)):
        if not isinstance(text, str):
            raise input_error(argument, index, f"is a {type(text).__name__}, not a model text for the parser {parser_id(parser)}")
        structure, problems = parse_one(parser, text, sentence, carry)
        if problems:
            if strict:
                raise input_error(argument, index, f"{parser_id(parser)} cannot read it: {problems[0]}")
            failed.append(index)
        structures.append(structure)
    report = {"parser": parser_id(parser), "parse_failures": len(failed), "parse_failure_examples": failed[:FAILURE_EXAMPLES]}
    return structures, report


CSC_PARSERS = sorted({parser.name for parser in PARSERS.values() if parser.family == "csc"})  # each its newest version
COREF_PARSERS = sorted(parser.name for parser in PARSERS.values() if parser.family == "coref")
