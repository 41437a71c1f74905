import ScanModel

/// E-mail addresses and URLs.
///
/// An e-mail needs a local part without leading, trailing or doubled dots (an apostrophe between letters is
/// kept: `o'donnel@`) and a domain of at least two labels ending in an alphabetic top-level domain; an
/// underscore in the host or an IP literal makes it invalid. Letters of other scripts count in both parts
/// (`mañana@mañana.com`, `jeff@臺網中心.tw`), but a local part does not run back into a script written
/// without spaces (`邮箱abc@x.cn` gives `abc@x.cn`). A quoted local part (`"a b"@x.com`) is not taken.
///
/// A URL is either written with a scheme (`https://`, `ftp://`, `ws://`...: any host the URL
/// standard parses that does not start with a hyphen, underscores only inside its labels, including
/// intranet names of up to 15 characters such as `http://wiki:8080`, IPv4 and bracketed IPv6
/// addresses, user information), starts with
/// `www.`, or is a bare host name whose last label is a top-level domain of the Public
/// Suffix List (`example.co.uk/path`, `bit.ly`, `sound.academy`, `пример.рф`; see
/// `TopLevelDomains.swift` and `Tools/gen-tlds`). A bare name needs well-formed labels (no
/// empty label, none starting or ending with a hyphen, at most 63 bytes), and a bare IPv4
/// address needs a port or a path (`1.2.3.4` alone is as often a version). Newer generic
/// domains that are everyday words count bare only in lower case (`sub.total` but not
/// `SUB.TOTAL`). Host names that are the domain of an e-mail, and file names
/// (`image2.png`, `data.zip`), are not URLs. The path ends at a space, an unmatched closing
/// bracket, the quote that opened the URL or punctuation of another script, and trailing
/// sentence punctuation is left out.
struct WebDetector {
    func detectEmails(_ s: ScanText, into hits: inout [Hit]) {
        let b = s.bytes
        let n = b.count
        var i = 0
        while i < n {
            if b[i] != 0x40 { i += 1; continue }
            defer { i += 1 }
            var l = i
            // Letters of any script written with spaces belong to the name (`mañana@`, `Кириллица@`), and so does an
            // apostrophe between letters (`o'donnel@`, `d'Étienne@`).
            while l > 0 {
                if isLocalChar(b[l - 1]) { l -= 1; continue }
                if b[l - 1] == 0x27, l < i, s.scalar(at: l).map({ isSpacedLetter($0.0) }) == true,
                   s.scalar(before: l - 1).map(isSpacedLetter) == true { l -= 1; continue }
                guard b[l - 1] >= 0x80, let sc = s.scalar(before: l), isSpacedLetter(sc) else { break }
                l -= UTF8.width(sc)
            }
            // A dot at either end makes no address (`.abc@example.com`; suites differ, Recognizers-Text says so).
            guard l < i, b[l] != 0x2E, b[i - 1] != 0x2E else { continue }
            // `ftp://anon:secret@host`: the user of a URL, not a mailbox.
            if isURLUserInfo(s, before: l) { continue }
            if b[l..<i].contains(where: { $0 == 0x2E }) {
                var prevDot = false
                var bad = false
                for c in b[l..<i] {
                    if c == 0x2E { if prevDot { bad = true; break }; prevDot = true } else { prevDot = false }
                }
                if bad { continue }
            }
            // A domain with letters of another script (`jeff@臺網中心.tw`, `юзер@екзампл.ком`) is read as a link's host
            // is; a sign glued after an ASCII domain (`ann@example.com¹`, a zero-width space) ends it.
            let ascii = scanHost(s, from: i + 1)
            let hostEnd: Int
            if let literal = addressLiteralEnd(s, from: i + 1) {
                hostEnd = literal
            } else if isLetter(s, at: i + 1) && s.at(i + 1) >= 0x80 || ascii.map({ isLetter(s, at: $0.0) }) == true,
               let host = scanHostName(s, from: i + 1), host.labels >= 2, !host.hyphenAtEdge, !host.numeric,
               lettersOnly(s, host.lastLabel, host.end) {
                hostEnd = host.end
            } else {
                guard let (end, labels) = ascii, labels >= 2, tldIsAlpha(s, end) else { continue }
                hostEnd = end
            }
            if s.at(hostEnd) == 0x5F || s.at(hostEnd) == 0x40 { continue }
            let text = b[l..<hostEnd].contains { $0 >= 0x80 } ? s.string(l, hostEnd).lowercased() : s.lower(l, hostEnd)
            hits.append(Hit(type: .email, start: l, end: hostEnd, value: EntityValue(address: text), priority: 90))
            i = hostEnd - 1
        }
    }

