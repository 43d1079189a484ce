"""The message catalogs: every text a player reads, one JSON file per language.

``en.json`` and ``zh.json`` hold the same keys in sections: ``reason`` (why the engine or the
server refused something, keyed by :class:`tuolaji.errors.Reason`) and ``ui`` (the web client's
texts; the client reads them from ``web/static/js/messages.js``, generated from these files by
``python -m tuolaji.messages.to_js``). Texts take ``str.format`` fields such as ``{n}``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Literal

Lang = Literal["en", "zh"]
LANGUAGES: tuple[Lang, ...] = ("en", "zh")


def lang_code(lang: str) -> Lang:
    """The catalog for a language tag: Chinese for any ``zh…`` tag, English otherwise."""
    return "zh" if lang.lower().startswith("zh") else "en"


@cache
def catalog(lang: Lang) -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(resources.files(__package__).joinpath(f"{lang}.json").read_text("utf-8"))
    return data


def text(section: str, key: str, lang: str, /, **fields: object) -> str:
    """The text of ``key`` in the player's language (English when missing), fields filled in."""
    raw = catalog(lang_code(lang)).get(section, {}).get(key) or catalog("en").get(section, {}).get(key) or key
    try:
        return raw.format(**fields)
    except (KeyError, IndexError, ValueError):
        return raw
