import ToDoModel
import ToDoStorage

/// iCalendar (RFC 5545): a VCALENDAR with one VTODO per item. Lines end in CRLF and are folded at
/// 75 octets; text is escaped. The address, which iCalendar has no property for, goes in
/// `X-TODO-ADDRESS`. The organising fields are iCalendar's own: `PRIORITY`, `CATEGORIES` (tags),
/// `RRULE` (the repeat rule, as kept), `DTSTART` (the start), `RELATED-TO` (the parent) and
/// `LAST-MODIFIED`.
public enum ICalendarFormat {
    /// The items as an iCalendar object. A whole-day due is written as a date
    /// (`DUE;VALUE=DATE:20300614`), a time as UTC; a start is
    /// written as the due is (RFC 5545 wants both of one kind), or by itself as a due would be;
    /// `now` is the `DTSTAMP`.
    public static func write(_ items: [ToDoItem], timeZone: TimeZoneRules, now: Date, productID: String) -> String {
        let local = CivilTime(rules: timeZone)
        func utc(_ timestamp: Double) -> String {
            CivilTime.basicDate(CivilTime.utc.fields(of: timestamp), time: true) + "Z"
        }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + escaped(productID)]
        let stamp = utc(now.timeIntervalSince1970)
        // A parent is named by its UID, as the calendar knows it.
        let uids = Dictionary(
            items.compactMap { item in item.originalUID.map { (item.id, $0) } }, uniquingKeysWith: { first, _ in first }
        )
        var zonesUsed: [String: TimeZoneRules] = [:]
        for item in items {
            lines.append("BEGIN:VTODO")
            lines.append("UID:" + item.uid)
            lines.append("DTSTAMP:" + stamp)
            if let createdAt = item.createdAt { lines.append("CREATED:" + utc(createdAt)) }
            lines.append("SUMMARY:" + escaped(item.title))
            if let description = item.itemDescription { lines.append("DESCRIPTION:" + escaped(description)) }
            // A timed series goes in the zone its rule is followed in, which the calendar then
            // follows too (RFC 5545 3.3.10); any other time in UTC.
            // Each zone read once for the whole calendar.
            let seriesZone = item.repeatZone.flatMap { name in
                (zonesUsed[name] ?? ZoneInfo.zone(named: name)).map { (name, CivilTime(rules: $0)) }
            }
            if let (name, zone) = seriesZone, zonesUsed[name] == nil { zonesUsed[name] = zone.rules }
            func date(_ name: String, _ date: ItemDate, asDay: Bool) -> String {
                if asDay {
                    return name + ";VALUE=DATE:" + CivilTime.basicDate(date.day(local: local).fields, time: false)
                }
                guard let (zoneName, zone) = seriesZone else { return name + ":" + utc(date.moment(local: local)) }
                return name + ";TZID=" + zoneName + ":"
                    + CivilTime.basicDate(zone.fields(of: date.moment(local: local)), time: true)
            }
            // RFC 5545 anchors an RRULE on DTSTART: a repeating item without a start is anchored on
            // its due (read back as no start).
            if let start = item.start ?? (item.repeatRule != nil ? item.due : nil) {
                lines.append(date("DTSTART", start, asDay: item.due?.isDay ?? start.isDay))
            }
            if let due = item.due { lines.append(date("DUE", due, asDay: due.isDay)) }
            if let rule = item.repeatRule { lines.append("RRULE:" + rule) }
            if let priority = item.priority { lines.append("PRIORITY:\(priority)") }
            if !item.tags.isEmpty { lines.append("CATEGORIES:" + item.tags.map(escaped).joined(separator: ",")) }
            if let parent = item.parent {
                lines.append("RELATED-TO;RELTYPE=PARENT:" + (uids[parent] ?? parent.uuidString))
            }
            for note in item.annotations {
                lines.append("COMMENT" + (note.time.map { ";X-TODO-TIME=" + utc($0) } ?? "") + ":" + escaped(note.text))
            }
            for field in ItemField.texts {
                guard let property = field.icalendarProperty, let text = item[text: field] else { continue }
                lines.append(
                    property.name + ":"
                        + (property.isText ? escaped(text) : PercentEncoding.encoded(text, where: Whitespace.isControl))
                )
            }
            if let location = item.location {
                lines.append("LOCATION:" + escaped(location.name))
                if let address = location.address { lines.append("X-TODO-ADDRESS:" + escaped(address)) }
                if let coordinate = location.coordinate {
                    lines.append(
                        "GEO:\(JSONValue.literal(for: coordinate.latitude));\(JSONValue.literal(for: coordinate.longitude))"
                    )
                }
            }
            lines.append("STATUS:" + (item.done ? "COMPLETED" : item.inProgress ? "IN-PROCESS" : "NEEDS-ACTION"))
            if let percent = item.percentComplete { lines.append("PERCENT-COMPLETE:\(percent)") }
            // An open task may carry a COMPLETED time its calendar gave it; it goes back as it came.
            if let completedAt = item.completedAt { lines.append("COMPLETED:" + utc(completedAt)) }
            if let modifiedAt = item.modifiedAt { lines.append("LAST-MODIFIED:" + utc(modifiedAt)) }
            let hasStart = item.start != nil || item.repeatRule != nil
            for alarm in item.alarms { lines += alarm.icalendarComponent(title: item.title, hasStart: hasStart) }
            lines += item.icalendarLines
            lines.append("END:VTODO")
        }
        // RFC 5545 wants each TZID defined in the calendar.
        for (name, rules) in zonesUsed.sorted(by: { $0.key < $1.key }) {
            lines += ICalendarTimeZones.definition(of: rules, named: name, at: now.timeIntervalSince1970)
        }
        // RFC 5545 wants a calendar to hold a component: an empty list's holds a zone, UTC.
        if items.isEmpty {
            lines += [
                "BEGIN:VTIMEZONE", "TZID:UTC", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0000",
                "TZOFFSETTO:+0000", "TZNAME:UTC", "END:STANDARD", "END:VTIMEZONE"
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(folded).joined()
    }

    /// A content line ending in CRLF, folded so that no line is longer than 75 octets: each
    /// continuation starts with a space, and no UTF-8 sequence is split.
    static func folded(_ line: String) -> String {
        var result = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.unicodeScalars.append(scalar)
            octets += size
        }
        return result + "\r\n"
    }

