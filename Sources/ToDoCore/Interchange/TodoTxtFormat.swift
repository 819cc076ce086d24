import ToDoModel
import ToDoStorage

/// todo.txt (http://todotxt.org): one item per line: `x` and the completion date for done items,
/// the priority `(A)` (first on the line, or it is none), the creation date, the title, and
/// `key:value` tags.
///
/// The mapping, both ways:
/// - priority `(A)` to `(I)` is iCalendar's 1 to 9 (`(A)` high, `(E)` medium, `(I)` low: Taskwarrior's
///   H, M, L); `(J)` to `(Z)` are 9 too, the letter kept and given back, and sorted after `(I)` in
///   their order. A done line keeps its priority as `pri:A`, as topydo and Simpletask write it.
/// - `+project` and `@context` are tags: `+home` the tag `home`, `@phone` the tag `@phone`, and
///   words of the title where they stand (a list shows them once, in the title), written back
///   where they came; an item's project and other tags are written as `+project` at the end.
/// - `due:` the due date (`2030-06-14` a whole day, `T18:00` a time, with an offset such as
///   `+01:00` when the local time occurs twice), `t:` the start (todo.txt's threshold), `rec:` the
///   repeat (`+1d`, `+2w`, `+1m`, `+1y`, `1b` for weekdays: todo repeats from the due, todo.txt's
///   strict `+`; a `rec:1m` read from a line, which repeats from the completion elsewhere, is
///   given back as it came), and for what todo.txt has no place for: `rrule:` (a repeat rule `rec:`
///   cannot say), `parent:` (an id), `id:` (the UUID; `uuid:` on a line that has another tool's
///   `id:`), `desc:`, `loc:` and `addr:` (percent-encoded: `%20` for a space), `geo:lat,lon`;
///   `tag:` is read, as earlier versions wrote tags.
/// - Every other `key:value` word (`h:1`, topydo's `id:1` and `p:1`, `thr:`) is todo.txt's own:
///   kept with the item, out of the title, and written back at the end of its line. Other words
///   (`Re:`, `http://…`, `10:30`) stay in the title.
public enum TodoTxtFormat {
    /// The items as todo.txt lines, dates in `timeZone`.
    public static func write(_ items: [ToDoItem], timeZone: TimeZoneRules) -> String {
        let time = CivilTime(rules: timeZone)
        var text = ""
        for item in items {
            let kept = item.foreignMembers.members(from: ForeignMembers.todoTxt)
            // A line read from todo.txt goes back as it came while it still says what the item
            // holds (an import and export give the file back byte for byte, but for todo's id).
            if case .string(let line)? = kept["line"], let asItCame = Self.line(line, ifItSays: item, time: time) {
                text += asItCame + "\n"
                continue
            }
            var words: [String] = []
            let priority = item.priority.map { Self.letter(of: $0, kept: kept) }
            if item.done {
                words.append("x")
                if let completedAt = item.completedAt {
                    words.append(CivilTime.isoDate(time.fields(of: completedAt)))
                    // A creation date alone after `x` would read as the completion date.
                    if let createdAt = item.createdAt { words.append(CivilTime.isoDate(time.fields(of: createdAt))) }
                }
            } else {
                if let priority { words.append("(\(priority))") }
                if let createdAt = item.createdAt { words.append(CivilTime.isoDate(time.fields(of: createdAt))) }
            }
            words.append(item.title)
            if item.done, let priority { words.append("pri:" + priority) }
            if let due = item.due { words.append("due:" + time.isoText(of: due)) }
            if let start = item.start { words.append("t:" + time.isoText(of: start)) }
            if let rule = item.repeatRule {
                if case .string(let rec)? = kept["rec"], let read = Self.rule(ofRecurrence: Substring(rec)),
                    RepeatRule.endlessCadence(of: read) == RepeatRule.endlessCadence(of: rule)
                {
                    words.append("rec:" + rec)
                } else if let rec = recurrence(ofRule: rule) {
                    words.append("rec:" + rec)
                } else {
                    words.append("rrule:" + encoded(rule))
                }
            }
            // A tag the title holds as a word (a line read whole) is written once, where it is.
            if let project = item.project, Tags.isValid(project), !Tags.contains(item.tags, project),
                Tags.notInTitle([project], title: item.title) == [project]
            {
                words.append("+" + project)
            }
            words += Tags.notInTitle(item.tags, title: item.title).map(Tags.shown)
            if let parent = item.parent { words.append("parent:" + parent.uuidString) }
            if let description = item.itemDescription, !description.isEmpty {
                words.append("desc:" + encoded(description))
            }
            for field in ItemField.texts {
                if let key = field.todoTxtKey, let text = item[text: field], !text.isEmpty {
                    words.append(key + ":" + encoded(text))
                }
            }
            if let location = item.location {
                if !location.name.isEmpty { words.append("loc:" + encoded(location.name)) }
                if let address = location.address, !address.isEmpty { words.append("addr:" + encoded(address)) }
                if let coordinate = location.coordinate {
                    words.append(
                        "geo:\(JSONValue.literal(for: coordinate.latitude)),\(JSONValue.literal(for: coordinate.longitude))"
                    )
                }
            }
            // Another tool's words, as they came; its `id:` keeps the name, and todo's id goes as `uuid:`.
            var otherWords: [String] = []
            if case .array(let values)? = kept["words"] { otherWords = values.compactMap(\.string) }
            words += otherWords
            words.append((otherWords.contains { $0.hasPrefix("id:") } ? "uuid:" : "id:") + item.id.uuidString)
            text += words.joined(separator: " ") + "\n"
        }
        return text
    }

