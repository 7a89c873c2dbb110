"""Checks a game's author runs in their own tests: :func:`check_noninterference`."""

from cheekymonkey.testing.noninterference import NoninterferenceError, NoninterferenceReport, check_noninterference

__all__ = ["NoninterferenceError", "NoninterferenceReport", "check_noninterference"]
