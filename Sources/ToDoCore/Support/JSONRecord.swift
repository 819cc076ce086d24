import ToDoModel
import ToDoStorage

/// An object of one of todo's own files (the sync state, the reminders' record, a line of the
/// history or of the journal, a change's step), declared as a table of its members (`members`):
/// each one's key, the property that keeps it, and the form its value is written and read in
/// (`JSONMember`, `JSONForm`). The writer and the reader are made from the table, as an item's are
/// from `ItemMember`: a member is declared once, and is read as it is written.
package protocol JSONRecord: JSONStreamable {
    /// The value the reader fills in, member by member: each optional member at its default, and
    /// a placeholder for each required one (a record without it is refused, never kept).
    static var unread: Self { get }
    /// The members, in the order the writer writes them (at most 64).
    static var members: [JSONMember<Self>] { get }
    /// What a record without one of its required members is refused with (unless the member says).
    static var missing: String { get }
    /// Members of which a record holds at most one (the kinds of a step), and what one that holds
    /// more is refused with; none unless the record says.
    static var alternatives: (members: Range<Int>, refusal: String)? { get }
}

/// How a value is written and read: as a string, a number, an id, a record, an array of such…
/// Each member of a record (`JSONMember`) and each element of an array holds its value in one.
///
/// Sendable without a check: immutable, and its closures capture only other forms and constants,
/// so that a record's table of members can be a `static let`, made once.
package struct JSONForm<Value>: @unchecked Sendable {
    package let write: (Value, inout JSONWriter) -> Void
    /// Reads the value that comes next, `path` naming it in errors: `nil` for none, which `null`
    /// is to a scalar's form (a string, a number, a flag, an id) and to one made `orNone`; to the
    /// others (a record, an item, an array) `null` is refused.
    package let read: (inout JSONScanner, () -> String) throws(JSONDecodingError) -> Value?

    package init(
        write: @escaping (Value, inout JSONWriter) -> Void,
        read: @escaping (inout JSONScanner, () -> String) throws(JSONDecodingError) -> Value?
    ) {
        self.write = write
        self.read = read
    }
}

/// Where a record keeps a member's value: a closure that hands that property of a record to its
/// second argument, to read or to set in place: `{ $1(&$0.title) }`. (Not a key path: each key path
/// is made by the runtime at the first use in every process, and applied through it; the tables'
/// key paths cost an `add` 11% more instructions.)
package typealias JSONProperty<Root, Value> = (inout Root, (inout Value) -> Void) -> Void

/// A member of a `JSONRecord`: its key, whether a record must have it (and what one without it is
/// refused with, when not the record's `missing`), and how its value is written (nothing for
/// none) and read (whether it gave a value). Sendable without a check, as `JSONForm` is: its
/// closures capture only its key, its property's closure and a form.
package struct JSONMember<Root>: @unchecked Sendable {
    package let key: StaticString
    let isRequired: Bool
    var missing: String? = nil
    /// Writes the member of the record (which it may set to what it holds: a copy, `write(to:)`'s own).
    let write: (inout Root, inout JSONWriter) -> Void
    let read: (inout Root, inout JSONScanner, () -> String) throws(JSONDecodingError) -> Bool
}

extension JSONRecord {
    package static var alternatives: (members: Range<Int>, refusal: String)? { nil }

    /// Writes the record: its members in order.
    package func write(to writer: inout JSONWriter) {
        var record = self
        writer.beginObject()
        for member in Self.members { member.write(&record, &writer) }
        writer.endObject()
    }

    /// Reads the record that comes next; `path` names it in errors. A member it does not know is
    /// passed over.
    package init(scanning scanner: inout JSONScanner, path: () -> String) throws(JSONDecodingError) {
        self = Self.unread
        let members = Self.members
        /// The members given, one bit each.
        var given: UInt64 = 0
        /// Where the member after the last one read is: members mostly come in the writer's order.
        var next = 0
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            let index: Int
            if next < members.count, members[next].key ~= key {
                index = next
            } else if let found = members.firstIndex(where: { $0.key ~= key }) {
                index = found
            } else {
                _ = try scanner.unknownValue()
                return
            }
            next = index + 1
            if try members[index].read(&self, &scanner, path) { given |= 1 << index }
        }
        if let (alternatives, refusal) = Self.alternatives,
            (given >> alternatives.lowerBound & (1 << alternatives.count - 1)).nonzeroBitCount > 1
        {
            throw .shape(path(), refusal)
        }
        if let absent = members.indices.first(where: { members[$0].isRequired && given & 1 << $0 == 0 }) {
            guard let missing = members[absent].missing else { throw .shape(path(), Self.missing) }
            throw .shape(memberPath(path(), members[absent].key.description), missing)
        }
    }
}

