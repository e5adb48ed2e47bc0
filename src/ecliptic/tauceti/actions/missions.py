"""missions (rules land in a later commit)."""