    static func escaped(_ text: String) -> String { ICalendarText.escaped(text) }

    static func unescaped(_ text: Substring) -> String { ICalendarText.unescaped(text) }

    // MARK: Reading

    /// A content line: `NAME;PARAM=VALUE:VALUE`, unfolded, with the line it starts on.
    struct ContentLine {
        var name: String
        var parameters: [String: String]
        var value: Substring
        var line: Int
        /// Why the line could not be read, for a line that is not `NAME:VALUE`.
        var problem: String?
        /// The line as it was, unfolded.
        var raw = ""
    }

    /// Why an import leaves out a task of `STATUS:CANCELLED` (`ImportedItem.ignoredBecause`).
    static let cancelled = "cancelled in the calendar"

    /// Reads every VTODO of `text` (other components, and components inside a VTODO such as
    /// alarms, are passed over). Dates without a zone are taken in `timeZone`; a `TZID` names an
    /// IANA zone, a zone the calendar defines in a VTIMEZONE, or a Windows zone
    /// (`ICalendarTimeZones`), and one that is none of these is read in `timeZone` too, with a
    /// problem. A recurring task's occurrences the calendar completed or changed on their own are
    /// items of their own (`withOccurrences`).
    public static func read(_ text: String, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        let local = CivilTime(rules: timeZone)
        var todos: [(properties: [ContentLine], nested: [String], line: Int)] = []
        var zoneDefinitions: [[ContentLine]] = []
        var open: [(name: String, line: Int)] = []
        var properties: [ContentLine] = []
        /// The lines of components inside the VTODO being read (its alarms), as they came.
        var nested: [String] = []
        let lines = try contentLines(text)
        // A VTODO by itself (as a calendar app hands one task over) is read as a calendar of one.
        guard let first = lines.first, first.name == "BEGIN", ["VCALENDAR", "VTODO"].contains(first.value.uppercased())
        else {
            throw ImportError(
                at: "line \(lines.first?.line ?? 1)",
                "not iCalendar: it does not start with BEGIN:VCALENDAR or BEGIN:VTODO")
        }
        for line in lines {
            // A time zone's lines, from its BEGIN to its END, are kept for `ICalendarTimeZones`.
            let beginsZone = line.name == "BEGIN" && line.value.uppercased() == "VTIMEZONE"
            if beginsZone { zoneDefinitions.append([]) }
            if beginsZone || open.contains(where: { $0.name == "VTIMEZONE" }) {
                zoneDefinitions[zoneDefinitions.count - 1].append(line)
            }
            switch line.name {
            case "BEGIN":
                let component = line.value.uppercased()
                if open.contains(where: { $0.name == "VTODO" }) { nested.append(line.raw) }
                open.append((component, line.line))
                if component == "VTODO" { (properties, nested) = ([], []) }
            case "END":
                let component = line.value.uppercased()
                guard let last = open.popLast(), last.name == component else {
                    throw ImportError(at: "line \(line.line)", "END:\(line.value) without BEGIN:\(line.value)")
                }
                if component == "VTODO" {
                    todos.append((properties, nested, last.line))
                } else if open.contains(where: { $0.name == "VTODO" }) {
                    nested.append(line.raw)
                }
            default:
                if open.last?.name == "VTODO" {
                    properties.append(line)
                } else if open.contains(where: { $0.name == "VTODO" }), line.problem == nil {
                    nested.append(line.raw)
                }
            }
        }
        if let unclosed = open.last {
            throw ImportError(at: "line \(unclosed.line)", "BEGIN:\(unclosed.name) is never ended")
        }
        var zones = ICalendarTimeZones(definitions: zoneDefinitions)
        let read = todos.map {
            todo($0.properties, nested: $0.nested, startingOn: $0.line, local: local, zones: &zones)
        }
        return withOccurrences(read, rules: timeZone)
    }

