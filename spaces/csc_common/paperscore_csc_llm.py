# GENERATED from shared/paperscore/csc_llm.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""CSC as the LLM-corrector papers score it: every sentence aligned with its source by the
ERRANT-style Levenshtein alignment of Jacob-Zhou/simple-csc `eval/utils.py` (see
csc.align_edits, errant=True), each one-character substitution, insertion or deletion an
edit, compared as the projects' `eval/evaluate.py` `calculate_metric` compares them:

- simple-csc (Zhou et al., EMNLP 2024; C2EC, ACL 2025): an edit is detected where its
  source span (b, e) is a gold edit's, corrected where (b, e, new text) is a gold edit;
- MSLLM (Qiao et al., ACL 2025): the same with the edit's target span as well.

A sentence is detected (corrected) when its sets of spans (edits) equal the gold ones;
the character level counts every edit, duplicates included. Edits of a source character in
`ignore` (the scripts' `--ignore_chars`, `--ignore_punct`, `--ignore_letter`) are skipped.
The rows are csc_common's COLUMNS, so its figures (the CSCD-NS rounding) apply unchanged.
"""

from functools import partial
from string import ascii_letters, punctuation

import numpy as np

from .paperscore_csc import DELETE, INSERT, align_edits, isin_sentence

# simple-csc / MSLLM `--ignore_punct`: its Chinese punctuation string plus string.punctuation.
PUNCTUATION = frozenset(
    "！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘'‛“”„‟…‧﹏"
    + punctuation
)
LETTERS = frozenset(ascii_letters)  # MSLLM `--ignore_letter`


def aligned_spans(sources, texts, name, target_span, ignore):
    """The edits of one side: (sentence, span key, new char or -1 for a deletion, and for
    reports the 1-based source position, kind, char). The span key numbers (b, e) (and
    (b', e') with target_span) of each edit."""
    longest = max(map(len, sources), default=0)
    if longest >= 2**21:
        i = [len(source) for source in sources].index(longest)
        raise ValueError(f"sources[{i}]: has {longest:,} characters; the LLM presets take fewer than {2**21:,}")
    # A text equal to its source aligns with no edit: only the others go through the programme.
    changed = np.flatnonzero([text != source for text, source in zip(texts, sources)])
    sentence, kind, position, char, text_start = align_edits([sources[i] for i in changed.tolist()], [texts[i] for i in changed.tolist()], name, changed, errant=True)
    sentence = changed[sentence]
    start = position - 1  # 0-based: the source character, or the one an insertion precedes
    if ignore:
        lengths = np.fromiter(map(len, sources), dtype=np.int64, count=len(sources))
        points = np.frombuffer("".join(sources).encode("utf-32-le", "surrogatepass"), dtype="<u4")
        ignored = np.array(sorted(map(ord, ignore)), dtype=np.int64)
        source_char = np.where(kind == INSERT, -1, points[np.minimum((np.cumsum(lengths) - lengths)[sentence] + start, len(points) - 1)] if len(points) else -1)
        # a table over the code points (at most 0x110000 bytes): numpy's sorting path imports numpy.ma (11 ms)
        keep = ~np.isin(source_char, ignored, kind="table")
        sentence, kind, position, char, text_start, start = (a[keep] for a in (sentence, kind, position, char, text_start, start))
    span = 2 * start + (kind != INSERT)  # (b, e): e = b + 1 unless an insertion
    if target_span:
        span = (span << 32) | (2 * text_start + (kind != DELETE))  # (b, e) < 2**22 (csc.INDEL), (b', e') < 2**32
    new = np.where(kind == DELETE, -1, char)
    return sentence, span, new, (position, kind, char)


def statistics(predictions, references, sources, columns, target_span=False, ignore=frozenset()):
    """The (n, len(columns)) counts of each sentence under the simple-csc (target_span:
    MSLLM) comparison, and each side's edits for reports."""
    n = len(sources)
    (p_sentence, p_span, p_new, p_report), (g_sentence, g_span, g_new, g_report) = (
        aligned_spans(sources, texts, name, target_span, ignore) for texts, name in ((predictions, "predictions"), (references, "references"))
    )
    # (span, new) as one integer: the spans numbered first (new + 1 < 2**21).
    codes = np.unique(np.concatenate([p_span, g_span]), return_inverse=True)[1].astype(np.int64)
    p_edit, g_edit = (codes[: len(p_span)] << 21) | (p_new + 1), (codes[len(p_span) :] << 21) | (g_new + 1)
    span_hit = isin_sentence(p_sentence, p_span, g_sentence, g_span)
    edit_hit = isin_sentence(p_sentence, p_edit, g_sentence, g_edit)
    span_found = isin_sentence(g_sentence, g_span, p_sentence, p_span)
    edit_found = isin_sentence(g_sentence, g_edit, p_sentence, p_edit)

    def count(sentence, mask=None):
        return np.bincount(sentence if mask is None else sentence[mask], minlength=n)

    predicted, gold = count(p_sentence), count(g_sentence)
    flagged, erroneous = predicted > 0, gold > 0
    same_spans = (count(p_sentence, ~span_hit) == 0) & (count(g_sentence, ~span_found) == 0)
    same_edits = (count(p_sentence, ~edit_hit) == 0) & (count(g_sentence, ~edit_found) == 0)
    values = {
        "sentences": np.ones(n, dtype=bool), "gold_sentences": erroneous, "predicted_sentences": flagged,
        "detected_sentences": flagged & same_spans, "corrected_sentences": flagged & same_edits,
        "detection_hits": same_spans, "correction_hits": same_edits, "clean_flagged": flagged & ~erroneous,
        "untouched_erroneous": erroneous & ~flagged, "gold_chars": gold, "predicted_chars": predicted,
        "predicted_chars_erroneous": predicted * erroneous, "position_hits": count(p_sentence, span_hit),
        "exact_hits": count(p_sentence, edit_hit), "membership_misses": np.zeros(n, dtype=np.int64),
    }  # fmt: skip
    rows = np.stack([values[name] for name in columns], axis=1, dtype=np.int64)
    # the reports are written only when asked for (per_sentence)
    return rows, (partial(_groups, p_sentence, p_report, n), partial(_groups, g_sentence, g_report, n))


def _groups(sentence, report, n):
    """Per sentence, its edits as (1-based source position, text) pairs, as
    length_mismatch="align" lists them: an insertion "<insert before: X>", a deletion
    "<delete: X>"."""
    out = [[] for _ in range(n)]
    for k, (position, kind, char) in zip(sentence.tolist(), zip(*(a.tolist() for a in report))):
        text = f"<insert before: {chr(char)}>" if kind == INSERT else f"<delete: {chr(char)}>" if kind == DELETE else chr(char)
        out[k].append([position, text])
    return out


# ---------------------------------------------------------------------------------------
# The scripts' pre-scoring normalisation (simple-csc / MSLLM `eval/evaluate.py` `main`)

NORMALIZATIONS = ("clean", "halfwidth", "no_spaces", "drop_unequal", "simplified", "ignore_punct", "ignore_letters")
# clean: drop NUL, U+FFFD and control characters (tab, line ends kept), every white space
#   (Zs, tab, line ends) made a space, then the ends stripped (`clean_text(...).strip()`);
# halfwidth: U+FF01-U+FF5E to U+0021-U+007E (`--to_halfwidth`);
# no_spaces: every U+0020 removed (`--ignore_space`);
# drop_unequal: a sentence whose reference differs in length from its source (after
#   "clean") is not scored (`--ignore_unmatch_length`);
# simplified: OpenCC's "t2s" conversion of the three sentences (`--to_simplified`; the
#   optional `opencc` package), after drop_unequal and before halfwidth, as `main` does;
# ignore_punct, ignore_letters: edits of a source character in PUNCTUATION or LETTERS are
#   not scored (`--ignore_punct`, `--ignore_letter`; see ignored()).
OWN_NORMALIZATION = ("clean", "halfwidth", "no_spaces")  # both projects' run.sh, every dataset
OPENCC = "opencc==1.4.2"  # the version the tests ran (pyproject's optional extra "opencc")


def check_normalize(normalize):
    """The steps named, in NORMALIZATIONS order; "none" (alone: as the signature and
    `--normalize none` name it) is no step; a ValueError names an unknown one."""
    if isinstance(normalize, str):
        normalize = (normalize,)
    steps = tuple(normalize)
    if "none" in steps:
        if len(steps) > 1:
            raise ValueError(f"normalize: 'none' means no step and goes alone, got {', '.join(map(repr, steps))}")
        return ()
    for step in steps:
        if step not in NORMALIZATIONS:
            raise ValueError(f"normalize: {step!r} is not one of {', '.join(map(repr, NORMALIZATIONS))}")
    return tuple(step for step in NORMALIZATIONS if step in steps)


def _cleaned(texts):
    """clean, each text: what becomes of a character depends on it alone, and a printable
    one other than U+FFFD stays (U+0020 is the only printable white space, no control
    character is printable), so one table of the corpus's other characters serves all."""
    import unicodedata

    odd = [not text.isprintable() or "\ufffd" in text for text in texts]  # the others only lose their ends' spaces
    table = {}
    for char in set("".join(text for text, change in zip(texts, odd) if change)):
        if not char.isprintable() or char == "\ufffd":
            category = unicodedata.category(char)
            if char in "\t\n\r" or category == "Zs":
                table[ord(char)] = " "
            elif char in "\x00\ufffd" or category.startswith("C"):
                table[ord(char)] = None
    return [(text.translate(table) if change else text).strip() for text, change in zip(texts, odd)]


def _halfwidth(texts):
    """Each text with U+FF01-U+FF5E moved to U+0021-U+007E (as str.translate would), all
    texts at once as code points."""
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype="<u4").copy()
    points[(points >= 0xFF01) & (points <= 0xFF5E)] -= 0xFEE0
    whole = points.tobytes().decode("utf-32-le", "surrogatepass")
    ends = np.cumsum([len(text) for text in texts]).tolist()
    return [whole[start:end] for start, end in zip([0] + ends, ends)]


