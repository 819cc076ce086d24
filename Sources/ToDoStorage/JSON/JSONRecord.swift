import ToDoModel

/// An object of one of todo's own files (the sync state and its account, a list's calendar, the
/// reminders' record), declared as a table of its members (`members`): each one's key, the property
/// that keeps it, and how its value is written and read (`JSONMember`). The writer and the reader
/// are made from the table, as an item's are from `ItemMember`: a member is declared once, and is
/// read as it is written.
package protocol JSONRecord {
    /// The value the reader fills in, member by member: each optional member at its default, and
    /// a placeholder for each required one (a record without it is refused, never kept).
    static var unread: Self { get }
    /// The members, in the order the writer writes them.
    static var members: [JSONMember<Self>] { get }
    /// What a record without one of its required members is refused with (unless the member says).
    static var missing: String { get }
}

/// A member of a `JSONRecord`: its key, whether a record must have it (and what one without it is
/// refused with, when not the record's `missing`), and how its value is written (nothing for
/// none) and read (whether it gave a value).
package struct JSONMember<Root> {
    package let key: StaticString
    let isRequired: Bool
    var missing: String? = nil
    let write: (Root, inout JSONWriter) -> Void
    let read: (inout Root, inout JSONScanner, () -> String) throws(JSONDecodingError) -> Bool
}

extension JSONRecord {
    /// Writes the record: its members in order, and what `more` writes after them.
    package func write(to writer: inout JSONWriter, more: (inout JSONWriter) -> Void = { _ in }) {
        writer.beginObject()
        for member in Self.members { member.write(self, &writer) }
        more(&writer)
        writer.endObject()
    }

    /// Reads the record that comes next; `path` names it in errors. A member it does not know is
    /// passed over, or given to `other` (which reads its value) when there is one.
    package init(
        scanning scanner: inout JSONScanner, path: () -> String,
        other: ((inout Self, inout JSONScanner, JSONStringToken) throws(JSONDecodingError) -> Void)? = nil
    ) throws(JSONDecodingError) {
        var record = Self.unread
        let members = Self.members
        var given = Set<Int>()
        try scanner.decodeObject(at: path) { scanner, key throws(JSONDecodingError) in
            guard let index = members.firstIndex(where: { $0.key ~= key }) else {
                if let other { return try other(&record, &scanner, key) }
                _ = try scanner.unknownValue()
                return
            }
            if try members[index].read(&record, &scanner, path) { given.insert(index) }
        }
        if let absent = members.indices.first(where: { members[$0].isRequired && !given.contains($0) }) {
            guard let missing = members[absent].missing else { throw .shape(path(), Self.missing) }
            throw .shape(memberPath(path(), members[absent].key.description), missing)
        }
        self = record
    }
}

