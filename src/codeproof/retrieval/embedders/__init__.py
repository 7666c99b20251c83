"""Implementations of :class:`codeproof.retrieval.embedding.Embedder`."""