def _simplified(texts):
    """OpenCC t2s of each text (identical texts converted once)."""
    try:
        from opencc import OpenCC
    except ImportError:
        raise ValueError(f"normalize: 'simplified' needs the opencc package, which is not installed (pip install 'paperscore[opencc]', i.e. {OPENCC})") from None
    convert, done = OpenCC("t2s").convert, {}
    return [done[text] if text in done else done.setdefault(text, convert(text)) for text in texts]


def ignored(steps, ignore_chars=""):
    """The source characters whose edits are not scored: those the steps name and the
    user's ignore_chars (simple-csc's `--ignore_chars`)."""
    out = frozenset(ignore_chars)
    if "ignore_punct" in steps:
        out |= PUNCTUATION
    if "ignore_letters" in steps:
        out |= LETTERS
    return out


STEPS = {
    "clean": _cleaned,
    "simplified": _simplified,
    "halfwidth": _halfwidth,
    "no_spaces": lambda texts: [text.replace(" ", "") for text in texts],
}


def normalized(sources, predictions, references, steps, cache=None):
    """(sources, predictions, references, scored) after the steps: scored is None, or a
    bool array (False: dropped by drop_unequal). cache: a dict shared by calls on the same
    sentences, holding the distinct texts after each run of steps (computed once). Every
    step maps each text alone, so it runs on the distinct texts of the three sides (a
    source is often its reference or its prediction)."""
    order = ("clean", "drop_unequal", "simplified", "halfwidth", "no_spaces")  # lengths compared after clean only
    if not any(step in steps for step in order):
        return sources, predictions, references, None
    cache = {} if cache is None else cache
    if "ids" not in cache:
        distinct = {}
        cache["ids"] = [[distinct.setdefault(text, len(distinct)) for text in side] for side in (sources, predictions, references)]
        cache[()] = list(distinct)
    ids, done, scored = cache["ids"], (), None
    for step in order:
        if step not in steps:
            continue
        if step == "drop_unequal":
            lengths = [len(text) for text in cache[done]]
            scored = np.array([lengths[s] == lengths[t] for s, t in zip(ids[0], ids[2])], dtype=bool)
            continue
        before, done = done, done + (step,)
        if done not in cache:
            cache[done] = STEPS[step](cache[before])
    texts = cache[done]
    return (*([texts[k] for k in side] for side in ids), scored)


