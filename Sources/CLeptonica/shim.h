#ifndef SCANEXTRACT_CLEPTONICA_SHIM_H
#define SCANEXTRACT_CLEPTONICA_SHIM_H
#include <leptonica/allheaders.h>
#endif
