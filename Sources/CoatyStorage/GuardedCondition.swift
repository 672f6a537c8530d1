package import CoreTypes

/// A condition that SQL can decide for most values but leaves a few to the matcher: a numeric
/// comparison or equality with number operands, or `Like`. SQL reads a stored number through its
/// own decimal parser, which may differ from JavaScript's in the last bits, so a number within a
/// narrow band around each operand (relative 1e-9) goes to the matcher, and so does any value
/// JavaScript would coerce; everything else SQL decides by itself.
///
/// An absent member fails every one of these operators, so it is always false.
package struct GuardedCondition: Sendable {
    /// What SQL concludes for a kind of value.
    package enum Outcome: Sendable {
        case isTrue
        case isFalse
        /// Only the matcher knows.
        case matcher
    }

    /// The numbers from `low` to `high`, both included; `nil` is unbounded.
    package struct Interval: Sendable, Equatable {
        package let low: Double?
        package let high: Double?
    }

    /// What is tested of the value at ``path``.
    package enum Test: Sendable {
        /// A number inside one of `trueIn` matches, inside one of `falseIn` does not, elsewhere
        /// the matcher decides; any other present value gets `others`.
        case number(trueIn: [Interval], falseIn: [Interval], others: Outcome)
        /// A string that starts with `prefix` (Unicode scalars) goes to the matcher; any other
        /// string and any other value does not match.
        case stringPrefix(String)
    }

    /// The member names, each plain.
    package let path: [String]
    /// What is tested.
    package let test: Test
    /// The condition it came from, for the matcher.
    package let condition: ObjectFilterCondition
}

extension GuardedCondition.Test {
    /// The guarded test of `condition`, or `nil` when it is not one of these.
    init?(_ condition: ObjectFilterCondition) {
        guard condition.path.isPlainMemberPath else { return nil }
        let operands = condition.expression.operands
        typealias Interval = GuardedCondition.Interval
        switch condition.expression.operator {
        case .equals, .notEquals:
            guard let value = operands.first, let number = Self.number(value) else { return nil }
            let outside = Self.outside([number])
            self =
                condition.expression.operator == .equals
                ? .number(trueIn: [], falseIn: outside, others: .isFalse)
                : .number(trueIn: outside, falseIn: [], others: .isTrue)
        case .in, .notIn:
            guard case .array(let elements)? = operands.first else { return nil }
            let numbers = elements.compactMap(Self.number)
            guard numbers.count == elements.count else { return nil }
            let outside = Self.outside(numbers)
            self =
                condition.expression.operator == .in
                ? .number(trueIn: [], falseIn: outside, others: .isFalse)
                : .number(trueIn: outside, falseIn: [], others: .isTrue)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let value = operands.first, let number = Self.number(value) else { return nil }
            let (below, above) = (Interval(low: nil, high: number - Self.margin(number)), Interval(low: number + Self.margin(number), high: nil))
            let isLess = condition.expression.operator == .lessThan || condition.expression.operator == .lessThanOrEqual
            self = .number(trueIn: [isLess ? below : above], falseIn: [isLess ? above : below], others: .matcher)
        case .between, .notBetween:
            guard operands.count >= 2, var low = Self.number(operands[0]), var high = Self.number(operands[1]) else {
                return nil
            }
            if low > high { swap(&low, &high) }
            let (lowInner, highInner) = (low + Self.margin(low), high - Self.margin(high))
            let inside = lowInner <= highInner ? [Interval(low: lowInner, high: highInner)] : []
            let outside = [
                Interval(low: nil, high: low - Self.margin(low)), Interval(low: high + Self.margin(high), high: nil),
            ]
            self =
                condition.expression.operator == .between
                ? .number(trueIn: inside, falseIn: outside, others: .matcher)
                : .number(trueIn: outside, falseIn: inside, others: .matcher)
        case .like:
            guard case .string(let pattern)? = operands.first else { return nil }
            self = .stringPrefix(Self.literalPrefix(of: pattern))
        case .exists, .notExists, .contains, .notContains:
            return nil
        }
    }

    /// A finite number operand.
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int, .double: return value.numberValue.flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// How far SQL's reading of a stored number near `number` may be from JavaScript's, with room to spare.
    static func margin(_ number: Double) -> Double {
        max(abs(number) * 1e-9, 1e-300)
    }

    /// The numbers away from every operand by more than its margin.
    private static func outside(_ numbers: [Double]) -> [GuardedCondition.Interval] {
        let bands = numbers.map { ($0 - margin($0), $0 + margin($0)) }.sorted { $0.0 < $1.0 }
        var merged: [(Double, Double)] = []
        for band in bands {
            if let last = merged.last, band.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, band.1)
            } else {
                merged.append(band)
            }
        }
        guard !merged.isEmpty else { return [GuardedCondition.Interval(low: nil, high: nil)] }
        var gaps = [GuardedCondition.Interval(low: nil, high: merged[0].0.nextDown)]
        for (left, right) in zip(merged, merged.dropFirst()) {
            gaps.append(GuardedCondition.Interval(low: left.1.nextUp, high: right.0.nextDown))
        }
        gaps.append(GuardedCondition.Interval(low: merged[merged.count - 1].1.nextUp, high: nil))
        return gaps
    }

    /// The literal start of a `Like` pattern (before its first wildcard), as whole Unicode
    /// scalars; a value that does not start with it cannot match.
    private static func literalPrefix(of pattern: String) -> String {
        let units = ObjectFilterExpression.likeLiteralPrefix(of: pattern)
        // Drop a trailing high surrogate whose partner is a wildcard; stop at any lone surrogate.
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard scalar.value != 0, scalar.value != 0xFFFF else { break loop }
                scalars.append(scalar)
            case .emptyInput, .error: break loop
            }
        }
        return String(scalars)
    }
}
