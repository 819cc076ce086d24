import Foundation
import XCTest

@testable import ToDoModel

/// `Whitespace` agrees with Foundation's character sets on every Unicode scalar, and trims as
/// `trimmingCharacters` does.
final class WhitespaceTests: XCTestCase {
    func test_everyScalar_isWhiteSpaceExactlyWhenFoundationSaysSo() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(
                Whitespace.isSpace(scalar), CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
            XCTAssertEqual(
                Whitespace.isSpaceOrNewline(scalar), CharacterSet.whitespacesAndNewlines.contains(scalar),
                "U+\(String(value, radix: 16))")
        }
    }

    func test_trimmingSpaces_trimsAsFoundationDoes() {
        for text in [
            "", " ", "\t \u{3000}", " a ", "a", "\u{A0}Call Mom\t", " \u{301}e ", "a\nb", "\n a \n", " x y  ",
            "\u{2028}z\u{2029}", "\u{200B} zero width \u{200B}"
        ] {
            XCTAssertEqual(
                Whitespace.trimmingSpaces(text), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
            XCTAssertEqual(
                Whitespace.trimmingSpaces(text[...]), text.trimmingCharacters(in: .whitespaces), text.debugDescription)
        }
    }
}
