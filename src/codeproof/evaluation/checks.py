"""``codeproof doctor`` check of the evaluation data (never required)."""

from __future__ import annotations

from codeproof.core.checks import CheckResult
from codeproof.core.config import Settings
from codeproof.core.errors import InputError
from codeproof.evaluation.datasets import BUILTIN_DATASETS, load_dataset


def check_benchmarks(settings: Settings) -> CheckResult:
    """The built-in datasets of ``codeproof eval`` load."""

    found, missing = [], []
    for name in BUILTIN_DATASETS:
        try:
            found.append(
                f"{name} ({len(load_dataset(name, data_dir=settings.evaluation.data_dir))})"
            )
        except InputError as exc:
            missing.append(f"{name}: {exc.message}")
    if not missing:
        return CheckResult("eval: datasets", True, ", ".join(found), required=False)
    return CheckResult(
        "eval: datasets",
        False,
        "; ".join(missing),
        fix="pip install 'codeproof[eval]'; run from the checkout or set evaluation.data_dir "
        "to shared/benchmarks",
        required=False,
    )