    /// The end of an address literal at `start`, an IPv4 address in square brackets (`j_9@[129.126.118.1]`, as RFC
    /// 5321 allows a mailbox's domain to be written); nil otherwise.
    private func addressLiteralEnd(_ s: ScanText, from start: Int) -> Int? {
        guard s.at(start) == 0x5B, let host = scanHostName(s, from: start + 1), isIPv4(s, host, from: start + 1),
            s.at(host.end) == 0x5D
        else { return nil }
        return host.end + 1
    }

    /// Whether the local part starting at `start` is inside a URL: a scheme's `://` before it in the same word, and no
    /// closing bracket between that has no opening one after the scheme, nor a quote or angle bracket
    /// (`[a](https://x.org)[b](mailto:ann@x.org)` is a link and then an address; `https://x.org/?q=(a)&u=ann@x.org`
    /// one link).
    private func isURLUserInfo(_ s: ScanText, before start: Int) -> Bool {
        var k = start
        var scheme = false
        while k >= 3, s.bytes[k - 1] > 0x20, start - k < 256 {
            if s.bytes[k - 1] == 0x2F, s.bytes[k - 2] == 0x2F, s.bytes[k - 3] == 0x3A { scheme = true; break }
            k -= 1
        }
        guard scheme else { return false }
        var round = 0, square = 0
        for c in s.bytes[k..<start] {
            switch c {
            case 0x28: round += 1
            case 0x29: round -= 1
            case 0x5B: square += 1
            case 0x5D: square -= 1
            case 0x22, 0x3C, 0x3E: return false
            default: break
            }
            if round < 0 || square < 0 { return false }
        }
        return true
    }

    /// Whether a letter of any script starts at byte `i`.
    private func isLetter(_ s: ScanText, at i: Int) -> Bool {
        s.scalar(at: i).map { $0.0.properties.isAlphabetic } ?? false
    }

