# GENERATED from shared/paperscore/core.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""What every metric family shares: ratios under one zero-division policy, bootstrap
confidence intervals over per-example statistics, the reproducibility signature, input
errors, and the line readers of the command line.

Imports only numpy, so that `import paperscore` stays fast and every Space can vendor it.
"""

import json
import math
import re
import sys
import time
from collections.abc import Sequence

import numpy as np

VERSION = "0.1.0"

# ---------------------------------------------------------------------------------------
# Input errors


def input_error(argument, index, problem):
    """The one shape of a bad-input error: `references[17]: unclosed mention ...`."""
    where = argument if index is None else f"{argument}[{index}]"
    return ValueError(f"{where}: {problem}")


def position(flat_index, lengths):
    """Where an index into concatenated examples falls, as input_error's index:
    "example][position" (`predictions[3][7]`), or the index itself when `lengths` is None
    (one value per example)."""
    if lengths is None:
        return int(flat_index)
    ends = np.cumsum(lengths)
    example = int(np.searchsorted(ends, flat_index, side="right"))
    return f"{example}][{int(flat_index) - (int(ends[example - 1]) if example else 0)}"


def from_tensor(value):
    """A torch tensor (any device) as a numpy array, a 0-d one as a numpy scalar; any
    other value unchanged. bfloat16 has no numpy dtype: upcast to float32, as
    transformers does. Duck-typed: torch is never imported."""
    if not (hasattr(value, "detach") and hasattr(value, "cpu") and hasattr(value, "numpy")):
        return value
    value = value.detach().cpu()
    if str(value.dtype) == "torch.bfloat16":
        value = value.float()
    array = value.numpy()
    return array[()] if array.ndim == 0 else array


def as_corpus(values, argument):
    """A corpus as every compute() takes it: a list, tuple or numpy array with one item per
    example. A torch tensor, or a list holding tensors, becomes numpy (the dtype kept, so a
    float tensor of labels is still refused as floats); a pandas Series its array. A bare
    string, a number, None, a set, a dict or an iterator is an error, not a corpus: a
    string would be scored one character per example. Any other sequence (a datasets
    Column, as evaluate's evaluator passes) becomes a list."""
    values = from_tensor(values)
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):  # pandas
        values = values.to_numpy()
    if isinstance(values, np.ndarray):
        if values.ndim == 0:
            raise input_error(argument, None, f"expected a list of examples, got a single {values.dtype} value")
        return values
    if isinstance(values, (str, bytes)):
        raise input_error(argument, None, f"expected a list of examples, got a {type(values).__name__} (to score one example, pass [{short_repr(values)}])")
    if not isinstance(values, (list, tuple)):
        if not isinstance(values, Sequence):
            raise input_error(argument, None, f"expected a list of examples, got {type(values).__name__}")
        values = list(values)  # a datasets Column (what evaluate's evaluator passes), a range
    if any(hasattr(t, "detach") for t in set(map(type, values))):
        values = [from_tensor(value) for value in values]
    return values


def short_repr(value, width=20):
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


INT64 = (-(2**63), 2**63 - 1)  # what evaluate's int feature (and numpy's int64) holds


def check_flags(**flags):
    """Each of these options is True or False (a tensor or an array is neither)."""
    for argument, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{argument}: expected True or False, got {type(value).__name__} {short_repr(value)}")


def check_choice(argument, value, choices):
    """`value` if it is one of `choices` (of the same type: 1 is not True, and an array or a
    list is refused with this message, not numpy's or a TypeError)."""
    if not any(_is_choice(value, choice) for choice in choices):
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{argument}: {short_repr(value, 60)} is not one of {listed}")
    return value


def _is_choice(value, choice):
    if choice is None or isinstance(choice, bool):
        return value is choice or (isinstance(value, np.bool_) and isinstance(choice, bool) and bool(value) is choice)
    return isinstance(value, type(choice)) and not isinstance(value, (bool, np.bool_)) and value == choice


def check_same_length(predictions, references, names=("predictions", "references")):
    if len(predictions) != len(references):
        raise ValueError(
            f"{names[0]} and {names[1]} differ in length: "
            f"{len(predictions)} against {len(references)} examples"
        )


# ---------------------------------------------------------------------------------------
# Ratios

ZERO_DIVISION_CHOICES = (0.0, 1.0, "nan")


