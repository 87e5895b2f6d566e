"""Run folders on disk: the manifest, the Parquet shards, and reading a run back.

Layout of a run folder (`runs/<experiment>/` by default):

    manifest.json                what was run: the experiment file, its game, hash, versions
    games/<shard>.parquet        one row per game
    <table>/<shard>.parquet      each of the game's other tables (Game.tables)

A shard is one variant and a range of games, named `v<variant>-g<start>-<stop>` with
zero-padded numbers, so that names sort in (variant, game) order. A run asked for more games
plays only those it does not hold, in shards of their own (layout.grown): no game is played
twice, whatever the shards it was played in. Files are written to a
temporary name and renamed, the other tables first and games last: a shard is done when its
games file exists, and only whole files ever exist. Every file is read through balance.files
(regular files of a stated size only), and nothing is written through a link. The engine never
imports this package.

A manifest that disagrees with its shards is refused, naming the manifest: shards of this
run (their provenance checked) that its plan has no place for, or every shard agreeing on a
seed or code the manifest does not record. A resume never deletes games: a short last shard
that a resume before issue 50 planned to replace is removed only once the longer shard
holding its games is written, and readers skip it meanwhile.

One module a concept: layout (names, shards and their plan), manifest, folder (opening and
locking a run folder), write (shard files), check (the shards' integrity against their
manifest) and read (read_run, scan_run). A name with an underscore is the package's own,
shared between its modules. Notebooks import the readers from here, as the guide shows:

    from balance.running.store import read_run, scan_run
"""

from balance.running.store.read import read_run, scan_run

__all__ = ["read_run", "scan_run"]
