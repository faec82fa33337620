"""The rows of players and their credentials: a ``Player`` (an identity, anonymous by default,
optionally tied to a Django account) and its one-time ``TransferCode``s. They belong to the
games app (``games_player``, ``games_transfercode``): games.models imports them, and Django
registers an app's models from there. Every write is in games.players.services.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_player_id() -> str:
    return secrets.token_urlsafe(12)  # 16 characters, 96 bits


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Player(models.Model):
    """An identity: anonymous by default, optionally tied to a Django account.

    Browsers hold a signed cookie naming ``public_id`` and ``cookie_epoch`` (bumping the epoch
    revokes every such cookie); third-party clients hold a bearer token of which only the
    SHA-256 is stored (``token_hash``)."""

    public_id = models.CharField(max_length=24, unique=True, default=new_player_id,
                                 editable=False)
    name = models.CharField(max_length=24)
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True,
                                  editable=False)
    cookie_epoch = models.PositiveIntegerField(default=0)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="player")
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)
    banned_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.public_id})"



class TransferCode(models.Model):
    """A one-time code that moves an anonymous identity to another browser; only its
    SHA-256 is stored."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="transfer_codes")
    code_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