def check_zero_division(zero_division):
    """Return the value a 0/0 ratio takes: 0.0, 1.0 or nan (given as "nan" or float nan)."""
    if isinstance(zero_division, str):
        if zero_division.lower() == "nan":
            return math.nan
    elif isinstance(zero_division, (int, float, np.integer, np.floating)) and not isinstance(zero_division, bool):
        # compared before isnan: an int beyond a float's range (10**400) is no float
        if zero_division in (0, 1) or (isinstance(zero_division, (float, np.floating)) and math.isnan(zero_division)):
            return float(zero_division)
    raise ValueError(f"zero_division: {short_repr(zero_division, 40)} is not one of 0.0, 1.0, 'nan'")


def divide(numerator, denominator, zero_division=0.0):
    """numerator / denominator elementwise; where the denominator is 0 the result is the
    zero-division value. Scalars in, float out; arrays in, float array out."""
    value = check_zero_division(zero_division)
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    empty = den == 0
    out = num / np.where(empty, 1.0, den)
    out = np.where(empty, value, out)
    return float(out) if out.ndim == 0 else out


def prf(tp, n_predicted, n_gold, zero_division=0.0):
    """Precision, recall and F1 from counts, with sklearn's rule for F1:
    F1 = 2 tp / (n_predicted + n_gold), taking the zero-division value only when both
    counts are 0 (so an undefined precision beside a recall of 0 still gives F1 = 0)."""
    tp = np.asarray(tp, dtype=float)
    precision = divide(tp, n_predicted, zero_division)
    recall = divide(tp, n_gold, zero_division)
    f1 = divide(2 * tp, np.add(n_predicted, n_gold), zero_division)
    return precision, recall, f1


def harmonic_mean(precision, recall):
    """F1 from precision and recall as the Perl and Java reference tools compute it:
    2PR / (P + R), 0 when P + R = 0; a NaN on either side gives NaN."""
    p = np.asarray(precision, dtype=float)
    r = np.asarray(recall, dtype=float)
    total = p + r
    out = np.where(total == 0, 0.0, 2 * p * r / np.where(total == 0, 1.0, total))
    return float(out) if out.ndim == 0 else out


def as_floats(result):
    """numpy scalars and 0-d arrays to Python floats, leaving other values alone."""
    return {
        key: float(value) if isinstance(value, (float, np.floating, np.ndarray)) else value
        for key, value in result.items()
    }


# ---------------------------------------------------------------------------------------
# Bootstrap

BOOTSTRAP_CELLS = 4_000_000  # draws held in memory at once


def encode_rows(stats):
    """(distinct rows, each example's row code) of an (n_examples, k) statistics array.
    Rows are compared bytewise, so identical rows holding NaN share a code too."""
    stats = np.ascontiguousarray(stats, dtype=float)
    if stats.ndim != 2:
        raise ValueError("per-example statistics must be a 2-d array")
    if len(stats) == 0:
        return stats, np.zeros(0, dtype=np.int64)
    keys = stats.view(np.dtype((np.void, stats.itemsize * stats.shape[1]))).ravel()
    _, first, codes = np.unique(keys, return_index=True, return_inverse=True)
    return stats[first], codes.ravel()


def dense_codes(values, size):
    """(distinct values, each value's rank among them) for ints in [0, size): np.unique
    with return_inverse, by counting instead of sorting when `size` is small."""
    values = np.asarray(values, dtype=np.int64)
    if size > max(4 * len(values), 1 << 16):
        distinct, codes = np.unique(values, return_inverse=True)
        return distinct, codes.ravel()
    present = np.bincount(values, minlength=size) > 0
    return np.flatnonzero(present), (np.cumsum(present) - 1)[values]


def isin(values, members):
    """np.isin(values, members) for integers, by a binary search of the sorted members:
    numpy >= 2.3's np.isin, when it sorts, takes a plain np.unique, which imports numpy.ma
    (11 ms of a tiny file's first result)."""
    values, members = np.asarray(values), np.sort(members)
    if not len(members):
        return np.zeros(values.shape, dtype=bool)
    return members[np.searchsorted(members, values).clip(max=len(members) - 1)] == values


def compress_rows(stats):
    """Distinct rows of an (n_examples, k) statistics array and how many examples share
    each: resampling then costs O(distinct rows), not O(examples)."""
    table, codes = encode_rows(stats)
    return table, np.bincount(codes, minlength=len(table))


