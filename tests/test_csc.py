"""The CSC core: vectorised edits against a per-sentence loop, the official file formats
(the SIGHAN 2015 truth rebuilt line for line), pid alignment and the sentence comparison."""

import random
import re

import numpy as np
import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

import csc_align_naive as naive
import csc_labels_naive
from paperscore.core import read_lines
from paperscore.csc import (
    MAX_POSITION,
    WHOLE,
    Edits,
    LabelFile,
    _parse_one_by_one,
    _same_pids,
    _scan_text,
    align_pids,
    apply_edits,
    extract_edits,
    format_label_lines,
    format_test_input,
    from_pairs,
    match,
    no_edits,
    parse_label_lines,
    parse_test_input,
)

SIGHAN15 = DATA / "sighan15"
# A small alphabet so that sentences collide, with a character outside the BMP (one code
# point, two UTF-16 units) to show that positions count code points.
ALPHABET = "ab甲乙，𠀋"
sentences = st.text(ALPHABET, max_size=6)


def naive_edits(source, sentence):
    """The definition, one sentence at a time: 1-based positions where the characters of
    the common prefix differ."""
    return [(i + 1, new) for i, (old, new) in enumerate(zip(source, sentence)) if old != new]


@st.composite
def triples(draw, same_length=True):
    n = draw(st.integers(0, 8))
    sources = draw(st.lists(sentences, min_size=n, max_size=n))
    if not same_length:
        return sources, draw(st.lists(sentences, min_size=n, max_size=n)), draw(st.lists(sentences, min_size=n, max_size=n))

    def variant(source):
        return "".join(draw(st.sampled_from(ALPHABET)) if draw(st.booleans()) else c for c in source)

    return sources, [variant(s) for s in sources], [variant(s) for s in sources]


@settings(max_examples=300, deadline=None)
@given(triples())
def test_edits_equal_a_per_sentence_loop(data):
    sources, predictions, references = data
    predicted, gold = extract_edits(sources, predictions, references)
    assert predicted.groups() == [naive_edits(s, p) for s, p in zip(sources, predictions)]
    assert gold.groups() == [naive_edits(s, r) for s, r in zip(sources, references)]
    assert predicted.n == gold.n == len(sources)


@settings(max_examples=300, deadline=None)
@given(triples(same_length=False))
def test_truncate_compares_the_common_prefix_and_whole_compares_strings(data):
    sources, predictions, references = data
    predicted, gold = extract_edits(sources, predictions, references, length_mismatch="truncate")
    assert predicted.groups() == [naive_edits(s, p) for s, p in zip(sources, predictions)]
    assert gold.groups() == [naive_edits(s, r) for s, r in zip(sources, references)]
    # "whole": a sentence of another length is one position-0 edit standing for its text,
    # the same edit on both sides exactly when the two sentences are equal strings.
    predicted, gold = extract_edits(sources, predictions, references, length_mismatch="whole")
    for i, (s, p, r) in enumerate(zip(sources, predictions, references)):
        for edits, text in ((predicted, p), (gold, r)):
            pairs = edits.groups()[i]
            if len(text) == len(s):
                assert pairs == naive_edits(s, text)
            else:
                assert len(pairs) == 1 and pairs[0][0] == 0
        whole_p, whole_r = predicted.char[predicted.sentence == i], gold.char[gold.sentence == i]
        if len(p) != len(s) and len(r) != len(s):
            assert (whole_p[0] == whole_r[0]) == (p == r)
        assert (whole_p >= WHOLE).sum() == (len(p) != len(s))


# ---------------------------------------------------------------------------------------
# length_mismatch="align"


def naive_form(pairs):
    """A sentence's edits from Edits.groups() in csc_align_naive's form."""
    out = set()
    for position, char in pairs:
        if char.startswith("<insert before: "):
            out.add(("insert", position, char[len("<insert before: ") : -1]))
        elif char.startswith("<delete: "):
            out.add(("delete", position, char[len("<delete: ") : -1]))
        else:
            out.add(("sub", position, char))
    return out


def apply_aligned(source, edits):
    """The sentence that a set of aligned edits makes of its source."""
    chars = [[c] for c in source] + [[]]  # each source character, and what comes before the next
    for kind, position, value in edits:
        if kind == "sub":
            chars[position - 1][0] = value
        elif kind == "delete":
            chars[position - 1][0] = ""
    inserted = {position: value for kind, position, value in edits if kind == "insert"}
    return "".join(inserted.get(i, "") + "".join(cell) for i, cell in enumerate(chars, 1))


@settings(max_examples=400, deadline=None)
@given(triples(same_length=False))
def test_align_is_a_minimal_alignment_by_the_stated_rule(data):
    sources, predictions, references = data
    predicted, gold = extract_edits(sources, predictions, references, length_mismatch="align")
    for edits, texts in ((predicted, predictions), (gold, references)):
        for source, text, pairs in zip(sources, texts, edits.groups()):
            found = naive_form(pairs)
            # The edits rebuild the sentence, with as few character operations as possible
            # (equal lengths: the positional reading, which every preset uses today) ...
            assert apply_aligned(source, found) == text
            operations = sum(len(value) if kind == "insert" else 1 for kind, _, value in found)
            if len(text) == len(source):
                assert sorted(found) == sorted(("sub", p, c) for p, c in naive_edits(source, text))
            else:
                assert operations == naive.distance(source, text)
            # ... and the tie-break is the documented one (csc_align_naive, a plain-loop reading of it).
            assert found == naive.aligned_edits(source, text)


