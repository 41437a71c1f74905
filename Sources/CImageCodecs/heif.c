// HEIF decoding (HEIC photos from phones, AVIF) through libheif, which decodes the image items with
// libde265 (HEVC) or dav1d/aom (AV1) and applies the file's rotation and mirroring.
#include "cimagecodecs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

// libheif loads its decoder plugins in heif_init (built in on Debian 12, plugins from libheif 1.16 on).
static pthread_once_t sx_heif_once = PTHREAD_ONCE_INIT;
static void sx_heif_init(void) { heif_init(NULL); }

/// `what`, then libheif's message on one line (it may end with a newline, or hold several).
static void sx_heif_complaint(char *message, size_t capacity, const char *what, struct heif_error err) {
    const char *said = err.message && err.message[0] ? err.message : "no reason given";
    snprintf(message, capacity, "%s%s%s", what, what[0] ? ": " : "", said);
    for (char *c = message; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
    size_t n = strlen(message);
    while (n > 0 && message[n - 1] == ' ') message[--n] = 0;
}

/// A context holding `data`'s container, and its primary image's handle; 0, or -1 with the complaint.
static int sx_heif_open(const unsigned char *data, size_t size, struct heif_context **ctx,
                        struct heif_image_handle **handle, char *message, size_t capacity) {
    pthread_once(&sx_heif_once, sx_heif_init);
    *handle = NULL;
    *ctx = heif_context_alloc();
    if (!*ctx) {
        snprintf(message, capacity, "out of memory");
        return -1;
    }
    struct heif_error err = heif_context_read_from_memory_without_copy(*ctx, data, size, NULL);
    if (err.code != heif_error_Ok) { sx_heif_complaint(message, capacity, "", err); return -1; }
    err = heif_context_get_primary_image_handle(*ctx, handle);
    if (err.code != heif_error_Ok) { sx_heif_complaint(message, capacity, "no primary image", err); return -1; }
    return 0;
}

static void sx_heif_close(struct heif_context *ctx, struct heif_image_handle *handle) {
    if (handle) heif_image_handle_release(handle);
    if (ctx) heif_context_free(ctx);
}

int sx_heif_size(const unsigned char *data, size_t size, int *width, int *height, char *message, size_t capacity) {
    *width = 0;
    *height = 0;
    struct heif_context *ctx = NULL;
    struct heif_image_handle *handle = NULL;
    int status = sx_heif_open(data, size, &ctx, &handle, message, capacity);
    if (status == 0) {
        *width = heif_image_handle_get_width(handle);
        *height = heif_image_handle_get_height(handle);
        if (*width <= 0 || *height <= 0) {
            snprintf(message, capacity, "the primary image has no size (%dx%d)", *width, *height);
            status = -1;
        }
    }
    sx_heif_close(ctx, handle);
    return status;
}

int sx_decode_heif(const unsigned char *data, size_t size, long max_pixels, sx_image *out) {
    memset(out, 0, sizeof *out);
    struct heif_context *ctx = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_image *img = NULL;
    struct heif_decoding_options *options = NULL;
    int status = -1;
    if (sx_heif_open(data, size, &ctx, &handle, out->message, sizeof out->message) != 0) goto done;
    int w = heif_image_handle_get_width(handle), h = heif_image_handle_get_height(handle);
    if (w <= 0 || h <= 0 || (long)w * (long)h > max_pixels) {
        // The caller checks the size against its limit from the container first; this guards the decoding.
        snprintf(out->message, sizeof out->message, "the image size %dx%d is not usable", w, h);
        goto done;
    }
    int alpha = heif_image_handle_has_alpha_channel(handle);
    int premultiplied = alpha && heif_image_handle_is_premultiplied_alpha(handle);
    options = heif_decoding_options_alloc();
    if (!options) {
        snprintf(out->message, sizeof out->message, "out of memory");
        goto done;
    }
    options->convert_hdr_to_8bit = 1;   // a phone's 10-bit HDR photo comes out in 8 bits a sample
    struct heif_error err = heif_decode_image(handle, &img, heif_colorspace_RGB,
                                              alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options);
    if (err.code != heif_error_Ok) {
        sx_heif_complaint(out->message, sizeof out->message, "", err);
        goto done;
    }
    // After rotation the decoded picture may be the other way round: its own size counts, and must keep the limit.
    int iw = heif_image_get_width(img, heif_channel_interleaved), ih = heif_image_get_height(img, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    if (!plane || iw <= 0 || ih <= 0 || (long)iw * (long)ih > max_pixels
        || heif_image_get_bits_per_pixel_range(img, heif_channel_interleaved) != 8) {
        snprintf(out->message, sizeof out->message, "the decoder gave no usable picture (%dx%d, %d bits a sample)", iw, ih,
                 plane ? heif_image_get_bits_per_pixel_range(img, heif_channel_interleaved) : 0);
        goto done;
    }
    size_t n = (size_t)iw * (size_t)ih * 3;
    out->pixels = malloc(n);
    if (!out->pixels) {
        snprintf(out->message, sizeof out->message, "out of memory");
        goto done;
    }
    out->width = iw;
    out->height = ih;
    out->channels = 3;
    int in = alpha ? 4 : 3;
    for (int y = 0; y < ih; y++) {
        const uint8_t *src = plane + (size_t)y * (size_t)stride;
        unsigned char *dst = out->pixels + (size_t)y * (size_t)iw * 3;
        for (int x = 0; x < iw; x++, src += in, dst += 3) {
            if (alpha) {
                // Laid on white, as viewers show a transparent picture: v * a + 255 * (1 - a), where a
                // premultiplied sample already holds v * a.
                unsigned a = src[3];
                for (int c = 0; c < 3; c++) {
                    unsigned over = premultiplied ? src[c] * 255u : src[c] * a;
                    unsigned v = (over + 255u * (255u - a) + 127u) / 255u;
                    dst[c] = (unsigned char)(v > 255 ? 255 : v);
                }
            } else {
                dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2];
            }
        }
    }
    out->rows_complete = ih;
    status = 0;
done:
    if (options) heif_decoding_options_free(options);
    if (img) heif_image_release(img);
    sx_heif_close(ctx, handle);
    return status;
}
