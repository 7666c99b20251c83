"""Fixtures of the agent tests: a tiny spec, its module and the conventions texts."""

from __future__ import annotations

import pytest

from codeproof.core.types import Module, ModulePlan, Spec


@pytest.fixture
def spec() -> Spec:
    return Spec(
        title="Adder",
        summary="A function add(a, b) that returns the sum.",
        language="python",
        functional_requirements=["add returns a + b"],
        interfaces=["add(a: int, b: int) -> int"],
        acceptance_examples=["add(1, 2) -> 3", "add(-1, 1) -> 0"],
    )


@pytest.fixture
def module() -> Module:
    return Module(
        name="adder",
        purpose="Adds two numbers.",
        language="python",
        public_interface="add(a: int, b: int) -> int",
    )


@pytest.fixture
def plan() -> ModulePlan:
    return ModulePlan(steps=["Define add(a, b).", "Return a + b."])
