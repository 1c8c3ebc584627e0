/// Runs a ``LiveSessionMachine`` against a store and a socket: feeds it the socket's inputs in order, carries out
/// its outputs, answers its lookups, and stops at the first close.
public struct LiveSessionDriver<Store: LiveSessionStore, Transport: LiveSessionTransport>: Sendable {
    /// One input and the time it arrived on the session's clock.
    public typealias StampedInput = (input: LiveSessionMachine.Input, at: Duration)

    private var machine: LiveSessionMachine
    private let store: Store
    private let transport: Transport
    private let clock: any LiveClock

    public init(machine: LiveSessionMachine, store: Store, transport: Transport, clock: any LiveClock) {
        self.machine = machine
        self.store = store
        self.transport = transport
        self.clock = clock
    }

    /// Runs the session until the machine closes it or `inputs` ends (the client went away), and frees the person's
    /// session place.
    ///
    /// - Parameters:
    ///   - bearer: the token of the upgrade request's `Authorization` header, if it had one.
    ///   - inputs: the socket's messages and ticks in order; an error ends them as the client going away would.
    /// - Returns: how the server closed the session, or `nil` when the client went away first.
    public mutating func run<Inputs: AsyncSequence>(bearer: String?, inputs: Inputs) async -> LiveClose?
    where Inputs.Element == StampedInput {
        let close = await serve(bearer: bearer, inputs: inputs)
        if let person = machine.person { await store.closeSession(of: person) }
        return close
    }

    private mutating func serve<Inputs: AsyncSequence>(bearer: String?, inputs: Inputs) async -> LiveClose?
    where Inputs.Element == StampedInput {
        if let bearer, let close = await handle(.bearer(token: bearer), at: clock.now) { return close }
        do {
            for try await (input, time) in inputs {
                if let close = await handle(input, at: time) { return close }
            }
        } catch {
            // The socket's side failed; what the session counted so far is kept as on a disconnect.
        }
        return await handle(.disconnected, at: clock.now)
    }

    /// Hands `input` to the machine and carries out what it answers; returns the close, if it closed.
    private mutating func handle(_ input: LiveSessionMachine.Input, at time: Duration) async -> LiveClose? {
        var pending = machine.handle(input, at: time)[...]
        while let output = pending.popFirst() {
            switch output {
            case .send(let event):
                transport.send(event: event)
            case .authenticate(let token):
                let result: Result<LivePerson, LiveClose>
                do {
                    result = .success(try await store.openSession(token: token))
                } catch {
                    result = .failure(error)
                }
                pending = machine.handle(.authentication(result), at: clock.now)[...] + pending
            case .lookUpWorkout(let id):
                guard let person = machine.person else { continue }
                let result: Result<LiveWorkout, LiveClose>
                do {
                    result = .success(try await store.workout(id: id, of: person))
                } catch {
                    result = .failure(error)
                }
                pending = machine.handle(.workout(result), at: clock.now)[...] + pending
            case .persist(let record):
                do {
                    try await store.save(record)
                } catch {
                    transport.observe(.saveFailed(record, error: error))
                    let close = LiveClose.serverFailed(what: record.failure)
                    transport.close(close)
                    return close
                }
            case .frame(let analysed):
                transport.observe(analysed ? .frameAnalysed : .frameRefused)
            case .close(let close):
                transport.close(close)
                return close
            }
        }
        return nil
    }
}
