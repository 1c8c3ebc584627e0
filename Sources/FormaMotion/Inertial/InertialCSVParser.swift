/// Reads inertial recordings from comma-separated text: Forma's own layout and the MetaMotion (MbientLab) export.
///
/// Forma's layout has a header naming `t,ax,ay,az` and optionally `gx,gy,gz`, in any order; extra columns are
/// ignored. `t` is in seconds, acceleration in g, rotation in degrees per second. The MetaMotion export writes the
/// accelerometer and the gyroscope to separate files (`epoch (ms),time,elapsed (s),x-axis (g),…`), usually at
/// different rates; ``metaMotion(accelerometer:gyroscope:)`` joins them on the epoch column.
///
/// Parsing is O(n) in the text length. Lines may end in `\n` or `\r\n`; blank lines are skipped. Errors name the
/// 1-based line.
public enum InertialCSVParser {
    /// Parses Forma's CSV layout.
    ///
    /// - Throws: ``InertialInputError`` naming the line and column of the first bad value, a missing header column,
    ///   a row of the wrong length, NaN or infinity, time that does not increase, or an implausible rate.
    public static func parse(_ text: String) throws(InertialInputError) -> InertialRecording {
        let table = try CSVTable(text, source: "CSV")
        let time = try table.column("t")
        let accel = (try table.column("ax"), try table.column("ay"), try table.column("az"))
        let gyroNames = ["gx", "gy", "gz"].filter { table.header.contains($0) }
        guard gyroNames.isEmpty || gyroNames.count == 3 else {
            throw .badHeader(detail: "has \(gyroNames.joined(separator: ",")) but the gyroscope needs gx, gy and gz")
        }
        let gyro = gyroNames.isEmpty ? nil : (try table.column("gx"), try table.column("gy"), try table.column("gz"))
        var times: [Double] = []
        var acceleration: [Vector3] = []
        var rotation: [Vector3]? = gyro == nil ? nil : []
        times.reserveCapacity(table.rows.count)
        acceleration.reserveCapacity(table.rows.count)
        for row in table.rows {
            times.append(try row.value(time, "t"))
            acceleration.append(try row.vector(accel, names: ("ax", "ay", "az")))
            if let gyro { rotation?.append(try row.vector(gyro, names: ("gx", "gy", "gz"))) }
        }
        return try recording(times: times, acceleration: acceleration, rotation: rotation, lines: table.rows.map(\.line))
    }

    /// Joins a MetaMotion accelerometer export with an optional gyroscope export of the same session.
    ///
    /// The gyroscope is linearly interpolated at the accelerometer's instants (the MetaMotion wristband samples them
    /// on separate clocks, typically 12.5 Hz and 25 Hz). Accelerometer samples outside the gyroscope's time span are
    /// dropped, so the result has rotation for every sample. Times are seconds since the first kept sample.
    ///
    /// - Throws: ``InertialInputError`` for a malformed file (naming which file and line), a gyroscope file passed as
    ///   the accelerometer or the reverse, or files that do not overlap.
    public static func metaMotion(accelerometer: String, gyroscope: String? = nil) throws(InertialInputError) -> InertialRecording {
        let accel = try MetaMotionFile(accelerometer, expecting: .accelerometer)
        guard let gyroscope else {
            return try recording(
                times: accel.epochsSeconds.map { $0 - accel.epochsSeconds[0] }, acceleration: accel.values,
                rotation: nil, lines: accel.lines)
        }
        let gyro = try MetaMotionFile(gyroscope, expecting: .gyroscope)
        let first = max(accel.epochsSeconds[0], gyro.epochsSeconds[0])
        let last = min(accel.epochsSeconds[accel.epochsSeconds.count - 1], gyro.epochsSeconds[gyro.epochsSeconds.count - 1])
        guard last > first else {
            throw .noOverlap(detail: "accelerometer and gyroscope epochs are disjoint")
        }
        var times: [Double] = []
        var acceleration: [Vector3] = []
        var rotation: [Vector3] = []
        var lines: [Int] = []
        var cursor = 0
        for (index, epoch) in accel.epochsSeconds.enumerated() where epoch >= first && epoch <= last {
            while cursor + 1 < gyro.epochsSeconds.count, gyro.epochsSeconds[cursor + 1] <= epoch { cursor += 1 }
            let (t0, t1) = (gyro.epochsSeconds[cursor], gyro.epochsSeconds[min(cursor + 1, gyro.epochsSeconds.count - 1)])
            let weight = t1 > t0 ? min(1, max(0, (epoch - t0) / (t1 - t0))) : 0
            let (a, b) = (gyro.values[cursor], gyro.values[min(cursor + 1, gyro.values.count - 1)])
            times.append(epoch - first)
            acceleration.append(accel.values[index])
            rotation.append(a + (b - a) * weight)
            lines.append(accel.lines[index])
        }
        return try recording(times: times, acceleration: acceleration, rotation: rotation, lines: lines)
    }

    /// Whether `text` starts with a MetaMotion export header.
    public static func looksLikeMetaMotion(_ text: some StringProtocol) -> Bool {
        text.prefix(200).lowercased().hasPrefix("epoch (ms)")
    }

