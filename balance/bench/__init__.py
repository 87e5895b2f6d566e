"""Speed and memory, measured the way the guide reports them (results/performance.md; figures,
never asserted in tests): `balance bench` and its options, one module each."""
