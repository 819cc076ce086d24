import ToDoModel
import ToDoStorage

/// The JSON that Taskwarrior's `task export` writes and `task import` reads: an array of tasks (or
/// one task per line) with `description`, `uuid`, `status`, `entry`, `due`, `end`, `wait`,
/// `priority`, `tags`, `recur` and `annotations`.
public enum TaskwarriorFormat {
    /// The items as `task import` reads them, one task per line in an array: `uuid` (in lower
    /// case, as Taskwarrior writes it), `description` (the title), `status`, `entry`, `end`, `due`,
    /// `wait` (the start), `modified`, `priority` (the level as `H`, `M`, `L`), `tags`, `recur`
    /// (a repeat `recur` can say), `annotations` (the item's notes with their times, then the
    /// description, a line each, dated when the item was made); then what a
    /// Taskwarrior import kept (`depends`, UDAs), as it was. Dates are UTC, as
    /// `20231110T230000Z`; text beyond ASCII is written as itself (Taskwarrior 2.6 mangles
    /// `\u` escapes of characters outside the Basic Multilingual Plane).
    /// A whole day is its first moment in `timeZone`, as Taskwarrior keeps `due:2026-12-03`.
    public static func write(_ items: [ToDoItem], now: Date, timeZone: TimeZoneRules) -> [UInt8] {
        func date(_ timestamp: Double) -> JSONValue {
            .string(CivilTime.basicDate(CivilTime.utc.fields(of: timestamp), time: true) + "Z")
        }
        let local = CivilTime(rules: timeZone)
        var bytes = Array("[".utf8)
        // A parent depends on its subtasks: Taskwarrior's way of saying a task waits for others.
        var subtasks: [UUID: [String]] = [:]
        for item in items {
            if let parent = item.parent { subtasks[parent, default: []].append(item.id.uuidString.lowercased()) }
        }
        for (index, item) in items.enumerated() {
            var task = JSONObject()
            // What a Taskwarrior import kept, and what an import kept in a list of the first form.
            var kept = item.foreignMembers.members(from: source)
            kept.merge(item.foreignMembers.members(from: ForeignMembers.firstFormImports))
            task["uuid"] = .string(item.id.uuidString.lowercased())
            task["description"] = .string(item.title)
            task["status"] = .string(item.done ? "completed" : "pending")
            // Taskwarrior's active task has a `start`: the one it came with, else when it last changed.
            if item.inProgress, !item.done {
                task["start"] = kept["start"] ?? date(item.modifiedAt ?? now.timeIntervalSince1970.rounded(.down))
            }
            if let createdAt = item.createdAt { task["entry"] = date(createdAt) }
            if item.done, let completedAt = item.completedAt { task["end"] = date(completedAt) }
            let recur = item.repeatRule.flatMap(recurrence(ofRule:))
            if let due = item.due {
                task["due"] = date(due.moment(local: local))
                if let start = item.start { task["wait"] = date(start.moment(local: local)) }
            } else if let start = item.start {
                // `task import` refuses a `recur` without a `due`: a series a calendar anchored on its
                // start alone is due then.
                task[recur != nil ? "due" : "wait"] = date(start.moment(local: local))
            }
            if let modifiedAt = item.modifiedAt { task["modified"] = date(modifiedAt) }
            if let priority = item.priority { task["priority"] = .string(String(PriorityLevel(priority).letter)) }
            for field in ItemField.texts {
                if let key = field.taskwarriorKey, let text = item[text: field] { task[key] = .string(text) }
            }
            if !item.tags.isEmpty { task["tags"] = .array(item.tags.map(JSONValue.string)) }
            if let recur, task["due"] != nil {
                task["recur"] = .string(recur)
                // The series' end, as Taskwarrior's `until` (a day at its local midnight).
                if let text = item.repeatRule, let until = (try? RepeatRule(text))?.until {
                    switch until {
                    case .day(let number): task["until"] = date(Double(local.firstMoment(ofDay: number)))
                    case .moment(let moment): task["until"] = date(moment)
                    case .localTime(let seconds): task["until"] = date(Double(local.moment(readingSkipped: seconds)))
                    }
                }
            }
            // The item's notes, then its description, a line each (Taskwarrior has no longer text).
            let created = item.createdAt ?? now.timeIntervalSince1970.rounded(.down)
            let notes =
                item.annotations.map { ($0.time ?? created, $0.text) }
                + (item.itemDescription ?? "").split(separator: "\n", omittingEmptySubsequences: true).map {
                    (created, String($0))
                }
            // The description whole as well, in a key of todo's own (Taskwarrior keeps it as it
            // keeps any attribute it does not know), so that it comes back a description.
            if let description = item.itemDescription, !description.isEmpty {
                task[Self.descriptionKey] = .string(description)
            }
            if !notes.isEmpty {
                task["annotations"] = .array(
                    notes.map { time, text in
                        var note = JSONObject()
                        note["entry"] = date(time)
                        note["description"] = .string(text)
                        return .object(note)
                    })
            }
            if let children = subtasks[item.id] {
                var depends = uuids(ofDepends: kept["depends"])
                depends += children.filter { child in !depends.contains { $0.lowercased() == child } }
                task["depends"] = .array(depends.map(JSONValue.string))
            }
            for (key, value) in kept.members {
                // A `start` kept from an import says it was begun: only while it still is.
                if task[key] == nil, key != "start" { task[key] = value }
            }
            bytes += Array((index == 0 ? "\n" : ",\n").utf8) + JSONValue.object(task).serializedCompactly()
        }
        return bytes + Array("\n]\n".utf8)
    }

