/// The one place where a document's boxes change coordinate space.
///
/// Every stage after recognition (upright, layout, entities, classification, parsing)
/// works on the upright page. At the end the pipeline maps every box in the document
/// (observations, words, layout, entities, provenance, line items...) back into the
/// pixels of the file the user gave, here, once per box.
extension Document {
    /// Maps every box on page `p` through `maps[p]` (pages without a map are left as they are).
    /// Observations and words also get their `quad` when the map does not keep boxes
    /// axis-aligned (perspective or a slight rotation).
    /// Boxes are rounded to 0.1 px on the way, also under the identity.
    public func mappingBoxes(_ maps: [Int: Homography]) -> Document {
        guard !maps.isEmpty else { return self }
        func box(_ b: BoundingBox, _ page: Int?) -> BoundingBox {
            guard let page, let h = maps[page] else { return b }
            return b.mapped(by: h).rounded()
        }
        func box(_ b: BoundingBox?, _ page: Int?) -> BoundingBox? { b.map { box($0, page) } }
        func prov(_ p: Provenance) -> Provenance {
            var out = p
            out.boundingBox = box(p.boundingBox, p.page)
            return out
        }
        var out = self
        out.pages = pages.map { page in
            guard let h = maps[page.index] else { return page }
            return page.mappingBoxes(h)
        }
        out.entities = entities?.map { e in
            var e = e
            e.boundingBox = box(e.boundingBox, e.page)
            return e
        }
        if var r = receipt {
            r.provenance = r.provenance.mapValues(prov)
            r.items = r.items.map {
                var i = $0; i.source = prov($0.source); return i
            }
            r.tax = r.tax.map {
                var t = $0; t.source = prov($0.source); return t
            }
            out.receipt = r
        }
        if var c = businessCard {
            c.provenance = c.provenance.mapValues(prov)
            c.phones = c.phones.map {
                var x = $0; x.source = prov($0.source); return x
            }
            c.emails = c.emails.map {
                var x = $0; x.source = prov($0.source); return x
            }
            c.urls = c.urls.map {
                var x = $0; x.source = prov($0.source); return x
            }
            c.socialProfiles = c.socialProfiles.map {
                var x = $0; x.source = prov($0.source); return x
            }
            out.businessCard = c
        }
        return out
    }
}

extension Page {
    /// The page's observations, words and layout boxes mapped through `h`. Width, height
    /// and the page's other fields are left to the caller.
    public func mappingBoxes(_ h: Homography) -> Page {
        let keepsAxes =
            h.isAffine && abs(h.m[1]) < 1e-9 && abs(h.m[3]) < 1e-9
            || h.isAffine && abs(h.m[0]) < 1e-9 && abs(h.m[4]) < 1e-9
        func quad(_ b: BoundingBox) -> Quad? { keepsAxes ? nil : h.apply(b).rounded() }
        var out = self
        out.observations = observations.map { o in
            var o = o
            o.quad = o.quad.map { h.apply($0).rounded() } ?? quad(o.boundingBox)
            o.boundingBox = o.boundingBox.mapped(by: h).rounded()
            o.words = o.words.map { w in
                var w = w
                w.quad = w.quad.map { h.apply($0).rounded() } ?? quad(w.boundingBox)
                w.boundingBox = w.boundingBox.mapped(by: h).rounded()
                return w
            }
            return o
        }
        out.layout = layout.map { l in
            PageLayout(
                blocks: l.blocks.map { b in
                    PageLayout.Block(
                        boundingBox: b.boundingBox.mapped(by: h).rounded(),
                        lines: b.lines.map { line in
                            PageLayout.Line(
                                text: line.text, boundingBox: line.boundingBox.mapped(by: h).rounded(),
                                words: line.words)
                        })
                }, frame: l.frame.map { h.apply($0).rounded() })
        }
        return out
    }
}
