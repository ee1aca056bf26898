# GENERATED from shared/paperscore/csc.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""The Chinese spelling check (CSC) core shared by csc_sighan and csc_common: edits from
sentence triples, vectorised over the corpus; the official label lines and test input
files; the per-sentence comparison of predicted with gold edits.

An edit is a 1-based (position, character) pair where a sentence differs from its source.
A corpus's edits are flat numpy arrays (`Edits`), sorted by sentence then position, so each
per-sentence statistic is a bincount or a sorted search, never a Python loop per character.
"""

import re
from typing import NamedTuple

import numpy as np

from .paperscore_core import check_choice, check_same_length, input_error, read_lines, read_text

# How a sentence whose length differs from its source is treated:
#   "error"    a ValueError naming the example (the default: positions would not line up);
#   "truncate" compare the common prefix only, as zip() does (FASPell zips; ReaLiSe cuts
#              the source to a shorter prediction and refuses a longer one);
#   "whole"    one edit at position 0 standing for the whole sentence (see WHOLE), equal
#              on both sides only when the two sentences are the same string.
LENGTH_MISMATCH = ("error", "truncate", "whole")
# Under "whole", the char of a position-0 edit is WHOLE + the id of the sentence's text:
# above every Unicode code point, so it never equals a real character.
WHOLE = 0x110000
CHAR_BITS = 22  # WHOLE + text ids stay below 2**22 unless 3 million texts differ in length
MAX_POSITION = 2**31 - 1  # the 2014/2015 jars read positions as Java ints


class Edits(NamedTuple):
    """Every edit of a corpus of `n` sentences: edit k changes character `position[k]`
    (1-based) of sentence `sentence[k]` into the code point `char[k]` (0 when only
    positions are known); sorted by sentence, then position."""

    sentence: np.ndarray
    position: np.ndarray
    char: np.ndarray
    n: int

    def counts(self):
        """Edits per sentence."""
        return np.bincount(self.sentence, minlength=self.n)

    def keep(self, mask):
        """The edits where `mask` is true (e.g. dropping predicted 地/得 edits)."""
        return Edits(self.sentence[mask], self.position[mask], self.char[mask], self.n)

    def take(self, order):
        """The sentences `order` (indices into this corpus), renumbered 0..len(order)-1."""
        order = np.asarray(order, dtype=np.int64)
        bounds = np.searchsorted(self.sentence, np.arange(self.n + 1))
        counts = (bounds[1:] - bounds[:-1])[order]
        # Each taken sentence's edits, in place: one gather, positions stay sorted.
        gather = np.repeat(bounds[order] - (np.cumsum(counts) - counts), counts) + np.arange(int(counts.sum()))
        sentence = np.repeat(np.arange(len(order)), counts)
        return Edits(sentence, self.position[gather], self.char[gather], len(order))

    def groups(self):
        """Per sentence, its edits as a list of (position, character) pairs, the
        character "" when only positions are known (for writers and reports)."""
        bounds = np.searchsorted(self.sentence, np.arange(self.n + 1))
        pairs = list(zip(self.position.tolist(), map(_char_text, self.char.tolist())))
        return [pairs[a:b] for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist())]


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
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype="<u4")
    return points, lengths


def extract_edits(sources, *sides, names=("predictions", "references"), length_mismatch="error"):
    """The edits of each side (a list of sentences parallel to `sources`) against the
    sources, one Edits per side. The sources are encoded once, and under "whole" the text
    ids are shared by the sides, so equal sentences get equal position-0 edits."""
    check_choice("length_mismatch", length_mismatch, LENGTH_MISMATCH)
    source_points, source_lengths = _encode(sources, "sources")
    source_starts = np.cumsum(source_lengths) - source_lengths
    text_ids = {}
    out = []
    for texts, name in zip(sides, names):
        check_same_length(texts, sources, (name, "sources"))
        points, lengths = _encode(texts, name)
        differ = np.flatnonzero(lengths != source_lengths)
        if len(differ) and length_mismatch == "error":
            i = int(differ[0])
            raise input_error(
                name, i,
                f"has {lengths[i]} characters but sources[{i}] has {source_lengths[i]} "
                "(pass length_mismatch='truncate' or 'whole' to score such sentences)",
            )  # fmt: skip
        if not len(differ):
            # The common case: one elementwise comparison over the whole corpus.
            where = np.flatnonzero(points != source_points)
            sentence = np.searchsorted(source_starts, where, side="right") - 1
            position = where - source_starts[sentence] + 1
            edits = Edits(sentence, position, points[where].astype(np.int64), len(texts))
        else:
            edits = _prefix_edits(source_points, source_starts, source_lengths, points, lengths, length_mismatch == "whole")
            if length_mismatch == "whole":
                edits = _add_whole(edits, differ, [texts[i] for i in differ.tolist()], text_ids)
        out.append(edits)
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


def parse_label_lines(lines, argument, positions_only=False, line_numbers=False, opaque=None, pid_space_drops_chars=False):
    """(pids, Edits) from the official label lines, one sentence per line, in line order.

    As the jars read a file, a line whose first non-blank character is `#` is a comment,
    skipped (its index still counts in messages). Stricter than the jars, which read
    `pid, 3` as "no error" and let a repeated position overwrite: every malformed line is a
    ValueError naming it (`argument[i]`, or `argument line i+1` with line_numbers).

    opaque: a dict shared by the truth and the result to read positions as the SIGHAN 2013
    jar does, as strings: a field that is not a plain positive integer (the official
    SIGHAN 2013 subtask 2 truth has `01279, 10, 憤, , 挫`) becomes a code above
    MAX_POSITION, one per distinct text (kept in the dict), which no real position equals.

    pid_space_drops_chars: read a result as the SIGHAN 2013 jar does, which keys a line's
    characters on its pid before trimming: a pid with white space before its comma
    (`P1 , 2, 甲`) keeps its positions, but its characters are lost (0)."""
    if not set(map(type, lines)) <= {str, np.str_}:
        return _parse_one_by_one(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars)
    pids, parts = [], []
    for start in range(0, len(lines), _CHUNK):  # in chunks: a large file's temporary arrays stay small
        parsed = _scan(lines[start : start + _CHUNK], positions_only, pid_space_drops_chars)
        if parsed is None:  # some line needs a closer look: an error to name, an opaque position
            return _parse_one_by_one(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars)
        parts.append(parsed[1]._replace(sentence=parsed[1].sentence + len(pids)))
        pids += parsed[0]
    if len(parts) > 1 and len(set(pids)) != len(pids):
        return _parse_one_by_one(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars)
    if len(parts) <= 1:
        return pids, parts[0] if parts else no_edits(0)
    return pids, Edits(*(np.concatenate([getattr(part, name) for part in parts]) for name in ("sentence", "position", "char")), len(pids))


# str.strip()'s white space: the code points below U+3001 that are white space, then one
# False for every code point from U+3001 on (looked up at min(code, U+3001)), as no
# character above U+3000 is white space.
_SPACE = np.array([chr(code).isspace() for code in range(0x3001)] + [False])
_DIGITS = len(str(MAX_POSITION))
_CHUNK = 200_000  # lines read at once


def _scan(lines, positions_only, pid_space_drops_chars):
    """parse_label_lines for all lines at once, numpy over the code points of the joined
    lines; None when some line is not a plain well-formed label line (an error, an opaque
    position, a repeated pid, ...), which _parse_one_by_one then reads."""
    text = "\n".join(lines)
    if not text:
        return ([], no_edits(0)) if not lines else None
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    # Fields lie between separators (commas and line ends); -1 and len(points) close the ends.
    is_break = points == ord("\n")
    # int32 indices where they fit: a large file's field arrays take half the memory
    separators = np.flatnonzero(is_break | (points == ord(","))).astype(np.int32 if len(points) < 2**31 - 1 else np.int64)
    breaks = is_break[separators]
    del is_break
    if int(breaks.sum()) != len(lines) - 1:
        return None  # a line holds a line end
    bounds = np.concatenate((np.array([-1], separators.dtype), separators, np.array([len(points)], separators.dtype)))
    first, last = bounds[:-1] + 1, bounds[1:] - 1  # each field is points[first:last + 1]
    field_line = np.concatenate(([0], np.cumsum(breaks, dtype=separators.dtype)))
    pid_field = np.concatenate(([0], np.flatnonzero(breaks) + 1))  # each line's first field
    fields = np.diff(np.append(pid_field, len(first)))  # per line
    def at(index):  # the code points at these indices, a comma at -1 and len(points)
        inside = (index >= 0) & (index < len(points))
        return np.where(inside, points[np.clip(index, 0, len(points) - 1)], ord(","))

    def space(index):
        return _SPACE[np.minimum(at(index), len(_SPACE) - 1)]

    pid_space = (last >= first)[pid_field] & space(last[pid_field])  # before trimming: `P1 , ...`
    for cursor, step in ((first, 1), (last, -1)):  # trim every field
        moving = np.flatnonzero((first <= last) & space(cursor))
        while len(moving):
            cursor[moving] += step
            moving = moving[(first[moving] <= last[moving]) & space(cursor[moving])]
    length = np.maximum(last - first + 1, 0)
    head = np.where(length > 0, at(first), 0)  # each field's first character, 0 if empty

    comment = head[pid_field] == ord("#")
    value = pid_field + np.minimum(fields, 2) - 1  # the first value field (the pid's if none)
    zero = (fields == 2) & (length[value] == 1) & (head[value] == ord("0"))
    bad = (length[pid_field] == 0) | (fields < 2) | (~zero & (length[pid_field + fields - 1] == 0))
    if not positions_only:
        bad |= ~zero & (fields % 2 == 0)  # an odd number of values
    if (bad & ~comment).any():
        return None
    in_line = np.arange(len(first)) - pid_field[field_line]
    scored = (~comment & ~zero)[field_line] & (in_line >= 1)
    position_field = np.flatnonzero(scored & ((in_line % 2 == 1) | positions_only))
    digits = length[position_field]
    width = int(digits.max(initial=0))
    if len(position_field) and (width > _DIGITS or head[position_field].min() < ord("1") or head[position_field].max() > ord("9")):
        return None  # a 0, a leading zero, not a number: the per-line reading names it
    grid = at(first[position_field][:, None] + np.arange(width)).astype(np.int64) - ord("0")
    power = np.arange(width) < digits[:, None]  # digit k of a position, its power of ten below
    if ((grid < 0) | (grid > 9))[power].any():
        return None
    power = np.where(power, 10 ** np.maximum(digits[:, None] - 1 - np.arange(width), 0), 0)
    position = (grid * power).sum(1)
    if len(position) and position.max() > MAX_POSITION:
        return None
    line = field_line[position_field]
    if positions_only:
        char = np.zeros(len(position_field), dtype=np.int64)
    else:
        if (length[position_field + 1] != 1).any():
            return None
        char = head[position_field + 1].astype(np.int64)
        if pid_space_drops_chars:
            char[pid_space[line]] = 0
    sentence = (np.cumsum(~comment) - 1)[line]  # comment lines are no sentences
    key = sentence * (MAX_POSITION + 1) + position
    if len(key) > 1 and not (key[1:] > key[:-1]).all():
        order = np.argsort(key, kind="stable")
        if (key[order][1:] == key[order][:-1]).any():
            return None  # a position given twice
        sentence, position, char = sentence[order], position[order], char[order]
    pids = _texts(points, first[pid_field][~comment], length[pid_field][~comment])
    if len(set(pids)) != len(pids):
        return None
    return pids, Edits(sentence, position, char, len(pids))


def _texts(points, first, length):
    """The strings points[first:first + length] (none holding a line end), decoded at once."""
    ends = np.cumsum(length + 1)  # each text followed by a line end
    chosen = points[np.repeat(first - (ends - length - 1), length + 1) + np.arange(int(ends[-1]) if len(ends) else 0)]
    chosen[ends - 1] = ord("\n")
    return chosen.tobytes().decode("utf-32-le", "surrogatepass").split("\n")[:-1]


def _parse_one_by_one(lines, argument, positions_only, line_numbers, opaque, pid_space_drops_chars):
    """parse_label_lines one line at a time: the reading that names what is wrong."""
    pids, sentence, position, char = [], [], [], []
    first_line = {}
    for index, line in enumerate(lines):
        where = f"{argument} line {index + 1}" if line_numbers else f"{argument}[{index}]"
        if not isinstance(line, str):
            raise ValueError(f"{where}: expected a label line (str), got {type(line).__name__} {line!r}")
        if line.strip().startswith("#"):
            continue
        raw = line.strip().split(",")
        fields = [field.strip() for field in raw]
        pid = fields[0]
        if not pid or len(fields) < 2:
            shape = "pos, ..." if positions_only else "pos, char, ..."
            raise ValueError(f"{where}: {line!r} is not a label line `pid, 0` or `pid, {shape}` (sentences come with their sources)")
        if pid in first_line:
            raise ValueError(f"{where}: pid {pid!r} is already on {_line_name(argument, first_line[pid], line_numbers)}")
        first_line[pid] = index
        number_of_sentence = len(pids)
        pids.append(pid)
        values = fields[1:]
        if values == ["0"]:
            continue
        if values[-1] == "":
            raise ValueError(f"{where}: {line!r} ends with an empty field")
        step = 1 if positions_only else 2
        if len(values) % step:
            raise ValueError(f"{where}: position {values[-1]!r} has no character (a label line is `pid, pos, char, ...`)")
        drop_chars = pid_space_drops_chars and raw[0] != pid
        seen = set()
        for k in range(0, len(values), step):
            text = values[k]
            number = _position(text, opaque, where)
            if number in seen:
                raise ValueError(f"{where}: position {text} is given twice")
            seen.add(number)
            if not positions_only and len(values[k + 1]) != 1:
                raise ValueError(f"{where}: the correction at position {text} is {values[k + 1]!r}, not one character")
            sentence.append(number_of_sentence)
            position.append(number)
            char.append(0 if positions_only or drop_chars else ord(values[k + 1]))
    return pids, from_pairs(sentence, position, char, len(pids))


def _position(text, opaque, where):
    digits = text.isascii() and text.isdigit()
    if digits and int(text) == 0:
        raise ValueError(f"{where}: position {text!r} (a 0 must stand alone: `pid, 0`)")
    if opaque is not None and not (digits and text[0] != "0" and int(text) <= MAX_POSITION):
        return opaque.setdefault(text, MAX_POSITION + 1 + len(opaque))
    if not digits:
        raise ValueError(f"{where}: position {text!r} (it is not a positive integer)")
    if int(text) > MAX_POSITION:
        raise ValueError(f"{where}: position {text} is beyond {MAX_POSITION}")
    return int(text)


def _line_name(argument, index, line_numbers):
    return f"line {index + 1}" if line_numbers else f"{argument}[{index}]"


def read_label_file(path, argument):
    """core.read_lines for label files, which may be large: the same lines and errors,
    split at once unless some line is blank or ends in a carriage return."""
    text = read_text(path, argument)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text or "" in lines or any(map(str.isspace, lines)):
        return read_lines(path, argument)  # read_lines strips the CRs and names the blank line
    return lines


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
                shown = ", ".join(map(repr, pids[:10])) + (f" and {len(pids) - 10} more" if len(pids) > 10 else "")
                problems.append(f"{len(pids)} {name}: {shown}")
        raise ValueError(f"{argument}: " + "; ".join(problems))
    # A missing pid becomes an empty sentence appended at the end of the result.
    padded = Edits(result.sentence, result.position, result.char, result.n + 1)
    return padded.take([result.n if i is None else i for i in order])


def _same_pids(truth_pids, result_pids):
    """When both sides hold the same (unique) pids, where each truth pid is in the result;
    else None. By sorting the pids' hashes (Python's, cached in each str), each match then
    checked as strings (a hash collision just gives None)."""
    if len(truth_pids) != len(result_pids) or not len(truth_pids):
        return None
    truth_key, result_key = (np.fromiter(map(hash, pids), dtype=np.int64, count=len(pids)) for pids in (truth_pids, result_pids))
    by_key = np.argsort(result_key)
    order = by_key[np.minimum(np.searchsorted(result_key[by_key], truth_key), len(by_key) - 1)]
    if not (result_key[order] == truth_key).all() or list(map(result_pids.__getitem__, order.tolist())) != list(truth_pids):
        return None
    return order


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
    chars_in_gold: np.ndarray  # every predicted char is one of the sentence's gold chars

    @property
    def same_positions(self):
        """The position sets are equal (two empty sets included)."""
        return (self.predicted == self.gold) & (self.position_hits == self.predicted)

    @property
    def same_edits(self):
        """The (position, char) sets are equal (two empty sets included)."""
        return (self.predicted == self.gold) & (self.exact_hits == self.predicted)


def isin_sentence(sentence, value, other_sentence, other_value):
    """For each (sentence[k], value[k]), whether the pair occurs among the other pairs:
    membership within the same sentence, by one sorted search over integer keys
    sentence * span + value (values are positions, or chars, or position-char keys)."""
    if not len(sentence) or not len(other_sentence):
        return np.zeros(len(sentence), dtype=bool)
    span = int(max(value.max(), other_value.max())) + 1
    if (int(max(sentence.max(), other_sentence.max())) + 1) * span >= 2**62:
        # Values too wide for one key: number the distinct values first.
        codes = np.unique(np.concatenate([value, other_value]), return_inverse=True)[1]
        value, other_value, span = codes[: len(value)], codes[len(value) :], int(codes.max()) + 1
    keys = np.sort(other_sentence * span + other_value)
    wanted = sentence * span + value
    found = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return keys[found] == wanted


def match(predicted, gold):
    """Compare two Edits of the same corpus, sentence by sentence."""
    if predicted.n != gold.n:
        raise ValueError(f"predictions and references differ in length: {predicted.n} against {gold.n} examples")
    n = gold.n

    def per_sentence(mask):
        return np.bincount(predicted.sentence[mask], minlength=n)

    position_hits = isin_sentence(predicted.sentence, predicted.position, gold.sentence, gold.position)
    pair = (predicted.position << CHAR_BITS) | predicted.char
    gold_pair = (gold.position << CHAR_BITS) | gold.char
    exact = isin_sentence(predicted.sentence, pair, gold.sentence, gold_pair)
    in_gold = isin_sentence(predicted.sentence, predicted.char, gold.sentence, gold.char)
    return Match(
        predicted=predicted.counts(),
        gold=gold.counts(),
        position_hits=per_sentence(position_hits),
        exact_hits=per_sentence(exact),
        chars_in_gold=per_sentence(~in_gold) == 0,
    )