    /// A repeat rule as Taskwarrior's `recur`, when it can say it: `daily`, `weekly`, `monthly`,
    /// `yearly`, `weekdays`, or a number and a unit (`2w`, `3d`, `6mo`, `2y`).
    static func recurrence(ofRule text: String) -> String? {
        // An end goes as Taskwarrior's `until`, beside the cadence.
        let withoutEnd = text.split(separator: ";").filter { !$0.hasPrefix("UNTIL=") }.joined(separator: ";")
        guard let cadence = RepeatRule.endlessCadence(of: withoutEnd) else { return nil }
        let names: [RepeatRule.Frequency: (String, String)] = [
            .daily: ("daily", "d"), .weekly: ("weekly", "w"),
            .monthly: ("monthly", "mo"), .yearly: ("yearly", "y")
        ]
        switch cadence {
        case .weekdays: return "weekdays"
        case .every(let interval, let frequency):
            let (name, unit) = names[frequency]!
            return interval == 1 ? name : "\(interval)\(unit)"
        }
    }

    /// Reads the tasks: `pending` and `waiting` ones are open, `completed` ones done; `deleted`
    /// tasks and `recurring` templates (whose instances are tasks of their own) are skipped.
    /// Annotations become the item's notes, each with its time (`entry`).
    /// Dates without a `Z` are local time in `timeZone`, as `task import` reads them. A task's
    /// `depends` makes the tasks it names its subtasks (todo's way of saying a task waits for
    /// others), and stays with it as it was.
    public static func read(_ json: JSONValue, timeZone: TimeZoneRules) throws(ImportError) -> [ImportedItem] {
        let local = CivilTime(rules: timeZone)
        let tasks: [JSONValue]
        switch json {
        case .array(let array): tasks = array
        case .object: tasks = [json]
        default: throw ImportError(at: "", "expected an array of tasks, found \(json.kindDescription)")
        }
        // A recurring task is a template (status `recurring`) and an instance for each occurrence
        // (with the template's uuid as `parent`): the template is the repeating item, due when its
        // first pending instance is, and the pending instances are that item.
        var templates: [String: Int] = [:], firstPendingDue: [String: String] = [:]
        for (index, value) in tasks.enumerated() {
            guard case .object(let task) = value, case .string(let uuid)? = task["uuid"],
                task["status"] == .string("recurring")
            else { continue }
            templates[uuid.lowercased()] = index + 1
        }
        for case .object(let task) in tasks {
            guard case .string(let parent)? = task["parent"], templates[parent.lowercased()] != nil,
                task["status"] == .string("pending") || task["status"] == .string("waiting"),
                case .string(let due)? = task["due"]
            else { continue }
            // Taskwarrior's dates sort as text.
            if firstPendingDue[parent.lowercased()].map({ due < $0 }) ?? true {
                firstPendingDue[parent.lowercased()] = due
            }
        }
        let leaders = seriesLeaders(tasks, templates: templates)
        var items: [ImportedItem] = []
        for (index, value) in tasks.enumerated() {
            var item = try item(
                value, origin: "task \(index + 1)", firstPendingDue: firstPendingDue, templates: Set(templates.keys),
                local: local)
            if item.ignoredBecause == nil, case .object(let task) = value, case .string(let parent)? = task["parent"],
                let template = templates[parent.lowercased()], !item.item.done
            {
                item.ignoredBecause = "an occurrence of task \(template), imported as its repeating item"
            } else if item.ignoredBecause == nil, let leader = leaders[index] {
                item.ignoredBecause =
                    "another occurrence of the series of task \(leader + 1), imported as its repeating item"
            }
            items.append(item)
        }
        return withDependencies(tasks, items)
    }

