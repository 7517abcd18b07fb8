"""Prints the C core's version (DFC_VERSION_MAJOR.MINOR.RELEASE from dfc.h), the package's only
version: meson.build's project() takes it, so the wheel, the sdist and diffable.__version__ cannot
disagree with the core they compile. It reads the core where the build finds it: inside an sdist
(cdiffcore/, copied there by tools/dist_core.py) or in the repository (../CSources/CDiffCore)."""
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent.parent
for header in (here / "cdiffcore" / "include" / "dfc.h", here.parent / "CSources" / "CDiffCore" / "include" / "dfc.h"):
    if header.is_file():
        text = header.read_text(encoding="utf-8")
        parts = [re.search(rf"^#define DFC_VERSION_{name} (\d+)$", text, re.M) for name in ("MAJOR", "MINOR", "RELEASE")]
        if None in parts:
            sys.exit(f"{header}: DFC_VERSION_MAJOR/MINOR/RELEASE not found")
        print(".".join(p.group(1) for p in parts))
        break
else:
    sys.exit("dfc.h not found: build from a Diffable checkout (pip install ./python) or from the sdist")
