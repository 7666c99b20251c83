"""codeproof: code generation proven by tests run in a sandbox."""

__version__ = "0.1.0"
