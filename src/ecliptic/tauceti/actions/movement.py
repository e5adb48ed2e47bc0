"""movement (rules land in a later commit)."""
