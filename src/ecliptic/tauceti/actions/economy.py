"""economy (rules land in a later commit)."""
