"""LightGBM trees in the packed form Swift's TreeEnsemble reads (ScanExtraction/Receipt/FieldModel.swift).

Shared by Tools/train-receipt-fields/train.py (the field rankers) and Tools/train-items/train_items.py
(the item-line labeller)."""


def flatten(boosters):
    """LightGBM's trees as flat arrays: inner nodes first (feature, threshold, children), then leaves. Given a list
    of boosters (a bag trained with different bagging seeds), the trees of all of them, each leaf divided by their number, so
    that the sum Swift computes is the bag's mean score."""
    boosters = boosters if isinstance(boosters, list) else [boosters]
    out = []
    for booster in boosters:
        out += _flat(booster, 1.0 / len(boosters))
    return out


def _flat(booster, scale):
    out = []
    for info in booster.dump_model()["tree_info"]:
        feature, threshold, left, right, leaf = [], [], [], [], []

        def walk(node):
            if "leaf_value" in node:
                leaf.append(node["leaf_value"] * scale)
                return -len(leaf)
            assert node.get("decision_type", "<=") == "<=", node.get("decision_type")
            i = len(feature)
            feature.append(node["split_feature"])
            threshold.append(node["threshold"])
            left.append(0)
            right.append(0)
            left[i] = walk(node["left_child"])
            right[i] = walk(node["right_child"])
            return i

        root = info["tree_structure"]
        if "leaf_value" in root:
            leaf.append(root["leaf_value"] * scale)
        else:
            walk(root)
        # Packed as strings of numbers: Swift reads one string a tree array much faster than thousands of JSON numbers.
        out.append({k: " ".join(repr(float(v)) if k in ("threshold", "leaf") else str(v) for v in vals)
                    for k, vals in (("feature", feature), ("threshold", threshold), ("left", left), ("right", right),
                                    ("leaf", leaf))})
    return out
