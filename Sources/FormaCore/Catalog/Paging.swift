/// A page of a list: which page, and how many items a page holds.
///
/// Both numbers are bounded, so the offset of a page can never overflow, whatever a client sends
/// (`page=9223372036854775807` is refused, not multiplied).
public struct Paging: Sendable, Hashable {
    /// The first page is 1.
    public let page: Int
    public let perPage: Int

    /// The largest page number accepted. With ``maximumPerPage`` items a page this reaches a million items, far more
    /// than any list Forma pages.
    public static let maximumPage = 10_000
    /// The largest page size accepted.
    public static let maximumPerPage = 100
    public static let defaultPerPage = 20

    /// A checked page request; `nil` values take the defaults (page 1, 20 items).
    ///
    /// - Throws: A ``FieldIssue`` naming `page` or `perPage` when a value is outside its bounds.
    public init(page: Int?, perPage: Int?) throws(FieldIssue) {
        let page = page ?? 1
        guard (1...Self.maximumPage).contains(page) else {
            throw FieldIssue(field: "page", message: "must be from 1 to \(Self.maximumPage)")
        }
        let perPage = perPage ?? Self.defaultPerPage
        guard (1...Self.maximumPerPage).contains(perPage) else {
            throw FieldIssue(field: "perPage", message: "must be from 1 to \(Self.maximumPerPage)")
        }
        self.page = page
        self.perPage = perPage
    }

    /// The index of the page's first item: at most `maximumPage × maximumPerPage`, so it cannot overflow.
    public var offset: Int { (page - 1) * perPage }

    /// The positions of this page's items in a list of `total` items; empty past the end.
    public func range(inTotal total: Int) -> Range<Int> {
        let start = min(offset, total)
        return start..<min(start + perPage, total)
    }

    /// How many pages `total` items fill.
    public func pageCount(total: Int) -> Int {
        total == 0 ? 0 : (total - 1) / perPage + 1
    }
}
