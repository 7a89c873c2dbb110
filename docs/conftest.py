"""pytest set-up for the docs: run the examples in the pages and the extension, not the Sphinx configuration."""

collect_ignore = ["conf.py"]
collect_ignore_glob = ["_build/*"]
