"""The engines compiled ahead of the suite (`python -m balance.compile.all`), a game's compile plan
made (`python -m balance.compile.planner GAME`), and a cold compile's time kernel by kernel
(`balance bench --compile-profile`)."""
