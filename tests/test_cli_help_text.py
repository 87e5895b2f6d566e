"""Every option's and command's help reaches the terminal whole. The CLI's help is drawn with
rich's markup, which takes a bracketed word ("[rules]") for a style and drops it without a
trace: `balance tune --help` once read "a rule field (as in ), ..."."""

from __future__ import annotations

import re

from balance.docs import gen_cli

SWALLOWED = re.compile(r"\[[A-Za-z/#][^\]\n]*\]")


def _helps():
    for name, cmd in gen_cli.commands().items():
        for sub in ([cmd] if not hasattr(cmd, "commands") else list(cmd.commands.values())):
            yield name, sub.help or ""
            for p in gen_cli._params(sub):
                yield f"{name} {p.name}", getattr(p, "help", None) or ""


def test_no_help_text_holds_what_rich_would_take_for_markup():
    bad = [(where, m.group()) for where, text in _helps() for m in SWALLOWED.finditer(text)]
    assert not bad


def test_the_check_catches_a_bracketed_word():
    assert SWALLOWED.search("a rule field (as in [rules])")
    assert not SWALLOWED.search("a rate as a percentage (win=50%)")
