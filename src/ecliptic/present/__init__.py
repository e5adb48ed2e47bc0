"""What a person reads: action labels (the terminal game and the web client share them)."""