# ---------------------------------------------------------------------------------------
# C-LLM (Li et al., EMNLP 2024; ktlKTL/C-LLM calcuate_metric.py `chuli`): the prediction
# projected onto its source before the CSCD-NS metric


def projected(sources, predictions):
    """Each prediction as C-LLM reads it: the source, with each span that difflib's
    SequenceMatcher (autojunk on, as its default) reports as a `replace` of as many
    characters, every one of them in U+4E00-U+9FA5 in the source, taken from the
    prediction; insertions, deletions and other replacements dropped. Identical pairs
    are read once."""
    out, done = [], {}
    for source, prediction in zip(sources, predictions):
        if prediction == source:
            out.append(source)
            continue
        key = source, prediction
        if key not in done:
            done[key] = _projected(source, prediction)
        out.append(done[key])
    return out


def _projected(source, prediction):
    if len(source) == len(prediction) < 200:
        # One character changed, the old one absent from the prediction and the new one from
        # the source: no common run holds position p, and a run of the prefix found
        # elsewhere is no longer than the prefix nor starts earlier in it (nor the suffix's).
        # So find_longest_match (the longest run, then the earliest in the source, then in
        # the prediction) takes the prefix or the suffix whole, then the other: the opcodes
        # are equal, replace (p, p + 1), equal. (Shorter than 200: autojunk junks nothing.)
        changed = [i for i, (a, b) in enumerate(zip(source, prediction)) if a != b]
        if len(changed) == 1:
            p = changed[0]
            if source[p] not in prediction and prediction[p] not in source:
                return source[:p] + prediction[p] + source[p + 1 :] if "\u4e00" <= source[p] <= "\u9fa5" else source
    import difflib

    chars = list(source)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, source, prediction).get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1 and all("\u4e00" <= c <= "\u9fa5" for c in source[i1:i2]):
            chars[i1:i2] = prediction[j1:j2]
    return "".join(chars)
