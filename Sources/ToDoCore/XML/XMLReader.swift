import ToDoModel
import ToDoStorage

/// Reads an XML document (UTF-8) into its root element, namespaces resolved by URI: the small part
/// of XML 1.0 that servers answer WebDAV in. It takes the declaration, comments, processing
/// instructions, CDATA, the five named references and character references, and a DOCTYPE
/// without an internal subset; it refuses entity declarations (a server has no need of them, and
/// they are how XML is made to explode). Built on bytes, as the JSON reader is, so that todo
/// need not load libxml2 at every start (FoundationXML would).
public enum XMLReader {
    public static func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLElement {
        var parser = Parser(bytes: bytes, keeping: { _ in true })
        return try parser.document()
    }

    /// Reads the document as `parse(_:)` does, checking all of it, but keeps only the elements
    /// `keeping` takes, given each element's path from the root (namespace and local name, the
    /// element itself last); an element not kept is read past, its text, attributes and
    /// descendants with it. What a caller does not use costs no memory: an answer of millions
    /// of elements todo does not read is not a tree of millions.
    /// `taking`, when given, is handed each kept child of the root as soon as it is read whole,
    /// and when it takes it (returns `true`), the root does not keep it: a caller turning each
    /// into a value of its own holds one element's tree at a time, not the document's.
    static func parse(
        _ bytes: [UInt8], keeping: @escaping ([(namespace: String, name: String)]) -> Bool,
        taking: ((XMLElement) -> Bool)? = nil
    ) throws(XMLSyntaxError) -> XMLElement {
        var parser = Parser(bytes: bytes, keeping: keeping)
        parser.taking = taking
        return try parser.document()
    }
}

private struct Parser {
    let bytes: [UInt8]
    var index = 0
    /// The prefixes declared in scope (`""` the default namespace), innermost last: looked up from
    /// the end, and cut back when the element that declared them ends.
    var declarations: [(prefix: String, uri: String)] = [("xml", "http://www.w3.org/XML/1998/namespace"), ("", "")]
    /// Elements deeper than this are refused: a hostile answer cannot exhaust the stack.
    static let maximumDepth = 200

    /// Which elements to keep (see `XMLReader.parse(_:keeping:)`), and the path to the current one.
    let keeping: ([(namespace: String, name: String)]) -> Bool
    var path: [(namespace: String, name: String)] = []
    /// Takes the root's children as they are read (see `XMLReader.parse(_:keeping:taking:)`).
    var taking: ((XMLElement) -> Bool)?

    init(bytes: [UInt8], keeping: @escaping ([(namespace: String, name: String)]) -> Bool) {
        self.bytes = bytes
        self.keeping = keeping
    }

    private func failure(_ reason: String) -> XMLSyntaxError {
        XMLSyntaxError(reason: reason, byteOffset: index)
    }

    private func starts(with text: String) -> Bool {
        let count = text.utf8.count
        guard index + count <= bytes.count else { return false }
        return bytes[index..<index + count].elementsEqual(text.utf8)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipSpace() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    /// Moves past the next `end`, or fails naming `what` was left open.
    private mutating func skip(past end: String, _ what: String) throws(XMLSyntaxError) {
        while index < bytes.count {
            if starts(with: end) {
                index += end.utf8.count
                return
            }
            index += 1
        }
        throw failure("\(what) is never closed")
    }

    mutating func document() throws(XMLSyntaxError) -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var root: XMLElement?
        while true {
            skipSpace()
            guard index < bytes.count else { break }
            if starts(with: "<?") {
                try skip(past: "?>", "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", "a comment")
            } else if starts(with: "<!DOCTYPE") {
                try doctype()
            } else if bytes[index] == UInt8(ascii: "<"), root == nil {
                root = try element(depth: 0, parentKept: true)
            } else {
                throw failure(root == nil ? "expected an element" : "more after the root element")
            }
        }
        guard let root else { throw failure("the document has no element") }
        return root
    }

