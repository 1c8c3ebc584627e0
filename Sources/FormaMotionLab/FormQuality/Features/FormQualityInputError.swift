import FormaMotion

/// Input that form-quality analysis cannot judge, with what the caller must fix.
public enum FormQualityInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The repetition has no frames.
    case emptyRepetition
    /// The frame rate is zero, negative, NaN or infinite.
    case invalidFrameRate(Double)
    /// A joint position is NaN or infinite.
    case nonFinitePosition(frame: Int, joint: AnatomicalJoint)
    /// A feature vector does not have one value per `FormFeature.all` entry.
    case wrongFeatureCount(found: Int, expected: Int)
    /// A feature value is NaN or infinite.
    case nonFiniteFeature(FormFeature)
    /// A personalised model was asked to judge a repetition without any reference repetition.
    case missingReference(movement: RehabMovement)

    public var description: String {
        switch self {
        case .emptyRepetition:
            return "the repetition has no frames"
        case .invalidFrameRate(let rate):
            return "the frame rate \(rate) is not a positive finite number of frames per second"
        case .nonFinitePosition(let frame, let joint):
            return "frame \(frame): the position of \(joint) is NaN or infinite"
        case .wrongFeatureCount(let found, let expected):
            return "\(found) feature values, expected \(expected) (one per FormFeature.all entry)"
        case .nonFiniteFeature(let feature):
            return "feature \(feature.identifier) is NaN or infinite"
        case .missingReference(let movement):
            return "the personalised \(movement.title) model needs at least one correct reference repetition"
        }
    }
}
