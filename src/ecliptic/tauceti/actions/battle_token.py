"""battle_token (rules land in a later commit)."""
