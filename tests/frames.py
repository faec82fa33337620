"""Socket frames held to their schemas in the sockets' AsyncAPI document (ladder/asyncapi.py):
``checked(communicator, "board")`` makes every frame the test receives validate against the
schema its ``t`` names on that channel (draft-07, AsyncAPI's schema dialect), or fail."""

from __future__ import annotations

from functools import cache

from jsonschema import Draft7Validator


@cache
def asyncapi_document() -> dict:
    from ladder.api import api
    from ladder.asyncapi import document
    return document(api.get_openapi_schema(), "testserver", False)


def frame_validators(asyncapi: dict, channel: str) -> dict[str, Draft7Validator]:
    """Each ``t`` a frame of ``channel`` may have, and its frame's schema."""
    schemas = asyncapi["components"]["schemas"]
    by_type = {}
    for ref in asyncapi["channels"][channel]["messages"].values():
        name = ref["$ref"].rsplit("/", 1)[1]
        t = schemas[name]["properties"]["t"]
        for kind in t.get("enum", [t.get("const")]):
            by_type[kind] = Draft7Validator({"$ref": f"#/components/schemas/{name}",
                                             "components": {"schemas": schemas}})
    return by_type


def frame_checker(asyncapi: dict, channel: str):
    """A function that validates one frame of ``channel`` against the schema of its ``t``,
    and the count of the frames it checked by type."""
    by_type = frame_validators(asyncapi, channel)
    seen: dict[str, int] = {}

    def check(frame: dict) -> None:
        assert frame.get("t") in by_type, frame
        errors = [e.message for e in by_type[frame["t"]].iter_errors(frame)]
        assert errors == [], (frame, errors)
        seen[frame["t"]] = seen.get(frame["t"], 0) + 1
    return check, seen


def checked(communicator, channel: str):
    """``communicator`` whose ``receive_json_from`` validates each frame it returns."""
    check, _ = frame_checker(asyncapi_document(), channel)
    receive = communicator.receive_json_from

    async def receive_json_from(timeout=1):
        frame = await receive(timeout)
        check(frame)
        return frame
    communicator.receive_json_from = receive_json_from
    return communicator
