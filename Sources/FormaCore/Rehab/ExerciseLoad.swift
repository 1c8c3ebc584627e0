/// How hard an exercise loads the regions it works, for deciding what a region with mild pain may still do.
///
/// Ordered from gentlest to hardest, so `load <= .low` reads "low-load or mobility".
public enum LoadLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Stretching and foam rolling: the region moves through its range without a load to overcome.
    case mobility
    /// Body weight or an elastic band, in an isolation or isometric (static) exercise of beginner level.
    case low
    /// Everything else: free weights, machines, cables, compound body-weight work, jumps, running, lifting.
    case high

    private var rank: Int {
        switch self {
        case .mobility: 0
        case .low: 1
        case .high: 2
        }
    }

    public static func < (lhs: LoadLevel, rhs: LoadLevel) -> Bool { lhs.rank < rhs.rank }
}

extension Exercise {
    /// The body regions the exercise loads, head to foot (``BodyRegion`` order).
    ///
    /// The regions of the generator's `avoiding` rule (``BodyRegion/isLoaded(by:)``: a region's muscles as primary
    /// muscle, its muscles in a compound exercise, the category, leg impact, words of the name), plus
    /// ``RehabLoadRules/additionalNameWords``: loads that rule misses but that pain must respect. docs/rehab.md
    /// lists the table.
    public var loadedRegions: [BodyRegion] {
        let muscles = allMuscles
        let name = FoldedName(self.name)
        return BodyRegion.allCases.filter {
            $0.isLoaded(by: self, allMuscles: muscles, name: name) || RehabLoadRules.loadsAdditionally($0, name: name)
        }
    }

    /// How hard the exercise loads the regions it works, from its category, equipment, mechanic, force and level.
    ///
    /// - ``LoadLevel/mobility``: the stretching category, or a foam roller.
    /// - ``LoadLevel/low``: the strength category, body weight, an elastic band or an exercise ball, beginner level,
    ///   and either an isolation (single-joint) or a static (isometric) exercise. Isometric and light single-joint
    ///   work is what rehabilitation starts with while a region is irritable (isometrics reduce tendon pain: Rio et
    ///   al., Br. J. Sports Med. 49(19), 2015).
    /// - ``LoadLevel/high``: everything else — external weight (barbells, dumbbells, kettlebells, machines, cables,
    ///   medicine balls), multi-joint body-weight work (push-ups, squats), plyometrics, cardio, Olympic lifting,
    ///   powerlifting and strongman.
    public var loadLevel: LoadLevel {
        if category == .stretching || equipment == .foamRoll { return .mobility }
        let gentleEquipment: Set<Equipment> = [.bodyOnly, .bands, .exerciseBall]
        let equipmentIsGentle = equipment.map(gentleEquipment.contains) ?? true
        guard category == .strength, equipmentIsGentle, level == .beginner else { return .high }
        return mechanic == .isolation || force == .static ? .low : .high
    }
}

/// Loads pain-aware selection adds to the generator's `avoiding` rule.
///
/// The eight regions the generator had before the body map keep their rules unchanged, because those rules decide
/// the workouts of stored plans and a change would alter them; what they miss is added here, for pain only.
public enum RehabLoadRules {
    /// Name words (matched at word starts on folded names, as ``RegionExclusion/nameWords``) that load a region
    /// beyond the generator's rule: a plank or a side bridge holds the body on the shoulders and braces the lower
    /// back; bird dogs and bridges load the lower back.
    public static let additionalNameWords: [BodyRegion: [String]] = [
        .shoulder: ["plank", "side bridge"],
        .lowerBack: ["plank", "side bridge", "bird dog", "bridge"],
    ]

    private static let additionalBytes: [BodyRegion: [[UInt8]]] = additionalNameWords.mapValues { words in
        words.map { Array($0.utf8) }
    }

    static func loadsAdditionally(_ region: BodyRegion, name: FoldedName) -> Bool {
        additionalBytes[region]?.contains(where: name.hasWord(startingWith:)) ?? false
    }
}