    /// The pending instances of a series whose template the source lacks (`task status:pending
    /// export`), each with the index of the one that stands for the series: the earliest due of
    /// those with one `parent` (or, for instances that lost it, one description and `recur`).
    /// The others are that one series, not series of their own.
    private static func seriesLeaders(_ tasks: [JSONValue], templates: [String: Int]) -> [Int: Int] {
        var groups: [String: [(index: Int, due: String)]] = [:]
        for (index, value) in tasks.enumerated() {
            guard case .object(let task) = value,
                task["status"] == .string("pending") || task["status"] == .string("waiting"),
                case .string(let recur)? = task["recur"]
            else { continue }
            let key: String
            if case .string(let parent)? = task["parent"] {
                guard templates[parent.lowercased()] == nil else { continue }
                key = "parent " + parent.lowercased()
            } else if task["imask"] != nil, case .string(let description)? = task["description"] {
                key = "series \(recur)\n\(description)"
            } else {
                continue
            }
            // Taskwarrior's dates sort as text; one without a due comes last.
            groups[key, default: []].append((index, task["due"]?.string ?? "~"))
        }
        var leaders: [Int: Int] = [:]
        for instances in groups.values where instances.count > 1 {
            let leader = instances.min { ($0.due, $0.index) < ($1.due, $1.index) }!.index
            for instance in instances where instance.index != leader { leaders[instance.index] = leader }
        }
        return leaders
    }

    /// The tasks a task `depends` on (an array of uuids, or older exports' comma-separated
    /// text) as its subtasks: each one of the source without a parent gets the task as its parent,
    /// unless that would make a cycle.
    private static func withDependencies(_ tasks: [JSONValue], _ items: [ImportedItem]) -> [ImportedItem] {
        /// `task N` as a message names it.
        func name(_ index: Int) -> String { "task \(index + 1) \"\(items[index].item.title)\"" }
        var items = items
        var position: [String: Int] = [:]
        for (index, value) in tasks.enumerated() {
            if case .object(let task) = value, case .string(let uuid)? = task["uuid"] {
                position[uuid.lowercased()] = index
            }
        }
        for (index, value) in tasks.enumerated() {
            guard case .object(let task) = value else { continue }
            var found = false
            for uuid in uuids(ofDepends: task["depends"]) {
                guard let child = position[uuid.lowercased()], child != index else { continue }
                found = true
                guard items[child].item.parent == nil else {
                    // A subtask has one parent: the other dependency stays Taskwarrior's, and goes back.
                    if items[child].item.parent != items[index].item.id {
                        items[index].problems.append(
                            "\(name(index)) also depends on \(name(child)), already a subtask of another task;"
                                + " todo gives a subtask one parent, and keeps this dependency for the export to Taskwarrior"
                        )
                    }
                    continue
                }
                // No cycle: the child is not the task itself or one of its parents.
                var ancestor: UUID? = items[index].item.id, steps = 0
                while let current = ancestor, current != items[child].item.id, steps < items.count {
                    ancestor = items.first { $0.item.id == current }?.item.parent
                    steps += 1
                }
                guard ancestor == nil else {
                    items[index].problems.append(
                        "\(name(index)) depends on \(name(child)), which depends on it: todo keeps this"
                            + " dependency for the export to Taskwarrior, not as a subtask")
                    continue
                }
                items[child].item.fields.parent = items[index].item.id
            }
            // What todo has a field for is not said to be kept only as Taskwarrior's.
            if found { items[index].unknownKeys.removeAll { $0 == "depends" } }
        }
        return items
    }

    /// Whether `json` looks like Taskwarrior's export rather than todo's items: tasks have a
    /// `description` and a `uuid` or `status`, and no `title`.
    static func looksLikeTasks(_ json: JSONValue) -> Bool {
        let first: JSONValue?
        switch json {
        case .array(let array): first = array.first
        case .object: first = json
        default: first = nil
        }
        guard case .object(let task)? = first else { return false }
        return task["title"] == nil && task["description"] != nil && (task["uuid"] != nil || task["status"] != nil)
    }

    /// The name members Taskwarrior gave one of todo's own keys are kept under (`taskwarrior:start`).
    static let source = ForeignMembers.taskwarrior

