import Foundation

/// The JSON text of live messages: keys sorted and slashes unescaped, so the same message is always the same text.
public enum LiveJSON {
    /// What a message whose encoding fails (a non-finite number: JSON has none) is sent as instead, so that the
    /// client gets an event it can tell apart rather than a dropped message.
    public static let unencodable = #"{"type":"error"}"#

    public static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number fails to encode, and the analysis never reports one.
        guard let data = try? encoder.encode(value) else { return unencodable }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Writes JSON text byte by byte, as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes it: the
/// caller writes the keys of each object in sorted order; strings are escaped as the encoder escapes them (`"`, `\`,
/// the C0 controls, `\n`-style where JSON has a short form, `\u00xx` otherwise; `/` and everything else as is);
/// numbers as the encoder writes them (an integral `Double` without `.0`, otherwise its shortest round-tripping
/// text). A non-finite number is remembered (``isEncodable``), as the encoder would have thrown.
///
/// For the events a server writes for every session many times a second (``LiveEvent/jsonText``): JSONEncoder builds
/// a tree of boxed values for each message and costs several times this.
struct LiveJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// No non-finite number was written.
    private(set) var isEncodable = true
    private var needsComma = false

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    var text: String { isEncodable ? String(decoding: bytes, as: UTF8.self) : LiveJSON.unencodable }

    mutating func object(_ body: (inout LiveJSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        let outer = needsComma
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = outer
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout LiveJSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        let outer = needsComma
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            needsComma = false
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = outer
    }

    /// Starts the member `name`, a key that needs no escaping (the protocol's own field names).
    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts the member named by a string of the data (a mistake code), escaped.
    mutating func key(_ name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var clean = utf8.startIndex
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                clean = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    raw("u00")
                    bytes.append(Self.hexDigit(byte >> 4))
                    bytes.append(Self.hexDigit(byte & 0xF))
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        guard value != 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits from the last, on the magnitude (Int.min's has no positive Int).
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                count += 1
                buffer[20 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    mutating func number(_ value: Double) {
        guard value.isFinite else {
            isEncodable = false
            bytes.append(UInt8(ascii: "0"))
            return
        }
        // An integral value under 10^15 is written by Swift as its digits and ".0", which the encoder drops; the
        // same digits without going through a String. (-0 stays "-0", as the encoder writes it.)
        if value.magnitude < 1e15, value.rounded(.towardZero) == value, !(value == 0 && value.sign == .minus) {
            int(Int(value))
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