MAX_RESAMPLES = 1_000_000  # more is minutes of work for no visible change in an interval


def check_bootstrap(confidence_level, n_resamples, seed=None):
    check_seed(seed)
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float)) or not 0 < confidence_level < 1:
        raise ValueError(f"confidence_level: {short_repr(confidence_level, 60)} is not strictly between 0 and 1")
    if isinstance(n_resamples, (bool, np.bool_)) or not isinstance(n_resamples, (int, np.integer)) or not 1 <= n_resamples <= MAX_RESAMPLES:
        raise ValueError(f"n_resamples: {short_repr(n_resamples, 60)} is not an integer from 1 to {MAX_RESAMPLES:,}")


def check_seed(seed):
    """None or a non-negative int: numpy would take a list or an array too (and refuse a
    negative int or a string in words that name no argument)."""
    if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed: {short_repr(seed, 60)} is not a non-negative integer (nor None)")


def resample_weights(counts, size, rng):
    """How often each row is drawn in each of `size` resamples: a (size, len(counts)) array.

    counts[i] examples share row i. Drawing n examples with replacement is a multinomial
    over the rows with probabilities counts / n; when rows are nearly as many as the
    examples, drawing example indices and counting them is cheaper."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        return np.zeros((size, len(counts)))
    if _multinomial(counts):
        return rng.multinomial(n, counts / n, size=size).astype(float)
    owner = np.repeat(np.arange(len(counts)), counts)
    drawn = owner[rng.integers(0, n, size=(size, n))] + (np.arange(size) * len(counts))[:, None]
    return np.bincount(drawn.ravel(), minlength=size * len(counts)).reshape(size, len(counts)).astype(float)


def _multinomial(counts):
    return len(counts) * 4 <= counts.sum()


def resample_chunks(counts, n_resamples, rng):
    """resample_weights in chunks that keep about BOOTSTRAP_CELLS draws in memory."""
    counts = np.asarray(counts, dtype=np.int64)
    width = len(counts) if _multinomial(counts) else int(counts.sum())
    chunk = max(1, BOOTSTRAP_CELLS // max(width, 1))
    for start in range(0, n_resamples, chunk):
        yield resample_weights(counts, min(chunk, n_resamples - start), rng)


def percentile_interval(values, confidence_level):
    """Percentile interval of resampled values, NaN resamples (zero_division="nan") left out.
    The numbers of np.nanquantile's default (linear) method, computed here because
    np.nanquantile imports numpy.ma, a third of `import numpy`'s time again."""
    values = np.asarray(values, dtype=float)
    ordered = np.sort(values[~np.isnan(values)])
    if not len(ordered):
        return math.nan, math.nan
    tail = (1 - confidence_level) / 2
    return _linear_quantile(ordered, tail), _linear_quantile(ordered, 1 - tail)


def _linear_quantile(ordered, q):
    """The q-quantile of sorted values as numpy's "linear" method (Hyndman and Fan's type
    7) computes it, operation for operation: the value at index (n - 1) * q, interpolated
    from the nearer neighbour (numpy's _lerp), so that the bits agree."""
    index = (len(ordered) - 1) * q
    below = math.floor(index)
    if below >= len(ordered) - 1:
        return float(ordered[-1])
    a, b = float(ordered[below]), float(ordered[below + 1])
    t = index - below
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def bootstrap_intervals(counts, reduce, confidence_level=0.95, n_resamples=1000, seed=None):
    """Percentile bootstrap over examples.

    counts: how many examples share each distinct row of per-example statistics.
    reduce: maps resample weights of shape (r, len(counts)) to a dict of metric arrays of
    shape (r,); a family with a rows matrix passes `lambda w: ratios(w @ rows)`.
    Returns {key + "_low": float, key + "_high": float} for every key of `reduce`."""
    check_bootstrap(confidence_level, n_resamples, seed)
    rng = np.random.default_rng(seed)
    collected = {}
    for weights in resample_chunks(counts, n_resamples, rng):
        for key, values in reduce(weights).items():
            collected.setdefault(key, []).append(np.asarray(values, dtype=float))
    out = {}
    for key, parts in collected.items():
        out[f"{key}_low"], out[f"{key}_high"] = percentile_interval(np.concatenate(parts), confidence_level)
    return out


# ---------------------------------------------------------------------------------------
# Reproducibility signature


