import Foundation
import TestSupport
import ToDoCore
import XCTest

/// Files `todo` cannot use: each gives its documented error naming the file, and nothing changes.
/// Permission cases run `todo` as an unprivileged user when the tests run as root, since root may
/// read and write anything.
final class CorruptFileTests: XCTestCase {
    var temporary: TemporaryDirectory!
    var todo: BinaryRunner!
    /// The directory the list lives in, owned by whoever runs `todo`.
    var directory: URL { temporary.file("list") }
    var fileURL: URL { directory.appendingPathComponent("items.json") }
    var path: String { fileURL.path }

    static let unprivileged: uid_t = 65534

    override func setUpWithError() throws {
        temporary = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        todo = BinaryRunner(
            environment: [
                "TODO_FILE": fileURL.path, "TZ": "UTC", "HOME": temporary.url.path,
                "TODO_LOCK_TIMEOUT": "1"
            ],
            currentDirectory: temporary.url)
        if getuid() == 0 {
            todo.launchPrefix = [
                "/usr/bin/setpriv", "--reuid=\(Self.unprivileged)", "--regid=\(Self.unprivileged)",
                "--clear-groups"
            ]
            XCTAssertEqual(chmod(temporary.url.path, 0o755), 0)
            XCTAssertEqual(chown(directory.path, Self.unprivileged, Self.unprivileged), 0)
        }
    }

    override func tearDown() {
        chmod(directory.path, 0o700)
        temporary = nil
    }

    /// Writes `bytes` as the data file, owned by the user that runs `todo`.
    private func write(_ bytes: [UInt8], mode: mode_t = 0o600) throws {
        try Data(bytes).write(to: fileURL)
        if getuid() == 0 { XCTAssertEqual(chown(path, Self.unprivileged, Self.unprivileged), 0) }
        XCTAssertEqual(chmod(path, mode), 0)
    }

    private func write(_ text: String, mode: mode_t = 0o600) throws {
        try write(Array(text.utf8), mode: mode)
    }

    /// Runs a reading and a changing command; both must fail with `status` and `message`, and the
    /// file and directory must be as they were.
    private func assertRefused(
        status: Int32, message: String, reading: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try? Data(contentsOf: fileURL)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        var commands = [["add", "New item"], ["check", "1"], ["clear", "--yes"]]
        if reading { commands.append(["list"]) }
        for arguments in commands {
            let outcome = try todo.run(arguments)
            XCTAssertEqual(
                outcome, Outcome(status: status, stdout: "", stderr: "Error: \(message)\n"),
                "\(arguments)", file: file, line: line)
        }
        XCTAssertEqual(try? Data(contentsOf: fileURL), before, "the file changed", file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().filter {
                !$0.hasSuffix(".lock")
            },
            listing.filter { !$0.hasSuffix(".lock") }, "files were left behind", file: file, line: line)
    }

    private var valid: String {
        #"{"version": 1, "nextNumber": 3, "items": [{"id": "11111111-1111-4111-8111-111111111111", "number": 1, "title": "A"}, {"id": "22222222-2222-4222-8222-222222222222", "number": 2, "title": "B"}]}"#
    }

    // MARK: Content: exit 4

    func test_truncatedJSON() throws {
        try write(String(valid.prefix(90)))
        try assertRefused(
            status: 4,
            message: "cannot read \(path): unterminated string at line 1, column 90 (byte 89);"
                + " the file was left unchanged")
    }

    func test_invalidUTF8() throws {
        try write(Array(valid.utf8.prefix(94)) + [0xC0, 0xAF] + Array(valid.utf8.dropFirst(95)))
        try assertRefused(
            status: 4,
            message: "cannot read \(path): invalid UTF-8 in a string at line 1, column 95 (byte 94);"
                + " the file was left unchanged")
    }

    func test_binaryGarbageWithNULBytes() throws {
        try write([0x00, 0x01, 0xFF, 0x7B])
        try assertRefused(
            status: 4,
            message: "cannot read \(path): unexpected byte 0x0, expected a value at line 1, column 1"
                + " (byte 0); the file was left unchanged")
    }

