# GENERATED from shared/paperscore/csc.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""The Chinese spelling check (CSC) core shared by csc_sighan and csc_common: edits from
sentence triples, vectorised over the corpus; the official label lines and test input
files; the per-sentence comparison of predicted with gold edits.

An edit is a 1-based (position, character) pair where a sentence differs from its source.
A corpus's edits are flat numpy arrays (`Edits`), sorted by sentence then position, so each
per-sentence statistic is a bincount or a sorted search, never a Python loop per character.
"""

import codecs
import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .paperscore_core import as_corpus, check_choice, check_same_length, decode, input_error, read_bytes, read_lines, short_repr, split_lines

# How a sentence whose length differs from its source is treated:
#   "error"    a ValueError naming the example (the default: positions would not line up);
#   "truncate" compare the common prefix only, as zip() does (FASPell zips; ReaLiSe cuts
#              the source to a shorter prediction and refuses a longer one);
#   "whole"    one edit at position 0 standing for the whole sentence (see WHOLE), equal
#              on both sides only when the two sentences are the same string;
#   "align"    a minimal-edit alignment with the source (see align_edits): substitutions
#              at source positions, plus insertions and deletions (see INDEL).
LENGTH_MISMATCH = ("error", "truncate", "whole", "align")
# Under "whole", the char of a position-0 edit is WHOLE + the id of the sentence's text:
# above every Unicode code point, so it never equals a real character.
WHOLE = 0x110000
CHAR_BITS = 22  # WHOLE + text ids stay below 2**22 unless 3 million texts differ in length
MAX_POSITION = 2**31 - 1  # the 2014/2015 jars read positions as Java ints
# Under "align", insertion or deletion k (Edits.indels[k]) is the edit (INDEL + k, WHOLE + k):
# its position and its char equal no other edit's, so it is a position hit, an exact hit or
# a gold char only where the other side has the very same insertion or deletion. (INDEL is
# small enough for the per-sentence keys of isin_sentence to stay one integer.)
INDEL = 2**20


class Edits(NamedTuple):
    """Every edit of a corpus of `n` sentences: edit k changes character `position[k]`
    (1-based) of sentence `sentence[k]` into the code point `char[k]` (0 when only
    positions are known); sorted by sentence, then position."""

    sentence: np.ndarray
    position: np.ndarray
    char: np.ndarray
    n: int
    indels: tuple = ()  # under "align": (source position, description) of edit INDEL + k

    def counts(self):
        """Edits per sentence."""
        return np.bincount(self.sentence, minlength=self.n)

    def bounds(self):
        """Where each sentence's edits start, and the end: edits of sentence i are [b[i], b[i + 1])."""
        return np.concatenate(([0], np.cumsum(self.counts())))

    def keep(self, mask):
        """The edits where `mask` is true (e.g. dropping predicted 地/得 edits)."""
        return self._replace(sentence=self.sentence[mask], position=self.position[mask], char=self.char[mask])

    def take(self, order):
        """The sentences `order` (indices into this corpus), renumbered 0..len(order)-1."""
        order = np.asarray(order, dtype=np.int64)
        bounds = self.bounds()
        counts = (bounds[1:] - bounds[:-1])[order]
        # Each taken sentence's edits, in place: one gather, positions stay sorted.
        gather = np.repeat(bounds[order] - (np.cumsum(counts) - counts), counts) + np.arange(int(counts.sum()))
        sentence = np.repeat(np.arange(len(order)), counts)
        return self._replace(sentence=sentence, position=self.position.take(gather), char=self.char.take(gather), n=len(order))

    def groups(self):
        """Per sentence, its edits as a list of (position, character) pairs, the
        character "" when only positions are known (for writers and reports)."""
        bounds = self.bounds()
        pairs = [
            self.indels[position - INDEL] if position >= INDEL and self.indels else (position, _char_text(char))
            for position, char in zip(self.position.tolist(), self.char.tolist())
        ]
        groups = [pairs[a:b] for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
        return [sorted(group, key=lambda pair: pair[0]) for group in groups] if self.indels else groups


def _char_text(code):
    if code == 0:
        return ""
    return chr(code) if code < WHOLE else f"<whole sentence {code - WHOLE}>"


def no_edits(n):
    empty = np.zeros(0, dtype=np.int64)
    return Edits(empty, empty, empty, n)


def from_pairs(sentence, position, char, n):
    """Edits from unsorted arrays, sorted by sentence then position."""
    sentence, position, char = (np.asarray(a, dtype=np.int64) for a in (sentence, position, char))
    order = np.lexsort((position, sentence))
    return Edits(sentence[order], position[order], char[order], n)


# ---------------------------------------------------------------------------------------
# Edits from sentences


def check_texts(values, argument):
    """Every value is a str; otherwise a ValueError naming the first one that is not."""
    if not set(map(type, values)) <= {str}:
        for index, value in enumerate(values):
            if not isinstance(value, str):
                raise input_error(argument, index, f"expected a sentence (str), got {type(value).__name__} {value!r}")


def _encode(texts, argument):
    """All texts' code points as one uint32 array, and each text's length."""
    check_texts(texts, argument)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    return _points(texts), lengths


def _points(texts):
    return np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype="<u4")


def extract_edits(sources, *sides, names=("predictions", "references"), length_mismatch="error"):
    """The edits of each side (a list of sentences parallel to `sources`) against the
    sources, one Edits per side. The sources are encoded once, and under "whole" the text
    ids (under "align" the insertions and deletions) are shared by the sides, so equal
    sentences get equal edits."""
    check_choice("length_mismatch", length_mismatch, LENGTH_MISMATCH)
    source_points, source_lengths = _encode(sources, "sources")
    source_starts = np.cumsum(source_lengths) - source_lengths
    text_ids, indels = {}, {}
    out = []
    for texts, name in zip(sides, names):
        check_same_length(texts, sources, (name, "sources"))
        if length_mismatch == "align":
            out.append(_aligned_side(sources, texts, name, source_points, source_starts, source_lengths, indels))
            continue
        points, lengths = _encode(texts, name)
        differ = np.flatnonzero(lengths != source_lengths)
        if len(differ) and length_mismatch == "error":
            i = int(differ[0])
            raise input_error(
                name, i,
                f"has {lengths[i]} characters but sources[{i}] has {source_lengths[i]} "
                "(pass length_mismatch='truncate', 'whole' or 'align' to score such sentences)",
            )  # fmt: skip
        if not len(differ):
            edits = _same_length_edits(source_points, source_starts, points)
        else:
            edits = _prefix_edits(source_points, source_starts, source_lengths, points, lengths, length_mismatch == "whole")
            if length_mismatch == "whole":
                edits = _add_whole(edits, differ, [texts[i] for i in differ.tolist()], text_ids)
        out.append(edits)
    if indels:  # both sides describe every insertion and deletion of either
        described = tuple(indels)
        out = [edits._replace(indels=described) for edits in out]
    return out


