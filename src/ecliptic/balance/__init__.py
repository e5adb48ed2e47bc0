"""The balance studio: many bot games of one or more variants (arms), streamed to a JSON Lines
file as they finish, and a report of what they show (docs/balance.md).

- :mod:`ecliptic.balance.probes`: what one game tells a designer (a record per game);
- :mod:`ecliptic.balance.study`: the arms of a study, its sweeps, and running it (resumable);
- :mod:`ecliptic.balance.stream`: the study file (a header line, then one record per game);
- :mod:`ecliptic.balance.stats`: intervals, tests, Holm's correction, games needed;
- :mod:`ecliptic.balance.report`: ``results.json`` and ``index.html`` with SVG figures.
"""
