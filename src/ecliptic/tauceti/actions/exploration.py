"""exploration (rules land in a later commit)."""
