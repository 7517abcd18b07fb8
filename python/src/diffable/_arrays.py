"""Compact integer arrays for results: numpy arrays when numpy is installed, else array.array."""
import array

try:  # numpy is optional: results are numpy arrays only when it is installed
    import numpy as _numpy
except ImportError:  # pragma: no cover - exercised on machines without numpy
    _numpy = None


def int32_array(data: bytes):
    """The int32 values packed in `data` (native order), zero-copy with numpy. O(1) / O(n)."""
    if _numpy is not None:
        return _numpy.frombuffer(data, dtype=_numpy.int32)
    values = array.array("i")
    values.frombytes(data)
    return values


def pairs(data: bytes):
    """Pairs of int32 packed in `data`: a k x 2 numpy array, or a list of (a, b) tuples. O(k)."""
    if _numpy is not None:
        return _numpy.frombuffer(data, dtype=_numpy.int32).reshape(-1, 2)
    flat = memoryview(data).cast("i")
    return list(zip(flat[0::2], flat[1::2]))


def as_list(values):
    """Plain Python ints of an array from this module. O(n)."""
    return values.tolist()