def _prefix_edits(source_points, source_starts, source_lengths, points, lengths, skip_unequal):
    """Edits over each sentence's first min(len(sentence), len(source)) characters (none
    at all for sentences of another length when skip_unequal)."""
    common = np.minimum(lengths, source_lengths)
    if skip_unequal:
        common = np.where(lengths == source_lengths, common, 0)
    sentence = np.repeat(np.arange(len(lengths)), common)
    offset = np.arange(len(sentence)) - np.repeat(np.cumsum(common) - common, common)
    starts = np.cumsum(lengths) - lengths
    new = points[starts[sentence] + offset]
    where = np.flatnonzero(new != source_points[source_starts[sentence] + offset])
    return Edits(sentence[where], offset[where] + 1, new[where].astype(np.int64), len(lengths))


def _aligned_side(sources, texts, name, source_points, source_starts, source_lengths, indels):
    """One side's edits under "align": the sentences as long as their sources compared
    elementwise in one pass (the others standing in as their sources: no edits), then
    the others aligned (see align_edits)."""
    check_texts(texts, name)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    differ = np.flatnonzero(lengths != source_lengths)
    if not len(differ):
        return _same_length_edits(source_points, source_starts, _points(texts))
    if source_lengths.max() >= INDEL - 1:
        i = int(np.argmax(source_lengths))
        raise input_error("sources", i, f"has {source_lengths[i]} characters; length_mismatch='align' takes fewer than {INDEL - 1}")
    same = list(texts)
    for i in differ.tolist():
        same[i] = sources[i]
    edits = _same_length_edits(source_points, source_starts, _points(same))
    return _add_aligned(edits, differ, sources, texts, indels, name)


def _same_length_edits(source_points, source_starts, points):
    """The edits of sentences as long as their sources: one elementwise comparison over
    the whole corpus (the common case)."""
    where = np.flatnonzero(points != source_points)
    sentence = np.searchsorted(source_starts, where, side="right") - 1
    position = where - source_starts[sentence] + 1
    return Edits(sentence, position, points[where].astype(np.int64), len(source_starts))


def _add_whole(edits, sentences, texts, text_ids):
    ids = [text_ids.setdefault(text, len(text_ids)) for text in texts]
    if len(text_ids) >= 2**CHAR_BITS - WHOLE:
        raise ValueError("length_mismatch='whole': too many sentences differ in length from their sources")
    return from_pairs(
        np.concatenate([edits.sentence, sentences]),
        np.concatenate([edits.position, np.zeros(len(sentences), dtype=np.int64)]),
        np.concatenate([edits.char, WHOLE + np.array(ids, dtype=np.int64)]),
        edits.n,
    )


# ---------------------------------------------------------------------------------------
# Minimal-edit alignment (length_mismatch="align")
#
# The alignment of a sentence with its source keeps their longest common prefix, then their
# longest common suffix (what is left of it), and aligns the rest with the fewest
# substitutions, insertions and deletions (Levenshtein distance, each costing 1). Among
# alignments of that cost it takes the one found by tracing back from the end and
# preferring, at each step, to keep or substitute a character, then to delete a source
# character, then to insert one. Keeping a common prefix and suffix never costs an edit,
# so the alignment is minimal; an extra copy of a repeated character is the later one
# (我很很好 from 我很好 inserts 很 before the source's 好).

SUB, DELETE, INSERT = 0, 1, 2
KEEP, STOP = 3, 4  # moves of the trace that make no edit
ALIGN_CELLS = 2**23  # dynamic-programming cells per batch of sentences (a byte each: 8 MB)
# The most cells one sentence's middle may take, (len + 1) x (len + 1) of the two middles
# (64 MB, about a second): a longer rewrite is refused by name, never left to exhaust memory.
ALIGN_LIMIT = 2**26


