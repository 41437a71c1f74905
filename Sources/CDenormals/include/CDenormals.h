#ifndef SCANEXTRACT_CDENORMALS_H
#define SCANEXTRACT_CDENORMALS_H

#include <stdint.h>

/// Makes the calling thread's floating-point unit treat denormal (subnormal) single and double
/// values as zero, both as inputs and as results: x86's MXCSR DAZ and FTZ bits, Arm's FPCR.FZ.
/// Returns the control register as it was, for scan_denormals_restore. On other processors it
/// changes nothing and returns 0.
uint64_t scan_denormals_flush(void);

/// Puts back the control register that scan_denormals_flush returned.
void scan_denormals_restore(uint64_t saved);

#endif
