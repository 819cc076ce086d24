import Foundation
import TestSupport
import XCTest

/// A test of `todo sync` as a user runs it, against a real CalDAV server of `serverKind` started
/// on 127.0.0.1 for each test (user alice, password secret), in Berlin's time.
class SyncServerTestCase: BinaryTestCase {
    var server: DAVServer!
    /// The server each test gets.
    var serverKind: DAVServer.Kind { .radicale }
    override var timeZone: String { "Europe/Berlin" }
    override var extraEnvironment: [String: String] { ["TODO_SYNC_PASSWORD": "secret", "TODO_HTTP_TIMEOUT": "20"] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try DAVServer(serverKind, in: directory.url)
    }

    override func tearDown() {
        server = nil
        super.tearDown()
    }

    /// Runs `script` in Python with the caldav library, as a phone would change the calendar
    /// `calendar` of alice (bound to `calendar`), and returns what it printed.
    func phone(
        _ script: String, calendar name: String = "tasks", file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let calendar = server.url.absoluteString + "alice/\(name)/"
        let outcome = try todo.run(
            program: try DAVServer.python(),
            [
                "-c",
                """
                import caldav
                client = caldav.DAVClient('\(calendar)', username='alice', password='secret')
                calendar = client.calendar(url='\(calendar)')
                """ + "\n" + script
            ])
        XCTAssertEqual(outcome.status, 0, outcome.stderr, file: file, line: line)
        return outcome.stdout
    }

    /// Runs `todo` with `arguments`, on the list in `file` of the test's folder when given, with
    /// `environment` added.
    func run(_ arguments: String..., file: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        var runner = todo!
        if let file { runner.environment["TODO_FILE"] = directory.file(file).path }
        runner.environment.merge(environment) { $1 }
        return try runner.run(arguments)
    }
}