    /// The fields a todo.txt line holds, which a line kept from an import must still say.
    private static let fieldsALineHolds = ItemField.allCases.filter { ![.progress, .annotations, .alarms].contains($0) }

    /// `line` as it came (with todo's id after it, when it has none), when reading it gives what
    /// `item` holds of the fields a line holds; `nil` once the item changed.
    private static func line(_ line: String, ifItSays item: ToDoItem, time: CivilTime) -> String? {
        let read = Self.item(in: Substring(line), time: time, origin: "").item
        guard fieldsALineHolds.allSatisfy({ $0.isSame(in: read, as: item) }),
            read.foreignMembers.members(from: ForeignMembers.todoTxt).removing("line")
                == item.foreignMembers.members(from: ForeignMembers.todoTxt).removing("line")
        else { return nil }
        if read.id == item.id, line.split(separator: " ").contains(where: { $0.hasSuffix(":" + item.id.uuidString) }) {
            return line
        }
        let hasOtherID = line.split(separator: " ").contains { $0.hasPrefix("id:") }
        return line + (hasOtherID ? " uuid:" : " id:") + item.id.uuidString
    }

    /// The letter of `priority`: `A` to `I` for 1 to 9, or the letter after `I` the line had when
    /// the item is still at 9.
    private static func letter(of priority: Int, kept: JSONObject) -> String {
        if priority == 9, case .string(let letter)? = kept["pri"], letter.count == 1, ("J"..."Z").contains(letter) {
            return letter
        }
        return String(UnicodeScalar(UInt8(ascii: "A") + UInt8(priority - 1)))
    }

    // MARK: Reading

    /// Reads todo.txt lines (LF or CRLF; blank lines skipped; white space at either end trimmed).
    /// A value todo cannot read (`due:someday`) is a problem of its line: the word stays in the title.
    public static func read(_ text: String, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        let time = CivilTime(rules: timeZone)
        var items: [ImportedItem] = []
        for (index, line) in ItemInterchange.lines(of: text).enumerated() {
            let trimmed = Whitespace.trimmingSpaces(line)
            guard !trimmed.isEmpty else { continue }
            items.append(item(in: Substring(trimmed), time: time, origin: "line \(index + 1)"))
        }
        return items
    }

    private static func item(in line: Substring, time: CivilTime, origin: String) -> ImportedItem {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        var reading = LineReading(time: time, origin: origin)
        reading.readStatusAndDates(&words)
        for word in words { reading.read(word) }
        return reading.importedItem(of: line)
    }

