"""Ceres with its Comets expansion.

The host game is a documented reconstruction of the parts of base Ceres that the Comets
expansion acts on (docs/ceres.md, docs/rules-decisions.md (section Ceres)); the Comets expansion
(``expansions: ["comets"]``) follows its rulebook sentence by sentence (rule ids
``CC-...``, see :mod:`ecliptic.ceres.rules`).
"""
