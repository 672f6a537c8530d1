import Glibc

/// `logDate` strings as coaty-js writes them: local time, milliseconds and the UTC offset
/// (`2021-10-22T11:00:58.018+02:00`).
enum LogDate {
    /// The current local time.
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var local = tm()
        let offset = localtime_r(&seconds, &local) == nil ? 0 : Int(local.tm_gmtoff)
        return format(
            secondsSinceEpoch: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec) / 1_000_000, utcOffset: offset)
    }

    /// Formats an instant as local time at `utcOffset` seconds east of UTC.
    static func format(secondsSinceEpoch: Int, milliseconds: Int, utcOffset: Int) -> String {
        let local = secondsSinceEpoch + utcOffset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let sign = utcOffset < 0 ? "-" : "+"
        let offsetMinutes = abs(utcOffset) / 60
        let date = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        let time = "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        let offset = "\(sign)\(pad(offsetMinutes / 60, 2)):\(pad(offsetMinutes % 60, 2))"
        return "\(date)T\(time).\(pad(milliseconds, 3))\(offset)"
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