    /// The unfolded content lines (CRLF or LF; a line starting with a space or tab continues the
    /// one before), blank lines skipped.
    static func contentLines(_ text: String) throws(ImportError) -> [ContentLine] {
        var logical: [(text: String, line: Int)] = []
        for (index, line) in ItemInterchange.lines(of: text).enumerated() {
            // Compared as bytes: a space before a joiner or combining mark is one `Character`.
            if let first = line.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !logical.isEmpty
            {
                logical[logical.count - 1].text += Substring(line.utf8.dropFirst())
            } else if !line.isEmpty {
                logical.append((String(line), index + 1))
            }
        }
        var lines: [ContentLine] = []
        for (text, line) in logical {
            do {
                lines.append(try contentLine(text, line: line))
            } catch {
                // One malformed line (Synology's `PERCENT_COMPLETE:100`) is a problem of its
                // component, not of the whole calendar.
                lines.append(ContentLine(name: "", parameters: [:], value: "", line: line, problem: error.reason))
            }
        }
        return lines
    }

    /// The bytes with every character a fold splits (RFC 5545 3.1 folds at 75 octets, and some
    /// writers count bytes mid-character) put back together before the fold, so that the text
    /// decodes; lines keep their count.
    static func rejoiningSplitCharacters(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = [UInt8](), index = bytes.startIndex, changed = false
        result.reserveCapacity(bytes.count)
        while index < bytes.endIndex {
            let byte = bytes[index]
            // A fold: CRLF or LF, then a space or tab.
            let breakLength =
                byte == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A ? 2 : byte == 0x0A ? 1 : 0
            if breakLength > 0, index + breakLength < bytes.endIndex,
                bytes[index + breakLength] == 0x20 || bytes[index + breakLength] == 0x09
            {
                // Continuation bytes (10xxxxxx) right after the fold belong to a character before it.
                var next = index + breakLength + 1, moved: [UInt8] = []
                if let last = result.last, last >= 0xC0 || (last & 0xC0 == 0x80) {
                    while next < bytes.endIndex, bytes[next] & 0xC0 == 0x80 {
                        moved.append(bytes[next])
                        next += 1
                    }
                }
                if !moved.isEmpty {
                    result += moved
                    result += bytes[index..<index + breakLength + 1]
                    index = next
                    changed = true
                    continue
                }
            }
            result.append(byte)
            index += 1
        }
        return changed ? result[...] : bytes
    }

