"""Ecliptic: Tau Ceti: Planetary Crisis and Ceres: Comets as a deterministic rules engine."""

__version__ = "0.1.0"
