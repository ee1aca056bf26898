# GENERATED from shared/paperscore/cli.py by shared/vendor.py: do not edit here;
# edit the package and run `python shared/vendor.py`.
"""`paperscore <command> ...`: score files from the shell.

Every module of the package that defines COMMAND, HELP, add_arguments(parser) and
run(args) -> dict is a command, also under its Space and module names (`paperscore
csc_sighan` is `paperscore sighan`). The options every metric shares (zero division,
bootstrap, output) are added here and reach run() as `args.common`, keyword arguments for
the family's compute(). Output: a readable table and the signature, with --json the dict
that compute() returns (NaN as null), with -b the headline number alone. A file argument
given as `-` is standard input (one per command).

Characters the output stream cannot encode (those outside its encoding, such as Chinese
under PYTHONIOENCODING=latin-1, and under any encoding a lone surrogate, such as a label
read from the JSON escape "\\ud800") are written as escapes, never as an error: as JSON
`\\uXXXX` escapes with --json (so the JSON reads back to the same strings), as Python's
backslashreplace (`\\ud800`, `\\xe9`) in tables, help and messages.
"""

import argparse
import codecs
import difflib
import functools
import importlib
import json
import math
import os
import pkgutil
import sys
import warnings

from . import paperscore_core as core

EPILOG = """A file given as - is read from standard input (one file per command).

exit status:
  0  success
  1  bad data: a file that cannot be read or scored (the message names the file or
     argument, and the example)
  2  usage error: an unknown command or option, a missing or invalid argument"""

# The arguments that name files to read, as the families' messages name them.
FILES = {
    "key": "KEY", "response": "RESPONSE", "predictions": "--predictions", "references": "--references",
    "sources": "--sources", "result": "-i", "truth": "-t", "system_a": "--system-a", "system_b": "--system-b",
}  # fmt: skip


def commands(name=None):
    """{command: module} of every command; with `name`, of the one command answering to
    that name (command, Space or module name) if there is one, imported alone as far as
    can be (a process scoring one file need not import every family)."""
    names = list(_modules())
    if name:  # the likely modules first: the one so named, then those sharing a word with it (sighan: csc_sighan)
        words = set(name.split("_"))
        names.sort(key=lambda module: (module != name, not words & set(module.split("_"))))
    found = {}
    for module_name in names:
        module = importlib.import_module(f"{__package__}.{module_name}")
        if hasattr(module, "COMMAND"):
            if name in (module.COMMAND, *aliases(module)):
                return {module.COMMAND: module}
            found[module.COMMAND] = module
    return dict(sorted(found.items()))


@functools.cache
def _modules():
    """The package's modules that may be commands (compare looks a name up three times);
    not the evaluation-harness integrations, which import their harness (lm_eval, torch)."""
    package = importlib.import_module(__package__)
    return tuple(info.name for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith(("_", "harness")) and info.name != "cli")


def aliases(module):
    """The other names of a command: its Space's and its module's."""
    names = (getattr(module, "SPACE", module.COMMAND), module.__name__.rsplit(".", 1)[-1])
    return [name for name in dict.fromkeys(names) if name != module.COMMAND]


def _parsed(text, convert, check=None):
    """`text` read by `convert` and accepted by `check`; their ValueError is a usage error."""
    try:
        value = convert(text)
        return check(value) if check else value
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _zero_division(text):
    return _parsed(text, lambda t: t if t.lower() == "nan" else float(t), core.check_zero_division)


def _confidence_level(text):
    return _parsed(text, float, lambda value: core.check_bootstrap(value, 1) or value)


def _n_resamples(text):
    return _parsed(text, int, lambda value: core.check_bootstrap(0.5, value) or value)


def add_common_arguments(parser, zero_division=True):
    if zero_division:
        parser.add_argument("--zero-division", type=_zero_division, default=0.0, help="value of a 0/0 ratio: 0, 1 or nan (default 0)")
    parser.add_argument("--confidence-level", type=_confidence_level, help="add bootstrap confidence intervals at this level, e.g. 0.95 (default: none)")
    parser.add_argument("--n-resamples", type=_n_resamples, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=int, help="bootstrap seed (default: a fresh one each run)")
    add_output_arguments(parser)


def add_output_arguments(parser):
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the result as JSON")
    output.add_argument("-b", "--score-only", action="store_true", help="print only the headline number (--metric-key; compare: the p-value), for scripts")


