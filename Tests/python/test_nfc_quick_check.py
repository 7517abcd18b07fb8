"""The C core's NFC quick check (dfc_hash_if_nfc) against Unicode's own data.

The check may say "not known to be NFC" for NFC strings (the caller then normalizes),
but it must never say "NFC" for a string that is not: that would give canonically
equivalent strings different keys. Every code point it accepts is checked here to be
NFC on its own, of combining class 0 and never the second half of a canonical
composition, which together make every string of them NFC.
"""
import ctypes
import pathlib
import random
import unicodedata

import pytest
import xxhash

LIBRARY = pathlib.Path(__file__).resolve().parents[2] / "build" / "libdfc.so"  # `make lib`


@pytest.fixture(scope="module")
def hash_if_nfc():
    library = ctypes.CDLL(str(LIBRARY))
    function = library.dfc_hash_if_nfc
    function.restype = ctypes.c_int
    function.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)]

    def call(data: bytes):
        key = ctypes.c_uint64(0)
        return (function(data, len(data), 0, ctypes.byref(key)) == 1), key.value

    return call


def composition_seconds():
    seconds = set()
    for code_point in range(0x110000):
        mapping = unicodedata.decomposition(chr(code_point))
        if mapping and not mapping.startswith("<"):
            parts = mapping.split()
            if len(parts) == 2:
                seconds.add(int(parts[1], 16))
    # Hangul: leading + vowel jamo, and LV syllables + trailing jamo, compose by rule.
    seconds.update(range(0x1161, 0x1176), range(0x11A8, 0x11C3))
    return seconds


def test_every_accepted_code_point_keeps_any_string_nfc(hash_if_nfc):
    seconds = composition_seconds()
    accepted = 0
    for code_point in range(0x110000):
        if 0xD800 <= code_point <= 0xDFFF:
            continue
        character = chr(code_point)
        is_known_nfc, key = hash_if_nfc(character.encode("utf-8"))
        if not is_known_nfc:
            continue
        accepted += 1
        assert unicodedata.category(character) != "Cn", f"U+{code_point:04X} is unassigned"
        assert unicodedata.is_normalized("NFC", character), f"U+{code_point:04X} is not NFC"
        assert unicodedata.combining(character) == 0, f"U+{code_point:04X} has a combining class"
        assert code_point not in seconds, f"U+{code_point:04X} composes with what precedes it"
        assert key == xxhash.xxh3_64_intdigest(character.encode("utf-8"))
    # ASCII, Latin, Cyrillic, kana, CJK, Hangul, emoji: tens of thousands of code points.
    assert accepted > 30_000


def test_ascii_of_every_length_is_hashed_in_place(hash_if_nfc):
    for length in range(0, 70):
        data = bytes(random.Random(length).choices(range(0x20, 0x7F), k=length))
        assert hash_if_nfc(data) == (True, xxhash.xxh3_64_intdigest(data))


@pytest.mark.parametrize(
    "data",
    [
        "cafe\u0301".encode(),  # combining acute accent
        "\u1100\u1161".encode(),  # jamo that compose into a syllable
        "\u212b".encode(),  # ANGSTROM SIGN, a singleton decomposition
        b"\xc0\xaf",  # overlong encoding
        b"\xed\xa0\x80",  # a surrogate
        b"abcdefgh\xff",  # invalid byte after a full ASCII word
        b"\xe6\x97",  # truncated sequence
    ],
)
def test_strings_that_need_normalizing_or_are_not_utf8_are_left_to_the_caller(hash_if_nfc, data):
    assert hash_if_nfc(data)[0] is False


def test_random_mixed_strings_agree_with_nfc(hash_if_nfc):
    rng = random.Random(7)
    alphabet = [chr(c) for c in list(range(0x20, 0x7F)) + [0xE9, 0x301, 0x416, 0x3042, 0x3099, 0x65E5, 0xAC00, 0x11A8, 0x1F600, 0x2126]]
    for _ in range(20_000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 12)))
        data = text.encode("utf-8")
        is_known_nfc, key = hash_if_nfc(data)
        if is_known_nfc:
            assert unicodedata.is_normalized("NFC", text)
            assert key == xxhash.xxh3_64_intdigest(data)