def align_edits(sources, texts, argument="texts", index=None, errant=False):
    """The character operations of each text's alignment with its source, as arrays
    (sentence, kind, position, char, text_start) in sentence then text order: kind SUB
    (the source character at 1-based `position` becomes `char`), DELETE (it goes) or
    INSERT (`char` comes before source character `position`; len(source) + 1: at the
    end); text_start: the 0-based index of `char` in the text (DELETE: of the text
    character that follows). A middle of more than ALIGN_LIMIT cells is a ValueError
    naming `argument`[index[k]] (index: the texts' example numbers; None: 0, 1, ...).

    errant: the alignment of simple-csc's eval/utils.py `Alignment` (after ERRANT): the
    whole sentence through the programme (only the common suffix kept: a match at the end
    is always taken), each cell's move the first cheapest of keep or substitute, insert,
    delete, traced back from the end. A pair met again is aligned once."""
    check_texts(sources, "sources")
    check_texts(texts, argument)
    distinct = {}
    which = np.array([distinct.setdefault(pair, len(distinct)) for pair in zip(sources, texts)], dtype=np.int64)
    if len(distinct) < len(which):
        first = np.unique(which, return_index=True)[1]  # each distinct pair's first sentence
        found = align_edits(*zip(*distinct), argument, first if index is None else np.asarray(index)[first], errant)
        counts = np.bincount(found[0], minlength=len(distinct))
        sentence, offset = _segments(counts[which])
        take = (np.cumsum(counts) - counts)[which[sentence]] + offset
        return (sentence, *(column[take] for column in found[1:]))
    source_points, n = _encode(sources, "sources")
    points, m = _encode(texts, argument)
    source_starts, starts = np.cumsum(n) - n, np.cumsum(m) - m
    prefix, suffix = _common_ends(source_points, source_starts, n, points, starts, m)
    if errant:
        prefix = np.zeros_like(prefix)
    else:
        suffix = np.minimum(suffix, np.minimum(n, m) - prefix)  # of what follows the prefix
    # Equal lengths differing in one or two places align as substitutions there (no
    # programme): with k insertions (so k deletions) and s substitutions an alignment costs
    # s + 2k, so one costing 0 or 1 has no insertion; the Hamming distance H (1 or 2) is then
    # the edit distance D. Aligning the first i characters optimally and the rest in place
    # gives D <= D_i + (H - H_i), so D_i = H_i for every prefix: at each diagonal cell keeping
    # or substituting is the cheapest move, and both tie-breaks take it first.
    segment, offset = _segments(np.where(n == m, n, 0))
    at = source_starts[segment] + offset, starts[segment] + offset
    differ = np.flatnonzero(source_points[at[0]] != points[at[1]])
    hamming = np.bincount(segment[differ], minlength=len(n))
    substituted = (n == m) & (hamming > 0) & (hamming <= 2)
    differ = differ[substituted[segment[differ]]]
    sentence, offset = segment[differ], offset[differ]
    char = points[at[1][differ]].astype(np.int64)
    # (position and text_start relative to the prefix, added back below; step: left to right)
    parts = [(sentence, np.full(len(sentence), SUB), offset + 1 - prefix[sentence], char, offset - prefix[sentence], -offset)]
    n, m = n - prefix - suffix, m - prefix - suffix  # the middles
    # A middle with one side empty (the common case) is all insertions or all deletions.
    one_sided = (n == 0) | (m == 0)
    cells = np.where(one_sided, 0, (n + 1) * (m + 1))
    if len(cells) and cells.max() > ALIGN_LIMIT:
        k = int(np.argmax(cells))
        i = k if index is None else int(index[k])
        raise input_error(
            argument, i,
            f"differs from sources[{i}] in {m[k]:,} characters against {n[k]:,} (after their common "
            f"prefix and suffix): aligning them takes {cells[k]:,} cells, more than the {ALIGN_LIMIT:,} "
            "allowed; split the text into sentences",
        )  # fmt: skip
    for side_points, side_starts, lengths, kind in ((points, starts, m, INSERT), (source_points, source_starts, n, DELETE)):
        sentence, offset = _segments(np.where(one_sided, lengths, 0))
        position = offset + 1 if kind == DELETE else np.ones_like(offset)
        char = side_points[side_starts[sentence] + prefix[sentence] + offset].astype(np.int64)
        text_start = offset if kind == INSERT else np.zeros_like(offset)
        parts.append((sentence, np.full(len(sentence), kind), position, char, text_start, -offset))  # step: backwards
    # The others through the programme, in batches of similar sizes (so that padding costs
    # little): by the longer side, each batch's at most twice its first's.
    longest = np.maximum(n, m)
    order = np.lexsort((m, n, longest))
    order = order[~(one_sided | substituted)[order]].tolist()
    sizes = list(zip(longest.tolist(), n.tolist(), m.tolist()))
    first = 0
    while first < len(order):
        stop, rows, columns = first, 0, 0
        while stop < len(order):
            k = order[stop]
            rows, columns = max(rows, sizes[k][1]), max(columns, sizes[k][2])
            if stop > first and (sizes[k][0] > 2 * sizes[order[first]][0] + 4 or (stop + 1 - first) * (rows + 1) * (columns + 1) > ALIGN_CELLS):
                break
            stop += 1
        batch = np.array(order[first:stop], dtype=np.int64)
        found = _align_batch(
            _gathered(source_points, source_starts[batch] + prefix[batch], n[batch], -1),
            _gathered(points, starts[batch] + prefix[batch], m[batch], -2),
            n[batch], m[batch], errant,
        )  # fmt: skip
        parts.append((batch[found[0]], *found[1:]))
        first = stop
    sentence, kind, position, char, text_start, step = (np.concatenate(column) for column in zip(*parts))
    position, text_start = position + prefix[sentence], text_start + prefix[sentence]
    # The trace runs from the end: sort by sentence, then backwards by step.
    last = np.lexsort((-step, sentence))
    return sentence[last], kind[last], position[last], char[last], text_start[last]


def _segments(lengths):
    """For segments of `lengths` laid end to end: each element's segment and offset in it."""
    segment = np.repeat(np.arange(len(lengths)), lengths)
    return segment, np.arange(len(segment)) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def _common_ends(source_points, source_starts, n, points, starts, m):
    """Per pair, the lengths of the longest common prefix and of the longest common suffix."""
    shortest = np.minimum(n, m)
    segment, offset = _segments(shortest)
    ends = []
    for back in (False, True):
        a = source_starts[segment] + (n[segment] - 1 - offset if back else offset)
        b = starts[segment] + (m[segment] - 1 - offset if back else offset)
        mismatch = np.flatnonzero(source_points[a] != points[b])  # sorted by segment, then offset
        which, at = np.unique(segment[mismatch], return_index=True)
        end = shortest.copy()
        end[which] = offset[mismatch[at]]
        ends.append(end)
    return ends


def _gathered(points, starts, lengths, fill):
    """The runs points[starts[k] : starts[k] + lengths[k]] as rows of one array, padded with `fill`."""
    out = np.full((len(lengths), max(int(lengths.max(initial=0)), 1)), fill, dtype=np.int64)
    segment, offset = _segments(lengths)
    out[segment, offset] = points[starts[segment] + offset]
    return out


def _align_batch(source, text, n, m, errant=False):
    """align_edits over a batch of padded rows (lengths n and m), the dynamic programme run
    for every pair at once, one source character (row) at a time: only the previous row of
    distances is kept, and each cell's move back (one byte). Returns (pair, kind, position
    in the source row, char, trace step)."""
    rows, width = len(n), text.shape[1] + 1
    column = np.arange(width, dtype=np.int32)
    move = np.empty((int(n.max()) + 1, rows, width), dtype=np.int8)
    move[0] = INSERT
    move[0, :, 0] = STOP
    previous = np.tile(column, (rows, 1))  # distances of source[:i - 1] to each prefix of the text
    for i in range(1, len(move)):
        differ = source[:, i - 1, None] != text
        diagonal = previous[:, :-1] + differ
        step = np.empty((rows, width), dtype=np.int32)
        step[:, 0] = i
        np.minimum(diagonal, previous[:, 1:] + 1, out=step[:, 1:])
        # an insertion costs 1 per character: cost[j] = min over k <= j of step[k] + j - k
        cost = np.minimum.accumulate(step - column, axis=1) + column
        # The cell's move back, by the tie-break: keep or substitute, else delete, else insert
        # (errant: keep or substitute, else insert, else delete).
        here = move[i]
        if errant:
            here[...] = DELETE
            here[:, 1:][cost[:, 1:] == cost[:, :-1] + 1] = INSERT
        else:
            here[...] = INSERT
            here[cost == previous + 1] = DELETE
        keep = cost[:, 1:] == diagonal
        here[:, 1:][keep] = np.where(differ, SUB, KEEP)[keep]
        previous = cost
    # Trace every pair back at once, STOP holding the finished ones in place.
    pair, i, j = np.arange(rows), n.copy(), m.copy()
    trace = []
    for t in range(int((n + m).max())):
        here = move[i, pair, j]
        if t % 8 == 0 and (here == STOP).all():
            break
        trace.append((here, i, j))
        i, j = i - ((here != INSERT) & (here != STOP)), j - ((here != DELETE) & (here != STOP))
    kind, i, j = (np.stack(column) for column in zip(*trace))  # (step, pair)
    step, pair = np.nonzero((kind != KEEP) & (kind != STOP))
    kind, i, j = kind[step, pair].astype(np.int64), i[step, pair], j[step, pair]
    char = np.where(kind == DELETE, source[pair, i - 1], text[pair, j - 1])
    # positions: the source character (SUB, DELETE), or the one an insertion precedes;
    # in the text, the character taken (SUB, INSERT) or the one after a deletion
    return pair, kind, np.where(kind == INSERT, i + 1, i), char, np.where(kind == DELETE, j, j - 1), step


