import Foundation
import TestSupport
import XCTest

/// The list is private whatever the umask: the data file and lock file are 0600 and the
/// directories `todo` creates are 0700.
final class PrivacyTests: XCTestCase {
    func test_filesAreOwnerOnlyWhateverTheUmask() throws {
        for umask in ["000", "002", "022", "077"] {
            let directory = try TemporaryDirectory()
            let shell = BinaryRunner(
                environment: [
                    "XDG_DATA_HOME": directory.file("data").path, "HOME": directory.url.path,
                    "TZ": "UTC"
                ],
                currentDirectory: directory.url)

            XCTAssertEqual(try shell.shell("umask \(umask); todo add A && todo check 1").status, 0, "umask \(umask)")

            XCTAssertEqual(try permissions(directory.file("data")), 0o700, "umask \(umask)")
            XCTAssertEqual(try permissions(directory.file("data/todo")), 0o700, "umask \(umask)")
            XCTAssertEqual(try permissions(directory.file("data/todo/items.json")), 0o600, "umask \(umask)")
            XCTAssertEqual(try permissions(directory.file("data/todo/items.json.lock")), 0o600, "umask \(umask)")
        }
    }

    func test_aFileOthersCouldRead_isMadePrivateByTheNextChange() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("items.json")
        let todo = BinaryRunner(
            environment: ["TODO_FILE": file.path, "HOME": directory.url.path, "TZ": "UTC"],
            currentDirectory: directory.url)
        XCTAssertEqual(try todo.run(["add", "A"]).status, 0)
        XCTAssertEqual(chmod(file.path, 0o644), 0)
        XCTAssertEqual(chmod(file.path + ".lock", 0o666), 0)

        XCTAssertEqual(try todo.run(["add", "B"]).status, 0)

        XCTAssertEqual(try permissions(file), 0o600)
        XCTAssertEqual(try permissions(directory.file("items.json.lock")), 0o600)
    }

    private func permissions(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }
}
