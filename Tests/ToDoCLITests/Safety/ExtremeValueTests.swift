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

        XCTAssertEqual(
            try todo.run(["add", title]),
            Outcome(status: 0, stdout: "Added 1: ^Abell^G^[[31mred^?\u{FFFD}\n", stderr: ""))

        XCTAssertEqual(try storedTitle(1), title)
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] ^Abell^G^[[31mred^?\u{FFFD}\n")
        XCTAssertTrue(
            try todo.run(["show", "1", "--json"]).stdout.contains(#""title": "\u0001bell\u0007\u001b[31mred\u007f"#))
        XCTAssertEqual(
            try todo.run(["add", title]).stderr,
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
        XCTAssertEqual(
            try todo.run(["list"]).stdout, titles.enumerated().map { "\($0.offset + 1) [ ] \($0.element)\n" }.joined())
    }

    func test_coordinates_atTheEdgesAreAcceptedAndBeyondRefused() throws {
        for (index, coordinate) in ["90,180", "-90,-180", "0,0", "-0.0000001,179.9999999"].enumerated() {
            XCTAssertEqual(
                try todo.run(["add", "At \(index)", "--location", "Edge", "--coordinate", coordinate]).status, 0,
                coordinate)
        }
        for coordinate in ["90.0000001,0", "0,-180.0000001", "1e400,0", "nan,0", "inf,0", "0x10,0"] {
            let outcome = try todo.run(["add", "Beyond", "--location", "Edge", "--coordinate", coordinate])
            XCTAssertEqual(outcome.status, 64, coordinate)
            XCTAssertTrue(outcome.stderr.hasPrefix("Error: invalid coordinate '\(coordinate)'"), outcome.stderr)
        }
        XCTAssertEqual(try JSONFileStore(fileURL: fileURL).load().toDoCount, 4)
    }

    func test_datesFarInThePastAndFuture() throws {
        XCTAssertEqual(
            try todo.run(["add", "First", "--due", "0001-01-01"]).stdout, "Added 1: First (due Saturday 01/01/0001)\n")
        XCTAssertEqual(
            try todo.run(["add", "Last", "--due", "9999-12-31 23:59"]).stdout,
            "Added 2: Last (due Friday 12/31/9999 23:59)\n")
        XCTAssertEqual(try todo.run(["add", "Far", "--due", "+100000d"]).status, 0)
        for text in ["10000-01-01", "0000-12-31", "+100001d", "99999/1/1", "1582-10-10"] {
            XCTAssertEqual(try todo.run(["add", "Never", "--due", text]).status, 64, text)
        }
        XCTAssertEqual(
            try todo.run(["list"]).stdout.components(separatedBy: "\n").prefix(2),
            ["1 [ ] First  01/01/0001", "2 [ ] Last   12/31/9999 23:59"])
    }

    /// A list file as another program could write it: `count` items due a minute apart, each the
    /// subtask of the one before when `chained`.
    private func writeList(count: Int, chained: Bool, title: (Int) -> String = { "Step \($0)" }) throws {
        var text = #"{"version":1,"nextNumber":\#(count + 1),"items":["#
        for index in 0..<count {
            let id = String(format: "00000000-0000-0000-0000-%012d", index + 1)
            let parent =
                chained && index > 0 ? #","parent":"\#(String(format: "00000000-0000-0000-0000-%012d", index))""# : ""
            text +=
                (index > 0 ? "," : "")
                + #"{"id":"\#(id)","number":\#(index + 1),"title":"\#(title(index))","timestamp":\#(1_800_000_000 + index * 60)\#(parent)}"#
        }
        try Data((text + "]}").utf8).write(to: fileURL)
    }

    /// A chain of subtasks as deep as the list is long (an import or a server can bring one):
    /// every view of the list works, with no recursion to run out of stack, and rows indented
    /// no deeper than a screen can show.
    func test_aHundredThousandDeepChainOfSubtasks_isListedInEveryView() throws {
        try writeList(count: 100_000, chained: true)
        for arguments in [
            ["list"], ["list", "--all"], ["list", "--parent", "1"], ["list", "--sort", "due"], ["agenda"],
            ["list", "--json"]
        ] {
            let outcome = try todo.run(arguments)
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.stderr.prefix(300))")
            XCTAssertLessThan(outcome.stdout.utf8.count, 100_000 * 200, "\(arguments): rows stay short")
        }
        let rows = try todo.run(["list"]).stdout.split(separator: "\n")
        XCTAssertEqual(rows.count, 100_000)
        XCTAssertTrue(
            rows[99_999].hasPrefix("100000 [ ] " + String(repeating: " ", count: 2 * 16) + "Step 99999  "),
            String(rows[99_999]))
        let check = try todo.run(["check", "1"])
        XCTAssertEqual(check.status, 3)
        XCTAssertTrue(
            check.stderr.hasSuffix(
                #"11 "Step 10" and 99989 more; check or remove them first, todo list --parent 1 shows them"# + "\n"),
            String(check.stderr.suffix(300)))
    }

    /// One very long title among dated items pads only its own row: the others line up as if it
    /// were not there.
    func test_oneHugeTitle_padsNoOtherRow() throws {
        let huge = String(repeating: "x", count: 100_000)
        try writeList(count: 1_000, chained: false) { $0 == 500 ? huge : "Item \($0)" }
        let outcome = try todo.run(["list"])
        XCTAssertEqual(outcome.status, 0)
        XCTAssertLessThan(outcome.stdout.utf8.count, 100_000 + 1_000 * 40, "not a thousand rows of 100,000 columns")
        let rows = outcome.stdout.split(separator: "\n")
        XCTAssertTrue(rows[500].contains(huge + "  "), "the long title is shown whole")
        XCTAssertEqual(
            Set(rows.enumerated().filter { $0.offset != 500 }.map { $0.element.utf8.count }).count, 2,
            "the others line up (numbers of 3 and 4 digits aside)")
    }
}
