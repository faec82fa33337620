"""Spanish and Thai are complete: every message of the pages and the scripts is translated,
and the compiled catalogues agree with the sources."""

import gettext
import json
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "frontend" / "locale"
CATALOGUES = [(lang, domain) for lang in ("es", "th") for domain in ("django", "djangojs")]


def entries(po: Path) -> list[tuple[str, list[str], bool]]:
    """(msgid, msgstrs, fuzzy) of each entry but the header, from a .po file."""
    text = po.read_text(encoding="utf-8")
    result = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            strs = [v for k, v in fields.items() if k.startswith("msgstr")]
            result.append((fields["msgid"], strs, fuzzy))
    return result


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_every_message_is_translated(lang, domain):
    found = entries(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po")
    assert len(found) > 50
    untranslated = [msgid for msgid, strs, fuzzy in found if fuzzy or not all(strs)]
    assert untranslated == []


@pytest.mark.parametrize(("lang", "domain"), CATALOGUES)
def test_the_compiled_catalogue_matches_its_source(lang, domain):
    with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for msgid, strs, _fuzzy in entries(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"):
        msgid = msgid.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
        assert compiled.gettext(msgid) != msgid or strs[0] == msgid or "%" in msgid, msgid


@pytest.mark.parametrize(("lang", "word"), [("es", "Reglas"), ("th", "กติกา")])
def test_pages_render_in_the_chosen_language(client, lang, word):
    client.cookies["django_language"] = lang
    html = client.get("/rules/").content.decode()
    assert f'<html lang="{lang}">' in html
    assert word in html


@pytest.mark.parametrize(("lang", "word"), [("es", "corazones"), ("th", "โพแดง")])
def test_the_scripts_catalogue_is_served_in_the_chosen_language(client, lang, word):
    client.cookies["django_language"] = lang
    body = client.get("/jsi18n/").content.decode()
    assert word in body or json.dumps(word)[1:-1] in body
