import Foundation
import Testing

@testable import FormaCore

@Suite("Catalogue data")
struct CatalogueModelTests {
    @Test func bundledCatalogueHasEveryExerciseOfTheSource() throws {
        // act
        let catalogue = try ExerciseCatalog.bundled()

        // verify
        #expect(catalogue.count == 873)
        #expect(catalogue["Barbell_Squat"]?.name == "Barbell Squat")
        #expect(catalogue.exercises.allSatisfy { $0.primaryMuscles.count == 1 })
        #expect(catalogue.exercises.filter { $0.instructions.isEmpty }.count == 5)
        #expect(catalogue.exercises.filter { $0.equipment == nil }.count == 77)
    }

    @Test func invalidRecordsAreNamed() {
        let json = #"[{"id": "x", "name": "X", "force": null, "level": "godlike", "mechanic": null, "equipment": null,"#
            + #" "primaryMuscles": [], "secondaryMuscles": [], "instructions": [], "category": "strength"}]"#
        #expect {
            try ExerciseCatalog(jsonData: Data(json.utf8))
        } throws: { error in
            (error as? CatalogError)?.description.contains("[0].level") == true
        }
    }

    @Test func duplicateIdentifiersAreRefused() throws {
        let exercise = try #require(try ExerciseCatalog.bundled().exercises.first)
        #expect(throws: CatalogError.duplicateIdentifier(exercise.id)) {
            try ExerciseCatalog(exercises: [exercise, exercise])
        }
    }

    @Test(arguments: [
        ("Crème Brûlée-Press", "creme brulee press"),
        ("  3/4 Sit-Up ", "3 4 sit up"),
        ("SQUAT", "squat"),
        ("Farmer's Walk", "farmer s walk"),
    ])
    func searchFoldingIgnoresCaseAccentsAndPunctuation(_ raw: String, _ folded: String) {
        #expect(SearchText.fold(raw) == folded)
    }
}

@Suite("Image probe")
struct ImageProbeTests {
    /// A valid 3×2 8-bit greyscale PNG: signature, IHDR, one IDAT (zlib of two black rows), IEND, real CRCs.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x00, 0x00, 0x00, 0x00, 0xB8, 0x1F, 0x39, 0xC6, 0x00, 0x00, 0x00,
        0x0B, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x80, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0xB7, 0x58,
        0x73, 0x95, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// The JPEG of ``readsJPEGFrameHeaderAfterOtherSegments()``: SOI, APP0, SOF0 (640×480), SOS, scan, EOI.
    static let jpeg: [UInt8] = {
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        jpeg += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x01, 0x01, 0x11, 0x00]
        jpeg += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]
        return jpeg
    }()

    @Test func readsPNGSize() throws {
        let probe = try ImageProbe.inspect(Self.png)
        #expect(probe == ImageProbe(format: .png, width: 3, height: 2))
    }

    @Test func readsJPEGFrameHeaderAfterOtherSegments() throws {
        // SOI, APP0 (JFIF, 16 bytes), SOF0 (height 480, width 640, 1 component), SOS, 2 bytes of scan, EOI
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        jpeg += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x01, 0x01, 0x11, 0x00]
        jpeg += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]
        #expect(try ImageProbe.inspect(jpeg) == ImageProbe(format: .jpeg, width: 640, height: 480))
        // a phone camera's trailer after EOI is tolerated
        #expect(try ImageProbe.inspect(jpeg + Array("SEFT trailer".utf8)).width == 640)
        // a scan that never ends is not
        #expect(throws: ImageProbe.Failure.truncated(.jpeg)) { try ImageProbe.inspect(jpeg.dropLast(2)) }
    }

    @Test func refusesOtherFormatsAndDamage() {
        #expect(throws: ImageProbe.Failure.empty) { try ImageProbe.inspect([UInt8]()) }
        #expect(throws: ImageProbe.Failure.unrecognised) { try ImageProbe.inspect(Array("GIF89a......".utf8)) }
        #expect(throws: ImageProbe.Failure.truncated(.png)) { try ImageProbe.inspect(Self.png.dropLast(4)) }
        var zeroWidth = Self.png
        zeroWidth[19] = 0
        #expect(throws: ImageProbe.Failure.malformed(.png, "the width or height is zero")) { try ImageProbe.inspect(zeroWidth) }
    }

    @Test func refusesAPNGWithABadCRC() {
        // setup: one bit of the pixel data flipped, the CRC left as it was
        var damaged = Self.png
        damaged[45] ^= 0x01

        // act and verify
        #expect(throws: ImageProbe.Failure.malformed(.png, "the CRC of chunk IDAT is wrong")) {
            try ImageProbe.inspect(damaged)
        }
    }

    @Test func refusesAPNGWithAnImpossibleHeader() {
        // setup: colour type 2 (RGB) does not allow a bit depth of 3; colour type 5 does not exist
        var depth = Self.png
        depth[24] = 3
        depth[25] = 2
        var colour = Self.png
        colour[25] = 5
        var huge = Self.png
        huge[16] = 0x80

        // act and verify
        #expect(throws: ImageProbe.Failure.malformed(.png, "bit depth 3 is not allowed with colour type 2")) {
            try ImageProbe.inspect(depth)
        }
        #expect(throws: ImageProbe.Failure.malformed(.png, "colour type 5 does not exist")) {
            try ImageProbe.inspect(colour)
        }
        #expect(throws: ImageProbe.Failure.malformed(.png, "the width or height is above 2^31 - 1")) {
            try ImageProbe.inspect(huge)
        }
    }

    @Test func refusesAJPEGWithoutAScan() {
        // setup: SOI, APP0, SOF0, then EOI with no SOS between
        let noScan = Array(Self.jpeg.prefix(33)) + [0xFF, 0xD9]
        let cutAfterFrame = Array(Self.jpeg.prefix(33))

        // act and verify
        #expect(throws: ImageProbe.Failure.malformed(.jpeg, "there is no image scan (SOS)")) {
            try ImageProbe.inspect(noScan)
        }
        #expect(throws: ImageProbe.Failure.self) { try ImageProbe.inspect(cutAfterFrame) }
    }
}
