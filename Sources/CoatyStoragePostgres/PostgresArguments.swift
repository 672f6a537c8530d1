import PostgresNIO

/// The bound parameters of one statement, each written into the SQL text as a numbered
/// placeholder (`$1::text`), never as its value.
struct PostgresArguments {
    private(set) var binds = PostgresBindings()

    /// The placeholder of a text parameter.
    mutating func text(_ value: String?) -> String {
        binds.append(value)
        return "$\(binds.count)::text"
    }

    /// The placeholder of a text array parameter (a list of ids).
    mutating func texts(_ values: [String]) -> String {
        binds.append(values)
        return "$\(binds.count)::text[]"
    }

    /// The placeholder of a Boolean array parameter.
    mutating func booleans(_ values: [Bool]) -> String {
        binds.append(values)
        return "$\(binds.count)::bool[]"
    }

    /// The placeholder of a JSONB parameter given as JSON text.
    mutating func jsonb(_ json: String) -> String {
        binds.append(json)
        return "$\(binds.count)::text::jsonb"
    }

    /// The placeholder of a double-precision parameter.
    mutating func double(_ value: Double) -> String {
        binds.append(value)
        return "$\(binds.count)::float8"
    }

    /// The placeholder of a 64-bit integer parameter.
    mutating func integer(_ value: Int) -> String {
        binds.append(Int64(clamping: value))
        return "$\(binds.count)::int8"
    }
}
