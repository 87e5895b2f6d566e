"""How games come out, for any game: the outcomes of the core columns (outcomes), what the
framework knows of an analysis (analysis), the verdicts of the first screen (findings) and the
Outcomes section of the page (outcome_page)."""