# The words the signature writes for values that are not strings (None, booleans, floats).
_SIGNATURE_WORDS = {"none", "yes", "no", "nan", "inf", "-inf"}


def _signature_value(value):
    """None as `none` (not given), booleans as yes/no, numbers as they print, a list as its
    items joined by commas; a string as it is, unless it could be misread: empty, holding a
    character the signature uses (| , : " or white space), or one of the words above in any
    case (MAVEN's label "None" is `"None"`, never `none`), which is written as JSON."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(_signature_value(v) for v in value)
    text = str(value)
    if isinstance(value, str) and (not text or text.lower() in _SIGNATURE_WORDS or re.search(r'[|,:"\s]', text)):
        return json.dumps(text, ensure_ascii=False)
    return text


def bootstrap_options(confidence_level, n_resamples, seed):
    """The signature's record of a bootstrap: {} when there was none."""
    return {"bootstrap": f"{n_resamples}@{confidence_level:g}", "seed": seed} if confidence_level is not None else {}


def signature(metric, **options):
    """`metric|key:value|...|paperscore:VERSION`, as sacrebleu signs its scores: enough
    to tell which convention and options produced a number."""
    parts = [metric] + [f"{key}:{_signature_value(value)}" for key, value in options.items()]
    return "|".join(parts + [f"paperscore:{VERSION}"])


def with_references(text, references):
    """A signature naming the test set: `refs:` and the references' fingerprint before
    the version, so that two numbers computed on different copies of "the same" test set
    do not carry the same signature."""
    head, version = text.rsplit("|paperscore:", 1)
    return f"{head}|refs:{fingerprint(references)}|paperscore:{version}"


# ---------------------------------------------------------------------------------------
# Reading the command line's files


STDIN = "-"
BOM = b"\xef\xbb\xbf"


def read_bytes(path, argument):
    """The bytes of a file, or of standard input when `path` is "-", without a leading
    UTF-8 byte-order mark (an editor's, which would otherwise stick to the first value).
    Every file the command line reads goes through here."""
    try:
        if str(path) == STDIN:
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as error:
        raise ValueError(f"{argument}: cannot read {path}: {error.strerror}") from None
    return data[len(BOM):] if data.startswith(BOM) else data


def read_text(path, argument):
    """read_bytes decoded as UTF-8; another encoding (GBK, say) is an error naming the file."""
    return decode(read_bytes(path, argument), path, argument)


def decode(data, path, argument):
    """The text of a file's bytes (read_bytes); not UTF-8 is an error naming the file."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        where = "standard input" if str(path) == STDIN else path
        raise ValueError(f"{argument}: {where} is not UTF-8 (byte {error.start}: {error.reason})") from None


def check_stdin_once(*paths):
    """Standard input can be read once: refuse "-" for two files of one command."""
    flags = [flag for flag, path in paths if str(path) == STDIN]
    if len(flags) > 1:
        raise ValueError(f"{' and '.join(flags)}: only one file can be read from standard input (-)")


def read_lines(path, argument, allow_empty=False):
    """The lines of a UTF-8 text file (read_text) without their line ends (see split_lines)."""
    return split_lines(read_text(path, argument), path, argument, allow_empty)


def split_lines(text, path, argument, allow_empty=False):
    """The lines of a file's text without their line ends. A final line end is optional;
    an empty line anywhere else is an error naming its line number, unless `allow_empty`
    (where an empty line is a valid example, such as "no quads")."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if not allow_empty:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                raise ValueError(f"{argument}: {path} line {number} is empty")
    return lines


NESTED_TOO_DEEP = "JSON nested too deeply"  # for Python's reader: a RecursionError
JSON_SPACE = " \t\r\n"  # white space to JSON; str.strip() would also remove U+2028, U+0085


def read_json_values(path, argument, objects=False):
    """The values of a file that is one JSON array; otherwise of its JSON lines, one value a
    line (lines of JSON white space skipped), split on "\n" only: U+2028 or U+0085 may stand
    inside a JSON string. A value that is not JSON is an error naming the file and line.
    With `objects`, the whole file is one array only if every item is a JSON object: a file
    of one line of BIO tags is one record, not a list of tags."""
    text = read_text(path, argument)
    try:
        values = load_json(text, f"{argument}: {path}") if text.lstrip().startswith("[") else None
    except ValueError:  # JSON lines whose first line is an array
        values = None
    if isinstance(values, list) and (not objects or all(isinstance(value, dict) for value in values)):
        return values
    lines = split_lines(text, path, argument, allow_empty=True)
    return [load_json(line, f"{argument}: {path} line {number}") for number, line in enumerate(lines, 1) if line.strip(JSON_SPACE)]


