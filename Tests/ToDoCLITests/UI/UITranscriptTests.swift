import Foundation
import TestSupport
import XCTest

@testable import ToDoCLI

/// Replays docs/ui.md: its `console` block makes the list (the README's transcript tests run it
/// with the binary too), then each `screen` block's keys are pressed on a screen of 60×15 and
/// the screen must be the block.
final class UITranscriptTests: HarnessTestCase {
    func test_theScreensOfTheDocument_areWhatTheKeysShow() throws {
        let document = try String(
            contentsOf: READMETranscriptTests.root.appendingPathComponent("docs/ui.md"), encoding: .utf8)
        var block: [String]?, kind = "", screens = 0
        let screen = try todo.uiSession(columns: 60, rows: 15)
        for (number, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let lines = block {
                    if kind == "console" {
                        for command in lines where command.hasPrefix("$ todo ") {
                            let words = try XCTUnwrap(ShellWords.split(String(command.dropFirst("$ todo ".count))))
                            XCTAssertEqual(todo.run(words, input: []).status, 0, command)
                        }
                        screen.reload()
                    } else if kind == "screen" {
                        try replay(lines, on: screen, at: number)
                        screens += 1
                    }
                    block = nil
                } else {
                    kind = String(line.dropFirst(3))
                    block = []
                }
            } else {
                block?.append(String(line))
            }
        }
        XCTAssertGreaterThanOrEqual(screens, 6)
    }

    /// The README's screen is the one `j x` shows after docs/ui.md's commands, status line and all.
    func test_theScreenOfTheREADME_isWhatTheKeysShow() throws {
        for words in [
            ["add", "Call Mom", "due:2030-01-10", "+family"], ["add", "Buy milk", "pri:H", "+groceries"],
            ["add", "Fix the fence", "project:home", "--list", "Home"]
        ] {
            XCTAssertEqual(todo.run(words, input: []).status, 0, "\(words)")
        }
        let readme = try String(
            contentsOf: READMETranscriptTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "```text\n todo list "))
        let end = try XCTUnwrap(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let shown = readme[readme.index(start.lowerBound, offsetBy: 8)..<end.lowerBound]
        let screen = try todo.uiSession(columns: 60, rows: 15)
        screen.type(.character("j"), .character("x"))
        XCTAssertEqual(screen.shownRows.joined(separator: "\n"), String(shown))
    }

    private func replay(_ lines: [String], on screen: UISession, at line: Int) throws {
        let keys = try XCTUnwrap(lines.first?.hasPrefix("keys:") == true ? lines.first : nil, "line \(line)")
        for word in try XCTUnwrap(ShellWords.split(String(keys.dropFirst("keys:".count)))) {
            switch word {
            case "Enter": screen.type(.enter)
            case "Escape": screen.type(.escape)
            case "Tab": screen.type(.tab)
            case "Space": screen.type(.character(" "))
            default: screen.type(text: word)
            }
        }
        var shown = screen.shownRows
        while shown.last == "" { shown.removeLast() }
        // The status line is the command's, not the document's.
        if shown.count == 15 { shown.removeLast() }
        while shown.last == "" { shown.removeLast() }
        XCTAssertEqual(
            shown, Array(lines.dropFirst()),
            "docs/ui.md, the screen before line \(line + 1):\n" + shown.joined(separator: "\n"))
    }
}