// MARK: - Members

extension JSONMember {
    /// A value written when there is one; none or `null` reads as none.
    package static func optional<Value>(
        _ key: StaticString, _ property: @escaping JSONProperty<Root, Value?>, _ form: JSONForm<Value>
    ) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in
                property(&root) { value in
                    guard let value else { return }
                    writer.key(key)
                    form.write(value, &writer)
                }
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                var value = try form.read(&scanner, { memberPath(path(), key.description) })
                let isGiven = value != nil
                property(&root) { swap(&$0, &value) }
                return isGiven
            })
    }

    /// A value always written; a record without it (or with `null`) keeps the one `unread` has.
    package static func always<Value>(
        _ key: StaticString, _ property: @escaping JSONProperty<Root, Value>, _ form: JSONForm<Value>
    ) -> Self {
        Self(
            key: key, isRequired: false, write: { root, writer in written(key, property, form, &root, &writer) },
            read: { root, scanner, path throws(JSONDecodingError) in
                try read(key, property, form, &root, &scanner, path)
            })
    }

    /// A value a record must have: one without it (or with `null`, or a value `form` gives none
    /// for) is refused with `missing`, or the record's own `missing`.
    package static func required<Value>(
        _ key: StaticString, _ property: @escaping JSONProperty<Root, Value>, _ form: JSONForm<Value>,
        missing: String? = nil
    ) -> Self {
        Self(
            key: key, isRequired: true, missing: missing,
            write: { root, writer in written(key, property, form, &root, &writer) },
            read: { root, scanner, path throws(JSONDecodingError) in
                try read(key, property, form, &root, &scanner, path)
            })
    }

    /// Values written when there are any; a record without them (or with `null`) has none.
    package static func nonEmpty<Element>(
        _ key: StaticString, _ property: @escaping JSONProperty<Root, [Element]>, _ form: JSONForm<[Element]>
    ) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in
                property(&root) { elements in
                    guard !elements.isEmpty else { return }
                    writer.key(key)
                    form.write(elements, &writer)
                }
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                try read(key, property, form, &root, &scanner, path)
            })
    }

    /// A flag, written only when it is set: none, `null` or `false` is as unset.
    package static func flag(_ key: StaticString, _ property: @escaping JSONProperty<Root, Bool>) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in
                property(&root) { isSet in
                    guard isSet else { return }
                    writer.key(key)
                    writer.bool(true)
                }
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                let isSet = try scanner.bool(at: { memberPath(path(), key.description) }) ?? false
                property(&root) { $0 = isSet }
                return true
            })
    }

    /// The file's format version, written first: a file of a newer version is refused before
    /// anything else of it is read (a newer todo may shape the rest otherwise).
    package static func version(_ current: Int, _ property: @escaping JSONProperty<Root, Int>) -> Self {
        Self(
            key: "version", isRequired: true, missing: "expected a number",
            write: { _, writer in writer.field("version", current) },
            read: { root, scanner, path throws(JSONDecodingError) in
                guard let version = try scanner.int(at: { memberPath(path(), "version") }, in: Int.min...Int.max) else {
                    return false
                }
                if version > current { throw .newerVersion(version) }
                property(&root) { $0 = version }
                return true
            })
    }

    private static func written<Value>(
        _ key: StaticString, _ property: JSONProperty<Root, Value>, _ form: JSONForm<Value>, _ root: inout Root,
        _ writer: inout JSONWriter
    ) {
        property(&root) { value in
            writer.key(key)
            form.write(value, &writer)
        }
    }

    /// Reads the member's value into `property` when there is one (not `null`); whether there was.
    private static func read<Value>(
        _ key: StaticString, _ property: JSONProperty<Root, Value>, _ form: JSONForm<Value>,
        _ root: inout Root, _ scanner: inout JSONScanner, _ path: () -> String
    ) throws(JSONDecodingError) -> Bool {
        guard var value = try form.read(&scanner, { memberPath(path(), key.description) }) else { return false }
        property(&root) { swap(&$0, &value) }
        return true
    }
}

// MARK: - Forms

extension JSONForm where Value == String {
    /// A string, as it is.
    package static var string: Self {
        Self(
            write: { $1.string($0) }, read: { scanner, path throws(JSONDecodingError) in try scanner.string(at: path) })
    }
}

