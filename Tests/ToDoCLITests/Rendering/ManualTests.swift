import Foundation
import ToDoCore
import XCTest

@testable import ToDoCLI

/// `todo help <topic>` and the manual page: made from the same text, the page in the repository
/// is the one the program makes, and it reads cleanly in `man`.
final class ManualTests: HarnessTestCase {
    private static let repositoryPage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("man/todo.1")

    func test_eachTopic_isHelpOnStandardOutput() {
        for topic in HelpTopics.all {
            let outcome = todo.run("help", topic.name)
            XCTAssertEqual(outcome.status, 0, topic.name)
            XCTAssertTrue(outcome.stdout.hasPrefix("\(topic.heading)\n\n  "), topic.name)
            XCTAssertTrue(
                outcome.stdout.split(separator: "\n").allSatisfy {
                    $0.count <= HelpRenderer.lineWidth || !$0.contains(" ")
                },
                "\(topic.name) fits in \(HelpRenderer.lineWidth) columns")
        }
        XCTAssertEqual(todo.run("help", "EXIT-CODES"), todo.run("help", "exit-codes"))
        XCTAssertTrue(todo.run("help", "exit-codes").stdout.contains("  5                 undo or redo refused"))
        XCTAssertOutcome(
            todo.run("help", "datez"),
            Outcome(
                status: 64, stdout: "",
                stderr: """
                    Error: unknown command or topic 'datez'. Did you mean 'dates'?
                    Usage: todo help [<command>] [options]
                      See 'todo help --help' for more information.

                    """))
    }

    func test_datesTopic_followsTheDateOrderSetting() {
        todo.environment["TODO_DATE_ORDER"] = "dmy"
        let text = todo.succeed("help", "dates")
        XCTAssertTrue(text.contains("Accepted forms: dd/MM/yy, dd/MM/yyyy, yyyy-MM-dd"), text)
        XCTAssertTrue(text.contains("  10/01/22                      10 January 2022"), text)
    }

    func test_theManualPageInTheRepository_isTheOneTheProgramMakes() throws {
        let page = todo.succeed("help", "--man")
        XCTAssertEqual(page, ManualRenderer.page())
        let kept = try String(contentsOf: Self.repositoryPage, encoding: .utf8)
        XCTAssertEqual(kept, page, "man/todo.1 is out of date: run 'make man' and commit it")
    }

    func test_theManualPage_namesEveryCommandOptionAndTopic() {
        let page = ManualRenderer.page()
        XCTAssertTrue(page.hasPrefix(".TH TODO 1 \"\" \"todo \(HelpRenderer.version)\" \"User Commands\"\n.SH NAME\n"))
        for command in CommandRegistry.all {
            XCTAssertTrue(
                page.contains("\n.B \(ManualRenderer.escaped(command.usage))\n\(command.summary)\n"), command.name)
            for option in command.options {
                XCTAssertTrue(
                    page.contains("\n.B \(ManualRenderer.escaped(option.synopsis))\n"), "\(command.name) \(option.flag)"
                )
            }
        }
        for topic in HelpTopics.all {
            XCTAssertTrue(page.contains("\n.SH \(topic.heading)\n"), topic.name)
        }
        XCTAssertEqual(ManualRenderer.escaped(#".start \back -dash"#), #"\&.start \eback \-dash"#)
    }

    /// groff is on most systems with `man`; where it is not, there is nothing to check with.
    func test_theManualPage_formatsWithoutWarnings() throws {
        guard
            let groff = ["/usr/bin/groff", "/bin/groff", "/usr/local/bin/groff"].first(
                where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("groff is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: groff)
        process.arguments = ["-man", "-Tutf8", "-ww", "-z", Self.repositoryPage.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(messages, "")
    }
}