def load_json(text, where):
    """Strict JSON: text that is not JSON, or is nested too deep to read, is a ValueError
    naming `where`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{where}: not JSON ({error.msg}, column {error.colno})") from None
    except RecursionError:
        raise ValueError(f"{where}: {NESTED_TOO_DEEP}") from None


def parse_value(text):
    """A JSON value (number, string, list, object) or, when the text is not JSON, the
    text itself without surrounding white space. JSON nested too deep to read is a
    ValueError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()
    except RecursionError:
        raise ValueError(NESTED_TOO_DEEP) from None


def read_values(path, argument):
    """One value per line, each read by parse_value; an unreadable line is an error naming it."""
    values = []
    for number, line in enumerate(read_lines(path, argument), 1):
        try:
            values.append(parse_value(line))
        except ValueError as error:
            raise ValueError(f"{argument}: {path} line {number}: {error}") from None
    return values


def compared_files(args):
    """(input name, path, flag) of the three files `paperscore compare` reads."""
    return (("references", args.references, "--references"), ("system_a", args.system_a, "--system-a"), ("system_b", args.system_b, "--system-b"))


def split_values(text):
    """A comma-separated command-line list, each item read by parse_value (None stays None)."""
    return None if text is None else [parse_value(item) for item in text.split(",")]


def progress(items, total, label, stream=None, min_seconds=1.0):
    """Yield `items`, drawing a progress bar on stderr once the run has taken longer than
    `min_seconds` (short runs print nothing)."""
    stream = stream or sys.stderr
    start = time.monotonic()
    drawn = False
    for done, item in enumerate(items, 1):
        yield item
        if time.monotonic() - start >= min_seconds and (done % 16 == 0 or done == total):
            filled = int(30 * done / max(total, 1))
            stream.write(f"\r{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
            stream.flush()
            drawn = True
    if drawn:
        stream.write("\n")


# ---------------------------------------------------------------------------------------
# The references a number was computed on


def fingerprint(references):
    """A short name (16 hex digits) for the references a number was computed on.

    Defined over the references as a metric reads them, the value compute() takes: a list
    (tuple, numpy array, tensor, pandas Series, datasets Column) of examples, or one text
    (a whole CoNLL file). Each string is normalised as the command line's readers normalise
    a file: a leading byte-order mark (U+FEFF) dropped, CRLF read as LF, and the string's
    trailing line ends and blank lines (lines of white space only) dropped; every other
    character counts. The normalised value is written as canonical JSON (keys sorted, no
    spaces, non-ASCII as is, lists and tuples alike, numbers as JSON writes Python's: 1
    and 1.0 and True differ) and hashed with SHA-256; a flat list of integers (labels,
    within 64 bits) is hashed as b"int64:" and their 8-byte little-endian values instead,
    which is the same for a list, an array or a tensor and costs no text. So a BOM, CRLF or trailing blank
    lines change nothing, any other character changes the fingerprint; the same data in
    another form (one text against the list of its documents, labels as strings against
    ints) has another fingerprint. Dict keys must be strings; a set, bytes or any other
    object is a ValueError naming where it is."""
    references = from_tensor(references)
    if callable(getattr(references, "canonical", None)):  # a file the command line read
        references = references.canonical()
    if hasattr(references, "to_numpy") and not isinstance(references, np.ndarray):  # pandas
        references = references.to_numpy()
    if not isinstance(references, (str, list, tuple, dict, np.ndarray)) and hasattr(references, "__len__") and hasattr(references, "__getitem__"):
        references = list(references)  # a datasets Column
    labels = _int_labels(references)
    if labels is not None:
        return _sha256(b"int64:", labels.astype("<i8", copy=False).data).hexdigest()[:16]
    value = _canonical(references, "references")
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return _sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _int_labels(references):
    """references as a flat int64 array when they are a flat list (or array) of integers
    within 64 bits (not booleans), else None."""
    if isinstance(references, np.ndarray):
        return references.astype(np.int64) if references.ndim == 1 and references.dtype.kind in "iu" and (references.dtype.kind == "i" or references.max(initial=0) <= INT64[1]) else None
    if isinstance(references, (list, tuple)) and references and set(map(type, references)) <= {int, np.int64}:
        try:
            return np.asarray(references, dtype=np.int64)
        except OverflowError:
            return None
    return None


def example_checks(references):
    """A 32-bit check (CRC-32 of its canonical form, as fingerprint reads it) of each
    reference, in order: two states kept with keep_rows are compared only if their
    references' checks are equal (a state cannot keep the references themselves)."""
    import zlib

    references = from_tensor(references)
    if callable(getattr(references, "canonical", None)):
        references = references.canonical()
    out = []
    for index, reference in enumerate(references):
        value = _canonical(reference, f"references[{index}]")
        data = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=True)
        out.append(zlib.crc32(data.encode("utf-8", "surrogatepass")))
    return np.array(out, dtype=np.int64)