    /// What one todo.txt line says, read as todo.sh reads it: its status, priority and dates
    /// first, then word by word, each `key:value` word by the group of fields it gives.
    private struct LineReading {
        let time: CivilTime
        let origin: String
        var problems: [String] = []
        var done = false, completedAt: Double?, createdAt: Double?, priority: Int?
        var titleWords: [Substring] = []
        /// What todo.txt gave that todo has no field for (`ForeignMembers.todoTxt`).
        var kept = JSONObject(), otherWords: [JSONValue] = []
        var due: ItemDate?, start: ItemDate?, rule: String?, tags: [String] = [], parent: UUID?, id: UUID?
        var description: String?, name: String?, address: String?, coordinate: Coordinate?
        var texts: [(ItemField, String)] = []

        init(time: CivilTime, origin: String) {
            self.time = time
            self.origin = origin
        }

        /// The date a whole word names, if it is one that exists.
        func date(_ word: Substring?) -> Double? {
            guard let word, word.utf8.count == 10, let fields = CivilTime.parseISO(word) else { return nil }
            return time.timestamp(of: fields)
        }

        /// A letter after `I`, kept beside the priority 9 it is.
        mutating func keepLetter(_ level: Int) -> Int {
            if level > 9 { kept["pri"] = .string(String(UnicodeScalar(UInt8(ascii: "A") + UInt8(level - 1)))) }
            return min(level, 9)
        }

        /// `x` and the completion date, or the priority; then the creation date.
        mutating func readStatusAndDates(_ words: inout ArraySlice<Substring>) {
            if words.first == "x" {
                done = true
                words.removeFirst()
                // A date that does not exist (2012-14-11) is text, as todo.sh reads it.
                if let completed = date(words.first) {
                    completedAt = completed
                    words.removeFirst()
                }
            } else if let first = words.first, let level = TodoTxtFormat.priorityLevel(first) {
                words.removeFirst()
                priority = keepLetter(level)
            }
            if let created = date(words.first) {
                createdAt = created
                words.removeFirst()
            }
        }

        /// A tag, a `key:value` word, or a word of the title.
        mutating func read(_ word: Substring) {
            // A `+project` or `@context` is a tag, and a word of the title where it stands: `Talk
            // to +Mom about the @phone bill` is one sentence.
            if let (tag, _) = Tags.tag(inWord: String(word)) {
                tags.append(tag)
                titleWords.append(word)
                return
            }
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else {
                titleWords.append(word)
                return
            }
            let key = word[..<colon], value = word[word.index(after: colon)...]
            if readSchedule(key, value, word) || readOrganising(key, value, word) || readPlace(key, value, word) {
                return
            }
            readText(key, value, word)
        }

        /// `due:`, `t:` (the start), `rec:` and `rrule:`; whether `key` is one of them.
        mutating func readSchedule(_ key: Substring, _ value: Substring, _ word: Substring) -> Bool {
            switch key {
            case "due", "t":
                guard let moment = TodoTxtFormat.moment(value, time) else {
                    unreadable(word, "is not a date or time (expected YYYY-MM-DD or YYYY-MM-DDThh:mm)")
                    return true
                }
                if key == "due" { due = moment } else { start = moment }
            case "rec":
                guard let text = TodoTxtFormat.rule(ofRecurrence: value) else {
                    unreadable(word, "is not a repeat (expected rec:1d, 2w, 1m, 1y or 1b)")
                    return true
                }
                rule = text
                // Not todo's own way of writing it (`+1m`): given back as it came.
                if let written = TodoTxtFormat.recurrence(ofRule: text), written != value {
                    kept["rec"] = .string(String(value))
                }
            case "rrule":
                guard let text = PercentEncoding.decoded(value), (try? RepeatRule(text)) != nil else {
                    unreadable(word, "is not a repeat rule")
                    return true
                }
                rule = text
            default: return false
            }
            return true
        }

