"""quillwort: crates, tags, hex cells and spans for a made-up warehouse game."""
