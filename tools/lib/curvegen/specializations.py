"""The `@_specialize` lists of the hand-written generic code, one line per curve.

The non-inlinable generic entry points (the pairing, scalar multiplications, inversions, the
M-Pin suite's operations) are compiled once in their own module; `@_specialize(where C == X)`
makes that module compile a copy for curve X and dispatch to it, which is where the speed comes
from (without it, callers in other modules run the generic code through witness tables).
Every run of such lines in Sources/ names one curve per line, with the curve's type in the same
place (`C == BN254CX`, `P == BN254CXField`, `G == G1<BN254CX>`, each name of a line with several); this module rewrites each run to
name every described curve in the generator's order for each such shape, so adding a curve needs no hand edit and
`tools/gen-curves --check` fails on a run that misses one."""
import os
import re

LINE = re.compile(r"^(\s*)@_specialize\(where (\w+) == (.+)\)$")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SpecializationError(Exception):
    pass


def template(type_text, curves, where):
    """The type with its curve's name replaced by {curve}, and the suffix kind (Field or not)."""
    names = {c.swift_name for c in curves}
    found = False

    def replace(match):
        nonlocal found
        word = match.group(0)
        for suffix in ("", "Field"):
            if suffix == "" and word in names or suffix and word.endswith(suffix) and word[:-len(suffix)] in names:
                found = True
                return "{curve}" + suffix
        return word
    # Every curve name (`C == BN254CX, T == Fp12<BN254CXField>` names it twice).
    text = IDENTIFIER.sub(replace, type_text.replace("{", "{{").replace("}", "}}"))
    if not found:
        raise SpecializationError(f"{where}: @_specialize names no described curve: {type_text}")
    return text


def rewritten(text, curves, where):
    """text with every run of @_specialize lines naming every curve; None when it has none."""
    lines = text.split("\n")
    out, k, found = [], 0, False
    while k < len(lines):
        match = LINE.match(lines[k])
        if not match:
            out.append(lines[k])
            k += 1
            continue
        found = True
        shapes = []  # (indent, parameter, type with {curve}), in the run's order, each once
        while k < len(lines) and (m := LINE.match(lines[k])):
            shape = (m.group(1), m.group(2), template(m.group(3), curves, f"{where}:{k + 1}"))
            if shape not in shapes:
                shapes.append(shape)
            k += 1
        out += [f"{indent}@_specialize(where {parameter} == {shape.format(curve=c.swift_name)})"
                for indent, parameter, shape in shapes for c in curves]
    return "\n".join(out) if found else None


def files(root, curves):
    """{relative path: text} of the Swift sources with @_specialize runs, rewritten."""
    result = {}
    sources = os.path.join(root, "Sources")
    for folder, _, names in sorted(os.walk(sources)):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            with open(path) as f:
                text = f.read()
            relative = os.path.relpath(path, root)
            new = rewritten(text, curves, relative)
            if new is not None:
                result[relative] = new
    return result
