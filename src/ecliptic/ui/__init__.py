"""Terminal front ends (Rich): drawing a game for one seat (see :mod:`ecliptic.ui.terminal`)."""
