"""Runs `zkpin bench --curve C --ops OP` under callgrind several times (each run draws its own
random scalars; ZKPIN_BENCH_FIXED_CALLS=1 makes every run make the same calls whatever the
timing) with collection switched on only inside the secret multiplication, and compares every
ZKPin function's share of the instructions counted, and the total: constant-time code executes
the same instructions whatever the secret, so they must agree between runs.
A branch on a secret (a carry turned into a jump, a masked table read the optimiser turned back
into a test on the index) shows as a count that moves. Prints one line per check; exits 1 on a
difference."""
import re
import subprocess
import sys

work, binary = sys.argv[1], sys.argv[2]
RUNS = 3
# (op, the function inside which instructions are counted: its specialisation, so that the
# generic wrapper that calls it does not switch collection off again)
# (g1_mul's fixed windows are not checked this way: the benchmark's set-up calls the same function
# with 2-bit windows once, a mix whose shares move with how many timed calls follow.)
CHECKS = [
    ("g1_mul_glv", "*G1EndomorphismV14multiplySecret_12reducedLimbs*_Tg5"),
    # The GMP-free inversions: a secret point's affine coordinates (Fermat's inverse of Z) and a
    # DVS key's inverse mod r (ScalarMontgomery.power is not generic: no specialisation).
    ("g1_affine_ct", "*PointV22toAffineInConstantTime*G1*_Tg5"),
    ("scalar_inverse", "*16ScalarMontgomeryV5power_8exponent*"),
]
LINE = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+(.*)$")


def counts(out):
    """{function: its share of the instructions counted in the binary under test}, and their
    total. In constant-time code each function's count is its calls times a fixed number, so
    with the same calls in every run its share (and the total) is the same; a branch on a secret
    moves its function's share. Only ZKPin's own functions (the binary's) are compared: the Swift runtime
    and libc also run one-time work (generic metadata instantiated lazily, in whichever run
    first reaches it inside the multiplication), which says nothing about the secret, and any
    secret-dependent call into them would move the share of the ZKPin function making it."""
    flat = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True, check=True).stdout
    result = {}
    for line in flat.splitlines():
        match = LINE.match(line)
        if match and "PROGRAM TOTALS" not in match.group(2) and match.group(2).rstrip().endswith("[" + binary + "]"):
            result[match.group(2)] = int(match.group(1).replace(",", ""))
    total = sum(result.values())
    if total == 0:
        raise SystemExit(f"nothing counted in {out}: does the pattern name the function?")
    return {function: count / total for function, count in result.items()}, total


failed = False
for curve in ["bn254cx", "bls12-381"]:
    for op, pattern in CHECKS:
        runs = []
        for run in range(RUNS):
            out = f"{work}/callgrind.{curve}.{op}.{run}"
            subprocess.run(["valgrind", "--tool=callgrind", f"--toggle-collect={pattern}", f"--callgrind-out-file={out}",
                            binary, "bench", "--curve", curve, "--ops", op, "--samples", "5"],
                           capture_output=True, check=True,
                           env={"ZKPIN_SKIP_CPU_CHECK": "1", "ZKPIN_BENCH_FIXED_CALLS": "1", "PATH": "/usr/bin:/bin"})
            runs.append(counts(out))
        shares = [r for r, _ in runs]
        functions = set().union(*shares)
        # one instruction in a run of millions moves a share by about 1e-7
        moving = sorted(f for f in functions if max(r.get(f, 0) for r in shares) - min(r.get(f, 0) for r in shares) > 1e-12)
        totals = [t for _, t in runs]
        if not moving and len(set(totals)) > 1:
            failed = True
            print(f"{curve:10} {op:12} NOT CONSTANT: the same shares but different totals: {', '.join(f'{t:,}' for t in totals)}")
            continue
        if moving:
            failed = True
            # A moving count moves every share a little (through the total): the functions whose
            # shares moved most, relative to their size, are the ones to read.
            def spread(f):
                values = [r.get(f, 0) for r in shares]
                return (max(values) - min(values)) / max(values)
            moving.sort(key=spread, reverse=True)
            print(f"{curve:10} {op:12} NOT CONSTANT: the shares of {len(moving)} functions moved between runs; most:")
            for f in moving[:5]:
                print(f"    {spread(f):.1e} relative ({' / '.join(f'{r.get(f, 0):.9f}' for r in shares)})  {f[:120]}")
        else:
            print(f"{curve:10} {op:12} {len(functions)} functions, their shares of {', '.join(f'{t:,}' for _, t in runs)} "
                  f"instructions the same in {RUNS} runs with different scalars")
sys.exit(1 if failed else 0)
