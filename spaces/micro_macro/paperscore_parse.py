# GENERATED from shared/paperscore/parse.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""Parsers from what a generative model writes to the structures a family's compute() takes.

Every repository turns generated text into tuples with its own decoding function, and the
choice moves the numbers as much as the metric does. Each parser here restates one
published decoder, exactly (checked against the repository's own function on thousands of
random and malformed strings, tests/data/parse/), under a name and a version that go into
the signature: `asqp_paraphrase@1`. The parsers whose source is "paperscore" are this
project's own conventions, for model text no repository decodes (LLM JSON, chat replies).

A text is never dropped: the pieces a parser cannot read become what the source repository
makes of them (each parser says which), usually a quad of empty strings, which
quad_match.compute counts as a predicted quad that matches nothing. The report beside the
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
A name alone is the parser's newest version (`csc_reply` is `csc_reply@2`); an older one is
selected by its full name, and a changed reading is always a new version.
"""

import ast
import itertools
import json
import re
import unicodedata
import warnings
from bisect import bisect_left, bisect_right
from collections import namedtuple

import numpy as np

from .paperscore_core import check_flags, input_error, read_json_values, read_lines

Parser = namedtuple("Parser", "name version family tuple_len read source")
FAILURE_EXAMPLES = 5  # how many failing example indices the report lists


def parser_id(parser):
    return f"{parser.name}@{parser.version}"


def _unread(width):
    """What an unreadable piece becomes: a quad of empty strings, malformed in quad_match
    (an empty aspect or polarity) for every tuple_len except "01"."""
    return [""] * width


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
PIECE_READERS = {"asqp_paraphrase@1": (_asqp_quad, 4), "asqp_paraphrase_aste@1": (_aste_triplet, 3), "asqp_paraphrase_tasd@1": (_tasd_triplet, 3)}
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
                    self._add(piece, _unread(width) if quad is None else quad, quad is None or bool(problems))
            numbers = np.fromiter(map(self.seen.__getitem__, pieces), np.int64, len(pieces))
            bad = np.array(self.bad, bool)[numbers]
            failed = np.logical_or.reduceat(bad, np.cumsum(counts) - counts) if len(texts) else np.zeros(0, bool)
            return numbers, counts, failed
        done = {}
        for text in dict.fromkeys(texts):
            quads, problems = self.parser.read(text)
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
ANNOTATION = re.compile(r"\[.*?\]")


def _read_annotation(text, width):
    """Every "[...]" (shortest, on one line) split on "|" into exactly `width` parts, else an
    empty tuple (reported). Pairs: a second part holding "," is split on ", " into one pair
    each. Triplets: if the middle part is a sentiment word (ASTE: aspect|sentiment|opinions)
    the last part, else (TASD: aspect|categories|sentiment) the middle part, is split so."""
    tuples, problems = [], []
    for number, found in enumerate(ANNOTATION.findall(text), 1):
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
# piece with the `parse` package's patterns "{0}|{1}|{2}|{3}", then "{0}| THE{1}IS{2}|{3}":
# regular expressions where each field is (.+?), matching the whole piece, "." matching
# line breaks, case-sensitive.
GEN_SCL_NAT_PATTERNS = (re.compile(r"(.+?)\|(.+?)\|(.+?)\|(.+?)", re.S), re.compile(r"(.+?)\| THE(.+?)IS(.+?)\|(.+?)", re.S))


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
        found = next((match for match in (pattern.fullmatch(piece) for pattern in GEN_SCL_NAT_PATTERNS) if match), None)
        if found is None:
            quads.append(["NULL", "NULL", "", ""])
            problems.append(f"piece {number} {piece!r} is not 'category | THE aspect IS opinion | sentiment'")
            continue
        category, aspect, opinion, sentiment = (field.strip(" ") for field in found.groups())
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
    except ValueError as error:
        return [], [f"not JSON: {error}"]
    if not isinstance(value, list) or not all(isinstance(cluster, list) for cluster in value):
        return [], ["not a JSON list of lists of mention strings"]
    problems = [f"cluster {c + 1} item {i + 1} {item!r} is not a string" for c, cluster in enumerate(value) for i, item in enumerate(cluster) if not isinstance(item, str)]
    return value, problems


def _aligned(tokens, source):
    """Per model token its source token position, or None on text the model changed: the
    tokens of difflib's equal blocks (SequenceMatcher without its junk heuristic)."""
    from difflib import SequenceMatcher

    if tokens == source:  # the model copied the text: no need to align (difflib is slow on long documents)
        return list(range(len(tokens)))
    where = [None] * len(tokens)
    for tag, low, high, source_low, _ in SequenceMatcher(None, tokens, source, autojunk=False).get_opcodes():
        if tag == "equal":
            where[low:high] = range(source_low, source_low + high - low)
    return where


