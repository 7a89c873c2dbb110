"""``python -m cheekymonkey.schema``: regenerate every game's shipped schema files from the types."""

import sys

from cheekymonkey.schema import SCHEMA_GAMES
from cheekymonkey.schema.generate import write_schemas

for game in SCHEMA_GAMES:
    for path in write_schemas(game=game):
        print(path)
sys.exit(0)
