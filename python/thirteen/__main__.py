"""``python -m thirteen``: the ``thirteen`` command."""

import sys

from thirteen.cli import main

sys.exit(main())