def _add_aligned(edits, differ, sources, texts, indels, name):
    """`edits` plus the aligned edits of the sentences `differ`: substitutions as they
    are, each deleted source character an edit, each run of characters inserted at one
    place an edit; insertions and deletions numbered in `indels` (shared by the sides)."""
    local, kind, position, char, _ = align_edits([sources[i] for i in differ.tolist()], [texts[i] for i in differ.tolist()], name, differ)
    sentence = differ[local]
    sub = kind == SUB
    keys, previous = [], None  # ((sentence, kind, position), chars) per edit
    for k, key, code in zip(np.flatnonzero(~sub).tolist(), zip(sentence[~sub].tolist(), kind[~sub].tolist(), position[~sub].tolist()), char[~sub].tolist()):
        if key[1] == INSERT and key == previous:  # the next character of the same insertion
            keys[-1][1].append(chr(code))
        else:
            keys.append((key, [chr(code)]))
        previous = key if k + 1 < len(kind) and kind[k + 1] == INSERT else None
    ids = []
    for (where, what, at), chars in keys:
        label = f"<insert before: {''.join(chars)}>" if what == INSERT else f"<delete: {chars[0]}>"
        ids.append(indels.setdefault((at, label), len(indels)))
    if len(indels) >= 2**CHAR_BITS - WHOLE:
        raise ValueError("length_mismatch='align': too many distinct insertions and deletions")
    ids = np.array(ids, dtype=np.int64)
    return from_pairs(
        np.concatenate([edits.sentence, sentence[sub], [where for (where, _, _), _ in keys]]),
        np.concatenate([edits.position, position[sub], INDEL + ids]),
        np.concatenate([edits.char, char[sub], WHOLE + ids]),
        edits.n,
    )


def checked_columns(columns):
    """A Space's batch {"predictions", "references", "sources"} checked before evaluate
    encodes it (its string feature would turn a number into text). evaluate stores strings
    only, so label lines (no sources) get a column of "" (see stored_sources)."""
    predictions, references, sources = columns["predictions"], columns["references"], columns.get("sources")
    check_same_length(predictions, references)
    check_texts(predictions, "predictions")
    check_texts(references, "references")
    if label_input(sources):
        sources = [""] * len(predictions)
    else:
        check_same_length(predictions, sources, ("predictions", "sources"))
        check_texts(sources, "sources")
    return {**columns, "sources": sources}


def stored_sources(sources):
    """The sources as a Space stored them: None (label lines) for a column of ""."""
    return None if all(source == "" for source in sources) else sources


def label_input(sources):
    """Whether a corpus comes as label lines: no sources (None, or a list of None).
    A list mixing sentences and None is an error naming the first odd one."""
    if sources is None:
        return True
    kinds = set(map(type, sources))
    if type(None) not in kinds:
        return False
    if len(kinds) > 1:
        first = next(i for i, s in enumerate(sources) if (s is None) != (sources[0] is None))
        raise input_error("sources", first, "mixes sentences and None (no sources means label lines)")
    return True


def apply_edits(sources, edits, argument="references"):
    """The sentences that `edits` make of `sources` (e.g. the corrected SIGHAN test input
    from its truth lines). An edit beyond the end of its source is an error."""
    out = []
    for index, (source, pairs) in enumerate(zip(sources, edits.groups())):
        chars = list(source)
        for position, char in pairs:
            if not 1 <= position <= len(chars) or not char:
                raise input_error(argument, index, f"position {position} is outside the {len(chars)} characters of its source")
            chars[position - 1] = char
        out.append("".join(chars))
    return out


# ---------------------------------------------------------------------------------------
# Label lines: `pid, 0` or `pid, pos, char[, pos, char]*` (SIGHAN 2013 subtask 1: positions only)


class LabelFile:
    """A file of label lines named on the command line (`argument`: -i, --references, ...),
    read as bytes: parse_label_lines, and so csc_sighan's and csc_common's compute(), take
    one where they take label lines, and scan its bytes at once instead of one str a line."""

    def __init__(self, path, argument):
        self.path, self.argument = str(path), argument
        self.data = read_bytes(path, argument)
        # Checked as UTF-8 in pieces (faster than making one str of it); if it is not, the
        # error read_text gives.
        pieces = codecs.getincrementaldecoder("utf-8")()
        try:
            for start in range(0, len(self.data), 1 << 16):
                pieces.decode(memoryview(self.data)[start : start + (1 << 16)])
            pieces.decode(b"", final=True)
        except UnicodeDecodeError:
            decode(self.data, path, argument)

    def lines(self, allow_empty=False):
        """The lines as read_lines gives them (and its error for an empty line, unless allow_empty)."""
        return split_lines(self.data.decode("utf-8"), self.path, self.argument, allow_empty)

    def canonical(self):
        """The lines, as core.fingerprint reads a corpus (trailing blank lines dropped, as
        from a string)."""
        lines = self.lines(allow_empty=True)
        while lines and not lines[-1].strip():
            lines.pop()
        return lines


def corpus(values, argument):
    """core.as_corpus for text: a list of examples (a numpy array of strings becomes a list
    of str), or a LabelFile as it is; a bare string, None or a number is a ValueError."""
    if isinstance(values, LabelFile):
        return values
    values = as_corpus(values, argument)
    return values.tolist() if isinstance(values, np.ndarray) else values


def label_edits(predictions, references, allow_missing=False, positions_only=False, opaque=None, pid_space_drops_chars=False):
    """(truth pids, predicted Edits, gold Edits) of a result's and a truth's label lines (or
    LabelFiles), the result's sentences put in the truth's pid order (align_pids).
    pid_space_drops_chars reads both sides so (csc_sighan refuses a truth line it empties:
    the 2013 jar fails on such a line)."""
    names = label_names(predictions, references)
    pids, gold = _parse_labels(references, names[1], positions_only, False, opaque, pid_space_drops_chars)
    result_pids, predicted = _parse_labels(predictions, names[0], positions_only, False, opaque, pid_space_drops_chars)
    return pids, align_pids(pids, result_pids, predicted, allow_missing, argument=names[0]), gold


