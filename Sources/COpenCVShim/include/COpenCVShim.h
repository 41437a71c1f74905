// A plain-C face for the few OpenCV (imgproc) operations the document camera needs.
// Every function copies nothing it does not have to, catches every C++ exception,
// and returns SCX_OK (0) or a negative error code. Images are 8-bit, tightly packed,
// row-major, 1 or 3 channels (3: RGB).
#ifndef SCANEXTRACT_COPENCVSHIM_H
#define SCANEXTRACT_COPENCVSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SCX_OK = 0,
    SCX_BAD_ARGUMENT = -1,
    SCX_TOO_SMALL = -2,
    SCX_OPENCV_ERROR = -3,
    SCX_OTHER_ERROR = -4
};

/// Sets OpenCV's worker thread count (0 or 1: run on the calling thread only).
void scx_set_threads(int count);

/// Resizes `src` (w x h x channels) into `dst` (dw x dh x channels); area averaging when shrinking.
int scx_resize(const uint8_t *src, int w, int h, int channels, uint8_t *dst, int dw, int dh);

/// Gaussian blur of a 1-channel image with an odd kernel `ksize` (0: from sigma).
int scx_gaussian_blur(const uint8_t *src, int w, int h, uint8_t *dst, int ksize, double sigma);

/// Otsu binarization of a 1-channel image: 255 above the threshold, 0 below.
/// Returns the threshold (>= 0) or an error code.

/// Canny edges of a 1-channel image (255 on an edge).
int scx_canny(const uint8_t *src, int w, int h, uint8_t *dst, double low, double high);

/// Morphology on a 1-channel image with a `ksize` x `ksize` rectangle, `iterations` times.
/// op: 0 erode, 1 dilate, 2 open, 3 close.
int scx_morphology(const uint8_t *src, int w, int h, uint8_t *dst, int op, int ksize, int iterations);

/// The convex hulls of the outer contours of a binary mask, largest first.
/// Writes at most `max_hulls` hulls: their point counts in `counts`, their areas in `areas`,
/// and their points (x, y pairs) one after the other in `points` (room for `max_points` points).
/// Returns the number of hulls written, or an error code.
int scx_contour_hulls(const uint8_t *mask, int w, int h, int max_hulls, double min_area,
                      int *counts, double *areas, float *points, int max_points);

/// Dark marks smaller than `ksize` on a lighter ground (print): a black-hat (closing minus the
/// image, `ksize` x `ksize` rectangle) thresholded at `min_contrast`, then its 8-connected
/// components. Writes at most `max_marks` marks as five ints each (x, y, width, height, pixel
/// count) to `marks`; returns the number of components found (may exceed `max_marks`) or an error code.
int scx_dark_marks(const uint8_t *src, int w, int h, int ksize, int min_contrast, int *marks, int max_marks);

/// Douglas-Peucker simplification of a closed polygon (`n` x,y pairs) with tolerance `epsilon`.
/// Writes at most `max_out` points to `out`; returns the point count or an error code.
int scx_approx_poly(const float *points, int n, double epsilon, float *out, int max_out);

/// Perspective warp: dst(x, y) = src(M^-1 (x, y)) for the 3x3 row-major `m` (src -> dst,
/// pixel centres at integer coordinates), bilinear, border replicated.
int scx_warp_perspective(const uint8_t *src, int w, int h, int channels, const double *m,
                         uint8_t *dst, int dw, int dh);

/// Evens the light: estimates the paper's brightness with a closing (removes ink smaller
/// than `ink_size` px) on a copy shrunk by `shrink`, smooths it, and divides every channel by it,
/// so the paper becomes white and shadows go. `dst` has the size and channels of `src`.
int scx_even_light(const uint8_t *src, int w, int h, int channels, uint8_t *dst, int ink_size, int shrink);

#ifdef __cplusplus
}
#endif

#endif
