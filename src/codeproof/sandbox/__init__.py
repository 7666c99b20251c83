"""Sandboxes that run generated code: docker, bubblewrap, unsafe local.

Entry points: :func:`codeproof.sandbox.registry.open_session` and
:func:`codeproof.sandbox.registry.get_sandbox`; the protocol is in
:mod:`codeproof.sandbox.base`.
"""
