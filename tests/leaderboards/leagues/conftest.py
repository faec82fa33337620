import pytest


@pytest.fixture(autouse=True)
def fresh_throttle_counts(throttle_clock):
    """The throttles count in the cache by player pk, which a new test may reuse."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
