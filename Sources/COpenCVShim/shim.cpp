// The OpenCV side of COpenCVShim.h. No C++ exception leaves this file: every entry point
// wraps its body in `guarded`, which turns exceptions into error codes.
#include "COpenCVShim.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <vector>

namespace {

template <typename Body>
int guarded(Body body) {
    try {
        return body();
    } catch (const cv::Exception &) {
        return SCX_OPENCV_ERROR;
    } catch (...) {
        return SCX_OTHER_ERROR;
    }
}

bool valid(const void *p, int w, int h, int channels = 1) {
    return p != nullptr && w > 0 && h > 0 && (channels == 1 || channels == 3);
}

// Wraps caller memory without copying (OpenCV does not free it).
cv::Mat wrap(const uint8_t *p, int w, int h, int channels) {
    return cv::Mat(h, w, CV_8UC(channels), const_cast<uint8_t *>(p));
}

// Area-averaging shrink to `size`. A shrink by a fractional factor takes OpenCV's slow
// general area path; a large one is done as a shrink by the whole factor first (the fast
// path: plain block means), then by what is left. The whole-factor step drops the last
// few (under `whole`) columns and rows, under 0.2% of the image at the sizes that use it.
void area_shrink(const cv::Mat &in, cv::Mat &out, cv::Size size) {
    int whole = std::min(in.cols / size.width, in.rows / size.height);
    bool exact = in.cols == size.width * whole && in.rows == size.height * whole;
    if (whole >= 2 && !exact) {
        cv::Mat step;
        cv::resize(in(cv::Rect(0, 0, in.cols - in.cols % whole, in.rows - in.rows % whole)), step,
                   cv::Size(in.cols / whole, in.rows / whole), 0, 0, cv::INTER_AREA);
        cv::resize(step, out, size, 0, 0, cv::INTER_AREA);
    } else {
        cv::resize(in, out, size, 0, 0, cv::INTER_AREA);
    }
}

}  // namespace

extern "C" {

void scx_set_threads(int count) {
    try { cv::setNumThreads(std::max(0, count)); } catch (...) {}
}

int scx_resize(const uint8_t *src, int w, int h, int channels, uint8_t *dst, int dw, int dh) {
    if (!valid(src, w, h, channels) || !valid(dst, dw, dh)) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        cv::Mat out = wrap(dst, dw, dh, channels);
        cv::Mat in = wrap(src, w, h, channels);
        if (dw >= w && dh >= h) {
            cv::resize(in, out, out.size(), 0, 0, cv::INTER_LINEAR);
        } else {
            area_shrink(in, out, out.size());
        }
        return SCX_OK;
    });
}

int scx_gaussian_blur(const uint8_t *src, int w, int h, uint8_t *dst, int ksize, double sigma) {
    if (!valid(src, w, h) || dst == nullptr || (ksize != 0 && ksize % 2 == 0)) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        cv::Mat out = wrap(dst, w, h, 1);
        cv::GaussianBlur(wrap(src, w, h, 1), out, cv::Size(ksize, ksize), sigma, sigma, cv::BORDER_REPLICATE);
        return SCX_OK;
    });
}

int scx_canny(const uint8_t *src, int w, int h, uint8_t *dst, double low, double high) {
    if (!valid(src, w, h) || dst == nullptr) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        cv::Mat out = wrap(dst, w, h, 1);
        cv::Canny(wrap(src, w, h, 1), out, low, high, 3, true);
        return SCX_OK;
    });
}

int scx_morphology(const uint8_t *src, int w, int h, uint8_t *dst, int op, int ksize, int iterations) {
    if (!valid(src, w, h) || dst == nullptr || ksize < 1 || iterations < 1 || op < 0 || op > 3) {
        return SCX_BAD_ARGUMENT;
    }
    return guarded([&] {
        static const int ops[] = {cv::MORPH_ERODE, cv::MORPH_DILATE, cv::MORPH_OPEN, cv::MORPH_CLOSE};
        cv::Mat out = wrap(dst, w, h, 1);
        cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(ksize, ksize));
        cv::morphologyEx(wrap(src, w, h, 1), out, ops[op], kernel, cv::Point(-1, -1), iterations,
                         cv::BORDER_REPLICATE);
        return SCX_OK;
    });
}