def label_names(predictions, references):
    """How messages name the two sides: a LabelFile's flag (-i, -t), else the argument."""
    return [getattr(side, "argument", name) for side, name in ((predictions, "predictions"), (references, "references"))]


# The jars trim with Java's String.trim: every character up to U+0020 (control characters
# included), and no other: a U+3000 or U+00A0 stays part of its field.
JAVA_SPACE = "".join(map(chr, range(0x21)))


def parse_label_lines(lines, argument, positions_only=False, line_numbers=False, opaque=None, pid_space_drops_chars=False):
    """(pids, Edits) from the official label lines, one sentence per line, in line order;
    from a LabelFile, its lines (messages then name `-i line N`).

    Read as the jars read a file: each line and each field trimmed of the characters up to
    U+0020 (JAVA_SPACE), nothing else; a line left empty, or whose first character is `#`,
    is skipped (its index still counts in messages). Stricter than the jars, which read
    `pid, 3` as "no error", let a repeated position overwrite and compare a correction of
    several characters (`甲\\u3000`: the space is kept) as a string: every malformed line is
    a ValueError naming it (`argument[i]`, or `argument line i+1` with line_numbers).

    opaque: a dict shared by the truth and the result to read positions as the SIGHAN 2013
    jar does, as strings: a field that is not a plain positive integer (the official
    SIGHAN 2013 subtask 2 truth has `01279, 10, 憤, , 挫`) becomes a code above
    MAX_POSITION, one per distinct text (kept in the dict), which no real position equals.

    pid_space_drops_chars: read a result as the SIGHAN 2013 jar does, which keys a line's
    characters on its pid before trimming: a pid with white space before its comma
    (`P1 , 2, 甲`) keeps its positions, but its characters are lost (0)."""
    pids, edits = _parse_labels(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars)
    return list(pids), edits


def _parse_labels(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars):
    """parse_label_lines, its pids Pids where the lines were read at once."""
    reading = (positions_only, pid_space_drops_chars)
    if isinstance(lines, LabelFile):
        size = len(lines.data) - lines.data.endswith(b"\n")  # a final line end is optional
        parsed = _scan_text(lines.data, size, *reading) if lines.data else ([], no_edits(0))
        if parsed is None:  # some line needs a closer look: an error to name, an opaque position
            return _parse_one_by_one(lines.lines(allow_empty=True), lines.argument, positions_only, True, opaque, pid_space_drops_chars)
        return parsed
    parsed = None
    if not lines:
        parsed = [], no_edits(0)
    elif set(map(type, lines)) <= {str, np.str_}:
        text = "\n".join(lines).encode("utf-8", "surrogatepass")
        if text.count(b"\n") == len(lines) - 1:  # else a line holds a line end
            parsed = _scan_text(text, len(text), *reading)
    return parsed or _parse_one_by_one(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars)


def _scan_text(text, size, positions_only, pid_space_drops_chars):
    """(Pids, Edits) of the lines joined by line ends in text[:size] (UTF-8 bytes), read
    by _scan in chunks of whole lines (a large file's temporary arrays stay small); None
    where _scan gives None, or where a pid is repeated."""
    parts, start = [], 0
    while start <= size:
        end = text.find(b"\n", start + _CHUNK, size) if size - start > _CHUNK else -1
        end = size if end < 0 else end
        parsed = _scan(memoryview(text)[start:end], positions_only, pid_space_drops_chars)
        if parsed is None:
            return None
        parts.append(parsed)
        start = end + 1
    data = [data for data, _ in parts]
    pids = Pids(np.concatenate(data) if len(data) > 1 else data[0])
    if pids.repeated():
        return None
    sentences = np.cumsum([0] + [edits.n for _, edits in parts])
    edits = [edits._replace(sentence=edits.sentence + offset) for (_, edits), offset in zip(parts, sentences)]
    if len(edits) == 1:
        return pids, edits[0]
    return pids, Edits(*(np.concatenate([getattr(part, name) for part in edits]) for name in ("sentence", "position", "char")), len(pids))


class Pids(Sequence):
    """Pids read at once (_scan_text): their UTF-8 bytes laid end to end, each followed by a
    line end (`data`, uint8: as many bytes as the pids, however long one of them is), with a
    64-bit hash of each and their order by it, to match two files' pids in numpy (a dict of
    str, looked up in shuffled order, costs more than all the scoring); decoded into str
    only when asked."""

    def __init__(self, data):
        self.data = data
        self.ends = np.flatnonzero(data == ord("\n"))  # int64: pid i is data[starts[i]:ends[i]]
        self.starts = np.concatenate(([0], self.ends[:-1] + 1)).astype(np.int64)[: len(self.ends)]
        self._decoded = None
        key = np.empty(len(self.ends), dtype=np.uint64)
        sizes = self.sizes()
        # A polynomial hash, sum over byte j of a pid of byte * _MIX**j (wrapping), in blocks
        # of pids of about _BLOCK bytes (the temporary arrays take 32 bytes a byte); a pid
        # longer than that alone, by hashlib (equal pids, equal lengths: the same hash).
        powers = np.cumprod(np.full(min(int(sizes.max(initial=1)), _BLOCK), _MIX, dtype=np.uint64))
        powers = np.concatenate(([np.uint64(1)], powers[:-1]))  # _MIX**j
        for a, b in _blocks(self.starts, sizes):
            low, high = self.starts[a], self.ends[b - 1] + 1
            if sizes[a] > _BLOCK:  # (a long pid, alone)
                import hashlib  # here: only such a pid needs it (5 ms of every command's start-up)

                key[a] = int.from_bytes(hashlib.blake2b(data[low:high], digest_size=8).digest(), "little")
                continue
            local = self.starts[a:b] - low
            offset = np.arange(high - low) - np.repeat(local, sizes[a:b])
            key[a:b] = np.add.reduceat(powers[offset] * data[low:high].astype(np.uint64), local)
        self.by_key = np.argsort(key, kind="stable")
        self.key = key[self.by_key]

    def __len__(self):
        return len(self.ends)

    def __getitem__(self, index):
        if self._decoded is None:
            self._decoded = self.data.tobytes().decode("utf-8", "surrogatepass").split("\n")[:-1]
        return self._decoded[index]

    def repeated(self):
        """Whether some pid is given twice: equal hashes (a repeat, or rarely two pids that
        collide) are decided on the str."""
        return bool((self.key[1:] == self.key[:-1]).any()) and len(set(self)) != len(self)

    def sizes(self):
        return self.ends + 1 - self.starts


_MIX = np.uint64(0x9E3779B97F4A7C15)  # an odd multiplier that spreads the bits of a byte
_BLOCK = 1 << 20  # bytes of pids hashed or compared at once