def test_align_tie_break_worked_examples():
    """Derived by hand from the rule (common prefix, common suffix of the rest, then the
    middle traced back from the end preferring keep/substitute, delete, insert)."""
    sources = ["我很好", "他們門很好", "abc", "", "ab", "甲乙丙"]
    texts = ["我很很好", "他门很好", "xbcd", "xy", "", "乙丙甲"]
    expected = [
        # prefix 我很, then suffix 好 of 好 / 很好: the middle "" -> "很", inserted before source char 3
        [(3, "<insert before: 很>")],
        # prefix 他, suffix 很好; middle 們門 -> 门, distance 2: from the end, 門 -> 门 on the
        # diagonal costs 1 + distance(們, "") = 2, minimal, so taken; then 們 (2) is deleted
        [(2, "<delete: 們>"), (3, "门")],
        # no common prefix or suffix; distance 2: a -> x substituted, d inserted at the end
        [(1, "x"), (4, "<insert before: d>")],
        # an empty source: one insertion of the whole text (one edit, two characters)
        [(1, "<insert before: xy>")],
        # everything deleted: one edit per source character
        [(1, "<delete: a>"), (2, "<delete: b>")],
        # equal lengths are read position by position (3 substitutions), although deleting
        # 甲 and inserting it at the end would cost 2
        [(1, "乙"), (2, "丙"), (3, "甲")],
    ]
    (edits,) = extract_edits(sources, texts, names=("predictions",), length_mismatch="align")
    assert edits.groups() == expected


def test_align_edits_match_only_the_same_insertion_or_deletion():
    """The same insertion is a position hit and an exact hit; another string inserted at
    the same place, or a substitution at the deleted position, is neither."""
    sources = ["我門去", "我門去", "我門去", "他們們很好"]
    predictions = ["我們去了", "我們去啊", "我們去", "他們很好"]
    references = ["我們去了", "我們去了", "我們去了", "他們X很好"]
    predicted, gold = extract_edits(sources, predictions, references, length_mismatch="align")
    m = match(predicted, gold)
    # 1: {2 們, +了 at 4} both sides; 2: +啊 against +了; 3: the insertion missing;
    # 4: predicted delete 們 at 3 (prefix 他們, suffix 很好), gold 3 -> X (equal length)
    assert m.predicted.tolist() == [2, 2, 1, 1]
    assert m.gold.tolist() == [2, 2, 2, 1]
    assert m.position_hits.tolist() == [2, 1, 1, 0]
    assert m.exact_hits.tolist() == [2, 1, 1, 0]
    assert m.same_edits.tolist() == [True, False, False, False]


def test_align_refuses_a_source_beyond_its_position_range():
    with pytest.raises(ValueError, match=r"sources\[1\]: has 1048575 characters; length_mismatch='align' takes fewer than 1048575"):
        extract_edits(["甲", "乙" * (2**20 - 1)], ["甲乙", "乙"], ["甲", "乙" * (2**20 - 1)], length_mismatch="align")


def substitution_only(draw_rng, n):
    """n random triples whose sentences are as long as their sources."""
    alphabet = list("我們门門他她的地得在再好很")
    sources = ["".join(draw_rng.choice(alphabet, size=int(draw_rng.integers(0, 7)))) for _ in range(n)]

    def variant(source):
        return "".join(str(draw_rng.choice(alphabet)) if draw_rng.random() < 0.3 else c for c in source)

    return sources, [variant(s) for s in sources], [variant(s) for s in sources]


@pytest.mark.parametrize("seed", range(12))
def test_align_scores_substitution_only_data_as_today_under_every_preset_and_year(seed):
    from paperscore import csc_common, csc_sighan

    rng = np.random.default_rng(seed)
    sources, predictions, references = substitution_only(rng, int(rng.integers(1, 40)))
    data = dict(predictions=predictions, references=references, sources=sources)
    extras = dict(return_counts=True, per_sentence=True)
    positional = [v for v in csc_common.VARIANTS if csc_common.PRESETS[v].length not in csc_common.ALIGNING]  # the LLM presets read sentences by their own rule
    for variant in (*positional, "all"):
        for remove_de in (False, True):
            today = csc_common.compute(**data, variant=variant, remove_de=remove_de, **extras)
            aligned = csc_common.compute(**data, variant=variant, remove_de=remove_de, length_mismatch="align", **extras)
            assert aligned == today, (variant, remove_de)
    years = [("2015", None, "subset"), ("2015", None, "exact"), ("2014", None, "subset"), ("2014", None, "exact"), ("2013", 1, "subset"), ("2013", 2, "subset")]
    for version, subtask, correction_match in years:
        options = dict(version=version, subtask=subtask, correction_match=correction_match, **extras)
        assert csc_sighan.compute(**data, **options, length_mismatch="align") == csc_sighan.compute(**data, **options), (version, subtask)


