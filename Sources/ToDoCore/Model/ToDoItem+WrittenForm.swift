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
    /// When `text` is given (the text the scanner reads) and the item is written exactly as
    /// `write(to:)` writes it, down to each escape and digit, the item keeps its bytes.
    static func scanWrittenForm(_ scanner: inout JSONScanner, in text: StoredText? = nil) -> ToDoItem? {
        let start = scanner.index
        var isExact = true
        if var item = try? readWrittenForm(&scanner, isExact: &isExact) {
            if let text, isExact { item.writtenForm = WrittenForm(text: text, range: start..<scanner.index) }
            return item
        }
        scanner.index = start
        return nil
    }

    private struct NotWrittenForm: Error {}

    private static func readWrittenForm(_ scanner: inout JSONScanner, isExact: inout Bool) throws -> ToDoItem {
        guard scanner.consume("{\"id\":\"") else { throw NotWrittenForm() }
        let idStart = scanner.index
        guard scanner.bytes.count - idStart > 36, scanner.bytes[idStart + 36] == UInt8(ascii: "\""),
              let id = UUID(canonical: UnsafeBufferPointer(rebasing: scanner.bytes[idStart..<idStart + 36]))
        else { throw NotWrittenForm() }
        // The writer writes ids in upper case.
        if scanner.bytes[idStart..<idStart + 36].contains(where: { $0 >= UInt8(ascii: "a") }) { isExact = false }
        scanner.index += 37

        var number = 0
        if scanner.consume(",\"number\":") {
            guard startsNumber(scanner), case .integer(let value)? = try scanner.scanNumber(), (1...largestNumber).contains(value)
            else { throw NotWrittenForm() }
            number = value
        }
        guard scanner.consume(",\"title\":") else { throw NotWrittenForm() }
        var item = ToDoItem(title: try string(&scanner, &isExact), id: id)
        item.number = number
        if scanner.consume(",\"itemDescription\":") { item.itemDescription = try string(&scanner, &isExact) }
        if scanner.consume(",\"timestamp\":") { item.timestamp = try boundedNumber(&scanner, &isExact, in: timestampRange) }
        if scanner.consume(",\"location\":{\"name\":") {
            var location = Location(name: try string(&scanner, &isExact))
            if scanner.consume(",\"address\":") { location.address = try string(&scanner, &isExact) }
            if scanner.consume(",\"coordinate\":{\"latitude\":") {
                let latitude = try boundedNumber(&scanner, &isExact, in: Coordinate.latitudeRange)
                guard scanner.consume(",\"longitude\":") else { throw NotWrittenForm() }
                location.coordinate = Coordinate(latitude: latitude, longitude: try boundedNumber(&scanner, &isExact, in: Coordinate.longitudeRange))
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
        if scanner.consume(",\"createdAt\":") { item.createdAt = try boundedNumber(&scanner, &isExact, in: timestampRange) }
        if scanner.consume(",\"completedAt\":") { item.completedAt = try boundedNumber(&scanner, &isExact, in: timestampRange) }
        guard scanner.consume("}") else { throw NotWrittenForm() }
        return item
    }

    /// Whether a number starts right here: the written form has no white space before values.
    private static func startsNumber(_ scanner: JSONScanner) -> Bool {
        scanner.index < scanner.bytes.count && (scanner.bytes[scanner.index] == UInt8(ascii: "-") || scanner.isDigit(scanner.bytes[scanner.index]))
    }

    /// A string; exactly as written when the writer would escape it the same way.
    private static func string(_ scanner: inout JSONScanner, _ isExact: inout Bool) throws -> String {
        let start = scanner.index
        guard start < scanner.bytes.count, scanner.bytes[start] == UInt8(ascii: "\"") else { throw NotWrittenForm() }
        let token = try scanner.scanStringToken()
        switch token {
        case .raw(let bytes):
            // Without escapes, DEL is the one byte valid JSON holds that the writer would escape.
            if bytes.contains(0x7F) { isExact = false }
        case .decoded:
            if !hasWritersEscapes(UnsafeBufferPointer(rebasing: scanner.bytes[start + 1..<scanner.index - 1])) { isExact = false }
        }
        return token.string
    }

    /// Whether every escape in `text`, the inside of a valid JSON string, is the one
    /// `JSONValue.writeString` writes (`JSONValue.appendEscape`): `\"`, `\\`, `\n`, `\r`, `\t`, and
    /// `\u00` with two lower-case hex digits for the other bytes it escapes; and no byte it escapes
    /// stands unescaped. Checked in place, without decoding: half the items of a list have a line
    /// break in their description, and this runs for every one of them on every read.
    private static func hasWritersEscapes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        func lowerHexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "\\") else {
                if JSONValue.needsEscape(text[index]) { return false }
                index += 1
                continue
            }
            switch text[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                guard text[index + 2] == UInt8(ascii: "0"), text[index + 3] == UInt8(ascii: "0"),
                      let high = lowerHexValue(text[index + 4]), let low = lowerHexValue(text[index + 5]) else { return false }
                let byte = high << 4 | low
                // The bytes with a two-character escape never take this form.
                guard JSONValue.needsEscape(byte), ![0x0A, 0x0D, 0x09, 0x22, 0x5C].contains(byte) else { return false }
                index += 6
            default:
                return false
            }
        }
        return true
    }

    /// A number within `range`; exactly as written when the writer would give the same digits.
    private static func boundedNumber(_ scanner: inout JSONScanner, _ isExact: inout Bool, in range: ClosedRange<Double>) throws -> Double {
        let start = scanner.index
        guard startsNumber(scanner), let token = try scanner.scanNumber(), let value = token.finiteValue, range.contains(value) else { throw NotWrittenForm() }
        switch token {
        case .literal(let literal): if literal != JSONValue.literal(for: value) { isExact = false }
        case .integer(let integer): if integer == 0, scanner.bytes[start] == UInt8(ascii: "-") { isExact = false }
        }
        return value
    }
}

/// A file's text, shared by the items read from it.
final class StoredText: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// Where an item's written form is in the text it was read from.
struct WrittenForm: Equatable, Sendable {
    let text: StoredText
    let range: Range<Int>

    var bytes: ArraySlice<UInt8> { text.bytes[range] }

    /// Always equal: whether an item remembers its bytes is not part of its value.
    static func == (lhs: WrittenForm, rhs: WrittenForm) -> Bool { true }
}
