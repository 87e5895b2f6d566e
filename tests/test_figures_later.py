"""A report's figures past the first few are drawn by worker processes (reports/render/figures.py,
`later`): pickled, drawn there, and byte-identical to those drawn in the report's process."""

import matplotlib.ticker as mticker

from reports.render import figures


def _figure(i: int, unpicklable: bool = False):
    with figures.canvas(3, 2) as (fig, (ax,)):
        ax.plot([0, 1, 2], [i, i * i, 1])
        ax.set_title(f"figure {i}")
        if unpicklable:  # a lambda cannot be pickled
            ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:.0f} pts"))
    return fig


def test_figures_past_the_first_few_are_drawn_by_workers_and_are_the_same():
    made = [_figure(i) for i in range(figures.INLINE_FIRST + 3)]
    with figures.rendered_by(2):
        state = figures._RENDERING.get()
        got = [figures.later(f) for f in made[:figures.INLINE_FIRST]]
        assert state["pool"] is None  # a small report starts no worker
        got += [figures.later(f) for f in made[figures.INLINE_FIRST:]]
        assert state["pool"] is not None
        pngs = [g() for g in got]
    assert pngs == [figures.png_bytes(f) for f in made]


def test_a_figure_that_cannot_be_pickled_is_drawn_here():
    made = [_figure(i) for i in range(figures.INLINE_FIRST)] + [_figure(9, unpicklable=True)]
    with figures.rendered_by(2):
        got = [figures.later(f) for f in made]
        assert figures._RENDERING.get()["pool"] is None
    assert got[-1]() == figures.png_bytes(made[-1])


def test_one_job_draws_every_figure_here():
    made = [_figure(i) for i in range(figures.INLINE_FIRST + 2)]
    with figures.rendered_by(1):
        assert figures._RENDERING.get() is None
        got = [figures.later(f)() for f in made]
    assert got == [figures.png_bytes(f) for f in made]
