"""Write ``web/static/js/messages.js``, the web client's copy of the message catalogs.

Run ``python -m tuolaji.messages.to_js`` after editing ``en.json`` or ``zh.json``;
``tests/test_messages.py`` fails while the generated file is stale.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import LANGUAGES, catalog

TARGET = Path(__file__).resolve().parent.parent / "web" / "static" / "js" / "messages.js"


def render() -> str:
    data = {lang: catalog(lang) for lang in LANGUAGES}
    body = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)
    return (
        "// @ts-check\n"
        "// Generated from src/tuolaji/messages/*.json by `python -m tuolaji.messages.to_js`; do not edit.\n"
        "/** @type {Record<'en' | 'zh', Record<string, Record<string, string>>>} */\n"
        f"export const CATALOG = {body};\n"
    )


def main() -> None:
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
