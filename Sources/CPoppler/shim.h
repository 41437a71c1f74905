#ifndef SCANEXTRACT_CPOPPLER_SHIM_H
#define SCANEXTRACT_CPOPPLER_SHIM_H
#include <poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <glib-object.h>
#endif
