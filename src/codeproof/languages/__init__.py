"""languages."""
