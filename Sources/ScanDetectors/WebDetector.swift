import ScanModel

/// E-mail addresses and URLs.
///
/// An e-mail needs a local part without leading, trailing or doubled dots and a domain
/// of at least two labels ending in an alphabetic top-level domain; an underscore in the
/// host or an IP literal makes it invalid.
///
/// A URL is either written with a scheme (`https://...`, where intranet single-label
/// hosts such as `http://localhost:8080` count), starts with `www.`, or is a bare host
/// name whose last label is a known top-level domain (`example.co.uk/path`, `bit.ly`).
/// Host names that are the domain of an e-mail, and file names (`image2.png`), are not URLs.
struct WebDetector {
    func detectEmails(_ s: ScanText, into hits: inout [Hit]) {
        let b = s.bytes
        let n = b.count
        var i = 0
        while i < n {
            if b[i] != 0x40 { i += 1; continue }
            defer { i += 1 }
            var l = i
            while l > 0, isLocalChar(b[l - 1]) { l -= 1 }
            guard l < i, b[l] != 0x2E, b[i - 1] != 0x2E else { continue }
            // `ftp://anon:secret@host`: the user of a URL, not a mailbox.
            if isURLUserInfo(s, before: l) { continue }
            if b[l..<i].contains(where: { $0 == 0x2E }) {
                var prevDot = false
                var bad = false
                for c in b[l..<i] { if c == 0x2E { if prevDot { bad = true; break }; prevDot = true } else { prevDot = false } }
                if bad { continue }
            }
            guard let (hostEnd, labels) = scanHost(s, from: i + 1), labels >= 2 else { continue }
            if s.at(hostEnd) == 0x5F || s.at(hostEnd) == 0x40 { continue }
            guard tldIsAlpha(s, hostEnd) else { continue }
            let text = s.lower(l, hostEnd)
            hits.append(Hit(type: .email, start: l, end: hostEnd, value: EntityValue(address: text), priority: 90))
            i = hostEnd - 1
        }
    }

    /// Whether the word that `start` is in began with a scheme (`://` before `start` in the same word).
    private func isURLUserInfo(_ s: ScanText, before start: Int) -> Bool {
        var k = start
        while k >= 3, s.bytes[k - 1] > 0x20, start - k < 256 {
            if s.bytes[k - 1] == 0x2F, s.bytes[k - 2] == 0x2F, s.bytes[k - 3] == 0x3A { return true }
            k -= 1
        }
        return false
    }

    @inline(__always) private func isLocalChar(_ c: UInt8) -> Bool {
        isAlnum(c) || c == 0x2E || c == 0x5F || c == 0x25 || c == 0x2B || c == 0x2D
    }
    @inline(__always) private func isHostChar(_ c: UInt8) -> Bool { isAlnum(c) || c == 0x2D || c == 0x2E }

    /// Scans a dotted host name; returns its end (without a trailing dot) and label count,
    /// or nil when a label is empty.
    private func scanHost(_ s: ScanText, from start: Int) -> (Int, Int)? {
        let b = s.bytes
        var e = start
        while e < b.count, isHostChar(b[e]) { e += 1 }
        while e > start, b[e - 1] == 0x2E || b[e - 1] == 0x2D { e -= 1 }
        guard e > start, b[start] != 0x2E, b[start] != 0x2D else { return nil }
        var labels = 1
        var prevDot = false
        for k in start..<e {
            if b[k] == 0x2E {
                if prevDot { return nil }
                labels += 1
                prevDot = true
            } else { prevDot = false }
        }
        return (e, labels)
    }

    /// After a scheme, the `@` that ends a user name and password (`ftp://anon:secret@host`), or nil
    /// when the authority has none. Only the characters RFC 3986 allows in user information count,
    /// and a slash, space or second `@` first means there is none.
    private func userInfoEnd(_ s: ScanText, from start: Int) -> Int? {
        let b = s.bytes
        var k = start
        while k < b.count, k - start <= 128 {
            let c = b[k]
            if c == 0x40 { return k > start ? k : nil }
            guard isAlnum(c) || c >= 0x80 || "-._~%!$&'()*+,;=:".utf8.contains(c) else { return nil }
            k += 1
        }
        return nil
    }

