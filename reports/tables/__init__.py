"""A run's games as tables and counts: the tables in pieces (pieces), the columns every
analysis shares (frame), the counts of one pass over the games (tally, counts), several runs
as one (combine) and the variants as the designer named them (variants)."""
