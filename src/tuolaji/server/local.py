"""The player at this computer: in ``tuolaji play`` every human seat belongs to them.

The seat token lives in the browser's storage, which is per origin: the same table opened as
``localhost`` instead of ``127.0.0.1``, or on another port after a restart, starts with no token
and would only watch its own game. On a play-mode server (this computer's table, not a LAN room
server) a client that connects over loopback from a loopback page is that player, so it is
recognised as the owner of the games' human seats whatever its token.

Web pages of other sites must not borrow this: a request whose ``Origin`` names another host
(a page elsewhere, or a DNS name rebound to 127.0.0.1) is not the local player.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from .room import Room


def is_loopback(host: str | None) -> bool:
    """Is ``host`` (an address or a name) this computer's loopback?"""
    if not host:
        return False
    host = host.strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_local_player(mode: str, peer: str | None, origin: str | None) -> bool:
    """Is this client the player at this computer of a ``tuolaji play`` server?

    ``peer`` is the client's address; ``origin`` the request's ``Origin`` header (absent on a
    same-origin GET). Only a play-mode server has a single local player; ``tuolaji serve`` is for
    a room of people, some of whom may share a computer.
    """
    if mode != "play" or not is_loopback(peer):
        return False
    return origin is None or is_loopback(urlsplit(origin).hostname)


def local_seat(room: Room) -> int | None:
    """The human seat the local player takes back: the first nobody is connected to, else the first."""
    humans = [i for i, s in enumerate(room.seats) if s.token is not None]
    free = [i for i in humans if not room.connected(i)]
    pick = free or humans
    return pick[0] if pick else None


def reclaim(room: Room, token_hash: str) -> int | None:
    """Give the local player's current token the seat they own in ``room`` (None: no human seat).

    The seat (and the host role, when it went with the seat) moves to the new token, so that
    everything keyed by the token — acting, the start page's "yours", deleting — follows.
    """
    seat = local_seat(room)
    if seat is None:
        return None
    old = room.seats[seat].token
    room.seats[seat].token = token_hash
    if room.host is None or room.host == old:
        room.host = token_hash
    room.dirty = True
    return seat