def _blocks(starts, sizes):
    """Ranges [a, b) of pids (at `starts`, of `sizes` bytes) of at most about 2 * _BLOCK
    bytes each, a pid longer than _BLOCK alone."""
    long = np.flatnonzero(sizes > _BLOCK)
    every = np.searchsorted(starts, np.arange(0, int(starts[-1] + sizes[-1]) if len(starts) else 0, _BLOCK), side="right") - 1
    # sorted, repeats left in (they make empty ranges, dropped below): numpy >= 2.3's plain
    # np.unique imports numpy.ma, 11 ms of a tiny file's first result
    cuts = np.sort(np.concatenate([every, long, long + 1, [0, len(starts)]])).tolist()
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


def _is_space(byte):
    """What Java's String.trim removes (JAVA_SPACE), for uint8 bytes: 0-32, save the line
    end (10), a separator. A byte of a character beyond ASCII is never one."""
    return (byte <= 32) & (byte != 10)


_UTF8_LENGTH = np.repeat([1, 0, 2, 3, 4, 0], [128, 64, 32, 16, 8, 8])  # by first byte; 0: not a first byte
_DIGITS = len(str(MAX_POSITION))
_CHUNK = 8_000_000  # bytes of lines read at once
_TRIM_STEPS = 16  # a field with more white space at an end than this is read line by line


def _code_points(units, at):
    """The code points of the UTF-8 characters starting at indices `at` of `units`."""
    lead = units[at].astype(np.int64)
    size = _UTF8_LENGTH[lead]
    code = lead & np.array([0x7F, 0x7F, 0x1F, 0x0F, 0x07])[size]
    for k in range(1, 4):
        code = np.where(size > k, (code << 6) | (units[at + k] & 0x3F), code)
    return code


def _scan(text, positions_only, pid_space_drops_chars):
    """parse_label_lines for lines joined by line ends (UTF-8 bytes, one line at least),
    numpy over the bytes; None when some line is not a plain well-formed label line (an
    error, an opaque position, a carriage return inside a line, ...), which
    _parse_one_by_one then reads; else the pids (their bytes, each followed by a line
    end: Pids) and Edits. Pids may repeat."""
    # A line end before and after the text; zero bytes after, for reads past a field's end.
    units = np.zeros(len(text) + 2 + _DIGITS, dtype=np.uint8)
    units[1 : len(text) + 1] = np.frombuffer(text, dtype=np.uint8)
    units[0] = units[len(text) + 1] = ord("\n")
    inside = units[: len(text) + 2]
    returns = np.flatnonzero(inside == ord("\r"))
    if len(returns) and (inside.take(returns + 1) != ord("\n")).any():
        return None  # a carriage return not ending a line: the jars end a line there
    # Fields lie between separators (commas and line ends); int32 indices where they fit.
    is_break = inside == ord("\n")
    separators = np.flatnonzero(is_break | (inside == ord(","))).astype(np.int32 if len(units) < 2**31 else np.int64)
    breaks = is_break.take(separators)[:-1]
    del is_break
    first, last = separators[:-1] + 1, separators[1:] - 1  # each field is units[first:last + 1]
    pid_field = np.flatnonzero(breaks)  # each line's first field
    fields = np.diff(np.append(pid_field, len(first)))  # per line
    # (units.take: twice as fast as units[...] on these sizes)
    if pid_space_drops_chars:  # white space before the pid's comma, seen before trimming: `P1 , ...`
        pid_space = _is_space(units.take(last[pid_field]))
    for cursor, step in ((first, 1), (last, -1)):  # trim every field; a separator stops a cursor
        moving = np.flatnonzero(_is_space(units.take(cursor)))
        for _ in range(_TRIM_STEPS):
            if not len(moving):
                break
            cursor[moving] += step
            moving = moving[_is_space(units.take(cursor.take(moving)))]
        if len(moving):
            return None
    length = np.maximum(last - first + 1, 0)
    head = units.take(first)  # each field's first byte (an empty field's: the separator after it)

    # Comment lines and lines left empty by trimming are skipped, as the jars skip them.
    skipped = (head[pid_field] == ord("#")) | ((fields == 1) & (length[pid_field] == 0))
    value = pid_field + np.minimum(fields, 2) - 1  # the first value field (the pid's if none)
    zero = (fields == 2) & (length[value] == 1) & (head[value] == ord("0"))
    bad = (length[pid_field] == 0) | (fields < 2) | (~zero & (length[pid_field + fields - 1] == 0))
    if not positions_only:
        bad |= ~zero & (fields % 2 == 0)  # an odd number of values
    if (bad & ~skipped).any():
        return None
    step = 1 if positions_only else 2  # fields a (position, char) pair takes
    pairs = np.where(skipped | zero, 0, (fields - 1) // step)  # per line
    before = np.cumsum(pairs) - pairs
    position_field = np.repeat(pid_field + 1 - step * before, pairs) + step * np.arange(int(before[-1] + pairs[-1]), dtype=pid_field.dtype)
    line = np.repeat(np.arange(len(pairs)), pairs)
    digits = length[position_field]
    if len(position_field) and (digits.max() > _DIGITS or head[position_field].min() < ord("1") or head[position_field].max() > ord("9")):
        return None  # a 0, a leading zero, not a number: the per-line reading names it
    position, start = np.zeros(len(position_field), dtype=np.int64), first[position_field]
    for k in range(int(digits.max(initial=0))):  # digit by digit
        more = digits > k
        digit = units.take(start + k) - np.uint8(ord("0"))  # a byte below "0" wraps above 9
        if (digit[more] > 9).any():
            return None
        position = np.where(more, position * 10 + digit, position)
    if len(position) and position.max() > MAX_POSITION:
        return None
    if positions_only:
        char = np.zeros(len(position_field), dtype=np.int64)
    else:
        char_field = position_field + 1
        if (length[char_field] != _UTF8_LENGTH[head[char_field]]).any():
            return None  # not one character
        char = _code_points(units, first[char_field])
        if pid_space_drops_chars:
            char[pid_space[line]] = 0
    sentence = (np.cumsum(~skipped) - 1)[line]  # skipped lines are no sentences
    key = sentence * (MAX_POSITION + 1) + position
    if len(key) > 1 and not (key[1:] > key[:-1]).all():
        order = np.argsort(key, kind="stable")
        if (key[order][1:] == key[order][:-1]).any():
            return None  # a position given twice
        sentence, position, char = sentence[order], position[order], char[order]
    named = pid_field[~skipped]
    return _pid_bytes(units, first[named], length[named]), Edits(sentence, position, char, len(named))


def _pid_bytes(units, first, length):
    """The texts units[first:first + length] (none holding a line end) laid end to end, each
    followed by a line end: one gather of as many bytes."""
    ends = np.cumsum(length + 1, dtype=np.int64)  # each text followed by a line end
    chosen = units[np.repeat(first - (ends - length - 1), length + 1) + np.arange(int(ends[-1]) if len(ends) else 0)]
    chosen[ends - 1] = ord("\n")
    return chosen


def _parse_one_by_one(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars):
    """parse_label_lines one line at a time: the reading that names what is wrong."""
    pids, sentence, position, char = [], [], [], []
    first_line = {}
    for index, line in enumerate(lines):
        where = f"{argument} line {index + 1}" if line_numbers else f"{argument}[{index}]"
        if not isinstance(line, str):
            raise ValueError(f"{where}: expected a label line (str), got {type(line).__name__} {short_repr(line, 60)}")
        trimmed = line.strip(JAVA_SPACE)
        if not trimmed or trimmed.startswith("#"):
            continue
        if "\r" in trimmed or "\n" in trimmed:
            raise ValueError(f"{where}: {short_repr(line, 60)} holds a line end inside it (the jars end a line at a CR or LF)")
        raw = trimmed.split(",")
        fields = [field.strip(JAVA_SPACE) for field in raw]
        pid = fields[0]
        if not pid or len(fields) < 2:
            shape = "pos, ..." if positions_only else "pos, char, ..."
            raise ValueError(f"{where}: {short_repr(line, 60)} is not a label line `pid, 0` or `pid, {shape}` (sentences come with their sources)")
        if pid in first_line:
            raise ValueError(f"{where}: pid {short_repr(pid, 60)} is already on {_line_name(argument, first_line[pid], line_numbers)}")
        first_line[pid] = index
        number_of_sentence = len(pids)
        pids.append(pid)
        values = fields[1:]
        if values == ["0"]:
            continue
        if values[-1] == "":
            raise ValueError(f"{where}: {short_repr(line, 60)} ends with an empty field")
        step = 1 if positions_only else 2
        if len(values) % step:
            if len(values) == 1 and values[0].strip() == "0":  # `pid, 0` and a U+3000 or U+00A0
                kept = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(values[0].replace("0", "")))
                raise ValueError(f"{where}: {short_repr(line, 60)}: the field after the pid is {short_repr(values[0], 30)}, not 0: the jars trim only the characters up to U+0020 and keep {kept} in it (then read any line of two fields as no error); write `pid, 0`")
            raise ValueError(f"{where}: position {short_repr(values[-1], 30)} has no character (a label line is `pid, pos, char, ...`)")
        drop_chars = pid_space_drops_chars and raw[0] != pid
        seen = set()
        for k in range(0, len(values), step):
            text = values[k]
            number = _position(text, opaque, where)
            if number in seen:
                raise ValueError(f"{where}: position {_plain(text)} is given twice")
            seen.add(number)
            if not positions_only and len(values[k + 1]) != 1:
                kept = " (the jars trim only the characters up to U+0020)" if values[k + 1] != values[k + 1].strip() else ""
                raise ValueError(f"{where}: the correction at position {_plain(text)} is {short_repr(values[k + 1], 30)}, not one character{kept}")
            sentence.append(number_of_sentence)
            position.append(number)
            char.append(0 if positions_only or drop_chars else ord(values[k + 1]))
    return pids, from_pairs(sentence, position, char, len(pids))


