"""Runs `zkpin bench --ops OP` under callgrind and prints the inclusive instruction count per
call of the function that does the operation (the benchmark's closure or the pairing)."""
import os
import re
import subprocess
import sys

work, binary = sys.argv[1], sys.argv[2]

# op -> regular expression of the function whose calls are counted
TARGETS = {
    "g2_mul": r"CurveBenchmarks.*fU.*_T[gG]5 ",
    "gt_pow": r"CurveBenchmarks.*fU.*_T[gG]5 ",
    "pairing": r"PairingO7pairingyAA4Fp12Vy5FieldQzGAA5PointVyAA2G1OyxGG_AKyAA2G2OyxGGtFZ ",
    "server_verify": r"CurveBenchmarks.*fU.*_Tg5 ",
    "client_login": r"CurveBenchmarks.*fU.*_Tg5 ",
    "dvs_verify": r"CurveBenchmarksV9dvsVerify.*XEfU0_.*_Tg5TA ",
    "dvs_verify_cached": r"CurveBenchmarksV9dvsVerify.*XEfU0_.*_Tg5TA ",
    # the batch test itself (MPin.batchHolds: the two sums, the pairings, the final
    # exponentiation), per login: the decoding of U and V around it is not counted
    "server_verify_batch64": r"MPinO10batchHolds_12serverSecret5using.*SystemRandomNumberGenerator",
}
# logins per call of the counted function (the count is divided by it); such ops run with
# fewer samples, each call being a whole batch
LOGINS_PER_CALL = {"server_verify_batch64": 64}


def per_call(out, pattern):
    tree = subprocess.run(["callgrind_annotate", "--tree=caller", "--inclusive=yes", out],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    best = None
    for i, line in enumerate(tree):
        if "*  " not in line or not re.search(pattern, line):
            continue
        inclusive = int(line.split()[0].replace(",", ""))
        calls, j = 0, i - 1
        while j >= 0 and "<" in tree[j]:
            match = re.search(r"\(([\d,]+)x\)", tree[j])
            if match:
                calls += int(match.group(1).replace(",", ""))
            j -= 1
        if calls and (best is None or inclusive > best[0]):
            best = (inclusive, calls)
    if best is None:
        raise SystemExit(f"no calls matching {pattern} in {out}")
    return best[0] / best[1]


only = set(filter(None, os.environ.get("BENCH_OPS", "").split(",")))
if only - TARGETS.keys():
    raise SystemExit(f"BENCH_OPS: no such op {', '.join(sorted(only - TARGETS.keys()))}; "
                     f"the ops are {', '.join(TARGETS)}")
print(f"{'curve':10} {'op':22} {'instructions per call':>22}")
for curve in ["bn254cx", "bls12-381"]:
    for op, pattern in TARGETS.items():
        if only and op not in only:
            continue
        out = f"{work}/callgrind.{curve}.{op}"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "bench",
                        "--curve", curve, "--ops", op] + (["--samples", "5"] if op in LOGINS_PER_CALL else []),
                       capture_output=True, check=True,
                       # valgrind's CPU runs ADX but hides it from CPUID
                       env={**os.environ, "ZKPIN_SKIP_CPU_CHECK": "1"})
        print(f"{curve:10} {op:22} {per_call(out, pattern) / LOGINS_PER_CALL.get(op, 1):>18,.0f}", flush=True)