    /// The key todo writes an item's description under, beside its lines as annotations.
    static let descriptionKey = "tododescription"

    /// The keys todo reads (or drops: `id`, `urgency`, `mask`, `rtype` are Taskwarrior's to work
    /// out); every other key (`depends`, UDAs) stays with the item as it was.
    private static let readKeys = Set<String>([
        "description", "uuid", "status", "entry", "due", "end", "wait", "modified",
        "annotations", "priority", "tags", "recur", "id", "urgency", descriptionKey,
        // Taskwarrior's bookkeeping of a series, which it makes again.
        "mask", "rtype"
    ]).union(ItemField.texts.compactMap(\.taskwarriorKey))

    private static func item(
        _ value: JSONValue, origin: String, firstPendingDue: [String: String], templates: Set<String>,
        local: CivilTime
    ) throws(ImportError) -> ImportedItem {
        guard case .object(let task) = value else {
            throw ImportError(at: origin, "expected a task object, found \(value.kindDescription)")
        }
        guard case .string(let description)? = task["description"], !description.isEmpty else {
            let why =
                task["description"] == nil || task["description"] == .null
                ? "the task has no description" : "its description is not text"
            return ImportedItem(
                item: .imported(id: UUID(), title: ""), origin: origin, ignoredBecause: why,
                problems: ["\(origin): \(why); skipped"])
        }
        var reading = TaskReading(members: ObjectMembers(task, origin: origin), local: local)
        return reading.item(description: description, firstPendingDue: firstPendingDue, templates: templates)
    }

    /// One task's members, read into its item group by group of fields. A value todo could not
    /// read is said, and kept with the item as it was; the members todo has no field for are kept
    /// too (dependencies, UDAs).
    private struct TaskReading {
        var members: ObjectMembers
        let local: CivilTime
        var task: JSONObject { members.object }
        var origin: String { members.origin }

        mutating func date(_ key: String) -> Double? {
            members.date(key, expected: "a date (expected 20231110T230000Z or epoch seconds)") { [local] in
                TaskwarriorFormat.moment(ofDate: $0, local: local)
            }
        }

        /// Taskwarrior keeps `due:2026-12-03` as that day's local midnight: such a moment is the day.
        mutating func dayOrTime(_ key: String) -> ItemDate? {
            date(key).map { TaskwarriorFormat.dayOrTime($0, local: local) }
        }

