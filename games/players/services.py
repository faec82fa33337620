"""The one writer of players and their credentials: a new player, its last visit and its name;
optional accounts and transfer codes (ways to keep one identity across browsers); what
moderation changes on a player (a ban, a reset name) and the staff's own users.

- An account attaches a Django ``User`` (username + hashed password) to the current player;
  logging in elsewhere gives that browser the player's cookie. Accounts stay optional.
- A transfer code moves an anonymous identity to another browser without registering: a
  one-time code (12 characters of Crockford's base 32, 60 bits, shown as ``ABCD-EFGH-JKMN``),
  valid for ``TRANSFER_CODE_TTL``, of which only the SHA-256 is stored. Redeeming it revokes
  the player's old credentials (:func:`revoke_credentials`): the browser that redeems holds the
  identity, older cookies and the bearer token no longer work. Making a new code cancels the
  player's unused ones.
- A socket ticket (docs/api.md, "Who you are") opens one websocket as its player, for a
  client that cannot set the handshake's ``Authorization`` header (a browser's
  ``WebSocket``), so no long-lived token goes into a URL: short-lived (``TICKET_SECONDS``),
  single-use, kept in Django's cache (Redis in production, shared by every process) under
  its SHA-256 with its player and expiry, not in the database. Only the handshake whose
  ``delete`` removed it is admitted, so two racing with one ticket cannot both pass.
- Logging out revokes the credential the request came with (:func:`log_out`): a bearer token
  is forgotten; a cookie's epoch moves on, so that cookie and every copy of it stop working
  (as do the player's cookies in other browsers: they log in again).

Logging in or redeeming in a browser that already had an anonymous player leaves that
player's games with it: they are not merged.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime, timedelta

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.players.models import Player, TransferCode, sha256_hex
from games.players.names import clean_name, random_name
from games.players.signals import player_renamed
from games.web.errors import Refusal
from games.web.rows import select_row

TRANSFER_CODE_TTL = timedelta(minutes=15)
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
CODE_CHARS = 12
USERNAME_MIN_CHARS, USERNAME_MAX_CHARS = 3, 30
PASSWORD_MAX_CHARS = 128


# --- Players ------------------------------------------------------------------------------


def create_player(*, token_hash: str | None = None, name: str | None = None) -> Player:
    return Player.objects.create(name=name or random_name(), token_hash=token_hash)


def mark_seen(player: Player, moment: datetime) -> None:
    """When the player was last seen (games.players.identity calls this at most every ten
    minutes)."""
    player.last_seen_at = moment
    Player.objects.filter(pk=player.pk).update(last_seen_at=moment)


def rename_player(player: Player, raw_name: str) -> Player:
    """Raises games.players.names.InvalidName. A new name is news where the player sits
    (:data:`games.players.signals.player_renamed`)."""
    name = clean_name(raw_name)
    if name == player.name:
        return player
    player.name = name
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(name=name)
        player_renamed.send(sender=Player, player=player)
    return player


# --- Accounts -----------------------------------------------------------------------------


def clean_username(raw: str) -> str:
    username = raw.strip()
    if not USERNAME_MIN_CHARS <= len(username) <= USERNAME_MAX_CHARS:
        raise Refusal(422, "invalid_username",
                           f"A username has {USERNAME_MIN_CHARS} to {USERNAME_MAX_CHARS} "
                           "characters.")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise Refusal(422, "invalid_username", "A username may hold letters, digits and "
                                                    "@ . + - _ only.") from None
    return username


def register(player: Player, raw_username: str, password: str) -> Player:
    """Attach a new account to ``player``."""
    if player.user_id:
        raise Refusal(409, "already_registered", "This player already has an account.")
    username = clean_username(raw_username)
    User = get_user_model()
    if len(password) > PASSWORD_MAX_CHARS:
        raise Refusal(422, "weak_password", "A password has at most 128 characters.")
    try:
        validate_password(password, User(username=username))
    except ValidationError as exc:
        raise Refusal(422, "weak_password", " ".join(exc.messages)) from None
    if User.objects.filter(username__iexact=username).exists():
        raise Refusal(409, "username_taken", "That username is taken.")
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            player.user = user
            player.save(update_fields=["user"])
    except IntegrityError:  # the same name registered a moment ago
        raise Refusal(409, "username_taken", "That username is taken.") from None
    return player


def log_in(raw_username: str, password: str) -> Player:
    """The player of this account (made for accounts that have none, e.g. staff)."""
    user = authenticate(username=raw_username.strip(), password=password)
    if user is None or not user.is_active:
        raise Refusal(401, "invalid_credentials", "Wrong username or password.")
    player = Player.objects.filter(user=user).first()
    if player is None:
        player = Player.objects.create(name=random_name(), user=user)
    return player


def log_out(player: Player, by_token: bool) -> None:
    """Revoke what the logout came with: the bearer token (``by_token``) or the cookies."""
    if by_token:
        Player.objects.filter(pk=player.pk).update(token_hash=None)
    else:
        Player.objects.filter(pk=player.pk).update(cookie_epoch=F("cookie_epoch") + 1)


def revoke_credentials(player_id: int) -> None:
    """Every credential issued so far stops working: cookies (their epoch) and the token."""
    Player.objects.filter(pk=player_id).update(cookie_epoch=F("cookie_epoch") + 1,
                                               token_hash=None)


# --- Transfer codes -----------------------------------------------------------------------


def normalise_code(raw: str) -> str | None:
    code = raw.upper().replace("-", "").replace(" ", "")
    code = code.replace("O", "0").replace("I", "1").replace("L", "1")
    if len(code) != CODE_CHARS or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def create_transfer_code(player: Player) -> tuple[str, TransferCode]:
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_CHARS))
    now = timezone.now()
    with transaction.atomic():
        TransferCode.objects.filter(player=player, used_at__isnull=True).delete()
        record = TransferCode.objects.create(player=player, code_hash=sha256_hex(code),
                                             created_at=now, expires_at=now + TRANSFER_CODE_TTL)
    return "-".join(code[i:i + 4] for i in range(0, CODE_CHARS, 4)), record


def redeem_transfer_code(raw: str) -> Player:
    """The player the code moves here, its old credentials revoked; the code is spent."""
    code = normalise_code(raw)
    refused = Refusal(404, "invalid_transfer_code",
                           "No such code, or it has expired or been used.")
    if code is None:
        raise refused
    now = timezone.now()
    with transaction.atomic():
        record = (TransferCode.objects.select_for_update()
                  .filter(code_hash=sha256_hex(code), used_at__isnull=True, expires_at__gt=now)
                  .first())
        # Compare and set: only one redemption may spend the code.
        if record is None or TransferCode.objects.filter(
                pk=record.pk, used_at__isnull=True).update(used_at=now) != 1:
            raise refused
        revoke_credentials(record.player_id)
        return Player.objects.get(pk=record.player_id)


# --- Moderation and staff -------------------------------------------------------------------


# --- Socket tickets ---------------------------------------------------------------------------

TICKET_SECONDS = 30  # long enough to open a socket, too short to be worth stealing
TICKET_PREFIX = "st_"
TICKET_KEY = "socket-ticket:{}"


def ticket_clock() -> float:
    """Seconds since the epoch; tests move it."""
    return time.time()


def issue_socket_ticket(player: Player) -> tuple[str, datetime]:
    """A new ticket for ``player`` and when it expires; 503 while the cache is away."""
    ticket = TICKET_PREFIX + secrets.token_urlsafe(24)
    expires = ticket_clock() + TICKET_SECONDS
    try:
        caches["default"].set(TICKET_KEY.format(sha256_hex(ticket)), (player.pk, expires),
                              timeout=TICKET_SECONDS + 1)
    except Exception as error:
        raise Refusal(503, "unavailable", "Tickets are briefly unavailable: try again.") \
            from error
    return ticket, datetime.fromtimestamp(expires, UTC)


def redeem_socket_ticket(ticket: str) -> Player | None:
    """The player ``ticket`` was issued to, once: None if it is unknown, used, expired, or
    the cache is away (the socket is refused; the client asks for a new one)."""
    if not ticket.startswith(TICKET_PREFIX) or len(ticket) > 64:
        return None
    key = TICKET_KEY.format(sha256_hex(ticket))
    backend = caches["default"]
    try:
        kept = backend.get(key)
        if kept is None or not backend.delete(key):  # another handshake took it first
            return None
    except Exception:
        return None
    player_pk, expires = kept
    if ticket_clock() >= expires:
        return None
    return select_row(Player, id=player_pk)


def set_banned(player: Player, banned: bool) -> None:
    """A moderator's ban (or its end): leaderboards.services unlists or relists the scores and
    logs why, in the same transaction."""
    player.banned_at = timezone.now() if banned else None
    Player.objects.filter(pk=player.pk).update(banned_at=player.banned_at)


def give_random_name(player: Player) -> str:
    """A moderator's name reset: a fresh random name, returned."""
    player.name = random_name()
    Player.objects.filter(pk=player.pk).update(name=player.name)
    return player.name


def make_staff_user(username: str, email: str, password: str, group: Group) -> bool:
    """Create (or update) ``username`` as a staff user in ``group`` with this password; True
    if created. Raises ValidationError (a weak password), changing nothing."""
    with transaction.atomic():
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": email})
        validate_password(password, user)
        user.is_staff = True
        user.set_password(password)
        user.save()
        user.groups.add(group)
    return created
