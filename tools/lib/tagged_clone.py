"""A bare clone of the repository's HEAD tagged with a version of its own, for the packages that
depend on ZKPin as an app does (tools/zkpinkit-test, tools/zkpinkit-bench): by URL and version,
since SwiftPM refuses unsafe flags only in a dependency required by version."""
import os
import shutil
import subprocess


def tagged_clone(root, clone):
    """Clones `root`'s HEAD to `clone` (replacing it) and tags it; answers (file URL, version,
    commit). The version is new for every commit: a moved tag is not fetched again."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    shutil.rmtree(clone, ignore_errors=True)
    os.makedirs(os.path.dirname(clone), exist_ok=True)
    subprocess.run(["git", "clone", "--quiet", "--bare", root, clone], check=True)
    version = "999.0.0-g" + head[:12]
    subprocess.run(["git", "-C", clone, "tag", version, head], check=True)
    return "file://" + clone, version, head