def _first_unused(words, source, used):
    """The first [start, end] (inclusive, left to right) where the source tokens are
    `words` and that is not already a span in `used`; None if there is none."""
    n = len(words)
    for start in range(len(source) - n + 1):
        if source[start : start + n] == words and (start, start + n - 1) not in used:
            return [start, start + n - 1]
    return None


def place_coref(structure, parser, source):
    """(clusters of [start, end] inclusive spans over `source`, the source tokens, with None
    for each mention that could not be placed, in its cluster; the descriptions of those
    mentions). A mention is never moved elsewhere: an unplaced one is scored as a response
    mention that matches no key mention (paperscore.coref). coref_markdown: a mention is
    placed where every one of its tokens is in a block difflib aligns unchanged and they
    stay contiguous; else it is on text the model changed (or empty). coref_clusters: each
    string, split on whitespace, at its first occurrence in the source tokens (left to
    right) that is not the span of a mention placed before it (clusters, then items, in
    the model's order; nested mentions are fine); a string with none, or an item that is
    not a string, is unplaced."""
    unplaced, clusters = [], {}
    if parser.name == "coref_markdown":
        tokens, mentions = structure
        where = _aligned(tokens, source)
        for first, last, name in mentions:
            if first is None:
                unplaced.append(f"the mention (cluster {name!r}) is empty")
                clusters.setdefault(name, []).append(None)
                continue
            ends = (where[first], where[last])
            if None in where[first : last + 1] or ends[1] - ends[0] != last - first:
                unplaced.append(f"the mention {' '.join(tokens[first : last + 1])!r} (cluster {name!r}) is on text the model changed")
                clusters.setdefault(name, []).append(None)
            else:
                clusters.setdefault(name, []).append(list(ends))
        return list(clusters.values()), unplaced
    used, out = set(), []
    for number, cluster in enumerate(structure, 1):
        placed = []
        for item in cluster:
            span = _first_unused(item.split(), source, used) if isinstance(item, str) and item.split() else None
            if span is None:
                unplaced.append(f"the mention {item!r} (cluster {number}) has no unused occurrence in the source tokens")
            else:
                used.add(tuple(span))
            placed.append(span)
        if placed:
            out.append(placed)
    return out, unplaced


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

QUOTE_MARKS = re.compile(r'"([^"\n]*)"|“([^”]*)”|「([^」]*)」|『([^』]*)』')
BULLET = re.compile(r"\A(?:[-*•]|[0-9]+[.)])\s+")
FUZZY_MIN = (4, 5)  # the least similarity of a fuzzy match: 1 - distance / length >= 4/5


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
    quoted = [next(group for group in found if group) if any(found) else "" for found in QUOTE_MARKS.findall(body)]
    if quoted:
        return quoted, []
    return [BULLET.sub("", line.strip()) for line in body.splitlines() if line.strip()], []


def normalized(text):
    """NFKC, case folded, without punctuation (Unicode category P*) and white space."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in folded if not (unicodedata.category(c).startswith("P") or c.isspace()))


def _exact_span(quote, tokens):
    """The first run of tokens equal to the quote's white-space-separated words, or None."""
    words = quote.split()
    for start in range(len(tokens) - len(words) + 1) if words else ():
        if tokens[start : start + len(words)] == words:
            return start, start + len(words)
    return None


def _joined(tokens):
    """(the normalized tokens joined, each token's start offset in it and the end)."""
    pieces = [normalized(token) for token in tokens]
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece))
    return "".join(pieces), starts


