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

    /// Writes the value; `indent` is the current depth, or `nil` for compact output.
    private func write(to output: inout [UInt8], indent: Int?) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let literal): output.append(contentsOf: literal.utf8)
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            Self.writeContainer(elements, open: "[", close: "]", to: &output, indent: indent) { element, output, indent in
                element.write(to: &output, indent: indent)
            }
        case .object(let object):
            Self.writeContainer(Array(object.members), open: "{", close: "}", to: &output, indent: indent) { member, output, indent in
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

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case ..<0x20, 0x7F:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
