import Foundation

/// A shortcut for reading the items of a file todo wrote. `write(to:)` gives every item one form:
/// its known keys in their order, no white space, nothing else. An item in exactly that form is read
/// here by expecting each key's bytes in turn, without the general reader's key matching and
/// duplicate-key bookkeeping. Anything else (white space, another order, a field this version does
/// not know, a value out of range, a syntax error) leaves the item to `init(scanning:path:)`, which
/// gives the same result or the precise error: the shortcut only ever accepts what the general
/// reader reads the same way (`ToDoItemWrittenFormTests` checks that on random and mutated items).
extension ToDoItem {
    /// The item that comes next if it is in the written form, else `nil` with nothing consumed.
    static func scanWrittenForm(_ scanner: inout JSONScanner) -> ToDoItem? {
        let start = scanner.index
        if let item = try? readWrittenForm(&scanner) { return item }
        scanner.index = start
        return nil
    }

    private struct NotWrittenForm: Error {}

    private static func readWrittenForm(_ scanner: inout JSONScanner) throws -> ToDoItem {
        guard scanner.consume("{\"id\":\"") else { throw NotWrittenForm() }
        let idStart = scanner.index
        guard scanner.bytes.count - idStart > 36, scanner.bytes[idStart + 36] == UInt8(ascii: "\""),
              let id = UUID(canonical: UnsafeBufferPointer(rebasing: scanner.bytes[idStart..<idStart + 36]))
        else { throw NotWrittenForm() }
        scanner.index += 37

        var number = 0
        if scanner.consume(",\"number\":") {
            guard case .integer(let value)? = try scanner.scanNumber(), (1...largestNumber).contains(value) else { throw NotWrittenForm() }
            number = value
        }
        guard scanner.consume(",\"title\":") else { throw NotWrittenForm() }
        var item = ToDoItem(title: try string(&scanner), id: id)
        item.number = number
        if scanner.consume(",\"itemDescription\":") { item.itemDescription = try string(&scanner) }
        if scanner.consume(",\"timestamp\":") { item.timestamp = try boundedNumber(&scanner, in: timestampRange) }
        if scanner.consume(",\"location\":{\"name\":") {
            var location = Location(name: try string(&scanner))
            if scanner.consume(",\"address\":") { location.address = try string(&scanner) }
            if scanner.consume(",\"coordinate\":{\"latitude\":") {
                let latitude = try boundedNumber(&scanner, in: Coordinate.latitudeRange)
                guard scanner.consume(",\"longitude\":") else { throw NotWrittenForm() }
                location.coordinate = Coordinate(latitude: latitude, longitude: try boundedNumber(&scanner, in: Coordinate.longitudeRange))
                guard scanner.consume("}") else { throw NotWrittenForm() }
            }
            guard scanner.consume("}") else { throw NotWrittenForm() }
            item.location = location
        }
        if scanner.consume(",\"done\":true") {
            item.done = true
        } else if !scanner.consume(",\"done\":false") {
            throw NotWrittenForm()
        }
        if scanner.consume(",\"createdAt\":") { item.createdAt = try boundedNumber(&scanner, in: timestampRange) }
        if scanner.consume(",\"completedAt\":") { item.completedAt = try boundedNumber(&scanner, in: timestampRange) }
        guard scanner.consume("}") else { throw NotWrittenForm() }
        return item
    }

    private static func string(_ scanner: inout JSONScanner) throws -> String {
        guard scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else { throw NotWrittenForm() }
        return try scanner.scanStringToken().string
    }

    private static func boundedNumber(_ scanner: inout JSONScanner, in range: ClosedRange<Double>) throws -> Double {
        guard let value = try scanner.scanNumber()?.finiteValue, range.contains(value) else { throw NotWrittenForm() }
        return value
    }
}