def _covering(start, end, starts):
    """The tokens [begin, stop) whose normalized text is [start, end) of the joined text:
    from the token with text starting at `start` to the one ending at `end` (tokens
    without text between them included), or None if those are not token boundaries."""
    begin = next((i for i in range(len(starts) - 1) if starts[i] == start < starts[i + 1]), None)
    stop = next((i + 1 for i in range(len(starts) - 1) if starts[i] < end == starts[i + 1]), None)
    return None if begin is None or stop is None else (begin, stop)


def _normalized_span(quote, tokens, joined=None):
    """The first run of tokens whose normalized texts, joined, equal the normalized quote
    ("Don't," matches the tokens "do" "n't"; "hazy, golden" the tokens "hazy" "," "golden"),
    or None."""
    joined, starts = joined or _joined(tokens)
    wanted = normalized(quote)
    at = joined.find(wanted) if wanted else -1
    while at >= 0:
        span = _covering(at, at + len(wanted), starts)
        if span:
            return span
        at = joined.find(wanted, at + 1)
    return None


def _fuzzy_span(quote, tokens):
    """The normalized match; else, of the runs of tokens (each from a token with normalized
    text to one), the one most similar to the normalized quote, similarity 1 - Levenshtein
    distance / the longer length, at least FUZZY_MIN; ties to the leftmost start, then the
    shorter run; or None. A run longer than the quote / FUZZY_MIN cannot reach it (the
    distance is at least the difference of lengths) and is not measured; the runs of one
    start share one edit-distance table grown a character at a time."""
    joined, starts = _joined(tokens)
    span = _normalized_span(quote, tokens, (joined, starts))
    wanted = normalized(quote)
    if span or not wanted:
        return span
    low, high = FUZZY_MIN
    ends = {end for begin, end in zip(starts, starts[1:]) if end > begin}
    best, found = None, None  # (distance, length) of the best run so far, and its tokens
    for first in range(len(tokens)):
        if starts[first + 1] == starts[first]:
            continue
        row = list(range(len(wanted) + 1))  # the distances of the run so far to the quote's prefixes
        stop = min(len(joined), starts[first] + len(wanted) * high // low)
        for offset in range(starts[first], stop):
            char, previous, row = joined[offset], row, [row[0] + 1]
            for j, wanted_char in enumerate(wanted, 1):
                row.append(min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (wanted_char != char)))
            if offset + 1 in ends:
                distance, longer = row[-1], max(offset + 1 - starts[first], len(wanted))
                # distance / longer <= 1 - low / high, and below the best so far (exactly)
                if distance * high <= longer * (high - low) and (best is None or distance * best[1] < best[0] * longer):
                    best, found = (distance, longer), _covering(starts[first], offset + 1, starts)
    return found


def _rationale_reader(find, rule):
    def read(text, tokens):
        quotes, problems = read_quotes(text)
        items = len(quotes) + len(problems)
        mask = [0] * len(tokens)
        for number, quote in enumerate(quotes, 1):
            span = find(quote, tokens)
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
MVP = "ZubinGou/multi-view-prompting@549a2b7"

