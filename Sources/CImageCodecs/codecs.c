// Tolerant JPEG and PNG decoding: libjpeg and libpng report fatal errors with
// longjmp, which Swift cannot catch, so the setjmp lives here, in C.
#include "cimagecodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

void sx_image_free(sx_image *image) {
    if (image && image->pixels) {
        free(image->pixels);
        image->pixels = NULL;
    }
}

static int sx_allocate(sx_image *out, int width, int height, int channels, long max_pixels) {
    if (width <= 0 || height <= 0 || (long)width * (long)height > max_pixels) {
        snprintf(out->message, sizeof out->message, "the image size %dx%d is not usable", width, height);
        return -1;
    }
    size_t n = (size_t)width * (size_t)height * (size_t)channels;
    out->pixels = malloc(n);
    if (!out->pixels) {
        snprintf(out->message, sizeof out->message, "out of memory");
        return -1;
    }
    memset(out->pixels, 255, n);  // rows that never arrive stay white
    out->width = width;
    out->height = height;
    out->channels = channels;
    return 0;
}

// MARK: - JPEG

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    sx_image *out;
    int first_code;
} sx_jpeg_error;

static void sx_jpeg_error_exit(j_common_ptr cinfo) {
    sx_jpeg_error *err = (sx_jpeg_error *)cinfo->err;
    if (err->out->message[0] == 0) (*cinfo->err->format_message)(cinfo, err->out->message);
    longjmp(err->jump, 1);
}

static void sx_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    sx_jpeg_error *err = (sx_jpeg_error *)cinfo->err;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    cinfo->err->num_warnings++;
    err->out->warnings++;
    if (!err->out->damaged) {
        err->out->damaged = 1;
        err->first_code = cinfo->err->msg_code;
        // Rows already handed out are whole; the damage starts at or below this one.
        err->out->rows_complete = d->global_state >= 205 ? (int)d->output_scanline : 0;
        (*cinfo->err->format_message)(cinfo, err->out->message);
    }
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) err->out->truncated = 1;
}

