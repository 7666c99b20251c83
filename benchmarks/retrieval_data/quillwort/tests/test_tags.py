import pytest
from quillwort.errors import TagFormatError
from quillwort.tags import bump, pack_tag, unpack_tag


def test_round_trip():
    assert unpack_tag(pack_tag("ember", 7)) == ("ember", 7)


def test_bump_caps_at_99():
    assert bump("ember#L98", 5) == "ember#L99"


def test_bad_tag():
    with pytest.raises(TagFormatError):
        unpack_tag("ember-7")
