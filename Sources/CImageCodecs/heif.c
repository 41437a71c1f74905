// HEIF decoding (HEIC photos from phones, AVIF) through libheif, which decodes the image items with
// libde265 (HEVC) or dav1d/aom (AV1) and applies the file's rotation and mirroring.
#include "cimagecodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

static void sx_heif_complaint(sx_image *out, const char *what, struct heif_error err) {
    snprintf(out->message, sizeof out->message, "%s: %s", what, err.message ? err.message : "unknown error");
}

int sx_decode_heif(const unsigned char *data, size_t size, long max_pixels, sx_image *out) {
    memset(out, 0, sizeof *out);
    struct heif_context *ctx = heif_context_alloc();
    if (!ctx) {
        snprintf(out->message, sizeof out->message, "out of memory");
        return -1;
    }
    struct heif_image_handle *handle = NULL;
    struct heif_image *img = NULL;
    int status = -1;
    struct heif_error err = heif_context_read_from_memory_without_copy(ctx, data, size, NULL);
    if (err.code != heif_error_Ok) { sx_heif_complaint(out, "the container cannot be read", err); goto done; }
    err = heif_context_get_primary_image_handle(ctx, &handle);
    if (err.code != heif_error_Ok) { sx_heif_complaint(out, "it holds no primary image", err); goto done; }
    int w = heif_image_handle_get_width(handle), h = heif_image_handle_get_height(handle);
    if (w <= 0 || h <= 0 || (long)w * (long)h > max_pixels) {
        // The caller checks the size against its limit from the header first; this only guards the allocation.
        snprintf(out->message, sizeof out->message, "the image size %dx%d is not usable", w, h);
        goto done;
    }
    int alpha = heif_image_handle_has_alpha_channel(handle);
    err = heif_decode_image(handle, &img, heif_colorspace_RGB,
                            alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, NULL);
    if (err.code != heif_error_Ok) {
        sx_heif_complaint(out, "the image data cannot be decoded", err);
        out->damaged = 1;
        goto done;
    }
    // After rotation the decoded picture may be the other way round: its own size counts.
    int iw = heif_image_get_width(img, heif_channel_interleaved), ih = heif_image_get_height(img, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    if (!plane || iw <= 0 || ih <= 0) {
        snprintf(out->message, sizeof out->message, "the decoder gave no picture");
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
                // Laid on white, as viewers show a transparent picture.
                unsigned a = src[3];
                for (int c = 0; c < 3; c++) dst[c] = (unsigned char)((src[c] * a + 255 * (255 - a) + 127) / 255);
            } else {
                dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2];
            }
        }
    }
    out->rows_complete = ih;
    status = 0;
done:
    if (img) heif_image_release(img);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(ctx);
    return status;
}

int sx_heif_size(const unsigned char *data, size_t size, int *width, int *height, char *message, size_t capacity) {
    *width = 0;
    *height = 0;
    if (capacity) message[0] = 0;
    struct heif_context *ctx = heif_context_alloc();
    if (!ctx) return -1;
    struct heif_image_handle *handle = NULL;
    int status = -1;
    struct heif_error err = heif_context_read_from_memory_without_copy(ctx, data, size, NULL);
    if (err.code == heif_error_Ok) err = heif_context_get_primary_image_handle(ctx, &handle);
    if (err.code == heif_error_Ok) {
        *width = heif_image_handle_get_width(handle);
        *height = heif_image_handle_get_height(handle);
        status = *width > 0 && *height > 0 ? 0 : -1;
    } else if (capacity) {
        snprintf(message, capacity, "%s", err.message ? err.message : "unknown error");
    }
    if (handle) heif_image_handle_release(handle);
    heif_context_free(ctx);
    return status;
}
