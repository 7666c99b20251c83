"""Sandboxes that run generated code: docker, bubblewrap, unsafe local."""