    private static func contentLine(_ text: String, line: Int) throws(ImportError) -> ContentLine {
        // The value starts after the first colon outside a quoted parameter value.
        var quoted = false
        var colon: String.Index?
        for index in text.indices {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            if character == ":", !quoted {
                colon = index
                break
            }
        }
        guard let colon else {
            throw ImportError(at: "line \(line)", "expected NAME:VALUE, found '\(text.prefix(40))'")
        }
        let head = text[..<colon].split(separator: ";", omittingEmptySubsequences: false)
        let name = head[0].uppercased()
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw ImportError(at: "line \(line)", "'\(head[0])' is not a property name")
        }
        var parameters: [String: String] = [:]
        for parameter in head.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            parameters[pair[0].uppercased()] = pair[1].trimmingQuotes
        }
        return ContentLine(
            name: name, parameters: parameters, value: text[text.index(after: colon)...], line: line, problem: nil,
            raw: text)
    }

    /// The properties todo reads (or writes anew, as `DTSTAMP`); every other one stays with the item.
    private static let readProperties = Set<String>([
        "UID", "DTSTAMP", "CREATED", "SUMMARY", "DESCRIPTION", "DUE", "DTSTART", "DURATION", "RRULE", "PRIORITY",
        "CATEGORIES",
        "LOCATION", "X-TODO-ADDRESS", "GEO", "STATUS", "PERCENT-COMPLETE", "COMPLETED", "LAST-MODIFIED", "COMMENT"
    ]).union(ItemField.texts.compactMap(\.icalendarProperty?.name))

    /// A VTODO as read: its item, and what ties it to a recurring series.
    private struct ReadTodo {
        var imported: ImportedItem
        var uid: String?
        /// The occurrence of the series with `uid` that the VTODO stands for (`RECURRENCE-ID`).
        var occurrence: Double?
        /// The problem said of it when it had no `SUMMARY`: an occurrence takes its series' instead.
        var untitledProblem: String?
    }

    /// The item of one VTODO. A value todo cannot read (a date, a coordinate, a priority, a line
    /// that is not `NAME:VALUE`) is a problem of the item, which is imported without it.
    private static func todo(
        _ properties: [ContentLine], nested: [String], startingOn line: Int, local: CivilTime,
        zones: inout ICalendarTimeZones
    ) -> ReadTodo {
        var reading = VTodoReading(properties: properties, local: local, zones: zones)
        defer { zones = reading.zones }
        return reading.todo(nested: nested, origin: "line \(line)")
    }

    /// One VTODO's properties, read into its item group by group of fields; what cannot be read
    /// is a problem, said in the order the groups are read.
    private struct VTodoReading {
        let properties: [ContentLine]
        let local: CivilTime
        var zones: ICalendarTimeZones
        var problems: [String]
        /// The RELATED-TO that names the parent, if any: the item's parent, and a line not kept as it came.
        let parentProperty: ContentLine?

        init(properties: [ContentLine], local: CivilTime, zones: ICalendarTimeZones) {
            self.properties = properties
            self.local = local
            self.zones = zones
            problems = properties.compactMap { property in
                property.problem.map { "line \(property.line): \($0); left out" }
            }
            parentProperty = properties.first {
                $0.name == "RELATED-TO" && ($0.parameters["RELTYPE"]?.uppercased() ?? "PARENT") == "PARENT"
            }
        }

        func property(_ name: String) -> ContentLine? { properties.first { $0.name == name } }

        /// The text of a TEXT property; an empty one is none.
        func text(_ name: String) -> String? {
            property(name).map { ICalendarFormat.unescaped($0.value) }.flatMap { $0.isEmpty ? nil : $0 }
        }

        /// A date (`VALUE=DATE`) as the day it names, a date-time as the moment it is.
        mutating func date(_ name: String) -> ItemDate? {
            guard let property = property(name) else { return nil }
            func unreadable(_ why: String) -> ItemDate? {
                problems.append("line \(property.line): \(property.name) '\(property.value)' \(why); left out")
                return nil
            }
            guard let parsed = CivilTime.parseBasic(property.value) else {
                return unreadable("is not a date or date-time")
            }
            guard parsed.hasTime else {
                return Day(year: parsed.fields.year, month: parsed.fields.month, day: parsed.fields.day).map(
                    ItemDate.day)
                    ?? unreadable("is not a date that exists")
            }
            var zone = local
            if parsed.utc {
                zone = .utc
            } else if let identifier = property.parameters["TZID"] {
                if let named = zones.zone(named: identifier) {
                    zone = named
                } else {
                    problems.append(
                        "line \(property.line): TZID '\(identifier)' is neither a time zone todo knows nor one the calendar "
                            + "defines; \(property.name) read as local time (\(local.rules.name))")
                }
            }
            // A local time a clock change skips is read with the offset before the change (RFC 5545 3.3.5).
            guard let localTime = CivilTime.localSeconds(of: parsed.fields) else {
                return unreadable("is not a date that exists")
            }
            let timestamp = Double(zone.moment(readingSkipped: localTime))
            guard ToDoItem.timestampRange.contains(timestamp) else { return unreadable("is not a date that exists") }
            return .time(timestamp)
        }

        /// A property's moment: a date's first moment here.
        mutating func time(_ name: String) -> Double? { date(name)?.moment(local: local) }

        mutating func todo(nested: [String], origin: String) -> ReadTodo {
            let (title, untitledProblem) = readTitle(origin: origin)
            let (id, uid, occurrence) = identity()
            let (start, due) = readStartAndDue()
            let priority = readPriority()
            let location = readLocation()
            let status = property("STATUS")?.value.uppercased()
            let completedAt = time("COMPLETED")
            var item = ToDoItem.imported(
                id: id, title: title, itemDescription: text("DESCRIPTION"), due: due, location: location,
                done: status == "COMPLETED" || (status == nil && completedAt != nil),
                createdAt: time("CREATED"), completedAt: completedAt)
            readRepeat(into: &item, start: start, due: due)
            item.fields.priority = priority
            item.fields.tags = Tags.normalized(
                properties.filter { $0.name == "CATEGORIES" }.flatMap { line in
                    ICalendarFormat.splitList(line.value).map { Tags.asTag(ICalendarFormat.unescaped($0)) }.filter {
                        !$0.isEmpty
                    }
                })
            item.fields.parent = parentProperty.map { ICalendarFormat.itemID(ofUID: $0.value) }
            item.fields.modifiedAt = time("LAST-MODIFIED")
            item.fields.inProgress = status == "IN-PROCESS" && !item.done
            let unread = readTexts(into: &item)
            readPercent(into: &item)
            keepTheRest(of: &item, title: title, unread: unread, nested: nested, start: start, due: due)
            // A UID that is not todo's id as written (`…@vm`, a lower-case UUID) goes back out as it came.
            if let uid, uid != item.id.uuidString { item.fields.originalUID = uid }
            let occurrenceMoment = occurrence == nil ? nil : time("RECURRENCE-ID")
            let imported = ImportedItem(
                item: item, origin: origin, ignoredBecause: status == "CANCELLED" ? ICalendarFormat.cancelled : nil,
                problems: problems, idIsDerived: uid == nil)
            return ReadTodo(
                imported: imported, uid: uid, occurrence: occurrenceMoment, untitledProblem: untitledProblem)
        }

        /// SUMMARY, which is optional in RFC 5545: Thunderbird shows a task without one as
        /// "Untitled", and so does todo, saying so.
        mutating func readTitle(origin: String) -> (String, untitledProblem: String?) {
            let title = text("SUMMARY").map(ToDoItem.singleLine) ?? ""
            guard title.unicodeScalars.allSatisfy(Whitespace.isSpaceOrNewline) else { return (title, nil) }
            let problem = "\(origin): the VTODO has no SUMMARY; imported as \"Untitled\""
            problems.append(problem)
            return ("Untitled", problem)
        }

        /// The item's id, from its UID (an occurrence of a series shares its UID, and is told
        /// apart by its RECURRENCE-ID); without a UID, made from the task's main properties, the
        /// same on every import.
        func identity() -> (id: UUID, uid: String?, occurrence: ContentLine?) {
            let uid = property("UID").map { String($0.value) }
            let occurrence = property("RECURRENCE-ID")
            guard let uid else {
                let main = ["SUMMARY", "DESCRIPTION", "DUE", "LOCATION", "STATUS"].map { property($0)?.value ?? "" }
                return (UUID(hashing: "ical:" + main.joined(separator: "\n")), nil, occurrence)
            }
            let id =
                occurrence.map { UUID(hashing: uid + "\nRECURRENCE-ID:" + $0.value) }
                ?? ICalendarFormat.itemID(ofUID: Substring(uid))
            return (id, uid, occurrence)
        }

        /// DTSTART and DUE; without DUE, DTSTART and DURATION imply it (RFC 5545 3.6.2): a day and
        /// whole days make a day.
        mutating func readStartAndDue() -> (start: ItemDate?, due: ItemDate?) {
            let start = date("DTSTART")
            let due = date("DUE")
            guard due == nil, let start, let duration = property("DURATION") else { return (start, due) }
            guard let seconds = ICalendarFormat.seconds(ofDuration: duration.value) else {
                problems.append(
                    "line \(duration.line): DURATION '\(duration.value)' is not a duration (as P1D or PT1H30M); left out"
                )
                return (start, nil)
            }
            let moment = start.moment(local: local) + seconds
            if case .day(let day) = start, seconds.truncatingRemainder(dividingBy: 86_400) == 0 {
                return (start, Day(number: day.number + Int(seconds / 86_400)).map(ItemDate.day))
            }
            return (start, ToDoItem.timestampRange.contains(moment) ? .time(moment) : nil)
        }

        /// PRIORITY: 0 is iCalendar's "no priority", and so is none at all (`PRIORITY:`, as some
        /// clients write).
        mutating func readPriority() -> Int? {
            guard let text = property("PRIORITY"), !text.value.allSatisfy(\.isWhitespace) else { return nil }
            guard let value = Int(Whitespace.trimmingSpaces(text.value)), (0...9).contains(value) else {
                problems.append("line \(text.line): PRIORITY '\(text.value)' is not a number from 0 to 9; left out")
                return nil
            }
            return value == 0 ? nil : value
        }

        /// LOCATION, todo's X-TODO-ADDRESS and GEO.
        mutating func readLocation() -> Location? {
            let name = text("LOCATION"), address = text("X-TODO-ADDRESS")
            var coordinate: Coordinate?
            if let geo = property("GEO") {
                let parts = geo.value.split(whereSeparator: { $0 == ";" || $0 == "," })
                if parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                    Coordinate(latitude: latitude, longitude: longitude).isValid
                {
                    coordinate = Coordinate(latitude: latitude, longitude: longitude)
                } else {
                    problems.append(
                        "line \(geo.line): GEO '\(geo.value)' is not a coordinate (expected LAT;LON); left out")
                }
            }
            guard name != nil || address != nil || coordinate != nil else { return nil }
            return Location(name: name ?? address ?? "", address: address, coordinate: coordinate)
        }

        /// RRULE, followed in its DTSTART's zone (its DUE's without one) when that is one of the
        /// zone folder's (UTC and floating times follow the zone of the moment); a series anchored
        /// on its due (as RFC 5545 wants, and phones write it) has no start of its own.
        mutating func readRepeat(into item: inout ToDoItem, start: ItemDate?, due: ItemDate?) {
            item.fields.repeatRule = property("RRULE").map { String($0.value) }
            if item.fields.repeatRule != nil, let anchor = property("DTSTART") ?? property("DUE"),
                (start ?? due)?.isDay == false,
                let tzid = anchor.parameters["TZID"], let name = zones.zone(named: tzid)?.rules.name,
                ZoneInfo.zone(named: name) != nil
            {
                item.fields.repeatZone = name
            }
            item.fields.start = item.fields.repeatRule != nil && start == due ? nil : start
        }

        /// The text fields' properties (`ItemField.icalendarProperty`) and each COMMENT a note,
        /// dated by the X-TODO-TIME todo gives it (another program's has none); returns the lines
        /// that could not be read, to be kept as they came.
        mutating func readTexts(into item: inout ToDoItem) -> Set<Int> {
            var unread: Set<Int> = []
            func isOneLine(_ text: String, _ line: ContentLine) -> Bool {
                guard ItemField.isOneLine(text) else {
                    problems.append(
                        "line \(line.line): \(line.name) is not one line (it holds a line break or a control character); kept as it came"
                    )
                    unread.insert(line.line)
                    return false
                }
                return true
            }
            for field in ItemField.texts {
                guard let name = field.icalendarProperty?.name, let line = property(name), !line.value.isEmpty else {
                    continue
                }
                let text =
                    field.icalendarProperty?.isText == true ? ICalendarFormat.unescaped(line.value) : String(line.value)
                if isOneLine(text, line) { item[text: field] = text }
            }
            for line in properties where line.name == "COMMENT" {
                let text = ICalendarFormat.unescaped(line.value)
                guard !text.isEmpty, isOneLine(text, line) else { continue }
                let time = line.parameters["X-TODO-TIME"].flatMap { CivilTime.parseBasic(Substring($0)) }.flatMap {
                    $0.utc ? CivilTime.utc.timestamp(of: $0.fields) : nil
                }
                item.fields.annotations.append(Annotation(time: time, text: text))
            }
            return unread
        }

        /// PERCENT-COMPLETE.
        mutating func readPercent(into item: inout ToDoItem) {
            guard let percent = property("PERCENT-COMPLETE") else { return }
            if let value = Int(Whitespace.trimmingSpaces(percent.value)), ToDoItem.percentRange.contains(value) {
                item.fields.percentComplete = value
            } else {
                problems.append(
                    "line \(percent.line): PERCENT-COMPLETE '\(percent.value)' is not a number from 0 to 100; left out")
            }
        }

        /// What todo has no field for goes back out as it came: its properties (and those it
        /// could not read), then its components; its alarms are the item's reminders, but those
        /// whose triggers todo cannot place.
        func keepTheRest(
            of item: inout ToDoItem, title: String, unread: Set<Int>, nested: [String], start: ItemDate?, due: ItemDate?
        ) {
            let parentLine = parentProperty?.line
            item.fields.icalendarLines = properties.filter { property in
                property.problem == nil
                    && (!ICalendarFormat.readProperties.contains(property.name) || unread.contains(property.line))
                    && !(property.name == "RELATED-TO" && property.line == parentLine)
            }.map(\.raw)
            let (alarms, otherComponents) = Alarm.reading(
                components: nested, hasStart: start != nil, hasDue: due != nil, title: title)
            item.fields.alarms = alarms
            item.fields.icalendarLines += otherComponents
        }
    }
}