    /// Whether the scalar is a letter of a script written with spaces (not Han, kana, Thai or Hangul).
    private func isSpacedLetter(_ sc: Unicode.Scalar) -> Bool {
        sc.properties.isAlphabetic && !isUnspacedScript(sc.value)
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
            guard isUserInfoChar(c) else { return nil }
            k += 1
        }
        return nil
    }

    /// A byte RFC 3986 allows in user information, but for brackets: a `)` there closes the text around a link
    /// (`(https://example.com)(ann@example.com)`) far more often than it stands in a user name.
    @inline(__always) private func isUserInfoChar(_ c: UInt8) -> Bool {
        isAlnum(c) || c >= 0x80 || "-._~%!$&'*+,;=:".utf8.contains(c)
    }

    private func lastLabel(_ s: ScanText, _ end: Int) -> (Int, Int) {
        var k = end
        while k > 0, s.bytes[k - 1] != 0x2E { k -= 1 }
        return (k, end)
    }

    /// Whether `start..<end` holds two letters or more, of any script, and nothing else.
    private func lettersOnly(_ s: ScanText, _ start: Int, _ end: Int) -> Bool {
        let text = s.string(start, end)
        return text.unicodeScalars.count >= 2 && text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic }
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
            let ascii = isAlnum(c)
            guard ascii || c >= 0xC0 else { i += 1; continue }
            if i > 0 {
                let prev = b[i - 1]
                // `-https://...`, `x@http://...` and a link glued to the end of a sentence
                // (`May 5th.https://t.co/...`) still start a URL with a scheme.
                if isAlnum(prev) && !gluedScheme(s, at: i) || prev == 0x5F || prev == 0x5C
                    || (prev == 0x40 || prev == 0x2D || prev == 0x2E) && scheme(s, at: i) == nil
                    || prev == 0x2F && !isProtocolRelative(s, i) {
                    i += 1
                    continue
                }
                // Inside a word of letters with accents or of another script: not a start, except
                // where Latin follows a script written without spaces (`访问www.example.com`).
                if prev >= 0x80,
                    !ascii
                        || !(s.scalar(before: i).map { isUnspacedScript($0.value) || !$0.properties.isAlphabetic }
                            ?? true)
                {
                    i += 1
                    continue
                }
            }
            // A host starts with a letter or digit, ASCII or not (`münchen.de`, `пример.рф`).
            if !ascii, hostScalarLength(s, i) == 0 { i += 1; continue }
            if var (hit, next) = parseURL(s, at: i) {
                // A protocol-relative link keeps its two slashes, as printed (`//example.com`).
                if isProtocolRelative(s, i) { hit.start = i - 2 }
                hits.append(hit)
                i = next
            } else {
                // Skip the rest of this word.
                var j = i
                if b[i] < 0x80 {
                    while j < n, isHostChar(b[j]) || b[j] == 0x5F {
                        // Stop before a scheme glued on by a dot, so that its URL is still read.
                        if b[j] == 0x2E, j + 1 < n, isAlpha(b[j + 1]), scheme(s, at: j + 1) != nil { break }
                        // And before one glued to a card's label (`Whttps://`).
                        if j > i, gluedScheme(s, at: j) { break }
                        j += 1
                    }
                }
                i = max(j, i + 1)
            }
        }
    }

    /// `//example.com` (a protocol-relative link): two slashes after a space, quote or bracket.
    private func isProtocolRelative(_ s: ScanText, _ i: Int) -> Bool {
        guard s.at(i - 1) == 0x2F, s.at(i - 2) == 0x2F else { return false }
        let before = s.at(i - 3)
        return i == 2 || before == 0x20 || before == 0x0A || before == 0x09 || before == 0x22 || before == 0x27
            || before == 0x28 || before == 0x3C || before == 0x5B || before == 0x3D
    }

    /// Whether the letters before `i` are a label a card prints before its web address, glued to it by a lost space
    /// (`Whttps://...`, `Webhttp://...`, `Sitehttps://...`): a capital and up to six small letters, starting a word.
    private func gluedLabel(_ s: ScanText, before i: Int) -> Bool {
        var k = i
        while k > 0, isAlpha(s.bytes[k - 1]), i - k < 8 { k -= 1 }
        guard i - k >= 1, i - k <= 7, !isAlnum(s.at(k - 1)), isUpper(s.bytes[k]) else { return false }
        return (k + 1..<i).allSatisfy { !isUpper(s.bytes[$0]) }
    }

    /// A scheme glued to the word before it by a lost space: after a card's label (`Whttps://`), or after any letters
    /// when it is `http` or `https`, which no word ends in (`xxxhttp://example.com`).
    private func gluedScheme(_ s: ScanText, at i: Int) -> Bool {
        scheme(s, at: i) != nil && (gluedLabel(s, before: i) || s.matches("http", at: i))
    }

    /// Schemes taken before `://` (lower case); other words before `://` are not read as schemes.
    static let schemes: [StaticString] = [
        "https", "http", "ftps", "ftp", "sftp", "wss", "ws", "git", "ssh", "svn+ssh", "svn", "rtsp"
    ]

    /// Where the authority after `://` starts when a scheme starts at `i`.
    private func scheme(_ s: ScanText, at i: Int) -> Int? {
        guard isAlpha(s.at(i)) else { return nil }
        for sc in WebDetector.schemes {
            let len = sc.utf8CodeUnitCount
            if s.matches(sc, at: i), s.at(i + len) == 0x3A, s.at(i + len + 1) == 0x2F, s.at(i + len + 2) == 0x2F {
                return i + len + 3
            }
        }
        return nil
    }

    /// A dotted host name read at `start` by `scanHostName`.
    private struct HostName {
        var end: Int
        var labels: Int
        /// Start of the last label (the top-level domain).
        var lastLabel: Int
        /// Some label starts or ends with a hyphen.
        var hyphenAtEdge: Bool
        /// An underscore (read only with `underscores`) starts or ends a label, or stands in the registered
        /// domain or the top-level domain (the last two labels).
        var underscoreMisplaced = false
        /// Every label is digits (an IPv4 address, or a number).
        var numeric: Bool
    }

    /// Byte length of the non-ASCII scalar at `i` when it may stand in a host name (a letter,
    /// mark, digit or pictograph of any script (`i❤.ws`), or a format character such as a
    /// zero-width joiner), else 0.
    private func hostScalarLength(_ s: ScanText, _ i: Int) -> Int {
        guard let (scalar, len) = s.scalar(at: i) else { return 0 }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .format,
             .otherSymbol:
            return len
        default:
            return 0
        }
    }

    /// Reads a host name of letters, digits and hyphens (any script) in dot-separated labels, and with
    /// `underscores` also underscores (`sub_domain.example.com` after a scheme); nil when a label is empty or
    /// longer than 63 bytes, or the name longer than 253. A trailing dot or hyphen is left out (it is
    /// punctuation of the sentence).
    private func scanHostName(_ s: ScanText, from start: Int, underscores: Bool = false) -> HostName? {
        let b = s.bytes
        var e = start
        var unspacedLabel: Bool? = nil // the current label's kind, once it has a letter or digit
        while e < b.count {
            let c = b[e]
            if c == 0x2E { unspacedLabel = nil; e += 1; continue }
            if isHostChar(c) || underscores && c == 0x5F {
                if unspacedLabel == true { break }
                if c != 0x2D { unspacedLabel = false }
                e += 1
                continue
            }
            if c >= 0xC0, case let len = hostScalarLength(s, e), len > 0, let (sc, _) = s.scalar(at: e) {
                // `www.example.com获取`: a label does not run from Latin into Han, kana, Thai or Hangul.
                let unspaced = isUnspacedScript(sc.value)
                if let kind = unspacedLabel, kind != unspaced { break }
                unspacedLabel = unspaced
                e += len
                continue
            }
            break
        }
        while e > start, b[e - 1] == 0x2E || b[e - 1] == 0x2D { e -= 1 }
        guard e > start, b[start] != 0x2E, e - start <= 253 else { return nil }
        var host = HostName(end: e, labels: 1, lastLabel: start, hyphenAtEdge: false, numeric: true)
        var labelStart = start
        var lastUnderscoreLabel = -1
        for k in start...e {
            if k == e || b[k] == 0x2E {
                let len = k - labelStart
                guard len >= 1, len <= 63 else { return nil }
                if b[labelStart] == 0x2D || b[k - 1] == 0x2D { host.hyphenAtEdge = true }
                if underscores, b[labelStart..<k].contains(0x5F) {
                    if b[labelStart] == 0x5F || b[k - 1] == 0x5F { host.underscoreMisplaced = true }
                    lastUnderscoreLabel = host.labels
                }
                if k < e { host.labels += 1; labelStart = k + 1; host.lastLabel = k + 1 }
            } else if !isDigit(b[k]) {
                host.numeric = false
            }
        }
        if lastUnderscoreLabel >= 1, lastUnderscoreLabel >= host.labels - 1 { host.underscoreMisplaced = true }
        return host
    }

    /// A dotted IPv4 address of four numbers up to 255.
    private func isIPv4(_ s: ScanText, _ host: HostName, from start: Int) -> Bool {
        guard host.numeric, host.labels == 4 else { return false }
        var value = 0, digits = 0
        for k in start...host.end {
            if k == host.end || s.bytes[k] == 0x2E {
                if value > 255 || digits > 3 { return false }
                value = 0; digits = 0
            } else { value = value * 10 + Int(s.bytes[k] - 0x30); digits += 1 }
        }
        return true
    }

    /// `[2001:db8::1]` after a scheme: the end of the bracketed IPv6 address, or nil.
    private func ipv6End(_ s: ScanText, from start: Int) -> Int? {
        guard s.at(start) == 0x5B else { return nil }
        var k = start + 1
        var colons = 0
        while k < s.count, k - start <= 46 {
            let c = s.bytes[k]
            if c == 0x5D { return colons >= 2 ? k + 1 : nil }
            if c == 0x3A { colons += 1 } else if !(isDigit(c) || "abcdefABCDEF.".utf8.contains(c)) { return nil }
            k += 1
        }
        return nil
    }

    private func parseURL(_ s: ScanText, at i: Int) -> (Hit, Int)? {
        let b = s.bytes
        var hostStart = i
        let scheme = self.scheme(s, at: i)
        if let authority = scheme {
            hostStart = authority
            if let at = userInfoEnd(s, from: hostStart) { hostStart = at + 1 }
        }
        var hostEnd: Int
        let www = scheme == nil && s.matches("www", at: i)
        if scheme != nil, let v6 = ipv6End(s, from: hostStart) {
            hostEnd = v6
        } else {
            guard let host = scanHostName(s, from: hostStart, underscores: scheme != nil) else { return nil }
            hostEnd = host.end
            let ipv4 = isIPv4(s, host, from: hostStart)
            if scheme != nil {
                // With a scheme anything the URL standard parses as a host counts, except a name that starts
                // with a hyphen (`http://a.b-.co` is a link, as linkify-it has it; twitter-text refuses
                // `http://example-.com`), and underscores only inside a label and not in the top-level domain
                // (`http://sub_domain.example.com`); a single label is an intranet name, which NetBIOS keeps to
                // 15 characters (`http://wiki:8080`, `http://kimchi`).
                if b[hostStart] == 0x2D || host.underscoreMisplaced { return nil }
                if host.labels == 1 {
                    // A number alone names no host (`http://362`).
                    if host.numeric { return nil }
                    let isLocal = hostEnd - hostStart == 9 && s.matches("localhost", at: hostStart)
                    if !isLocal, hostEnd - hostStart > 15 || s.at(hostEnd) == 0x2E { return nil }
                } else if host.numeric, !ipv4 {
                    return nil
                }
            } else if ipv4 {
                // A bare IPv4 address is a URL only with a port or a path (`1.2.3.4` alone is
                // as often a version number).
                let next = s.at(hostEnd)
                guard next == 0x3A && isDigit(s.at(hostEnd + 1)) || next == 0x2F && isAlnum(s.at(hostEnd + 1)) else {
                    return nil
                }
            } else if host.labels == 1 {
                // Without a scheme, a single label can only be localhost: most words stop here.
                guard hostEnd - i == 9, s.matches("localhost", at: i) else { return nil }
            } else {
                // A bare name needs a real top-level domain and well-formed labels.
                guard !host.hyphenAtEdge, tldIsKnown(s, host.lastLabel, hostEnd) else { return nil }
                if !www, !bareTLDCaseFits(s, host.lastLabel, hostEnd) { return nil }
                if s.at(hostEnd) == 0x40 || s.at(hostEnd) == 0x5F { return nil }
                // `S.Com.`, `S.Coop.`: one letter and a capitalized domain is an abbreviated legal form
                // (Spanish `Sociedad Comanditaria`); a one-letter host is written small (`x.com`).
                if !www, host.labels == 2, host.lastLabel - 1 - hostStart == 1,
                   (host.lastLabel..<hostEnd).contains(where: { isUpper(b[$0]) }) { return nil }
                // `Ref.No`, `TEL.NO`, `Art.Nr`: a short word before `No` or `Nr` not written small is a label that
                // abbreviates "number" in many languages (Norway's and Nauru's bare hosts are written small, `vg.no`).
                if !www, host.labels == 2, host.lastLabel - 1 - hostStart <= 4, hostEnd - host.lastLabel == 2,
                   ["no", "nr"].contains(s.lower(host.lastLabel, hostEnd)),
                   (hostStart..<hostEnd).contains(where: { isUpper(b[$0]) }) { return nil }
                // 2.ml or 3.Mo: a short number before the TLD is a measure, not a host.
                if !www, host.lastLabel - 1 > hostStart {
                    var allNumeric = true
                    for k in hostStart..<(host.lastLabel - 1) where !isDigit(b[k]) && b[k] != 0x2E {
                        allNumeric = false; break
                    }
                    if allNumeric && host.lastLabel - 1 - hostStart <= 2 { return nil }
                }
            }
        }
        if isAlnum(s.at(hostEnd)) || s.at(hostEnd) == 0x5F { return nil }
        if scheme == nil, s.at(hostEnd) == 0x2E, isAlnum(s.at(hostEnd + 1)) { return nil }
        var end = hostEnd
        // Port: up to 65535; a longer number after the colon makes the whole thing doubtful.
        if s.at(end) == 0x3A, isDigit(s.at(end + 1)) {
            var e = end + 1
            while e < b.count, isDigit(b[e]) { e += 1 }
            guard e - end - 1 <= 5, readInt(s, end + 1, e) <= 65535 else { return nil }
            if !isAlpha(s.at(e)) { end = e }
        }
        // Path, query, fragment.
        let ambiguousTLD = scheme == nil && !www && fileLikeTLD(s, hostEnd)
        let pc = s.at(end)
        if pc == 0x2F || pc == 0x3F || pc == 0x23 {
            end = pathEnd(s, from: end, quote: s.at(i - 1))
        } else if ambiguousTLD && !(countryTLDAlone(s, hostEnd) && standsAlone(s, i, end)) {
            return nil
        }
        let text = s.string(i, end)
        let url = scheme == nil ? "http://" + text : text
        return (Hit(type: .url, start: i, end: end, value: EntityValue(url: url), priority: 80), end)
    }

    /// The end of a path, query and fragment starting at `start`: it runs to a space, a
    /// character URLs never hold bare (`<>\^`|`), punctuation of another script, an unmatched
    /// closing bracket, or the quote that opened the URL; trailing sentence punctuation is
    /// left out. Balanced brackets stay in (`/wiki/Foo_(bar)`).
    private func pathEnd(_ s: ScanText, from start: Int, quote: UInt8) -> Int {
        let b = s.bytes
        var e = start
        var depth = [0, 0, 0] // () [] {}
        scan: while e < b.count {
            let c = b[e]
            switch c {
            case 0...0x20, 0x3C, 0x3E, 0x5C, 0x5E, 0x60, 0x7C, 0x7F: break scan
            case 0x22, 0x27: if c == quote { break scan }
            case 0x28: depth[0] += 1
            case 0x5B: depth[1] += 1
            case 0x7B: depth[2] += 1
            case 0x29: if depth[0] == 0 { break scan }; depth[0] -= 1
            case 0x5D: if depth[1] == 0 { break scan }; depth[1] -= 1
            case 0x7D: if depth[2] == 0 { break scan }; depth[2] -= 1
            case 0xC0...:
                let len = pathScalarLength(s, e)
                if len == 0 { break scan }
                e += len
                continue scan
            default: break
            }
            e += 1
        }
        while e > start, [0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F, 0x27, 0x22, 0x2A].contains(b[e - 1]) { e -= 1 }
        return e
    }

    /// Byte length of the non-ASCII scalar at `i` when it may stand in a path (not a space,
    /// punctuation mark or symbol such as `，。｜`), else 0.
    private func pathScalarLength(_ s: ScanText, _ i: Int) -> Int {
        guard let (scalar, len) = s.scalar(at: i) else { return 0 }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control,
             .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .dashPunctuation, .connectorPunctuation, .mathSymbol, .otherSymbol, .currencySymbol, .modifierSymbol:
            return 0
        default:
            return len
        }
    }

    private func tldIsKnown(_ s: ScanText, _ a: Int, _ e: Int) -> Bool {
        guard e - a >= 2 else { return false }
        return WebDetector.tldTable.contains(s, a, e)
    }

    /// Top-level domains older than the 2012 round of new names: country codes (two letters)
    /// and the original generic ones. Others (`.total`, `.now`, `.you`) are also everyday words.
    static let legacyGeneric: Set<String> = [
        "com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "name", "pro", "mobi", "asia", "tel",
        "travel", "jobs", "museum", "aero", "coop", "cat", "post", "xxx",
    ]

    /// Whether the case of a bare host's top-level domain fits a domain: lower case, or any
    /// case for a country code or an original generic domain, but never capitalized right
    /// after a label in small letters (`end.It` is two sentences, `Example.Com` a host). A newer generic one written
    /// in capitals (`SUB.TOTAL`) or capitalized after a small letter (`you.Now`) reads as
    /// words of a sentence or a receipt line, not as a host.
    private func bareTLDCaseFits(_ s: ScanText, _ a: Int, _ e: Int) -> Bool {
        // `end.It`: a capital after a small letter and a dot starts a new sentence.
        if isUpper(s.bytes[a]), isLower(s.at(a - 2)), (a + 1..<e).allSatisfy({ isLower(s.bytes[$0]) }) {
            var k = a - 2
            while k >= 0, isHostChar(s.bytes[k]), s.bytes[k] != 0x2E, !isUpper(s.bytes[k]) { k -= 1 }
            if k < 0 || !isUpper(s.bytes[k]) { return false }
        }
        var upper = false
        for k in a..<e where isUpper(s.bytes[k]) { upper = true; break }
        if !upper || e - a == 2 { return true }
        return WebDetector.legacyGeneric.contains(s.lower(a, e))
    }

    static let topLevelDomainSet = Set(topLevelDomains)
    static let tldTable = WordTable(topLevelDomainSet)

    private func fileLikeTLD(_ s: ScanText, _ end: Int) -> Bool {
        let (a, e) = lastLabel(s, end)
        return WebDetector.fileLike.contains(s.lower(a, e))
    }

    /// Top-level domains that are also common file extensions: a bare `name.zip` needs a path.
    static let fileLike: Set<String> = ["zip", "mov", "py", "md", "sh", "rs", "ps", "pl", "pm", "cc", "so", "ai", "sc"]

    /// Whether the host ending at `end` is under Poland's domain (`wislatravel.pl`), which names far more sites than
    /// Perl scripts; the others (`.md`, `.sh`, `.rs`, `.zip`) name files as often as sites (`README.md`, `main.rs`).
    private func countryTLDAlone(_ s: ScanText, _ end: Int) -> Bool {
        let (a, e) = lastLabel(s, end)
        return s.lower(a, e) == "pl"
    }

    /// Whether the text from `a` to `e` is all its line holds, spaces aside: a card's or a letterhead's web address
    /// on a line of its own (`wislatravel.pl`), which no sentence names a file by.
    private func standsAlone(_ s: ScanText, _ a: Int, _ e: Int) -> Bool {
        var k = a - 1
        while k >= 0, s.bytes[k] == 0x20 { k -= 1 }
        var m = e
        while m < s.count, s.bytes[m] == 0x20 { m += 1 }
        return (k < 0 || s.bytes[k] == 0x0A) && (m >= s.count || s.bytes[m] == 0x0A)
    }
}

extension ScanText {
    func matchesDynamic(_ word: String, at i: Int) -> Bool {
        let w = Array(word.utf8)
        guard i >= 0, i + w.count <= bytes.count else { return false }
        for k in 0..<w.count where lowerByte(bytes[i + k]) != w[k] { return false }
        return true
    }
}