def test_align_in_sighan_a_sentence_with_an_insertion_is_corrected_only_as_the_reference():
    """甲乙丙 -> 丁戊丙己: substitutions 1 丁, 2 戊 and 己 inserted at the end (prefix none;
    from the end, 丙 -> 己 on the diagonal would cost 1 + distance(甲乙, 丁戊丙) = 4, the
    insertion 1 + distance(甲乙丙, 丁戊丙) = 3). The answer 戊丁丙己 swaps the two
    substitutions: the same positions, its characters among the gold ones, which the
    2015 jar counts as corrected on equal lengths; with an insertion it is not."""
    from paperscore.csc_sighan import compute

    swapped = compute(["戊丁丙己"], ["丁戊丙己"], ["甲乙丙"], length_mismatch="align", return_counts=True)
    assert (swapped["detection_tp"], swapped["correction_tp"], swapped["correction_fn"]) == (1, 0, 1)
    # the same swap without the insertion: the jar's subset rule counts it corrected
    equal = compute(["戊丁丙"], ["丁戊丙"], ["甲乙丙"], length_mismatch="align", return_counts=True)
    assert (equal["detection_tp"], equal["correction_tp"]) == (1, 1)
    right = compute(["丁戊丙己"], ["丁戊丙己"], ["甲乙丙"], length_mismatch="align", return_counts=True)
    assert right["correction_tp"] == 1


def test_length_mismatch_is_an_error_naming_the_example():
    with pytest.raises(ValueError, match=r"predictions\[1\]: has 2 characters but sources\[1\] has 3 \(pass length_mismatch="):
        extract_edits(["甲乙", "甲乙丙"], ["甲乙", "甲乙"], ["甲乙", "甲乙丙"])
    with pytest.raises(ValueError, match=r"references\[0\]: has 3 characters but sources\[0\] has 2"):
        extract_edits(["甲乙"], ["甲乙"], ["甲乙丙"])
    with pytest.raises(ValueError, match="length_mismatch: 'zip' is not one of"):
        extract_edits(["甲"], ["甲"], ["甲"], length_mismatch="zip")


@pytest.mark.parametrize(
    "sources, predictions, references, message",
    [
        (["甲", None], ["甲", "乙"], ["甲", "乙"], r"sources\[1\]: expected a sentence \(str\), got NoneType"),
        (["甲"], [["甲"]], ["甲"], r"predictions\[0\]: expected a sentence \(str\), got list"),
        (["甲"], ["甲"], [1], r"references\[0\]: expected a sentence \(str\), got int 1"),
        (["甲", "乙"], ["甲"], ["甲", "乙"], "predictions and sources differ in length: 1 against 2"),
    ],
)
def test_bad_sentences_are_errors_that_say_where(sources, predictions, references, message):
    with pytest.raises(ValueError, match=message):
        extract_edits(sources, predictions, references)


def test_the_sighan15_truth_rebuilt_line_for_line():
    """Applying the 1,100 truth lines to the test input and taking the edits back gives the
    truth file again, character for character: 550 erroneous sentences, 715 edits."""
    truth = read_lines(SIGHAN15 / "SIGHAN15_CSC_TestTruth.txt", "truth")
    pids, sources = parse_test_input(read_lines(SIGHAN15 / "SIGHAN15_CSC_TestInput.txt", "input"), "input")
    truth_pids, gold = parse_label_lines(truth, "truth")
    assert truth_pids == pids and len(pids) == 1100
    references = apply_edits(sources, gold)
    (again,) = extract_edits(sources, references, names=("references",))
    assert format_label_lines(pids, again) == truth
    assert len(again.sentence) == 715 and int((again.counts() > 0).sum()) == 550
    assert format_test_input(pids, sources) == read_lines(SIGHAN15 / "SIGHAN15_CSC_TestInput.txt", "input")


def test_test_input_formats_of_2013_and_2015():
    assert parse_test_input(["(NID=00401) 遇到逆竟時", "(pid=A2-0011-1)\t你好"], "x") == (["00401", "A2-0011-1"], ["遇到逆竟時", "你好"])
    with pytest.raises(ValueError, match=r"--sources line 2: expected `\(pid=ID\)<TAB>sentence`, got '你好'"):
        parse_test_input(["(pid=1)\t我", "你好"], "--sources")


def test_apply_edits_refuses_an_edit_beyond_the_source():
    _, edits = parse_label_lines(["a, 3, 甲"], "truth")
    with pytest.raises(ValueError, match=r"references\[0\]: position 3 is outside the 2 characters of its source"):
        apply_edits(["你好"], edits)


def test_label_lines_parse_in_position_order_and_round_trip():
    pids, edits = parse_label_lines(["x, 7, 乙, 2, 甲", " y , 0 ", "z,3,丙"], "truth")
    assert pids == ["x", "y", "z"]
    assert edits.groups() == [[(2, "甲"), (7, "乙")], [], [(3, "丙")]]
    assert format_label_lines(pids, edits) == ["x, 2, 甲, 7, 乙", "y, 0", "z, 3, 丙"]
    pids, edits = parse_label_lines(["0022, 43, 76", "0023, 0"], "truth", positions_only=True)
    assert edits.groups() == [[(43, ""), (76, "")], []]
    assert format_label_lines(pids, edits, positions_only=True) == ["0022, 43, 76", "0023, 0"]


label_sets = st.lists(
    st.dictionaries(st.integers(1, 60), st.sampled_from("甲乙丙丁的地得"), max_size=4), max_size=8
)


@settings(max_examples=200, deadline=None)
@given(label_sets)
def test_label_lines_round_trip_any_edits(sets):
    pids = [f"P-{i}" for i in range(len(sets))]
    edits = from_pairs(
        [i for i, d in enumerate(sets) for _ in d], [p for d in sets for p in d], [ord(c) for d in sets for c in d.values()], len(sets)
    )
    lines = format_label_lines(pids, edits)
    again_pids, again = parse_label_lines(lines, "x")
    assert again_pids == pids and again.groups() == [sorted(d.items()) for d in sets]


@pytest.mark.parametrize(
    "line, positions_only, message",
    [
        ("A2-1, 3", False, r"position '3' has no character"),
        ("A2-1, 3, 甲, 3, 乙", False, "position 3 is given twice"),
        ("A2-1, 3, 甲乙", False, r"the correction at position 3 is '甲乙', not one character"),
        ("A2-1, x, 甲", False, r"position 'x' \(it is not a positive integer\)"),
        ("A2-1, -2, 甲", False, r"position '-2' \(it is not a positive integer\)"),
        ("A2-1, 0, 3", True, r"position '0' \(a 0 must stand alone"),
        ("A2-1, 3, ", False, "ends with an empty field"),
        ("A2-1, , 甲", False, r"position '' \(it is not a positive integer\)"),
        ("A2-1", False, r"'A2-1' is not a label line `pid, 0` or `pid, pos, char, ...`"),
        (", 0", False, "is not a label line"),
        ("我喜欢唱歌", True, r"is not a label line `pid, 0` or `pid, pos, ...` \(sentences come with their sources\)"),
        ("A2-1, 9999999999, 甲", False, "position 9999999999 is beyond 2147483647"),
        ("A2-1\nA2-2, 0", False, "holds a line end inside it"),
        ("A2-1, 2, 甲\rA2-2, 0", False, "holds a line end inside it"),
        ("0022, 43, 歲", True, r"position '歲' \(it is not a positive integer\)"),
    ],
)
def test_malformed_label_lines_are_errors_naming_the_line(line, positions_only, message):
    with pytest.raises(ValueError, match=r"truth\[1\]: .*" + message):
        parse_label_lines(["A2-0, 0", line], "truth", positions_only)
    with pytest.raises(ValueError, match=r"-t line 2: "):
        parse_label_lines(["A2-0, 0", line], "-t", positions_only, line_numbers=True)


FRAGMENTS = ["P1", "P2", "#", ",", ", ", " ", "\t", "\u3000", "\n", "0", "1", "2", "9", "00", "12", "2147483647", "2147483648", "甲", "乙", "x", ""]


def _outcome(parse, *args):
    try:
        pids, edits = parse(*args)
    except ValueError as error:
        return str(error)
    return pids, edits.sentence.tolist(), edits.position.tolist(), edits.char.tolist(), edits.n


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=9).map("".join), max_size=5),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_label_lines_read_at_once_as_line_by_line(lines, positions_only, opaque, pid_space_drops_chars):
    """The vectorised reading agrees with the line-by-line one (kept for naming errors) on
    lines of random fragments: the same pids and edits, or the same error."""
    args = (positions_only, False, {} if opaque else None, pid_space_drops_chars)
    assert _outcome(parse_label_lines, lines, "x", *args) == _outcome(_parse_one_by_one, lines, "x", *args)


def _file_outcome(data, tmp_path, *args):
    """A label file's reading at once (LabelFile), and its reading as read_lines then the
    line-by-line parser with line numbers: the pids and edits, or the error."""
    path = tmp_path / "labels.txt"
    path.write_bytes(data)

    def by_lines(path, argument, *args):
        return _parse_one_by_one(read_lines(path, argument, allow_empty=True), argument, args[0], True, *args[2:])

    return [_outcome(lambda *a: parse_label_lines(LabelFile(path, "-i"), "ignored", *a), *args), _outcome(by_lines, path, "-i", *args)]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(FRAGMENTS + ["\r", "\r\n", "\u00a0", "\x85", "\x1f"]), max_size=9).map("".join), max_size=5),
    st.sampled_from([b"", b"\n", b"\r\n"]),
    st.sampled_from([b"", b"\xef\xbb\xbf"]),
    st.booleans(),
    st.booleans(),
)
def test_label_files_read_at_once_as_line_by_line(tmp_path_factory, lines, end, bom, positions_only, pid_space_drops_chars):
    """A label file scanned as bytes reads as its lines (read_lines: CRLF, byte-order mark,
    empty lines) read one by one, with the same messages (`-i line N`), white space beyond
    ASCII (U+00A0, U+0085, U+3000) included."""
    data = bom + "\n".join(lines).encode() + (end if lines else b"")
    args = (positions_only, True, None, pid_space_drops_chars)
    at_once, by_lines = _file_outcome(data, tmp_path_factory.mktemp("labels"), *args)
    assert at_once == by_lines


