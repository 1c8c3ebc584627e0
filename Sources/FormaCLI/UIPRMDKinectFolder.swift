import ArgumentParser
import FormaMotion
import FormaMotionLab
import Foundation

/// The `kinect` part of a UI-PRMD folder: `{correct,incorrect}/{positions,angles}/` with one file per repetition.
struct UIPRMDKinectFolder {
    /// The folder holding `correct/` and `incorrect/`.
    let root: URL

    /// Finds the Kinect data under `directory` (the data set folder or its `kinect` subfolder).
    init(directory: String) throws {
        let base = URL(fileURLWithPath: directory)
        let manager = FileManager.default
        let candidates = [base.appendingPathComponent("kinect"), base]
        guard let root = candidates.first(where: {
            manager.fileExists(atPath: $0.appendingPathComponent("correct/positions").path)
        }) else {
            throw ValidationError("\(directory): no kinect/correct/positions folder; pass the UI-PRMD data folder, "
                + "for example ../shared/data/ui-prmd")
        }
        self.root = root
    }

    /// Every positions file, correct and incorrect, sorted by name.
    func positionFiles() throws -> [UIPRMDFileName] {
        var files: [UIPRMDFileName] = []
        for label in ["correct", "incorrect"] {
            let folder = root.appendingPathComponent("\(label)/positions")
            guard FileManager.default.fileExists(atPath: folder.path) else {
                throw ValidationError("\(folder.path): folder missing")
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            files += names.compactMap(UIPRMDFileName.init).filter { $0.kind == .positions }
        }
        return files.sorted { $0.name < $1.name }
    }

    /// The absolute skeleton of one repetition, from its positions file and the matching angles file.
    func skeleton(_ positions: UIPRMDFileName) throws -> SkeletonSequence {
        let positionTable = try table(positions)
        var angles = positions
        angles.kind = .angles
        let angleTable = try table(angles)
        do {
            return try UIPRMDForwardKinematics.skeleton(positions: positionTable, angles: angleTable)
        } catch {
            throw ValidationError("\(positions.name): \(error)")
        }
    }

    private func table(_ file: UIPRMDFileName) throws -> UIPRMDTable {
        let url = root.appendingPathComponent("\(file.isCorrect ? "correct" : "incorrect")/\(file.kind.rawValue)")
            .appendingPathComponent(file.name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ValidationError("\(url.path): cannot read the file (missing or unreadable)")
        }
        do {
            let bytes = file.isCompressed ? try GzipInflater.decompress([UInt8](data)) : [UInt8](data)
            return try UIPRMDTextReader.parse(utf8: bytes, source: file.name)
        } catch {
            throw ValidationError("\(url.path): \(error)")
        }
    }
}
