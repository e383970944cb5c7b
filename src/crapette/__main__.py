"""``python -m crapette`` runs the command line."""

import sys

from crapette.cli import main

sys.exit(main())