def _sha256(*parts):
    """hashlib.sha256 of the parts, from CPython's builtin module for small inputs: hashlib
    imports OpenSSL's (4 ms of every command's first result, which signs it), which hashes
    large inputs 4x faster."""
    if sum(map(len, parts)) > 1 << 20:
        from hashlib import sha256
    else:
        try:
            from _sha256 import sha256  # CPython 3.11's builtin (3.12 renamed it: hashlib's then)
        except ImportError:
            from hashlib import sha256
    digest = sha256()
    for part in parts:
        digest.update(part)
    return digest


_TRAILING_BLANK = re.compile(r"(?:\n[^\S\n]*)+\Z")


def _canonical(value, where):
    value = from_tensor(value)
    if callable(getattr(value, "canonical", None)):  # a file the command line read (csc.LabelFile, micro_macro.Coded)
        return _canonical(value.canonical(), where)
    if isinstance(value, str):
        value = value.removeprefix("\ufeff").replace("\r\n", "\n")
        return _TRAILING_BLANK.sub("", value)
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biuf":  # Python's bools, ints and floats: canonical already
            return value.tolist()
        value = value.tolist()
        if not isinstance(value, list):  # a 0-d array
            return _canonical(value, where)
    if isinstance(value, (list, tuple)):
        kinds = set(map(type, value))
        if kinds <= {int} or kinds <= {float}:  # labels: canonical already (a bool is not an int here)
            return list(value)
        if kinds <= {str}:
            joined = "\x00".join(value)  # one scan: nothing a string's normalisation would change
            if "\r" not in joined and "\n" not in joined and "\ufeff" not in joined:
                return list(value)
        return [_canonical(item, f"{where}[{index}]") for index, item in enumerate(value)]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ValueError(f"{where}: a dict key {short_repr(key)} is not a string")
        return {key: _canonical(item, f"{where}[{key!r}]") for key, item in value.items()}
    raise ValueError(f"{where}: a {type(value).__name__} is not something a metric reads (texts, numbers, lists, dicts)")


# The public copies of test sets this project can read, by the fingerprint of what a metric
# reads from them: label lines as read_lines gives them (`paperscore sighan -t`, a
# LabelFile's lines()), corrected sentences as csc.apply_edits makes them from the test
# input and its truth; "simplified": each line or sentence through OpenCC's t2s (opencc
# 1.4.2). tests/test_significance.py computes each one from the files.
_SIGHAN15 = "SIGHAN 2015 CSC test set (sighan8csc_release1.0 Test/, 1,100 sentences"
_SIGHAN13 = "SIGHAN 2013 CSC subtask 2 final test (sighan7csc_release1.0 FinalTest/, 1,000 sentences"
KNOWN_REFERENCES = {
    "eb5cd622e864e8f2": f"{_SIGHAN15}): the truth label lines, traditional",
    "950053cb970313db": f"{_SIGHAN15}): the truth label lines, simplified (OpenCC t2s)",
    "1e7b1901b2594132": f"{_SIGHAN15}): the corrected sentences, traditional",
    "68111f6633c57a31": f"{_SIGHAN15}): the corrected sentences, simplified (OpenCC t2s)",
    "b6d868c7fc5a13c3": f"{_SIGHAN13}): the truth label lines, traditional",
    "de9354c9a9138d0e": f"{_SIGHAN13}): the truth label lines, simplified (OpenCC t2s)",
}


def known_copy(fingerprint_value):
    """The name of the public copy of a test set whose references have this fingerprint, or None."""
    return KNOWN_REFERENCES.get(fingerprint_value)
