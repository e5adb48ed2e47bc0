"""minor (rules land in a later commit)."""
