import ToDoModel

/// Lists of items written as JSON arrays, one compact item per line. Unchanged items are copied
/// from the text they were read from (`UnsafeWrittenForm`), runs of them at once: most of a list,
/// for most changes.
extension ToDoItem {
    /// `items` as a JSON array with one compact item per line (as in the data file), written
    /// straight from the items: fast for long lists, and easy for line-based tools.
    public static func jsonArray(_ items: [ToDoItem]) -> [UInt8] {
        var bytes: [UInt8] = []
        StoredItem.writeJSONArray([items.map(StoredItem.init)], to: { bytes.append(contentsOf: $0) })
        return bytes
    }
}

extension StoredItem {
    /// `jsonArray` of the items of `sections` one after another, handed to `emit` a piece of about
    /// a megabyte at a time, so that a long list is never held whole in memory. (Arrays rather
    /// than any sequence: a generic call from another module would not be specialised, and would
    /// look up type metadata for every item.)
    package static func writeJSONArray(_ sections: [[StoredItem]], to emit: ([UInt8]) -> Void) {
        var writer = JSONWriter(capacity: pieceSize + 64 * 1024)
        writeArray(sections.joined(), indent: "  ", closingIndent: "", into: &writer, emit: emit)
        writer.bytes.append(UInt8(ascii: "\n"))
        emit(writer.bytes)
    }

    /// How much output `writeArray` gathers before handing it on.
    package static let pieceSize = 1 << 20

    /// Writes `items` as an array, one compact item per line after `indent`, the closing bracket on
    /// a line of its own after `closingIndent` (or right after `[` when there are none). Whenever a
    /// piece of `pieceSize` has gathered in `writer`, it goes to `emit`; the rest stays for the caller.
    /// `noting` is told of each item where it was written, its range counted from the first byte
    /// `writer` held (none emitted before), and its fields' places: copied or written, it is in the
    /// exact written form; `nil` for one that is not (`WrittenFormReader` cannot read it so).
    /// Returns how many bytes went to `emit`.
    @discardableResult
    package static func writeArray<Items: Sequence<StoredItem>, Failure: Error>(
        _ items: Items, indent: String, closingIndent: String, into writer: inout JSONWriter,
        emit: ([UInt8]) throws(Failure) -> Void, noting: ((StoredItem, WrittenItem?) -> Void)? = nil
    ) throws(Failure) -> Int {
        /// How many bytes went to `emit`: a byte's place in the output is this and its place in `writer`.
        var emitted = 0
        func emitPiece() throws(Failure) {
            emitted += writer.bytes.count
            try emit(writer.bytes)
            writer.bytes.removeAll(keepingCapacity: true)
        }
        writer.bytes.append(UInt8(ascii: "["))
        var isEmpty = true
        // What goes before each item, as bytes once rather than as strings for every item.
        let first = Array("\n\(indent)".utf8), separator = Array(",\n\(indent)".utf8)
        /// Unchanged items that lie one after another in the text they were read from, with this
        /// separator between them, are copied as one run of bytes: most of a list, for most changes.
        var run: (text: UnsafePointer<UInt8>, bytes: UnsafeBufferPointer<UInt8>)?
        /// Where the run's first byte goes in the output.
        var runPlace = 0
        func note(_ item: StoredItem, _ form: UnsafeWrittenForm, at place: Int) {
            noting?(
                item,
                WrittenItem(
                    id: item.id, number: item.number, done: item.done, range: place..<place + form.count,
                    offsets: form.offsets, isExact: form.isExact))
        }
        func copyRun() throws(Failure) {
            guard var bytes = run?.bytes else { return }
            run = nil
            while !bytes.isEmpty {
                let count = min(bytes.count, max(pieceSize - writer.bytes.count, 0))
                writer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<count]))
                bytes = UnsafeBufferPointer(rebasing: bytes[count...])
                if writer.bytes.count >= pieceSize { try emitPiece() }
            }
        }
        for item in items {
            if let text = item.writtenTextStart, let form = item.writtenForm {
                if let current = run, current.text == text,
                    let end = current.bytes.baseAddress.map({ $0 + current.bytes.count }),
                    form.start == end + separator.count,
                    separator.elementsEqual(UnsafeBufferPointer(start: end, count: separator.count))
                {
                    if noting != nil, let runStart = current.bytes.baseAddress {
                        note(item, form, at: runPlace + (form.start - runStart))
                    }
                    run = (
                        text,
                        UnsafeBufferPointer(
                            start: current.bytes.baseAddress, count: current.bytes.count + separator.count + form.count)
                    )
                    continue
                }
                try copyRun()
                writer.bytes.append(contentsOf: isEmpty ? first : separator)
                isEmpty = false
                run = (text, form.bytes)
                runPlace = emitted + writer.bytes.count
                if noting != nil { note(item, form, at: runPlace) }
                continue
            }
            try copyRun()
            writer.bytes.append(contentsOf: isEmpty ? first : separator)
            isEmpty = false
            let itemStart = writer.bytes.count
            item.write(to: &writer)
            if let noting {
                // Read back as a reader would: the places of its fields, if it has the written form.
                let written = writer.bytes.withUnsafeBufferPointer { bytes -> WrittenItem? in
                    var scanner = JSONScanner(bytes: bytes)
                    scanner.index = itemStart
                    guard let item = WrittenFormReader.item(&scanner), scanner.index == bytes.count else { return nil }
                    return item
                }
                let place = emitted
                noting(
                    item,
                    written.map {
                        WrittenItem(
                            id: $0.id, number: $0.number, done: $0.done,
                            range: place + $0.range.lowerBound..<place + $0.range.upperBound,
                            offsets: $0.offsets, isExact: $0.isExact)
                    })
            }
            if writer.bytes.count >= pieceSize { try emitPiece() }
        }
        try copyRun()
        if !isEmpty {
            writer.bytes.append(UInt8(ascii: "\n"))
            writer.bytes.append(contentsOf: closingIndent.utf8)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        return emitted
    }
}
