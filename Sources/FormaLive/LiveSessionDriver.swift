/// Where a ``LiveSessionDriver`` runs: one piece of work at a time, in the order they were handed to it. The server
/// uses the socket's event loop, so that a frame is analysed and its events written in the callback that read it.
public protocol LiveSessionExecutor: Sendable {
    /// Runs `work` after the work handed over before it.
    func execute(_ work: @escaping @Sendable () -> Void)
}

/// Runs a ``LiveSessionMachine`` against a store and a socket: hands it each input in order as it arrives, carries
/// out its outputs, answers its lookups, and stops at the first close.
///
/// It is confined to its ``LiveSessionExecutor``: every method is called there (the server: on the socket's event
/// loop, from the WebSocket's callbacks and the loop's ticker), and an input is handled synchronously in the
/// call that brings it. Only the outputs that need the store (checking the token, looking up a workout, storing a
/// set or a challenge score) wait; while one does, later inputs queue, up to ``queueLength``, and are handled in
/// order on the executor once it is done. The rules themselves (rates, order, challenges) are the machine's.
public final class LiveSessionDriver<Store: LiveSessionStore, Transport: LiveSessionTransport>: @unchecked Sendable {
    /// One input and the time it arrived on the session's clock.
    public typealias StampedInput = (input: LiveSessionMachine.Input, at: Duration)

    /// What waits while the store answers.
    private enum Queued {
        case input(StampedInput)
        /// The client went away; handled as ``LiveSessionMachine/Input/disconnected`` after what came before it.
        case wentAway
    }

    /// How many inputs may wait for a store's answer before ``receive(_:at:)`` refuses more.
    public let queueLength: Int
    private let store: Store
    private let transport: Transport
    private let clock: any LiveClock
    private let executor: any LiveSessionExecutor
    private let onTake: @Sendable () -> Void
    private let onEnd: @Sendable (LiveClose?) -> Void
    // Confined to `executor`.
    private var machine: LiveSessionMachine
    /// Outputs of the machine not carried out yet (those after a store call that is waited for).
    private var pending: ArraySlice<LiveSessionMachine.Output> = []
    private var queue: [Queued] = []
    private var queueStart = 0
    /// Whether a store call is outstanding.
    private var waiting = false
    /// Whether `.disconnected` has been handed to the machine: the session ends once its outputs are carried out.
    private var disconnecting = false
    private var wentAway = false
    private var ended = false

    /// - Parameters:
    ///   - queueLength: inputs that may wait while the store answers.
    ///   - onTake: called on the executor for each client message (text or frame) as the machine takes it.
    ///   - onEnd: called once the session is over and the person's place is given back, with how the server closed
    ///     it, or `nil` when the client went away first.
    public init(
        machine: LiveSessionMachine, store: Store, transport: Transport, clock: any LiveClock,
        executor: any LiveSessionExecutor, queueLength: Int = 256,
        onTake: @escaping @Sendable () -> Void = {}, onEnd: @escaping @Sendable (LiveClose?) -> Void
    ) {
        self.machine = machine
        self.store = store
        self.transport = transport
        self.clock = clock
        self.executor = executor
        self.queueLength = queueLength
        self.onTake = onTake
        self.onEnd = onEnd
    }

    /// Starts the session; `bearer` is the token of the upgrade request's `Authorization` header, if it had one.
    public func start(bearer: String?) {
        guard let bearer else { return }
        receive(.bearer(token: bearer), at: clock.now)
    }

    /// Hands `input`, which arrived at `time`, to the machine now, or queues it behind a store call that is
    /// outstanding.
    ///
    /// - Returns: `false` when it had to wait and the queue was full: it was dropped (the server closes the session
    ///   with ``LiveClose/analysisBacklog`` for a client message, and skips a tick).
    @discardableResult
    public func receive(_ input: LiveSessionMachine.Input, at time: Duration) -> Bool {
        guard !ended, !wentAway else { return true }
        guard waiting || queueStart < queue.count else {
            take(input, at: time)
            pump()
            return true
        }
        guard queue.count - queueStart < queueLength else { return false }
        queue.append(.input((input, time)))
        return true
    }

    /// The client went away (or the socket failed): once what it sent before is handled, the set in progress is
    /// finished and kept as on ``LiveSessionMachine/Input/disconnected``, and the session ends.
    public func clientWentAway() {
        guard !ended, !wentAway else { return }
        wentAway = true
        queue.append(.wentAway)
        pump()
    }

    private func take(_ input: LiveSessionMachine.Input, at time: Duration) {
        switch input {
        case .text, .frame: onTake()
        default: break
        }
        let outputs = machine.handle(input, at: time)
        pending = pending.isEmpty ? outputs[...] : outputs[...] + pending
    }

    /// Carries out the pending outputs, then the queued inputs, until a store call is outstanding or the session
    /// ends.
    private func pump() {
        while !waiting, !ended {
            if let output = pending.popFirst() {
                carryOut(output)
            } else if disconnecting {
                end(nil)
            } else if queueStart < queue.count {
                let next = queue[queueStart]
                queueStart += 1
                if queueStart == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueStart = 0
                }
                switch next {
                case .input(let stamped):
                    take(stamped.input, at: stamped.at)
                case .wentAway:
                    disconnecting = true
                    take(.disconnected, at: clock.now)
                }
            } else {
                return
            }
        }
    }

    private func carryOut(_ output: LiveSessionMachine.Output) {
        switch output {
        case .send(let event):
            transport.send(event: event)
        case .authenticate(let token):
            let store = store
            wait { () async -> Result<LivePerson, LiveClose> in
                do throws(LiveClose) {
                    return .success(try await store.openSession(token: token))
                } catch {
                    return .failure(error)
                }
            } then: { (result: Result<LivePerson, LiveClose>) in
                self.take(.authentication(result), at: self.clock.now)
            }
        case .lookUpWorkout(let id):
            guard let person = machine.person else { return }
            let store = store
            wait { () async -> Result<LiveWorkout, LiveClose> in
                do throws(LiveClose) {
                    return .success(try await store.workout(id: id, of: person))
                } catch {
                    return .failure(error)
                }
            } then: { (result: Result<LiveWorkout, LiveClose>) in
                self.take(.workout(result), at: self.clock.now)
            }
        case .persist(let record):
            let store = store
            wait { () async -> (any Error)? in
                do {
                    try await store.save(record)
                    return nil
                } catch {
                    return error
                }
            } then: { error in
                guard let error else { return }
                self.transport.observe(.saveFailed(record, error: error))
                let close = LiveClose.serverFailed(what: record.failure)
                self.transport.close(close)
                self.end(close)
            }
        case .frame(let analysed):
            transport.observe(analysed ? .frameAnalysed : .frameRefused)
        case .close(let close):
            transport.close(close)
            end(close)
        }
    }

    /// Runs `operation` off the executor; until it is done, inputs queue. Its result is handed to `then` on the
    /// executor, and the session goes on.
    private func wait<Answer: Sendable>(
        _ operation: @escaping @Sendable () async -> Answer, then: @escaping @Sendable (Answer) -> Void
    ) {
        waiting = true
        Task {
            let result = await operation()
            executor.execute {
                self.waiting = false
                then(result)
                self.pump()
            }
        }
    }

    /// Ends the session: nothing more is handled, and the person's place is given back before `onEnd`.
    private func end(_ close: LiveClose?) {
        ended = true
        pending = []
        queue = []
        queueStart = 0
        guard let person = machine.person else {
            onEnd(close)
            return
        }
        let store = store
        let onEnd = onEnd
        Task {
            await store.closeSession(of: person)
            onEnd(close)
        }
    }
}
