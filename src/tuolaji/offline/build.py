"""``tuolaji build-web OUT_DIR``: the static, offline build of the game.

The folder it writes needs no server logic; any static file server serves it::

    index.html  manifest.webmanifest  sw.js  build.json
    static/     the web client, the same files the server serves (offline/: boot, worker, font)
    icons/      PNG icons for the manifest (rendered from the subset font)
    pyodide/    the Pyodide runtime, copied from the ``pyodide`` npm package (only the files used)
    py/tuolaji.zip   the tuolaji package without its server, CLI and tournament modules

Needs, at build time only: ``npm ci`` run in the repository (for ``node_modules/pyodide``), the
Noto Sans CJK font (Debian: fonts-noto-cjk; SIL Open Font License) and the ``web`` extra
(fontTools, brotli, Pillow).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent  # src/tuolaji
STATIC = PACKAGE / "web" / "static"
OFFLINE_WEB = STATIC / "offline"  # boot.js, worker.js, offline.css and the sw.js template

# The runtime files loadPyodide() fetches; the rest of the npm package (consoles, typings,
# source maps, the classic-script loader) is not needed.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "package.json")
# Modules the worker never imports: the Starlette app, SQLite store, CLIs, tournaments (threads,
# processes, Ray), the external-bot subprocess bridge, terminal output, and this build script.
EXCLUDED = (
    "cli.py",
    "demo.py",
    "judge_cli.py",
    "server/app.py",
    "server/cli.py",
    "server/store.py",
    "server/testing.py",
    "sim/",
    "bots/external.py",
    "offline/build.py",
    "web/",
)
FONT_FILE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FONT_INDEX_SC = 2  # Noto Sans CJK SC in the collection
FONT_LICENSE = Path("/usr/share/doc/fonts-noto-cjk/copyright")
FONT_FAMILY = "Tuolaji CJK"
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # fixed timestamps: the same sources give the same zip


class BuildError(Exception):
    """The build cannot go on (a missing prerequisite); the message says what to install."""


def find_pyodide(explicit: str | None) -> Path:
    candidates = (
        [Path(explicit)]
        if explicit
        else [Path.cwd() / "node_modules" / "pyodide", PACKAGE.parent.parent / "node_modules" / "pyodide"]
    )
    for c in candidates:
        if (c / "pyodide.asm.wasm").is_file():
            return c
    raise BuildError(
        "the Pyodide runtime was not found (looked in "
        + ", ".join(map(str, candidates))
        + "); run `npm ci` in the repository first, or pass --pyodide DIR"
    )


def packed_files() -> list[Path]:
    """The package files the worker needs, relative to the package directory."""
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not path.is_file() or "__pycache__" in rel or rel.startswith(EXCLUDED):
            continue
        if path.suffix in (".py", ".json") or rel == "py.typed":
            out.append(path.relative_to(PACKAGE))
    return out


def pack_package(dest: Path) -> None:
    """tuolaji/… as a zip the worker unpacks into Pyodide's site-packages."""
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for rel in packed_files():
            info = zipfile.ZipInfo(f"tuolaji/{rel.as_posix()}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, (PACKAGE / rel).read_bytes())


def ui_text() -> str:
    """Every text the UI can show: the client's files, and the package's messages and presets."""
    parts = [
        p.read_text(encoding="utf-8")
        for p in sorted(STATIC.rglob("*"))
        if p.is_file() and p.suffix in (".js", ".html", ".css", ".svg")
    ]
    parts += [(PACKAGE / rel).read_text(encoding="utf-8") for rel in packed_files()]
    return "".join(parts)


def glyphs(text: str) -> str:
    ascii_ = "".join(chr(c) for c in range(0x20, 0x7F))
    wide = {ch for ch in text if ord(ch) > 0x7F and ch.isprintable()}
    return ascii_ + "".join(sorted(wide)) + "\u00a0…·—–“”‘’"


def subset_font(dest: Path, text: str, *, font_file: Path = FONT_FILE) -> int:
    """A WOFF2 subset of Noto Sans CJK SC with only these characters; returns the glyph count."""
    try:
        from fontTools import subset  # type: ignore[import-untyped]
        from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
    except ImportError:
        raise BuildError("fontTools is missing: pip install -e '.[web]'") from None
    if not font_file.is_file():
        raise BuildError(f"no {font_file}: install the Noto CJK fonts (apt-get install fonts-noto-cjk)")
    font = TTFont(font_file, fontNumber=FONT_INDEX_SC, lazy=False)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True
    sub = subset.Subsetter(options=options)
    sub.populate(text=text)
    sub.subset(font)
    try:
        font.flavor = "woff2"
        font.save(dest)
    except ImportError:
        raise BuildError("brotli is missing (WOFF2): pip install -e '.[web]'") from None
    return len(font.getGlyphOrder())


def render_icons(out: Path, *, font_file: Path) -> list[dict[str, Any]]:
    """PNG icons: 拖 in white on the table's green, plain and maskable (content in the safe zone)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise BuildError("Pillow is missing: pip install -e '.[web]'") from None
    out.mkdir(parents=True, exist_ok=True)
    icons = []
    for size, purpose, scale in ((192, "any", 0.66), (512, "any", 0.66), (512, "maskable", 0.5)):
        img = Image.new("RGB", (size, size), (30, 94, 56))
        draw = ImageDraw.Draw(img)
        font = ImageFont.truetype(str(font_file), int(size * scale), index=FONT_INDEX_SC)
        draw.text((size / 2, size / 2), "拖", font=font, fill=(255, 255, 255), anchor="mm")
        if purpose == "any":  # a red corner pip, like a card's
            r = size // 10
            draw.ellipse((size - 2.2 * r, r * 0.6, size - 0.6 * r, 2.2 * r), fill=(200, 40, 40))
        name = f"icon-{size}{'-maskable' if purpose == 'maskable' else ''}.png"
        img.save(out / name, optimize=True)
        icons.append({"src": f"icons/{name}", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose})
    return icons


def manifest(icons: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "拖拉机",
        "short_name": "拖拉机",
        "description": "拖拉机 (升级 / Tractor) — 单机版 · offline card game",
        "lang": "zh-CN",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#1e5e38",
        "theme_color": "#1e5e38",
        "icons": icons,
    }


def index_html() -> str:
    """The server's page, with the offline boot script instead of the client's entry point."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace('href="/static/', 'href="static/').replace('src="/static/', 'src="static/')
    head = (
        '  <link rel="manifest" href="manifest.webmanifest">\n'
        '  <meta name="theme-color" content="#1e5e38">\n'
        '  <link rel="apple-touch-icon" href="icons/icon-192.png">\n'
        '  <link rel="stylesheet" href="static/offline/offline.css">\n'
    )
    entry = '<script type="module" src="static/js/app.js"></script>'
    if entry not in html:
        raise BuildError(f"index.html no longer loads the client as {entry!r}: update offline/build.py")
    html = html.replace(entry, '<script type="module" src="static/offline/boot.js"></script>')
    return html.replace("</head>", head + "</head>")


def digest(root: Path) -> tuple[list[str], str, int]:
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    h = hashlib.sha256()
    size = 0
    for f in files:
        data = (root / f).read_bytes()
        size += len(data)
        h.update(f.encode() + b"\0" + hashlib.sha256(data).digest())
    return files, h.hexdigest()[:16], size


def build(out: Path, *, pyodide_dir: Path, font_file: Path = FONT_FILE) -> dict[str, Any]:
    if out.exists():
        if not (out / "build.json").is_file() and any(out.iterdir()):
            raise BuildError(f"{out} exists and is not an earlier build; choose an empty or new folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    # the client, unchanged, and the offline parts next to it
    shutil.copytree(STATIC, out / "static", ignore=shutil.ignore_patterns("__pycache__"))
    (out / "static" / "offline" / "sw.js").unlink()  # a template: the real one is written at the root
    # the runtime
    (out / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide_dir / name, out / "pyodide" / name)
    pyodide_version = json.loads((pyodide_dir / "package.json").read_text())["version"]
    (out / "py").mkdir()
    pack_package(out / "py" / "tuolaji.zip")
    # Chinese for machines without a CJK font
    text = ui_text()
    n_glyphs = subset_font(out / "static" / "offline" / "cjk.woff2", text, font_file=font_file)
    if FONT_LICENSE.is_file():
        shutil.copy2(FONT_LICENSE, out / "static" / "offline" / "FONT-LICENSE.txt")
    icons = render_icons(out / "icons", font_file=font_file)
    (out / "manifest.webmanifest").write_text(json.dumps(manifest(icons), ensure_ascii=False, indent=1), encoding="utf-8")
    (out / "index.html").write_text(index_html(), encoding="utf-8")
    from .. import __version__

    # the service worker caches every file of the build; its version changes with any of them
    files, version, size = digest(out)
    sw = (OFFLINE_WEB / "sw.js").read_text(encoding="utf-8")
    sw = sw.replace("__VERSION__", version).replace("__FILES__", json.dumps(["./"] + files))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    info = {
        "tuolaji": __version__,
        "pyodide": pyodide_version,
        "version": version,
        "files": len(files) + 2,
        "bytes": size + len(sw.encode()),
        "glyphs": n_glyphs,
    }
    (out / "build.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return info


def folder_size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tuolaji build-web", description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("out", help="the folder to write (replaced when it holds an earlier build)")
    ap.add_argument("--pyodide", help="the pyodide npm package's folder (default: node_modules/pyodide)")
    ap.add_argument("--font", default=str(FONT_FILE), help="Noto Sans CJK collection (.ttc) to subset")
    args = ap.parse_args(argv)
    try:
        info = build(Path(args.out), pyodide_dir=find_pyodide(args.pyodide), font_file=Path(args.font))
    except BuildError as exc:
        print(f"tuolaji build-web: {exc}", file=sys.stderr)
        return 1
    buf = io.StringIO()
    buf.write(
        f"wrote {args.out}: {info['files']} files, {info['bytes'] / 1e6:.1f} MB "
        f"(Pyodide {info['pyodide']}, font subset of {info['glyphs']} glyphs)\n"
    )
    buf.write("serve it with any static file server, e.g. python -m http.server -d " + args.out + "\n")
    print(buf.getvalue(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
