import ToDoCore
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCLI

/// The exit code of an error: a `CommandError` carries its own; the library's errors follow
/// their outcome; any other is a failure. The codes are the README's.
final class ExitCodeTests: XCTestCase {
    func test_eachOutcome_hasItsDocumentedCode() {
        let codes: [(ErrorOutcome, Int32)] = [
            (.invalidRequest, 64), (.notFound, 2), (.refused, 3), (.unreadableList, 4),
            (.undoRefused, 5), (.malformedSource, 65), (.failed, 1)
        ]
        for (outcome, code) in codes { XCTAssertEqual(ExitCode(outcome).rawValue, code, "\(outcome)") }
    }

    func test_theLibrarysErrors_exitAsTheirOutcomeSays() {
        let item = ToDoItem(title: "Call Mom")
        let errors: [(Error, Int32)] = [
            (ItemManagerError.emptyTitle, 64), (ItemManagerError.noSuchList("Work"), 2),
            (ItemManagerError.duplicateContent(existing: item), 3),
            (ItemManagerError.numberOutOfRange(1_000_000_000), 1),
            (UndoError.notEnough(asked: 2, available: 1, redo: false), 5),
            (StoreError.invalidContent(file: "items.json", reason: "no items"), 4),
            (StoreError.lockTimeout(lockFile: "items.json.lock", seconds: 10), 1),
            (SyncError.deletesTooMuch(local: 5, remote: 0, localCount: 6, remoteCount: 6, earlier: 0), 3),
            (SyncError.notSetUp, 1),
            (ImportError(at: "line 1", "not todo.txt"), 65)
        ]
        for (error, code) in errors { XCTAssertEqual(ExitCode(for: error).rawValue, code, "\(error)") }
    }

    func test_aCommandError_carriesItsCode_andAnyOtherErrorIsAFailure() {
        XCTAssertEqual(ExitCode(for: CommandError(message: "unknown option '--x'")), .usage)
        XCTAssertEqual(ExitCode(for: CommandError(.badImportSource, "cannot import x")), .badImportSource)
        XCTAssertEqual(
            ExitCode(for: CommandError.standardInputLine(2, .duplicateContent(existing: ToDoItem(title: "a")))),
            .refused)
        struct SystemLibraryError: Error {}
        XCTAssertEqual(ExitCode(for: SystemLibraryError()), .failure)
    }
}
