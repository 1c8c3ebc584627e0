import Foundation
import Testing
@testable import FormaMotion

@Suite struct InertialParserTests {
    private func csv(_ rows: [String], header: String = "t,ax,ay,az") -> String {
        ([header] + rows).joined(separator: "\n")
    }

    private func steadyRows(count: Int, rate: Double = 50) -> [String] {
        (0..<count).map { "\(Double($0) / rate),0.01,0.98,-0.1" }
    }

    private func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func csv_readsAccelerationAndOptionalGyroscope() throws {
        // setup
        let rows = (0..<150).map { "\(Double($0) / 50),0.1,0.9,-0.2,10,-5,2.5" }
        // act
        let recording = try InertialCSVParser.parse(csv(rows, header: "t,ax,ay,az,gx,gy,gz"))
        let withoutGyro = try InertialCSVParser.parse(csv(steadyRows(count: 150)))
        // verify
        #expect(recording.count == 150)
        #expect(abs(recording.sampleRateHertz - 50) < 1e-9)
        #expect(recording.acceleration[3] == Vector3(x: 0.1, y: 0.9, z: -0.2))
        #expect(recording.rotation?[3] == Vector3(x: 10, y: -5, z: 2.5))
        #expect(withoutGyro.rotation == nil)
    }

    @Test func csv_acceptsColumnsInAnyOrderAndWindowsLineEnds() throws {
        // setup
        let text = (["az,t,ay,ax"] + (0..<150).map { "-0.2,\(Double($0) / 25),0.9,0.1" }).joined(separator: "\r\n") + "\r\n"
        // act
        let recording = try InertialCSVParser.parse(text)
        // verify
        #expect(recording.acceleration[0] == Vector3(x: 0.1, y: 0.9, z: -0.2))
        #expect(abs(recording.sampleRateHertz - 25) < 1e-9)
    }

