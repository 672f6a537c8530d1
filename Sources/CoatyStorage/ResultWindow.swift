package import CoreTypes

/// The sorted positions that an ``ObjectFilter``'s `skip` and `take` keep, as
/// `ObjectFilter/apply(to:)` keeps them: position i when `0 <= i - skip < take` (`take` absent
/// or 0: no limit). A negative `skip` therefore shortens the page, and a negative `take` keeps
/// nothing.
package struct ResultWindow: Hashable, Sendable {
    /// The first position kept.
    package let lower: Int
    /// The first position no longer kept; `nil` for no limit.
    package let upper: Int?

    package init(skip: Int?, take: Int?) {
        let skip = skip ?? 0
        let take = take ?? 0
        lower = max(skip, 0)
        guard take != 0 else {
            upper = nil
            return
        }
        let (end, overflow) = skip.addingReportingOverflow(take)
        if overflow {
            upper = take > 0 ? nil : lower  // past Int.max: no limit; below Int.min: nothing
        } else {
            upper = max(end, lower)
        }
    }

    package init(_ filter: ObjectFilter) {
        self.init(skip: filter.skip, take: filter.take)
    }

    /// How many of `total` matching objects the window keeps.
    package func count(of total: Int) -> Int {
        let end = min(upper ?? Int.max, total)
        return max(end - lower, 0)
    }

    /// The batch of at most `size` positions starting `delivered` positions into the window, as
    /// an offset and a limit; `nil` when the window is exhausted.
    package func batch(after delivered: Int, size: Int) -> (offset: Int, limit: Int)? {
        let (offset, overflow) = lower.addingReportingOverflow(delivered)
        guard !overflow else { return nil }
        let remaining = upper.map { $0 - offset } ?? Int.max
        guard remaining > 0 else { return nil }
        return (offset, min(size, remaining))
    }
}
