import Foundation

/// JSON text for an `Encodable` value, byte for byte as Foundation's `JSONEncoder` writes it
/// with `.sortedKeys` and `.withoutEscapingSlashes` (and `.prettyPrinted` when `pretty`),
/// at a fraction of its cost: `JSONEncoder` boxes every value and checks it against the types
/// it writes its own way, which made it a fifth of a text-layer PDF's CPU.
///
/// `Date`, `Data`, `URL` and `Decimal` are among those types: this writer refuses them (no
/// output model of this project holds one) rather than write them differently. A value that
/// is not finite is refused, as `JSONEncoder` refuses it.
public enum JSONText {
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    public static func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> Data {
        let root = try node(value)
        var writer = Writer(pretty: pretty)
        writer.write(root, depth: 0)
        return Data(writer.out)
    }

    // MARK: - The tree the encoder builds

    final class Object { var pairs: [(key: String, value: Node)] = [] }
    final class Array_ { var items: [Node] = [] }

    enum Node {
        case null, bool(Bool), number(String), string(String)
        case object(Object), array(Array_)
        /// A `superEncoder`'s value, read when the tree is written.
        case deferred(TreeEncoder)
    }

    static func node<T: Encodable>(_ value: T) throws -> Node {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Double.self { return try number(value as! Double) }
        if T.self == Int.self { return .number(String(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            throw Unsupported(description: "JSONText does not write \(T.self) (JSONEncoder writes it its own way)")
        }
        let encoder = TreeEncoder()
        try value.encode(to: encoder)
        return encoder.node ?? .object(Object())
    }

    /// The value's `description` without a trailing `.0`, as `JSONEncoder` writes a number.
    static func number<F: BinaryFloatingPoint & CustomStringConvertible>(_ v: F) throws -> Node {
        guard v.isFinite else { throw Unsupported(description: "\(v) is not a JSON number") }
        var s = v.description
        if s.hasSuffix(".0") { s.removeLast(2) }
        return .number(s)
    }

    final class TreeEncoder: Encoder {
        var node: Node?
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object(let o)? = node { return KeyedEncodingContainer(Keyed<Key>(object: o)) }
            let o = Object()
            node = .object(o)
            return KeyedEncodingContainer(Keyed<Key>(object: o))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array(let a)? = node { return Unkeyed(array: a) }
            let a = Array_()
            node = .array(a)
            return Unkeyed(array: a)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: Object
        var codingPath: [any CodingKey] { [] }

        private func put(_ key: Key, _ node: Node) { object.pairs.append((key.stringValue, node)) }

        mutating func encodeNil(forKey key: Key) { put(key, .null) }
        mutating func encode(_ value: Bool, forKey key: Key) { put(key, .bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) { put(key, .string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(key, try JSONText.number(value)) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(key, try JSONText.number(value)) }
        mutating func encode(_ value: Int, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: Int8, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: Int16, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: Int32, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: UInt, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) { put(key, .number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { put(key, try JSONText.node(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let o = Object()
            put(key, .object(o))
            return KeyedEncodingContainer(Keyed<NestedKey>(object: o))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let a = Array_()
            put(key, .array(a))
            return Unkeyed(array: a)
        }

        mutating func superEncoder() -> any Encoder {
            let e = TreeEncoder()
            object.pairs.append(("super", .deferred(e)))
            return e
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let e = TreeEncoder()
            put(key, .deferred(e))
            return e
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: Array_
        var codingPath: [any CodingKey] { [] }
        var count: Int { array.items.count }

        mutating func encodeNil() { array.items.append(.null) }
        mutating func encode(_ value: Bool) { array.items.append(.bool(value)) }
        mutating func encode(_ value: String) { array.items.append(.string(value)) }
        mutating func encode(_ value: Double) throws { array.items.append(try JSONText.number(value)) }
        mutating func encode(_ value: Float) throws { array.items.append(try JSONText.number(value)) }
        mutating func encode(_ value: Int) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: Int8) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: Int16) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: Int32) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: Int64) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: UInt) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: UInt8) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: UInt16) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: UInt32) { array.items.append(.number(String(value))) }
        mutating func encode(_ value: UInt64) { array.items.append(.number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { array.items.append(try JSONText.node(value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let o = Object()
            array.items.append(.object(o))
            return KeyedEncodingContainer(Keyed<NestedKey>(object: o))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let a = Array_()
            array.items.append(.array(a))
            return Unkeyed(array: a)
        }

        mutating func superEncoder() -> any Encoder {
            let e = TreeEncoder()
            array.items.append(.deferred(e))
            return e
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() { encoder.node = .null }
        mutating func encode(_ value: Bool) { encoder.node = .bool(value) }
        mutating func encode(_ value: String) { encoder.node = .string(value) }
        mutating func encode(_ value: Double) throws { encoder.node = try JSONText.number(value) }
        mutating func encode(_ value: Float) throws { encoder.node = try JSONText.number(value) }
        mutating func encode(_ value: Int) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: Int8) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: Int16) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: Int32) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: Int64) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: UInt) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: UInt8) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: UInt16) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: UInt32) { encoder.node = .number(String(value)) }
        mutating func encode(_ value: UInt64) { encoder.node = .number(String(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.node = try JSONText.node(value) }
    }

    // MARK: - Writing

    /// `JSONEncoder`'s `.sortedKeys` order on this platform: the keys' own order as strings
    /// (`Item2` < `_a` < `item10` < `item2` < `textSource` < `texts`), checked in `JSONTextTests`.
    /// ASCII keys, nearly all of them, are compared as bytes, which is that order.
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        let fast: Bool? = a.withUTF8 { x in
            b.withUTF8 { y in
                guard !x.contains(where: { $0 >= 0x80 }), !y.contains(where: { $0 >= 0x80 }) else { return nil }
                return x.lexicographicallyPrecedes(y)
            }
        }
        return fast ?? (a < b)
    }

    struct Writer {
        let pretty: Bool
        var out: [UInt8] = []

        init(pretty: Bool) {
            self.pretty = pretty
            out.reserveCapacity(1 << 16)
        }

        mutating func indent(_ depth: Int) {
            out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }

        mutating func write(_ node: Node, depth: Int) {
            switch node {
            case .null: out.append(contentsOf: "null".utf8)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .number(let s): out.append(contentsOf: s.utf8)
            case .string(let s): string(s)
            case .deferred(let e): write(e.node ?? .object(Object()), depth: depth)
            case .array(let a):
                out.append(UInt8(ascii: "["))
                if pretty { out.append(0x0A) }
                for (n, item) in a.items.enumerated() {
                    if n > 0 { out.append(UInt8(ascii: ",")); if pretty { out.append(0x0A) } }
                    if pretty { indent(depth + 1) }
                    write(item, depth: depth + 1)
                }
                if pretty {
                    out.append(0x0A)
                    indent(depth)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let o):
                // Sorted by key; a key set twice keeps its last value.
                let pairs = o.pairs
                var order = Swift.Array(pairs.indices)
                order.sort { m, n in
                    pairs[m].key == pairs[n].key ? m < n : JSONText.keyOrder(pairs[m].key, pairs[n].key)
                }
                out.append(UInt8(ascii: "{"))
                if pretty { out.append(0x0A) }
                var first = true
                for (n, k) in order.enumerated() {
                    if n + 1 < order.count && pairs[order[n + 1]].key == pairs[k].key { continue }
                    if !first { out.append(UInt8(ascii: ",")); if pretty { out.append(0x0A) } }
                    first = false
                    if pretty { indent(depth + 1) }
                    string(pairs[k].key)
                    if pretty {
                        out.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
                    } else {
                        out.append(UInt8(ascii: ":"))
                    }
                    write(pairs[k].value, depth: depth + 1)
                }
                if pretty {
                    out.append(0x0A)
                    indent(depth)
                }
                out.append(UInt8(ascii: "}"))
            }
        }

        mutating func string(_ s: String) {
            out.append(UInt8(ascii: "\""))
            let utf8 = s.utf8
            // Most strings need no escape: copied whole.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                out.append(contentsOf: utf8)
            } else {
                for b in utf8 {
                    switch b {
                    case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                    case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                    case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                    case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                    case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                    case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                    case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                    case 0..<0x20:
                        let hex = Swift.Array("0123456789abcdef".utf8)
                        out.append(contentsOf: "\\u00".utf8)
                        out.append(contentsOf: [hex[Int(b >> 4)], hex[Int(b & 15)]])
                    default: out.append(b)
                    }
                }
            }
            out.append(UInt8(ascii: "\""))
        }
    }
}