    private mutating func doctype() throws(XMLSyntaxError) {
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "[") { throw failure("a DOCTYPE with declarations is not read") }
            index += 1
        }
        guard index < bytes.count else { throw failure("the DOCTYPE is never closed") }
        index += 1
    }

    /// Where a name is written (`D:href`, `href`).
    private mutating func nameRange() throws(XMLSyntaxError) -> Range<Int> {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "<")
            {
                break
            }
            index += 1
        }
        guard index > start else { throw failure("expected a name") }
        return start..<index
    }

    /// A name as written.
    private mutating func name() throws(XMLSyntaxError) -> String {
        let start = index
        guard let text = String(validating: bytes[try nameRange()], as: UTF8.self) else {
            index = start
            throw failure("expected a name")
        }
        return text
    }

    /// A kept element read whole, for its parent to keep; `nil` when `taking` took it (a child of
    /// the root).
    private func handedOver(_ element: XMLElement, depth: Int) -> XMLElement? {
        if depth == 1, let taking, taking(element) { return nil }
        return element
    }

    /// The element at `index`, read whole; `nil` when it is not kept (its parent was not, or
    /// `keeping` does not take it).
    private mutating func element(depth: Int, parentKept: Bool) throws(XMLSyntaxError) -> XMLElement? {
        guard depth < Self.maximumDepth else {
            throw failure("elements are nested more than \(Self.maximumDepth) deep")
        }
        index += 1
        let nameStart = index
        let nameBytes = try nameRange()
        guard let qualifiedName = String(validating: bytes[nameBytes], as: UTF8.self) else {
            index = nameStart
            throw failure("expected a name")
        }
        var written: [(name: String, value: String)] = []
        var empty = false
        while true {
            skipSpace()
            guard index < bytes.count else { throw failure("the tag <\(qualifiedName)> is never closed") }
            if starts(with: "/>") {
                index += 2
                empty = true
                break
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            let attribute = try name()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw failure("expected = after \(attribute)")
            }
            index += 1
            skipSpace()
            written.append((attribute, try attributeValue()))
        }
        let outerDeclarations = declarations.count
        defer { declarations.removeSubrange(outerDeclarations...) }
        var attributes: [String: String] = [:]
        for (name, value) in written {
            if name == "xmlns" {
                declarations.append(("", value))
            } else if name.hasPrefix("xmlns:") {
                declarations.append((String(name.dropFirst(6)), value))
            } else {
                attributes[name] = value
            }
        }
        let (prefix, local) = Self.split(qualifiedName)
        guard let namespace = declarations.last(where: { $0.prefix == prefix })?.uri else {
            throw failure("the prefix \(prefix) is not declared")
        }
        path.append((namespace, local))
        defer { path.removeLast() }
        // The root is always kept; an element not kept is read, not stored (its parent drops it).
        let kept = depth == 0 || (parentKept && keeping(path))
        var result = XMLElement(namespace: namespace, name: local, attributes: kept ? attributes : [:])
        guard !empty else { return kept ? handedOver(result, depth: depth) : nil }
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") {
                if kept { text.append(byte) }
                index += 1
            } else if starts(with: "</") {
                index += 2
                let closing = try nameRange()
                skipSpace()
                guard bytes[closing].elementsEqual(bytes[nameBytes]), index < bytes.count,
                    bytes[index] == UInt8(ascii: ">")
                else {
                    throw failure("expected </\(qualifiedName)>")
                }
                index += 1
                guard kept else { return nil }
                result.text = Self.string(text[...])
                return handedOver(result, depth: depth)
            } else if starts(with: "<!--") {
                try skip(past: "-->", "a comment")
            } else if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>", "a CDATA section")
                if kept { text += bytes[start..<(index - 3)] }
            } else if starts(with: "<?") {
                try skip(past: "?>", "a processing instruction")
            } else if byte == UInt8(ascii: "<") {
                if let child = try element(depth: depth + 1, parentKept: kept) { result.children.append(child) }
            } else {
                let referenced = try reference()
                if kept { text += referenced }
            }
        }
        throw failure("<\(qualifiedName)> is never closed")
    }

    private mutating func attributeValue() throws(XMLSyntaxError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw failure("expected a quoted value")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "&") {
                value += try reference()
            } else if bytes[index] == UInt8(ascii: "<") {
                throw failure("< in a value")
            } else {
                value.append(bytes[index])
                index += 1
            }
        }
        guard index < bytes.count else { throw failure("a value is never closed") }
        index += 1
        return Self.string(value[...])
    }

    /// The UTF-8 bytes a reference stands for: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#38;`, `&#x26;`.
    private mutating func reference() throws(XMLSyntaxError) -> [UInt8] {
        let start = index
        guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw failure("an & that starts no reference")
        }
        let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]
        if let byte = named[body] { return [byte] }
        var number: UInt32?
        if body.hasPrefix("#x") {
            number = UInt32(body.dropFirst(2), radix: 16)
        } else if body.hasPrefix("#") {
            number = UInt32(body.dropFirst(), radix: 10)
        }
        guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
            index = start
            throw failure("&\(body); is not a reference todo reads")
        }
        return Array(String(scalar).utf8)
    }

    /// The text of UTF-8 bytes. Bytes that are not UTF-8 are read as Windows-1252, as `todo
    /// import` reads such a file: one garbled task in a server's answer must not make the whole
    /// answer (and every task in it) unreadable. ASCII, what names and most values are, is taken
    /// without the general check.
    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return Windows1252.decodeUTF8OrLatin(bytes)
    }

    /// `D:href` as (`D`, `href`); `href` as (`""`, `href`).
    private static func split(_ name: String) -> (prefix: String, local: String) {
        let utf8 = name.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return ("", name) }
        return (String(name[..<colon]), String(name[utf8.index(after: colon)...]))
    }
}
