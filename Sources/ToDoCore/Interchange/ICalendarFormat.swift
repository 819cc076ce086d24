import Foundation

/// iCalendar (RFC 5545): a VCALENDAR with one VTODO per item. Lines end in CRLF and are folded at
/// 75 octets; text is escaped. The address, which iCalendar has no property for, goes in
/// `X-TODO-ADDRESS`.
public enum ICalendarFormat {
    /// The items as an iCalendar object. A due date at local midnight in `timeZone` is written as
    /// a date (`DUE;VALUE=DATE:20300614`), any other as a UTC time; `now` is the `DTSTAMP`.
    public static func write(_ items: [ToDoItem], timeZone: TimeZoneRules, now: Date, productID: String) -> String {
        let local = CivilTime(rules: timeZone)
        func utc(_ timestamp: Double) -> String { CivilTime.basicDate(CivilTime.utc.fields(of: timestamp), time: true) + "Z" }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + escaped(productID)]
        let stamp = utc(now.timeIntervalSince1970)
        for item in items {
            lines.append("BEGIN:VTODO")
            lines.append("UID:" + item.id.uuidString)
            lines.append("DTSTAMP:" + stamp)
            if let createdAt = item.createdAt { lines.append("CREATED:" + utc(createdAt)) }
            lines.append("SUMMARY:" + escaped(item.title))
            if let description = item.itemDescription { lines.append("DESCRIPTION:" + escaped(description)) }
            if let timestamp = item.timestamp {
                let fields = local.fields(of: timestamp)
                lines.append(fields.isMidnight ? "DUE;VALUE=DATE:" + CivilTime.basicDate(fields, time: false) : "DUE:" + utc(timestamp))
            }
            if let location = item.location {
                lines.append("LOCATION:" + escaped(location.name))
                if let address = location.address { lines.append("X-TODO-ADDRESS:" + escaped(address)) }
                if let coordinate = location.coordinate {
                    lines.append("GEO:\(JSONValue.literal(for: coordinate.latitude));\(JSONValue.literal(for: coordinate.longitude))")
                }
            }
            lines.append("STATUS:" + (item.done ? "COMPLETED" : "NEEDS-ACTION"))
            if item.done, let completedAt = item.completedAt { lines.append("COMPLETED:" + utc(completedAt)) }
            lines.append("END:VTODO")
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

    /// TEXT as RFC 5545 writes it: backslash, semicolon, comma and line breaks escaped. Other
    /// control characters, which TEXT may not hold, are left out.
    static func escaped(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r":
                result += "\\n"
                if pending == "\n" { pending = scalars.next() }
            case "\n": result += "\\n"
            case "\t": result += "\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func unescaped(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: Reading

    /// A content line: `NAME;PARAM=VALUE:VALUE`, unfolded, with the line it starts on.
    struct ContentLine {
        var name: String
        var parameters: [String: String]
        var value: Substring
        var line: Int
    }

    /// Reads every VTODO of `text` (other components, and components inside a VTODO such as
    /// alarms, are passed over). Dates without a zone are taken in `timeZone`, as are dates in a
    /// `TZID` this system does not know.
    public static func read(_ text: String, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        let local = CivilTime(rules: timeZone)
        var items: [ImportedItem] = []
        var open: [(name: String, line: Int)] = []
        var properties: [ContentLine] = []
        for line in try contentLines(text) {
            switch line.name {
            case "BEGIN":
                let component = line.value.uppercased()
                open.append((component, line.line))
                if component == "VTODO" { properties = [] }
            case "END":
                let component = line.value.uppercased()
                guard let last = open.popLast(), last.name == component else {
                    throw ImportError(at: "line \(line.line)", "END:\(line.value) without BEGIN:\(line.value)")
                }
                if component == "VTODO" {
                    items.append(try item(properties, startingOn: last.line, local: local))
                }
            default:
                if open.last?.name == "VTODO" { properties.append(line) }
            }
        }
        if let unclosed = open.last {
            throw ImportError(at: "line \(unclosed.line)", "BEGIN:\(unclosed.name) is never ended")
        }
        return items
    }

    /// The unfolded content lines (CRLF or LF; a line starting with a space or tab continues the
    /// one before), blank lines skipped.
    static func contentLines(_ text: String) throws(ImportError) -> [ContentLine] {
        var logical: [(text: String, line: Int)] = []
        for (index, line) in ItemInterchange.lines(of: text).enumerated() {
            // Compared as bytes: a space before a joiner or combining mark is one `Character`.
            if let first = line.utf8.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !logical.isEmpty {
                logical[logical.count - 1].text += Substring(line.utf8.dropFirst())
            } else if !line.isEmpty {
                logical.append((String(line), index + 1))
            }
        }
        var lines: [ContentLine] = []
        for (text, line) in logical {
            lines.append(try contentLine(text, line: line))
        }
        return lines
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
        guard let colon else { throw ImportError(at: "line \(line)", "expected NAME:VALUE, found '\(text.prefix(40))'") }
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
        return ContentLine(name: name, parameters: parameters, value: text[text.index(after: colon)...], line: line)
    }

    private static func item(_ properties: [ContentLine], startingOn line: Int, local: CivilTime) throws(ImportError) -> ImportedItem {
        let origin = "line \(line)"
        func property(_ name: String) -> ContentLine? { properties.first { $0.name == name } }
        func time(_ property: ContentLine) throws(ImportError) -> (timestamp: Double, hasTime: Bool) {
            let position = "line \(property.line)"
            guard let parsed = CivilTime.parseBasic(property.value) else {
                throw ImportError(at: position, "\(property.name) '\(property.value)' is not a date or date-time")
            }
            var zone = local
            if parsed.utc {
                zone = .utc
            } else if let identifier = property.parameters["TZID"], let named = TimeZone(identifier: identifier) {
                zone = CivilTime(timeZone: named)
            }
            guard let timestamp = zone.timestamp(of: parsed.fields), ToDoItem.timestampRange.contains(timestamp) else {
                throw ImportError(at: position, "\(property.name) '\(property.value)' is not a date that exists here")
            }
            return (timestamp, parsed.hasTime)
        }

        guard let summary = property("SUMMARY") else { throw ImportError(at: origin, "the VTODO has no SUMMARY") }
        let title = ToDoItem.singleLine(unescaped(summary.value))
        // Without a UID, the id is made from the task's main properties, the same on every import.
        var id = UUID(hashing: "ical:" + ["SUMMARY", "DESCRIPTION", "DUE", "LOCATION", "STATUS"].map { property($0)?.value ?? "" }.joined(separator: "\n"))
        if let uid = property("UID") {
            let text = String(uid.value)
            id = UUID(uuidString: text.hasPrefix("urn:uuid:") ? String(text.dropFirst(9)) : text) ?? UUID(hashing: text)
        }
        let description = property("DESCRIPTION").map { unescaped($0.value) }
        let timestamp = try property("DUE").map { property throws(ImportError) in try time(property).timestamp }
        var location: Location?
        let name = property("LOCATION").map { unescaped($0.value) }
        let address = property("X-TODO-ADDRESS").map { unescaped($0.value) }
        var coordinate: Coordinate?
        if let geo = property("GEO") {
            let parts = geo.value.split(whereSeparator: { $0 == ";" || $0 == "," })
            guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                  Coordinate(latitude: latitude, longitude: longitude).isValid else {
                throw ImportError(at: "line \(geo.line)", "GEO '\(geo.value)' is not a coordinate; expected LAT;LON")
            }
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        if name != nil || address != nil || coordinate != nil {
            location = Location(name: name ?? address ?? "", address: address, coordinate: coordinate)
        }
        let status = property("STATUS")?.value.uppercased()
        let completedAt = try property("COMPLETED").map { property throws(ImportError) in try time(property).timestamp }
        let createdAt = try property("CREATED").map { property throws(ImportError) in try time(property).timestamp }
        let item = ToDoItem.imported(id: id, title: title, itemDescription: description, timestamp: timestamp, location: location,
                                     done: status == "COMPLETED" || (status == nil && completedAt != nil),
                                     createdAt: createdAt, completedAt: completedAt)
        return ImportedItem(item: item, origin: origin, ignoredBecause: status == "CANCELLED" ? "cancelled in the calendar" : nil)
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
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
