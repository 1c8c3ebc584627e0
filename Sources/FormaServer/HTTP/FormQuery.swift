import Foundation

/// A request's query items as the OpenAPI runtime reads `form` parameters: `+` is a space, then percent-decoding.
/// For the response caches' keys (``CatalogueResponseCache``, ``PlanListResponseCache``), which must name the same
/// answer the generated code would give.
enum FormQuery {
    /// Each name's values in order; an empty dictionary for a path without a query, and `nil` when an item has no
    /// `=` or does not decode (such a request is not kept: the reader cannot tell what the runtime makes of it).
    static func values(in path: String) -> [String: [String]]? {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var values: [String: [String]] = [:]
        guard parts.count == 2 else { return values }
        for pair in parts[1].split(separator: "&") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard nameAndValue.count == 2,
                let name = nameAndValue[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                let value = nameAndValue[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            else { return nil }
            values[name, default: []].append(value)
        }
        return values
    }
}
