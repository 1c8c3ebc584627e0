import FormaMotion

/// Decompresses gzip data (RFC 1952) holding DEFLATE streams (RFC 1951), in pure Swift.
///
/// The UI-PRMD mirrors ship their text files gzip-compressed and Foundation on Linux has no gzip API, so the
/// evaluation command decodes the bytes here instead of depending on an external `gzip` program. Reading the file is
/// the caller's job; this type only turns bytes into bytes. Every member of a multi-member file is decoded, and each
/// member's CRC-32 and length trailer is checked.
public enum GzipInflater {
    /// Why a byte sequence could not be decompressed.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case notGzip
        case unsupportedMethod(UInt8)
        case truncated
        case invalidBlockType
        case storedLengthMismatch
        case invalidHuffmanCode
        case invalidDistance
        case checksumMismatch
        case lengthMismatch

        public var description: String {
            switch self {
            case .notGzip: return "not gzip data (the file does not start with the gzip magic bytes 1f 8b)"
            case .unsupportedMethod(let method): return "unsupported gzip compression method \(method) (only 8, deflate)"
            case .truncated: return "the gzip data ends too early; the file is truncated"
            case .invalidBlockType: return "corrupt gzip data: a deflate block has the reserved type 3"
            case .storedLengthMismatch: return "corrupt gzip data: a stored block's length check fails"
            case .invalidHuffmanCode: return "corrupt gzip data: an invalid Huffman code"
            case .invalidDistance: return "corrupt gzip data: a back-reference points before the start"
            case .checksumMismatch: return "corrupt gzip data: the CRC-32 of the decompressed bytes does not match"
            case .lengthMismatch: return "corrupt gzip data: the decompressed length does not match the trailer"
            }
        }
    }

    /// The decompressed bytes of every member of `data`.
    ///
    /// - Complexity: O(compressed + decompressed size).
    /// - Throws: `GzipInflater.Failure` naming what is wrong.
    public static func decompress(_ data: [UInt8]) throws(Failure) -> [UInt8] {
        guard data.count >= 2, data[0] == 0x1f, data[1] == 0x8b else { throw .notGzip }
        var output: [UInt8] = []
        output.reserveCapacity(data.count * 4)
        var offset = 0
        while offset < data.count {
            // Trailing zero padding after the last member is tolerated, as gzip itself does.
            if data[offset...].allSatisfy({ $0 == 0 }) { break }
            offset = try decodeMember(data, at: offset, into: &output)
        }
        return output
    }

    private static func decodeMember(_ data: [UInt8], at start: Int, into output: inout [UInt8]) throws(Failure) -> Int {
        guard data.count - start >= 18 else { throw .truncated }
        guard data[start] == 0x1f, data[start + 1] == 0x8b else { throw .notGzip }
        guard data[start + 2] == 8 else { throw .unsupportedMethod(data[start + 2]) }
        let flags = data[start + 3]
        var position = start + 10
        if flags & 0x04 != 0 {
            guard position + 2 <= data.count else { throw .truncated }
            position += 2 + Int(data[position]) + Int(data[position + 1]) << 8
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while true {
                guard position < data.count else { throw .truncated }
                position += 1
                if data[position - 1] == 0 { break }
            }
        }
        if flags & 0x02 != 0 { position += 2 }
        guard position <= data.count else { throw .truncated }

        let memberStart = output.count
        var reader = BitReader(bytes: data, position: position)
        try inflate(&reader, into: &output)
        position = reader.alignedBytePosition
        guard position + 8 <= data.count else { throw .truncated }
        let storedCRC = littleEndianUInt32(data, position)
        let storedLength = littleEndianUInt32(data, position + 4)
        guard crc32(output[memberStart...]) == storedCRC else { throw .checksumMismatch }
        guard UInt32(truncatingIfNeeded: output.count - memberStart) == storedLength else { throw .lengthMismatch }
        return position + 8
    }

    private static func inflate(_ reader: inout BitReader, into output: inout [UInt8]) throws(Failure) {
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let length = try reader.bits(16)
                let complement = try reader.bits(16)
                guard length == ~complement & 0xffff else { throw .storedLengthMismatch }
                for _ in 0..<length { output.append(UInt8(try reader.bits(8))) }
            case 1:
                try inflateBlock(&reader, literals: fixedTables.literals, distances: fixedTables.distances,
                                 into: &output)
            case 2:
                let tables = try readDynamicTables(&reader)
                try inflateBlock(&reader, literals: tables.literals, distances: tables.distances, into: &output)
            default:
                throw .invalidBlockType
            }
        }
    }

    private static let lengthBases: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtraBits: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    private static func inflateBlock(
        _ reader: inout BitReader, literals: HuffmanTable, distances: HuffmanTable, into output: inout [UInt8]
    ) throws(Failure) {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBases.count else { throw .invalidHuffmanCode }
            let length = lengthBases[lengthIndex] + (try reader.bits(lengthExtraBits[lengthIndex]))
            let distanceSymbol = try distances.decode(&reader)
            guard distanceSymbol < distanceBases.count else { throw .invalidHuffmanCode }
            let distance = distanceBases[distanceSymbol] + (try reader.bits(distanceExtraBits[distanceSymbol]))
            guard distance <= output.count else { throw .invalidDistance }
            let from = output.count - distance
            // Copy byte by byte: the source may overlap the bytes being written (run-length style references).
            for index in 0..<length { output.append(output[from + index]) }
        }
    }

    private static let fixedTables: (literals: HuffmanTable, distances: HuffmanTable) = {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        return (HuffmanTable(lengths: lengths), HuffmanTable(lengths: [Int](repeating: 5, count: 30)))
    }()

    private static func readDynamicTables(
        _ reader: inout BitReader
    ) throws(Failure) -> (literals: HuffmanTable, distances: HuffmanTable) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[order[index]] = try reader.bits(3) }
        let codeLengthTable = HuffmanTable(lengths: codeLengthLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthTable.decode(&reader)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw .invalidHuffmanCode }
                lengths += [Int](repeating: previous, count: 3 + (try reader.bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try reader.bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] > 0 else { throw .invalidHuffmanCode }
        return (HuffmanTable(lengths: Array(lengths[0..<literalCount])),
                HuffmanTable(lengths: Array(lengths[literalCount...])))
    }

    private static func littleEndianUInt32(_ data: [UInt8], _ at: Int) -> UInt32 {
        UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 3]) << 24
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 of ISO 3309 / ITU-T V.42 that gzip uses (reflected polynomial 0xEDB88320).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return ~crc
    }
}

