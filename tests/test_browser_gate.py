"""Browser tests are skipped without Chromium, except under CI, where that is an error."""

import pytest

from tests import conftest


class FakeItem:
    def __init__(self, *markers: str) -> None:
        self.markers = {name: getattr(pytest.mark, name) for name in markers}
        self.added: list = []
        self.nodeid = f"tests/test_{'_'.join(markers) or 'plain'}.py::test"

    def get_closest_marker(self, name: str):
        return self.markers.get(name)

    def add_marker(self, marker) -> None:
        self.added.append(marker)


@pytest.fixture
def no_chromium(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "CHROMIUM", tmp_path / "chromium")


def test_without_chromium_browser_tests_are_skipped_with_a_reason(no_chromium, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    browser, plain = FakeItem("browser"), FakeItem()

    conftest.pytest_collection_modifyitems(None, [browser, plain])

    assert [m.name for m in browser.added] == ["skip"]
    assert "apt-get install chromium" in browser.added[0].kwargs["reason"]
    assert plain.added == []


def test_without_chromium_under_ci_the_run_fails(no_chromium, monkeypatch):
    monkeypatch.setenv("CI", "true")

    with pytest.raises(pytest.UsageError, match="chromium"):
        conftest.pytest_collection_modifyitems(None, [FakeItem("browser")])


def test_under_ci_without_browser_tests_nothing_is_required(no_chromium, monkeypatch):
    monkeypatch.setenv("CI", "true")
    conftest.pytest_collection_modifyitems(None, [FakeItem()])


def test_with_chromium_browser_tests_run(monkeypatch, tmp_path):
    chromium = tmp_path / "chromium"
    chromium.touch()
    monkeypatch.setattr(conftest, "CHROMIUM", chromium)
    monkeypatch.delenv("CI", raising=False)
    browser = FakeItem("browser")

    conftest.pytest_collection_modifyitems(None, [browser])

    assert browser.added == []
