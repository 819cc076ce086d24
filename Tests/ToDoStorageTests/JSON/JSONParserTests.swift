import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

final class JSONParserTests: XCTestCase {
    func test_parsesEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}, "e": ""} "#)

        var inner = JSONObject()
        inner["c"] = .string("d")
        var expected = JSONObject()
        expected["a"] = .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null])
        expected["b"] = .object(inner)
        expected["e"] = .string("")
        XCTAssertEqual(value, .object(expected))
    }

    func test_keepsKeyOrderAsInTheText() throws {
        guard case .object(let object) = try parse(#"{"zeta": 1, "alpha": 2, "mid": 3}"#) else { return XCTFail() }

        XCTAssertEqual(object.keys, ["zeta", "alpha", "mid"])
    }

    func test_keepsNumbersAsTheirLiteralText() throws {
        XCTAssertEqual(try parse("123456789012345678901234567890"), .number("123456789012345678901234567890"))
        XCTAssertEqual(try parse("1.0"), .number("1.0"))
        XCTAssertEqual(try parse("-0"), .number("-0"))
        XCTAssertEqual(try parse("1E+2"), .number("1E+2"))
    }

    func test_decodesEscapesAndUnicode() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u00e9\u4E2D""#), .string("é中"))
        XCTAssertEqual(try parse(#""\ud83d\ude00 smile""#), .string("😀 smile"))
        XCTAssertEqual(try parse(#""Grüße, 東京 😀""#), .string("Grüße, 東京 😀"))
    }

    func test_skipsAByteOrderMark() throws {
        XCTAssertEqual(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)), .array([]))
    }

    func test_reportsLineColumnAndByteOffsetOfTheError() {
        let text = "{\n  \"version\": 1,\n  \"items\": [}\n}"

        XCTAssertThrowsError(
            try parse(text),
            JSONSyntaxError(reason: "unexpected '}', expected a value", byteOffset: 30, line: 3, column: 13))
        XCTAssertThrowsError(try parse(text)) { error in
            XCTAssertEqual(String(describing: error), "unexpected '}', expected a value at line 3, column 13 (byte 30)")
        }
    }

    func test_countsColumnsInCharactersNotBytes() {
        XCTAssertThrowsError(
            try parse(#"["é", x]"#),
            JSONSyntaxError(reason: "unexpected 'x', expected a value", byteOffset: 7, line: 1, column: 7))
    }

    func test_refusesMalformedDocuments() {
        let cases: [(String, String, Int)] = [
            ("", "the file is empty", 0),
            ("  \n ", "no JSON value", 4),
            (#"{"a": 1"#, "unexpected end of file, expected ',' or '}'", 7),
            (#"{"a" 1}"#, "unexpected '1', expected ':'", 5),
            (#"{a: 1}"#, "unexpected 'a', expected a string key", 1),
            (#"{"a": 1,}"#, "unexpected '}', expected a string key", 8),
            ("[1, 2", "unexpected end of file, expected ',' or ']'", 5),
            ("[1 2]", "unexpected '2', expected ',' or ']'", 3),
            ("[1,]", "unexpected ']', expected a value", 3),
            (#""abc"#, "unterminated string", 0),
            ("tru", "invalid literal, expected 'true'", 0),
            ("nul", "invalid literal, expected 'null'", 0),
            ("01", "leading zero in a number", 0),
            ("1.", "unexpected end of file, expected a digit after '.'", 2),
            ("1e", "unexpected end of file, expected a digit in the exponent", 2),
            ("-", "unexpected end of file, expected a digit", 1),
            ("+1", "unexpected '+', expected a value", 0),
            ("NaN", "unexpected 'N', expected a value", 0),
            ("[] []", "unexpected '[' after the JSON value", 3),
            (#"{"a": 1} x"#, "unexpected 'x' after the JSON value", 9),
            (#""a\x""#, "invalid escape '\\x'", 2),
            (#""\u12G4""#, "invalid \\u escape, expected four hex digits", 1),
            (#""\ud83d""#, "unpaired surrogate in \\u escape", 1),
            (#""\ude00""#, "unpaired surrogate in \\u escape", 1),
            ("\"a\tb\"", "unescaped control character in a string", 2),
            (#"{"a": 1, "a": 2}"#, "duplicate key \"a\"", 9)
        ]
        for (text, reason, offset) in cases {
            XCTAssertThrowsError(try parse(text), "\(text)") { error in
                let error = error as? JSONSyntaxError
                XCTAssertEqual(error?.reason, reason, text)
                XCTAssertEqual(error?.byteOffset, offset, text)
            }
        }
    }

    func test_refusesInvalidUTF8AtTheOffendingByte() {
        let bytes = Array(#"{"title": "ab"#.utf8) + [0xFF] + Array(#""}"#.utf8)

        XCTAssertThrowsError(
            try JSONValue(parsing: bytes),
            JSONSyntaxError(reason: "invalid UTF-8 in a string", byteOffset: 13, line: 1, column: 14))
    }

    func test_refusesATruncatedMultibyteCharacter() {
        let bytes = Array("\"é".utf8).dropLast() + [UInt8(ascii: "\"")]

        XCTAssertThrowsError(try JSONValue(parsing: Array(bytes))) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.reason, "invalid UTF-8 in a string")
        }
    }

    func test_refusesNestingDeeperThan512LevelsWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)

        XCTAssertThrowsError(try parse(deep)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.reason, "nesting deeper than 512 levels")
            XCTAssertEqual((error as? JSONSyntaxError)?.byteOffset, 512)
        }
        XCTAssertNoThrow(try parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
    }

    func test_findsEveryKindOfSpecialByteAtEveryPlaceInAnEightByteWord() throws {
        // The string scanner skips plain ASCII eight bytes at a time; whatever comes at any offset
        // must still be seen: the end, an escape, a control character, a non-ASCII character.
        for offset in 0..<17 {
            let plain = String(repeating: "a", count: offset)
            XCTAssertEqual(try parse("\"\(plain)\""), .string(plain))
            XCTAssertEqual(try parse("\"\(plain)\\n~\""), .string(plain + "\n~"))
            XCTAssertEqual(try parse("\"\(plain)é\u{7F} \""), .string(plain + "é\u{7F} "))
            XCTAssertThrowsError(
                try parse("\"\(plain)\u{1F}\""),
                JSONSyntaxError(
                    reason: "unescaped control character in a string", byteOffset: offset + 1,
                    line: 1, column: offset + 2))
            let bytes = Array("\"\(plain)".utf8) + [0xFF] + Array("\"".utf8)
            XCTAssertThrowsError(
                try JSONValue(parsing: bytes),
                JSONSyntaxError(
                    reason: "invalid UTF-8 in a string", byteOffset: offset + 1, line: 1, column: offset + 2))
        }
    }

    func test_plainASCIICount_stopsExactlyAtTheFirstByteThatNeedsAttention() {
        let plain = Array(" !#0AZaz~[]{}".utf8)
        for special: UInt8 in [0x22, 0x5C, 0x7F, 0x00, 0x0A, 0x1F, 0x80, 0xC3, 0xFF] {
            for offset in 0..<24 {
                // Plain bytes before, then the special one, then more of both, which must not matter.
                var bytes = (0..<offset).map { plain[$0 % plain.count] }
                bytes += [special, 0x22, 0x41, special] + plain
                let count = bytes.withUnsafeBufferPointer { plainASCIICount($0.baseAddress!, $0.count) }
                XCTAssertEqual(count, offset, "byte \(special) after \(offset) plain bytes")
            }
        }
        let allPlain = Array(repeating: UInt8(ascii: "q"), count: 21)
        XCTAssertEqual(allPlain.withUnsafeBufferPointer { plainASCIICount($0.baseAddress!, $0.count) }, 21)
    }

    func test_readsPlainIntegersAndEveryOtherNumberForm() throws {
        let item = #"{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","number":NUMBER,"title":"A"}"#
        func number(_ literal: String) throws -> Int {
            try ToDoItem.decoded(
                from: JSONValue(parsing: Array(item.replacingOccurrences(of: "NUMBER", with: literal).utf8)),
                path: ""
            ).number
        }
        XCTAssertEqual(try number("7"), 7)
        XCTAssertEqual(try number("123456789012345"), 123_456_789_012_345)
        XCTAssertEqual(try number("9007199254740991"), ToDoItem.largestNumber)
        XCTAssertEqual(try number("3.0"), 3)
        XCTAssertEqual(try number("3e2"), 300)
        XCTAssertThrowsError(try number("9007199254740992"))
        XCTAssertThrowsError(try number("12345678901234567890"))
        XCTAssertThrowsError(try number("0"))
        XCTAssertThrowsError(try parse("[01]"))
        XCTAssertEqual(try parse("[0,-0,10,1.5]"), .array([.number("0"), .number("-0"), .number("10"), .number("1.5")]))
    }

    private func parse(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    /// Skipping a string checks it exactly as reading it does, and ends where reading it ends.
    func test_skippingAString_acceptsExactlyWhatReadingItAccepts() {
        var random = SeededGenerator(seed: 0x5C1B)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), [0xC3], [0xBC], [0xFF], [0x01], [0x7F], Array(#"\""#.utf8),
            Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\u00fc"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud83d"#.utf8), Array(#"\ude00"#.utf8), Array(#"\x"#.utf8), Array(#"\u12"#.utf8),
            Array("\\".utf8), Array("\"".utf8), Array("12345678".utf8)
        ]
        var accepted = 0
        for _ in 0..<20_000 {
            var text: [UInt8] = [UInt8(ascii: "\"")]
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += pieces.randomElement(using: &random)! }
            if Int.random(in: 0..<4, using: &random) > 0 { text.append(UInt8(ascii: "\"")) }
            text += Array(" x".utf8)
            text.withUnsafeBufferPointer { bytes in
                var reader = JSONScanner(bytes: bytes), skipper = JSONScanner(bytes: bytes)
                let read = (try? reader.scanStringToken()) != nil
                let skipped = (try? skipper.skipString()) != nil
                XCTAssertEqual(skipped, read, String(decoding: text, as: UTF8.self))
                if read, skipped {
                    accepted += 1
                    XCTAssertEqual(skipper.index, reader.index, String(decoding: text, as: UTF8.self))
                }
            }
        }
        XCTAssertGreaterThan(accepted, 2_000)
    }
}
