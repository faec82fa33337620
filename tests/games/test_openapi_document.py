"""The published document (/api/v1/openapi.json) as a client's tools read it: valid OpenAPI,
card ids a strict client can send, the actions as named schemas, descriptions about the API.
The generated client itself: tests/games/test_generated_client.py."""

import re

import pytest
from django.test import Client
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from games.engine.cards import PACK, card_id

ACTIONS = ("Draw", "LayDown", "LayOff", "Discard")


@pytest.fixture(scope="module")
def document() -> dict:
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def validator(document: dict, schema: dict) -> Draft202012Validator:
    """``schema``, whose ``$ref``s point into the document's components."""
    return Draft202012Validator({**schema, "components": document["components"]})


def test_the_document_is_valid_openapi(document):
    validate(document)  # raises on the first error, e.g. a parameter's examples as a list


def test_every_card_of_the_pack_validates_wherever_a_card_id_goes(document):
    schemas = document["components"]["schemas"]
    card_fields = {
        "Card.id": schemas["Card"]["properties"]["id"],
        "Discard.card": schemas["Discard"]["properties"]["card"],
        "LayOff.card": schemas["LayOff"]["properties"]["card"],
        "LayDown.melds": schemas["LayDown"]["properties"]["melds"]["items"]["items"],
        "Legal.discard": schemas["Legal"]["properties"]["discard"]["items"],
    }
    ids = [card_id(card) for card in PACK]
    assert {"10S.2", "JK.3", "AH.1"} <= set(ids)
    for name, schema in card_fields.items():
        check = validator(document, schema)
        refused = [i for i in ids if not check.is_valid(i)]
        assert refused == [], (name, refused)
        assert not check.is_valid("10S.3") and not check.is_valid("1S.1"), name


def test_the_lay_off_options_are_lay_off_actions_posted_as_they_are(document):
    schemas = document["components"]["schemas"]
    for where in (schemas["Legal"], schemas["Hint"]):
        assert where["properties"]["lay_off"]["items"] == {"$ref": "#/components/schemas/LayOff"}
    assert "LayOffOption" not in schemas
    option = {"type": "lay_off", "meld": 0, "card": "7H.1", "end": "low"}
    validator(document, {"$ref": "#/components/schemas/ActionRequest"}).validate(
        {"version": 3, "action": option})


def test_every_action_of_the_pack_is_a_valid_request(document):
    check = validator(document, {"$ref": "#/components/schemas/ActionRequest"})
    for card in PACK:
        for action in ({"type": "discard", "card": card_id(card)},
                       {"type": "lay_off", "meld": 0, "card": card_id(card), "end": "low"}):
            check.validate({"version": 3, "action": action})
    check.validate({"version": 3, "action": {"type": "lay_down",
                                             "melds": [["10S.1", "JS.1", "QS.2"]]}})
    assert not check.is_valid({"version": 3, "action": {"type": "draw", "from": "table"}})


def test_the_actions_are_named_schemas_that_the_request_and_the_hint_share(document):
    schemas = document["components"]["schemas"]
    action = schemas["Action"]
    assert [one["$ref"] for one in action["oneOf"]] == [
        f"#/components/schemas/{name}" for name in ACTIONS]
    assert action["discriminator"]["propertyName"] == "type"
    assert all(name in schemas for name in ACTIONS)
    ref = {"$ref": "#/components/schemas/Action"}
    assert schemas["ActionRequest"]["properties"]["action"] == ref
    assert ref in schemas["Hint"]["properties"]["action"]["anyOf"]
    assert schemas["ReplayAction"]["properties"]["action"] == ref
    assert schemas["Legal"]["properties"]["lay_downs"]["items"] == {
        "$ref": "#/components/schemas/LayDown"}


def test_what_clients_read_speaks_of_the_api_not_of_the_server_code(document):
    words = re.compile(r"pydantic|ninja|\bORM\b|django", re.IGNORECASE)
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("description", "summary") and isinstance(value, str) \
                        and words.search(value):
                    found.append((where, value))
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(document, "")
    assert found == []


def test_a_table_joker_names_the_card_it_stands_for_as_the_answers_do(document):
    """A joker on the table carries ``as`` (docs/api.md): the document said ``as_``, the
    Python field's name, until the card became a TypedDict keyed as the answers are."""
    card = document["components"]["schemas"]["Card"]
    assert "as" in card["properties"] and "as_" not in card["properties"]
    joker = {"id": "JK.1", "joker": True, "as": {"rank": "7", "suit": "H"}}
    assert validator(document, {**card, "additionalProperties": False}).is_valid(joker)
