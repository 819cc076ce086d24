import Foundation
import TestSupport
import XCTest

/// Runs every `console` transcript in README.md with the built binary, in one fresh list, and
/// compares what each command prints (standard output and error together, as a terminal shows
/// them) with what the README says. Only ids and creation times, which differ on every run, are
/// masked. The transcripts run offline: those that need a server are shown in `text` blocks.
final class READMETranscriptTests: XCTestCase {
    struct Step {
        var command: String
        var expected: String
    }

    func test_everyTranscriptInTheREADME_isWhatTodoPrints() throws {
        let steps = try Self.transcriptSteps()
        XCTAssertGreaterThan(steps.count, 20, "the README's transcripts were not found")
        let directory = try TemporaryDirectory()
        let shell = BinaryRunner(environment: ["TODO_FILE": directory.file("items.json").path, "TZ": "America/New_York",
                                               "NO_COLOR": "1", "HOME": directory.url.path],
                                 currentDirectory: directory.url)
        var lastStatus: Int32 = 0
        for step in steps {
            let printed: String
            if step.command == "echo $?" {
                printed = "\(lastStatus)\n"
            } else {
                let outcome = try shell.shell("exec 2>&1; " + step.command)
                lastStatus = outcome.status
                printed = outcome.stdout
            }
            XCTAssertEqual(Self.masked(printed), Self.masked(step.expected), "$ \(step.command)")
        }
    }

    /// The `$ ` lines of every ```console block, each with the lines after it.
    static func transcriptSteps() throws -> [Step] {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        var steps: [Step] = []
        var inTranscript = false
        for line in try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inTranscript = line == "```console"
            } else if inTranscript, line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), expected: ""))
            } else if inTranscript, !steps.isEmpty {
                steps[steps.count - 1].expected += line + "\n"
            }
        }
        return steps
    }

    /// `text` with ids and creation and completion times (and dates) replaced by placeholders.
    static func masked(_ text: String) -> String {
        var text = text
        let patterns = [
            ("[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", "<id>"),
            (#"(Created|Completed|Modified):( +)[0-9/: ]+\n"#, "$1:$2<time>\n"),
            (#""(createdAt|completedAt|modifiedAt)": [0-9.]+"#, "\"$1\": <time>"),
            // When `todo history` says a change was made.
            (#"(?m)^([0-9]+  )[0-9/]+ [0-9:]+(  todo )"#, "$1<time>$2"),
            // iCalendar's time stamps, and the dates that open a todo.txt line.
            (#"(DTSTAMP|CREATED|COMPLETED):[0-9]{8}T[0-9]{6}Z"#, "$1:<time>"),
            (#"(?m)^(x )?([0-9]{4}-[0-9]{2}-[0-9]{2} )+"#, "$1<date> "),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