        mutating func item(
            description: String, firstPendingDue: [String: String], templates: Set<String>
        )
            -> ImportedItem
        {
            let uuid = members.string("uuid")
            let id = uuid.flatMap(UUID.init(uuidString:))
            if let uuid, id == nil { members.unreadable("uuid", "'\(uuid)' is not a UUID") }
            var notes = readAnnotations()
            // todo's own export: the description, and its lines among the notes, written for Taskwarrior's eyes.
            let itemDescription = members.string(TaskwarriorFormat.descriptionKey).flatMap { $0.isEmpty ? nil : $0 }
            if let itemDescription {
                for line in itemDescription.split(separator: "\n", omittingEmptySubsequences: true) {
                    if let index = notes.firstIndex(where: { $0.text == line }) { notes.remove(at: index) }
                }
            }
            let priority = readPriority()
            let tags = readTags()
            let (rule, template, isInstance) = readRepeat(templates: templates)
            let status = members.string("status") ?? "pending"
            let done = status == "completed"
            var item = ToDoItem.imported(
                id: id ?? UUID(hashing: "taskwarrior:" + (uuid ?? description)),
                title: ToDoItem.singleLine(description),
                due: dayOrTime("due"), done: done,
                createdAt: date("entry"), completedAt: done ? date("end") : nil)
            item.fields.annotations = notes
            item.fields.itemDescription = itemDescription
            item.fields.start = dayOrTime("wait")
            item.fields.modifiedAt = date("modified")
            // Begun with `task start` (and not yet stopped): in progress. The time stays with the item.
            item.fields.inProgress = status == "pending" && task["start"] != nil && task["start"] != .null
            item.fields.priority = priority
            item.fields.tags = tags
            // Taskwarrior's monthly from the 29th to a month's end keeps it, never skips a month.
            item.fields.repeatRule = rule.map { rule in
                item.due.map { RepeatRule.keepingMonthEnd(rule, due: $0, rules: local.rules) } ?? rule
            }
            readTexts(into: &item)
            // An instance that is the series now drops what tied it to a template the source lacks.
            var seriesKeys: Set<String> = rule != nil && template != nil && !isInstance ? ["parent", "imask"] : []
            // A series' `until` is its rule's end (kept as it came on a task that does not repeat).
            if let text = item.repeatRule, let until = members.string("until"),
                let moment = TaskwarriorFormat.moment(ofDate: until, local: local)
            {
                item.fields.repeatRule =
                    text + ";UNTIL=" + CivilTime.basicDate(CivilTime.utc.fields(of: moment), time: true) + "Z"
                seriesKeys.insert("until")
            }
            for (key, value) in task.members
            where !TaskwarriorFormat.readKeys.contains(key) && !seriesKeys.contains(key) {
                members.kept.appendUnchecked(key: key, value: value)
            }
            if members.kept.count > 0 {
                item.fields.foreignMembers.sources[TaskwarriorFormat.source] = .object(members.kept)
            }
            // The template's own due is its first; the series is where its first pending instance is.
            if status == "recurring", let due = uuid.flatMap({ firstPendingDue[$0.lowercased()] }),
                let timestamp = TaskwarriorFormat.moment(ofDate: due, local: local)
            {
                item.fields.due = TaskwarriorFormat.dayOrTime(timestamp, local: local)
            } else if status == "recurring", let mask = members.string("mask"), let due = item.due,
                let text = item.repeatRule, let rule = try? RepeatRule(text)
            {
                // No pending instance in the source: the series is at the occurrence after those
                // its mask says were made (`+` done, `X` deleted), or at the first still pending.
                let made =
                    mask.firstIndex { $0 == "-" || $0 == "W" }.map { mask.distance(from: mask.startIndex, to: $0) }
                    ?? mask.count
                var next = due
                for _ in 0..<min(made, 100_000) {
                    let moment = next.moment(local: local)
                    guard let (after, _) = rule.nextOccurrence(after: next, now: moment, local: local) else { break }
                    next = after
                }
                item.fields.due = next
            }
            let ignored: String? = status == "deleted" ? "deleted in Taskwarrior" : nil
            // Taskwarrior's `start` is read (in progress); its time stays with the item for the export.
            return ImportedItem(
                item: item, origin: origin, ignoredBecause: ignored,
                unknownKeys: members.kept.keys.filter { !TaskwarriorFormat.readKeys.contains($0) && $0 != "start" }
                    .sorted(),
                problems: members.problems, idIsDerived: id == nil)
        }

        /// `annotations`: each a note with its time.
        mutating func readAnnotations() -> [Annotation] {
            guard let annotations = task["annotations"] else { return [] }
            if case .array(let list) = annotations,
                let read = Optional(
                    list.compactMap { annotation -> Annotation? in
                        guard case .object(let note) = annotation, case .string(let text)? = note["description"],
                            ItemField.isOneLine(text)
                        else { return nil }
                        let entry = note["entry"]?.string.flatMap { TaskwarriorFormat.moment(ofDate: $0, local: local) }
                        return Annotation(time: entry, text: text)
                    }), read.count == list.count
            {
                return read
            }
            members.unreadable("annotations", "expected an array of objects with a one-line description")
            return []
        }

        /// `priority`: H, M and L are 1, 5 and 9.
        mutating func readPriority() -> Int? {
            guard let level = members.string("priority") else { return nil }
            switch level {
            case "H": return 1
            case "M": return 5
            case "L": return 9
            default:
                members.unreadable("priority", "'\(level)' is not H, M or L")
                return nil
            }
        }

        mutating func readTags() -> [String] {
            guard let value = task["tags"], value != .null else { return [] }
            if case .array(let list) = value, let texts = Optional(list.compactMap(\.string)),
                texts.count == list.count, texts.allSatisfy(Tags.isValid)
            {
                return Tags.normalized(texts)
            }
            members.unreadable("tags", "expected an array of one-word tags")
            return []
        }

