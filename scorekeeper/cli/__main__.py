"""`python -m scorekeeper.cli`: the console command, run from the code beside it."""

import sys

from . import main

sys.exit(main())
