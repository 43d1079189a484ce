"""The ``tuolaji`` command: each sub-command lives in its own module with its own options."""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "play": ("tuolaji.server.cli", "open the table in the browser: you and three computer players (default)"),
    "serve": ("tuolaji.server.cli", "serve the table on the network (--host 0.0.0.0 --port N)"),
    "demo": ("tuolaji.demo", "four computer players play a whole match, printed round by round"),
    "judge": ("tuolaji.judge_cli", "answer rules questions: JSON lines on stdin and stdout"),
    "sim": ("tuolaji.sim.cli", "duplicate tournaments between computer players"),
    "build-web": ("tuolaji.offline.build", "write the offline build: the whole game as a static folder (PWA)"),
}


def usage() -> str:
    lines = ["usage: tuolaji [command] [options]", "", "commands:"]
    lines += [f"  {name:<6} {desc}" for name, (_, desc) in COMMANDS.items()]
    lines += ["", "Run 'tuolaji COMMAND --help' for a command's options; 'tuolaji --version' for the version."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if args and args[0] in ("-V", "--version"):
        from . import __version__

        print(f"tuolaji {__version__}")
        return 0
    command = args.pop(0) if args and not args[0].startswith("-") else "play"
    if command not in COMMANDS:
        print(f"tuolaji: unknown command {command!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module_name = COMMANDS[command][0]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(f"tuolaji {command}: not available ({exc})", file=sys.stderr)
        return 2
    if command in ("play", "serve"):
        return int(module.main(args, command=command) or 0)
    return int(module.main(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