        /// `pri:` (a done item's), `tag:`, `parent:`, `id:`; whether `key` is one of them.
        mutating func readOrganising(_ key: Substring, _ value: Substring, _ word: Substring) -> Bool {
            switch key {
            case "pri" where done:
                guard let level = TodoTxtFormat.priorityLevel("(\(value))") else {
                    titleWords.append(word)
                    return true
                }
                priority = keepLetter(level)
            case "tag":
                guard let text = PercentEncoding.decoded(value), Tags.isValid(text) else {
                    unreadable(word, "is not a tag (one word, percent-encoded)")
                    return true
                }
                tags.append(text)
            case "parent":
                guard let uuid = UUID(uuidString: String(value)) else {
                    unreadable(word, "is not an item's id (a UUID)")
                    return true
                }
                parent = uuid
            case "id", "uuid":
                // topydo's `id:1` is its own, not a UUID: another tool's word.
                guard let uuid = UUID(uuidString: String(value)) else {
                    keepOtherWord(word, key: key, value: value)
                    return true
                }
                id = uuid
            default: return false
            }
            return true
        }

        /// `desc:`, `loc:`, `addr:` and `geo:`; whether `key` is one of them.
        mutating func readPlace(_ key: Substring, _ value: Substring, _ word: Substring) -> Bool {
            switch key {
            case "desc", "loc", "addr":
                // An empty value is none.
                guard !value.isEmpty else { return true }
                guard let text = PercentEncoding.decoded(value) else {
                    unreadable(word, "is not percent-encoded text")
                    return true
                }
                switch key {
                case "desc": description = text
                case "loc": name = text
                default: address = text
                }
            case "geo":
                let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                    Coordinate(latitude: latitude, longitude: longitude).isValid
                else {
                    unreadable(word, "is not a coordinate (expected geo:LAT,LON)")
                    return true
                }
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
            default: return false
            }
            return true
        }

        /// A text field's key (`ItemField.todoTxtKey`), or another tool's `key:value` word.
        mutating func readText(_ key: Substring, _ value: Substring, _ word: Substring) {
            guard let field = ItemField.texts.first(where: { $0.todoTxtKey.map { $0[...] == key } ?? false }) else {
                keepOtherWord(word, key: key, value: value)
                return
            }
            guard let text = PercentEncoding.decoded(value) else {
                unreadable(word, "is not percent-encoded text")
                return
            }
            guard ItemField.isOneLine(text) else {
                unreadable(word, "is not one line (a line break or a control character)")
                return
            }
            if !text.isEmpty { texts.append((field, text)) }
        }

        /// Keeps another tool's `key:value` out of the title, for the export to give back; any
        /// other word with a colon (`Re:`, `http://…`, `10:30`) is the title's.
        mutating func keepOtherWord(_ word: Substring, key: Substring, value: Substring) {
            let isKey = key.first!.isLetter && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            if isKey, !value.isEmpty, !value.hasPrefix("//") {
                otherWords.append(.string(String(word)))
            } else {
                titleWords.append(word)
            }
        }

        /// Keeps the word in the title, saying why todo could not read it.
        mutating func unreadable(_ word: Substring, _ why: String) {
            problems.append("\(origin): '\(word)' \(why); kept in the title")
            titleWords.append(word)
        }

        /// The item the line gives; skipped when it has no title.
        func importedItem(of line: Substring) -> ImportedItem {
            var location: Location?
            if name != nil || address != nil || coordinate != nil {
                let fallbackName =
                    address
                    ?? coordinate.map {
                        "\(JSONValue.literal(for: $0.latitude)),\(JSONValue.literal(for: $0.longitude))"
                    }
                location = Location(name: name ?? fallbackName ?? "", address: address, coordinate: coordinate)
            }
            // A line without an id gets one made from the line, so that importing it again skips it.
            var item = ToDoItem.imported(
                id: id ?? UUID(hashing: "todotxt:" + line), title: titleWords.joined(separator: " "),
                itemDescription: description, due: due, location: location, done: done,
                createdAt: createdAt, completedAt: done ? completedAt : nil)
            item.fields.start = start
            // A `rec:1m` from the 29th to a month's end keeps it, as todo.txt's tools do.
            item.fields.repeatRule = rule.map { rule in
                due.map { RepeatRule.keepingMonthEnd(rule, due: $0, rules: time.rules) } ?? rule
            }
            for (field, text) in texts { item[text: field] = text }
            item.fields.priority = priority
            item.fields.tags = Tags.normalized(tags)
            item.fields.parent = parent
            var kept = kept
            if !otherWords.isEmpty { kept["words"] = .array(otherWords) }
            // The line itself, to give back as it came while the item is as it says (`write`).
            kept["line"] = .string(String(line))
            if kept.count > 0 { item.fields.foreignMembers.sources[ForeignMembers.todoTxt] = .object(kept) }
            guard !item.title.isEmpty else {
                let why = "the line has no title"
                return ImportedItem(
                    item: item, origin: origin, ignoredBecause: why, problems: ["\(origin): \(why); skipped"],
                    idIsDerived: id == nil)
            }
            return ImportedItem(item: item, origin: origin, problems: problems, idIsDerived: id == nil)
        }
    }

