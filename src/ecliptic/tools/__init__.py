"""Maintenance tools for the project itself (not part of the rules engine).

``python -m ecliptic.tools.coverage`` checks, and with ``--write`` regenerates, the rule
coverage tables (docs/rules-coverage.md).
"""