def test_a_label_file_not_utf8_is_named(tmp_path):
    path = tmp_path / "gbk.txt"
    path.write_bytes("a, 1, 甲".encode("gbk"))
    with pytest.raises(ValueError, match=r"-t: .*gbk.txt is not UTF-8 \(byte 6"):
        LabelFile(path, "-t")
    # checked in pieces of 64 KiB: a bad byte in a later piece, or a character cut at the
    # end, is named at its place in the file
    lines = "".join(f"P{i}, 1, 甲\n" for i in range(8000)).encode()
    for data, byte in ((lines + b"\xff", len(lines)), (lines + "乙".encode()[:2], len(lines))):
        path.write_bytes(data)
        with pytest.raises(ValueError, match=rf"is not UTF-8 \(byte {byte}:"):
            LabelFile(path, "-t")


def test_pids_whose_hashes_collide_are_told_apart(monkeypatch):
    """Pids whose hashes collide (forced: with a multiplier of 0 the hash is the first
    byte alone) are not a repeat, and are still matched exactly; a real repeat is found."""
    import paperscore.csc as csc

    assert csc._pids_of(["a", "b", "a"]).repeated()
    monkeypatch.setattr(csc, "_MIX", np.uint64(0))
    pids = csc._pids_of(["a", "ab", "ac"])
    assert (pids.key == pids.key[0]).all() and not pids.repeated()
    order = _same_pids(["a", "ab", "ac"], ["ac", "a", "ab"])
    assert order is None or [["ac", "a", "ab"][i] for i in order] == ["a", "ab", "ac"]
    assert _same_pids(["a", "ab", "ac"], ["ac", "a", "ad"]) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(["a", "b", "\x00", "甲", "𠀋", ",", " "]), max_size=20), unique=True, max_size=12), st.randoms())
def test_same_pids_matches_exactly_as_a_dict_would(pids, random):
    """Pids matched in numpy (rows of words, hash order) give each truth pid's place in
    the result as a dict of str does; pids that differ only in trailing zero bytes or
    length, or in one character, never match."""
    shuffled = random.sample(pids, len(pids))
    order = _same_pids(pids, shuffled)
    assert (order is not None) == bool(pids)
    if pids:
        assert [shuffled[i] for i in order] == pids
        other = shuffled[:-1] + [shuffled[-1] + "\x00"]
        assert _same_pids(pids, other) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", " ", "  #"]), st.dictionaries(st.integers(1, 30), st.sampled_from("甲乙丙"), max_size=3), st.sampled_from(["", " "])), max_size=6))
def test_well_formed_label_lines_are_read_at_once(specs):
    """Well-formed lines (comments, spaces, unsorted positions) take the vectorised path and
    agree with the line-by-line reading."""
    lines = [f"{lead}P{i}{space}, " + (", ".join(f"{p}, {c}" for p, c in edits.items()) or "0") for i, (lead, edits, space) in enumerate(specs)]
    for drop in (False, True):
        text = "\n".join(lines).encode()
        assert not lines or _scan_text(text, len(text), False, drop) is not None
        assert _outcome(parse_label_lines, lines, "x", False, False, None, drop) == _outcome(_parse_one_by_one, lines, "x", False, False, None, drop)


def test_comment_lines_and_a_space_before_the_pids_comma():
    pids, edits = parse_label_lines(["# note, 3, 甲", "a , 2, 乙, 1, 甲", "  #b, 1, 丙", "b, 0"], "x", pid_space_drops_chars=True)
    assert pids == ["a", "b"] and edits.groups() == [[(1, ""), (2, "")], []]
    assert parse_label_lines(["a , 2, 乙"], "x")[1].groups() == [[(2, "乙")]]


def test_a_repeated_pid_and_a_non_string_line_are_errors():
    with pytest.raises(ValueError, match=r"truth\[2\]: pid 'a' is already on truth\[0\]"):
        parse_label_lines(["a, 0", "b, 0", "a, 2, 甲"], "truth")
    with pytest.raises(ValueError, match=r"-t line 3: pid 'a' is already on line 1"):
        parse_label_lines(["a, 0", "b, 0", "a, 2, 甲"], "-t", line_numbers=True)
    with pytest.raises(ValueError, match=r"truth\[0\]: expected a label line \(str\), got int"):
        parse_label_lines([3], "truth")


