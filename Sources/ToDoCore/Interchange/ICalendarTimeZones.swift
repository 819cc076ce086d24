import ToDoModel
import ToDoStorage

/// The zones a calendar's `TZID`s name. Calendars name zones their own way: an IANA name
/// (`Europe/Berlin`), a name the calendar defines in a VTIMEZONE component of its own (Outlook's
/// `Customized Time Zone`), a path ending in an IANA name (Evolution's
/// `/freeassociation.sourceforge.net/Tzfile/Europe/Vienna`), or a Windows name (Exchange's
/// `W. Europe Standard Time`), usually with a VTIMEZONE too.
struct ICalendarTimeZones {
    /// The calendar's VTIMEZONE components, by `TZID`, each as its content lines; worked out only
    /// when a `TZID` is not an IANA name.
    private let definitions: [String: [ICalendarFormat.ContentLine]]
    /// Each name looked up so far, and what it came to.
    private var found: [String: CivilTime?] = [:]

    /// The zones of the calendar's VTIMEZONE components, each given as its content lines, from its
    /// `BEGIN:VTIMEZONE` to its `END:VTIMEZONE`; the first of a `TZID` counts.
    init(definitions: [[ICalendarFormat.ContentLine]]) {
        var byName: [String: [ICalendarFormat.ContentLine]] = [:]
        for lines in definitions {
            // The component's own TZID: the one before its first observance.
            guard
                let name = lines.prefix(while: { $0.name != "BEGIN" || $0.value.uppercased() == "VTIMEZONE" })
                    .first(where: { $0.name == "TZID" })
            else { continue }
            if byName[String(name.value)] == nil { byName[String(name.value)] = lines }
        }
        self.definitions = byName
    }

    /// The zone `tzid` names: the IANA zone of that name; else the calendar's own definition (one
    /// todo cannot read defines nothing); else the IANA zone a path ends in; else the zone a
    /// Windows name stands for. `nil` when it is none of these, and the time cannot be known.
    mutating func zone(named tzid: String) -> CivilTime? {
        if let known = found[tzid] { return known }
        let zone =
            Self.ianaZone(tzid)
            ?? definitions[tzid].flatMap { Self.rules(definedBy: $0, name: tzid) }.map { CivilTime(rules: $0) }
            ?? Self.ianaZone(endingPath: tzid)
            ?? WindowsZoneNames.ianaName[Whitespace.trimmingSpaces(tzid)].flatMap { Self.ianaZone($0) }
        found[tzid] = zone
        return zone
    }

    private static func ianaZone(_ name: String) -> CivilTime? {
        ZoneInfo.zone(named: name).map { CivilTime(rules: $0) }
    }

    /// The IANA zone a path ends in: `Europe/Vienna` of `/freeassociation.sourceforge.net/Tzfile/Europe/Vienna`
    /// or `/mozilla.org/20050126_1/Europe/Vienna`.
    private static func ianaZone(endingPath path: String) -> CivilTime? {
        let parts = path.split(separator: "/")
        guard path.hasPrefix("/"), parts.count >= 2 else { return nil }
        for first in 1..<parts.count {
            if let zone = ianaZone(parts[first...].joined(separator: "/")) { return zone }
        }
        return nil
    }

    // MARK: A zone written as a VTIMEZONE