int sx_decode_jpeg(const unsigned char *data, size_t size, long max_pixels, sx_image *out) {
    memset(out, 0, sizeof *out);
    struct jpeg_decompress_struct cinfo;
    sx_jpeg_error err;
    memset(&err, 0, sizeof err);
    err.out = out;
    cinfo.err = jpeg_std_error(&err.base);
    err.base.error_exit = sx_jpeg_error_exit;
    err.base.emit_message = sx_jpeg_emit_message;
    volatile int started = 0;
    // Rows read so far, kept in a volatile local: after the longjmp a field of `cinfo` may read as it was at
    // setjmp time (clang at -O3 gave 0 here), and the rows before a fatal error would be thrown away.
    volatile int rows_read = 0;
    JSAMPROW row = NULL;
    if (setjmp(err.jump)) {
        // A fatal error: keep what arrived when anything did.
        int rows = started ? rows_read : 0;
        jpeg_destroy_decompress(&cinfo);
        if (rows <= 0 || !out->pixels) {
            sx_image_free(out);
            return -1;
        }
        if (!out->damaged) out->rows_complete = rows;
        out->damaged = 1;
        out->truncated = 1;
        if (!out->progressive && out->rows_complete < out->height) {
            size_t stride = (size_t)out->width * (size_t)out->channels;
            memset(out->pixels + (size_t)out->rows_complete * stride, 255,
                   (size_t)(out->height - out->rows_complete) * stride);
        }
        return 0;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.num_components == 1) {
        cinfo.out_color_space = JCS_GRAYSCALE;
    } else if (cinfo.num_components == 3) {
        cinfo.out_color_space = JCS_RGB;
    } else {
        snprintf(out->message, sizeof out->message, "JPEG with %d colour components is not supported here",
                 cinfo.num_components);
        out->unsupported = 1;
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    out->progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    if (sx_allocate(out, (int)cinfo.image_width, (int)cinfo.image_height, cinfo.num_components, max_pixels) != 0) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_start_decompress(&cinfo);
    started = 1;
    size_t stride = (size_t)out->width * (size_t)out->channels;
    while (cinfo.output_scanline < cinfo.output_height) {
        row = out->pixels + (size_t)cinfo.output_scanline * stride;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) break;
        rows_read = (int)cinfo.output_scanline;
    }
    if (!out->damaged) out->rows_complete = (int)cinfo.output_scanline;
    // After a marker inside the entropy-coded data, libjpeg fills every later block with
    // zeros unless a restart marker lets it resume.
    if (err.first_code == JWRN_HIT_MARKER && cinfo.restart_interval == 0) out->stopped = 1;
    // Those rows, and the rows after the end of a file cut short, are made white (blank).
    if ((out->stopped || out->truncated) && !out->progressive && out->rows_complete < out->height) {
        memset(out->pixels + (size_t)out->rows_complete * stride, 255,
               (size_t)(out->height - out->rows_complete) * stride);
    }
    // Trailing garbage after the last row is reported here; it harms nothing decoded.
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

// MARK: - PNG

typedef struct {
    jmp_buf jump;
    sx_image *out;
    long max_pixels;
    int passes;
    int done;
    int failed;
    int alpha;      // the rows hold an alpha sample after the colour ones, until sx_png_flatten
} sx_png_state;

static void sx_png_error(png_structp png, png_const_charp message) {
    sx_png_state *st = (sx_png_state *)png_get_error_ptr(png);
    if (!st->out->damaged) snprintf(st->out->message, sizeof st->out->message, "%s", message);
    st->out->damaged = 1;
    longjmp(st->jump, 1);
}

static void sx_png_warning(png_structp png, png_const_charp message) {
    sx_png_state *st = (sx_png_state *)png_get_error_ptr(png);
    st->out->warnings++;
    if (st->out->message[0] == 0) snprintf(st->out->message, sizeof st->out->message, "%s", message);
}

static void sx_png_info(png_structp png, png_infop info) {
    sx_png_state *st = (sx_png_state *)png_get_progressive_ptr(png);
    png_set_expand(png);          // palette -> RGB, low-bit gray -> 8 bits, tRNS -> alpha
    png_set_strip_16(png);
    st->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    int width = (int)png_get_image_width(png, info), height = (int)png_get_image_height(png, info);
    st->out->progressive = st->passes > 1;
    st->alpha = channels == 2 || channels == 4;
    if (channels < 1 || channels > 4 || png_get_rowbytes(png, info) != (size_t)width * (size_t)channels) {
        snprintf(st->out->message, sizeof st->out->message, "unexpected PNG pixel layout");
        st->failed = 1;
        longjmp(st->jump, 1);
    }
    if (sx_allocate(st->out, width, height, channels, st->max_pixels) != 0) {
        st->failed = 1;
        longjmp(st->jump, 1);
    }
}

static void sx_png_row(png_structp png, png_bytep row, png_uint_32 row_num, int pass) {
    sx_png_state *st = (sx_png_state *)png_get_progressive_ptr(png);
    if (!st->out->pixels || (int)row_num >= st->out->height) return;
    // An interlaced image's pass comes with no row for the rows it leaves alone (in the last pass, the even ones):
    // they are as complete as the others.
    if (row) {
        size_t stride = (size_t)st->out->width * (size_t)st->out->channels;
        png_progressive_combine_row(png, st->out->pixels + (size_t)row_num * stride, row);
    }
    if (pass == st->passes - 1) st->out->rows_complete = (int)row_num + 1;
    else if ((int)row_num == st->out->height - 1) st->out->passes_complete = pass + 1;
}

static void sx_png_end(png_structp png, png_infop info) {
    (void)info;
    sx_png_state *st = (sx_png_state *)png_get_progressive_ptr(png);
    st->done = 1;
}

/// Lays a picture with alpha on white, as viewers show a transparent page, and drops the alpha sample: the
/// colour (or gray) samples of each pixel become v * a + 255 * (1 - a). Rows that never arrived are white and
/// opaque, so they stay white.
static void sx_png_flatten(sx_image *out) {
    int colours = out->channels - 1;
    size_t pixels = (size_t)out->width * (size_t)out->height;
    unsigned char *p = out->pixels;
    // Alpha 0 everywhere (a writer that never filled it in) would make a blank page: then it is left out.
    int any = 0;
    for (size_t i = 0; i < pixels && !any; i++) any = p[i * (size_t)out->channels + (size_t)colours] != 0;
    for (size_t i = 0; i < pixels; i++) {
        const unsigned char *src = p + i * (size_t)out->channels;
        unsigned a = any ? src[colours] : 255u;
        for (int c = 0; c < colours; c++) {
            p[i * (size_t)colours + (size_t)c] = (unsigned char)((src[c] * a + 255u * (255u - a) + 127u) / 255u);
        }
    }
    out->channels = colours;
}

int sx_decode_png(const unsigned char *data, size_t size, long max_pixels, sx_image *out) {
    memset(out, 0, sizeof *out);
    sx_png_state st;
    memset(&st, 0, sizeof st);
    st.out = out;
    st.max_pixels = max_pixels;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &st, sx_png_error, sx_png_warning);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return -1;
    }
    if (setjmp(st.jump) == 0) {
        // Use data whose checksum is wrong, as viewers do; zlib errors still stop us.
        png_set_crc_action(png, PNG_CRC_WARN_USE, PNG_CRC_QUIET_USE);
        png_set_progressive_read_fn(png, &st, sx_png_info, sx_png_row, sx_png_end);
        png_process_data(png, info, (png_bytep)data, size);
    }
    png_destroy_read_struct(&png, &info, NULL);
    if (st.done && !st.failed && out->pixels) out->rows_complete = out->height;  // libpng read the image to its end
    if (!st.failed && out->pixels && st.alpha) sx_png_flatten(out);
    if (st.failed || !out->pixels) {
        sx_image_free(out);
        if (out->message[0] == 0) snprintf(out->message, sizeof out->message, "the PNG header cannot be read");
        return -1;
    }
    if (!st.done && out->rows_complete < out->height) {
        out->damaged = 1;
        if (!out->truncated && out->message[0] == 0) out->truncated = 1;
    }
    if (out->rows_complete == 0 && out->passes_complete == 0) {
        if (out->message[0] == 0) snprintf(out->message, sizeof out->message, "no row of the image arrived");
        sx_image_free(out);
        return -1;
    }
    return 0;
}