extension JSONMember {
    /// A string, written when there is one; `read` gives the value a string stands for (`nil`:
    /// none, as `null` is).
    package static func text<Value>(
        _ key: StaticString, _ property: WritableKeyPath<Root, Value?>,
        written: @escaping (Value) -> String, read: @escaping (String) -> Value?
    ) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in writer.field(key, root[keyPath: property].map(written)) },
            read: { root, scanner, path throws(JSONDecodingError) in
                root[keyPath: property] = try scanner.string(at: { memberPath(path(), key.description) }).flatMap(read)
                return root[keyPath: property] != nil
            })
    }

    /// A string kept as it is, written when there is one.
    package static func text(_ key: StaticString, _ property: WritableKeyPath<Root, String?>) -> Self {
        text(key, property, written: { $0 }, read: { $0 })
    }

    /// A string a record must have; `read` gives the value it stands for (`nil`: not one, and the
    /// record is refused).
    package static func required<Value>(
        _ key: StaticString, _ property: WritableKeyPath<Root, Value>,
        written: @escaping (Value) -> String, read: @escaping (String) -> Value?
    ) -> Self {
        Self(
            key: key, isRequired: true,
            write: { root, writer in writer.field(key, written(root[keyPath: property])) },
            read: { root, scanner, path throws(JSONDecodingError) in
                guard let text = try scanner.string(at: { memberPath(path(), key.description) }), let value = read(text)
                else { return false }
                root[keyPath: property] = value
                return true
            })
    }

    /// A number, written when there is one.
    package static func number(_ key: StaticString, _ property: WritableKeyPath<Root, Double?>) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in writer.field(key, root[keyPath: property]) },
            read: { root, scanner, path throws(JSONDecodingError) in
                root[keyPath: property] = try scanner.double(at: { memberPath(path(), key.description) })
                return root[keyPath: property] != nil
            })
    }

    /// A number a record must have.
    package static func number(_ key: StaticString, _ property: WritableKeyPath<Root, Double>, required: Void) -> Self {
        Self(
            key: key, isRequired: true,
            write: { root, writer in writer.field(key, root[keyPath: property]) },
            read: { root, scanner, path throws(JSONDecodingError) in
                guard let value = try scanner.double(at: { memberPath(path(), key.description) }) else { return false }
                root[keyPath: property] = value
                return true
            })
    }

    /// A count, 0 or more, always written; none is 0.
    package static func count(_ key: StaticString, _ property: WritableKeyPath<Root, Int>) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in writer.field(key, root[keyPath: property]) },
            read: { root, scanner, path throws(JSONDecodingError) in
                root[keyPath: property] =
                    try scanner.int(at: { memberPath(path(), key.description) }, in: 0...Int.max) ?? 0
                return true
            })
    }

    /// A flag, written only when it is set: none, `null` or `false` is as unset.
    package static func flag(_ key: StaticString, _ property: WritableKeyPath<Root, Bool>) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in
                guard root[keyPath: property] else { return }
                writer.key(key)
                writer.bool(true)
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                root[keyPath: property] = try scanner.bool(at: { memberPath(path(), key.description) }) ?? false
                return true
            })
    }

    /// Strings, written (when there are any, or always when `evenNone`) and read each as `read`
    /// has it; a `null` among them is left out.
    package static func texts(
        _ key: StaticString, _ property: WritableKeyPath<Root, [String]>, evenNone: Bool = false,
        read: @escaping (String) -> String = { $0 }
    ) -> Self {
        array(key, property, evenNone: evenNone, written: { text, writer in writer.string(text) }) {
            scanner, name, _ throws(JSONDecodingError) in try scanner.string(at: { name }).map(read)
        }
    }

    /// A record of its own, written when there is one.
    package static func record<Record: JSONRecord>(
        _ key: StaticString, _ property: WritableKeyPath<Root, Record?>
    ) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in
                guard let record = root[keyPath: property] else { return }
                writer.key(key)
                record.write(to: &writer)
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                do throws(JSONSyntaxError) {
                    if try scanner.consumeNull() { return false }
                } catch {
                    throw .syntax(error)
                }
                root[keyPath: property] = try Record(scanning: &scanner, path: { memberPath(path(), key.description) })
                return true
            })
    }

    /// A record a record must have; one without it is refused with `missing`.
    package static func record<Record: JSONRecord>(
        _ key: StaticString, _ property: WritableKeyPath<Root, Record>, missing: String
    ) -> Self {
        Self(
            key: key, isRequired: true, missing: missing,
            write: { root, writer in
                writer.key(key)
                root[keyPath: property].write(to: &writer)
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                root[keyPath: property] = try Record(scanning: &scanner, path: { memberPath(path(), key.description) })
                return true
            })
    }

    /// Records, each written as its own, when there are any (or always, when `evenNone`); each
    /// read at its index (`lists[2]`).
    package static func records<Record: JSONRecord>(
        _ key: StaticString, _ property: WritableKeyPath<Root, [Record]>, evenNone: Bool = false
    ) -> Self {
        array(key, property, evenNone: evenNone, written: { record, writer in record.write(to: &writer) }) {
            scanner, name, index throws(JSONDecodingError) in
            try Record(scanning: &scanner, path: { "\(name)[\(index)]" })
        }
    }

    /// An array, written when it has elements (or always, when `evenNone`), each by `written`;
    /// read element by element by `read` (given the member's path and the element's index), which
    /// leaves out an element it gives `nil` for.
    private static func array<Element>(
        _ key: StaticString, _ property: WritableKeyPath<Root, [Element]>, evenNone: Bool,
        written: @escaping (Element, inout JSONWriter) -> Void,
        read: @escaping (inout JSONScanner, String, Int) throws(JSONDecodingError) -> Element?
    ) -> Self {
        Self(
            key: key, isRequired: false,
            write: { root, writer in
                guard evenNone || !root[keyPath: property].isEmpty else { return }
                writer.key(key)
                writer.beginArray()
                for element in root[keyPath: property] {
                    writer.element()
                    written(element, &writer)
                }
                writer.endArray()
            },
            read: { root, scanner, path throws(JSONDecodingError) in
                let name = memberPath(path(), key.description)
                var elements: [Element] = []
                try scanner.scanArray(mismatch: { kind in .shape(name, "expected an array, found \(kind)") }) {
                    scanner, index throws(JSONDecodingError) in
                    if let element = try read(&scanner, name, index) { elements.append(element) }
                }
                root[keyPath: property] = elements
                return true
            })
    }

    /// The file's format version, written first: a file of a newer version is refused before
    /// anything else of it is read (a newer todo may shape the rest otherwise).
    package static func version(_ current: Int, _ property: WritableKeyPath<Root, Int>) -> Self {
        Self(
            key: "version", isRequired: true, missing: "expected a number",
            write: { _, writer in writer.field("version", current) },
            read: { root, scanner, path throws(JSONDecodingError) in
                guard let version = try scanner.int(at: { memberPath(path(), "version") }, in: Int.min...Int.max) else {
                    return false
                }
                if version > current { throw .newerVersion(version) }
                root[keyPath: property] = version
                return true
            })
    }
}