    /// `(A)` to `(Z)` as 1 to 26.
    private static func priorityLevel(_ word: Substring) -> Int? {
        let bytes = Array(word.utf8)
        guard bytes.count == 3, bytes[0] == UInt8(ascii: "("), bytes[2] == UInt8(ascii: ")"),
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[1])
        else { return nil }
        return Int(bytes[1] - UInt8(ascii: "A")) + 1
    }

    /// `2030-06-14` (a whole day) or `2030-06-14T18:00`, `T18:00:30`, each time with an optional
    /// `Z` or offset (`+01:00`) that says which of two same local times it is.
    private static func moment(_ text: Substring, _ time: CivilTime) -> ItemDate? {
        var text = text, offset: Int?
        if text.count > 16, let sign = text.dropFirst(16).firstIndex(where: { $0 == "+" || $0 == "-" || $0 == "Z" }) {
            let suffix = text[sign...]
            text = text[..<sign]
            if suffix == "Z" {
                offset = 0
            } else {
                let parts = suffix.dropFirst().split(separator: ":")
                guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hours = Int(parts[0]),
                    let minutes = Int(parts[1]),
                    hours < 24, minutes < 60
                else { return nil }
                offset = (hours * 3600 + minutes * 60) * (suffix.first == "-" ? -1 : 1)
            }
        }
        guard let fields = CivilTime.parseISO(text) else { return nil }
        let allDay = !text.contains("T")
        if let offset {
            guard !allDay, let utc = CivilTime.utc.timestamp(of: fields) else { return nil }
            return .time(utc - Double(offset))
        }
        return ItemDate(fields, hasTime: !allDay, local: time)
    }

    /// `rec:` as RRULE text: `1d`, `+2w`, `1m`, `1y`, and `1b` (business days: Monday to Friday).
    static func rule(ofRecurrence text: Substring) -> String? {
        let body = text.hasPrefix("+") ? text.dropFirst() : text
        guard let unit = body.last, let count = Int(body.dropLast()), (1...99_999).contains(count) else { return nil }
        if unit == "b" { return count == 1 ? RepeatRule.Cadence.weekdays.ruleText : nil }
        let frequencies: [Character: RepeatRule.Frequency] = ["d": .daily, "w": .weekly, "m": .monthly, "y": .yearly]
        return frequencies[unit].map { RepeatRule.Cadence.every(count, $0).ruleText }
    }

    /// A repeat rule as `rec:` says it, when it can: a cadence without a count or an end, strict
    /// (`+1m`: from the due, as todo repeats).
    static func recurrence(ofRule text: String) -> String? {
        guard let cadence = RepeatRule.endlessCadence(of: text) else { return nil }
        let units: [RepeatRule.Frequency: String] = [.daily: "d", .weekly: "w", .monthly: "m", .yearly: "y"]
        switch cadence {
        case .weekdays: return "1b"
        case .every(let interval, let frequency): return "+\(interval)\(units[frequency]!)"
        }
    }

    /// Percent-encodes what would end or break a tag: `%`, white space and control characters.
    private static func encoded(_ text: String) -> String {
        PercentEncoding.encoded(text) { scalar in
            scalar == "%" || Whitespace.isSpaceOrNewline(scalar) || scalar.properties.generalCategory == .control
        }
    }
}
