import ArgumentParser

/// `forma eval …`: accuracy of the motion engine on labelled data sets.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure the motion engine's accuracy on a labelled data set.",
        subcommands: [EvalBarbellCommand.self, EvalSparCommand.self, EvalUIPRMDCommand.self, EvalPoseCommand.self]
    )
}
