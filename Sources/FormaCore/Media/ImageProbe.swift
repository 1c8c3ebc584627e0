/// Recognises PNG and JPEG images from their bytes, without trusting a file name or a declared content type.
///
/// The probe reads the structure a decoder would need first (PNG: signature, `IHDR`, closing `IEND`; JPEG: SOI,
/// the frame header, EOI) and reports the pixel size. It does not decode pixels. Formats: PNG (ISO/IEC 15948) and
/// JPEG/JFIF (ITU-T T.81).
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
    /// - Complexity: O(*n*) in the worst case for JPEG (segment walk), O(1) for PNG.
    /// - Throws: ``Failure`` naming what is wrong.
    public static func inspect(_ bytes: some Collection<UInt8>) throws(Failure) -> ImageProbe {
        let data = Array(bytes)
        if data.isEmpty { throw .empty }
        if data.starts(with: pngSignature) { return try inspectPNG(data) }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return try inspectJPEG(data) }
        throw .unrecognised
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    private static func bigEndian(_ data: [UInt8], _ offset: Int, _ count: Int) -> Int {
        data[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func inspectPNG(_ data: [UInt8]) throws(Failure) -> ImageProbe {
        // signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4)
        guard data.count >= 8 + 8 + 13 + 4 + pngEnd.count else { throw .truncated(.png) }
        guard bigEndian(data, 8, 4) == 13, Array(data[12..<16]) == Array("IHDR".utf8) else {
            throw .malformed(.png, "the first chunk is not IHDR")
        }
        let width = bigEndian(data, 16, 4)
        let height = bigEndian(data, 20, 4)
        guard width > 0, height > 0 else { throw .malformed(.png, "the width or height is zero") }
        guard Array(data.suffix(pngEnd.count)) == pngEnd else { throw .truncated(.png) }
        return ImageProbe(format: .png, width: width, height: height)
    }

    private static func inspectJPEG(_ data: [UInt8]) throws(Failure) -> ImageProbe {
        var offset = 2
        var size: (width: Int, height: Int)?
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
                break
            }
            offset += 2 + length
        }
        guard let size else { throw .truncated(.jpeg) }
        guard size.width > 0, size.height > 0 else { throw .malformed(.jpeg, "the width or height is zero") }
        return ImageProbe(format: .jpeg, width: size.width, height: size.height)
    }
}
