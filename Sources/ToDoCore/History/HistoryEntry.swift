import ToDoModel
import ToDoStorage

/// One change to the list as the history keeps it: which command made it and when, its steps
/// (what each replaced), and the items it touched as it left them.
///
/// Kept as one line of JSON in the history file:
/// `{"change":12,"time":1795300000,"command":["check","3"],"steps":[…],"items":[…]}`, with
/// `"undo":[…]` or `"redo":[…]` naming the changes an undo or a redo took back.
public struct HistoryEntry: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// A command that changed the list: add, check, edit, import…
        case change
        /// `todo undo`: took back the changes in `reverts`.
        case undo
        /// `todo redo`: took back the undos in `reverts`.
        case redo
    }

    /// The change number: the data file's revision once the change was written. Numbers only grow.
    public var number: Int
    /// When, in seconds since 1970; `nil` when the store records no times.
    public var time: Double?
    /// The command line that made the change, without the program name.
    public var command: [String]
    public var kind: Kind
    /// The changes an undo or redo took back, newest first.
    public var reverts: [Int]
    public var steps: [ChangeStep]
    /// Every item the steps touched, in the order first touched, as the change left it.
    public var results: [TouchedItem]
    /// The file's move to a newer format, when this change was the first written in it.
    public var migration: Migration?

    /// A list's move from the first format, whole days in seconds, to the second (`ItemForm`).
    public struct Migration: Equatable, Sendable {
        /// The version the file had, and the one it has since.
        public var fromVersion: Int
        public var toVersion: Int
        /// How many dues became the days they showed.
        public var wholeDays: Int
        /// The time zone they showed them in.
        public var timeZone: String

    }

    public init(
        number: Int, time: Double?, command: [String], kind: Kind = .change, reverts: [Int] = [],
        steps: [ChangeStep], results: [TouchedItem], migration: Migration? = nil
    ) {
        self.migration = migration
        self.number = number
        self.time = time
        self.command = command
        self.kind = kind
        self.reverts = reverts
        self.steps = steps
        self.results = results
    }

    /// What the change did to each item it touched, in the order first touched.
    public var itemChanges: [ItemChange] {
        var before: [UUID: ToDoItem?] = [:]
        for step in steps where before[step.id] == nil {
            before[step.id] = .some(step.itemBefore)
        }
        return results.map { ItemChange(before: before[$0.id] ?? nil, after: $0.item) }
    }
}

// MARK: - The line in the history file

extension HistoryEntry {
    /// The entry as its line in the history file holds it. `"change"` comes first, so that the
    /// history file's first and last numbers can be read without parsing whole lines.
    private struct Line: JSONRecord {
        var entry: HistoryEntry
        /// The items' form (`ItemForm`); a line without it was written in the first.
        var version = 1

        static let unread = Line(entry: HistoryEntry(number: 0, time: nil, command: [], steps: [], results: []))
        static let members: [JSONMember<Line>] = [
            .required("change", { $1(&$0.entry.number) }, .whole(in: 1...Int.max)),
            // The items' range: a time no date can show is a line not written here.
            .optional("time", { $1(&$0.entry.time) }, .number(in: ToDoItem.timestampRange)),
            .always("version", { $1(&$0.version) }, .whole(in: 1...StoreDocument.currentVersion)),
            .optional("migrated", { $1(&$0.migration) }, .of(MigrationRecord.self)),
            .required("command", { $1(&$0.entry.command) }, .array(of: .string)),
            .optional("undo", { $1(&$0.entry[reverted: .undo]) }, .array(of: .whole(in: 1...Int.max))),
            .optional("redo", { $1(&$0.entry[reverted: .redo]) }, .array(of: .whole(in: 1...Int.max))),
            .required("steps", { $1(&$0.entry.steps) }, .array(of: .of(ChangeStep.self))),
            // `{"removed":"ID"}` for an item the change removed, else the item.
            .required("items", { $1(&$0.entry.results) }, .array(of: .touchedItem))
        ]
        static let missing = "a change without its number, command, steps or items"

        /// The move to a newer format as the line records it: one it records only in part is
        /// left out, and the rest of the line read.
        private var migration: MigrationRecord? {
            get { entry.migration.map(MigrationRecord.init) }
            set { entry.migration = newValue?.migration }
        }
    }

