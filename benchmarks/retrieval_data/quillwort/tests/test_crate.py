import pytest
from quillwort.crate import Crate
from quillwort.errors import ShortfallError


def test_stow_and_draw():
    crate = Crate("A1")
    crate.stow("gear", 3)
    assert crate.draw("gear", 2) == 1


def test_shortfall_names_what_is_missing():
    crate = Crate("A1")
    crate.stow("bolt", 1)
    with pytest.raises(ShortfallError) as caught:
        crate.draw("bolt", 4)
    assert caught.value.missing == 3


def test_manifest_heaviest_first():
    crate = Crate("A1")
    crate.stow("spring", 9)
    crate.stow("gear", 2)
    assert crate.manifest() == [("gear", 2), ("spring", 9)]