def _position(text, opaque, where):
    """A position field as the jars read it: the 2014/2015 jars as a Java int (leading
    zeros read: 010 is 10), the 2013 jar (opaque) as a string."""
    digits = text.isascii() and text.isdigit()
    number = text.lstrip("0") if digits else ""
    if digits and not number:
        raise ValueError(f"{where}: position {short_repr(text, 30)} (a 0 must stand alone: `pid, 0`)")
    # (compared by length first: int() refuses more than 4300 digits)
    fits = digits and len(number) <= _DIGITS and int(number) <= MAX_POSITION
    if opaque is not None and not (fits and number == text):
        return opaque.setdefault(text, MAX_POSITION + 1 + len(opaque))
    if not digits:
        raise ValueError(f"{where}: position {short_repr(text, 30)} (it is not a positive integer)")
    if not fits:
        raise ValueError(f"{where}: position {_plain(text)} is beyond {MAX_POSITION}")
    return int(number)


def _plain(text):
    """A field shown as it is in a message, or cut (core.short_repr) when long."""
    return text if len(text) <= 30 else short_repr(text, 30)


def _line_name(argument, index, line_numbers):
    return f"line {index + 1}" if line_numbers else f"{argument}[{index}]"


def format_label_lines(pids, edits, positions_only=False):
    """The label lines of `edits`: `pid, 0` or `pid, pos, char, ...` (positions only for
    SIGHAN 2013 subtask 1)."""
    lines = []
    for pid, pairs in zip(pids, edits.groups()):
        fields = [str(p) if positions_only else f"{p}, {c}" for p, c in pairs] or ["0"]
        lines.append(", ".join([pid] + fields))
    return lines


def align_pids(truth_pids, result_pids, result, allow_missing=False, argument="result"):
    """The result's edits in the truth's pid order. Pids the truth lacks are an error
    naming them, and so are pids the result lacks, unless allow_missing (the SIGHAN 2013
    jar reads a missing pid as "no error"). Pids are unique on each side."""
    order = _same_pids(truth_pids, result_pids)
    if order is not None:
        return result.take(order)  # the usual case: the same pids
    index = dict(zip(result_pids, range(len(result_pids))))
    order = list(map(index.get, truth_pids))
    known = set(truth_pids)
    extra = [pid for pid in result_pids if pid not in known]
    missing = [pid for pid, i in zip(truth_pids, order) if i is None]
    if extra or (missing and not allow_missing):
        problems = []
        for name, pids in (("pids not in the truth", extra), ("truth pids missing", missing if not allow_missing else [])):
            if pids:
                shown = ", ".join(short_repr(pid, 40) for pid in pids[:10]) + (f" and {len(pids) - 10} more" if len(pids) > 10 else "")
                problems.append(f"{len(pids)} {name}: {shown}")
        raise ValueError(f"{argument}: " + "; ".join(problems))
    # A missing pid becomes an empty sentence appended at the end of the result.
    padded = Edits(result.sentence, result.position, result.char, result.n + 1)
    return padded.take([result.n if i is None else i for i in order])


