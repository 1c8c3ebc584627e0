import FormaCLI

/// The `forma` executable: everything lives in FormaCLI, so tests run the same commands.
@main
extension FormaCommand {}