def test_align_pids_reorders_and_names_what_does_not_match():
    result_pids, result = parse_label_lines(["b, 2, 乙", "a, 0", "c, 1, 甲"], "result")
    aligned = align_pids(["a", "b", "c"], result_pids, result)
    assert aligned.groups() == [[], [(2, "乙")], [(1, "甲")]]
    with pytest.raises(ValueError, match=r"result: 1 pids not in the truth: 'c'; 1 truth pids missing: 'd'"):
        align_pids(["a", "b", "d"], result_pids, result)
    with pytest.raises(ValueError, match=r"result: 1 truth pids missing: 'd'"):
        align_pids(["a", "b", "c", "d"], result_pids, result)
    # the 2013 jar reads a missing pid as "no error"
    assert align_pids(["d", "b", "a", "c"], result_pids, result, allow_missing=True).groups() == [[], [(2, "乙")], [], [(1, "甲")]]
    many = [f"p{i}" for i in range(12)]
    with pytest.raises(ValueError, match=r"12 truth pids missing: 'p0', .*'p9' and 2 more"):
        align_pids(many, [], no_edits(0))


def test_take_and_keep_select_sentences_and_edits():
    _, edits = parse_label_lines(["a, 1, 甲, 3, 的", "b, 0", "c, 2, 地"], "x")
    assert edits.take([2, 0]).groups() == [[(2, "地")], [(1, "甲"), (3, "的")]]
    assert edits.keep(edits.char != ord("的")).groups() == [[(1, "甲")], [], [(2, "地")]]
    assert edits.take([]).n == 0


edit_sets = st.lists(st.tuples(st.dictionaries(st.integers(1, 6), st.sampled_from("甲乙丙"), max_size=4), st.dictionaries(st.integers(1, 6), st.sampled_from("甲乙丙"), max_size=4)), max_size=10)


def edits_of(dicts):
    return from_pairs([i for i, d in enumerate(dicts) for _ in d], [p for d in dicts for p in d], [ord(c) for d in dicts for c in d.values()], len(dicts))


@settings(max_examples=300, deadline=None)
@given(edit_sets)
def test_match_equals_set_arithmetic(pairs):
    predicted, gold = edits_of([p for p, _ in pairs]), edits_of([g for _, g in pairs])
    m = match(predicted, gold)
    for i, (p, g) in enumerate(pairs):
        assert m.predicted[i] == len(p) and m.gold[i] == len(g)
        assert m.position_hits[i] == len(p.keys() & g.keys())
        assert m.exact_hits[i] == len(p.items() & g.items())
        assert m.chars_in_gold[i] == (set(p.values()) <= set(g.values()))
        assert m.same_positions[i] == (p.keys() == g.keys())
        assert m.same_edits[i] == (p == g)


def test_match_of_corpora_of_different_sizes_is_an_error():
    with pytest.raises(ValueError, match="differ in length: 2 against 3"):
        match(no_edits(2), no_edits(3))


def test_empty_corpus():
    predicted, gold = extract_edits([], [], [])
    assert isinstance(predicted, Edits) and predicted.n == 0
    m = match(predicted, gold)
    assert len(m.same_edits) == 0 and np.all(m.chars_in_gold)


def test_label_lines_read_in_chunks_as_at_once(monkeypatch):
    """Large inputs are read in chunks of lines: sentence numbers continue across chunks,
    and a pid repeated in another chunk is still named."""
    import paperscore.csc as csc

    lines = ["a, 2, 甲", "# note", "b, 0", "c, 3, 乙, 1, 丙", "a pid of some length, 0", "e, 4, 丁"]
    whole = _outcome(parse_label_lines, lines, "x")
    monkeypatch.setattr(csc, "_CHUNK", 12)  # bytes: a chunk ends at the first line end after 12
    assert _outcome(parse_label_lines, lines, "x") == whole
    with pytest.raises(ValueError, match=r"x\[4\]: pid 'a' is already on x\[0\]"):
        parse_label_lines(["a, 0", "b, 0", "c, 0", "a pid of some length, 0", "a, 1, 甲"], "x")


# ---------------------------------------------------------------------------------------
# The label reader at users' sizes against a plain per-line oracle (tests/csc_labels_naive.py)

# White space the jars trim (up to U+0020) and white space they keep (which then stays in
# its field: a pid holding it is another pid).
TRIMMED = ["", " ", "  ", "\t", "\x0b", "\x0c", "\x1c", "\x1f", "\x00", "\x01", " \t "]
KEPT = ["\u3000", "\xa0", "\x85", "\u2009", "\u2028", "\u200b", "\ufeff", "\u1680"]
CORRECTIONS = "甲乙丙丁的地得们园𠀋𪚥あＡ1a"  # non-BMP, kana, full-width, ASCII too


def _pid(rng, k):
    """A pid of one of many widths: short official-like, long, with a kept space or a
    non-ASCII character inside, now and then very long (tens of kilobytes)."""
    kind = rng.random()
    if kind < 0.6:
        return f"A{k % 7}-{k:05d}-{rng.randint(1, 3)}"
    if kind < 0.8:
        return f"p{k}" + "x" * rng.randint(1, 300)
    if kind < 0.998:
        return f"句{k}{rng.choice(KEPT)}{rng.choice('甲乙')}"
    return f"L{k}-" + "長" * rng.randint(10_000, 40_000)


