"""The request is the contract: what the user stated (examples, names) read from their words."""
