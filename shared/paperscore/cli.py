"""`paperscore <command> ...`: score files from the shell.

Every module of the package that defines COMMAND, HELP, add_arguments(parser) and
run(args) -> dict is a command. The options every metric shares (zero division,
bootstrap) are added here and reach run() as `args.common`, keyword arguments for the
family's compute(). Output: a readable table and the signature, or with --json the dict
that compute() returns (NaN as null).
"""

import argparse
import importlib
import json
import math
import os
import pkgutil
import sys

from . import core


def commands():
    package = importlib.import_module(__package__)
    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_") or info.name == "cli":
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        if hasattr(module, "COMMAND"):
            found[module.COMMAND] = module
    return dict(sorted(found.items()))


def _zero_division(text):
    try:
        return core.check_zero_division(text if text.lower() == "nan" else float(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_common_arguments(parser):
    parser.add_argument("--zero-division", type=_zero_division, default=0.0, help="value of a 0/0 ratio: 0, 1 or nan (default 0)")
    parser.add_argument("--confidence-level", type=float, help="add bootstrap confidence intervals at this level, e.g. 0.95")
    parser.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=int, help="bootstrap seed")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def build_parser(found):
    parser = argparse.ArgumentParser(prog="paperscore", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"paperscore {core.VERSION}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")
    for name, module in found.items():
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        if getattr(module, "COMMON_OPTIONS", True):
            add_common_arguments(command)
    return parser


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


def main(argv=None):
    found = commands()
    parser = build_parser(found)
    args = parser.parse_args(argv)
    module = found[args.command]
    if getattr(module, "COMMON_OPTIONS", True):
        args.common = dict(zero_division=args.zero_division, return_signature=True)
        if args.confidence_level is not None:
            args.common.update(confidence_level=args.confidence_level, n_resamples=args.n_resamples, seed=args.seed)
    try:
        result = module.run(args)
    except ValueError as error:
        print(f"paperscore {args.command}: error: {error}", file=sys.stderr)
        return 2
    text = json.dumps(_null_nan(result), ensure_ascii=False, indent=2) if getattr(args, "json", False) else getattr(module, "table", table)(result)
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `paperscore ... | head`: the reader has all it wanted
        sys.stdout = open(os.devnull, "w")
    return 0
