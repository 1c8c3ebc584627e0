import FormaMotion
import Foundation

// The program Benchmarks/inertial-instructions.py runs under callgrind (see that script for the method):
//
//     InertialInstructions file SET.csv [ANALYSES]   analyse one recording ANALYSES times (1 or more, default 1)
//     InertialInstructions bench RATE [ANALYSES]     the same on `InertialBenchmark.workload` at RATE Hz
//     InertialInstructions dump DATA                 every SPAR set in DATA/spar/sets (none when absent) and the
//                                                    benchmark at the four rates, each with and without its
//                                                    gyroscope, as bit patterns
//
// Each analysis is one call of `measuredAnalysis`, the only function callgrind's `--toggle-collect` matches, so
// what it counts is exactly `InertialAnalyzer().analyze(recording)`, a fresh analyser per call as an app makes one.

/// One analysis, kept out of line so that callgrind can count it alone.
@inline(never)
func measuredAnalysis(_ recording: InertialRecording) -> InertialAnalysis {
    InertialAnalyzer().analyze(recording)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("InertialInstructions: " + message + "\n").utf8))
    exit(2)
}

func recording(file path: String) -> InertialRecording {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        fail("cannot read \(path) as UTF-8 text")
    }
    do {
        return try InertialCSVParser.parse(text)
    } catch {
        fail("\(path): \(error)")
    }
}

func workload(rate text: String) -> InertialRecording {
    guard let rate = Double(text), InertialRecording.supportedRatesHertz.contains(rate) else {
        fail("the rate '\(text)' is not a number of hertz in \(InertialRecording.supportedRatesHertz)")
    }
    do {
        return try InertialBenchmark.workload(sampleRateHertz: rate)
    } catch {
        fail("the benchmark workload at \(rate) Hz: \(error)")
    }
}

func analyses(_ arguments: ArraySlice<String>) -> Int {
    guard let text = arguments.first else { return 1 }
    guard let count = Int(text), count >= 1 else { fail("ANALYSES must be a whole number of at least 1, not '\(text)'") }
    return count
}

/// Runs the analyses and prints the recording's samples and the last result's count (so that the work is used).
func measure(_ recording: InertialRecording, times: Int) {
    var count = 0
    for _ in 0..<times { count = measuredAnalysis(recording).repetitionCount }
    print("samples \(recording.timesSeconds.count) repetitions \(count)")
}

/// A value as its IEEE bit pattern (hex), so that two dumps are equal exactly when every value is.
func bits(_ value: Double?) -> String {
    value.map { String($0.bitPattern, radix: 16) } ?? "nil"
}

func dumpLine(_ name: String, _ recording: InertialRecording) -> String {
    let analysis = InertialAnalyzer().analyze(recording)
    let repetitions = analysis.repetitions.map { "\(bits($0.startSeconds)),\(bits($0.endSeconds)),\(bits($0.peakSeconds))" }
    let bouts = analysis.bouts.map { "\(bits($0.startSeconds)),\(bits($0.endSeconds))" }
    return "\(name) count \(analysis.repetitionCount) period \(bits(analysis.estimatedPeriodSeconds))"
        + " rotation \(analysis.usedRotation) reps [\(repetitions.joined(separator: " "))]"
        + " bouts [\(bouts.joined(separator: " "))]"
}

func withoutGyroscope(_ recording: InertialRecording) -> InertialRecording? {
    guard recording.rotation != nil else { return nil }
    return try? InertialRecording(timesSeconds: recording.timesSeconds, acceleration: recording.acceleration)
}

func dump(data: String) {
    let folder = (data as NSString).appendingPathComponent("spar/sets")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    if names.isEmpty {
        FileHandle.standardError.write(Data("InertialInstructions: no SPAR sets in \(folder) (the data directory is absent); dumping the benchmark only\n".utf8))
    }
    for name in names.filter({ $0.hasSuffix(".csv") }).sorted() {
        let full = recording(file: (folder as NSString).appendingPathComponent(name))
        print(dumpLine("\(name) gyroscope", full))
        if let accelerationOnly = withoutGyroscope(full) { print(dumpLine("\(name) accelerometer", accelerationOnly)) }
    }
    for rate in ["12.5", "25", "50", "100"] {
        let full = workload(rate: rate)
        print(dumpLine("benchmark \(rate) Hz gyroscope", full))
        if let accelerationOnly = withoutGyroscope(full) { print(dumpLine("benchmark \(rate) Hz accelerometer", accelerationOnly)) }
    }
}

let arguments = CommandLine.arguments.dropFirst()
switch (arguments.first, arguments.dropFirst().first) {
case ("file", let path?): measure(recording(file: path), times: analyses(arguments.dropFirst(2)))
case ("bench", let rate?): measure(workload(rate: rate), times: analyses(arguments.dropFirst(2)))
case ("dump", let data?): dump(data: data)
default: fail("usage: InertialInstructions file SET.csv [ANALYSES] | bench RATE [ANALYSES] | dump DATA")
}