extension ICalendarFormat {
    /// The items of the VTODOs read, with what a recurring series' occurrences say of it. A VTODO
    /// with the UID of a series and a `RECURRENCE-ID` (Thunderbird and eM Client write one for each
    /// occurrence checked, or moved) is an item of its own: done with the due of its occurrence,
    /// or open with its own; its lines, the `RECURRENCE-ID` among them, go back out with the
    /// series' UID. A part it leaves out, as its `SUMMARY`, is the series'. The series itself is
    /// at its first occurrence that has no VTODO of its own (a cancelled one has one), its `COUNT`
    /// lowered by those passed, and done when none is left.
    private static func withOccurrences(_ todos: [ReadTodo], rules: TimeZoneRules) -> [ImportedItem] {
        var seriesIndex: [String: Int] = [:]
        for (index, todo) in todos.enumerated() where todo.occurrence == nil && todo.imported.item.repeatRule != nil {
            if let uid = todo.uid, seriesIndex[uid] == nil { seriesIndex[uid] = index }
        }
        var items = todos.map(\.imported)
        for (uid, index) in seriesIndex {
            let occurrences = todos.indices.filter { todos[$0].uid == uid && todos[$0].occurrence != nil }
            guard !occurrences.isEmpty else { continue }
            let series = items[index].item
            for position in occurrences {
                guard let untitled = todos[position].untitledProblem else { continue }
                items[position].item.title = series.title
                items[position].problems.removeAll { $0 == untitled }
            }
            let named = Set(occurrences.compactMap { todos[$0].occurrence })
            guard let text = series.repeatRule, var rule = try? RepeatRule(text), rule.canBeFollowed else { continue }
            let local = CivilTime(rules: series.seriesRules(else: rules))
            var moved = series
            // An occurrence is named by the series' DTSTART, or its DUE without one.
            while let name = (moved.start ?? moved.due)?.moment(local: local), named.contains(name),
                let anchor = moved.occurrence
            {
                guard
                    let (next, nextRule) = rule.nextOccurrence(
                        after: anchor, now: anchor.moment(local: local), local: local)
                else {
                    // Every occurrence is done: so is the series.
                    moved = ToDoItem(id: moved.id, number: 0, done: true, fields: moved.fields)
                    moved.fields.completedAt = occurrences.compactMap {
                        items[$0].item.done ? items[$0].item.completedAt : nil
                    }.max()
                    break
                }
                rule = nextRule
                moved = moved.movedToOccurrence(next, rule: rule, local: local)
            }
            items[index].item = moved
        }
        return items
    }