/// Reads a byte array as a stream of bits, least significant bit of each byte first (RFC 1951 §3.1.1).
private struct BitReader {
    let bytes: [UInt8]
    var position: Int
    var buffer: UInt64 = 0
    var bufferedBits = 0

    init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The next `count` bits (0…16) as an integer, first bit in the lowest place.
    mutating func bits(_ count: Int) throws(GzipInflater.Failure) -> Int {
        while bufferedBits < count {
            guard position < bytes.count else { throw .truncated }
            buffer |= UInt64(bytes[position]) << UInt64(bufferedBits)
            position += 1
            bufferedBits += 8
        }
        let value = Int(buffer & ((1 << UInt64(count)) - 1))
        buffer >>= UInt64(count)
        bufferedBits -= count
        return value
    }

    /// Drops the bits left in the current byte.
    mutating func alignToByte() {
        let drop = bufferedBits % 8
        buffer >>= UInt64(drop)
        bufferedBits -= drop
    }

    /// The index of the first byte not yet consumed, after dropping a partial byte.
    var alignedBytePosition: Int { position - bufferedBits / 8 }
}

/// A canonical Huffman code (RFC 1951 §3.2.2), decoded one bit at a time against the per-length code ranges.
private struct HuffmanTable {
    /// How many codes have each length 0…15.
    var counts = [Int](repeating: 0, count: 16)
    /// Symbols ordered by code (by length, then by symbol value).
    var symbols: [Int] = []

    init(lengths: [Int]) {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    func decode(_ reader: inout BitReader) throws(GzipInflater.Failure) -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .invalidHuffmanCode
    }
}
