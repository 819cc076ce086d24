import ToDoModel

extension JSONValue {
    /// This value as UTF-8 JSON text: indented by two spaces, one member or element per line, keys in
    /// their stored order, and a final newline, so that a diff of two files shows what changed.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(to: &output, indent: 0)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// This value as compact one-line JSON text, for output meant for one line of a pipe.
    public func serializedCompactly() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output, indent: nil)
        return output
    }

    /// An array as `todo list --json` prints items: each element compact on a line of its own,
    /// indented by two spaces, and a final newline; any other value compact on one line.
    public func serializedOneElementPerLine() -> [UInt8] {
        guard case .array(let elements) = self, !elements.isEmpty else {
            return serializedCompactly() + [UInt8(ascii: "\n")]
        }
        var output = Array("[".utf8)
        for (index, element) in elements.enumerated() {
            output.append(contentsOf: (index == 0 ? "\n  " : ",\n  ").utf8)
            element.write(to: &output, indent: nil)
        }
        output.append(contentsOf: "\n]\n".utf8)
        return output
    }

    /// Writes the value; `indent` is the current depth, or `nil` for compact output.
    private func write(to output: inout [UInt8], indent: Int?) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let literal): output.append(contentsOf: literal.utf8)
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            Self.writeContainer(elements, open: "[", close: "]", to: &output, indent: indent) {
                element, output, indent in
                element.write(to: &output, indent: indent)
            }
        case .object(let object):
            Self.writeContainer(Array(object.members), open: "{", close: "}", to: &output, indent: indent) {
                member, output, indent in
                Self.writeString(member.0, to: &output)
                output.append(contentsOf: (indent == nil ? ":" : ": ").utf8)
                member.1.write(to: &output, indent: indent)
            }
        }
    }

    private static func writeContainer<Element>(
        _ elements: [Element], open: Unicode.Scalar, close: Unicode.Scalar,
        to output: inout [UInt8], indent: Int?,
        writeElement: (Element, inout [UInt8], Int?) -> Void
    ) {
        output.append(UInt8(ascii: open))
        guard !elements.isEmpty else {
            output.append(UInt8(ascii: close))
            return
        }
        let inner = indent.map { $0 + 1 }
        for (position, element) in elements.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            writeNewline(to: &output, indent: inner)
            writeElement(element, &output, inner)
        }
        writeNewline(to: &output, indent: indent)
        output.append(UInt8(ascii: close))
    }

    private static func writeNewline(to output: inout [UInt8], indent: Int?) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    package static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Runs that need no escape, nearly all of any text, are copied in one piece.
            var runStart = 0
            var index = bytes.isEmpty ? 0 : plainASCIICount(bytes.baseAddress!, bytes.count)
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                guard needsEscape(byte) else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index - 1]))
                runStart = index
                appendEscape(of: byte, to: &output)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether strings are written with `byte` escaped: quotes, backslashes, control characters
    /// and DEL.
    package static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Appends the escape strings are written with for `byte`, one that `needsEscape`.
    package static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        default:
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// Writes compact JSON straight into a byte buffer, for types that know their own schema. Members
/// and elements get their commas; the caller opens and closes each container.
package struct JSONWriter {
    package var bytes: [UInt8] = []
    /// For each open container: whether nothing has been written in it yet.
    private var isFirst: [Bool] = []

    package init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the member `key` of the current object; its value is written next.
    package mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(contentsOf: "\":".utf8)
    }

    /// Starts a member whose key is not known in advance (a field the program does not know).
    package mutating func key(_ key: String) {
        separate()
        JSONValue.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts the next element of the current array.
    package mutating func element() { separate() }

    package mutating func string(_ string: String) { JSONValue.writeString(string, to: &bytes) }

    /// An array of strings.
    package mutating func strings(_ strings: [String]) {
        beginArray()
        for string in strings {
            element()
            self.string(string)
        }
        endArray()
    }
    package mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    package mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits come out last first: they fill a buffer on the stack from its end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = value.magnitude
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A finite number: whole values as integers, others as the shortest round-tripping decimal.
    package mutating func number(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 {
            int(Int(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// The member `key` when `value` is set; nothing when it is `nil` (absent optionals are left out).
    package mutating func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// The member `key` with a number when `value` is set.
    package mutating func field(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        self.key(key)
        number(value)
    }

    /// The member `key` with a nested value when `value` is set.
    package mutating func field<Value: JSONSchema>(_ key: StaticString, _ value: Value?) {
        guard let value else { return }
        self.key(key)
        value.write(to: &self)
    }

    /// Any value, compactly.
    package mutating func value(_ value: JSONValue) { bytes.append(contentsOf: value.serializedCompactly()) }

    /// Bytes that are already a complete value, written as they are, as `beginObject` to
    /// `endObject` would.
    mutating func raw(_ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: value)
    }

    /// A UUID in its canonical upper-case form, without building a string for it.
    package mutating func uuid(_ id: UUID) {
        func digit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
        }
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(digit(byte >> 4))
                bytes.append(digit(byte & 0x0F))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func open(_ byte: UInt8) {
        bytes.append(byte)
        isFirst.append(true)
    }

    private mutating func close(_ byte: UInt8) {
        isFirst.removeLast()
        bytes.append(byte)
    }

    /// A comma before every member or element but the first of its container.
    private mutating func separate() {
        guard !isFirst.isEmpty else { return }
        if isFirst[isFirst.count - 1] {
            isFirst[isFirst.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }
}