PARSERS = {
    parser_id(parser): parser
    for parser in (
        Parser("asqp_paraphrase", 1, "quad_match", "0123", read_asqp_paraphrase, ABSA_QUAD + "(task='asqp')"),
        Parser("asqp_paraphrase_aste", 1, "quad_match", "013", read_asqp_paraphrase_aste, ABSA_QUAD + "(task='aste')"),
        Parser("asqp_paraphrase_tasd", 1, "quad_match", "023", read_asqp_paraphrase_tasd, ABSA_QUAD + "(task='tasd')"),
        Parser("gas_uabsa", 1, "quad_match", "03", read_gas_uabsa, GAS + "(task='uabsa')"),
        Parser("gas_aope", 1, "quad_match", "01", read_gas_aope, GAS + "(task='aope')"),
        Parser("gas_aste", 1, "quad_match", "013", read_gas_aste, GAS + "(task='aste')"),
        Parser("gas_tasd", 1, "quad_match", "023", read_gas_tasd, GAS + "(task='tasd')"),
        Parser("gas_annotation_uabsa", 1, "quad_match", "03", read_gas_annotation_uabsa, GAS_ANNOTATION + "(task='uabsa')"),
        Parser("gas_annotation_aope", 1, "quad_match", "01", read_gas_annotation_aope, GAS_ANNOTATION + "(task='aope')"),
        Parser("gas_annotation_aste", 1, "quad_match", "013", read_gas_annotation_aste, GAS_ANNOTATION + "(task='aste')"),
        Parser("gas_annotation_tasd", 1, "quad_match", "023", read_gas_annotation_tasd, GAS_ANNOTATION + "(task='tasd')"),
        Parser("mvp", 1, "quad_match", "0123", read_mvp, MVP + " src/eval_utils.extract_spans_para"),
        Parser("mvp_llm", 1, "quad_match", "0123", read_mvp_llm, MVP + " src/llms/eval.py (asqp, acos)"),
        Parser("mvp_llm_aste", 1, "quad_match", "013", read_mvp_llm_triplets, MVP + " src/llms/eval.py (aste)"),
        Parser("mvp_llm_tasd", 1, "quad_match", "023", read_mvp_llm_triplets, MVP + " src/llms/eval.py (tasd)"),
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
        Parser("gen_scl_nat", 1, "quad_match", "0123", read_gen_scl_nat, "jpeper/GEN_SCL_NAT@e9ee190 source/eval_utils.extract_spans_para(task='gen_scl_nat')"),
        Parser("diaasq_json", 1, "quad_match", "0123", read_diaasq_json, "paperscore (unikcc/DiaASQ@a7e3e35 save2file's triplet layout)"),
        Parser("coref_markdown", 1, "coref", None, read_coref_markdown, "nle18/coref-llms@6d0e16e src/data_processing.py (its markup; paperscore's reader)"),
        Parser("coref_clusters", 1, "coref", None, read_coref_clusters, "paperscore"),
        *(Parser(name, 1, "rationale_f1", None, _rationale_reader(find, rule), "paperscore") for name, (find, rule) in RATIONALE_POLICIES.items()),
    )
}


def get_parser(name, family=None):
    """The parser called `name` ("asqp_paraphrase", its newest version, or "asqp_paraphrase@1");
    an unknown name or version, or one of another family, is a ValueError listing the names."""
    if not isinstance(name, str):
        raise ValueError(f"parse: {name!r} is not a parser name")
    versions = [parser for parser in PARSERS.values() if parser.name == name]
    wanted = name if "@" in name or not versions else parser_id(max(versions, key=lambda parser: parser.version))
    parser = PARSERS.get(wanted)
    if parser is None or (family is not None and parser.family != family):
        known = sorted(key for key, p in PARSERS.items() if family is None or p.family == family)
        raise ValueError(f"parse: unknown parser {name!r}{f' for {family}' if family else ''}; known: {', '.join(known)}")
    return parser


def parse(texts, parser, strict=False, argument="predictions"):
    """(structures, report): each text read by `parser` (a name or a Parser), one structure
    per text, and {"parser": "name@version", "parse_failures": how many texts had a piece
    the parser could not read, "parse_failure_examples": the first few of their 0-based
    indices}. strict=True: a ValueError naming `argument`[index] and the piece instead."""
    parser = parser if isinstance(parser, Parser) else get_parser(parser)
    if isinstance(texts, (str, bytes, dict)) or not hasattr(texts, "__iter__"):
        raise ValueError(f"{argument}: expected a list of model texts, got {type(texts).__name__}")
    structures, failed = [], []
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise input_error(argument, index, f"is a {type(text).__name__}, not a model text for the parser {parser_id(parser)}")
        structure, problems = parser.read(text)
        if problems:
            if strict:
                raise input_error(argument, index, f"{parser_id(parser)} cannot read it: {problems[0]}")
            failed.append(index)
        structures.append(structure)
    report = {"parser": parser_id(parser), "parse_failures": len(failed), "parse_failure_examples": failed[:FAILURE_EXAMPLES]}
    return structures, report


CSC_PARSERS = sorted({parser.name for parser in PARSERS.values() if parser.family == "csc"})  # each its newest version
COREF_PARSERS = sorted(parser.name for parser in PARSERS.values() if parser.family == "coref")
