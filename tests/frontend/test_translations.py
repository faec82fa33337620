"""Spanish and Thai are complete: every message of the pages and the scripts is translated,
and the compiled catalogues agree with the sources."""

import gettext
import json
import re
from pathlib import Path

import pytest

from tests.languages import TRANSLATED

LOCALE = Path(__file__).resolve().parents[2] / "frontend" / "locale"
CATALOGUES = [(lang, domain) for lang in TRANSLATED for domain in ("django", "djangojs")]


def entries(po: Path) -> list[tuple[str, list[str], bool]]:
    """(msgid, msgstrs, fuzzy) of each entry but the header, from a .po file."""
    return parse(po.read_text(encoding="utf-8"))


def parse(text: str) -> list[tuple[str, list[str], bool]]:
    result = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            strs = [v for k, v in fields.items() if k.startswith("msgstr")]
            # A message with a context is keyed as gettext keys it: context, EOT, msgid.
            msgid = "\x04".join(filter(None, (fields.get("msgctxt"), fields["msgid"])))
            result.append((msgid, strs, fuzzy))
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



def plural_entries(po: Path) -> dict[str, list[str]]:
    """msgid -> msgstr forms of each entry with a plural, from a .po file."""
    text = po.read_text(encoding="utf-8")
    blocks = [b for b in text.split("\n\n") if "\nmsgid_plural " in "\n" + b]
    found = {}
    for block in blocks:
        [(msgid, forms, _fuzzy)] = parse(block)
        found[msgid] = forms
    return found


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_plurals_have_two_forms_in_spanish_and_one_in_thai(domain):
    spanish = plural_entries(LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po")
    thai = plural_entries(LOCALE / "th" / "LC_MESSAGES" / f"{domain}.po")
    assert spanish and spanish.keys() == thai.keys()
    for msgid, forms in spanish.items():
        assert len(forms) == 2 and forms[0] != forms[1], msgid
        assert len(thai[msgid]) == 1, msgid


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("es", "1 contrato", "2 contratos"),
    ("th", "สัญญา 1 ข้อ", "สัญญา 2 ข้อ"),
])
def test_the_scripts_counts_take_the_languages_plural_form(lang, one, two):
    with open(LOCALE / lang / "LC_MESSAGES" / "djangojs.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for n, want in ((1, one), (2, two)):
        assert compiled.ngettext("%(n)s contract", "%(n)s contracts", n) % {"n": n} == want


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "over 10 deals"), ("es", "durante 10 rondas"), ("th", "เป็นเวลา 10 รอบ")])
def test_the_rules_page_counts_deals_with_the_plural_form(client, lang, words):
    client.cookies["django_language"] = lang
    assert words in client.get("/rules/").content.decode()
