"""Shared fixtures. Real model requests are forbidden unless a test opts in."""

from __future__ import annotations
