import Foundation
import TestSupport
import ToDoCore
import XCTest

@testable import ToDoCLI

/// Text written by the command, kept for assertions.
final class CapturedOutput: TextOutput {
    var text = ""
    let isTerminal: Bool

    init(isTerminal: Bool = false) {
        self.isTerminal = isTerminal
    }

    func write(_ text: String) { self.text += text }
    func flush() {}
}

/// Standard input with fixed contents.
final class ScriptedInput: TextInput {
    private var bytes: [UInt8]
    let isTerminal: Bool

    init(_ bytes: [UInt8] = [], isTerminal: Bool = false) {
        self.bytes = bytes
        self.isTerminal = isTerminal
    }

    func readAll(limit: Int) -> [UInt8]? {
        defer { bytes = [] }
        return bytes.count > limit ? nil : bytes
    }

    func readLine() -> String? {
        guard !bytes.isEmpty else { return nil }
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
        defer { bytes.removeFirst(min(end + 1, bytes.count)) }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

/// What one run of `todo` did.
struct Outcome: Equatable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs `todo` in-process against a list in a temporary directory, with the clock, time zone and
/// environment pinned. Tests never see the real home directory.
final class Harness {
    private let temporary: TemporaryDirectory
    var directory: URL { temporary.url }
    var environment: [String: String]
    /// Sunday 22 November 2026, 10:30 in New York.
    var now = Date(timeIntervalSince1970: 1_795_361_400)
    /// What HTTP requests reach; none by default.
    var transport: HTTPTransport?
    /// Where new items take their ids; random by default.
    var newID: (@Sendable () -> UUID)?

    init(inMemory: Bool = false) throws {
        temporary = try TemporaryDirectory(inMemory: inMemory)
        environment = [
            "TODO_FILE": temporary.file("items.json").path, "TZ": "America/New_York", "HOME": temporary.url.path
        ]
    }

    var fileURL: URL { URL(fileURLWithPath: environment["TODO_FILE"]!) }

    /// The data file's bytes, or `nil` when there is none.
    var fileContents: Data? { try? Data(contentsOf: fileURL) }

    @discardableResult
    func run(
        _ arguments: String..., input: String = "", inputIsTerminal: Bool = false, outputIsTerminal: Bool = false
    ) -> Outcome {
        run(arguments, input: Array(input.utf8), inputIsTerminal: inputIsTerminal, outputIsTerminal: outputIsTerminal)
    }

    func run(
        _ arguments: [String], input: [UInt8], inputIsTerminal: Bool = false, outputIsTerminal: Bool = false
    ) -> Outcome {
        let output = CapturedOutput(isTerminal: outputIsTerminal)
        let errorOutput = CapturedOutput(isTerminal: outputIsTerminal)
        let now = self.now
        var context = Context(
            environment: environment, currentDirectory: directory.path, homeDirectory: directory.path,
            systemTimeZone: .utc, now: { now },
            input: ScriptedInput(input, isTerminal: inputIsTerminal),
            output: output, errorOutput: errorOutput, transport: transport)
        context.newID = newID
        let status = ToDoCLI.run(arguments, in: context)
        return Outcome(status: status, stdout: output.text, stderr: errorOutput.text)
    }

    /// Runs a command that must succeed, and returns its standard output.
    @discardableResult
    func succeed(
        _ arguments: String..., input: String = "", file: StaticString = #filePath, line: UInt = #line
    ) -> String {
        let outcome = run(arguments, input: Array(input.utf8))
        XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome)", file: file, line: line)
        return outcome.stdout
    }
}

/// Asserts an exact outcome, showing both in full when they differ.
func XCTAssertOutcome(_ actual: Outcome, _ expected: Outcome, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual, expected, "\n\(actual)\n=== expected\n\(expected)", file: file, line: line)
}

/// A test case with a fresh `Harness` for each test.
class HarnessTestCase: XCTestCase {
    var todo: Harness!

    override func setUpWithError() throws {
        todo = try Harness()
    }

    override func tearDown() {
        todo = nil
        super.tearDown()
    }
}
