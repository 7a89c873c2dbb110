"""``python -m cheekymonkey.schema``: regenerate the shipped schema files from the types."""

import sys

from cheekymonkey.schema.generate import write_schemas

for path in write_schemas():
    print(path)
sys.exit(0)