    @Test func csv_rejectsBadInputNamingTheLine() {
        // setup
        var nan = steadyRows(count: 150)
        nan[1] = "0.02,NaN,0.98,-0.1"
        var infinite = steadyRows(count: 150)
        infinite[4] = "0.08,0.1,inf,0"
        var short = steadyRows(count: 150)
        short[2] = "0.04,0.1,0.9"
        var backwards = steadyRows(count: 150)
        backwards[9] = "0.1,0,1,0"
        var text = steadyRows(count: 150)
        text[5] = "0.1,zero,1,0"
        // act / verify
        #expect(message { _ = try InertialCSVParser.parse(csv(nan)) } == "Line 3: ax is NaN or infinite.")
        #expect(message { _ = try InertialCSVParser.parse(csv(infinite)) } == "Line 6: ay is NaN or infinite.")
        #expect(message { _ = try InertialCSVParser.parse(csv(short)) } == "Line 4: expected 4 values, found 3.")
        #expect(message { _ = try InertialCSVParser.parse(csv(text)) } == "Line 7: ax is not a number: \"zero\".")
        #expect(message { _ = try InertialCSVParser.parse(csv(backwards)) }.hasPrefix("Line 11: time 0.1 s does not increase"))
        #expect(message { _ = try InertialCSVParser.parse("") } == "The CSV has no samples.")
        #expect(message { _ = try InertialCSVParser.parse("t,ax,ay,az\n\n") } == "The CSV has no samples.")
        #expect(message { _ = try InertialCSVParser.parse(csv(steadyRows(count: 50), header: "t,ax,ay,accz")) }
            .contains("missing column \"az\""))
        #expect(message { _ = try InertialCSVParser.parse(csv(steadyRows(count: 50).map { $0 + ",1" }, header: "t,ax,ay,az,gx")) }
            .contains("needs gx, gy and gz"))
    }

    @Test func csv_rejectsAbsurdRatesAndShortRecordings() {
        // setup: milliseconds written where seconds belong make a 0.05 Hz recording; 10 kHz is beyond any wristband.
        let milliseconds = (0..<150).map { "\($0 * 20),0,1,0" }
        let tooFast = (0..<30000).map { "\(Double($0) / 10000),0,1,0" }
        // act / verify
        #expect(message { _ = try InertialCSVParser.parse(csv(milliseconds)) }.hasPrefix("Sample rate 0.05 Hz is outside"))
        #expect(message { _ = try InertialCSVParser.parse(csv(tooFast)) }.hasPrefix("Sample rate 10000"))
        #expect(message { _ = try InertialCSVParser.parse(csv(steadyRows(count: 40))) }
            == "The recording lasts 0.78 s; at least 2.0 s is needed to find repetitions.")
    }

    @Test func json_readsConstantRateAndRejectsBadTriples() throws {
        // setup
        let triples = (0..<120).map { _ in "[0.0,1.0,0.0]" }.joined(separator: ",")
        let good = #"{"sampleRate": 50, "accel": [\#(triples)], "gyro": [\#(triples)], "device": "x"}"#
        let badArity = #"{"sampleRate": 50, "accel": [[0,1,0],[0,1],[0,1,0]]}"#
        let missingRate = #"{"accel": [\#(triples)]}"#
        let badRate = #"{"sampleRate": 0, "accel": [\#(triples)]}"#
        let notNumber = #"{"sampleRate": 50, "accel": [[0,1,0],[0,"a",0]]}"#
        // act
        let recording = try InertialJSONParser.parse(Array(good.utf8))
        // verify
        #expect(recording.count == 120 && recording.hasRotation)
        #expect(abs(recording.durationSeconds - 119.0 / 50) < 1e-9)
        #expect(message { _ = try InertialJSONParser.parse(Array(badArity.utf8)) } == "Accel[1]: expected 3 values, found 2.")
        #expect(message { _ = try InertialJSONParser.parse(Array(missingRate.utf8)) }.contains("needs \"sampleRate\""))
        #expect(message { _ = try InertialJSONParser.parse(Array(badRate.utf8)) }.hasPrefix("Sample rate 0.0 Hz is outside"))
        #expect(message { _ = try InertialJSONParser.parse(Array(notNumber.utf8)) }.contains("accel[1][1]"))
        #expect(message { _ = try InertialJSONParser.parse(Array("  ".utf8)) } == "The JSON has no samples.")
        #expect(message { _ = try InertialJSONParser.parse(Array("{\"sampleRate\": 5".utf8)) }.hasPrefix("Invalid inertial JSON"))
    }

    @Test func metaMotion_joinsGyroscopeOnEpochAtItsOwnRate() throws {
        // setup: accelerometer at 12.5 Hz, gyroscope at 25 Hz starting 40 ms earlier, gyro x = epoch offset in ms.
        let accel = ["epoch (ms),time (01:00),elapsed (s),x-axis (g),y-axis (g),z-axis (g)"]
            + (0..<40).map { "\(1_000_040 + $0 * 80),2019-01-11T16:10:08.431,\(Double($0) * 0.08),0.01,0.96,-0.08" }
        let gyro = ["epoch (ms),time (01:00),elapsed (s),x-axis (deg/s),y-axis (deg/s),z-axis (deg/s)"]
            + (0..<82).map { "\(1_000_000 + $0 * 40),2019-01-11T16:10:08.351,\(Double($0) * 0.04),\($0 * 40),0,0" }
        // act
        let recording = try InertialCSVParser.metaMotion(
            accelerometer: accel.joined(separator: "\n"), gyroscope: gyro.joined(separator: "\n"))
        // verify: accel sample k is at gyro time 40 + 80k ms, where the gyro's x equals 40 + 80k.
        #expect(recording.count == 40)
        #expect(abs(recording.sampleRateHertz - 12.5) < 1e-6)
        #expect(abs((recording.rotation?[10].x ?? 0) - 840) < 1e-6)
        #expect(message { _ = try InertialCSVParser.metaMotion(accelerometer: gyro.joined(separator: "\n")) }
            .contains("expected g"))
    }

    @Test func decode_guessesTheFormatFromContent() throws {
        // setup
        let forma = csv(steadyRows(count: 150))
        let json = #"{"sampleRate": 25, "accel": [\#((0..<60).map { _ in "[0,1,0]" }.joined(separator: ","))]}"#
        // act / verify
        #expect(InertialFormat.guess(bytes: Array(forma.utf8)) == .csv)
        #expect(InertialFormat.guess(bytes: Array(json.utf8), fileName: "x.csv") == .json)
        #expect(InertialFormat.guess(bytes: Array("epoch (ms),time".utf8)) == .metaMotion)
        #expect(InertialFormat.guess(bytes: Array("hello".utf8)) == nil)
        #expect(try InertialRecording.decode(bytes: Array(json.utf8)).count == 60)
        #expect(message { _ = try InertialRecording.decode(bytes: Array("hello".utf8)) }.hasPrefix("Unrecognised inertial format"))
    }
}
