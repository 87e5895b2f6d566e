"""The `balance` command line. Each command is a thin front over a function you can call."""

from __future__ import annotations

from pathlib import Path

import typer

from balance.errors import InputError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Gem Rush balance toolkit: validate content, play and measure games.")


def fail(err: InputError) -> None:
    """One clear message per problem, no traceback, exit 2."""
    for p in err.problems:
        typer.echo(f"error: {p}", err=True)
    raise typer.Exit(2)


@app.command()
def validate(files: list[Path] = typer.Argument(..., help="content TOML files or shipped names"),
             edition: str = typer.Option(None, help="check against this rule profile "
                                         "(default: the file's own edition)")) -> None:
    """Check content files completely; print a summary of each valid one."""
    from balance.content import load_content
    from balance.rules import load_profile
    from balance.summary import content_summary, format_summary
    from balance.tables import compile_tables

    bad = False
    for f in files:
        try:
            content = load_content(f)
            profile = load_profile(edition or content.edition, source=str(f))
            compile_tables(content, profile)
        except InputError as e:
            for p in e.problems:
                typer.echo(f"error: {p}", err=True)
            bad = True
            continue
        typer.echo(format_summary(content_summary(content)))
    if bad:
        raise typer.Exit(2)


@app.command()
def rules(edition: str = typer.Argument("2e", help="rule profile: 1e, 2e or a TOML path"),
          set_: list[str] = typer.Option([], "--set", help="override a rule: NAME=VALUE")) -> None:
    """Print an edition's rule profile, with any overrides applied."""
    from balance.rules import load_profile, parse_overrides

    try:
        profile = load_profile(edition, parse_overrides(set_))
    except InputError as e:
        fail(e)
    typer.echo(f"{profile.title}  (content: {profile.content})")
    for name, value, doc in profile.describe():
        typer.echo(f"  {name:<26} {value:<6} {doc}")


def main() -> None:  # pragma: no cover - console entry
    app()
