"""Names people can see and tell apart (issue 29, games/players/names.py): normalised, with visible
letters, without fillers, invisible characters or enclosing marks, not posing as staff or a
computer player; real names in every script still pass."""

from __future__ import annotations

import pytest

from games.players.names import (
    COMPUTER_PLAYER_NAMES,
    RESERVED_NAMES,
    clean_name,
    random_name,
    skeleton,
)
from tests.games.helpers import error_of

pytestmark = pytest.mark.django_db

REAL_NAMES = {
    "Thai": ["สมชาย ใจดี", "นภา", "น้ำ", "ณัฐวุฒิ", "ปิยะนุช ศรีสุข", "กิ่งแก้ว"],
    "Spanish": ["José Núñez", "María-Pía", "Íñigo Muñoz", "Begoña", "Ñandú 7", "Zoë O'Neil"],
    "Vietnamese": ["Nguyễn Thị Minh Khai", "Trần Hưng Đạo", "Lê Văn Lương", "Phạm Ngọc Thạch"],
    "Cyrillic": ["Иван Петров", "Ольга", "Юлия Сергеевна", "Дмитрий", "Ёжик"],
    "CJK": ["王小明", "李娜", "山田太郎", "さくら", "김민준", "陳大文"],
}

REFUSED = {
    "Hangul filler U+3164": "\u3164\u3164",
    "Hangul choseong/jungseong fillers": "\u115f\u1160\u115f",
    "half-width Hangul filler": "\uffa0\uffa0",
    "filler beside letters": "A\u3164B",
    "enclosing marks": "A\u0489\u0489B",
    "enclosing circle": "AB\u20dd",
    "zero-width space": "A\u200bB",
    "variation selector": "Ab\ufe0f",
    "combining grapheme joiner": "A\u034fB",
    "Braille blank": "A\u2800B",
    "one visible letter": "A\u0301",
    "full-width Admin": "Ａｄｍｉｎ",
    "mathematical bold": "𝐀dmin",
    "Cyrillic a": "аdmin",
    "digit for a letter": "Adm1n",
    "spaced out": "M o d e r a t o r",
    "rn for m": "Adrnin",
    "Greek omicron": "Suppοrt",
    "staff": "STAFF",
    "the game's name": "Ladder_Rummy",
    "leet game name": "L4dder Rummy",
    "a computer player": "Chiara",
    "a computer player with an accent": "Brunó",
}


@pytest.mark.parametrize("script", REAL_NAMES)
def test_real_names_in_every_script_pass(script):
    refused = []
    for name in REAL_NAMES[script]:
        try:
            clean_name(name)
        except ValueError as exc:
            refused.append((name, str(exc)))
    assert refused == []


@pytest.mark.parametrize("why", REFUSED)
def test_names_that_hide_or_pose_are_refused(why):
    with pytest.raises(ValueError):
        clean_name(REFUSED[why])


def test_names_are_stored_normalised():
    assert clean_name("Ｂｏｂ") == "Bob"
    assert clean_name("𝐁𝐨𝐛 Ｌｅｅ") == "Bob Lee"
    assert clean_name("ﾊﾅｺ") == "ハナコ"  # half-width katakana become full-width
    assert clean_name("น้ำ") == "น้ำ"  # Thai "am" stays as written


def test_every_reserved_word_and_computer_players_name_is_refused():
    assert set(COMPUTER_PLAYER_NAMES) <= set(RESERVED_NAMES)
    for word in RESERVED_NAMES:
        if len(word) >= 2:
            with pytest.raises(ValueError):
                clean_name(word)


def test_look_alikes_share_a_skeleton():
    assert skeleton("Ａｄｍｉｎ") == skeleton("аdmin") == skeleton("Adm1n") == skeleton("admin")
    assert skeleton("Ladder Rummy") == skeleton("LADDER-RUMMY") == skeleton("Ladder_Rumrny")


def test_random_names_pass_their_own_rules():
    for _ in range(200):
        name = random_name()
        assert clean_name(name) == name


@pytest.mark.parametrize("name, code", [
    ("\u3164\u3164", "invalid_name"), ("\u115f\u1160\u115f", "invalid_name"),
    ("\uffa0\uffa0", "invalid_name"), ("Ａｄｍｉｎ", "reserved_name"), ("𝐀dmin", "reserved_name"),
    ("аdmin", "reserved_name"), ("A\u0489\u0489B", "invalid_name")])
def test_patch_me_refuses_the_names_the_attack_stored(alice, name, code):
    before = alice.get("/me").json()["name"]

    response = alice.patch("/me", {"name": name})

    assert response.status_code == 422
    assert error_of(response)["code"] == code
    assert alice.get("/me").json()["name"] == before
