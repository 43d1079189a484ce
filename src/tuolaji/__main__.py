"""``python -m tuolaji``: the same as the ``tuolaji`` command."""

from .cli import main

raise SystemExit(main())