int scx_contour_hulls(const uint8_t *mask, int w, int h, int max_hulls, double min_area,
                      int *counts, double *areas, float *points, int max_points) {
    if (!valid(mask, w, h) || max_hulls < 1 || !counts || !areas || !points || max_points < 1) {
        return SCX_BAD_ARGUMENT;
    }
    return guarded([&] {
        cv::Mat copy = wrap(mask, w, h, 1).clone();  // findContours may modify its input
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(copy, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        std::vector<std::pair<double, std::vector<cv::Point>>> hulls;
        for (const auto &c : contours) {
            if (c.size() < 3) continue;
            std::vector<cv::Point> hull;
            cv::convexHull(c, hull);
            double area = cv::contourArea(hull);
            if (area >= min_area) hulls.emplace_back(area, std::move(hull));
        }
        std::sort(hulls.begin(), hulls.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
        int written = 0, used = 0;
        for (const auto &entry : hulls) {
            const auto &hull = entry.second;
            if (written == max_hulls || used + static_cast<int>(hull.size()) > max_points) break;
            counts[written] = static_cast<int>(hull.size());
            areas[written] = entry.first;
            for (const auto &p : hull) {
                points[2 * used] = static_cast<float>(p.x);
                points[2 * used + 1] = static_cast<float>(p.y);
                ++used;
            }
            ++written;
        }
        return written;
    });
}

int scx_dark_marks(const uint8_t *src, int w, int h, int ksize, int min_contrast, int *marks, int max_marks) {
    if (!valid(src, w, h) || ksize < 3 || marks == nullptr || max_marks < 0) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        cv::Mat hat, binary, labels, stats, centroids;
        cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(ksize, ksize));
        cv::morphologyEx(wrap(src, w, h, 1), hat, cv::MORPH_BLACKHAT, kernel, cv::Point(-1, -1), 1,
                         cv::BORDER_REPLICATE);
        cv::threshold(hat, binary, min_contrast, 255, cv::THRESH_BINARY);
        int n = cv::connectedComponentsWithStats(binary, labels, stats, centroids, 8, CV_32S);
        int written = 0;
        for (int i = 1; i < n && written < max_marks; ++i, ++written) {
            int *m = marks + 5 * written;
            m[0] = stats.at<int>(i, cv::CC_STAT_LEFT);
            m[1] = stats.at<int>(i, cv::CC_STAT_TOP);
            m[2] = stats.at<int>(i, cv::CC_STAT_WIDTH);
            m[3] = stats.at<int>(i, cv::CC_STAT_HEIGHT);
            m[4] = stats.at<int>(i, cv::CC_STAT_AREA);
        }
        return std::max(0, n - 1);
    });
}

int scx_approx_poly(const float *points, int n, double epsilon, float *out, int max_out) {
    if (points == nullptr || n < 3 || out == nullptr || max_out < 1 || epsilon < 0) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        std::vector<cv::Point2f> in(static_cast<size_t>(n)), simplified;
        for (int i = 0; i < n; ++i) in[i] = cv::Point2f(points[2 * i], points[2 * i + 1]);
        cv::approxPolyDP(in, simplified, epsilon, true);
        int count = std::min(static_cast<int>(simplified.size()), max_out);
        for (int i = 0; i < count; ++i) {
            out[2 * i] = simplified[i].x;
            out[2 * i + 1] = simplified[i].y;
        }
        return count;
    });
}

int scx_warp_perspective(const uint8_t *src, int w, int h, int channels, const double *m,
                         uint8_t *dst, int dw, int dh) {
    if (!valid(src, w, h, channels) || m == nullptr || !valid(dst, dw, dh)) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        cv::Mat matrix(3, 3, CV_64F, const_cast<double *>(m));
        cv::Mat out = wrap(dst, dw, dh, channels);
        cv::warpPerspective(wrap(src, w, h, channels), out, matrix, out.size(), cv::INTER_LINEAR,
                            cv::BORDER_REPLICATE);
        return SCX_OK;
    });
}

int scx_even_light(const uint8_t *src, int w, int h, int channels, uint8_t *dst, int ink_size, int shrink) {
    if (!valid(src, w, h, channels) || dst == nullptr || ink_size < 1 || shrink < 1) return SCX_BAD_ARGUMENT;
    return guarded([&] {
        cv::Mat in = wrap(src, w, h, channels), gray;
        if (channels == 3) cv::cvtColor(in, gray, cv::COLOR_RGB2GRAY); else gray = in;
        int sw = std::max(1, w / shrink), sh = std::max(1, h / shrink);
        cv::Mat small;
        area_shrink(gray, small, cv::Size(sw, sh));
        int k = std::max(3, (ink_size / shrink) | 1);
        cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k, k));
        cv::morphologyEx(small, small, cv::MORPH_CLOSE, kernel, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        cv::medianBlur(small, small, 5);
        cv::GaussianBlur(small, small, cv::Size(0, 0), std::max(1.0, k / 2.0), 0, cv::BORDER_REPLICATE);
        cv::max(small, 1, small);
        cv::Mat background;
        cv::resize(small, background, cv::Size(w, h), 0, 0, cv::INTER_LINEAR);
        // out = in * 255 / background, rounded and capped at 255: one fixed-point reciprocal
        // per background level, spread over the row's channels so that the multiply runs
        // as a plain vectorizable loop.
        uint32_t reciprocal[256];
        reciprocal[0] = 255u << 16;
        for (int b = 1; b < 256; ++b) reciprocal[b] = static_cast<uint32_t>((255u << 16) / b);
        const size_t rowValues = static_cast<size_t>(w) * channels;
        std::vector<uint32_t> factors(rowValues);
        for (int y = 0; y < h; ++y) {
            const uint8_t *bg = background.ptr<uint8_t>(y);
            for (int x = 0; x < w; ++x) {
                for (int c = 0; c < channels; ++c) factors[static_cast<size_t>(x) * channels + c] = reciprocal[bg[x]];
            }
            const uint8_t *row = src + y * rowValues;
            uint8_t *o = dst + y * rowValues;
            const uint32_t *f = factors.data();
            for (size_t i = 0; i < rowValues; ++i) {
                uint32_t v = (row[i] * f[i] + (1u << 15)) >> 16;
                o[i] = static_cast<uint8_t>(v > 255 ? 255 : v);
            }
        }
        return SCX_OK;
    });
}

}  // extern "C"
