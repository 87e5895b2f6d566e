"""The page's sentences show a `code` span (a command to run, a file) as code, not with its
backticks, wherever a section says it: intro, method, a missing note, a block's paragraphs, a
verdict, a caption, a table's note, a folded list. Everything else is escaped as before."""

from __future__ import annotations

from reports.outcomes.findings import Verdict
from reports.page.page import render
from reports.render import prose
from reports.render.section import Block, Figure, Section, Table

SAID = "Run `balance run a<b>.toml` for <it> & more"
SHOWN = "Run <code>balance run a&lt;b&gt;.toml</code> for &lt;it&gt; &amp; more"


def test_a_code_span_is_code_and_the_rest_escaped():
    assert str(prose.inline(SAID)) == SHOWN
    assert str(prose.inline("a lone ` stays")) == "a lone ` stays"
    assert str(prose.inline("`a` and `b`")) == "<code>a</code> and <code>b</code>"
    assert prose.plain(SAID) == "Run balance run a<b>.toml for <it> & more"


def test_every_sentence_of_a_section_shows_its_code():
    places = ["intro", "method", "missing", "paragraph", "verdict", "detail", "caption", "note",
              "item"]
    said = {p: SAID.replace("for", f"for {p}") for p in places}
    verdict = Verdict("T", said["verdict"], "p players", [said["detail"]])
    block = Block("B", paragraphs=[said["paragraph"]], verdicts=[verdict],
                  figures=[Figure("f.png", said["caption"], b"\x89PNG")],
                  tables=[Table("t", ["h"], [["1"]], note=said["note"])],
                  items=("more", [said["item"]]))
    page = render([Section("s", "S", intro=[said["intro"]], method=[said["method"]],
                           missing=[said["missing"]], blocks=[block])], "title")
    assert "`" not in page.replace('alt="', "")
    for p in places:
        assert SHOWN.replace("for", f"for {p}") in page, p
    assert 'alt="Run balance run a&lt;b&gt;.toml for caption' in page
