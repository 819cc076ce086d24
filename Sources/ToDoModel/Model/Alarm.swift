/// A reminder of an item: when it rings, as iCalendar's `VALARM` says it, before (or after) the
/// due or the start, or at a moment; and what else the alarm held that todo does not read (a
/// phone's sound, `REPEAT`, `ACKNOWLEDGED`, `X-…`), kept as it came and written back.
public struct Alarm: Hashable, Sendable {
    public enum Trigger: Hashable, Sendable {
        /// Seconds before the due (after it, when negative): iCalendar's `TRIGGER;RELATED=END`.
        case beforeDue(Int)
        /// Seconds before the start (after it, when negative): a bare relative `TRIGGER`.
        case beforeStart(Int)
        /// A moment, in seconds since 1970: `TRIGGER;VALUE=DATE-TIME`.
        case at(Double)
    }

    public var trigger: Trigger
    /// The `VALARM`'s lines but its `BEGIN`, `END` and `TRIGGER`, unfolded, as they came; todo's
    /// own alarms have none, and are written `ACTION:DISPLAY` with the item's title.
    public var icalendarLines: [String]

    public init(_ trigger: Trigger, icalendarLines: [String] = []) {
        self.trigger = trigger
        self.icalendarLines = icalendarLines
    }

    /// Whether a reminder rings for it: todo's own alarms (no action), and a calendar's `DISPLAY`
    /// and `AUDIO` ones; an `EMAIL` or `PROCEDURE` alarm is another program's to act on, kept
    /// and written back but never run here.
    public var rings: Bool {
        guard let action = icalendarLines.lazy.compactMap(ICalendarText.parts).first(where: { $0.name == "ACTION" })
        else { return true }
        return ["DISPLAY", "AUDIO"].contains(action.value.uppercased())
    }

    /// The longest a reminder may come before or after its date: a hundred years, in seconds.
    public static let longestOffset = 3_155_760_000

    /// When the alarm rings for `item`, in seconds since 1970: a whole day counts from its start
    /// here (`local`). `nil` when the date it counts from is gone, or the moment is past the years
    /// todo shows.
    package func moment(of item: ToDoItem, local: CivilTime) -> Double? {
        let moment: Double
        switch trigger {
        case .at(let time): moment = time
        case .beforeDue(let seconds):
            guard let due = item.due else { return nil }
            moment = due.moment(local: local) - Double(seconds)
        case .beforeStart(let seconds):
            guard let start = item.start ?? item.due else { return nil }
            moment = start.moment(local: local) - Double(seconds)
        }
        return ToDoItem.timestampRange.contains(moment) ? moment : nil
    }

    /// When the alarm rings for `item`, as `moment(of:local:)` says, in the zone `rules` gives.
    public func moment(of item: ToDoItem, in rules: TimeZoneRules) -> Double? {
        moment(of: item, local: CivilTime(rules: rules))
    }

    /// Whether it counts from the due or the start, which the item must then have.
    public var isRelative: Bool {
        if case .at = trigger { false } else { true }
    }

    /// The alarm moved by `seconds` when its item moves to its next occurrence: a moment moves
    /// with the due; one counted from a date moves with it already.
    package func moved(by seconds: Double) -> Alarm {
        guard case .at(let time) = trigger, ToDoItem.timestampRange.contains(time + seconds) else { return self }
        var moved = self
        moved.trigger = .at(time + seconds)
        return moved
    }
}

// MARK: The file's form

extension Alarm {
    /// As the file and `--json` keep it: `{"before": 900}` (seconds before the due),
    /// `{"before": 900, "of": "start"}`, `{"at": 1795765610}`; with `"icalendar"`, the lines kept.
    public var json: JSONValue {
        var object = JSONObject()
        switch trigger {
        case .beforeDue(let seconds): object["before"] = .number(String(seconds))
        case .beforeStart(let seconds):
            object["before"] = .number(String(seconds))
            object["of"] = .string("start")
        case .at(let time): object["at"] = .number(JSONValue.literal(for: time))
        }
        if !icalendarLines.isEmpty { object["icalendar"] = .array(icalendarLines.map(JSONValue.string)) }
        return .object(object)
    }

    /// The alarms of the file's `"alarms"` array; `nil` for anything else (kept as another
    /// program's member).
    public static func list(from value: JSONValue) -> [Alarm]? {
        guard case .array(let elements) = value else { return nil }
        var alarms: [Alarm] = []
        alarms.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let object) = element else { return nil }
            let trigger: Trigger
            switch (object["before"], object["at"], object["of"]) {
            case (.number(let literal)?, nil, let of):
                guard let seconds = Int(literal), abs(seconds) <= longestOffset else { return nil }
                switch of {
                case nil: trigger = .beforeDue(seconds)
                case .string("start")?: trigger = .beforeStart(seconds)
                default: return nil
                }
            case (nil, .number(let literal)?, nil):
                guard let time = Double(literal), ToDoItem.timestampRange.contains(time) else { return nil }
                trigger = .at(time)
            default: return nil
            }
            var lines: [String] = []
            switch object["icalendar"] {
            case nil: break
            case .array(let kept)?:
                for line in kept {
                    guard case .string(let text) = line else { return nil }
                    lines.append(text)
                }
            default: return nil
            }
            guard object.keys.allSatisfy(["before", "of", "at", "icalendar"].contains) else { return nil }
            alarms.append(Alarm(trigger, icalendarLines: lines))
        }
        return alarms
    }
}

// MARK: iCalendar