    /// Builds the recording, translating sample indices in errors back to line numbers.
    private static func recording(
        times: [Double], acceleration: [Vector3], rotation: [Vector3]?, lines: [Int]
    ) throws(InertialInputError) -> InertialRecording {
        do {
            return try InertialRecording(timesSeconds: times, acceleration: acceleration, rotation: rotation)
        } catch {
            throw error.relocated { index in index < lines.count ? .line(lines[index]) : .sample(index) }
        }
    }
}

extension InertialInputError {
    /// The same error with sample indices mapped to another kind of location (a line, for text formats).
    func relocated(_ map: (Int) -> Location) -> InertialInputError {
        switch self {
        case .notFinite(let field, .sample(let index)): .notFinite(field: field, location: map(index))
        case .timeNotIncreasing(.sample(let index), let previous, let seconds):
            .timeNotIncreasing(location: map(index), previousSeconds: previous, seconds: seconds)
        case .empty(source: "recording"): .empty(source: "input")
        default: self
        }
    }
}

/// A CSV file split into a header and rows of raw fields, with 1-based line numbers.
struct CSVTable {
    struct Row {
        let line: Int
        let fields: [Substring]

        func value(_ column: Int, _ name: String) throws(InertialInputError) -> Double {
            let text = fields[column].trimmingSpaces
            guard let value = Double(text) else {
                throw .notANumber(field: name, location: .line(line), text: String(text))
            }
            guard value.isFinite else { throw .notFinite(field: name, location: .line(line)) }
            return value
        }

        func vector(_ columns: (Int, Int, Int), names: (String, String, String)) throws(InertialInputError) -> Vector3 {
            Vector3(
                x: try value(columns.0, names.0), y: try value(columns.1, names.1), z: try value(columns.2, names.2))
        }
    }

    let header: [String]
    let rows: [Row]

    init(_ text: String, source: String) throws(InertialInputError) {
        // Split the UTF-8 bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated().lazy
            .map { (number: $0.offset + 1, text: Substring($0.element.last == UInt8(ascii: "\r") ? $0.element.dropLast() : $0.element)) }
            .filter { !$0.text.allSatisfy { $0 == " " || $0 == "\t" } }
            .makeIterator()
        guard let headerLine = lines.next() else { throw .empty(source: source) }
        let header = headerLine.text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0.trimmingSpaces).lowercased() }
        if let duplicate = header.first(where: { name in header.filter { $0 == name }.count > 1 }) {
            throw .badHeader(detail: "column \"\(duplicate)\" appears twice")
        }
        var rows: [Row] = []
        while let line = lines.next() {
            let fields = line.text.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == header.count else {
                throw .wrongArity(location: .line(line.number), expected: "\(header.count)", found: fields.count)
            }
            rows.append(Row(line: line.number, fields: fields))
        }
        guard !rows.isEmpty else { throw .empty(source: source) }
        self.header = header
        self.rows = rows
    }

    func column(_ name: String) throws(InertialInputError) -> Int {
        guard let index = header.firstIndex(of: name) else {
            throw .badHeader(detail: "missing column \"\(name)\" (expected t,ax,ay,az and optionally gx,gy,gz)")
        }
        return index
    }
}

/// One MetaMotion export file: epochs in seconds and three-axis values.
private struct MetaMotionFile {
    enum Sensor: String { case accelerometer, gyroscope }

    let epochsSeconds: [Double]
    let values: [Vector3]
    let lines: [Int]

    init(_ text: String, expecting sensor: Sensor) throws(InertialInputError) {
        let source = "MetaMotion \(sensor.rawValue) file"
        let table = try CSVTable(text, source: source)
        guard table.header.count >= 6, table.header[0].hasPrefix("epoch") else {
            throw .badHeader(detail: "the \(source) should start with \"epoch (ms),time,elapsed (s),x-axis,…\"")
        }
        let unitIsG = table.header[3].contains("(g)")
        let unitIsDegrees = table.header[3].contains("deg/s")
        guard (sensor == .accelerometer && unitIsG) || (sensor == .gyroscope && unitIsDegrees) else {
            throw .badHeader(
                detail: "the \(source) has column \"\(table.header[3])\"; expected \(sensor == .accelerometer ? "g" : "deg/s")")
        }
        var epochs: [Double] = []
        var values: [Vector3] = []
        epochs.reserveCapacity(table.rows.count)
        values.reserveCapacity(table.rows.count)
        for row in table.rows {
            let epoch = try row.value(0, "epoch") / 1000
            if let previous = epochs.last, epoch <= previous {
                throw .timeNotIncreasing(location: .line(row.line), previousSeconds: previous, seconds: epoch)
            }
            epochs.append(epoch)
            values.append(try row.vector((3, 4, 5), names: ("x-axis", "y-axis", "z-axis")))
        }
        self.epochsSeconds = epochs
        self.values = values
        self.lines = table.rows.map(\.line)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\"" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\"" { text = text.dropLast() }
        return text
    }
}
