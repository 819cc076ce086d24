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
    /// The item's first byte and how many it has.
    let start: UnsafePointer<UInt8>
    package let count: Int
    package let offsets: Offsets
    /// The number and status written in the bytes: an item whose own differ is written anew.
    package let number: Int
    package let done: Bool
    /// Whether the bytes are exactly what the writer writes (`WrittenFormReader`), so that they
    /// may be copied back; else the item is in another program's layout.
    package let isExact: Bool

    /// Where `item` is in `text`, which its range counts from.
    package init(_ item: WrittenItem, in text: borrowing StoredText) {
        start = text.start + item.range.lowerBound
        count = item.range.count
        offsets = item.offsets
        number = item.number
        done = item.done
        isExact = item.isExact
    }

    /// Where a field's value starts, from the start of the item: 16 bits, so that the offsets of
    /// a list's every item stay small to copy; an item of 64 KB or more is left to the general
    /// reader (`WrittenFormReader.longestItem`).
    package typealias Offset = UInt16

    /// Where each field's value starts, from the start of the item; 0 for a field the item lacks.
    package struct Offsets: Sendable {
        package var title: Offset = 0
        package var itemDescription: Offset = 0
        /// The due's value: seconds, or a day when `dueIsDay` (written under `dueDate`).
        package var due: Offset = 0
        package var allDay: Offset = 0
        /// The start's value: seconds, or a day when `startIsDay`.
        package var start: Offset = 0
        package var repeatRule: Offset = 0
        package var location: Offset = 0
        package var priority: Offset = 0
        package var tags: Offset = 0
        package var parent: Offset = 0
        package var project: Offset = 0
        package var list: Offset = 0
        package var alarms: Offset = 0
        package var createdAt: Offset = 0
        package var completedAt: Offset = 0
        package var modifiedAt: Offset = 0
        package var dueIsDay = false
        package var startIsDay = false
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    package var title: String { value(at: offsets.title, WrittenFormReader.string) ?? "" }
    package var itemDescription: String? { value(at: offsets.itemDescription, WrittenFormReader.string) }
    package var due: ItemDate? { date(at: offsets.due, isDay: offsets.dueIsDay) }
    /// As the general reader reads it: said only of a due in seconds.
    package var legacyAllDay: Bool? { offsets.dueIsDay ? nil : value(at: offsets.allDay) { try? $0.scanBool() } }
    package var startDate: ItemDate? { date(at: offsets.start, isDay: offsets.startIsDay) }
    package var repeatRule: String? { value(at: offsets.repeatRule, WrittenFormReader.string) }
    package var location: Location? {
        value(at: offsets.location, isExact ? WrittenFormReader.location : WrittenFormReader.locationInOtherLayout)
    }
    package var priority: Int? { value(at: offsets.priority, WrittenFormReader.priority) }
    package var tags: [String] { value(at: offsets.tags, WrittenFormReader.tags) ?? [] }
    package var parent: UUID? { value(at: offsets.parent) { WrittenFormReader.uuid(&$0) } }
    package var project: String? { value(at: offsets.project, WrittenFormReader.string) }
    package var list: String? { value(at: offsets.list, WrittenFormReader.string) }
    package var alarms: [Alarm] { value(at: offsets.alarms, WrittenFormReader.alarms) ?? [] }
    package var createdAt: Double? { time(at: offsets.createdAt) }
    package var completedAt: Double? { time(at: offsets.completedAt) }
    package var modifiedAt: Double? { time(at: offsets.modifiedAt) }

    package var fields: ItemFields {
        ItemFields(
            title: title, itemDescription: itemDescription, due: due, start: startDate, legacyAllDay: legacyAllDay,
            repeatRule: repeatRule, location: location,
            priority: priority, tags: tags, parent: parent, project: project, list: list, alarms: alarms,
            createdAt: createdAt,
            completedAt: completedAt, modifiedAt: modifiedAt)
    }

    /// The location's name alone.
    package var locationName: String? {
        guard isExact else {
            return value(at: offsets.location) { scanner in
                guard let name = WrittenFormReader.locationNameInOtherLayout(&scanner) else { return nil }
                scanner.index = name
                return WrittenFormReader.string(&scanner)
            }
        }
        return value(at: offsets.location) { scanner in
            scanner.consume("{\"name\":") ? WrittenFormReader.string(&scanner) : nil
        }
    }

    /// `body` called with the title's bytes when it has no escapes (so they are its UTF-8), else `nil`.
    func withUnescapedTitle<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        let bytes = bytes
        return Self.unescapedString(at: Int(offsets.title), in: bytes).map {
            body(UnsafeBufferPointer(rebasing: bytes[$0]))
        }
    }

    /// What a list shows of the item (`StoredItem.listFields(into:withDue:)`), its strings'
    /// bytes appended to `text` straight from the list's text when they have no escapes.
    @inline(__always)
    package func listFields(into text: inout [UInt8], withDue: Bool) -> ListFields {
        let buffer = bytes
        let title = Self.append(stringAt: Int(offsets.title), in: buffer, to: &text)
        var place: Range<Int>?
        var scanner = JSONScanner(bytes: buffer)
        scanner.index = Int(offsets.location)
        if !isExact, offsets.location > 0, let name = WrittenFormReader.locationNameInOtherLayout(&scanner) {
            place = Self.append(stringAt: name, in: buffer, to: &text)
        } else if isExact, offsets.location > 0, scanner.consume("{\"name\":") {
            place = Self.append(stringAt: scanner.index, in: buffer, to: &text)
        }
        var tags: (shown: Range<Int>?, written: Range<Int>?) = (nil, nil)
        if offsets.tags > 0 {
            tags = ListFields.appendTags(UnsafeBufferPointer(rebasing: buffer[Int(offsets.tags)...]), to: &text)
        }
        let project = offsets.project > 0 ? Self.append(stringAt: Int(offsets.project), in: buffer, to: &text) : nil
        let list = offsets.list > 0 ? Self.append(stringAt: Int(offsets.list), in: buffer, to: &text) : nil
        return ListFields(
            title: title, locationName: place, date: withDue ? due : nil, repeats: offsets.repeatRule > 0,
            priority: priority, shownTags: tags.shown, tags: tags.written, project: project, list: list,
            hasAlarms: offsets.alarms > 0)
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

    private func time(at offset: Offset) -> Double? {
        value(at: offset) { WrittenFormReader.number(&$0, in: ToDoItem.timestampRange) }
    }

    /// The day or the time at `offset`.
    private func date(at offset: Offset, isDay: Bool) -> ItemDate? {
        isDay ? value(at: offset, WrittenFormReader.day).map(ItemDate.day) : time(at: offset).map(ItemDate.time)
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