    private struct MigrationRecord: JSONRecord {
        var from: Int?, to: Int?, wholeDays: Int?, timeZone: String?

        static let unread = MigrationRecord()
        static let members: [JSONMember<MigrationRecord>] = [
            .optional("from", { $1(&$0.from) }, .whole(in: 1...Int.max)),
            .optional("to", { $1(&$0.to) }, .whole(in: 1...Int.max)),
            .optional("wholeDays", { $1(&$0.wholeDays) }, .count), .optional("timeZone", { $1(&$0.timeZone) }, .string)
        ]
        static let missing = ""

        init(from: Int? = nil, to: Int? = nil, wholeDays: Int? = nil, timeZone: String? = nil) {
            (self.from, self.to, self.wholeDays, self.timeZone) = (from, to, wholeDays, timeZone)
        }

        init(_ migration: Migration) {
            self.init(
                from: migration.fromVersion, to: migration.toVersion, wholeDays: migration.wholeDays,
                timeZone: migration.timeZone)
        }

        var migration: Migration? {
            guard let from, let to, let wholeDays, let timeZone else { return nil }
            return Migration(fromVersion: from, toVersion: to, wholeDays: wholeDays, timeZone: timeZone)
        }
    }

    /// The entry with its items' dates read as `form` says (`ToDoItem.inCurrentForm`).
    private mutating func bringToCurrentForm(_ form: ItemForm, local: CivilTime) {
        for index in steps.indices { steps[index].bringToCurrentForm(form, local: local) }
        for index in results.indices {
            if let resolved = results[index].item?.inCurrentForm(form, local: local) { results[index].item = resolved }
        }
    }

    /// The changes an undo or a redo took back, when the entry is one of `kind`.
    private subscript(reverted kind: Kind) -> [Int]? {
        get { self.kind == kind ? reverts : nil }
        set {
            guard let newValue else { return }
            self.kind = kind
            reverts = newValue
        }
    }

    /// The entry as one line of compact JSON, with its line feed.
    func line() -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        Line(entry: self, version: StoreDocument.currentVersion).write(to: &writer)
        return writer.line()
    }

    /// Reads an entry from one line of the history file; `nil` for a line that is not one. Read
    /// straight from the bytes, items included, as the data file is: an undo reads every line.
    /// The items' dues and starts are read as the line's version says, whole days of the first
    /// form as the days they show in `local` (`ItemForm`).
    init?(line: some Collection<UInt8>, local: CivilTime) {
        let read = try? JSONScanner.scanDocument(in: Array(line)) { scanner throws(JSONDecodingError) in
            try Line(scanning: &scanner, path: { "" })
        }
        guard var read else { return nil }
        let form = ItemForm(version: read.version)
        read.entry.bringToCurrentForm(form, local: local)
        self = read.entry
    }

    /// The change number at the start of a line (`{"change":12,…`), read without parsing the
    /// rest: the history file is trimmed and repaired by these numbers alone.
    static func number(atStartOf line: some Collection<UInt8>) -> Int? {
        let prefix = Array(#"{"change":"#.utf8)
        guard line.starts(with: prefix) else { return nil }
        var number = 0
        var digits = 0
        for byte in line.dropFirst(prefix.count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
            guard digits < 18 else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return digits > 0 ? number : nil
    }
}

extension JSONForm where Value == TouchedItem {
    /// An item a change touched: the item as the change left it, or `{"removed":"ID"}`.
    static let touchedItem = Self(
        write: { touched, writer in
            guard let item = touched.item else { return RemovedItem(id: touched.id).write(to: &writer) }
            item.write(to: &writer)
        },
        read: { scanner, path throws(JSONDecodingError) in
            scanner.skipWhitespace()
            if scanner.isAt(#"{"removed":"#) {
                return TouchedItem(id: try RemovedItem(scanning: &scanner, path: path).id, item: nil)
            }
            guard let item = try JSONForm<ToDoItem>.item.read(&scanner, path) else { return nil }
            return TouchedItem(id: item.id, item: item)
        })
}

/// An item a change removed, as the history keeps it: `{"removed":"ID"}`.
private struct RemovedItem: JSONRecord {
    var id: UUID
    static let unread = RemovedItem(id: .unread)
    static let members: [JSONMember<RemovedItem>] = [.required("removed", { $1(&$0.id) }, .id)]
    static let missing = "expected the removed item's id"
}
