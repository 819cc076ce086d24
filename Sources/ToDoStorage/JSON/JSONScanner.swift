import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where and why a text is not valid JSON.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in a few lowercase words.
    public let reason: String
    /// The offset of the offending byte from the start of the text, counting from 0.
    public let byteOffset: Int
    /// The line of the offending byte, counting from 1.
    public let line: Int
    /// The column of the offending character within its line, counting characters from 1.
    public let column: Int

    public init(reason: String, byteOffset: Int, line: Int, column: Int) {
        self.reason = reason
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    public var description: String {
        "\(reason) at line \(line), column \(column) (byte \(byteOffset))"
    }
}

extension JSONValue {
    /// Parses one JSON value from UTF-8 `bytes` (RFC 8259), rejecting invalid UTF-8, duplicate keys
    /// within an object and anything after the value. A leading byte order mark is skipped.
    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var scanner = JSONScanner(bytes: buffer)
            return try scanner.scanDocument { scanner throws(JSONSyntaxError) in try scanner.parseValue() }
        }
    }
}

/// Reads JSON from a byte buffer one piece at a time: the generic `parseValue`, and the pieces a
/// decoder for a known schema uses to read straight into its own types without building a tree.
package struct JSONScanner {
    /// Deeper nesting is refused rather than risking the stack on a hostile file.
    package static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0
    package var depth = 0
    /// The keys of the objects being read, innermost last, for refusing a duplicate: offset and
    /// length pairs of keys without escapes (plain integers, nothing to retain), and the decoded
    /// keys that had escapes. One list for the whole scan, not one per object.
    private var openKeyRanges: [Int] = []
    private var openEscapedKeys: [String] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads a whole document with `readValue`: skips a byte order mark, refuses an empty text and
    /// anything after the value.
    /// Reads `bytes` as one JSON document with `readValue` (`scanDocument`).
    package static func scanDocument<Value, Failure: JSONScanFailure>(
        in bytes: [UInt8], _ readValue: (inout JSONScanner) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
            var scanner = JSONScanner(bytes: buffer)
            return try scanner.scanDocument(readValue)
        }
    }

    package mutating func scanDocument<Value, Failure: Error>(
        _ readValue: (inout JSONScanner) throws(Failure) -> Value
    ) throws(Failure) -> Value where Failure: JSONScanFailure {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        if index == bytes.count {
            throw Failure(error(bytes.isEmpty ? "the file is empty" : "no JSON value"))
        }
        let value = try readValue(&self)
        skipWhitespace()
        if index < bytes.count {
            throw Failure(error("unexpected \(describeByte(at: index)) after the JSON value"))
        }
        return value
    }

    // MARK: Pieces for decoders

    /// What kind of value comes next, as an error names it ("a string"); after white space.
    package mutating func nextKind() -> String {
        skipWhitespace()
        guard index < bytes.count else { return "the end of the file" }
        switch bytes[index] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    /// Throws the syntax error of `parseValue` when no JSON value starts here (the end of the file,
    /// a stray byte), so that it is not taken for a value of the wrong kind.
    package func checkValueStarts() throws(JSONSyntaxError) {
        guard index < bytes.count else { throw unexpected(expected: "a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return
        default:
            throw error("unexpected \(describeByte(at: index)), expected a value")
        }
    }

    /// Whether the next value is `null`, which it then consumes.
    package mutating func consumeNull() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "n") else { return false }
        try parseLiteral("null")
        return true
    }

    /// Calls `body` with each key of the object that comes next, positioned at the key's value,
    /// which `body` must read. Duplicate keys are refused. When the next value is not an object,
    /// `mismatch` is given what it is and returns the error to throw (`nil`: a syntax error here).
    @inline(__always)
    package mutating func scanObject<Failure: JSONScanFailure>(
        mismatch: (String) -> Failure? = { _ in nil },
        _ body: (inout JSONScanner, JSONStringToken) throws(Failure) -> Void
    ) throws(Failure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            do { try checkValueStarts() } catch { throw Failure(error) }
            throw mismatch(nextKind()) ?? Failure(unexpected(expected: "an object"))
        }
        do { try enterContainer() } catch { throw Failure(error) }
        index += 1
        let firstRange = openKeyRanges.count, firstEscaped = openEscapedKeys.count
        defer {
            openKeyRanges.removeSubrange(firstRange...)
            openEscapedKeys.removeSubrange(firstEscaped...)
        }
        skipWhitespace()
        if !consume(UInt8(ascii: "}")) {
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw Failure(unexpected(expected: "a string key"))
                }
                let keyStart = index
                let key: JSONStringToken
                do { key = try scanStringToken() } catch { throw Failure(error) }
                // Objects here have a handful of keys: a scan beats hashing every key.
                if isOpenKey(key, rangesFrom: firstRange, escapedFrom: firstEscaped) {
                    throw Failure(error("duplicate key \"\(key.string)\"", at: keyStart))
                }
                switch key {
                case .raw(let bytes):
                    openKeyRanges.append(bytes.baseAddress.map { $0 - self.bytes.baseAddress! } ?? 0)
                    openKeyRanges.append(bytes.count)
                case .decoded(let string):
                    openEscapedKeys.append(string)
                }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw Failure(unexpected(expected: "':'")) }
                skipWhitespace()
                try body(&self, key)
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "}")) { break }
                throw Failure(unexpected(expected: "',' or '}'"))
            }
        }
        depth -= 1
    }

    /// Whether `key` is already a key of the innermost object being read.
    private func isOpenKey(_ key: JSONStringToken, rangesFrom firstRange: Int, escapedFrom firstEscaped: Int) -> Bool {
        key.withUTF8 { keyBytes in
            var position = firstRange
            while position < openKeyRanges.count {
                let count = openKeyRanges[position + 1]
                if count == keyBytes.count,
                    count == 0
                        || memcmp(bytes.baseAddress! + openKeyRanges[position], keyBytes.baseAddress!, count) == 0
                {
                    return true
                }
                position += 2
            }
            return openEscapedKeys[firstEscaped...].contains {
                JSONStringToken.decoded($0) == JSONStringToken.raw(keyBytes)
            }
        }
    }

    /// Calls `body` with the position of each element of the array that comes next; `body` must
    /// read the element. When the next value is not an array, `mismatch` is given what it is and
    /// returns the error to throw (`nil`: a syntax error here).
    @inline(__always)
    package mutating func scanArray<Failure: JSONScanFailure>(
        mismatch: (String) -> Failure? = { _ in nil },
        _ body: (inout JSONScanner, Int) throws(Failure) -> Void
    ) throws(Failure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            do { try checkValueStarts() } catch { throw Failure(error) }
            throw mismatch(nextKind()) ?? Failure(unexpected(expected: "an array"))
        }
        do { try enterContainer() } catch { throw Failure(error) }
        index += 1
        skipWhitespace()
        if !consume(UInt8(ascii: "]")) {
            var position = 0
            while true {
                skipWhitespace()
                try body(&self, position)
                position += 1
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                if consume(UInt8(ascii: "]")) { break }
                throw Failure(unexpected(expected: "',' or ']'"))
            }
        }
        depth -= 1
    }

    /// The string that comes next, or `nil` when something else does (nothing is consumed then).
    package mutating func scanString() throws(JSONSyntaxError) -> JSONStringToken? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        return try scanStringToken()
    }

    /// The boolean that comes next, or `nil` when something else does.
    package mutating func scanBool() throws(JSONSyntaxError) -> Bool? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "t"):
            if !consume("true") { try parseLiteral("true") }
            return true
        case UInt8(ascii: "f"):
            if !consume("false") { try parseLiteral("false") }
            return false
        default: return nil
        }
    }

    /// The number that comes next, or `nil` when something else does: a plain integer of up to 18
    /// digits is read from its digits (most numbers in a list); any other as its literal text.
    package mutating func scanNumber() throws(JSONSyntaxError) -> JSONNumberToken? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || isDigit(bytes[index]) else { return nil }
        if let integer = scanPlainInteger() { return .integer(integer) }
        let start = index
        try skipNumber()
        let negative = bytes[start] == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: bytes[(negative ? start + 1 : start)..<index])
        if digits.count <= 18, digits.allSatisfy(isDigit) {
            let magnitude = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            return .integer(negative ? -magnitude : magnitude)
        }
        return .literal(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// A non-negative integer of 1 to 18 digits without a leading zero, read straight from its
    /// digits (nearly every number in a list); `nil` with nothing consumed for any other number.
    @inline(__always)
    private mutating func scanPlainInteger() -> Int? {
        var position = index, value = 0
        while position < bytes.count, position - index < 18, isDigit(bytes[position]) {
            value = value &* 10 &+ Int(bytes[position] &- UInt8(ascii: "0"))
            position += 1
        }
        let count = position - index
        guard count > 0, count == 1 || bytes[index] != UInt8(ascii: "0") else { return nil }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                return nil
            default: break
            }
        }
        index = position
        return value
    }

    // MARK: Values

    package mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeByte(at: index)), expected a value")
        }
    }

    package mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        var object = JSONObject()
        try scanObject { scanner, key throws(JSONSyntaxError) in
            object.appendUnchecked(key: key.string, value: try scanner.parseValue())
        }
        return .object(object)
    }

    package mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        try scanArray { scanner, _ throws(JSONSyntaxError) in
            elements.append(try scanner.parseValue())
        }
        return .array(elements)
    }

    package mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    package mutating func parseLiteral(_ word: String) throws(JSONSyntaxError) {
        let start = index
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("invalid literal, expected '\(word)'", at: start)
            }
            index += 1
        }
    }

    package mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try skipNumber()
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// Moves past one number, checking it against the JSON grammar.
    package mutating func skipNumber() throws(JSONSyntaxError) {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw unexpected(expected: "a digit")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("leading zero in a number", at: start)
            }
        } else {
            skipDigits()
        }
        if consume(UInt8(ascii: ".")) {
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw unexpected(expected: "a digit after '.'")
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw unexpected(expected: "a digit in the exponent")
            }
            skipDigits()
        }
    }

    // MARK: Strings

    package mutating func parseString() throws(JSONSyntaxError) -> String {
        try scanStringToken().string
    }

    /// The string that starts here: its bytes when it has no escapes (most strings, and every
    /// key this program writes), else its decoded text. Either way checked as UTF-8.
    package mutating func scanStringToken() throws(JSONSyntaxError) -> JSONStringToken {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: a string without escapes is one slice of the input.
        let isASCII = try skipToQuoteOrEscape(ofStringAt: start)
        if bytes[index] == UInt8(ascii: "\"") {
            let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
            index += 1
            if !isASCII { try checkUTF8(content, at: contentStart) }
            return .raw(content)
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        try decodeRest(ofStringAt: start, isASCII: isASCII, into: &scalars, from: 0)
        return .decoded(String(decoding: scalars, as: UTF8.self))
    }

    /// Appends the text of the string that starts here to `output`, decoded and checked as
    /// `scanStringToken` checks it, without making a `String`: a list shows thousands of titles.
    package mutating func appendString(to output: inout [UInt8]) throws(JSONSyntaxError) {
        let start = index, outputStart = output.count
        index += 1
        let contentStart = index
        let isASCII = try skipToQuoteOrEscape(ofStringAt: start)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            if !isASCII {
                try checkUTF8(UnsafeBufferPointer(rebasing: bytes[contentStart..<index - 1]), at: contentStart)
            }
            return
        }
        try decodeRest(ofStringAt: start, isASCII: isASCII, into: &output, from: outputStart)
    }

    /// Moves over the text of the string that starts at `start` to its closing quote or its first
    /// escape, and returns whether all it passed was ASCII.
    @inline(__always)
    private mutating func skipToQuoteOrEscape(ofStringAt start: Int) throws(JSONSyntaxError) -> Bool {
        var isASCII = true
        skipPlainASCII()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return isASCII }
            if byte < 0x20 { throw controlCharacterError() }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        throw error("unterminated string", at: start)
    }

    /// The rest of the string that starts at `start`, from the escape here, decoded onto `output`,
    /// whose text of this string starts at `outputStart`; checked as UTF-8 unless all of it so far
    /// was ASCII and the rest is.
    private mutating func decodeRest(
        ofStringAt start: Int, isASCII: Bool, into output: inout [UInt8], from outputStart: Int
    ) throws(JSONSyntaxError) {
        let contentStart = start + 1
        var isASCII = isASCII
        while index < bytes.count {
            // Text between escapes is copied a run at a time.
            let runStart = index
            skipPlainASCII()
            if index > runStart {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if !isASCII {
                    try output.withUnsafeBufferPointer { output throws(JSONSyntaxError) in
                        try checkUTF8(UnsafeBufferPointer(rebasing: output[outputStart...]), at: contentStart)
                    }
                }
                return
            case UInt8(ascii: "\\"):
                try appendEscape(to: &output)
            case ..<0x20:
                throw controlCharacterError()
            default:
                if byte >= 0x80 { isASCII = false }
                output.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    package mutating func appendEscape(to output: inout [UInt8]) throws(JSONSyntaxError) {
        let scalar = try escapedScalar()
        if scalar.isASCII {
            output.append(UInt8(scalar.value))
        } else {
            output.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    /// The scalar the escape that starts here stands for, moving past it.
    package mutating func escapedScalar() throws(JSONSyntaxError) -> Unicode.Scalar {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("unterminated string", at: escapeStart) }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(code)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHexQuad(escapeStart: escapeStart))
            if (0xD800...0xDBFF).contains(scalar) {
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error("unpaired surrogate in \\u escape", at: escapeStart)
                }
                index += 2
                let low = UInt32(try parseHexQuad(escapeStart: lowStart))
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("unpaired surrogate in \\u escape", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired surrogate in \\u escape", at: escapeStart)
            }
            return Unicode.Scalar(scalar)!
        default:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(code)))'", at: escapeStart)
        }
    }

    /// Moves past the string that starts here, checked as `scanStringToken` checks it (escapes,
    /// control characters, UTF-8), without decoding it.
    package mutating func skipString() throws(JSONSyntaxError) {
        let start = index
        index += 1
        let contentStart = index
        var isASCII = true
        while true {
            skipPlainASCII()
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Escapes are ASCII and stand for whole scalars: the text is UTF-8 exactly when
                // its bytes as written are.
                if !isASCII {
                    try checkUTF8(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), at: contentStart)
                }
                index += 1
                return
            case UInt8(ascii: "\\"):
                _ = try escapedScalar()
            case ..<0x20:
                throw controlCharacterError()
            default:
                if byte >= 0x80 { isASCII = false }
                index += 1
            }
        }
    }

    package mutating func parseHexQuad(escapeStart: Int) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = HexDigit.value(bytes[index]) else {
                throw error("invalid \\u escape, expected four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Throws at the first byte of `content` (which starts at `start`) that is not valid UTF-8.
    func checkUTF8(_ content: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONSyntaxError) {
        if let invalid = Self.firstInvalidUTF8Offset(in: content) {
            throw error("invalid UTF-8 in a string", at: start + invalid)
        }
    }

    /// The offset within `content` of the first byte that does not begin a valid UTF-8 sequence,
    /// or `nil`.
    static func firstInvalidUTF8Offset(in content: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < content.count {
            guard let length = utf8SequenceLength(content, at: index) else { return index }
            index += length
        }
        return nil
    }

    /// The length of the valid UTF-8 sequence that starts at `index` (RFC 3629: no overlong forms,
    /// no surrogates, nothing above U+10FFFF), or `nil` when none does.
    @inline(__always)
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count, (lower...upper).contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }

    // MARK: Scanning

    /// Moves past text that needs no attention (see `plainASCIICount`): most of the text of a list.
    @inline(__always)
    package mutating func skipPlainASCII() {
        index += plainASCIICount(bytes.baseAddress! + index, bytes.count - index)
    }

    /// Inlined: it is called before and after every token, and most often finds nothing to skip.
    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    package mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// Moves past `text` when it comes next, byte for byte (`isSameBytes`).
    @inline(__always)
    package mutating func consume(_ text: StaticString) -> Bool {
        guard isAt(text) else { return false }
        index += text.utf8CodeUnitCount
        return true
    }

    /// Whether `text` comes next, byte for byte (nothing is consumed).
    @inline(__always)
    package func isAt(_ text: StaticString) -> Bool {
        bytes.count - index >= text.utf8CodeUnitCount && isSameBytes(UnsafeRawPointer(bytes.baseAddress! + index), text)
    }

    /// The byte `offset` bytes on, or 0 past the end.
    @inline(__always)
    package func byte(at offset: Int) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    package mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    package func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    // MARK: Errors

    package func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    package func unexpected(expected: String) -> JSONSyntaxError {
        guard index < bytes.count else { return error("unexpected end of file, expected \(expected)") }
        return error("unexpected \(describeByte(at: index)), expected \(expected)")
    }

    package func controlCharacterError() -> JSONSyntaxError {
        error("unescaped control character in a string")
    }

    package func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntaxError(reason: reason, byteOffset: offset, line: line, column: column)
    }
}

