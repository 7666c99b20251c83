"""Implementations of :class:`codeproof.retrieval.store.Store`."""