extension Alarm {
    /// The VALARM that says the alarm, for an item titled `title`: the lines kept, after an
    /// `ACTION:DISPLAY` and a `DESCRIPTION` of the title where they say no action (RFC 5545 wants
    /// a display alarm to have both); a `DESCRIPTION` of the title goes with a kept `ACTION:DISPLAY`
    /// too.
    /// `hasStart`: whether the VTODO written has a `DTSTART`; one counted from a start the item
    /// no longer has counts from its due.
    package func icalendarComponent(title: String, hasStart: Bool) -> [String] {
        var lines = ["BEGIN:VALARM"]
        let parts = icalendarLines.compactMap(ICalendarText.parts)
        let action = parts.first { $0.name == "ACTION" }
        if action == nil { lines.append("ACTION:DISPLAY") }
        if action.map({ $0.value.uppercased() == "DISPLAY" }) ?? true,
            !parts.contains(where: { $0.name == "DESCRIPTION" })
        {
            lines.append("DESCRIPTION:" + ICalendarText.escaped(title))
        }
        switch trigger {
        case .beforeStart(let seconds) where hasStart:
            lines.append("TRIGGER;RELATED=START:" + ICalendarText.duration(seconds: -seconds))
        case .beforeDue(let seconds), .beforeStart(let seconds):
            lines.append("TRIGGER;RELATED=END:" + ICalendarText.duration(seconds: -seconds))
        case .at(let time):
            lines.append(
                "TRIGGER;VALUE=DATE-TIME:" + CivilTime.basicDate(CivilTime.utc.fields(of: time), time: true) + "Z")
        }
        return lines + icalendarLines + ["END:VALARM"]
    }

    /// The alarms among a VTODO's components (`lines`: theirs, unfolded, `BEGIN` to `END`), and
    /// the lines of the rest, an alarm todo cannot place among them (a trigger it does not read),
    /// kept as they came. `hasStart`: whether the VTODO has a `DTSTART`, which a bare relative
    /// trigger counts from, else from the due (`hasDue`; one counted from a date the VTODO lacks is
    /// not placed); `title`: its `SUMMARY`, which an alarm's
    /// `DESCRIPTION` repeating it (as todo writes one) need not be kept for.
    package static func reading(
        components lines: [String], hasStart: Bool, hasDue: Bool, title: String
    ) -> (alarms: [Alarm], rest: [String]) {
        var alarms: [Alarm] = [], rest: [String] = []
        var component: [String] = [], depth = 0
        for line in lines {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") { depth += 1 }
            component.append(line)
            if upper.hasPrefix("END:") { depth -= 1 }
            guard depth <= 0 else { continue }
            if let alarm = alarm(of: component, hasStart: hasStart, hasDue: hasDue, title: title) {
                alarms.append(alarm)
            } else {
                rest += component
            }
            component = []
            depth = 0
        }
        return (alarms, rest + component)
    }

    /// The alarm a whole `VALARM` component says, when its trigger is one todo reads.
    private static func alarm(of component: [String], hasStart: Bool, hasDue: Bool, title: String) -> Alarm? {
        guard component.count >= 2, component[0].uppercased() == "BEGIN:VALARM",
            component[component.count - 1].uppercased() == "END:VALARM"
        else { return nil }
        let inner = component.dropFirst().dropLast()
        // A component inside the alarm is more than todo reads of one.
        guard !inner.contains(where: { $0.uppercased().hasPrefix("BEGIN:") }) else { return nil }
        var trigger: Trigger?, kept: [String] = []
        let lines = inner.map { ($0, ICalendarText.parts(of: $0)) }
        // A display alarm as todo writes one: its action and the title it shows are written anew.
        let isDisplay = lines.contains {
            $0.1.map { $0.name == "ACTION" && $0.value.uppercased() == "DISPLAY" && $0.parameters.isEmpty } ?? false
        }
        for (line, parts) in lines {
            guard let parts else { return nil }
            switch parts.name {
            case "TRIGGER":
                guard trigger == nil,
                    let read = Self.trigger(
                        parts.value, parameters: parts.parameters, hasStart: hasStart, hasDue: hasDue)
                else { return nil }
                trigger = read
            case "ACTION" where isDisplay: continue
            case "DESCRIPTION"
            where isDisplay && parts.parameters.isEmpty && ICalendarText.unescaped(parts.value) == title: continue
            default: kept.append(line)
            }
        }
        return trigger.map { Alarm($0, icalendarLines: kept) }
    }

    private static func trigger(
        _ value: Substring, parameters: [String: String], hasStart: Bool, hasDue: Bool
    ) -> Trigger? {
        if parameters["VALUE"]?.uppercased() == "DATE-TIME" {
            // RFC 5545 wants a trigger's moment in UTC; a time without its zone is not one.
            guard let parsed = CivilTime.parseBasic(value), parsed.utc, parsed.hasTime,
                let time = CivilTime.utc.timestamp(of: parsed.fields), ToDoItem.timestampRange.contains(time)
            else { return nil }
            return .at(time)
        }
        guard let seconds = ICalendarText.seconds(ofDuration: value), abs(seconds) <= Double(longestOffset) else {
            return nil
        }
        let before = -Int(seconds)
        switch parameters["RELATED"]?.uppercased() {
        case "END"? where hasDue: return .beforeDue(before)
        case nil, "START"?: return hasStart ? .beforeStart(before) : hasDue ? .beforeDue(before) : nil
        default: return nil
        }
    }
}