/// An error type a scan can report a syntax error as, so that decoders with their own error type
/// can use the scanner's pieces.
package protocol JSONScanFailure: Error {
    init(_ syntaxError: JSONSyntaxError)
}

extension JSONSyntaxError: JSONScanFailure {
    package init(_ syntaxError: JSONSyntaxError) {
        self = syntaxError
    }
}

/// A string of the text being scanned: its bytes when it had no escapes, or its decoded value. Only
/// valid while the scanner's bytes are.
package enum JSONStringToken: Equatable {
    case raw(UnsafeBufferPointer<UInt8>)
    case decoded(String)

    package var string: String {
        switch self {
        case .raw(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .decoded(let string): return string
        }
    }

    /// Calls `body` with the string's UTF-8 bytes, without making a `String` of raw bytes.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .raw(let bytes): return body(bytes)
        case .decoded(var string): return string.withUTF8(body)
        }
    }

    package static func == (lhs: JSONStringToken, rhs: JSONStringToken) -> Bool {
        lhs.withUTF8 { left in rhs.withUTF8 { right in sameBytes(left, right.baseAddress, right.count) } }
    }

    /// Lets a decoder `switch` over keys with string literals, comparing bytes.
    package static func ~= (pattern: StaticString, token: JSONStringToken) -> Bool {
        token.withUTF8 { bytes in sameBytes(bytes, pattern.utf8Start, pattern.utf8CodeUnitCount) }
    }

    private static func sameBytes(
        _ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafePointer<UInt8>?, _ count: Int
    ) -> Bool {
        guard bytes.count == count else { return false }
        guard count > 0, let base = bytes.baseAddress, let other else { return true }
        return memcmp(base, other, count) == 0
    }
}

