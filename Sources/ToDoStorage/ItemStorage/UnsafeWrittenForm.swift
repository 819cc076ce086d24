import ToDoModel

/// An item in the exact written form, as found in a text: what a `ToDoItem` keeps of it.
package struct WrittenItem: Sendable {
    package let id: UUID
    package let number: Int
    package let done: Bool
    package let range: Range<Int>
    let offsets: UnsafeWrittenForm.Offsets
    package let isExact: Bool
}

/// Where an item in the exact written form is in the text it was read from, and where each of its
/// fields starts there: the item's fields are read from it when asked for. Plain values, so that
/// reading a field counts no reference. Unsafe: the pointer is valid only while the text it points
/// into lives, which `ItemStorage` keeps alive beside it.
struct UnsafeWrittenForm: @unchecked Sendable {
    /// The item's first byte.
    let start: UnsafePointer<UInt8>
    /// How many bytes it has (`WrittenFormReader.longestItem` at most).
    private let length: Offset
    /// Whether the bytes are exactly what the writer writes (`WrittenFormReader`), so that they
    /// may be copied back; else the item is in another program's layout.
    package let isExact: Bool
    package let offsets: Offsets

    /// Where `item` is in `text`, which its range counts from.
    package init(_ item: WrittenItem, in text: borrowing StoredText) {
        start = text.start + item.range.lowerBound
        length = Offset(truncatingIfNeeded: item.range.count)
        offsets = item.offsets
        isExact = item.isExact
    }

    /// How many bytes the item has.
    package var count: Int { Int(length) }

    /// Where a field's value starts, from the start of the item: 16 bits, so that the offsets of
    /// a list's every item stay small to copy; an item of 64 KB or more is left to the general
    /// reader (`WrittenFormReader.longestItem`).
    package typealias Offset = UInt16

    /// Where each member's value starts, from the start of the item, one lane a member
    /// (`ItemMember`, by its raw value); 0 for a member the item lacks. One plain value of 64
    /// bytes, whatever members the table has (`ItemMemberTests` checks they fit).
    package struct Offsets: Equatable, Sendable {
        package var lanes = SIMD32<Offset>()

        package subscript(member: ItemMember) -> Offset {
            get { lanes[member.rawValue] }
            set { lanes[member.rawValue] = newValue }
        }

        /// Whether the item has `member`.
        package func has(_ member: ItemMember) -> Bool { lanes[member.rawValue] != 0 }
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// A string member's value.
    package func text(_ member: ItemMember) -> String? { value(at: offsets[member], WrittenFormReader.string) }

    /// A time member's value.
    package func time(_ member: ItemMember) -> Double? {
        value(at: offsets[member]) { WrittenFormReader.number(&$0, in: ToDoItem.timestampRange) }
    }

    /// A due or a start: the time under `time`, or the day under `day` (`ItemMember.alternative`).
    package func date(_ time: ItemMember, or day: ItemMember) -> ItemDate? {
        if offsets.has(day) { return value(at: offsets[day], WrittenFormReader.day).map(ItemDate.day) }
        return self.time(time).map(ItemDate.time)
    }

    /// The due: a time or a day.
    package var due: ItemDate? { date(.timestamp, or: .dueDate) }

    /// The start: a time or a day.
    package var startDate: ItemDate? { date(.start, or: .startDate) }

    /// A flag member's value: `false` when the item lacks it.
    package func flag(_ member: ItemMember) -> Bool {
        offsets.has(member) && start[Int(offsets[member])] == UInt8(ascii: "t")
    }

    /// A whole number member's value, within `range` (where the reader checked it was).
    package func whole(_ member: ItemMember, in range: ClosedRange<Int>) -> Int? {
        value(at: offsets[member]) { WrittenFormReader.whole(&$0, in: range) }
    }

    package var priority: Int? { whole(.priority, in: ToDoItem.priorityRange) }

    package var tags: [String] { value(at: offsets[.tags], WrittenFormReader.tags) ?? [] }
    package var parent: UUID? { value(at: offsets[.parent]) { WrittenFormReader.uuid(&$0) } }

    package var location: Location? {
        value(at: offsets[.location], isExact ? WrittenFormReader.location : WrittenFormReader.locationInOtherLayout)
    }

    /// The item's fields, each read as the general reader reads it (`ToDoItem.read(_:…)`) from
    /// where it is.
    package var fields: ItemFields {
        var fields = ItemFields(title: "")
        var unknown = UnknownMembers()
        for member in ItemMember.allCases where offsets.has(member) {
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = Int(offsets[member])
            // Checked when the item was read: each reads as it did then.
            try? ToDoItem.read(member, &scanner, into: &fields, unknown: &unknown, at: { "" })
        }
        ToDoItem.finishReading(&fields)
        return fields
    }

    /// The location's name alone.
    package var locationName: String? {
        guard isExact else {
            return value(at: offsets[.location]) { scanner in
                guard let name = WrittenFormReader.locationNameInOtherLayout(&scanner) else { return nil }
                scanner.index = name
                return WrittenFormReader.string(&scanner)
            }
        }
        return value(at: offsets[.location]) { scanner in
            scanner.consume("{\"name\":") ? WrittenFormReader.string(&scanner) : nil
        }
    }

    /// `body` called with the title's bytes when it has no escapes (so they are its UTF-8), else `nil`.
    func withUnescapedTitle<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let bytes = bytes
        return Self.unescapedString(at: Int(offsets[.title]), in: bytes).map {
            body(UnsafeBufferPointer(rebasing: bytes[$0]))
        }
    }

