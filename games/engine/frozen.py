"""Fast makers of the engine's frozen slotted dataclasses, in place of their ``__init__`` and of
``dataclasses.replace``.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, and
``replace`` goes through ``__init__`` after reading every field by name. Every action makes a
new :class:`~games.engine.state.GameState` and every decision a
:class:`~games.engine.view.PlayerView` and a :class:`~games.engine.legal.Situation`, thousands
of times in each of the hard player's decisions, so these makers set the slots directly, in
straight-line code generated once per class (as ``dataclasses`` itself generates
``__init__``). Measured (timeit, this host): ``evolve`` of a GameState 3.7 -> 1.6 µs;
``player_view`` 6.8 -> 3.9 µs. The values made are the same: frozen, equal, hashable alike.
"""

from __future__ import annotations

from dataclasses import MISSING, fields

_KEEP = object()  # "this field as it was", for replacer


def _slot_setters(cls) -> dict:
    return {f"_set_{f.name}": cls.__dict__[f.name].__set__ for f in fields(cls)}


def maker(cls):
    """``make(*values)``: a ``cls`` from every field's value in field order (defaults too)."""
    names = [f.name for f in fields(cls)]
    lines = [f"def make({', '.join(names)}):", "    new = _new(cls)"]
    lines += [f"    _set_{name}(new, {name})" for name in names]
    lines.append("    return new")
    namespace = {"_new": object.__new__, "cls": cls, **_slot_setters(cls)}
    exec("\n".join(lines), namespace)
    return namespace["make"]


def replacer(cls):
    """``replace(value, **changes)``: ``dataclasses.replace`` for ``cls``, whose fields all
    have init=True; an unknown field raises TypeError as ``replace`` does."""
    assert all(f.init for f in fields(cls)) and all(f.default_factory is MISSING
                                                    for f in fields(cls))
    names = [f.name for f in fields(cls)]
    lines = [f"def replace(value, *, {', '.join(f'{n}=_KEEP' for n in names)}):",
             "    new = _new(cls)"]
    lines += [f"    _set_{n}(new, value.{n} if {n} is _KEEP else {n})" for n in names]
    lines.append("    return new")
    namespace = {"_new": object.__new__, "cls": cls, "_KEEP": _KEEP, **_slot_setters(cls)}
    exec("\n".join(lines), namespace)
    return namespace["replace"]
