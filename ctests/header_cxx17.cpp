// The public header compiles as C++17 (-pedantic -Werror), twice.
#include "hookline.h"
#include "hookline.h"
int hookline_header_cxx17_ok() { return HL_OK + (hl_version() != nullptr ? 0 : 1); }