    /// The seconds an RFC 5545 DURATION names (`P1W`, `P2D`, `PT1H30M`, `P1DT12H`); `nil` for other
    /// text, and for a negative one (a due before the start).
    static func seconds(ofDuration text: Substring) -> Double? {
        ICalendarText.seconds(ofDuration: text).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The id of the item a UID names: the UID itself when it is a UUID, else one made from it.
    static func itemID(ofUID uid: Substring) -> UUID {
        let text = String(uid)
        return UUID(uuidString: text.hasPrefix("urn:uuid:") ? String(text.dropFirst(9)) : text) ?? UUID(hashing: text)
    }

    /// The parts of a list value (`CATEGORIES:a,b\,c`): split at commas that are not escaped.
    static func splitList(_ value: Substring) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex, escaping = false
        for index in value.indices {
            if escaping {
                escaping = false
            } else if value[index] == "\\" {
                escaping = true
            } else if value[index] == "," {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        parts.append(value[start...])
        return parts
    }
}

private extension Substring {
    var trimmingQuotes: String {
        count >= 2 && first == "\"" && last == "\"" ? String(dropFirst().dropLast()) : String(self)
    }
}

extension UUID {
    /// A UUID made from `text`, the same each time: a calendar's UIDs need not be UUIDs, and
    /// importing one twice must find the item imported the first time.
    init(hashing text: String) {
        // Two 64-bit FNV-1a hashes with different offsets, marked as version 8 (custom), variant 1.
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: first >> (8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: second >> (8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        self.init(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
