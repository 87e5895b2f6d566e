"""The Numba game engine. Kernels (`*_nb`) live in the modules here;
`balance.games.gemrush.play` is the Python front. This package imports nothing eagerly so that
players can use its helpers."""
