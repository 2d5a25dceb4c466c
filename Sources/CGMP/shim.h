// GMP's public names (mpz_add, ...) are macros over __gmpz_* functions, which Swift
// does not import; the Swift wrapper calls the __gmpz_* functions directly.
#include <gmp.h>
