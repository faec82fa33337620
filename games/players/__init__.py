"""Players and their credentials, in one home with one writer: the ``Player`` and
``TransferCode`` rows (``models``), names (``names``), who is asking (``identity``: a signed
cookie or a bearer token; the schemes the routers use), every write to a player or a staff
account (``services``: create, rename, accounts, transfer codes, bans and name resets for
moderation, moderators' users) and the players' endpoints (``api``, ``schemas``). It knows no
game: games, boards and leagues build on it."""
