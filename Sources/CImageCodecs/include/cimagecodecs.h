#ifndef SCANEXTRACT_CIMAGECODECS_H
#define SCANEXTRACT_CIMAGECODECS_H
#include <stddef.h>

/// A decoded image that may be incomplete. Decoders keep every row that arrived;
/// rows that did not are white. Free `pixels` with `sx_image_free`.
typedef struct {
    unsigned char *pixels;   ///< width * height * channels bytes, row-major
    int width, height;
    int channels;            ///< 1 (gray) or 3 (RGB)
    int rows_complete;       ///< rows decoded before trouble (height when all arrived)
    int damaged;             ///< 1 when the decoder reported any problem
    int truncated;           ///< 1 when the data ended early
    int stopped;             ///< JPEG: decoding stopped at the damage (a marker inside the data,
                             ///< no restart markers to resume at): later rows are flat gray
    int progressive;         ///< JPEG: progressive; PNG: interlaced
    int passes_complete;     ///< interlaced PNG: passes that arrived in full
    int warnings;            ///< number of warnings the library reported
    int unsupported;         ///< 1 when the file is whole but of a kind this decoder leaves to others (CMYK JPEG)
    char message[200];       ///< the library's first complaint, "" when none
} sx_image;

/// Both return 0 with `out` filled (possibly damaged), or -1 when nothing usable
/// could be decoded (then `out->message` says why and `out->pixels` is NULL).
int sx_decode_jpeg(const unsigned char *data, size_t size, long max_pixels, sx_image *out);
int sx_decode_png(const unsigned char *data, size_t size, long max_pixels, sx_image *out);
/// HEIF (a HEIC photo, an AVIF): the primary image, turned and mirrored as the file says, HDR brought to 8 bits,
/// transparency laid on white, as RGB. Whole or nothing: a broken file gives -1 with libheif's complaint (one line).
int sx_decode_heif(const unsigned char *data, size_t size, long max_pixels, sx_image *out);
/// A HEIF file's primary image size, as displayed (after its rotation), from the container alone: 0, or -1 when
/// the container cannot be read (then `message`, `capacity` bytes, holds libheif's complaint).
int sx_heif_size(const unsigned char *data, size_t size, int *width, int *height, char *message, size_t capacity);
void sx_image_free(sx_image *image);

#endif