def _diverse_lines(rng, n, positions_only=False, zeros=False):
    """n label lines as diverse as real files: every trimmed space around every field,
    comments, blank lines, `pid, 0`, up to 6 edits at positions up to MAX_POSITION in any
    order; with `zeros`, leading zeros now and then (read as numbers by the 2014/2015 jars,
    as strings by the 2013 jar)."""
    lines = []
    for k in range(n):
        roll = rng.random()
        if roll < 0.03:
            lines.append(rng.choice(["", " ", "\t", "\x00 "]))
            continue
        if roll < 0.05:
            lines.append(rng.choice(TRIMMED) + "# note, 3, 甲" + rng.choice(["", ", 2"]))
            continue
        space = lambda: rng.choice(TRIMMED)  # noqa: E731
        positions = rng.sample(range(1, 200), rng.randint(0, 6))
        if rng.random() < 0.05:
            positions[: rng.randint(0, len(positions))] = rng.sample(range(MAX_POSITION - 5, MAX_POSITION + 1), 1)
        fields = [space() + _pid(rng, k) + space()]
        for p in positions:
            text = "0" * rng.choice([0, 0, 0, 1, 3] if zeros else [0]) + str(p)
            fields.append(space() + text + space())
            if not positions_only:
                fields.append(space() + rng.choice(CORRECTIONS) + space())
        if not positions:
            fields.append(space() + "0" + space())
        lines.append(",".join(fields) + rng.choice(["", "", "\r"]))
    return lines


def _naive_outcome(lines, *args):
    try:
        pids, sentences = csc_labels_naive.read(lines, *args)
    except csc_labels_naive.Refused as refused:
        return refused.index
    return pids, [sorted(s.items()) for s in sentences]


def _batch_outcome(lines, positions_only, opaque, drop, file_path=None):
    try:
        if file_path is None:
            pids, edits = parse_label_lines(lines, "x", positions_only, False, opaque, drop)
        else:
            pids, edits = parse_label_lines(LabelFile(file_path, "-i"), "ignored", positions_only, False, opaque, drop)
    except ValueError as error:
        where = re.match(r"(?:x\[(\d+)\]|-i line (\d+)):", str(error))
        return int(where[1]) if where[1] else int(where[2]) - 1
    return pids, [sorted((p, c) for p, c in pairs) for pairs in _codes(edits)]


def _codes(edits):
    """Per sentence, its (position, char code) pairs."""
    bounds = edits.bounds().tolist()
    position, char = edits.position.tolist(), edits.char.tolist()
    return [list(zip(position[a:b], char[a:b])) for a, b in zip(bounds[:-1], bounds[1:])]


def _malformed(rng, lines):
    """The lines with one line spoilt in one of the ways users spoil them: a kept space at
    a position or a correction, a repeated pid, a position given twice or beyond
    MAX_POSITION or 0 beside others, a missing field, a line end (CR, LF) inside."""
    lines = list(lines)
    k = rng.randrange(len(lines))
    spoil = rng.choice(["kept_char", "kept_position", "repeat", "twice", "beyond", "zero", "short", "cr", "lf", "several", "empty"])
    pid = f"M{k}"
    lines[k] = {
        "kept_char": f"{pid}, 3, 甲{rng.choice(KEPT)}",
        "kept_position": f"{pid}, 3{rng.choice(KEPT)}, 甲",
        "repeat": next(line for line in lines if csc_labels_naive.trim(line)[:1] not in ("", "#")),
        "twice": f"{pid}, 3, 甲, 03, 乙",
        "beyond": f"{pid}, {MAX_POSITION + 1}, 甲",
        "zero": f"{pid}, 0, 甲",
        "short": f"{pid}, 3",
        "cr": f"{pid}, 3, 甲\r{pid}x, 0",
        "lf": f"{pid}\n{pid}x, 0",
        "several": f"{pid}, 3, 甲乙",
        "empty": f"{pid}, , 甲",
    }[spoil]
    return lines


