"""The errors quillwort raises."""


class QuillError(Exception):
    """Base of every quillwort error."""


class ShortfallError(QuillError):
    """A crate holds fewer units of an item than were asked for.

    Attributes:
        item: The item asked for.
        missing: How many units were missing.
    """

    def __init__(self, item: str, missing: int) -> None:
        super().__init__(f"{missing} x {item} missing")
        self.item = item
        self.missing = missing


class TagFormatError(QuillError):
    """A text is not a packed tag (``name#Lnn``)."""
