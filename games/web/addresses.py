"""The client's address, the one place it is computed: throttles (games.web.throttles), the daily's
address flags (games.api_daily) and the admin-login limit (ladder.middleware) all call
:func:`client_address`; limits that one client must not multiply count by
:func:`client_network` (an IPv6 client holds a whole /64).

The address is the socket's peer (``REMOTE_ADDR``) unless that peer is a proxy named in
``settings.TRUSTED_PROXIES`` (addresses or CIDR networks, from the ``TRUSTED_PROXIES``
environment variable; empty by default: no proxy is trusted). From a trusted proxy,
``X-Forwarded-For`` is read from the right (each proxy appends the address it received from)
and the first address that is not itself a trusted proxy is the client: whatever a client
writes to the left of that cannot move it.

uvicorn runs with ``--no-proxy-headers`` (``./dev serve``, bench/prodshape.py,
docs/production.md): this is the only place the header is read. Started otherwise, uvicorn
replaces the peer with an address from the header when the peer is one it trusts (127.0.0.1
by default), and ladder/edge.py turns such a client into one shared unverified address, so
no flag lets a header nobody in ``TRUSTED_PROXIES`` vouched for move a client.
"""

from __future__ import annotations

import ipaddress
from functools import cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def trusted_networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` as networks (a bare address is a network of one)."""
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def is_trusted_proxy(address: str) -> bool:
    networks = trusted_networks(tuple(settings.TRUSTED_PROXIES))
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The client's address: the socket's peer, or what a trusted proxy says it received."""
    return _client(request.META.get("REMOTE_ADDR") or "",
                   request.META.get("HTTP_X_FORWARDED_FOR", ""))


def scope_address(scope: dict) -> str:
    """:func:`client_address` of a websocket's ASGI scope."""
    peer = (scope.get("client") or ("",))[0] or ""
    forwarded = ",".join(value.decode("latin-1") for key, value in scope.get("headers", ())
                         if key.lower() == b"x-forwarded-for")
    return _client(peer, forwarded)


def _client(peer: str, forwarded_for: str) -> str:
    if not is_trusted_proxy(peer):
        return peer
    forwarded = [hop.strip() for hop in forwarded_for.split(",")]
    forwarded = [hop for hop in forwarded if hop]
    for hop in reversed(forwarded):
        if not is_trusted_proxy(hop):
            return hop
    # Every hop is a trusted proxy: the first one is as far back as anyone vouches for.
    return forwarded[0] if forwarded else peer


IPV6_NETWORK_BITS = 64  # what one IPv6 client (a home, a phone, a server) is given at least


def network_of(address: str) -> str:
    """An IPv4 address as it is; an IPv6 address as its /64 (``2001:db8:1:2::/64``), every
    address of which one client may use; anything else as it is."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d, an IPv4 client on a dual stack
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_NETWORK_BITS}", strict=False))
    return str(ip)


def client_network(request: HttpRequest) -> str:
    """The client's address as one client's budget: :func:`network_of` its address."""
    return network_of(client_address(request))
