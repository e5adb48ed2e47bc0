"""The balance studio: many bot games of one or more variants (arms), streamed to a JSON Lines
file as they finish, and a report of what they show (docs/balance.md).

- :mod:`ecliptic.balance.probes`: what one game tells a designer (a record per game);
- :mod:`ecliptic.balance.study`: the arms of a study, its sweeps, and running it (resumable);
- :mod:`ecliptic.balance.stream`: the study file (a header line, then one record per game);
- :mod:`ecliptic.balance.stats`: intervals, tests, Holm's correction, games needed;
- :mod:`ecliptic.balance.results`: the study file folded into ``results.json`` (streaming);
- :mod:`ecliptic.balance.figures`: the Matplotlib figures (reproducible SVG);
- :mod:`ecliptic.balance.report`: ``index.html`` (Jinja2) with the figures and their tables;
- :mod:`ecliptic.balance.command`: ``ecliptic balance`` and ``ecliptic balance report``.

The games are played on a backend (:mod:`ecliptic.sim.backends`: local processes or Ray).
"""