/// A number of the text being scanned: a plain integer, or the literal text of any other.
package enum JSONNumberToken {
    case integer(Int)
    case literal(Substring)

    /// The number as a `Double`; `nil` when it is too large for one.
    package var finiteValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .literal(let literal): return Double(literal).flatMap { $0.isFinite ? $0 : nil }
        }
    }
}

/// Whether the `text.utf8CodeUnitCount` bytes at `here` (which must hold that many) are `text`'s.
/// A text of up to 16 bytes (a key, `true`, the start of an item) is compared as two words that
/// may overlap, without a call or a loop; a longer one with `memcmp`.
@inline(__always)
func isSameBytes(_ here: UnsafeRawPointer, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount, expected = UnsafeRawPointer(text.utf8Start)
    switch count {
    case 17...:
        return memcmp(here, expected, count) == 0
    case 8...:
        return here.loadUnaligned(as: UInt64.self) == expected.loadUnaligned(as: UInt64.self)
            && here.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == expected.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    case 4...:
        return here.loadUnaligned(as: UInt32.self) == expected.loadUnaligned(as: UInt32.self)
            && here.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                == expected.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    case 2...:
        return here.loadUnaligned(as: UInt16.self) == expected.loadUnaligned(as: UInt16.self)
            && here.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
                == expected.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
    case 1:
        return here.load(as: UInt8.self) == expected.load(as: UInt8.self)
    default:
        return true
    }
}

/// How many bytes from `start` are printable ASCII other than `"`, `\\` and DEL: what JSON strings
/// are mostly made of, and what neither the reader nor the writer needs to look at one by one.
/// Counted eight at a time: each test sets the top bit of the bytes it finds (the classic "has a
/// zero byte" trick, whose false alarms only ever fall above a true one, so the lowest is the first
/// such byte); the word itself has it set in bytes of 0x80 and over.
@inline(__always)
func plainASCIICount(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
    var offset = 0
    while count - offset >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self))
        let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C), deletes = word ^ (ones &* 0x7F)
        let special = (word &- ones &* 0x20) | (quotes &- ones) | (backslashes &- ones) | (deletes &- ones)
        let found = (special & ~word | word) & highBits
        if found != 0 { return offset + found.trailingZeroBitCount / 8 }
        offset += 8
    }
    while offset < count, !JSONValue.needsEscape(start[offset]), start[offset] < 0x80 { offset += 1 }
    return offset
}
