import Foundation

/// Where commands write their results (standard output) and messages (standard error); tests capture both.
///
/// The destinations are task-local sinks, so a test runs a command in-process and reads what it printed:
/// `Terminal.$standardOutput.withValue(TerminalSink { lines.append($0) }) { try command.run() }`.
public enum Terminal {
    @TaskLocal public static var standardOutput = TerminalSink { text in
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    @TaskLocal public static var standardError = TerminalSink { text in
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func write(_ text: String) { standardOutput.write(text) }
    static func note(_ text: String) { standardError.write(text) }
}

/// A destination for lines of text.
///
/// A class rather than a bare closure: with Swift 6.3.1, a task-local whose value is a closure crashes in
/// `swift_task_localValuePush` when bound with `withValue` in an optimised build (reproduced with a ten-line
/// package); a task-local holding a class reference does not.
public final class TerminalSink: Sendable {
    private let writeLine: @Sendable (String) -> Void

    public init(_ writeLine: @escaping @Sendable (String) -> Void) {
        self.writeLine = writeLine
    }

    public func write(_ line: String) { writeLine(line) }
}
