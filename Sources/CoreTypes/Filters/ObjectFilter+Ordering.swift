extension ObjectFilter {
    /// Shapes a Query result as a responder would: keeps the objects that match ``conditions``,
    /// sorts them by ``orderByProperties``, then leaves out ``skip`` and keeps at most ``take``.
    ///
    /// The rules follow coaty-js's in-memory database adapter, the reference for this part of
    /// Coaty (the matcher itself ignores ordering and paging):
    /// - Each sort key is tried in turn; the next one decides only on ties. Objects that tie on all
    ///   keys keep their input order (the sort is stable).
    /// - Within a key: strings by the same en-US collation as the matcher, numbers numerically,
    ///   `false` before `true`. Absent values come first in ascending order and last in
    ///   descending order. Paths resolve as in the matcher (`"a.b"`, `["a.b"]`, `[]`).
    /// - Values of different types: coaty-js compares them with JavaScript's `<`, which is not a
    ///   consistent order. Here they sort by type instead: absent < `null` < Booleans < numbers <
    ///   strings < arrays < objects; two arrays or two objects tie.
    /// - Paging: with `skip` = s (absent: 0) and `take` = t (absent or 0: no limit), the object at
    ///   sorted position i is kept when `0 <= i - s < t`. A negative `skip` therefore shortens the
    ///   page, as in coaty-js.
    ///
    /// ```swift
    /// let page = try ObjectFilter.where("isOn", .equals(true)).orderBy("name").skip(10).take(5)
    ///     .apply(to: lights)
    /// ```
    ///
    /// - Throws: ``FilterError`` where matching throws (see ``ObjectMatcher``).
    public func apply(to objects: [JSONObject]) throws -> [JSONObject] {
        try apply(to: objects) { .object($0) }
    }

    /// Shapes a result of any element type, looking at each element through its JSON form.
    ///
    /// ```swift
    /// let page = try filter.apply(to: tasks) { try $0.jsonValue() }
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The candidates, in their natural order (which breaks remaining ties).
    ///   - json: The JSON view of an element that conditions and sort keys are evaluated on; it is
    ///     called once per element.
    /// - Returns: The elements that match, ordered and paged.
    /// - Throws: What `json` throws, or ``FilterError`` where matching throws.
    public func apply<Element>(to elements: [Element], json: (Element) throws -> JSONValue) throws -> [Element] {
        var kept: [(element: Element, json: JSONValue)] = []
        kept.reserveCapacity(elements.count)
        for element in elements {
            let view = try json(element)
            if try ObjectMatcher.matches(view, conditions: conditions) { kept.append((element, view)) }
        }
        var order = Array(kept.indices)
        if let keys = orderByProperties, !keys.isEmpty {
            let sortValues = kept.map { candidate in
                keys.map { JavaScriptProperty.resolve($0.path.components, in: candidate.json) }
            }
            order.sort { a, b in
                for (k, key) in keys.enumerated() {
                    let result =
                        key.order == .ascending
                        ? Self.compareForOrdering(sortValues[a][k], sortValues[b][k])
                        : Self.compareForOrdering(sortValues[b][k], sortValues[a][k])
                    if result != 0 { return result < 0 }
                }
                return a < b
            }
        }
        return page(order).map { kept[$0].element }
    }

    /// The positions of `sorted` that ``skip`` and ``take`` keep.
    private func page(_ sorted: [Int]) -> [Int] {
        let offset = skip ?? 0
        let limit = take ?? 0
        return sorted.enumerated().compactMap { position, index in
            let (resultIndex, overflow) = position.subtractingReportingOverflow(offset)
            guard !overflow, resultIndex >= 0, limit == 0 || resultIndex < limit else { return nil }
            return index
        }
    }

    /// A consistent three-way comparison of two sort values (`nil` is absent).
    static func compareForOrdering(_ x: JavaScriptProperty?, _ y: JavaScriptProperty?) -> Int {
        let (rankX, rankY) = (orderingRank(x), orderingRank(y))
        if rankX != rankY { return rankX < rankY ? -1 : 1 }
        switch (x, y) {
        case (.json(.bool(let a))?, .json(.bool(let b))?):
            return a == b ? 0 : (a ? 1 : -1)
        case (.json(.string(let a))?, .json(.string(let b))?):
            return JavaScriptCollator.compare(a, b).signum()
        case (.json(let a)?, .json(let b)?):
            guard let m = a.numberValue, let n = b.numberValue, m != n else { return 0 }
            return m < n ? -1 : 1
        default:
            return 0
        }
    }

    private static func orderingRank(_ value: JavaScriptProperty?) -> Int {
        switch value {
        case nil: return 0
        case .json(.null)?: return 1
        case .json(.bool)?: return 2
        case .json(.int)?, .json(.double)?: return 3
        case .json(.string)?: return 4
        case .json(.array)?, .arrayPrototype?: return 5
        case .json(.object)?, .objectPrototype?: return 6
        case .function?: return 7
        }
    }
}
