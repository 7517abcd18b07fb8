/* The public header compiles on its own (C11 and, renamed .cpp, C++). */
#include "dfc.h"
int dfc_header_alone_check(void) { return DFC_OK; }
