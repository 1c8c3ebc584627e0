import Foundation

/// Folding of names and queries for free-text search that ignores case, accents and punctuation.
///
/// `"Crème Brûlée-Press"` and `"creme brulee press"` fold to the same text, so a query matches a name when every
/// folded query word occurs in the folded name.
public enum SearchText {
    /// Lowercases, strips diacritics, turns every run of characters that are not letters or digits into one space,
    /// and trims the ends.
    public static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        var result = ""
        result.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return result
    }

    /// The folded words of a query, without repeats, in their first order.
    public static func words(of query: String) -> [String] {
        var seen = Set<String>()
        return fold(query).split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
    }
}
