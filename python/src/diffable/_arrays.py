"""Compact integer arrays for results: numpy arrays when numpy is installed, else array.array."""
import array

# numpy is optional, and imported on the first result rather than with the package (about 200 ms
# that `import diffable` alone need not pay). None until then; False when it is not installed.
_numpy = None


def _np():
    """numpy, imported once on first use, or False without it. O(1) after the first call.

    A numpy that is installed but fails to import (a broken build raises more than
    ImportError) counts as absent, with one warning naming why: the package works without
    it, and the import is not retried on every diff."""
    global _numpy
    if _numpy is None:
        try:
            import numpy
        except ImportError:  # pragma: no cover - exercised on machines without numpy
            numpy = False
        except Exception as error:
            import warnings

            warnings.warn(f"diffable: numpy failed to import ({error!r}); results are plain arrays", RuntimeWarning,
                          stacklevel=_first_caller_outside_package())
            numpy = False
        _numpy = numpy
    return _numpy


def _first_caller_outside_package():
    """The `stacklevel` that names, for a warning raised in this module's caller, the first
    frame outside the package: the user's line that led to it. O(stack depth)."""
    import os
    import sys

    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    level, frame = 1, sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        level += 1
        frame = frame.f_back
    return level


def int32_array(data: bytes):
    """The int32 values packed in `data` (native order), zero-copy with numpy. O(1) / O(n)."""
    numpy = _np()
    if numpy:
        return numpy.frombuffer(data, dtype=numpy.int32)
    values = array.array("i")
    values.frombytes(data)
    return values


def pairs(data: bytes):
    """Pairs of int32 packed in `data`: a k x 2 numpy array, or a list of (a, b) tuples. O(k)."""
    numpy = _np()
    if numpy:
        return numpy.frombuffer(data, dtype=numpy.int32).reshape(-1, 2)
    flat = memoryview(data).cast("i")
    return list(zip(flat[0::2], flat[1::2]))


def as_list(values):
    """Plain Python ints of an array from this module. O(n)."""
    return values.tolist()
