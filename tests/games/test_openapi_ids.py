"""Operation ids are the endpoints' function names, one each, whatever module holds them."""

from collections import Counter

from ladder.api import api


def test_every_operation_id_is_its_functions_name_and_unique():
    schema = api.get_openapi_schema()
    ids = [operation["operationId"] for path in schema["paths"].values()
           for operation in path.values()]
    assert len(ids) > 30
    assert [name for name, count in Counter(ids).items() if count > 1] == []
    assert {"start_game", "post_action", "login", "get_league", "todays_board"} <= set(ids)
    assert not [i for i in ids if "_api_" in i]  # no module path
