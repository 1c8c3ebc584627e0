/// The server's own writing of events: the text ``LiveJSON/text(_:)`` would give through `JSONEncoder`, written
/// directly (issue 13: the encoder was 11 % of a server at 1,000 live sessions).
extension LiveEvent {
    /// The event as the server sends it: JSON text, keys sorted; the same text as ``LiveJSON/text(_:)`` (the
    /// `Codable` encoding below through `JSONEncoder`) writes, without building it through `JSONEncoder`
    /// (`LiveJSONWriterTests` hold the two together).
    public var jsonText: String {
        var writer = LiveJSONWriter()
        write(to: &writer)
        return writer.text
    }

    /// Writes the event as one JSON object, its keys in sorted order (as `JSONEncoder`'s `.sortedKeys` orders them;
    /// an optional field that is `nil` is left out, as the synthesised encoding leaves it out).
    func write(to writer: inout LiveJSONWriter) {
        writer.object { json in
            switch self {
            case .ready(let ready):
                json.key("limits")
                json.object { json in
                    json.key("idleSeconds")
                    json.number(ready.limits.idleSeconds)
                    json.key("maxFrameBytes")
                    json.int(ready.limits.maxFrameBytes)
                    json.key("maxFramesPerSecond")
                    json.int(ready.limits.maxFramesPerSecond)
                }
                json.key("session")
                json.string(ready.session)
            case .repetition(let rep):
                json.key("count")
                json.int(rep.count)
                json.key("duration")
                json.number(rep.duration)
                json.key("end")
                json.number(rep.end)
                json.key("exercise")
                json.string(rep.exercise)
                json.key("mistakes")
                json.array(rep.mistakes) { $0.string($1) }
                json.key("quality")
                json.number(rep.quality)
                json.key("rangeOfMotion")
                json.number(rep.rangeOfMotion)
                json.key("start")
                json.number(rep.start)
                json.key("tempo")
                json.string(rep.tempo)
            case .partial(let partial):
                json.key("code")
                json.string(partial.code)
                json.key("end")
                json.number(partial.end)
                json.key("exercise")
                json.string(partial.exercise)
                json.key("message")
                json.string(partial.message)
                json.key("rangeOfMotion")
                json.number(partial.rangeOfMotion)
                json.key("requiredRange")
                json.number(partial.requiredRange)
                json.key("start")
                json.number(partial.start)
            case .mistake(let mistake):
                json.key("code")
                json.string(mistake.code)
                json.key("exercise")
                json.string(mistake.exercise)
                json.key("message")
                json.string(mistake.message)
                if let repetition = mistake.repetition {
                    json.key("repetition")
                    json.int(repetition)
                }
                json.key("t")
                json.number(mistake.t)
            case .leftFrame(let at), .returnedToFrame(let at):
                json.key("t")
                json.number(at)
            case .set(let set):
                set.writeFields(to: &json)
            case .summary(let sets):
                json.key("sets")
                json.array(sets) { json, set in json.object { set.writeFields(to: &$0) } }
            case .challenge(let result):
                json.key("completed")
                json.bool(result.completed)
                json.key("exercise")
                json.string(result.exercise)
                json.key("ranked")
                json.bool(result.ranked)
                json.key("reps")
                json.int(result.reps)
                json.key("seconds")
                json.int(result.seconds)
            case .progress(let progress):
                json.key("exercise")
                json.string(progress.exercise)
                json.key("fraction")
                json.number(progress.fraction)
                json.key("landmarks")
                json.array(progress.landmarks) { $0.int($1) }
                json.key("t")
                json.number(progress.t)
            case .unknown:
                break
            }
            // `type` sorts after every other key of every event but the few below.
            switch self {
            case .repetition(let rep):
                json.key("type")
                json.string(type)
                json.key("unit")
                json.string(rep.unit)
            case .progress(let progress):
                json.key("type")
                json.string(type)
                json.key("unit")
                json.string(progress.unit)
                json.key("value")
                json.number(progress.value)
            default:
                json.key("type")
                json.string(type)
            }
        }
    }
}

extension LiveEvent.SetResult {
    /// The fields of a `set` event and of an entry of `summary`, keys sorted (`type` not among them).
    func writeFields(to json: inout LiveJSONWriter) {
        json.key("exercise")
        json.string(exercise)
        if let exerciseId {
            json.key("exerciseId")
            json.string(exerciseId)
        }
        json.key("mistakes")
        json.object { json in
            for (code, count) in mistakes.sorted(by: { $0.key < $1.key }) {
                json.key(code)
                json.int(count)
            }
        }
        json.key("partials")
        json.int(partials)
        json.key("reps")
        json.int(reps)
        json.key("seconds")
        json.number(seconds)
    }
}
