#ifndef SCANEXTRACT_CTESSERACT_SHIM_H
#define SCANEXTRACT_CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#endif