extension JSONForm {
    /// A string standing for a value: `written` spells the value, `read` gives the value a string
    /// stands for; a string it gives none for is as none (`null`) or, with `refusing`, refused as
    /// not what was `expected`, as `null` then is.
    package static func string(
        written: @escaping (Value) -> String, read: @escaping (String) -> Value?, refusing expected: String? = nil
    ) -> Self {
        Self(
            write: { value, writer in writer.string(written(value)) },
            read: { scanner, path throws(JSONDecodingError) in
                guard let text = try scanner.string(at: path) else {
                    if let expected { throw .shape(path(), "expected \(expected), found null") }
                    return nil
                }
                guard let value = read(text) else {
                    if let expected { throw .shape(path(), "expected \(expected)") }
                    return nil
                }
                return value
            })
    }

    /// A value of its own form (a record, an item…). `null` is refused, as anything but the value
    /// is; a member that takes it as none says so (`orNone`).
    package static func of(_ type: Value.Type) -> Self where Value: JSONStreamable {
        Self(
            write: { value, writer in value.write(to: &writer) },
            read: { scanner, path throws(JSONDecodingError) in try Value(scanning: &scanner, path: path) })
    }

    /// The form with `null` read as none.
    package var orNone: Self {
        Self(
            write: write,
            read: { [read] scanner, path throws(JSONDecodingError) in
                do throws(JSONSyntaxError) {
                    if try scanner.consumeNull() { return nil }
                } catch {
                    throw .syntax(error)
                }
                return try read(&scanner, path)
            })
    }

    /// Values of `element`'s form, as an array (`null` refused): each read at its index
    /// (`lists[2]`), a `null` among them refused (or, with `leavingOutNone`, left out, as an
    /// element `element` gives none for); with `oneToALine`, each element written on a line of
    /// its own.
    package static func array<Element>(
        of element: JSONForm<Element>, leavingOutNone: Bool = false, oneToALine: Bool = false
    ) -> Self where Value == [Element] {
        Self(
            write: { elements, writer in
                writer.beginArray()
                for value in elements {
                    writer.element()
                    if oneToALine { writer.bytes.append(UInt8(ascii: "\n")) }
                    element.write(value, &writer)
                }
                if oneToALine, !elements.isEmpty { writer.bytes.append(UInt8(ascii: "\n")) }
                writer.endArray()
            },
            read: { scanner, path throws(JSONDecodingError) in
                var elements: [Element] = []
                try scanner.scanArray(mismatch: { kind in .shape(path(), "expected an array, found \(kind)") }) {
                    scanner, index throws(JSONDecodingError) in
                    func elementPath() -> String { "\(path())[\(index)]" }
                    if let value = try element.read(&scanner, elementPath) {
                        elements.append(value)
                    } else if !leavingOutNone {
                        throw .shape(elementPath(), "expected a value, found null")
                    }
                }
                return elements
            })
    }
}

extension JSONForm where Value == Double {
    /// A finite number (within `range`, when given).
    package static func number(in range: ClosedRange<Double>? = nil) -> Self {
        Self(
            write: { $1.number($0) },
            read: { scanner, path throws(JSONDecodingError) in try scanner.double(at: path, in: range) })
    }
}

extension JSONForm where Value == Int {
    /// A whole number within `range`.
    package static func whole(in range: ClosedRange<Int>) -> Self {
        Self(
            write: { $1.int($0) },
            read: { scanner, path throws(JSONDecodingError) in try scanner.int(at: path, in: range) })
    }

    /// A count: a whole number, 0 or more.
    package static var count: Self { whole(in: 0...Int.max) }
}

extension JSONForm where Value == Bool {
    /// `true` or `false`.
    package static var bool: Self {
        Self(write: { $1.bool($0) }, read: { scanner, path throws(JSONDecodingError) in try scanner.bool(at: path) })
    }
}

extension UUID {
    /// The placeholder of a record's required id while it is read (`JSONRecord.unread`).
    package static let unread = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension JSONForm where Value == UUID {
    /// An id, in its canonical form (either letter case read, upper case written).
    package static var id: Self {
        Self(
            write: { id, writer in writer.uuid(id) },
            read: { scanner, path throws(JSONDecodingError) in
                guard let text = try scanner.string(at: path) else { return nil }
                guard let id = UUID(canonical: text) else { throw .shape(path(), "expected an id, found \"\(text)\"") }
                return id
            })
    }
}

extension JSONForm where Value == ToDoItem {
    /// An item of one of todo's own files, decoded (`null` refused).
    static var item: Self { of(ToDoItem.self) }
}
