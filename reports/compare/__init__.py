"""Every variant of a run compared with its baseline, game by game (compare), as charts
(compare_figures), as text for the terminal (compare_text) and as the page's Comparison
section (comparison_page)."""
