import sys

from minitools.cli import main

sys.exit(main())
