"""GPT-2's byte-level alphabet, shared by the Python that writes or reads byte-level BPE vocabularies
(scripts/make_induction_model.py, test/reference/torch_forward.py, test/support/bpe-reference.py):
each of the 256 bytes as a printable character, Latin-1's printable ones as themselves and the others
from U+0100 on, in byte order (so the space is "Ġ", U+0120)."""


def bytes_to_unicode():
    """{byte: character} for the 256 bytes."""
    keep = list(range(ord('!'), ord('~') + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in keep:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars
