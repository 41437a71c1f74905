#!/usr/bin/env python3
"""Writes a copy of the PP-OCR recognizer whose output layer has only the classes a
set of scripts needs, with the matching dictionary in its `character` metadata.

usage: slice-recognizer.py IN.onnx OUT.onnx

The recognizer ends in MatMul(features, W[120, C]) + b[C] -> Softmax over C classes:
class 0 is the CTC blank, classes 1..C-2 the dictionary's characters, class C-1 the
space. Keeping the rows of W's columns and b's entries for the kept classes gives the
same scores for those classes; the softmax then runs over them alone. The kept
characters are those whose code points all lie below U+2E80, where the CJK radicals,
kana, hangul, CJK ideographs, fullwidth forms and emoji begin: Latin, Greek, Cyrillic,
digits, punctuation, currency and other symbols stay (1,748 of 18,708 characters).

Needs the `onnx` Python package (scripts/install-onnx.sh installs it under .deps/).
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper

# Where the East Asian blocks begin; everything from here up is left out.
FIRST_LEFT_OUT = 0x2E80


def keep(entry: str) -> bool:
    return all(ord(ch) < FIRST_LEFT_OUT for ch in entry)


def main(src: str, dst: str) -> None:
    model = onnx.load(src)
    graph = model.graph
    meta = {p.key: p for p in model.metadata_props}
    chars = meta["character"].value.split("\n")
    if chars and chars[-1] == "":
        chars.pop()
    classes = len(chars) + 2  # blank first, space last

    # The last Softmax, the Add feeding it and the MatMul feeding that.
    producers = {out: node for node in graph.node for out in node.output}
    softmax = next(n for n in reversed(graph.node) if n.op_type == "Softmax")
    node = producers[softmax.input[0]]
    while node.op_type == "Identity":
        node = producers[node.input[0]]
    if node.op_type != "Add":
        sys.exit(f"slice-recognizer: expected Add before Softmax, found {node.op_type}")
    add = node
    inits = {i.name: i for i in graph.initializer}
    bias_name = next(i for i in add.input if i in inits)
    node = producers[next(i for i in add.input if i not in inits)]
    while node.op_type == "Identity":
        node = producers[node.input[0]]
    if node.op_type != "MatMul":
        sys.exit(f"slice-recognizer: expected MatMul before the bias, found {node.op_type}")
    weight_name = next(i for i in node.input if i in inits)
    weight = numpy_helper.to_array(inits[weight_name])
    bias = numpy_helper.to_array(inits[bias_name])
    if weight.shape[-1] != classes or bias.shape[-1] != classes:
        sys.exit(f"slice-recognizer: layer has {weight.shape[-1]} classes, dictionary gives {classes}")

    kept_chars = [c for c in chars if keep(c)]
    columns = [0] + [i + 1 for i, c in enumerate(chars) if keep(c)] + [classes - 1]
    inits[weight_name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(weight[:, columns]), weight_name))
    inits[bias_name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(bias[columns]), bias_name))
    for out in graph.output:
        dims = out.type.tensor_type.shape.dim
        if dims and dims[-1].HasField("dim_value"):
            dims[-1].dim_value = len(columns)
    meta["character"].value = "\n".join(kept_chars)
    onnx.checker.check_model(model)
    onnx.save(model, dst)
    print(f"slice-recognizer: {len(columns)} of {classes} classes kept -> {dst}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