    private func lastLabel(_ s: ScanText, _ end: Int) -> (Int, Int) {
        var k = end
        while k > 0, s.bytes[k - 1] != 0x2E { k -= 1 }
        return (k, end)
    }

    private func tldIsAlpha(_ s: ScanText, _ end: Int) -> Bool {
        let (a, e) = lastLabel(s, end)
        guard e - a >= 2 else { return false }
        for k in a..<e where !isAlpha(s.bytes[k]) { return false }
        return true
    }

    func detectURLs(_ s: ScanText, into hits: inout [Hit]) {
        let b = s.bytes
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            guard isAlnum(c) else { i += 1; continue }
            let prev = s.at(i - 1)
            if i > 0, isAlnum(prev) || prev == 0x40 || prev == 0x2E || prev == 0x2D || prev == 0x5F || prev == 0x2F || prev == 0x5C || prev >= 0x80 && !isBoundaryNonASCII(s, i) {
                i += 1
                continue
            }
            if let (hit, next) = parseURL(s, at: i) {
                hits.append(hit)
                i = next
            } else {
                // Skip the rest of this word.
                var j = i
                while j < n, isHostChar(b[j]) || b[j] == 0x5F { j += 1 }
                i = max(j, i + 1)
            }
        }
    }

    /// Non-ASCII text (CJK and the like) directly before a URL does not glue to it.
    private func isBoundaryNonASCII(_ s: ScanText, _ i: Int) -> Bool { true }

    private func parseURL(_ s: ScanText, at i: Int) -> (Hit, Int)? {
        let b = s.bytes
        var hostStart = i
        var scheme: String? = nil
        let first = lowerByte(b[i])
        if first == 0x68 { // h
            if s.matches("https://", at: i) { scheme = "https"; hostStart = i + 8 }
            else if s.matches("http://", at: i) { scheme = "http"; hostStart = i + 7 }
        } else if first == 0x66, s.matches("ftp://", at: i) { scheme = "ftp"; hostStart = i + 6 }
        if scheme != nil, let at = userInfoEnd(s, from: hostStart) { hostStart = at + 1 }
        guard let (hostEnd, labels) = scanHost(s, from: hostStart) else { return nil }
        // Without a scheme, a single label can only be localhost: most words stop here.
        if scheme == nil, labels < 2, !(hostEnd - i == 9 && s.matches("localhost", at: i)) { return nil }
        let www = scheme == nil && s.matches("www", at: i)
        if scheme != nil {
            if labels == 1 {
                let len = hostEnd - hostStart
                let isLocal = s.matches("localhost", at: hostStart) && len == 9
                if !isLocal {
                    guard len <= 15 else { return nil }
                    for k in hostStart..<hostEnd where !isAlnum(b[k]) { return nil }
                }
            }
        } else if www {
            guard labels >= 3 || (labels == 2 && tldIsKnown(s, hostEnd)) else { return nil }
        } else {
            let localhost = s.matches("localhost", at: i) && hostEnd - i == 9
            if !localhost {
                guard labels >= 2, tldIsKnown(s, hostEnd) else { return nil }
            }
            if s.at(hostEnd) == 0x40 || s.at(hostEnd) == 0x5F { return nil }
            // 2.ml or 3.Mo: a short number before the TLD is a measure, not a host.
            let (tldStart, _) = lastLabel(s, hostEnd)
            if tldStart - 1 > hostStart {
                var allNumeric = true
                for k in hostStart..<(tldStart - 1) where !isDigit(b[k]) && b[k] != 0x2E { allNumeric = false; break }
                if allNumeric && tldStart - 1 - hostStart <= 2 { return nil }
            }
        }
        if isAlnum(s.at(hostEnd)) || s.at(hostEnd) == 0x5F { return nil }
        if scheme == nil, s.at(hostEnd) == 0x2E, isAlnum(s.at(hostEnd + 1)) { return nil }
        var end = hostEnd
        // Port.
        if s.at(end) == 0x3A, isDigit(s.at(end + 1)) {
            var e = end + 1
            while e < b.count, isDigit(b[e]) { e += 1 }
            if e - end - 1 <= 5, !isAlpha(s.at(e)) { end = e }
        }
        // Path, query, fragment.
        let ambiguousTLD = scheme == nil && !www && fileLikeTLD(s, hostEnd)
        let pc = s.at(end)
        if pc == 0x2F || pc == 0x3F || pc == 0x23 {
            var e = end
            var parens = 0
            while e < b.count {
                let c = b[e]
                if c <= 0x20 || c == 0x22 || c == 0x27 || c == 0x3C || c == 0x3E || c == 0x5B || c == 0x5D || c == 0x7B || c == 0x7D || c == 0x7C || c == 0x5C || c == 0x5E || c == 0x60 { break }
                if c == 0x28 { parens += 1 }
                if c == 0x29 { if parens == 0 { break }; parens -= 1 }
                e += 1
            }
            while e > end + 1, [0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F].contains(b[e - 1]) { e -= 1 }
            end = e
        } else if ambiguousTLD {
            return nil
        }
        let text = s.string(i, end)
        let url = scheme == nil ? "http://" + text : text
        return (Hit(type: .url, start: i, end: end, value: EntityValue(url: url), priority: 80), end)
    }

    private func tldIsKnown(_ s: ScanText, _ end: Int) -> Bool {
        let (a, e) = lastLabel(s, end)
        guard e - a >= 2, e - a <= 12 else { return false }
        return WebDetector.tldTable.contains(s, a, e)
    }

    static let tldTable = WordTable(tlds)

    private func fileLikeTLD(_ s: ScanText, _ end: Int) -> Bool {
        let (a, e) = lastLabel(s, end)
        return WebDetector.fileLike.contains(s.lower(a, e))
    }

    /// Top-level domains that are also common file extensions: a bare `name.zip` needs a path.
    static let fileLike: Set<String> = ["zip", "mov", "py", "md", "sh", "rs", "ps", "pl", "cc", "so", "ai", "gz", "sc"]

    static let tlds: Set<String> = {
        let cc = """
        ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz \
        ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk \
        fm fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir \
        is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk \
        ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl \
        pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc \
        td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw
        """
        let generic = """
        com net org edu gov mil int info biz name pro mobi asia tel travel jobs museum aero coop cat post \
        app dev shop store online site tech blog cloud xyz top club live news media agency studio design digital \
        email group solutions services company center global world network systems software link page art vip \
        work today life space website guru ninja social events photography restaurant cafe bar pub law legal \
        health care clinic dental fitness golf fashion gallery house land london nyc paris berlin tokyo aws google \
        amazon apple microsoft academy school university college education training institute foundation church \
        love fun games video music film radio press report one inc llc ltd gmbh consulting finance financial \
        capital money bank insurance energy city town community support tools zone team works market shopping \
        sale deals delivery food pizza coffee beer wine hotel tours holiday cars auto estate realty properties \
        homes garden photo photos pics chat wiki host hosting domains tickets rocks run ventures partners expert \
        management marketing pet eco green earth swiss africa quebec scot wales amsterdam wien koeln hamburg \
        bayern nrw madrid barcelona cymru eus gal bzh lat ovh sydney melbourne kiwi menu express boutique \
        fit care family kitchen recipes shoes watch jewelry furniture build construction tax accountant \
        dentist doctor hospital pharmacy vet realestate mortgage loans credit claims lawyer attorney science \
        engineering technology computer phone mobile directory guide info reviews blackfriday ly ms
        """
        var set = Set<String>()
        for w in (cc + " " + generic).split(whereSeparator: { $0 == " " || $0 == "\n" }) { set.insert(String(w)) }
        return set
    }()
}

extension ScanText {
    func matchesDynamic(_ word: String, at i: Int) -> Bool {
        let w = Array(word.utf8)
        guard i >= 0, i + w.count <= bytes.count else { return false }
        for k in 0..<w.count where lowerByte(bytes[i + k]) != w[k] { return false }
        return true
    }
}
