import Foundation

/// What a conversation turn may read besides its state: the clock, the catalogue the workout comes from, and the
/// person's current pain from their pain log.
public struct TrainerEnvironment: Sendable {
    public var now: Date
    public var catalog: ExerciseCatalog
    public var generator: WorkoutGenerator
    /// The pain log's current state (``PainState``) at ``now``. When the workout is planned it is combined with the
    /// pain reported in the readiness step, the higher level winning per region (docs/trainer.md, "Pain").
    public var pain: PainState

    public init(now: Date, catalog: ExerciseCatalog, generator: WorkoutGenerator, pain: PainState? = nil) {
        self.now = now
        self.catalog = catalog
        self.generator = generator
        self.pain = pain ?? PainState(reports: [], now: now)
    }
}

/// The trainer's guided chat as a pure state machine: profile → readiness → workout → check-in → next session.
///
/// Each trainer message carries its question, quick replies and the input it expects. ``reply(_:environment:)``
/// answers the current question: an accepted reply appends the person's message and the trainer's next one; a reply
/// whose client id was already applied changes nothing; a reply that does not fit throws ``TrainerReplyError``
/// naming the field and leaves the conversation exactly as it was. Given the same start, answers, clock readings and
/// seed, two conversations are equal. The value is `Codable`, so a server can store it and resume it after a reload.
public struct TrainerConversation: Sendable, Hashable, Codable {
    public internal(set) var step: TrainerStep
    /// What the trainer knows; answers to profile questions are saved here for the host to store.
    public internal(set) var profile: TrainerProfile
    /// The transcript, oldest first.
    public internal(set) var messages: [TrainerMessage]
    /// Questions still to ask in this step; the first is the one being asked.
    var pending: [TrainerQuestion]
    /// The IANA time zone of the person's local times.
    public let timeZoneIdentifier: String
    /// Seed of every random choice of the conversation (today, the workout's seed).
    public let seed: UInt64
    /// Earlier sessions' check-ins, which the readiness check reads.
    public let history: [SessionCheckIn]

    var hooper: [Int?] = [nil, nil, nil, nil]
    var painToday: [PainRating] = []
    public internal(set) var decision: ReadinessDecision?
    /// Today's workout, once readiness allows one; `nil` on a rest day.
    public internal(set) var workout: Workout?
    /// How pain shaped today's workout (the restrictions and the exercises they left out); `nil` when nothing hurt.
    public internal(set) var workoutPain: WorkoutPainSection?
    var workoutEndedAt: Date?
    var minutesTrained: Int?
    var sessionRPE: Int?
    var feeling: SessionFeeling?
    var painAfter: [PainRating] = []
    /// The check-in of today's session, once complete: store it with the run and pass it in the next history.
    public internal(set) var checkIn: SessionCheckIn?
    /// The date-times offered for the next session.
    public internal(set) var proposals: [LocalDateTime] = []
    /// The next session the person picked; `nil` while not chosen, and after skipping.
    public internal(set) var scheduledFor: LocalDateTime?
    var appliedClientIDs: [String] = []

    /// The question being asked, or `nil` once the conversation has finished.
    public var currentQuestion: TrainerQuestion? { pending.first }

    /// Whether an answer to the current question may plan today's workout: it is the readiness step's last question
    /// pending (an answer naming painful regions adds questions, and then it does not). Only such an answer reads the
    /// pain log, so a server reads the log for this reply alone.
    public var nextAnswerMayPlanTheWorkout: Bool { step == .readiness && pending.count == 1 }

    /// Whether the conversation has ended; it then refuses every new reply.
    public var isFinished: Bool { step == .finished }

    /// The latest trainer message.
    public var lastTrainerMessage: TrainerMessage? { messages.last { $0.author == .trainer } }

    var timeZone: TimeZone { TimeZone(identifier: timeZoneIdentifier) ?? TimeZone(secondsFromGMT: 0) ?? .current }

