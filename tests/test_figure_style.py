"""Issue 30: the figures are drawn in seaborn's whitegrid style and colour-blind palette
without importing seaborn (reports/render/figures.py says why): the constants held there must be
seaborn's own, and a process that draws must not import it."""

from __future__ import annotations

import seaborn as sns

from reports.render import figures
from tests.fresh import imports_none


def test_the_style_and_palette_are_seaborn_s():
    theirs = dict(sns.axes_style("whitegrid"))
    assert theirs.pop("image.cmap") == "rocket"  # seaborn's own colour map: left out
    assert theirs == figures.WHITEGRID
    assert figures.style() == {**theirs, **figures.OWN_STYLE}
    for n in range(1, 13):  # past ten colours: seaborn's own palette, as before
        assert figures.palette_of(n) == list(sns.color_palette("colorblind", n)), n
    assert figures.palette_of(12, "husl") == list(sns.color_palette("husl", 12))


def test_drawing_a_figure_imports_no_seaborn():
    """seaborn, with scipy.stats and pandas, was 1.2 to 1.7 s of every process that draws."""
    imports_none("from reports.render import figures as f\n"
                 "with f.canvas(3, 2) as (fig, axes):\n"
                 "    axes[0].plot([1, 2], [3, 4], color=f.palette_of(3)[1])\n"
                 "    f.boxes(axes[0], __import__('polars').DataFrame("
                 "{'x': [1, 1], 'y': [2.0, 3.0], 'n': [4, 5]}), 'x', 'y', [1])\n"
                 "assert f.png_bytes(fig)[:4] == b'\\x89PNG'",
                 ("seaborn", "scipy.stats", "pandas"))
