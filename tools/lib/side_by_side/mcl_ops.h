#ifdef __cplusplus
extern "C" {
#endif
int mcl_setup(int bls);
/* mcl's median microseconds per call of op (as docs/PERFORMANCE.md's driver times it); < 0 for an unknown op */
double mcl_op(const char *op);
#ifdef __cplusplus
}
#endif
