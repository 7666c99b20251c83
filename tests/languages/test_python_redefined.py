"""A draft's copies of its dependencies' classes and functions become imports of the
real ones; nothing else changes."""

from __future__ import annotations

from codeproof.languages.python.redefined import import_dependencies

STORE = (
    "class Inventory:\n    def __init__(self):\n        self.stock = {}\n\n\n"
    "def parse_sku(text):\n    return text.upper()\n\n\ndef _helper():\n    pass\n\n\n"
    "def main():\n    pass\n"
)
DRAFT = (
    '"""The report."""\nimport csv\n\n\nclass Inventory:\n    def __init__(self):\n'
    "        self.items = {}\n\n\n@staticmethod\ndef parse_sku(text):\n    return text\n\n\n"
    "def _helper():\n    return 1\n\n\ndef main():\n    print(1)\n\n\n"
    "def to_csv(inventory):\n    return ''\n"
)


def test_copies_of_a_dependency_become_imports() -> None:
    fitted = import_dependencies(DRAFT, "report.py", {"store.py": STORE})
    assert fitted == (
        '"""The report."""\nimport csv\nfrom store import Inventory\nfrom store import parse_sku\n'
        "\n\ndef _helper():\n    return 1\n\n\ndef main():\n    print(1)\n\n\n"
        "def to_csv(inventory):\n    return ''\n"
    )
    compile(fitted, "report.py", "exec")


def test_what_is_not_a_copy_is_left_alone() -> None:
    assert import_dependencies(DRAFT, "report.py", {}) == DRAFT
    assert import_dependencies(DRAFT, "report.py", {"store.py": "class Inventory(:\n"}) == DRAFT
    assert import_dependencies(DRAFT, "report.py", {"store.js": STORE}) == DRAFT
    assert import_dependencies(DRAFT, "store.py", {"store.py": STORE}) == DRAFT  # itself
    broken = "class Inventory:\n    def f(self:\n"
    assert import_dependencies(broken, "report.py", {"store.py": STORE}) == broken


def test_a_copy_before_the_imports_is_imported_at_the_top() -> None:
    draft = "class Inventory:\n    pass\n\n\nimport csv\n\n\ndef to_csv(i):\n    return ''\n"
    fitted = import_dependencies(draft, "report.py", {"store.py": STORE})
    assert fitted.startswith("from store import Inventory\n")
    assert "class Inventory" not in fitted and "import csv\n" in fitted


def test_a_dependency_name_used_without_an_import_is_imported() -> None:
    draft = (
        "import csv\n\n\ndef report(inv):\n    return parse_sku(inv) + Inventory.x\n\n\n"
        "def other(main):\n    return main\n"
    )
    fitted = import_dependencies(draft, "report.py", {"store.py": STORE})
    assert fitted.startswith(
        "import csv\nfrom store import Inventory\nfrom store import parse_sku\n"
    )
    bound = "from store import *\n\n\ndef f(parse_sku):\n    return parse_sku(1)\n"
    assert import_dependencies(bound, "report.py", {"store.py": STORE}) == bound
    local = "def parse_sku(t):\n    return t\n\n\ndef f():\n    return parse_sku(1)\n"
    assert "from store import parse_sku" in import_dependencies(local, "r.py", {"store.py": STORE})


def test_a_name_the_module_declares_stays_its_own() -> None:
    # an own request stated describe() for reading.py; the chosen temperature.py defined a
    # describe too, and reading.py's own became an import of the other module's
    temperature = (
        "def to_fahrenheit(c):\n    return c * 9 / 5 + 32\n\n\ndef describe(c):\n    return ''\n"
    )
    reading = (
        "from temperature import to_fahrenheit\n\n\n"
        "def describe(c):\n    return f'{c} C ({to_fahrenheit(c)} F)'\n"
    )
    deps = {"temperature.py": temperature}
    assert import_dependencies(reading, "reading.py", deps, own=["describe"]) == reading
    assert "from temperature import describe" in import_dependencies(reading, "reading.py", deps)
