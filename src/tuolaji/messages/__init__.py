"""The message catalogs: every text a player reads, one JSON file per language.

``en.json`` and ``zh.json`` hold the same keys in sections: ``reason`` (why the engine or the
server refused something, keyed by :class:`tuolaji.errors.Reason`) and ``ui`` (the web client's
texts; the client reads them from ``web/static/js/messages.js``, generated from these files by
``python -m tuolaji.messages.to_js``), and the sections of the errors that carry a code and
fields: ``rules`` (:class:`tuolaji.ruleset.RulesProblem`), ``record``
(:class:`tuolaji.record.RecordProblem`), the coach's texts (``coach``), rule labels (``setting``,
``option``, ``preset``, ``preset_about``) and phase names (``phase``). Texts take ``str.format``
fields such as ``{n}``; a Chinese text may leave out an English-only detail field.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Literal, Protocol, runtime_checkable

Lang = Literal["en", "zh"]
LANGUAGES: tuple[Lang, ...] = ("en", "zh")


def lang_code(lang: str) -> Lang:
    """The catalog for a language tag: Chinese for any ``zh…`` tag, English otherwise."""
    return "zh" if lang.lower().startswith("zh") else "en"


@cache
def catalog(lang: Lang) -> dict[str, dict[str, str]]:
    from importlib import resources  # here, not at the top: it (and pathlib) would double the judge's import time

    data: dict[str, dict[str, str]] = json.loads(resources.files(__package__).joinpath(f"{lang}.json").read_text("utf-8"))
    return data


@runtime_checkable
class Localized(Protocol):
    """Something that says itself in a language (an error given as a field of another text)."""

    def message(self, lang: str) -> str: ...


def text(section: str, key: str, lang: str, /, **fields: object) -> str:
    """The text of ``key`` in the player's language (English when missing), fields filled in; a
    field that is :class:`Localized` (an error carried as the cause of another) in the same language."""
    raw = catalog(lang_code(lang)).get(section, {}).get(key) or catalog("en").get(section, {}).get(key) or key
    try:
        return raw.format(**{k: v.message(lang) if isinstance(v, Localized) else v for k, v in fields.items()})
    except (KeyError, IndexError, ValueError):
        return raw