    func test_wrongTypes() throws {
        try write(valid.replacingOccurrences(of: #""title": "B""#, with: #""title": ["B"]"#))
        try assertRefused(
            status: 4,
            message: "cannot read \(path): items[1].title: expected a string, found an array;"
                + " the file was left unchanged")
    }

    func test_duplicateIDs() throws {
        try write(
            valid.replacingOccurrences(
                of: "22222222-2222-4222-8222-222222222222", with: "11111111-1111-4111-8111-111111111111"))
        try assertRefused(
            status: 4,
            message: "cannot read \(path): two items have the id 11111111-1111-4111-8111-111111111111;"
                + " the file was left unchanged")
    }

    func test_duplicateNumbers_areRefusedNotRenumbered() throws {
        try write(valid.replacingOccurrences(of: #""number": 2"#, with: #""number": 1"#))
        try assertRefused(
            status: 4, message: "cannot read \(path): two items have the number 1; the file was left unchanged")
    }

    func test_newerVersion() throws {
        try write(valid.replacingOccurrences(of: #""version": 1"#, with: #""version": 7"#))
        try assertRefused(
            status: 4,
            message: "cannot read \(path): it has format version 7, written by a newer todo"
                + " (this one reads version 3); the file was left unchanged")
    }

    func test_emptyFile() throws {
        try write("")
        try assertRefused(
            status: 4,
            message: "cannot read \(path): the file is empty at line 1, column 1 (byte 0);"
                + " the file was left unchanged")
    }

    func test_notAList() throws {
        try write(#""just a string""#)
        try assertRefused(
            status: 4,
            message: "cannot read \(path): expected an object or an array of items;"
                + " the file was left unchanged")
    }

    // MARK: Content that is repaired, not refused

    func test_nextNumberLowerThanAnExistingNumber_isRaisedSoNoNumberRepeats() throws {
        try write(valid.replacingOccurrences(of: #""nextNumber": 3"#, with: #""nextNumber": 1"#))

        XCTAssertEqual(try todo.run(["add", "C"]), Outcome(status: 0, stdout: "Added 3: C\n", stderr: ""))
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] A\n2 [ ] B\n3 [ ] C\n")
    }

    // MARK: The file system: exit 1

    func test_aDirectoryWhereTheFileShouldBe() throws {
        try FileManager.default.createDirectory(at: fileURL, withIntermediateDirectories: false)
        try assertRefused(status: 1, message: "cannot read \(path): Is a directory")
    }

    func test_aFileWithoutReadPermission() throws {
        try write(valid, mode: 0o000)
        try assertRefused(status: 1, message: "cannot read \(path): Permission denied")
    }

    func test_aFileWithoutWritePermission_canBeReadButNotChanged() throws {
        try write(valid, mode: 0o400)

        XCTAssertEqual(try todo.run(["list"]), Outcome(status: 0, stdout: "1 [ ] A\n2 [ ] B\n", stderr: ""))
        try assertRefused(status: 1, message: "cannot write \(path): Permission denied", reading: false)
    }

    func test_aDirectoryWithoutWritePermission_canBeReadButNotChanged() throws {
        try write(valid)
        XCTAssertEqual(chmod(directory.path, 0o500), 0)

        XCTAssertEqual(try todo.run(["list"]).status, 0)
        try assertRefused(status: 1, message: "cannot lock \(path).lock: Permission denied", reading: false)
    }

    // MARK: Symbolic links

    func test_aSymbolicLink_isFollowedAndStaysALink() throws {
        let target = directory.appendingPathComponent("real.json")
        try Data(valid.utf8).write(to: target)
        if getuid() == 0 { XCTAssertEqual(chown(target.path, Self.unprivileged, Self.unprivileged), 0) }
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "real.json")

        XCTAssertEqual(try todo.run(["add", "C"]).stdout, "Added 3: C\n")

        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path), "real.json")
        XCTAssertEqual(try JSONFileStore(fileURL: target).load().allItems.map(\.title), ["A", "B", "C"])
    }

    func test_aDanglingSymbolicLink_isAnErrorNotANewFile() throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "missing/real.json")
        try assertRefused(status: 1, message: "cannot follow the link \(path): No such file or directory")
    }

    func test_aSymbolicLinkLoop_isAnError() throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "items.json")
        try assertRefused(status: 1, message: "cannot follow the link \(path): Too many levels of symbolic links")
    }
}
