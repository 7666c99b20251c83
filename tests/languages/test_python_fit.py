"""A pytest file fitted to the interfaces the project's modules declare: imports from the
module that declares the name, a declared function called as a function; everything the
interface does not rule out is left as written."""

from __future__ import annotations

import pytest

from codeproof.choosing.interface import declared
from codeproof.core.types import Module
from codeproof.languages.python.fit import fit_tests
from codeproof.languages.reading import Declared

STORE = Module(
    name="store",
    purpose="",
    language="python",
    public_interface=(
        "class Inventory\nInventory.add(sku: str, qty: int) -> None\n"
        "Inventory.quantity(sku: str) -> int"
    ),
)
REPORT = Module(
    name="report",
    purpose="",
    language="python",
    public_interface="report.to_csv(inventory: Inventory) -> str",
)
PROJECT = [declared(REPORT), declared(STORE)]


def test_the_interface_is_read_into_functions_classes_and_methods() -> None:
    assert declared(STORE) == Declared(
        "store", classes={"Inventory": frozenset({"add", "quantity"})}
    )
    assert declared(REPORT) == Declared("report", functions=frozenset({"to_csv"}))
    bare = Module(name="m", purpose="", language="python", public_interface="f(x)\ng(y) -> int")
    assert declared(bare).functions == {"f", "g"}
    beside = Module(name="m", purpose="", language="python", public_interface="class C: f(x)")
    assert declared(beside).loose == {"f"} and declared(beside).functions == frozenset()


def test_a_name_is_imported_from_the_module_that_declares_it() -> None:
    source = "from report import Inventory, to_csv\n\n\ndef test_x():\n    assert Inventory()\n"
    fitted = fit_tests(source, PROJECT)
    assert fitted.splitlines()[0] == "from report import to_csv; from store import Inventory"
    compile(fitted, "test_x.py", "exec")


def test_a_declared_function_called_as_a_method_is_called_as_a_function() -> None:
    source = (
        "from store import Inventory\n\n\ndef test_csv():\n    inv = Inventory()\n"
        "    inv.add('A', 2)\n    assert inv.to_csv(header=True) == 'x'\n"
    )
    fitted = fit_tests(source, PROJECT)
    assert "from report import to_csv\n" in fitted
    assert "    assert to_csv(inv, header=True) == 'x'\n" in fitted
    assert "    inv.add('A', 2)\n" in fitted  # a declared method stays a method


def test_a_star_import_of_the_declaring_module_is_enough() -> None:
    source = (
        "from report import *\nfrom store import Inventory\n\n\ndef test_csv():\n"
        "    inv = Inventory()\n    assert inv.to_csv() == ''\n"
    )
    fitted = fit_tests(source, PROJECT)
    assert fitted.count("import") == 2 and "to_csv(inv) == ''" in fitted


@pytest.mark.parametrize(
    "body",
    [
        "    s = 'a,b'\n    assert s.to_csv() == 1\n",  # not made by a declared class
        "    inv = Inventory()\n    inv = other()\n    assert inv.to_csv() == 1\n",  # rebound
        "    inv = Inventory()\n    assert inv.quantity('A') == 0\n",  # a declared method
        "    inv = Inventory()\n    assert inv.unknown() == 0\n",  # declared nowhere
    ],
)
def test_what_the_interface_does_not_rule_out_is_left_alone(body: str) -> None:
    source = f"from store import Inventory\n\n\ndef test_x():\n{body}"
    assert fit_tests(source, PROJECT) == source


def test_a_class_without_listed_methods_may_have_any() -> None:
    bare = [declared(REPORT), Declared("store", classes={"Inventory": frozenset()})]
    source = "from store import Inventory\n\n\ndef test_x():\n    assert Inventory().to_csv()\n"
    assert fit_tests(source, bare) == source


def test_a_file_that_does_not_parse_comes_back_as_it_was() -> None:
    source = "from report import Inventory\ndef test_x(:\n"
    assert fit_tests(source, PROJECT) == source


def test_non_ascii_text_keeps_its_place() -> None:
    source = (
        "from store import Inventory\n\n\ndef test_é():\n    inv = Inventory()\n"
        "    assert inv.to_csv() == 'ü,ß'\n"
    )
    assert "    assert to_csv(inv) == 'ü,ß'\n" in fit_tests(source, PROJECT)


def test_a_declared_name_used_unbound_is_imported_from_its_module() -> None:
    # js-calculator at 639a211: the tests of calc called the dependency's tokenize
    # without requiring it ("tokenize is not defined" for every draft)
    source = (
        "from report import to_csv\n\n\ndef test_x():\n    inv = Inventory()\n"
        "    assert to_csv(inv) == ''\n"
    )
    assert fit_tests(source, PROJECT).startswith(
        "from report import to_csv\nfrom store import Inventory\n"
    )
    star = "from store import *\n\n\ndef test_x():\n    assert Inventory()\n"
    assert fit_tests(star, PROJECT) == star  # the file imports from the declaring module
    local = "def Inventory():\n    return 1\n\n\ndef test_x():\n    assert Inventory()\n"
    assert fit_tests(local, PROJECT) == local  # bound in the file


def test_a_name_only_a_module_built_apart_declares_is_not_imported() -> None:
    """Session 40: temperature's tests imported ``describe``, which ``reading`` builds
    later, and the whole file failed at its import."""
    temperature = declared(
        Module(name="temperature", purpose="", language="python", public_interface="to_f(c)")
    )
    source = (
        "from temperature import to_f, describe, kelvin\n\n\n"
        "def test_to_f():\n    assert to_f(0) == 32.0\n"
    )
    fitted = fit_tests(source, [temperature], {"describe"})
    assert fitted.splitlines()[0] == "from temperature import to_f, kelvin"
    alone = "from temperature import describe\nimport pytest\n"
    assert fit_tests(alone, [temperature], {"describe"}).splitlines() == ["", "import pytest"]
    assert fit_tests(source, [temperature]) == source  # nothing known elsewhere
