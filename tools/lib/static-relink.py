#!/usr/bin/env python3
"""static-relink.py PRODUCT OUTPUT: link PRODUCT of the release build again, into OUTPUT, with
the Swift standard library and Foundation static (tools/package).

The link command is the one SwiftPM recorded in .build/release.yaml for the product, so the
objects, the system libraries and the flags of Package.swift are exactly the release build's.
Added: -static-stdlib, and the static archives that Foundation's static module would have
named had the objects been compiled with -static-stdlib (the archives depend on each other,
hence one --start-group)."""
import json
import os
import re
import subprocess
import sys

# The autolink entries of an object compiled with -static-stdlib that imports Foundation.
STATIC_LIBRARIES = ["swift_Concurrency", "swift_StringProcessing", "swift_RegexParser", "swiftSynchronization",
                    "swiftGlibc", "BlocksRuntime", "dispatch", "swiftDispatch", "_FoundationICU", "CoreFoundation",
                    "Foundation", "FoundationEssentials", "FoundationInternationalization", "_FoundationCShims",
                    "_FoundationCollections"]
SYSTEM_LIBRARIES = ["m", "pthread", "util", "dl"]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: static-relink.py PRODUCT OUTPUT")
    product, output = sys.argv[1], os.path.abspath(sys.argv[2])
    triple = os.path.basename(os.path.dirname(os.path.realpath(".build/release")))
    manifest = open(".build/release.yaml", encoding="utf-8").read()
    key = f'"C.{product}-{triple}-release.exe":'
    start = manifest.find(key)
    if start < 0:
        sys.exit(f"static-relink: no link command for {product} in .build/release.yaml (build release first)")
    match = re.search(r"^\s+args: (\[.*\])$", manifest[start:], re.MULTILINE)
    args = json.loads(match.group(1))
    if not args or not args[0].endswith("swiftc") or "-emit-executable" not in args or "-o" not in args:
        sys.exit(f"static-relink: unexpected link command for {product}: {args[:4]}")
    args[args.index("-o") + 1] = output

    static_dir = os.path.join(os.path.dirname(os.path.realpath(args[0])), "..", "lib", "swift_static", "linux")
    libraries = [name for name in STATIC_LIBRARIES if os.path.exists(os.path.join(static_dir, f"lib{name}.a"))]
    group = ["-Xlinker", "--start-group"]
    for name in libraries + SYSTEM_LIBRARIES:
        group += ["-Xlinker", f"-l{name}"]
    group += ["-Xlinker", "--end-group"]
    command = [args[0], "-static-stdlib"] + args[1:] + group
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Foundation's static archive uses mktemp, which the linker warns about on every link.
    lines = [line for line in result.stdout.splitlines() if line.strip() and "the use of `mktemp' is dangerous" not in line]
    if result.returncode != 0:
        print("\n".join(lines[-40:]), file=sys.stderr)
        sys.exit(f"static-relink: linking {product} failed")


if __name__ == "__main__":
    main()
