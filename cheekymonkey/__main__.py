"""``python -m cheekymonkey``: the same as the ``cheekymonkey`` command."""

import sys

from cheekymonkey.cli import main

sys.exit(main())
