public import CoreTypes

/// How ``ObjectStore/aggregate(_:of:in:filter:)`` combines the values of a property.
public enum AggregateOperation: String, Hashable, Sendable, CaseIterable {
    /// The largest number (the first of equal ones), as stored (an integer stays an integer).
    case max
    /// The smallest number (the first of equal ones).
    case min
    /// The sum of the numbers: an integer when all are integers and it fits, else a double.
    case sum
    /// The mean of the numbers, a double.
    case avg
    /// Whether every Boolean is `true`.
    case every
    /// Whether some Boolean is `true`.
    case some
}

extension ObjectStore {
    /// Combines the values at `path` of the objects that `filter` finds, as coaty-js's
    /// `aggregateObjects` does.
    ///
    /// `max`, `min`, `sum` and `avg` look at numbers only, `every` and `some` at Booleans only;
    /// other values and absent properties are left out. Paths resolve JSON members and array
    /// elements (`"battery.cells.0"`).
    ///
    /// ```swift
    /// let brightest = try await store.aggregate(.max, of: "brightness", in: "lights")
    /// ```
    ///
    /// - Returns: The result, or `nil` when no value qualifies.
    /// - Throws: ``StorageError``.
    public func aggregate(
        _ operation: AggregateOperation, of path: PropertyPath, in collection: String, filter: ObjectFilter = .all
    ) async throws -> JSONValue? {
        var batches = JSONBatches(find(in: collection, filter: filter))
        var aggregator = Aggregator(operation: operation)
        while let batch = try await batches.next() {
            for object in batch {
                if let value = object[pathComponents: path.components] { aggregator.add(value) }
            }
        }
        return aggregator.result
    }
}

/// The running state of one aggregation.
struct Aggregator {
    let operation: AggregateOperation
    private var chosen: (value: JSONValue, number: Double)?
    private var integerSum: Int? = 0
    private var doubleSum = 0.0
    private var count = 0
    private var truth: Bool?

    init(operation: AggregateOperation) {
        self.operation = operation
    }

    mutating func add(_ value: JSONValue) {
        switch operation {
        case .every, .some:
            guard case .bool(let flag) = value else { return }
            truth = operation == .every ? (truth ?? true) && flag : (truth ?? false) || flag
        case .max, .min, .sum, .avg:
            guard let number = value.numberValue else { return }
            count += 1
            doubleSum += number
            if let sum = integerSum, case .int(let i) = value {
                let (next, overflow) = sum.addingReportingOverflow(i)
                integerSum = overflow ? nil : next
            } else {
                integerSum = nil
            }
            if let current = chosen?.number, operation == .max ? number <= current : number >= current { return }
            if operation == .max || operation == .min { chosen = (value, number) }
        }
    }

    var result: JSONValue? {
        switch operation {
        case .every, .some: return truth.map(JSONValue.bool)
        case .max, .min: return chosen?.value
        case .sum:
            guard count > 0 else { return nil }
            return integerSum.map(JSONValue.int) ?? .double(doubleSum)
        case .avg:
            return count > 0 ? .double(doubleSum / Double(count)) : nil
        }
    }
}
