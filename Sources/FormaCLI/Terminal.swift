import Foundation

/// Where commands write their results (standard output) and messages (standard error); tests capture both.
public enum Terminal {
    @TaskLocal public static var standardOutput: @Sendable (String) -> Void = { text in
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    @TaskLocal public static var standardError: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func write(_ text: String) { standardOutput(text) }
    static func note(_ text: String) { standardError(text) }
}
