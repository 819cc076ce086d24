import Foundation
import TestSupport
import ToDoCore
import XCTest

/// Values at and beyond the edges, through the binary: huge titles, control characters and NUL
/// bytes, right-to-left text and emoji, coordinates at ±90/±180 and beyond, the first and last
/// dates that can be typed.
final class ExtremeValueTests: BinaryTestCase {
    private func storedTitle(_ number: Int) throws -> String? {
        try JSONFileStore(fileURL: fileURL).load().item(withNumber: number)?.title
    }

    func test_aHundredThousandCharacterTitle_isStoredAndShownWhole() throws {
        let title = String(repeating: "long ", count: 20_000) + "end"

        XCTAssertEqual(try todo.run(["add", title]).status, 0)

        XCTAssertEqual(try storedTitle(1), title.trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] \(title)\n")
    }

    func test_controlCharacters_areStoredExactlyButNeverReachTheTerminalRaw() throws {
        let title = "\u{1}bell\u{7}\u{1B}[31mred\u{7F}\u{9B}"

        XCTAssertEqual(try todo.run(["add", title]), Outcome(status: 0, stdout: "Added 1: ^Abell^G^[[31mred^?\u{FFFD}\n", stderr: ""))

        XCTAssertEqual(try storedTitle(1), title)
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] ^Abell^G^[[31mred^?\u{FFFD}\n")
        XCTAssertTrue(try todo.run(["show", "1", "--json"]).stdout.contains(#""title": "\u0001bell\u0007\u001b[31mred\u007f"#))
        XCTAssertEqual(try todo.run(["add", title]).stderr,
                       "Error: an open item with the same content already exists: 1 \"^Abell^G^[[31mred^?\u{FFFD}\"\n")
    }

    func test_NULBytesFromStandardInput_areKeptAndShownSafely() throws {
        XCTAssertEqual(try todo.run(["add", "-"], input: Data([0x61, 0x00, 0x62, 0x0A])).stdout, "Added 1: a^@b\n")

        XCTAssertEqual(try storedTitle(1), "a\u{0}b")
    }

    func test_rightToLeftTextEmojiAndCombiningMarks_roundTripExactly() throws {
        let titles = ["שלום עולם", "مرحبا بالعالم", "🎉 Party 👨‍👩‍👧 🏳️‍🌈", "e\u{301}te\u{301}", "\u{202E}reversed"]
        for title in titles { XCTAssertEqual(try todo.run(["add", title]).status, 0, title) }

        for (index, title) in titles.enumerated() {
            XCTAssertEqual(try storedTitle(index + 1), title)
        }
        XCTAssertEqual(try todo.run(["list"]).stdout, titles.enumerated().map { "\($0.offset + 1) [ ] \($0.element)\n" }.joined())
    }

    func test_coordinates_atTheEdgesAreAcceptedAndBeyondRefused() throws {
        for (index, coordinate) in ["90,180", "-90,-180", "0,0", "-0.0000001,179.9999999"].enumerated() {
            XCTAssertEqual(try todo.run(["add", "At \(index)", "--location", "Edge", "--coordinate", coordinate]).status, 0, coordinate)
        }
        for coordinate in ["90.0000001,0", "0,-180.0000001", "1e400,0", "nan,0", "inf,0", "0x10,0"] {
            let outcome = try todo.run(["add", "Beyond", "--location", "Edge", "--coordinate", coordinate])
            XCTAssertEqual(outcome.status, 64, coordinate)
            XCTAssertTrue(outcome.stderr.hasPrefix("Error: invalid coordinate '\(coordinate)'"), outcome.stderr)
        }
        XCTAssertEqual(try JSONFileStore(fileURL: fileURL).load().toDoCount, 4)
    }

    func test_datesFarInThePastAndFuture() throws {
        XCTAssertEqual(try todo.run(["add", "First", "--due", "0001-01-01"]).stdout, "Added 1: First (due Saturday 01/01/0001)\n")
        XCTAssertEqual(try todo.run(["add", "Last", "--due", "9999-12-31 23:59"]).stdout,
                       "Added 2: Last (due Friday 12/31/9999 23:59)\n")
        XCTAssertEqual(try todo.run(["add", "Far", "--due", "+100000d"]).status, 0)
        for text in ["10000-01-01", "0000-12-31", "+100001d", "99999/1/1", "1582-10-10"] {
            XCTAssertEqual(try todo.run(["add", "Never", "--due", text]).status, 64, text)
        }
        XCTAssertEqual(try todo.run(["list"]).stdout.components(separatedBy: "\n").prefix(2),
                       ["1 [ ] First  01/01/0001", "2 [ ] Last   12/31/9999 23:59"])
    }
}
