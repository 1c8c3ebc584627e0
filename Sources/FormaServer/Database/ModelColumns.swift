import FluentKit

extension Model {
    /// The model's columns as Fluent reads and writes them: its database properties' keys, in the order of
    /// `properties`. For statements of fixed text that must name every column of a model (``TokenLookup``,
    /// ``WorkoutLists``), so they follow the model when a field is added.
    static var columnNames: [String] {
        Self().properties.compactMap { $0 as? any AnyDatabaseProperty }.flatMap(\.keys).map(\.description)
    }
}
