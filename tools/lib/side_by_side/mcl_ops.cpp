// mcl, op for op with `zkpin bench` (the definitions of docs/PERFORMANCE.md's driver), one op per
// call, for the one-process side-by-side of tools/side-by-side. It only calls mcl's API: the scratch
// package it is copied into links the mcl built outside the repository.
#include <mcl/bn.hpp>
#include <time.h>
#include <string.h>
#include <string>
#include <algorithm>
#include <vector>
#include "mcl_ops.h"
using namespace mcl::bn;
static double cpu() { timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
template<class F> double median_us(F f, int n, int rounds = 9) {
	std::vector<double> v;
	for (int r = 0; r < rounds; r++) { double t0 = cpu(); for (int i = 0; i < n; i++) f(); v.push_back((cpu() - t0) / n); }
	std::sort(v.begin(), v.end()); return v[v.size() / 2] / 1e3;
}
static G1 P, A, token; static G2 Q, SS; static Fp12 e, unreduced; static Fr a, s;
static std::vector<Fp6> qLines, ssLines;
static std::vector<std::string> us, vs, bu, bv; static std::vector<Fr> ys, by;
static int holds, batchHolds; static size_t bytes;
int mcl_setup(int bls) {
	if (bls) initPairing(mcl::BLS12_381); else initPairing(mcl::CurveParam("-0x4000000003c012b1", 2, 1, false, MCL_BN_SNARK1));
	verifyOrderG1(bls);
	hashAndMapToG1(P, "abc", 3); hashAndMapToG2(Q, "abc", 3);
	pairing(e, P, Q); millerLoop(unreduced, P, Q);
	G1 P2; G1::dbl(P2, P); Fp12 e2, square; pairing(e2, P2, Q); Fp12::sqr(square, e);
	if (!(e2 == square)) return 0;
	a.setByCSPRNG();
	hashAndMapToG1(A, "bench@example.com", 17);
	s.setByCSPRNG(); G2::mul(SS, Q, s);
	precomputeG2(qLines, Q); precomputeG2(ssLines, SS);
	us.clear(); vs.clear(); ys.clear(); bu.clear(); bv.clear(); by.clear();
	for (int i = 0; i < 32; i++) {
		Fr x, y; x.setByCSPRNG(); y.setByCSPRNG(); G1 u, v; G1::mul(u, A, x); G1::mul(v, A, y);
		us.push_back(u.getStr(mcl::IoEcAffineSerialize)); vs.push_back(v.getStr(mcl::IoEcAffineSerialize)); ys.push_back(y);
	}
	G1 sec; G1::mul(sec, A, s);
	for (int i = 0; i < 64; i++) {
		Fr x, y, f; x.setByCSPRNG(); y.setByCSPRNG(); Fr::add(f, x, y); Fr::neg(f, f);
		G1 u, v; G1::mul(u, A, x); G1::mul(v, sec, f);
		bu.push_back(u.getStr(mcl::IoEcAffineSerialize)); bv.push_back(v.getStr(mcl::IoEcAffineSerialize)); by.push_back(y);
	}
	G1::mul(token, A, s);
	return 1;
}
double mcl_op(const char *op) {
	G2 R; Fp12 f;
	if (!strcmp(op, "fp_inverse")) { Fp x, y; x.setByCSPRNG(); y.setByCSPRNG(); double t = median_us([&] { Fp::inv(x, x); x += y; }, 2000); return x.isZero() ? -1 : t; }
	if (!strcmp(op, "g2_mul")) return median_us([&] { G2::mulCT(R, Q, a); }, 200);
	if (!strcmp(op, "gt_pow")) return median_us([&] { GT::pow(f, e, a); }, 200);
	if (!strcmp(op, "pairing")) return median_us([&] { pairing(f, P, Q); }, 100);
	if (!strcmp(op, "miller_loop")) return median_us([&] { millerLoop(f, P, Q); }, 100);
	if (!strcmp(op, "final_exponentiation")) return median_us([&] { finalExp(f, unreduced); }, 100);
	if (!strcmp(op, "server_verify")) {
		int k = 0;
		return median_us([&] {
			G1 u, v; u.setStr(us[k], mcl::IoEcAffineSerialize); v.setStr(vs[k], mcl::IoEcAffineSerialize);
			G1 t; G1::mul(t, A, ys[k]); t += u;
			Fp12 g; precomputedMillerLoop2(g, v, qLines, t, ssLines); finalExp(g, g); holds += g.isOne();
			k = (k + 1) % 32;
		}, 100);
	}
	if (!strcmp(op, "server_verify_batch64")) {
		const int n = 64;
		uint64_t state = 88172645463325252ull;
		std::vector<G1> vPoints(n), pPoints(2 * n); std::vector<Fr> vScalars(n), pScalars(2 * n);
		double perLogin = median_us([&] {
			for (int i = 0; i < n; i++) {
				G1 u, v; u.setStr(bu[i], mcl::IoEcAffineSerialize); v.setStr(bv[i], mcl::IoEcAffineSerialize);
				state ^= state << 13; state ^= state >> 7; state ^= state << 17;
				uint64_t word = state | 1; Fr r; r.setArray(&word, 1);
				vPoints[i] = v; vScalars[i] = r; pPoints[i] = u; pScalars[i] = r;
				pPoints[n + i] = A; Fr::mul(pScalars[n + i], r, by[i]);
			}
			G1 sumV, sumP; G1::mulVec(sumV, vPoints.data(), vScalars.data(), n); G1::mulVec(sumP, pPoints.data(), pScalars.data(), 2 * n);
			Fp12 g; precomputedMillerLoop2(g, sumV, qLines, sumP, ssLines); finalExp(g, g); batchHolds += g.isOne();
		}, 10) / n;
		return batchHolds == 0 ? -2 : perLogin;
	}
	if (!strcmp(op, "client_login")) {
		Fr pin = 1234;
		return median_us([&] {
			Fr x, y; x.setByCSPRNG(); y.setByCSPRNG();
			G1 pinA; G1::mul(pinA, A, pin); G1 sec; G1::add(sec, token, pinA);
			G1 u; G1::mulCT(u, A, x);
			Fr exponent; Fr::add(exponent, x, y); Fr::neg(exponent, exponent);
			G1 v; G1::mulCT(v, sec, exponent);
			bytes += (u.getStr(mcl::IoEcAffineSerialize) + v.getStr(mcl::IoEcAffineSerialize)).size();
		}, 100);
	}
	return -1;
}
