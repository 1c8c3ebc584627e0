/// Recognises PNG and JPEG images from their bytes, without trusting a file name or a declared content type.
///
/// The probe checks the structure a decoder relies on and reports the pixel size; it does not decode pixels.
/// PNG (ISO/IEC 15948): the signature, every chunk's length and CRC-32, an `IHDR` first whose fields are possible
/// (sizes from 1 to 2^31 − 1, a bit depth the colour type allows, compression and filter method 0, interlace 0 or
/// 1), at least one `IDAT`, and `IEND` last. JPEG/JFIF (ITU-T T.81): SOI, a frame header with a non-zero size, a
/// scan after it, and EOI after the scan.
public struct ImageProbe: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case png = "image/png"
        case jpeg = "image/jpeg"

        /// The IANA media type.
        public var mediaType: String { rawValue }
    }

    public let format: Format
    public let width: Int
    public let height: Int

    /// Why bytes are not an acceptable image.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case empty
        case unrecognised
        case truncated(Format)
        case malformed(Format, String)

        public var description: String {
            switch self {
            case .empty: "the image is empty"
            case .unrecognised: "the bytes are neither a PNG nor a JPEG image"
            case .truncated(let format): "the \(format == .png ? "PNG" : "JPEG") image is cut short"
            case .malformed(let format, let detail): "the \(format == .png ? "PNG" : "JPEG") image is malformed: \(detail)"
            }
        }
    }

    /// Inspects `bytes` and returns the format and pixel size.
    ///
    /// - Complexity: O(*n*) in the byte count: a PNG's every chunk has its CRC-32 checked, a JPEG's segments are
    ///   walked and its scan searched for EOI.
    /// - Throws: ``Failure`` naming what is wrong.
    public static func inspect(_ bytes: some Collection<UInt8>) throws(Failure) -> ImageProbe {
        let data = Array(bytes)
        if data.isEmpty { throw .empty }
        if data.starts(with: pngSignature) { return try inspectPNG(data) }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return try inspectJPEG(data) }
        throw .unrecognised
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Bytes of a chunk without data: length, type and CRC, 4 each (an `IEND` chunk is just that).
    private static let emptyChunkBytes = 12

    private static func bigEndian(_ data: [UInt8], _ offset: Int, _ count: Int) -> Int {
        data[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func inspectPNG(_ data: [UInt8]) throws(Failure) -> ImageProbe {
        // signature (8) + IHDR chunk (4 + 4 + 13 + 4) + IEND chunk (12)
        guard data.count >= 8 + 25 + emptyChunkBytes else { throw .truncated(.png) }
        guard bigEndian(data, 8, 4) == 13, Array(data[12..<16]) == Array("IHDR".utf8) else {
            throw .malformed(.png, "the first chunk is not IHDR")
        }
        let width = bigEndian(data, 16, 4)
        let height = bigEndian(data, 20, 4)
        guard width > 0, height > 0 else { throw .malformed(.png, "the width or height is zero") }
        let largest = Int(Int32.max)
        guard width <= largest, height <= largest else {
            throw .malformed(.png, "the width or height is above 2^31 - 1")
        }
        let (bitDepth, colourType) = (data[24], data[25])
        let allowedDepths: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowedDepths[colourType] else {
            throw .malformed(.png, "colour type \(colourType) does not exist")
        }
        guard depths.contains(bitDepth) else {
            throw .malformed(.png, "bit depth \(bitDepth) is not allowed with colour type \(colourType)")
        }
        guard data[26] == 0, data[27] == 0, data[28] <= 1 else {
            throw .malformed(.png, "the compression, filter or interlace method is unknown")
        }

        // Every chunk: length, type, data, then a CRC-32 of type and data.
        var offset = 8
        var sawImageData = false
        while true {
            guard offset + 12 <= data.count else { throw .truncated(.png) }
            let length = bigEndian(data, offset, 4)
            guard length <= largest else { throw .malformed(.png, "a chunk declares \(length) bytes") }
            let end = offset + 12 + length
            guard end <= data.count else { throw .truncated(.png) }
            let type = Array(data[(offset + 4)..<(offset + 8)])
            let stored = UInt32(bigEndian(data, offset + 8 + length, 4))
            guard CRC32.checksum(data[(offset + 4)..<(offset + 8 + length)]) == stored else {
                throw .malformed(.png, "the CRC of chunk \(String(decoding: type, as: UTF8.self)) is wrong")
            }
            if type == Array("IDAT".utf8) { sawImageData = true }
            if type == Array("IEND".utf8) {
                guard end == data.count else { throw .malformed(.png, "bytes follow the IEND chunk") }
                break
            }
            offset = end
        }
        guard sawImageData else { throw .malformed(.png, "there is no IDAT chunk") }
        return ImageProbe(format: .png, width: width, height: height)
    }

    private static func inspectJPEG(_ data: [UInt8]) throws(Failure) -> ImageProbe {
        var offset = 2
        var size: (width: Int, height: Int)?
        var sawScan = false
        while offset + 4 <= data.count {
            guard data[offset] == 0xFF else { throw .malformed(.jpeg, "expected a marker at byte \(offset)") }
            let marker = data[offset + 1]
            if marker == 0xFF {
                offset += 1  // fill byte
                continue
            }
            if marker == 0xD9 { break }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            let length = bigEndian(data, offset + 2, 2)
            guard length >= 2, offset + 2 + length <= data.count else { throw .truncated(.jpeg) }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader {
                guard length >= 7 else { throw .malformed(.jpeg, "the frame header is too short") }
                size = (bigEndian(data, offset + 7, 2), bigEndian(data, offset + 5, 2))
            }
            if marker == 0xDA {
                // Entropy-coded data follows the scan header and must close with EOI. Some phone cameras append a
                // trailer after EOI, so EOI is looked for anywhere after the scan, not only at the very end.
                guard size != nil else { throw .malformed(.jpeg, "the scan starts before any frame header") }
                let scan = data[(offset + 2 + length)...]
                guard zip(scan, scan.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else {
                    throw .truncated(.jpeg)
                }
                sawScan = true
                break
            }
            offset += 2 + length
        }
        guard let size else { throw .truncated(.jpeg) }
        guard size.width > 0, size.height > 0 else { throw .malformed(.jpeg, "the width or height is zero") }
        guard sawScan else { throw .malformed(.jpeg, "there is no image scan (SOS)") }
        return ImageProbe(format: .jpeg, width: size.width, height: size.height)
    }
}

/// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320 reflected; PNG specification, annex D).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
