#include <zbar.h>
#include <png.h>