    /// What a list shows of the item (`StoredItem.listFields(into:withDue:)`), its strings'
    /// bytes appended to `text` straight from the list's text when they have no escapes.
    @inline(__always)
    package func listFields(into text: inout [UInt8], withDue: Bool) -> ListFields {
        let buffer = bytes
        let title = Self.append(stringAt: Int(offsets[.title]), in: buffer, to: &text)
        var place: Range<Int>?
        var scanner = JSONScanner(bytes: buffer)
        scanner.index = Int(offsets[.location])
        if !isExact, offsets.has(.location), let name = WrittenFormReader.locationNameInOtherLayout(&scanner) {
            place = Self.append(stringAt: name, in: buffer, to: &text)
        } else if isExact, offsets.has(.location), scanner.consume("{\"name\":") {
            place = Self.append(stringAt: scanner.index, in: buffer, to: &text)
        }
        var tags: (shown: Range<Int>?, written: Range<Int>?) = (nil, nil)
        if offsets.has(.tags) {
            tags = ListFields.appendTags(UnsafeBufferPointer(rebasing: buffer[Int(offsets[.tags])...]), to: &text)
        }
        let project = offsets.has(.project) ? Self.append(stringAt: Int(offsets[.project]), in: buffer, to: &text) : nil
        let list = offsets.has(.list) ? Self.append(stringAt: Int(offsets[.list]), in: buffer, to: &text) : nil
        return ListFields(
            title: title, locationName: place, date: withDue ? due : nil,
            repeats: offsets.has(.repeatRule),
            priority: priority, shownTags: tags.shown, tags: tags.written, project: project, list: list,
            hasAlarms: offsets.has(.alarms))
    }

    /// Appends the UTF-8 of the string at `index` to `text`, decoded only when it has escapes,
    /// and returns where it is.
    private static func append(
        stringAt index: Int, in bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]
    ) -> Range<Int> {
        let start = text.count
        if let range = unescapedString(at: index, in: bytes) {
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
        } else {
            var scanner = JSONScanner(bytes: bytes)
            scanner.index = index
            // (Checked when the item was read: a string that fails here shows as empty, as before.)
            if (try? scanner.appendString(to: &text)) == nil { text.removeSubrange(start...) }
        }
        return start..<text.count
    }

    /// Where the contents of the string at `index` are, when it has no escapes, else `nil`. The
    /// string was checked when the item was read: it ends in a quote, and holds no control bytes.
    private static func unescapedString(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard index < bytes.count, let base = bytes.baseAddress else { return nil }
        var end = index + 1
        while true {
            end += plainASCIICount(base + end, bytes.count - end)
            guard end < bytes.count, bytes[end] != UInt8(ascii: "\\") else { return nil }
            if bytes[end] == UInt8(ascii: "\"") { return index + 1..<end }
            end += 1
        }
    }

    /// The value at `offset`, read as it was checked when the item was read (so it is there);
    /// `nil` for a field the item lacks.
    private func value<Value>(at offset: Offset, _ read: (inout JSONScanner) -> Value?) -> Value? {
        guard offset > 0 else { return nil }
        var scanner = JSONScanner(bytes: bytes)
        scanner.index = Int(offset)
        return read(&scanner)
    }
}