def _same_pids(truth_pids, result_pids):
    """When both sides hold the same (unique) pids, where each truth pid is in the result;
    else None. By their Pids, the k-th in hash order on one side matched with the k-th on
    the other, then each pair's bytes compared."""
    if len(truth_pids) != len(result_pids) or not len(truth_pids):
        return None
    truth, result = (pids if isinstance(pids, Pids) else _pids_of(pids) for pids in (truth_pids, result_pids))
    if truth is None or result is None or len(truth.data) != len(result.data):
        return None
    order = np.empty(len(truth), dtype=np.int64)
    order[truth.by_key] = result.by_key
    sizes = truth.sizes()
    if (sizes != result.sizes().take(order)).any():
        return None
    shift = result.starts.take(order) - truth.starts  # where each truth pid's bytes lie in the result's
    for a, b in _blocks(truth.starts, sizes):
        low, high = truth.starts[a], truth.ends[b - 1] + 1
        if b == a + 1:  # one pid (a long one): its two slices
            same = np.array_equal(result.data[low + shift[a] : high + shift[a]], truth.data[low:high])
        else:
            same = np.array_equal(result.data.take(np.arange(low, high) + np.repeat(shift[a:b], sizes[a:b])), truth.data[low:high])
        if not same:
            return None
    return order


def _pids_of(pids):
    """Pids of a list of str; None if some pid holds a line end."""
    data = np.frombuffer(("\n".join(pids) + "\n").encode("utf-8", "surrogatepass"), dtype=np.uint8)
    return Pids(data) if np.count_nonzero(data == ord("\n")) == len(pids) else None


# ---------------------------------------------------------------------------------------
# Test input: `(pid=ID)<TAB>sentence` (2014, 2015) or `(NID=ID) sentence` (2013)

TEST_INPUT = re.compile(r"\((?:pid|NID)=([^)]*)\)[\t ](.*)\Z", re.S)


def read_sources(path, argument="--sources"):
    """(pids or None, sentences) of a sources file: one sentence per line, or an official
    test input file (`(pid=ID)<TAB>sentence`), whose pids then name the sentences."""
    lines = read_lines(path, argument)
    if lines and TEST_INPUT.match(lines[0]):
        return parse_test_input(lines, argument)
    return None, lines


def parse_test_input(lines, argument):
    """(pids, sentences) from the lines of an official test input file."""
    pids, sentences = [], []
    for index, line in enumerate(lines):
        match = TEST_INPUT.match(line)
        if not match:
            raise ValueError(f"{argument} line {index + 1}: expected `(pid=ID)<TAB>sentence`, got {line[:40]!r}")
        pids.append(match[1])
        sentences.append(match[2])
    return pids, sentences


def format_test_input(pids, sentences):
    return [f"(pid={pid})\t{sentence}" for pid, sentence in zip(pids, sentences)]


# ---------------------------------------------------------------------------------------
# Comparing predicted with gold edits, sentence by sentence


class Match(NamedTuple):
    """How each sentence's predicted edits compare with its gold edits (arrays of length n)."""

    predicted: np.ndarray  # predicted edits
    gold: np.ndarray  # gold edits
    position_hits: np.ndarray  # predicted positions that are gold positions
    exact_hits: np.ndarray  # predicted (position, char) pairs that are gold pairs
    chars_in_gold: np.ndarray  # every predicted char is one of the sentence's gold chars (see match)
    hit: np.ndarray  # per predicted edit: its position is a gold position
    gold_in_predicted: np.ndarray = None  # every gold char is one of the predicted chars (match(both_ways=True))

    @property
    def same_positions(self):
        """The position sets are equal (two empty sets included)."""
        return (self.predicted == self.gold) & (self.position_hits == self.predicted)

    @property
    def same_edits(self):
        """The (position, char) sets are equal (two empty sets included)."""
        return (self.predicted == self.gold) & (self.exact_hits == self.predicted)


def isin_sentence(sentence, value, other_sentence, other_value, unique=False):
    """For each (sentence[k], value[k]), whether the pair occurs among the other pairs:
    membership within the same sentence, by one sorted search over integer keys
    sentence * span + value (values are positions, or chars, or position-char keys).
    unique: no pair occurs twice on either side (an Edits' positions, or position-char
    keys), which lets numpy merge the two sides instead (twice as fast)."""
    if not len(sentence) or not len(other_sentence):
        return np.zeros(len(sentence), dtype=bool)
    span = int(max(value.max(), other_value.max())) + 1
    if (int(max(sentence.max(), other_sentence.max())) + 1) * span >= 2**62:
        # Values too wide for one key: number the distinct values first.
        codes = np.unique(np.concatenate([value, other_value]), return_inverse=True)[1]
        value, other_value, span = codes[: len(value)], codes[len(value) :], int(codes.max()) + 1
    keys, wanted = other_sentence * span + other_value, sentence * span + value
    if unique:
        return np.isin(wanted, keys, assume_unique=True, kind="sort")
    keys.sort()
    found = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return keys.take(found) == wanted


def match(predicted, gold, both_ways=False):
    """Compare two Edits of the same corpus, sentence by sentence; both_ways: also whether
    each sentence's gold chars are among its predicted chars (CCL2022's set equality)."""
    if predicted.n != gold.n:
        raise ValueError(f"predictions and references differ in length: {predicted.n} against {gold.n} examples")
    n = gold.n

    def per_sentence(mask):
        return np.bincount(predicted.sentence[mask], minlength=n)

    position_hits = isin_sentence(predicted.sentence, predicted.position, gold.sentence, gold.position, unique=True)
    pair = (predicted.position << CHAR_BITS) | predicted.char
    gold_pair = (gold.position << CHAR_BITS) | gold.char
    exact = isin_sentence(predicted.sentence, pair, gold.sentence, gold_pair, unique=True)
    in_gold = isin_sentence(predicted.sentence, predicted.char, gold.sentence, gold.char)
    if predicted.indels or gold.indels:
        # In a sentence with an insertion or deletion, a predicted char is "in the gold" only
        # as an exact gold edit: such a sentence is never corrected unless it is the reference.
        aligned = np.zeros(n, dtype=bool)
        aligned[predicted.sentence[predicted.position >= INDEL]] = True
        aligned[gold.sentence[gold.position >= INDEL]] = True
        in_gold = np.where(aligned[predicted.sentence], exact, in_gold)
    covered = None
    if both_ways:
        in_predicted = isin_sentence(gold.sentence, gold.char, predicted.sentence, predicted.char)
        if predicted.indels or gold.indels:  # (as in_gold: only as an exact predicted edit)
            gold_exact = isin_sentence(gold.sentence, gold_pair, predicted.sentence, pair, unique=True)
            in_predicted = np.where(aligned[gold.sentence], gold_exact, in_predicted)
        covered = np.bincount(gold.sentence[~in_predicted], minlength=n) == 0
    return Match(
        predicted=predicted.counts(),
        gold=gold.counts(),
        position_hits=per_sentence(position_hits),
        exact_hits=per_sentence(exact),
        chars_in_gold=per_sentence(~in_gold) == 0,
        hit=position_hits,
        gold_in_predicted=covered,
    )
