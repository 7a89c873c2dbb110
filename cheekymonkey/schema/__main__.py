"""``python -m cheekymonkey.schema``: regenerate the shipped schema files of every registered game that ships them."""

import sys

from cheekymonkey.games import games
from cheekymonkey.schema import schema_folder
from cheekymonkey.schema.generate import write_schemas

for game in games():
    if schema_folder(game) is not None:
        for path in write_schemas(game=game.name):
            print(path)
sys.exit(0)
