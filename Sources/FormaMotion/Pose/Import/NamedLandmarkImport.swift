import Foundation

/// Reads pose files that name each landmark, as the KERAAL dataset's BlazePose files do:
/// `{"positions": {"1.0": {"Nose": [x, y, z], "Left_shoulder": [...], ...}, "2.0": {...}}}`.
///
/// Frames are ordered by their numeric key and placed at `(key − first key) / framesPerSecond`; names are matched to
/// `PoseLandmark` ignoring case; landmarks a frame does not name are missing. KERAAL: Nguyen et al., "A Medical
/// Low-Back Pain Physical Rehabilitation Dataset for Human Body Movement Analysis", IJCNN 2024.
public enum NamedLandmarkImport {
    public static func recording(
        from data: Data, framesPerSecond: Double = 30
    ) throws(PoseRecordingError) -> PoseRecording {
        let file: [String: [String: [String: [Double]]]]
        do {
            file = try JSONDecoder().decode([String: [String: [String: [Double]]]].self, from: data)
        } catch {
            throw .malformedJSON(path: "", detail: "expected {\"positions\": {\"<frame>\": {\"<landmark>\": [x, y, z]}}}")
        }
        guard let positions = file["positions"] else { throw .missingKey("positions") }
        let keyed = positions.compactMap { key, value in Double(key).map { ($0, value) } }.sorted { $0.0 < $1.0 }
        guard let firstKey = keyed.first?.0 else { throw .empty }
        var frames: [PoseFrame] = []
        for (index, (key, named)) in keyed.enumerated() {
            var landmarks = [Landmark](repeating: .missing, count: PoseLandmark.count)
            for (name, values) in named {
                guard let landmark = PoseLandmark(name: name) else { continue }
                guard values.count == 3 || values.count == 4 else {
                    throw .wrongLandmarkArity(frame: index, landmark: landmark.rawValue, found: values.count)
                }
                guard values.allSatisfy(\.isFinite) else {
                    throw .nonFiniteValue(frame: index, landmark: landmark.rawValue, component: "x, y or z")
                }
                landmarks[landmark.rawValue] = Landmark(
                    x: values[0], y: values[1], z: values[2], visibility: values.count == 4 ? values[3] : 1)
            }
            frames.append(PoseFrame(timeSeconds: (key - firstKey) / framesPerSecond, landmarks: landmarks))
        }
        return PoseRecording(framesPerSecond: framesPerSecond, frames: frames)
    }
}