    /// Starts a conversation.
    ///
    /// - Parameters:
    ///   - profile: The stored profile.
    ///   - prefill: The host's pre-fill (see ``TrainerProfile/init(hostAge:heightCentimetres:weightKilograms:gender:)``);
    ///     it fills only what the stored profile lacks.
    ///   - history: Earlier check-ins.
    ///   - timeZone: The person's time zone.
    ///   - rng: Draws the conversation's seed.
    public init(
        profile: TrainerProfile, prefill: TrainerProfile = TrainerProfile(), history: [SessionCheckIn],
        timeZone: TimeZone, environment: TrainerEnvironment, using rng: inout some RandomNumberGenerator
    ) {
        step = .profile
        self.profile = profile.filling(from: prefill)
        messages = []
        pending = []
        timeZoneIdentifier = timeZone.identifier
        seed = PortableRandom.seed(using: &rng)
        self.history = history.sorted { $0.endedAt < $1.endedAt }
        let missing = self.profile.missingFields
        say(missing.isEmpty
            ? "Welcome back! A quick check before today's session."
            : "Hi, I'm your trainer. A few questions first, so I can plan sessions that fit you.")
        enter(.profile, environment: environment)
    }

    /// Answers the current question.
    ///
    /// - Returns: ``TrainerReplyOutcome/duplicate`` when a reply with the same client id was already applied
    ///   (nothing changes), else ``TrainerReplyOutcome/advanced``.
    /// - Throws: ``TrainerReplyError`` naming the field: an empty reply, a choice not offered, text not
    ///   understood, a value out of range, a time in the past, a reply naming another question than the current
    ///   one (``TrainerReplyError/Problem/staleQuestion``), or any reply once the conversation has finished
    ///   (``TrainerReplyError/Problem/conversationFinished``). The conversation is unchanged.
    @discardableResult
    public mutating func reply(
        _ reply: TrainerReply, environment: TrainerEnvironment
    ) throws(TrainerReplyError) -> TrainerReplyOutcome {
        if appliedClientIDs.contains(reply.clientID) { return .duplicate }
        guard let question = currentQuestion else {
            throw TrainerReplyError(
                field: "conversation", problem: .conversationFinished,
                message: "This conversation has finished; start a new one to train again.")
        }
        if let field = reply.field, field != question.field {
            throw TrainerReplyError(
                field: question.field, problem: .staleQuestion,
                message: "This answers an earlier question; the conversation has moved on.",
                choices: lastTrainerMessage?.quickReplies ?? [])
        }
        let clientID = reply.clientID.trimmingCharacters(in: .whitespaces)
        guard !clientID.isEmpty, clientID.count <= 200 else {
            throw TrainerReplyError(field: "clientId", problem: .empty, message: "A reply needs a client id of 1–200 characters.")
        }
        let context = TrainerReadingContext(
            now: environment.now, timeZone: timeZone, defaultTime: profile.preferredTimes?.first?.startTime,
            offered: lastTrainerMessage?.quickReplies ?? question.quickReplies)
        let answer = try TrainerReplyReader.read(reply, for: question, context: context)
        var next = self
        try next.apply(answer, to: question, reply: reply, environment: environment)
        next.appliedClientIDs.append(reply.clientID)
        self = next
        return .advanced
    }

    // MARK: - Messages

    mutating func say(_ text: String) {
        messages.append(TrainerMessage(author: .trainer, text: text))
    }

    /// Asks the first pending question, or moves to the next step when none is left.
    mutating func askNext(environment: TrainerEnvironment) {
        guard let question = pending.first else {
            finishStep(environment: environment)
            return
        }
        var replies = question.quickReplies
        if question == .nextSession {
            replies = proposals.map { QuickReply(id: $0.description, label: Self.label($0)) } + [TrainerQuestion.skip]
        }
        messages.append(TrainerMessage(
            author: .trainer, text: question.text, question: question, expects: question.expects,
            quickReplies: replies, allowsMultiple: question.allowsMultiple, unit: question.unit))
    }

    /// "Thu 27 Nov, 18:00".
    static func label(_ time: LocalDateTime) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let clock = time.description.suffix(5)
        return "\(time.date.weekday.shortName) \(time.day) \(months[time.month - 1]), \(clock)"
    }

    /// The person's answer as the transcript shows it: the picked labels, or their text.
    mutating func echo(_ reply: TrainerReply) {
        let offered = lastTrainerMessage?.quickReplies ?? []
        let labels = reply.choices.map { id in offered.first { $0.id == id }?.label ?? id }
        let text = labels.isEmpty ? (reply.text ?? "") : labels.joined(separator: ", ")
        messages.append(TrainerMessage(author: .person, text: text))
    }
}
