"""The lists a client is offered are games.lists' (the levels the bots', the reasons the
advice's), and the OpenAPI document's enums are built from them, value for value.

The first test pins the published values: a client's code switches on them, so a new reaction
or timer choice changes that test on purpose, with the lists and their translations."""

from games.lists import (
    DEFAULT_LEVEL,
    DEFAULT_TURN_SECONDS,
    LEVELS,
    REACTION_CODES,
    REASON_CODES,
    TURN_SECONDS,
)


def test_the_published_lists():
    assert REACTION_CODES == ("nice", "oops", "good_game", "your_turn")
    assert TURN_SECONDS == (30, 60, 300) and DEFAULT_TURN_SECONDS == 60
    assert LEVELS == ("easy", "normal", "hard") and DEFAULT_LEVEL == "normal"


def enum_of(document: dict, schema: dict) -> list:
    """The values a property's schema allows, through its ``$ref`` and ``anyOf`` (a null that
    is allowed too is left out)."""
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "enum" in schema:
        return schema["enum"]
    return [value for option in schema.get("anyOf", []) if option.get("type") != "null"
            for value in enum_of(document, option)]


def test_the_documents_enums_are_the_lists(nobody):
    document = nobody.get("/openapi.json").json()
    schemas = document["components"]["schemas"]

    def allowed(shape: str, field: str) -> list:
        return enum_of(document, schemas[shape]["properties"][field])

    assert allowed("NewReaction", "reaction") == list(REACTION_CODES)
    for shape in ("NewTable", "TableOut", "GameView"):
        assert allowed(shape, "turn_seconds") == list(TURN_SECONDS), shape
    for shape in ("NewTable", "TableOut", "TablePreview", "NewGame"):
        assert allowed(shape, "level") == list(LEVELS), shape
    assert allowed("HintReason", "code") == list(REASON_CODES)
    # A request's defaults are said in words (ladder.api.defaults_in_words), from the lists.
    said = {field: schemas["NewTable"]["properties"][field]["description"]
            for field in ("turn_seconds", "level")}
    assert said["turn_seconds"].endswith(f"Optional: {DEFAULT_TURN_SECONDS} when left out.")
    assert said["level"].endswith(f'Optional: "{DEFAULT_LEVEL}" when left out.')


def test_a_table_is_refused_a_timer_or_level_not_offered(alice):
    for body in ({"turn_seconds": 45}, {"level": "random"}):
        response = alice.post("/tables", {"name": "Friday cards", **body})
        assert response.status_code == 422, body
    for seconds in (*TURN_SECONDS, None):
        response = alice.post("/tables", {"name": "Friday cards", "turn_seconds": seconds})
        assert response.status_code == 201 and response.json()["turn_seconds"] == seconds
