#!/usr/bin/env python3
"""Writes an 8-bit copy of the PP-OCR text detector for CPUs with VNNI instructions.

usage: quantize-detector.py IN.onnx OUT.onnx IMAGE_OR_PDF...

Weights become signed 8-bit per output channel, activations unsigned 8-bit, as
QuantizeLinear/DequantizeLinear pairs that ONNX Runtime fuses into integer
convolutions. The ranges of the activations are their minimum and maximum over the
images (and each turned by 180 degrees; a PDF's pages rendered at 150 dpi by poppler's
pdftoppm), sized and normalized as the engine feeds its
detector (PPOCRRecognizer.detectionSize, ImageOps.writeNormalized).

Only the backbone is quantized, without its first convolution (which reads the page's
pixels): the neck and the head, which draw the text map at a quarter and then at the
full input size, stay in floating point. Quantized, they made the boxes of small text a
fifth taller and turned a `ß` into a `β` (PPOCRRecognizerTests.testEightBitDetectorFindsTheSameLines).

The project calibrates with its own Samples/ pages (scripts/install-onnx.sh --int8), not
with any evaluation set. On an AVX-512 VNNI Xeon the engine's detection took 746 ms of CPU
per sroie-dev page against 1,588 in floating point (Benchmarks/RESULTS.md, nineteenth
session); on CPUs without VNNI instructions integer convolutions are no faster. The engine
uses this model only when asked (PPOCRRecognizer.Settings.detectorPrecision).

Needs the `onnx`, `numpy` and `Pillow` packages and ONNX Runtime's Python package
(scripts/install-onnx.sh installs them under .deps/).
"""
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import version_converter
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                      quantize_static)
from PIL import Image

# PPOCRRecognizer.Settings: detectionShortSide, maxLongSide.
SHORT_SIDE = 736
MAX_LONG_SIDE = 2000
# Per-channel QuantizeLinear/DequantizeLinear need opset 13.
OPSET = 13
# PP-OCRv6's RSE-FPN neck begins with four lateral layers of three convolutions each (a 1x1
# convolution and its squeeze-and-excitation pair), right before the neck's first Resize.
NECK_CONVOLUTIONS_BEFORE_RESIZE = 12


def detection_size(width: int, height: int) -> tuple[int, int]:
    w, h = float(width), float(height)
    if max(w, h) > MAX_LONG_SIDE:
        r = MAX_LONG_SIDE / max(w, h)
        w, h = w * r, h * r
    if min(w, h) < SHORT_SIDE:
        r = SHORT_SIDE / min(w, h)
        w, h = w * r, h * r

    def to32(v: float) -> int:
        return max(32, int(round(int(v) / 32)) * 32)  # Python rounds halves to even, as the engine does

    return to32(w), to32(h)


def tensor(image: Image.Image) -> np.ndarray:
    image = image.convert("RGB")
    w, h = detection_size(*image.size)
    rgb = np.asarray(image.resize((w, h), Image.BILINEAR), dtype=np.float32)
    bgr = rgb[:, :, ::-1]
    return ((bgr / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)[None].copy()


def pages(path: str) -> list[Image.Image]:
    if not path.lower().endswith(".pdf"):
        with Image.open(path) as image:
            image.load()
            return [image.copy()]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", "150", "-png", path, os.path.join(tmp, "page")], check=True)
        out = []
        for name in sorted(glob.glob(os.path.join(tmp, "page*.png"))):
            with Image.open(name) as image:
                image.load()
                out.append(image.copy())
        return out


class Pages(CalibrationDataReader):
    def __init__(self, input_name: str, paths: list[str]):
        feeds = []
        for path in paths:
            for image in pages(path):
                for page in (image, image.rotate(180)):
                    feeds.append({input_name: tensor(page)})
        self.feeds = iter(feeds)

    def get_next(self):
        return next(self.feeds, None)


def main(src: str, dst: str, images: list[str]) -> None:
    if not images:
        sys.exit("quantize-detector: no calibration images given")
    model = version_converter.convert_version(onnx.load(src), OPSET)
    nodes = list(model.graph.node)
    first_resize = next(i for i, n in enumerate(nodes) if n.op_type == "Resize")
    convs = [i for i, n in enumerate(nodes[:first_resize]) if n.op_type == "Conv"]
    neck = convs[-NECK_CONVOLUTIONS_BEFORE_RESIZE]
    float_nodes = [nodes[convs[0]].name] + [n.name for n in nodes[neck:]]
    input_name = model.graph.input[0].name
    with tempfile.TemporaryDirectory() as tmp:
        upgraded = os.path.join(tmp, "opset13.onnx")
        onnx.save(model, upgraded)
        quantize_static(upgraded, dst, Pages(input_name, images),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax,
                        nodes_to_exclude=float_nodes)
    print(f"quantize-detector: wrote {dst} ({len(images)} calibration files, "
          f"{len(nodes) - len(float_nodes)} of {len(nodes)} nodes quantized)")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit("usage: quantize-detector.py IN.onnx OUT.onnx IMAGE...")
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
