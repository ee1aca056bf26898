"""MkDocs hook: the command-line reference, written at build time from the argument parsers
that `paperscore` itself builds (shared/paperscore/cli.py), so that the page cannot drift
from `paperscore <command> --help`.

A page holding the line `<!-- cli-reference -->` gets it replaced by every command's help,
`paperscore compare <metric>` included, each under a heading of its own whose anchor is
the command (`#paperscore-quad`, `#paperscore-compare-quad`). The package is
imported from this checkout's shared/ (not from whatever version is installed).
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- cli-reference -->"
WIDTH = "100"  # argparse wraps help to the terminal's width; a fixed one keeps the page stable


def parsers(parser, depth=0, aliases=()):
    """(depth, parser, aliases) for `parser` and every subcommand below it, depth first; an
    alias (which shares its command's parser) is listed with its command, not again."""
    yield depth, parser, aliases
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            names = {}
            for name, sub in action.choices.items():
                names.setdefault(id(sub), (sub, []))[1].append(name)
            for sub, (_, *others) in names.values():
                yield from parsers(sub, depth + 1, others)


def cli_reference():
    """The reference as Markdown: each command's heading, its other names, its --help."""
    sys.path.insert(0, str(ROOT / "shared"))
    from paperscore import cli

    parser = cli.build_parser(cli.commands())
    lines = []
    former = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        for depth, command, aliases in parsers(parser):
            title = f"`{command.prog}`" + (f" (also `{'`, `'.join(aliases)}`)" if aliases else "")
            anchor = command.prog.replace(" ", "-")  # #paperscore-quad, #paperscore-compare-quad
            lines += [f"{'#' * min(depth + 2, 4)} {title} {{#{anchor}}}", "", "```text", command.format_help().rstrip(), "```", ""]
    finally:
        if former is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = former
    return "\n".join(lines)


def on_page_markdown(markdown, page, config, files):
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