def _state_defaults(parser):
    """Every option's help ends with its default, unless the family's text already says it."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in set(action.choices.values()):  # an alias shares its command's parser
                _state_defaults(command)
        elif action.help and action.default not in (None, False, argparse.SUPPRESS) and "default" not in action.help:
            action.help += " (default %(default)s)"


def build_parser(found, argv=()):
    parser = argparse.ArgumentParser(prog="paperscore", description=__doc__.split("\n")[0], epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"paperscore {core.VERSION}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")
    for name, module in found.items():
        command = sub.add_parser(name, aliases=aliases(module), help=module.HELP, description=module.HELP, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
        command.set_defaults(module=module, command_parser=command)
        module.add_arguments(command, *([argv[1:]] if getattr(module, "TAKES_ARGV", False) else []))
        if getattr(module, "COMMON_OPTIONS", True):
            add_common_arguments(command)
            headline = f"default {module.headline()}" if hasattr(module, "headline") else "default: the headline"
            command.add_argument("--metric-key", help=f"the number -b prints ({headline}, as `paperscore compare` compares)")
    _state_defaults(parser)
    return parser


def score_key(module, args):
    """The key of the number --score-only prints."""
    if not hasattr(module, "headline"):  # compare: is B better? its p-value
        return "p_value"
    return args.metric_key or module.headline(**module.options(args))


def _cell(value):
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.6f}"
    return str(value)


def _rows(header, rows):
    widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
    return [
        "  ".join(str(cell).ljust(width) if i == 0 else str(cell).rjust(width) for i, (cell, width) in enumerate(zip(row, widths)))
        for row in [header] + rows
    ]


def table(result):
    """A plain-text rendering of a compute() result: the numbers, then any per-class /
    per-item tables and matrices, then the signature."""
    lines = _rows(["metric", "value"], [[k, _cell(v)] for k, v in result.items() if isinstance(v, (int, float))])
    for key, value in result.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            columns = list(next(iter(value.values())))
            lines += ["", key] + _rows([""] + columns, [[label] + [_cell(row[c]) for c in columns] for label, row in value.items()])
        elif key == "confusion_matrix" and "labels" in result:
            names = [str(label) for label in result["labels"]]
            lines += ["", "confusion_matrix (rows: references, columns: predictions)"]
            lines += _rows([""] + names, [[name] + row for name, row in zip(names, value)])
        elif isinstance(value, (list, dict)) and key != "labels":
            lines += ["", f"{key}: {json.dumps(value, ensure_ascii=False)}"]
    if "signature" in result:
        lines += ["", f"signature: {result['signature']}"]
    return "\n".join(lines)


def _null_nan(value):
    """NaN (zero_division="nan") as null: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: _null_nan(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_null_nan(item) for item in value]
    return value


def _json_escape(error):
    """Codec error handler: each character the stream cannot encode as a JSON \\uXXXX
    escape (a character beyond U+FFFF as its surrogate pair, as JSON writes it)."""
    escapes = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            escapes.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            escapes.append(f"\\u{code:04x}")
    return "".join(escapes), error.end


codecs.register_error("paperscore_json", _json_escape)


def _escaping(stream, errors):
    """Make `stream` escape what it cannot encode (see the module's docstring); return its
    former error handler, or None if it cannot be told (it then encodes everything)."""
    if not hasattr(stream, "reconfigure"):
        return None
    former = stream.errors
    stream.reconfigure(errors=errors)
    return former


def main(argv=None):
    """Run one command; return the exit status (see EPILOG). Output is escaped, never an
    encoding error (see the module's docstring)."""
    argv = sys.argv[1:] if argv is None else argv
    streams = {stream: _escaping(stream, "backslashreplace") for stream in dict.fromkeys((sys.stdout, sys.stderr))}
    try:
        return _main(argv)
    finally:  # as they were, unless a closed pipe replaced them
        for stream, errors in streams.items():
            if errors is not None and stream in (sys.stdout, sys.stderr):
                stream.reconfigure(errors=errors)


def _unknown_command(argv, found):
    """The usage error for a first word that names no command, with the names it is close
    to (a typo), or None."""
    names = [name for command, module in found.items() for name in (command, *aliases(module))]
    if not argv or argv[0].startswith("-") or argv[0] in names:
        return None
    close = difflib.get_close_matches(argv[0], names, n=3, cutoff=0.6)
    return f"unknown command {argv[0]!r}" + (f"; did you mean {' or '.join(close)}?" if close else "") + f" (commands: {', '.join(found)})"


def _unknown_options(extra, module):
    """The usage error for options the command does not take, with what to do instead of
    those evaluate's f1 and sklearn users pass out of habit (--average: the Space's advice)."""
    from .paperscore_space import HABITS

    habits = {**HABITS, **getattr(module, "HABITS", {})}
    options = [word.lstrip("-").split("=")[0].replace("-", "_") for word in extra if word.startswith("--")]
    return f"unrecognized arguments: {' '.join(extra)}" + "".join(f"; --{option.replace('_', '-')}: {habits[option]}" for option in options if option in habits)


def _main(argv):
    found = commands(argv[0] if argv else None)
    parser = build_parser(found, argv)
    try:
        unknown = _unknown_command(argv, found)
        if unknown:
            parser.error(unknown)
        args, extra = parser.parse_known_args(argv)
        if extra:
            args.command_parser.error(_unknown_options(extra, args.module))
    except SystemExit as done:  # --help and --version (0), or a usage error (2), printed
        return done.code
    module, name = args.module, f"paperscore {args.command}"
    if getattr(module, "COMMON_OPTIONS", True):
        args.common = dict(zero_division=args.zero_division, return_signature=True)
        if args.confidence_level is not None:
            args.common.update(confidence_level=args.confidence_level, n_resamples=args.n_resamples, seed=args.seed)
    caught = []
    try:
        core.check_stdin_once(*((flag, getattr(args, dest)) for dest, flag in FILES.items() if getattr(args, dest, None)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = module.run(args)
    except ValueError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
        return 1
    except (RecursionError, OverflowError) as error:  # the last line of defence: no traceback for bad data
        problem = "the input is nested too deeply" if isinstance(error, RecursionError) else "a number in the input is out of range"
        print(f"{name}: error: {problem} ({error})", file=sys.stderr)
        return 1
    finally:
        for warning in caught:  # one line each, in the form of the error messages
            print(f"{name}: warning: {warning.message}", file=sys.stderr)
    if args.score_only:
        key = score_key(module, args)
        numbers = [k for k, v in result.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if key not in numbers:
            print(f"{name}: error: --metric-key: {key!r} is not one of {', '.join(numbers)}", file=sys.stderr)
            return 2
        text = repr(result[key])
    elif args.json:
        text = json.dumps(_null_nan(result), ensure_ascii=False, indent=2)
        _escaping(sys.stdout, "paperscore_json")
    else:
        text = getattr(module, "table", table)(result)
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `paperscore ... | head`: the reader has all it wanted
        sys.stdout = open(os.devnull, "w")
    return 0
