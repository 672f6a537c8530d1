// Builders that read as the filter they make:
//
//     ObjectFilter.where("isOn", .equals(true)).and("brightness", .greaterThan(0.5))
//     ObjectFilter.where("name", .like("Desk%")).or("name", .like("Floor%")).orderBy("name").take(5)
//     ContextFilter.where("floor", .between(1, 3))

extension ObjectFilter {
    /// A filter with one condition.
    ///
    /// ```swift
    /// let filter = ObjectFilter.where("location.floor", .in([1, 2]))
    /// // {"conditions":["location.floor",[13,[1,2]]]}
    /// ```
    public static func `where`(_ path: PropertyPath, _ expression: ObjectFilterExpression) -> ObjectFilter {
        ObjectFilter(conditions: .condition(ObjectFilterCondition(path, expression)))
    }

    /// A filter that matches when all `conditions` hold (`{"and": […]}`; empty matches everything).
    public static func allOf(_ conditions: [ObjectFilterCondition]) -> ObjectFilter {
        ObjectFilter(conditions: .and(conditions))
    }

    /// A filter that matches when any of `conditions` holds (`{"or": […]}`; empty matches nothing).
    public static func anyOf(_ conditions: [ObjectFilterCondition]) -> ObjectFilter {
        ObjectFilter(conditions: .or(conditions))
    }

    /// This filter with one more condition that must hold as well.
    ///
    /// Coaty has a single level of `and`/`or`: calling `and` on a filter that already combines
    /// conditions with `or` is a programming error and traps. Build such filters in two Queries or
    /// test the rest in the application.
    ///
    /// ```swift
    /// ObjectFilter.where("isOn", .equals(true)).and("brightness", .greaterThan(0.5))
    /// // {"conditions":{"and":[["isOn",[7,true]],["brightness",[2,0.5]]]}}
    /// ```
    public func and(_ path: PropertyPath, _ expression: ObjectFilterExpression) -> ObjectFilter {
        var copy = self
        copy.conditions = conditions.joined(with: ObjectFilterCondition(path, expression), conjunction: .and)
        return copy
    }

    /// This filter with an alternative condition: it matches when any of its conditions holds.
    ///
    /// Calling `or` on a filter that already combines conditions with `and` traps (see
    /// ``and(_:_:)``).
    public func or(_ path: PropertyPath, _ expression: ObjectFilterExpression) -> ObjectFilter {
        var copy = self
        copy.conditions = conditions.joined(with: ObjectFilterCondition(path, expression), conjunction: .or)
        return copy
    }

    /// This filter with one more sort key, used on ties of the keys before it.
    ///
    /// ```swift
    /// ObjectFilter.all.orderBy("lastName").orderBy("age", .descending)
    /// // {"orderByProperties":[["lastName","Asc"],["age","Desc"]]}
    /// ```
    public func orderBy(_ path: PropertyPath, _ order: OrderByProperty.Order = .ascending) -> ObjectFilter {
        var copy = self
        copy.orderByProperties = (orderByProperties ?? []) + [OrderByProperty(path, order)]
        return copy
    }

    /// This filter leaving out the first `count` ordered matches (paging).
    public func skip(_ count: Int) -> ObjectFilter {
        var copy = self
        copy.skip = count
        return copy
    }

    /// This filter returning at most `count` objects (`0` means no limit).
    ///
    /// ```swift
    /// ObjectFilter.all.orderBy("name").skip(10).take(5)   // the third page of five
    /// ```
    public func take(_ count: Int) -> ObjectFilter {
        var copy = self
        copy.take = count
        return copy
    }
}

extension ContextFilter {
    /// A context filter with one condition.
    ///
    /// ```swift
    /// ContextFilter.where("floor", .equals(1))   // {"conditions":["floor",[7,1]]}
    /// ```
    public static func `where`(_ path: PropertyPath, _ expression: ObjectFilterExpression) -> ContextFilter {
        ContextFilter(conditions: .condition(ObjectFilterCondition(path, expression)))
    }

    /// This filter with one more condition that must hold as well (traps on an `or` filter, see
    /// ``ObjectFilter/and(_:_:)``).
    public func and(_ path: PropertyPath, _ expression: ObjectFilterExpression) -> ContextFilter {
        ContextFilter(conditions: conditions.joined(with: ObjectFilterCondition(path, expression), conjunction: .and))
    }

    /// This filter with an alternative condition (traps on an `and` filter, see
    /// ``ObjectFilter/and(_:_:)``).
    public func or(_ path: PropertyPath, _ expression: ObjectFilterExpression) -> ContextFilter {
        ContextFilter(conditions: conditions.joined(with: ObjectFilterCondition(path, expression), conjunction: .or))
    }
}

enum Conjunction { case and, or }

extension Optional where Wrapped == ObjectFilterConditions {
    /// The conditions with `condition` added by `conjunction`.
    func joined(with condition: ObjectFilterCondition, conjunction: Conjunction) -> ObjectFilterConditions {
        let existing: [ObjectFilterCondition]
        switch self {
        case nil, .empty?:
            return .condition(condition)
        case .condition(let single)?:
            existing = [single]
        case .and(let list)?:
            precondition(
                conjunction == .and || list.count < 2,
                "Coaty filters cannot nest groups: this filter already combines conditions with 'and'")
            existing = list
        case .or(let list)?:
            precondition(
                conjunction == .or || list.count < 2,
                "Coaty filters cannot nest groups: this filter already combines conditions with 'or'")
            existing = list
        }
        return conjunction == .and ? .and(existing + [condition]) : .or(existing + [condition])
    }
}
