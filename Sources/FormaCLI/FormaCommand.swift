import ArgumentParser
import FormaServer

/// The `forma` command line: one subcommand per job, as a library so tests run exactly what the binary runs.
public struct FormaCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "forma",
        abstract: "Forma: an open, self-hostable fitness and rehabilitation platform.",
        version: formaVersion,
        subcommands: [
            ServeCommand.self, MigrateCommand.self, CompanyCommand.self, CompetitionCommand.self, GenerateCommand.self,
            AnalyzeCommand.self,
            EvalCommand.self, BenchCommand.self, SynthesizeCommand.self, PointsCommand.self,
        ]
    )

    public init() {}
}

// Vapor re-exports ConsoleKit, which has its own `Option` and `Flag`; the commands mean ArgumentParser's.
typealias Option = ArgumentParser.Option
typealias Flag = ArgumentParser.Flag
