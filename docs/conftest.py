"""pytest set-up for the docs: run the examples in the pages, not the Sphinx configuration."""

collect_ignore = ["conf.py", "_ext"]
collect_ignore_glob = ["_build/*"]