@pytest.mark.parametrize("positions_only, opaque, drop", [(False, False, False), (True, False, False), (False, True, True), (True, True, False)])
def test_label_reader_equals_the_plain_oracle_at_users_sizes(positions_only, opaque, drop, tmp_path):
    """11,000 diverse lines (over 10,000 sentences) (2014/2015, and the 2013 subtasks: positions only, positions
    read as strings, a result's characters dropped after a spaced pid), as a list and as a
    file (a byte-order mark, CRLF): the byte scan gives the oracle's pids and edits; with
    one line spoilt, the error names the oracle's line. Then every line read alone gives
    what it gave inside the file."""
    rng = random.Random(f"{positions_only}{opaque}{drop}")
    lines = _diverse_lines(rng, 11_000, positions_only)
    naive_opaque, opaque_dict = ({} if opaque else None), ({} if opaque else None)
    expected = _naive_outcome(lines, positions_only, naive_opaque, drop)
    assert not isinstance(expected, int), f"the generated lines are well-formed (line {expected})"
    assert len(expected[0]) > 10_000 and sum(map(len, expected[1])) > 20_000
    text = "\n".join(lines).encode("utf-8")
    assert _scan_text(text, len(text), positions_only, drop) is not None  # read at once, not line by line
    assert _batch_outcome(lines, positions_only, opaque_dict, drop) == expected
    assert opaque_dict == naive_opaque
    path = tmp_path / "labels.txt"
    ends = [rng.choice(["\n", "\r\n"]) for _ in lines]
    path.write_bytes(b"\xef\xbb\xbf" + "".join(line + end for line, end in zip(lines, ends)).encode("utf-8"))
    assert _batch_outcome(None, positions_only, {} if opaque else None, drop, path) == expected
    zeros = _diverse_lines(random.Random(1), 2000, positions_only, zeros=True)  # read line by line
    assert _batch_outcome(zeros, positions_only, {} if opaque else None, drop) == _naive_outcome(zeros, positions_only, {} if opaque else None, drop)
    for _ in range(3):
        spoilt = _malformed(rng, lines)
        wrong = _naive_outcome(spoilt, positions_only, {} if opaque else None, drop)
        assert _batch_outcome(spoilt, positions_only, {} if opaque else None, drop) == wrong
    # each line alone (a sample) gives what it gave inside the file (skipped lines: nothing)
    pids, sentences = expected
    sentence_of = np.cumsum([csc_labels_naive.trim(line)[:1] not in ("", "#") for line in lines]) - 1
    for k in rng.sample(range(len(lines)), 1500):
        outcome = _batch_outcome([lines[k]], positions_only, {} if opaque else None, drop)
        inside = ([pids[sentence_of[k]]], [sentences[sentence_of[k]]]) if csc_labels_naive.trim(lines[k])[:1] not in ("", "#") else ([], [])
        if not opaque:  # (opaque codes are numbered per call)
            assert outcome == inside
        else:
            assert outcome[0] == inside[0] and [len(s) for s in outcome[1]] == [len(s) for s in inside[1]]


def test_pids_longer_than_a_block_are_hashed_and_matched_apart(monkeypatch):
    """Pids of more than _BLOCK bytes (forced small here) are hashed alone (hashlib) and
    compared as two slices: matched exactly as a dict would, a change in the last byte
    found, a repeat found; a file of them reads as the oracle reads it."""
    import paperscore.csc as csc

    monkeypatch.setattr(csc, "_BLOCK", 64)
    rng = random.Random(5)
    pids = [f"{'長' * rng.randint(1, 60)}{k}" for k in range(300)]  # 4 to 183 bytes
    shuffled = rng.sample(pids, len(pids))
    order = _same_pids(pids, shuffled)
    assert [shuffled[i] for i in order] == pids
    assert _same_pids(pids, shuffled[:-1] + [shuffled[-1][:-1] + "x"]) is None
    assert csc._pids_of(pids + [pids[7]]).repeated() and not csc._pids_of(pids).repeated()
    lines = [f"{pid}, {k % 9 + 1}, 甲" for k, pid in enumerate(pids)]
    assert _batch_outcome(lines, False, None, False) == _naive_outcome(lines)
    aligned = align_pids(pids, *parse_label_lines([lines[pids.index(pid)] for pid in shuffled], "x"))
    assert aligned.position.tolist() == [k % 9 + 1 for k in range(300)]


def test_a_long_pid_costs_memory_as_its_bytes(tmp_path):
    """Issue 22: 1,000 short lines and one 1 MB pid took 3.1 GB (every pid was stored as
    wide as the longest). Reading and matching two such files now peaks (numpy and Python
    allocations, tracemalloc) below 16 bytes per byte of the files."""
    import tracemalloc

    from paperscore.csc import label_edits

    lines = [f"P{i}, {i % 50 + 1}, 甲" for i in range(1000)] + ["Q" * (1 << 20) + ", 0"]
    paths = [tmp_path / "result.txt", tmp_path / "truth.txt"]
    paths[0].write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
    paths[1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = [LabelFile(path, flag) for path, flag in zip(paths, ("-i", "-t"))]
    tracemalloc.start()
    try:
        pids, predicted, gold = label_edits(*files)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(pids) == 1001 and (predicted.position == gold.position).all()
    assert peak < 16 * sum(len(file.data) for file in files), peak


def test_integer_widths_of_the_label_reader():
    """Pid offsets are int64 and hashes uint64 (wrapping by design); edits are int64, and a
    position up to MAX_POSITION keeps its value through the sort key sentence * 2**31 +
    position (a chunk of _CHUNK bytes holds far fewer than 2**32 lines, so the key stays
    below 2**63)."""
    import paperscore.csc as csc

    lines = [f"p{k}, {MAX_POSITION}, 甲, {MAX_POSITION - 1}, 乙" for k in range(3)]
    text = "\n".join(lines).encode()
    pids, edits = _scan_text(text, len(text), False, False)
    assert pids.starts.dtype == pids.ends.dtype == np.int64 and pids.key.dtype == np.uint64
    assert {array.dtype for array in (edits.sentence, edits.position, edits.char)} == {np.dtype(np.int64)}
    assert edits.position.tolist() == [MAX_POSITION - 1, MAX_POSITION] * 3
    assert csc._CHUNK * (MAX_POSITION + 1) < 2**63
