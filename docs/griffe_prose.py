"""Griffe extension for the API reference: the package's docstrings are prose for a
terminal reader, with Markdown only for `code`; `texts[i][j]` written outside backticks
must read as text, not as a Markdown reference link (which mkdocs would report as an
unknown cross-reference). Each `][` outside a code span gets its `[` escaped."""

import re

from griffe import Extension

CODE_OR_LINK = re.compile(r"(`+)(?:.|\n)*?\1|\]\[")


class ProseDocstrings(Extension):
    def on_instance(self, *, obj, **kwargs):
        if obj.docstring:
            obj.docstring.value = CODE_OR_LINK.sub(lambda m: "]\\[" if m[0] == "][" else m[0], obj.docstring.value)
