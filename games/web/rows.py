"""The statements of every action, without the ORM's per-call work.

Replaces, on the action path only (games.services and games.players.identity), Django's ORM used as
documented: ``Game.objects.select_for_update().get(...)``, ``Player.objects.filter(...)
.get()``, ``GameAction.objects.bulk_create(...)`` and ``game.save(update_fields=...)``.
Measured gain: 12-16 % of an action's CPU (an action's statements 0.40 ms here, 1.25 ms by
the ORM, as a share of the action with the ORM's), printed by every CI run::

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python -m bench.parts

(docs/design.md, "Hand-made parts, and why"; issue 40 counted 10.60 -> 6.09 M instructions
an action, 43 %, with ``bench.action_instructions``). Where it goes: ``bulk_create`` and
``save`` compile their statements and run the model machinery for every call; the two
reads compile a query each. Here each statement is plain SQL built once per model and
columns; values are adapted by their model fields on the way in (``get_db_prep_save``,
``get_db_prep_value``) and on the way back read as the ORM reads them (a field's
``from_db_value``, datetimes made aware, then ``Model.from_db``), so JSON, dates and foreign
keys are read and written exactly as the ORM does, on PostgreSQL and SQLite alike
(tests/games/test_rows.py). ``Manager.raw`` read the rows alike, but at 0.5 M instructions a
read (an action 6.09 -> 7.10 M).

Only documented parts: ``django.db.connections`` and a connection's ``cursor()`` and
``vendor``; ``Options.get_field``/``get_fields`` and the ``db_table`` option; a field's
``concrete``, ``many_to_many``, ``primary_key``, ``db_column`` and ``attname``, and its
``get_db_prep_value``, ``get_db_prep_save`` and ``from_db_value``; ``Model.from_db``. Names are
quoted as standard SQL quotes them (double quotes), which both supported databases read,
rather than by the backend's ``ops.quote_name``; the row lock is PostgreSQL's ``FOR UPDATE``
(SQLite has none, and locks the whole database for a write instead). On these parts an
action cost 6.64 M instructions, 6.76 M before them (issue 50, the same digest
c9df70f3399c409f, the command above, on fa1d52d).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import cache, lru_cache

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models import Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime


def _database():
    """The default database's connection itself: ``django.db.connection`` is a proxy that
    looks the connection up in a thread-local on every attribute, and the field adapters
    below read several attributes per value: using it directly took an action from 11.35 to
    10.66 M instructions (bench/action_instructions.py)."""
    return connections[DEFAULT_DB_ALIAS]


def select_row(model: type[Model], *, for_update: bool = False, **equals):
    """The instance whose fields equal ``equals`` (plain values: a foreign key by its attname,
    ``owner_id=player.pk``), or None: what ``model.objects.get(**equals)`` returns, or with
    ``for_update`` its ``select_for_update()`` (ignored where the database has no row locks:
    SQLite)."""
    connection = _database()
    lock = for_update and connection.vendor == "postgresql"
    statement, fields = _select(model, tuple(equals), lock)
    readers = _readers(model)
    params = [field.get_db_prep_value(value, connection)
              for field, value in zip(fields, equals.values(), strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for i, read in readers:
        if values[i] is not None:
            values[i] = read(values[i], connection)
    return model.from_db(DEFAULT_DB_ALIAS, None, values)


def _quote(name: str) -> str:
    """A table's or column's name quoted as standard SQL quotes an identifier."""
    return '"' + name.replace('"', '""') + '"'


def _column(field) -> str:
    """The field's column: its ``db_column`` option, else its ``attname`` (as Django names it)."""
    return _quote(field.db_column or field.attname)


@cache
def _columns(model: type[Model]) -> tuple:
    """The model's fields that have a column, in the order ``Model.from_db`` takes values."""
    return tuple(field for field in model._meta.get_fields()
                 if field.concrete and not field.many_to_many)


@cache
def _primary_key(model: type[Model]):
    (pk,) = (field for field in _columns(model) if field.primary_key)
    return pk


@cache
def _select(model: type[Model], names: tuple[str, ...], lock: bool):
    """The statement of :func:`select_row` and the fields its parameters are for."""
    fields = tuple(model._meta.get_field(name) for name in names)
    columns = ", ".join(_column(field) for field in _columns(model))
    where = " AND ".join(f"{_column(field)} = %s" for field in fields)
    return (f"SELECT {columns} FROM {_quote(model._meta.db_table)} WHERE {where}"
            + (" FOR UPDATE" if lock else "")), fields


# The column types select_row reads: what the database driver gives back is already the
# field's value, but for these.
PLAIN_FIELDS = (models.AutoField, models.BigAutoField, models.CharField, models.ForeignKey,
                models.PositiveIntegerField, models.PositiveSmallIntegerField)


