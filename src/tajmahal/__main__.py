"""``python -m tajmahal``: the command line (see :mod:`tajmahal.cli`)."""

from tajmahal.cli import main

raise SystemExit(main())
