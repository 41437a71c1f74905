import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element as the invoice readers need it: its local name (namespace prefixes dropped, as the syntaxes'
/// versions bind them to different URIs), attributes, text and children.
struct XMLTree {
    var name: String
    var attributes: [String: String]
    var text = ""
    var children: [XMLTree] = []

    /// The first descendant reached by the local names of `path`, one level each.
    func first(_ path: String...) -> XMLTree? { first(path) }

    func first(_ path: [String]) -> XMLTree? {
        guard let head = path.first else { return self }
        for child in children where child.name == head {
            if let found = child.first(Array(path.dropFirst())) { return found }
        }
        return nil
    }

    /// Every descendant reached by the local names of `path`.
    func all(_ path: String...) -> [XMLTree] { all(path) }

    func all(_ path: [String]) -> [XMLTree] {
        guard let head = path.first else { return [self] }
        return children.filter { $0.name == head }.flatMap { $0.all(Array(path.dropFirst())) }
    }

    /// The text of the first element at `path`, trimmed; nil when it is absent or empty.
    func value(_ path: String...) -> String? {
        let text = first(path)?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return text?.isEmpty == false ? text : nil
    }
}

/// Builds an `XMLTree` tree with Foundation's parser (libxml2), refusing what no invoice holds: external
/// entities are never fetched, and nesting past `maxDepth` or more than `maxElements` elements stop the parse.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        case tooLarge

        var description: String {
            switch self {
            case .malformed(let why): return "the XML cannot be read (\(why))"
            case .tooLarge: return "the XML nests or holds more elements than an invoice does"
            }
        }
    }

    static let maxDepth = 64
    static let maxElements = 200_000

    private var stack: [XMLTree] = []
    private var root: XMLTree?
    private var count = 0
    private var overflow = false

    static func parse(_ bytes: [UInt8]) throws -> XMLTree {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        if builder.overflow { throw Failure.tooLarge }
        guard ok, let root = builder.root else {
            throw Failure.malformed(parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element")
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        count += 1
        guard stack.count < Self.maxDepth, count <= Self.maxElements else {
            overflow = true
            parser.abortParsing()
            return
        }
        let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(XMLTree(name: local, attributes: attributes))
    }

    /// An element's text is kept up to 64 KiB: no value of an invoice is longer.
    static let maxText = 1 << 16

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        let room = Self.maxText - stack[stack.count - 1].text.utf8.count
        guard room > 0 else { return }
        stack[stack.count - 1].text += string.utf8.count <= room ? string : String(string.prefix(room))
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard let done = stack.popLast() else { return }
        if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
    }
}