        /// An instance of a recurring task (it has the template's uuid as `parent`) is one
        /// occurrence: with its template in the source, its `recur` stays Taskwarrior's, with its
        /// `parent` and `imask`, so that it goes back as an instance. Without it (`task
        /// status:pending export`), the instance is the series: it repeats by its `recur` from its
        /// due. A task with `recur` of its own repeats.
        mutating func readRepeat(templates: Set<String>) -> (rule: String?, template: String?, isInstance: Bool) {
            var template: String?
            if case .string(let uuid)? = task["parent"] { template = uuid.lowercased() }
            // An occurrence done (or deleted) is a past one, not a series, template or not.
            let isPast = task["status"] == .string("completed") || task["status"] == .string("deleted")
            let isInstance = template.map { templates.contains($0) || isPast } ?? false
            if isInstance {
                if let recur = task["recur"] { members.kept.appendUnchecked(key: "recur", value: recur) }
                return (nil, template, true)
            }
            guard let recur = members.string("recur") else { return (nil, template, false) }
            let rule = TaskwarriorFormat.rule(ofRecurrence: recur)
            if rule == nil {
                members.unreadable("recur", "'\(recur)' is not a repeat todo reads (daily, weekly, 2w, …)")
            }
            return (rule, template, false)
        }

        /// The text fields' keys (`ItemField.taskwarriorKey`).
        mutating func readTexts(into item: inout ToDoItem) {
            for field in ItemField.texts {
                guard let key = field.taskwarriorKey, let text = members.string(key) else { continue }
                if ItemField.isOneLine(text) {
                    item[text: field] = text
                } else {
                    members.unreadable(key, "not one line (a line break or a control character)")
                }
            }
        }
    }

    /// The uuids of a `depends`: an array (Taskwarrior 2.6), or older exports' comma-separated text.
    static func uuids(ofDepends value: JSONValue?) -> [String] {
        switch value {
        case .array(let list)?: return list.compactMap(\.string)
        case .string(let text)?: return text.split(separator: ",").map(Whitespace.trimmingSpaces)
        default: return []
        }
    }

    /// A moment at a local midnight as that day, else the time.
    private static func dayOrTime(_ moment: Double, local: CivilTime) -> ItemDate {
        local.fields(of: moment).isMidnight ? .day(Day(of: moment, local: local)) : .time(moment)
    }

    /// A date as `task import` reads it: `20231110T230000Z` as `task export` writes it,
    /// `2023-11-10T23:00:00Z`, epoch seconds (`"1234567889"`), or without the `Z` local time.
    static func moment(ofDate text: String, local: CivilTime) -> Double? {
        var timestamp: Double?
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let seconds = Double(text) {
            timestamp = seconds
        } else if let parsed = CivilTime.parseBasic(Substring(text.filter { $0 != "-" && $0 != ":" })) {
            timestamp = (parsed.utc ? CivilTime.utc : local).timestamp(of: parsed.fields)
        }
        return timestamp.flatMap { ToDoItem.timestampRange.contains($0) ? $0 : nil }
    }

    /// Taskwarrior's `recur` as RRULE text: the named periods (`daily`, `weekdays`, `weekly`,
    /// `biweekly`, `fortnight`, `monthly`, `quarterly`, `yearly`, `annual`) and `N` with a unit
    /// (`2d`, `3wk`, `1mo`, `2y`, `P1W`).
    public static func rule(ofRecurrence text: String) -> String? {
        let named: [String: RepeatRule.Cadence] = [
            "daily": .every(1, .daily), "day": .every(1, .daily), "weekdays": .weekdays, "weekly": .every(1, .weekly),
            "week": .every(1, .weekly), "biweekly": .every(2, .weekly), "fortnight": .every(2, .weekly),
            "monthly": .every(1, .monthly), "month": .every(1, .monthly), "bimonthly": .every(2, .monthly),
            "quarterly": .every(3, .monthly), "semiannual": .every(6, .monthly), "yearly": .every(1, .yearly),
            "annual": .every(1, .yearly), "biannual": .every(2, .yearly), "biyearly": .every(2, .yearly)
        ]
        let lowered = text.lowercased()
        if let cadence = named[lowered] { return cadence.ruleText }
        var body = Substring(lowered)
        if body.hasPrefix("p") { body = body.dropFirst() }
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        let unit = body.dropFirst(digits.count)
        guard let count = digits.isEmpty ? 1 : Int(digits), (1...99_999).contains(count) else { return nil }
        let units: [Substring: RepeatRule.Frequency] = [
            "d": .daily, "day": .daily, "days": .daily, "w": .weekly, "wk": .weekly, "wks": .weekly, "week": .weekly,
            "weeks": .weekly,
            "mo": .monthly, "mos": .monthly, "month": .monthly, "months": .monthly, "m": .monthly, "y": .yearly,
            "yr": .yearly,
            "yrs": .yearly, "year": .yearly, "years": .yearly, "q": .monthly
        ]
        guard let frequency = units[unit] else { return nil }
        return RepeatRule.Cadence.every(unit == "q" ? 3 * count : count, frequency).ruleText
    }
}
