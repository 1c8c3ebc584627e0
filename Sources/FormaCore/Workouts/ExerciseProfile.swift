/// The broad movement a muscle group serves, used to balance workouts whose focus is a category.
///
/// Neck and traps count as pulling (upper back); lower back and abdominals as core.
public enum MovementPattern: String, Sendable, Hashable, Codable, CaseIterable {
    case push, pull, legs, core

    public init(_ muscle: Muscle) {
        switch muscle {
        case .chest, .shoulders, .triceps: self = .push
        case .lats, .middleBack, .biceps, .forearms, .traps, .neck: self = .pull
        case .quadriceps, .hamstrings, .glutes, .calves, .adductors, .abductors: self = .legs
        case .abdominals, .lowerBack: self = .core
        }
    }
}

extension Exercise {
    /// Whether the exercise needs no equipment: the source says "body only", or records no equipment at all.
    ///
    /// The 77 exercises without equipment are 62 stretches and 15 body-weight drills (lunges, mountain climbers,
    /// sprint drills); like the source's own "body only" exercises (pull-ups, bench dips), a few use a wall, a bar
    /// or a partner, which Forma does not count as equipment.
    public var isBodyWeight: Bool { equipment == nil || equipment == .bodyOnly }

    /// The movement pattern of the exercise's first primary muscle.
    public var movementPattern: MovementPattern? { primaryMuscles.first.map(MovementPattern.init) }
}

/// What the generator needs to know about one catalogue exercise, computed once per catalogue so that each request
/// costs only bit tests and additions.
///
/// Plain data without references, so that scanning all profiles copies no strings or arrays.
struct ExerciseProfile: Sendable {
    let kind: ExerciseKind
    /// Bit `1 << index` of the equipment in `Equipment.allCases`; 0 for body-weight exercises.
    let equipmentBit: UInt16
    let categoryBit: UInt8
    let isStretch: Bool
    let primaryMuscleBits: UInt32
    let muscleBits: UInt32
    /// Bits of the `BodyRegion.allCases` the exercise loads, by the generator's `avoiding` rule.
    let regionBits: UInt16
    /// Bits of the regions pain must respect (``Exercise/loadedRegions``): ``regionBits`` plus
    /// ``RehabLoadRules/additionalNameWords``.
    let painRegionBits: UInt16
    /// How hard the exercise loads those regions (``Exercise/loadLevel``).
    let load: LoadLevel
    let level: Level
    let pattern: MovementPattern
    /// Whether a stretch moves (a drill such as arm circles) rather than holds, which suits warming up.
    let isDynamic: Bool
    /// Position in a main block: power and plyometric compounds, other compounds, isolation, then the rest.
    let orderRank: Int
    /// Main-block prescriptions at each level.
    let beginner: Prescription
    let intermediate: Prescription
    let expert: Prescription

    init(_ exercise: Exercise) {
        let kind = ExerciseKind(exercise)
        self.kind = kind
        equipmentBit = exercise.isBodyWeight ? 0 : exercise.equipment.map(Self.bit) ?? 0
        categoryBit = UInt8(truncatingIfNeeded: Self.bit(exercise.category))
        isStretch = exercise.category == .stretching
        primaryMuscleBits = exercise.primaryMuscles.reduce(0) { $0 | Self.muscleBit($1) }
        muscleBits = exercise.allMuscles.reduce(0) { $0 | Self.muscleBit($1) }
        let foldedName = FoldedName(exercise.name)
        let allMuscles = exercise.allMuscles
        regionBits = BodyRegion.allCases.reduce(0) { bits, region in
            region.isLoaded(by: exercise, allMuscles: allMuscles, name: foldedName)
                ? bits | Self.regionBit(region) : bits
        }
        painRegionBits = BodyRegion.allCases.reduce(regionBits) { bits, region in
            RehabLoadRules.loadsAdditionally(region, name: foldedName) ? bits | Self.regionBit(region) : bits
        }
        load = exercise.loadLevel
        level = exercise.level
        pattern = exercise.movementPattern ?? .core
        isDynamic = exercise.force != .static
        switch exercise.mechanic {
        case .compound: orderRank = kind == .power || kind == .plyometric ? 0 : 1
        case .isolation: orderRank = 2
        case nil: orderRank = 3
        }
        beginner = Prescription.main(kind: kind, mechanic: exercise.mechanic, level: .beginner)
        intermediate = Prescription.main(kind: kind, mechanic: exercise.mechanic, level: .intermediate)
        expert = Prescription.main(kind: kind, mechanic: exercise.mechanic, level: .expert)
    }

    func prescription(at level: Level) -> Prescription {
        switch level {
        case .beginner: beginner
        case .intermediate: intermediate
        case .expert: expert
        }
    }

    static func bit<Value: CaseIterable & Equatable>(_ value: Value) -> UInt16 {
        let all = Value.allCases
        let index = all.firstIndex(of: value).map { all.distance(from: all.startIndex, to: $0) } ?? 0
        return 1 << UInt16(index)
    }

    static func muscleBit(_ muscle: Muscle) -> UInt32 {
        UInt32(1) << UInt32(Muscle.allCases.firstIndex(of: muscle) ?? 0)
    }

    static func regionBit(_ region: BodyRegion) -> UInt16 {
        UInt16(1) << UInt16(BodyRegion.allCases.firstIndex(of: region) ?? 0)
    }

    /// The regions of ``painRegionBits``.
    var painRegions: Set<BodyRegion> {
        Set(BodyRegion.allCases.filter { painRegionBits & Self.regionBit($0) != 0 })
    }
}

/// An exercise name folded by ``SearchText/fold(_:)``, searchable for words that start a word of the name.
struct FoldedName {
    /// `" " + folded name`, as bytes.
    let bytes: [UInt8]

    init(_ name: String) {
        bytes = Array(" ".utf8) + (Self.foldASCII(name) ?? Array(SearchText.fold(name).utf8))
    }

    /// ``SearchText/fold(_:)`` for ASCII text, without Foundation's Unicode folding; `nil` for other text.
    ///
    /// Lowercases letters and turns each run of other characters into one space, trimmed at both ends — what
    /// `fold` does to ASCII (a test checks the two agree on every catalogue name).
    static func foldASCII(_ text: String) -> [UInt8]? {
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if isLetter || isDigit {
                if pendingSpace && !folded.isEmpty { folded.append(UInt8(ascii: " ")) }
                pendingSpace = false
                folded.append(isLetter ? byte | 0x20 : byte)
            } else {
                pendingSpace = true
            }
        }
        return folded
    }

    /// Whether a word of the name starts with `prefix`, UTF-8 bytes that may span words, as in `pull up`.
    func hasWord(startingWith prefix: [UInt8]) -> Bool {
        guard !prefix.isEmpty, prefix.count < bytes.count else { return false }
        for start in 0..<(bytes.count - prefix.count) where bytes[start] == UInt8(ascii: " ") {
            if bytes[(start + 1)...].starts(with: prefix) { return true }
        }
        return false
    }

    /// Whether a word of the name starts with `prefix`.
    func hasWord(startingWith prefix: String) -> Bool {
        hasWord(startingWith: Array(prefix.utf8))
    }
}
