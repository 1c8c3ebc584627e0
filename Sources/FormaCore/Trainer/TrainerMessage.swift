/// Where a trainer conversation is: profile set-up → readiness → workout → check-in → next session → finished.
public enum TrainerStep: String, Sendable, Hashable, Codable, CaseIterable {
    case profile, readiness, workout
    case checkIn = "check_in"
    case nextSession = "next_session"
    case finished
}

/// The kind of input a trainer question expects, which decides the control a chat shows.
public enum TrainerInputKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// One of the quick replies (or several, when the message allows it).
    case choice
    /// A number with a unit, typed or picked: `180 cm`, `5'11"`, `76 kg`.
    case numberWithUnit = "number_with_unit"
    /// A local date and time, picked from the proposals or typed ("tomorrow 7am").
    case dateTime = "date_time"
    /// One or more body regions, as a pain map picks them.
    case bodyRegion = "body_region"
}

/// A tappable answer. The chat sends back ``id``; ``label`` is what the person sees.
public struct QuickReply: Sendable, Hashable, Codable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// Who wrote a message of the transcript.
public enum TrainerAuthor: String, Sendable, Hashable, Codable {
    case trainer, person
}

/// One message of the conversation.
///
/// A trainer message that asks something carries its ``question``, the ``expects`` kind of input, the quick replies
/// and, for numbers, the ``unit`` a bare number is read in. A person's message echoes their answer.
public struct TrainerMessage: Sendable, Hashable, Codable {
    public var author: TrainerAuthor
    public var text: String
    public var question: TrainerQuestion?
    public var expects: TrainerInputKind?
    public var quickReplies: [QuickReply]
    /// Whether several quick replies may be sent together (equipment, days, regions).
    public var allowsMultiple: Bool
    /// The unit a bare number is read in (`cm`, `kg`, `years`, `minutes`), for number questions.
    public var unit: String?

    public init(
        author: TrainerAuthor, text: String, question: TrainerQuestion? = nil, expects: TrainerInputKind? = nil,
        quickReplies: [QuickReply] = [], allowsMultiple: Bool = false, unit: String? = nil
    ) {
        self.author = author
        self.text = text
        self.question = question
        self.expects = expects
        self.quickReplies = quickReplies
        self.allowsMultiple = allowsMultiple
        self.unit = unit
    }
}

/// A person's answer to the current question: quick-reply ids, free text, or both empty (which is refused).
///
/// ``clientID`` is chosen by the client once per answer; sending the same answer again with the same id (a retry
/// after a lost response) changes nothing.
public struct TrainerReply: Sendable, Hashable, Codable {
    public var clientID: String
    public var choices: [String]
    public var text: String?
    /// The field of the question the client believes it is answering (``TrainerQuestion/field``). When given and
    /// not the current question's — another tab moved the conversation on — the reply is refused rather than
    /// applied to the wrong question.
    public var field: String?

    public init(clientID: String, choices: [String] = [], text: String? = nil, field: String? = nil) {
        self.clientID = clientID
        self.choices = choices
        self.text = text
        self.field = field
    }

    /// A reply picking one quick reply.
    public static func choice(_ id: String, clientID: String) -> TrainerReply {
        TrainerReply(clientID: clientID, choices: [id])
    }

    /// A reply typed as free text.
    public static func text(_ text: String, clientID: String) -> TrainerReply {
        TrainerReply(clientID: clientID, text: text)
    }
}

/// A reply the conversation cannot take. The conversation is unchanged; the chat shows ``message`` and asks again
/// with ``choices``.
public struct TrainerReplyError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Problem: String, Sendable, Hashable, Codable {
        /// Neither a choice nor text was sent.
        case empty
        /// The text is not an answer to the question.
        case notUnderstood = "not_understood"
        /// A choice id that the question does not offer, or "none" together with other choices.
        case unknownChoice = "unknown_choice"
        /// Understood, but outside what the field allows (age 3, 7 minutes).
        case outOfRange = "out_of_range"
        /// A date and time that is not in the future.
        case inThePast = "in_the_past"
        /// The conversation has ended; nothing more can be answered. HTTP 409 rather than 422.
        case conversationFinished = "conversation_finished"
        /// The reply names a question that is no longer the current one. HTTP 409 rather than 422.
        case staleQuestion = "stale_question"
    }

    /// The field the question fills, for example `age`, `sleepQuality`, `pain.knee`, `scheduledFor`.
    public var field: String
    public var problem: Problem
    /// What is wrong, as a sentence for the person.
    public var message: String
    /// The quick replies to offer when asking again.
    public var choices: [QuickReply]

    public init(field: String, problem: Problem, message: String, choices: [QuickReply] = []) {
        self.field = field
        self.problem = problem
        self.message = message
        self.choices = choices
    }

    public var description: String { "\(field): \(message)" }
}

/// What happened to a reply that was accepted.
public enum TrainerReplyOutcome: Sendable, Hashable {
    /// The conversation moved on.
    case advanced
    /// A reply with this client id was already applied; nothing changed.
    case duplicate
}
