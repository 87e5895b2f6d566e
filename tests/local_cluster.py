"""A Dask cluster of this machine for the tests that run through one."""

from __future__ import annotations

import pytest


def local_cluster(**kw):
    """distributed.LocalCluster(**kw) (the test is skipped without distributed), its
    scheduler's HTTP routes on a free port: with dashboard_address=None they still bind 8787,
    which another test's cluster may hold (distributed then warns)."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(dashboard_address=":0", **kw)
