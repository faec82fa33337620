"""The client's address, the one place it is read: throttles (games.web.throttles), the daily's
address flags (games.api_daily) and the admin-login limit (ladder.middleware) all call
:func:`client_address`; limits that one client must not multiply count by
:func:`client_network` (an IPv6 client holds a whole /64).

The address is the peer the ASGI server gives (``REMOTE_ADDR``, a websocket scope's
``client``). Behind a reverse proxy uvicorn puts the client there: started with
``--forwarded-allow-ips`` naming the proxies (addresses or CIDR networks; docs/production.md),
its ``ProxyHeadersMiddleware`` reads ``X-Forwarded-For`` from such a peer only, from the
right, and takes the first address that is not itself a trusted proxy, so whatever a client
writes to the left of that cannot move it. That is what this module did itself, with a layer
(``ladder/edge.py``, deleted) for when uvicorn was started without ``--no-proxy-headers``;
uvicorn (0.55 here) takes CIDR networks and reads the header as this module did
(tests/production/test_forwarded_peer.py runs the application under uvicorn's own
middleware), so the header is read in one place, uvicorn's, and never here.
"""

from __future__ import annotations

import ipaddress

from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address: the peer, as the ASGI server (behind a proxy, uvicorn) gives it."""
    return request.META.get("REMOTE_ADDR") or ""


def scope_address(scope: dict) -> str:
    """:func:`client_address` of a websocket's ASGI scope."""
    return (scope.get("client") or ("",))[0] or ""


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