    /// The VTIMEZONE that defines `rules` as `name`, as calendars write one: the zone's rules of
    /// today (a zoneinfo file's POSIX footer), a STANDARD and a DAYLIGHT part repeating yearly
    /// from 1970, or one STANDARD part of the offset at `now` for a zone without daylight time
    /// (or with rules a yearly RRULE cannot say). Readers that know the IANA name use their own.
    static func definition(of rules: TimeZoneRules, named name: String, at now: Double) -> [String] {
        func offset(_ seconds: Int) -> String {
            let minutes = abs(seconds) / 60
            return (seconds < 0 ? "-" : "+") + CivilTime.digits(minutes / 60, 2) + CivilTime.digits(minutes % 60, 2)
        }
        func abbreviation(_ text: String) -> [String] {
            let name = text.filter { $0 != "<" && $0 != ">" }
            return name.isEmpty ? [] : ["TZNAME:" + name]
        }
        let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        /// One observance: from `from` to `to` at the rule's day and local time, yearly.
        func observance(
            _ kind: String, _ rule: POSIXTimeZone.Rule, from: Int, to: Int, abbreviation named: String
        ) -> [String]? {
            guard case .monthWeekDay(let month, let week, let weekday) = rule.day, (0..<86_400).contains(rule.time)
            else { return nil }
            let day = CalendarDay(number: POSIXTimeZone.dayNumber(of: rule.day, in: 1970))
            let start = CivilTime.Fields(
                year: day.year, month: day.month, day: day.day, hour: rule.time / 3600, minute: rule.time / 60 % 60,
                second: rule.time % 60)
            return [
                "BEGIN:" + kind, "DTSTART:" + CivilTime.basicDate(start, time: true), "TZOFFSETFROM:" + offset(from),
                "TZOFFSETTO:" + offset(to)
            ]
                + abbreviation(named) + [
                    "RRULE:FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? -1 : week)\(weekdays[weekday])",
                    "END:" + kind
                ]
        }
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + name]
        if let posix = rules.currentRules, let daylight = posix.daylight,
            let standardPart = observance(
                "STANDARD", daylight.end, from: daylight.offset, to: posix.standard.offset,
                abbreviation: posix.standard.name),
            let daylightPart = observance(
                "DAYLIGHT", daylight.start, from: posix.standard.offset, to: daylight.offset,
                abbreviation: daylight.name)
        {
            lines += standardPart + daylightPart
        } else {
            let now = rules.secondsFromGMT(at: now)
            lines +=
                [
                    "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:" + offset(now),
                    "TZOFFSETTO:" + offset(now)
                ]
                + abbreviation(rules.currentRules.map(\.standard.name) ?? "") + ["END:STANDARD"]
        }
        return lines + ["END:VTIMEZONE"]
    }

    // MARK: A VTIMEZONE's rules

    /// One STANDARD or DAYLIGHT part of a VTIMEZONE: from its onsets on, the offset is `offsetTo`.
    /// Its rule is followed over a bounded span with a bounded number of onsets: a calendar is
    /// another program's text, and a rule from year 1 that changes the offset daily must cost an
    /// import no more than a real zone does.
    private struct Observance {
        /// Onsets before 1900 are not worked out (an observance starting earlier, as Outlook's
        /// from 1601, is followed from 1900 on), nor after 2200 (later times take the offset of
        /// then): working out every year to 9999 would cost an import a tenth of a second for
        /// each zone.
        static let firstFollowedDay = CalendarDay(year: 1900, month: 1, day: 1).number!
        static let lastOnsetDay = CalendarDay(year: 2200, month: 12, day: 31).number!
        /// The most onsets one observance's rule gives: a yearly rule over the span gives 301.
        static let mostOnsets = 1_000

        var start: CivilTime.Fields?
        var offsetFrom: Int?
        var offsetTo: Int?
        var rule: RepeatRule?
        var dates: [CivilTime.Fields] = []

        /// The moments (UTC seconds) the observance begins: its `DTSTART`, its `RDATE`s and the
        /// days its `RRULE` gives, each at the local time of `DTSTART` read in `offsetFrom`.
        func onsets() -> [Int]? {
            guard let start, let offsetFrom, offsetTo != nil,
                let startDay = CalendarDay(year: start.year, month: start.month, day: start.day).number
            else { return nil }
            let timeOfDay = start.hour * 3600 + start.minute * 60 + start.second
            /// The moment a local time, read in `offsetFrom`, names.
            func onset(_ day: Int, _ seconds: Int) -> Int { day * 86_400 + seconds - offsetFrom }
            var onsets = [onset(startDay, timeOfDay)]
            for date in dates.prefix(Self.mostOnsets) {
                guard let day = CalendarDay(year: date.year, month: date.month, day: date.day).number else { continue }
                onsets.append(onset(day, date.hour * 3600 + date.minute * 60 + date.second))
            }
            if let rule, rule.canBeFollowed {
                var left = Self.mostOnsets
                rule.forEachOccurrenceDay(
                    after: Self.anchor(of: rule, startingOn: startDay), through: Self.lastOnsetDay,
                    timeOfDay: timeOfDay,
                    moment: { Double(onset($0, timeOfDay)) }
                ) { day in
                    onsets.append(onset(day, timeOfDay))
                    left -= 1
                    return day < Self.lastOnsetDay && left > 0
                }
            }
            return onsets
        }

        /// Where to follow `rule` from: the observance's first day, or for one that starts before
        /// `firstFollowedDay` (and counts no occurrences), the same day of the rule's pattern
        /// whole periods later, the last before `firstFollowedDay`: the days after it are the
        /// rule's days after it.
        static func anchor(of rule: RepeatRule, startingOn startDay: Int) -> Int {
            guard startDay < firstFollowedDay, rule.count == nil else { return startDay }
            let start = CalendarDay(number: startDay), first = CalendarDay(number: firstFollowedDay)
            switch rule.frequency {
            case .daily, .weekly:
                let period = (rule.frequency == .weekly ? 7 : 1) * rule.interval
                return startDay + (firstFollowedDay - startDay) / period * period
            case .monthly:
                let months =
                    ((first.year - start.year) * 12 + first.month - start.month) / rule.interval * rule.interval
                let index = start.year * 12 + start.month - 1 + months
                return sameDay(year: index / 12, month: index % 12 + 1, as: start) ?? startDay
            case .yearly:
                let year = start.year + (first.year - start.year) / rule.interval * rule.interval
                return sameDay(year: year, month: start.month, as: start) ?? startDay
            default:
                return startDay
            }
        }

        /// The day of `start`'s day of the month in that month, or the month's last when it has fewer days.
        private static func sameDay(year: Int, month: Int, as start: CalendarDay) -> Int? {
            CalendarDay(year: year, month: month, day: min(start.day, CalendarDay.length(ofMonth: month, year: year)))
                .number
        }
    }

    /// The most onsets one VTIMEZONE's observances give together.
    static let mostOnsets = 20_000

    /// The rules of a VTIMEZONE: at each onset of each observance the offset becomes that
    /// observance's `TZOFFSETTO`; before the first, it is that one's `TZOFFSETFROM`. `nil` for a
    /// component without an observance todo can read.
    private static func rules(definedBy lines: [ICalendarFormat.ContentLine], name: String) -> TimeZoneRules? {
        var observances: [Observance] = [], current: Observance?
        for line in lines where line.problem == nil {
            switch (line.name, current != nil) {
            case ("BEGIN", false) where ["STANDARD", "DAYLIGHT"].contains(line.value.uppercased()):
                current = Observance()
            case ("END", true):
                if let current { observances.append(current) }
                current = nil
            case ("DTSTART", true):
                current?.start = CivilTime.parseBasic(line.value)?.fields
            case ("TZOFFSETFROM", true):
                current?.offsetFrom = offset(line.value)
            case ("TZOFFSETTO", true):
                current?.offsetTo = offset(line.value)
            case ("RRULE", true):
                current?.rule = try? RepeatRule(String(line.value))
            case ("RDATE", true):
                current?.dates += ICalendarFormat.splitList(line.value).compactMap { CivilTime.parseBasic($0)?.fields }
            default:
                break
            }
        }
        var changes: [(moment: Int, offset: Int, from: Int)] = []
        // A zone has a handful of observances; more than this many onsets is no zone's.
        for observance in observances where changes.count < Self.mostOnsets {
            guard let onsets = observance.onsets(), let to = observance.offsetTo, let from = observance.offsetFrom
            else { continue }
            changes += onsets.prefix(Self.mostOnsets - changes.count).map { ($0, to, from) }
        }
        guard !changes.isEmpty else { return nil }
        changes.sort { $0.moment < $1.moment }
        return TimeZoneRules(
            transitions: changes.map(\.moment), offsets: changes.map(\.offset), initialOffset: changes[0].from,
            name: name)
    }

    /// Seconds east of UTC of a UTC-OFFSET value: `+0100`, `-0500`, `+053000`.
    private static func offset(_ text: Substring) -> Int? {
        let bytes = Array(Whitespace.trimmingSpaces(text).utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        let digits = bytes.dropFirst().map { Int($0 - UInt8(ascii: "0")) }
        let seconds =
            (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
            + (digits.count == 6 ? digits[4] * 10 + digits[5] : 0)
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}
