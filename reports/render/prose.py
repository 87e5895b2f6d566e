"""A sentence of the page as HTML: escaped as any text, save that a span between two backticks
(a command, a file, a column: `balance run ...`) shows as code, as in the guide's Markdown.
A lone backtick stays as it is: a name in a game's content may hold one."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

CODE = re.compile(r"`([^`\n]+)`")


def inline(s) -> Markup:
    """`s` escaped, each `code` span as <code>."""
    s = str(s)
    out, at = [], 0
    for m in CODE.finditer(s):
        out += [escape(s[at:m.start()]), Markup("<code>"), escape(m.group(1)), Markup("</code>")]
        at = m.end()
    out.append(escape(s[at:]))
    return Markup("").join(out)


def plain(s) -> str:
    """`s` without the backticks that mark its code spans: for an attribute (an image's alt
    text), where no markup shows."""
    return CODE.sub(r"\1", str(s))
