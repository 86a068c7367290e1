/* The public header compiles standalone as C99 (-pedantic -Werror), twice. */
#include "hookline.h"
#include "hookline.h"
int hookline_header_c99_ok(void) { return HL_OK; }
