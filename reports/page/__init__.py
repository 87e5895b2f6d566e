"""The HTML report: what a game's report gives the framework (game_report), the page's
sections and their rendering (page), runs merged (merge), and `balance report` (build)."""
