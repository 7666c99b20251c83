"""choosing."""
