"""java."""