def _aware_datetime(value, connection) -> datetime:
    """A DateTimeField's value: SQLite gives back the text Django wrote (UTC, USE_TZ), and
    PostgreSQL an aware datetime."""
    if isinstance(value, str):
        value = parse_datetime(value)
    return value if timezone.is_aware(value) else timezone.make_aware(value, UTC)


@cache
def _readers(model: type[Model]) -> tuple[tuple[int, Callable], ...]:
    """Per column that needs one, how a value read from the database becomes the field's:
    a field's own ``from_db_value`` (the Field API's hook: JSON), the datetimes made aware. A
    model with another kind of field is refused rather than read wrong."""
    readers = []
    for i, field in enumerate(_columns(model)):
        if hasattr(field, "from_db_value"):
            readers.append((i, lambda value, connection, field=field:
                            field.from_db_value(value, None, connection)))
        elif isinstance(field, models.DateTimeField):
            readers.append((i, _aware_datetime))
        elif not isinstance(field, PLAIN_FIELDS):
            raise TypeError(f"select_row cannot read {model.__name__}.{field.name} "
                            f"({type(field).__name__})")
    return tuple(readers)


def insert_rows(model: type[Model], field_names: Sequence[str],
                rows: Iterable[Sequence]) -> None:
    """One ``INSERT`` of every row (each a value per field name, in order)."""
    connection = _database()
    statement = _insert(connection, model, field_names, rows)
    if statement is not None:
        _execute(connection, statement)


def insert_rows_and_update(model: type[Model], field_names: Sequence[str],
                           rows: Iterable[Sequence], instance: Model,
                           update_fields: Sequence[str]) -> None:
    """:func:`insert_rows`, then an ``UPDATE`` of ``update_fields`` of ``instance``'s row to
    the instance's values. PostgreSQL takes both as one statement (the insert as a
    data-modifying ``WITH``), one round trip instead of two: under load each round trip also
    costs the request a wait for the interpreter's lock."""
    connection = _database()
    insert = _insert(connection, model, field_names, rows)
    update = _update(connection, instance, update_fields)
    if insert is None:
        _execute(connection, update)
    elif connection.vendor == "postgresql":
        _execute(connection,
                 (f"WITH inserted AS ({insert[0]}) {update[0]}", insert[1] | update[1]))
    else:
        _execute(connection, insert)
        _execute(connection, update)


_NOTHING = object()


def _insert(connection, model: type[Model], field_names: Sequence[str],
            rows: Iterable[Sequence]):
    """The ``INSERT`` of ``rows``, its parameters named: a column that holds the same object
    in every row (an action's game and time) is one parameter, named once in each row.
    Fewer parameters are fewer to adapt and send, and psycopg keeps the statement's
    conversion only for 50 parameters or fewer: an action's eight rows as six parameters
    each (52 with the update after them) were converted anew on every such action."""
    rows = rows if isinstance(rows, list) else list(rows)
    if not rows:
        return None
    fields = [model._meta.get_field(name) for name in field_names]
    params = {}
    shared = []
    for i, field in enumerate(fields):
        first = rows[0][i]
        shared.append(all(row[i] is first for row in rows))
        if shared[i]:
            params[f"c{i}"] = field.get_db_prep_save(first, connection)
    # A value the row before had in the same column (the same object) is adapted once.
    last = [(_NOTHING, None)] * len(fields)
    for j, row in enumerate(rows):
        for i, (field, value) in enumerate(zip(fields, row, strict=True)):
            if not shared[i]:
                if last[i][0] is not value:
                    last[i] = (value, field.get_db_prep_save(value, connection))
                params[f"r{j}_{i}"] = last[i][1]
    return _insert_statement(model, tuple(fields), len(rows), tuple(shared)), params


@lru_cache(maxsize=256)
def _insert_statement(model: type[Model], fields: tuple, count: int,
                      shared: tuple[bool, ...]) -> str:
    columns = ", ".join(_column(field) for field in fields)
    values = ", ".join(
        "(" + ", ".join(f"%(c{i})s" if shared[i] else f"%(r{j}_{i})s"
                        for i in range(len(fields))) + ")"
        for j in range(count))
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES {values}"


def _update(connection, instance: Model, field_names: Sequence[str]):
    """The ``UPDATE`` of ``field_names`` of ``instance``'s row, its parameters named as
    :func:`_insert`'s are, so that the two make one statement."""
    fields = tuple(instance._meta.get_field(name) for name in field_names)
    params = {f"u{i}": field.get_db_prep_save(getattr(instance, field.attname), connection)
              for i, field in enumerate(fields)}
    params["pk"] = instance.pk
    return _update_statement(type(instance), fields), params


@lru_cache(maxsize=64)
def _update_statement(model: type[Model], fields: tuple) -> str:
    assignments = ", ".join(f"{_column(field)} = %(u{i})s" for i, field in enumerate(fields))
    return (f"UPDATE {_quote(model._meta.db_table)} SET {assignments} "
            f"WHERE {_column(_primary_key(model))} = %(pk)s")


def _execute(connection, statement: tuple[str, dict]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(*statement)
