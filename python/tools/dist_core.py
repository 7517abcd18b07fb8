"""meson dist script: puts the C core's sources into the sdist as cdiffcore/, so the sdist compiles
on its own. meson dist archives python/ as committed (git archive HEAD); the core is taken the
same way, from HEAD, so both halves of the sdist come from one commit. Outside git (a plain copy
of the repository) the core is copied as it is on disk."""
import io
import os
import pathlib
import shutil
import subprocess
import tarfile

source = pathlib.Path(os.environ["MESON_PROJECT_SOURCE_ROOT"])  # python/
target = pathlib.Path(os.environ["MESON_PROJECT_DIST_ROOT"]) / "cdiffcore"
core = "CSources/CDiffCore"
try:
    archive = subprocess.run(["git", "archive", "--format=tar", "HEAD", "--", core], cwd=source.parent,
                             check=True, capture_output=True).stdout
except (OSError, subprocess.CalledProcessError):
    archive = None
if archive:
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile():
                path = target / pathlib.PurePosixPath(member.name).relative_to(core)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(tar.extractfile(member).read())
else:
    shutil.copytree(source.parent / core, target)
if not (target / "include" / "dfc.h").is_file():
    raise SystemExit(f"dist_core.py: {core} holds no include/dfc.h")
