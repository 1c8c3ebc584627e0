import FormaMotion
import Foundation

/// A UI-PRMD Kinect data file that cannot be used, with what is wrong and where.
public enum UIPRMDFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file has no data rows.
    case empty(source: String)
    /// A row does not have 66 comma-separated values (22 joints × 3).
    case wrongColumnCount(source: String, line: Int, found: Int)
    /// A value is not a number.
    case notANumber(source: String, line: Int, column: Int, text: String)
    /// A value is NaN or infinite.
    case nonFinite(source: String, line: Int, column: Int)
    /// The positions and angles files of one repetition have different frame counts.
    case frameCountMismatch(positionFrames: Int, angleFrames: Int)

    public var description: String {
        switch self {
        case .empty(let source):
            return "\(source): no data rows; a UI-PRMD file has one row of 66 values per frame"
        case .wrongColumnCount(let source, let line, let found):
            return "\(source), line \(line): \(found) values, expected \(UIPRMDTextReader.columnCount) "
                + "(22 joints × 3, comma-separated)"
        case .notANumber(let source, let line, let column, let text):
            return "\(source), line \(line), column \(column): \"\(text)\" is not a number"
        case .nonFinite(let source, let line, let column):
            return "\(source), line \(line), column \(column): NaN or infinity is not a valid coordinate or angle"
        case .frameCountMismatch(let positions, let angles):
            return "the positions file has \(positions) frames but the angles file has \(angles); "
                + "they must come from the same repetition"
        }
    }
}

/// One UI-PRMD file parsed into rows of 22 joint triples.
///
/// For a positions file the triple of the waist is its absolute position (centimetres) and every other triple is the
/// joint's offset from its parent, in the parent's frame. For an angles file each triple is the joint's rotation
/// relative to its parent, in degrees about x, y and z (see `UIPRMDForwardKinematics` for the convention).
public struct UIPRMDTable: Sendable, Hashable {
    /// One entry per frame; each holds `UIPRMDJoint.count` triples in `UIPRMDJoint` order.
    public var frames: [[Vector3]]

    public init(frames: [[Vector3]]) {
        self.frames = frames
    }

    /// The triple of `joint` in frame `frame`.
    public subscript(frame: Int, joint: UIPRMDJoint) -> Vector3 {
        frames[frame][joint.rawValue]
    }
}

/// Reads the text of UI-PRMD Kinect files (`mXX_sYY_eZZ_positions.txt`, `…_angles.txt`).
///
/// The format (Vakanski et al., *Data* 2018, 3(1):2): one frame per line, 66 comma-separated decimal numbers, no
/// header. Blank lines and surrounding white space are ignored; anything else that is not a finite number is an
/// error naming the line and column. Decompressing the `.gz` files the mirrors ship is the caller's job.
public enum UIPRMDTextReader {
    /// Values per row: 22 joints × 3.
    public static let columnCount = UIPRMDJoint.count * 3

    /// Parses one file's text; `source` names the file in error messages.
    ///
    /// - Complexity: O(n) in the length of the text.
    /// - Throws: `UIPRMDFormatError` for an empty file, a row with the wrong number of values, or a value that is not
    ///   a finite number.
    public static func parse(_ text: String, source: String) throws(UIPRMDFormatError) -> UIPRMDTable {
        try parse(utf8: Array(text.utf8), source: source)
    }

    /// Parses one file's bytes (UTF-8 or ASCII text); `source` names the file in error messages.
    ///
    /// Numbers are read with the C library's `strtod`, which is an order of magnitude faster than building a
    /// `String` per value; the evaluation command reads about ten million values.
    /// - Throws: as `parse(_:source:)`.
    public static func parse(utf8 bytes: [UInt8], source: String) throws(UIPRMDFormatError) -> UIPRMDTable {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer throws(UIPRMDFormatError) -> UIPRMDTable in
            try parseTerminated(buffer, source: source)
        }
    }

    private static func parseTerminated(
        _ buffer: UnsafeBufferPointer<UInt8>, source: String
    ) throws(UIPRMDFormatError) -> UIPRMDTable {
        guard let base = buffer.baseAddress else { throw .empty(source: source) }
        let end = buffer.count - 1  // index of the terminating zero
        let comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

        var frames: [[Vector3]] = []
        var values = [Double](repeating: 0, count: columnCount)
        var lineStart = 0
        var lineNumber = 0
        while lineStart < end {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < end && buffer[lineEnd] != newline { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            if (lineStart..<lineEnd).allSatisfy({ isBlank(buffer[$0]) }) { continue }
            let fieldCount = 1 + (lineStart..<lineEnd).reduce(0) { $0 + (buffer[$1] == comma ? 1 : 0) }
            guard fieldCount == columnCount else {
                throw .wrongColumnCount(source: source, line: lineNumber, found: fieldCount)
            }
            var fieldStart = lineStart
            for column in 0..<columnCount {
                var fieldEnd = fieldStart
                while fieldEnd < lineEnd && buffer[fieldEnd] != comma { fieldEnd += 1 }
                var parsedEnd: UnsafeMutablePointer<CChar>?
                let start = UnsafeRawPointer(base + fieldStart).assumingMemoryBound(to: CChar.self)
                let value = strtod(start, &parsedEnd)
                var consumed = parsedEnd.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? fieldStart
                while consumed < fieldEnd && isBlank(buffer[consumed]) { consumed += 1 }
                let hasDigits = (fieldStart..<fieldEnd).contains { !isBlank(buffer[$0]) }
                guard hasDigits, consumed == fieldEnd else {
                    let text = String(decoding: buffer[fieldStart..<fieldEnd], as: UTF8.self)
                    throw .notANumber(source: source, line: lineNumber, column: column + 1,
                                      text: text.trimmingCharacters(in: .whitespaces))
                }
                guard value.isFinite else { throw .nonFinite(source: source, line: lineNumber, column: column + 1) }
                values[column] = value
                fieldStart = fieldEnd + 1
            }
            frames.append((0..<UIPRMDJoint.count).map { joint in
                Vector3(x: values[3 * joint], y: values[3 * joint + 1], z: values[3 * joint + 2])
            })
        }
        guard !frames.isEmpty else { throw .empty(source: source) }
        return UIPRMDTable(frames: frames)
    }
}
