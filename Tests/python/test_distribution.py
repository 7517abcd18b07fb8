"""The package as installed: one version (the C core's, from dfc.h) everywhere, and, when
Tests/python/check_distribution.sh runs the tests, the diffable imported is the installed wheel's,
not the repository's sources."""
import importlib.metadata
import os
import pathlib
import re

import diffable

DFC_H = pathlib.Path(__file__).resolve().parents[2] / "CSources" / "CDiffCore" / "include" / "dfc.h"


def core_header_version():
    text = DFC_H.read_text()
    return ".".join(re.search(rf"^#define DFC_VERSION_{part} (\d+)$", text, re.M).group(1)
                    for part in ("MAJOR", "MINOR", "RELEASE"))


def test_one_version_from_dfc_h():
    assert diffable.__version__ == core_header_version() == diffable._core.core_version
    assert importlib.metadata.version("diffable") == diffable.__version__


def test_the_installed_wheel_is_the_one_tested():
    installed = os.environ.get("DIFFABLE_EXPECT_INSTALLED")
    if installed is None:
        return  # run from the repository against `pip install ./python`
    here = pathlib.Path(diffable.__file__).resolve()
    assert here.is_relative_to(pathlib.Path(installed).resolve()), here
    assert pathlib.Path(diffable._core.__file__).name.endswith(".abi3.so")


def test_the_install_instructions_name_this_version():
    """python/README.md's install lines name the files this version builds (they named 0.3.0 after
    0.5.0 was out, so a pasted command failed)."""
    readme = (DFC_H.parents[3] / "python" / "README.md").read_text()
    named = set(re.findall(r"pip install diffable-(\d+\.\d+\.\d+)", readme))
    assert named == {core_header_version()}, named


def test_the_licenses_ship_with_the_package():
    """The package's license and xxHash's (its XXH3 is compiled into the extension) are in the
    installed metadata, as an SPDX expression and as files."""
    distribution = importlib.metadata.distribution("diffable")
    assert distribution.metadata["License-Expression"] == "MIT AND BSD-2-Clause"
    shipped = {pathlib.PurePath(str(f)).name: f for f in distribution.files or [] if "licenses" in str(f).lower()}
    assert {"Diffable-MIT.txt", "xxHash-BSD-2-Clause.txt"} <= set(shipped), sorted(shipped)
    assert "Yann Collet" in shipped["xxHash-BSD-2-Clause.txt"].read_text()
    assert "Typing :: Typed" in distribution.metadata.get_all("Classifier")
