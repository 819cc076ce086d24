import Foundation
import TestSupport
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCore

/// The book's store tests (4th edition, chapter 6: what is added or checked is there for the next
/// store), then the transaction, file-format and safety rules of the store.
final class JSONFileStoreTests: StoreFolderTestCase {

    // MARK: The book's tests

    /// An item the list hands out is a plain value: changing it changes nothing in the list, and a
    /// list written and read back hands out an equal one.
    func test_anItemHandedOut_isAValue() throws {
        let store = makeStore()
        let added = try store.update { manager in
            try manager.add(ToDoItem(title: "Plain", location: Location(name: "Home")))
        }
        var handedOut = try store.load().item(at: 0)
        XCTAssertEqual(handedOut, added)
        handedOut.title = "Changed"
        XCTAssertEqual(try store.load().item(at: 0).title, "Plain")
    }

    func test_add_isLoadedByANewStore() throws {
        try makeStore().update {
            try $0.add(ToDoItem(title: "Dummy", itemDescription: "Dummy Description", timestamp: 42))
        }

        let loaded = try makeStore().load()

        XCTAssertEqual(loaded.toDoCount, 1)
        XCTAssertEqual(loaded.item(at: 0).title, "Dummy")
        XCTAssertEqual(loaded.item(at: 0).itemDescription, "Dummy Description")
        XCTAssertEqual(loaded.item(at: 0).timestamp, 42)
    }

    func test_check_isLoadedByANewStore() throws {
        let store = makeStore()
        let item = try store.update { try $0.add(ToDoItem(title: "Dummy")) }
        try store.update { try $0.checkItem(withID: item.id) }

        let loaded = try makeStore().load()

        XCTAssertEqual(loaded.toDoCount, 0)
        XCTAssertEqual(loaded.doneCount, 1)
        XCTAssertEqual(loaded.doneItem(at: 0).id, item.id)
        XCTAssertTrue(loaded.doneItem(at: 0).done)
    }

    func test_everyField_survivesARoundTrip() throws {
        let clock = StepClock(start: 1_700_000_000)
        let store = makeStore(now: clock.next)
        let original = ToDoItem(
            title: "Call Mom", itemDescription: "About Sunday\nand the trip", timestamp: 1_641_772_800,
            location: Location(
                name: "Home", address: "Main St 1",
                coordinate: Coordinate(latitude: 52.520008, longitude: 13.404954)))
        try store.update { manager in
            try manager.add(original)
            try manager.add(ToDoItem(title: "Buy milk"))
            try manager.checkItem(withID: original.id)
        }

        let loaded = try makeStore().load()

        XCTAssertEqual(loaded.allItems, try store.load().allItems)
        XCTAssertEqual(loaded.doneItem(at: 0).location?.address, "Main St 1")
        XCTAssertEqual(
            loaded.doneItem(at: 0).location?.coordinate, Coordinate(latitude: 52.520008, longitude: 13.404954))
        XCTAssertEqual(loaded.doneItem(at: 0).createdAt, 1_700_000_000)
        XCTAssertEqual(loaded.doneItem(at: 0).completedAt, 1_700_000_002)
        XCTAssertEqual(loaded.nextNumber, 3)
    }

    // MARK: The file

    func test_file_isVersionedJSONWithOneItemPerLineInAStableKeyOrder() throws {
        let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!
        let store = makeStore(now: StepClock(start: 1_700_000_000).next)
        try store.update { manager in
            try manager.add(
                ToDoItem(
                    title: "Call Mom", timestamp: 1_641_772_800,
                    location: Location(name: "Home", coordinate: Coordinate(latitude: 52.5, longitude: 13.4)),
                    id: id))
        }

        XCTAssertEqual(
            try String(contentsOf: fileURL, encoding: .utf8),
            """
            {
              "version": 2,
              "nextNumber": 2,
              "revision": 1,
              "items": [
                {"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","number":1,"title":"Call Mom","timestamp":1641772800,"location":{"name":"Home","coordinate":{"latitude":52.5,"longitude":13.4}},"done":false,"createdAt":1700000000,"modifiedAt":1700000000}
              ]
            }

            """)
    }

    func test_load_withoutAFile_isEmptyAndCreatesNothing() throws {
        let store = JSONFileStore(fileURL: directory.file("missing/dir/items.json"))

        let manager = try store.load()

        XCTAssertEqual(manager.toDoCount + manager.doneCount, 0)
        XCTAssertEqual(try directory.contents(), [])
    }

    func test_update_createsMissingDirectoriesWith0700AndTheFileWith0600() throws {
        let nested = directory.file("a/b/items.json")

        try JSONFileStore(fileURL: nested).update { try $0.add(ToDoItem(title: "A")) }

        XCTAssertEqual(try permissions(directory.file("a")), 0o700)
        XCTAssertEqual(try permissions(directory.file("a/b")), 0o700)
        XCTAssertEqual(try permissions(nested), 0o600)
        XCTAssertEqual(try permissions(directory.file("a/b/items.json.lock")), 0o600)
    }

    func test_update_makesAnExistingFileAndLockFilePrivateAgain() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        XCTAssertEqual(chmod(fileURL.path, 0o644), 0)
        XCTAssertEqual(chmod(fileURL.path + ".lock", 0o666), 0)

        try makeStore().update { try $0.add(ToDoItem(title: "B")) }

        XCTAssertEqual(try permissions(fileURL), 0o600)
        XCTAssertEqual(try permissions(URL(fileURLWithPath: fileURL.path + ".lock")), 0o600)
    }

    /// The writer never writes what the reader refuses: a change that would make the list (or
    /// its sync state) larger than the store reads is refused before anything is replaced, and
    /// every command goes on reading the list as it was.
    func test_aChangeThatWouldMakeAFileTooLargeToRead_isRefused_andNothingChanges() throws {
        let store = JSONFileStore(fileURL: fileURL, sizeLimit: 4_000)
        try store.update { manager in for index in 1...10 { _ = try manager.add(ToDoItem(title: "Item \(index)")) } }
        let before = try Data(contentsOf: fileURL)
        XCTAssertThrows(
            try store.update { manager in _ = try manager.add(ToDoItem(title: String(repeating: "x", count: 5_000))) },
            StoreError.tooLargeToWrite(file: fileURL.path, limit: 4_000))
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        XCTAssertEqual(try store.load().toDoCount, 10)
        XCTAssertEqual(try store.history().entries.count, 1, "the refused change is not in the history")
        XCTAssertFalse(
            try directory.contents().contains { $0.hasPrefix(".items.json.spare.") }, "no temporary file is left")

        // A sync state too large to read back leaves the list as it was too: one transaction.
        let account = SyncState.Account(
            calendar: WebAddress(string: "https://dav.example.com/c/")!, calendarName: nil, user: "a",
            passwordCommand: nil,
            allowsHTTP: false)
        let big = ToDoItem(title: String(repeating: "y", count: 3_000))
        XCTAssertThrows(
            try store.update(withSyncState: { manager, state in
                _ = try manager.add(ToDoItem(title: "Small"))
                state = SyncState(
                    account: account,
                    records: [
                        SyncPlan.Record(id: big.id, href: "/c/big.ics", etag: nil, base: big),
                        SyncPlan.Record(id: UUID(), href: "/c/big2.ics", etag: nil, base: big)
                    ])
            }), StoreError.tooLargeToWrite(file: fileURL.path + ".sync", limit: 4_000))
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        XCTAssertNil(try store.loadSyncState())
    }

    func test_update_refusesToReplaceAReadOnlyFile() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        XCTAssertEqual(chmod(fileURL.path, 0o400), 0)
        let before = try Data(contentsOf: fileURL)

        XCTAssertThrowsError(
            try makeStore().update { try $0.add(ToDoItem(title: "B")) },
            StoreError.fileSystem(path: fileURL.path, operation: "write", code: EACCES))
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        XCTAssertEqual(try makeStore().load().toDoCount, 1, "a read-only list can still be read")
        XCTAssertEqual(try directory.contents(), ["items.json", "items.json.history", "items.json.lock"])
    }

    func test_update_keepsFieldsTheProgramDoesNotKnow() throws {
        try write(
            """
            {"version": 1, "owner": "ada", "nextNumber": 2, "items": [
              {"id": "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "number": 1, "title": "A", "priority": 3,
               "location": {"name": "Home", "floor": 2}}
            ], "sync": {"etag": "x1"}}
            """)

        try makeStore().update { try $0.add(ToDoItem(title: "B")) }

        let text = try String(contentsOf: fileURL, encoding: .utf8)
        let json = try JSONValue(parsing: Array(text.utf8))
        guard case .object(let top) = json, case .array(let items)? = top["items"], case .object(let first) = items[0],
            case .object(let location)? = first["location"]
        else { return XCTFail(text) }
        XCTAssertEqual(top.keys, ["version", "nextNumber", "revision", "items", "owner", "sync"])
        XCTAssertEqual(top["sync"], try JSONValue(parsing: Array(#"{"etag":"x1"}"#.utf8)))
        XCTAssertEqual(first["priority"], .number("3"))
        XCTAssertEqual(location["floor"], .number("2"))
        XCTAssertEqual(items.count, 2)
    }

    func test_bareArray_isReadNumberedInFileOrderAndWrittenBackVersioned() throws {
        try write(
            """
            [{"id": "11111111-1111-4111-8111-111111111111", "title": "First", "done": true},
             {"id": "22222222-2222-4222-8222-222222222222", "title": "Second", "done": false}]
            """)

        let loaded = try makeStore().load()
        XCTAssertEqual(loaded.allItems.map(\.title), ["Second", "First"])
        XCTAssertEqual(loaded.allItems.map(\.number), [2, 1])

        try makeStore().update { try $0.add(ToDoItem(title: "Third")) }

        let reloaded = try makeStore().load()
        XCTAssertEqual(reloaded.allItems.map(\.number), [2, 3, 1])
        XCTAssertTrue(
            try String(contentsOf: fileURL, encoding: .utf8).hasPrefix("{\n  \"version\": 2,\n  \"nextNumber\": 4,"))
    }

    func test_update_whenTheChangeThrows_writesNothingAndRethrows() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        let before = try Data(contentsOf: fileURL)

        XCTAssertThrowsError(
            try makeStore().update { manager in
                try manager.add(ToDoItem(title: "B"))
                try manager.add(ToDoItem(title: "A"))
            }
        ) { error in
            guard case ItemManagerError.duplicateContent? = error as? ItemManagerError else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
    }

    func test_update_withoutAChange_leavesTheFileAsItWas() throws {
        let compact =
            #"{"version":1,"nextNumber":2,"items":[{"id":"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F","number":1,"title":"A","done":true}]}"#
        try write(compact)

        try makeStore().update { manager in _ = try manager.checkItem(withID: manager.doneItem(at: 0).id) }

        XCTAssertEqual(try String(contentsOf: fileURL, encoding: .utf8), compact)
    }

    // MARK: Files that cannot be read are never overwritten

    func test_corruptJSON_isLeftByteForByteUntouched() throws {
        let corrupt = Array(
            "{\n  \"version\": 1,\n  \"items\": [\n    {\"id\": \"9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F\", \"title\": \"A\""
                .utf8)
        try Data(corrupt).write(to: fileURL)

        XCTAssertThrowsError(try makeStore().update { try $0.add(ToDoItem(title: "B")) }) { error in
            XCTAssertEqual(
                error as? StoreError,
                .invalidJSON(
                    file: self.fileURL.path,
                    JSONSyntaxError(
                        reason: "unexpected end of file, expected ',' or '}'", byteOffset: corrupt.count, line: 4,
                        column: 64)))
            XCTAssertEqual(
                String(describing: error),
                "cannot read \(self.fileURL.path): unexpected end of file, expected"
                    + " ',' or '}' at line 4, column 64 (byte \(corrupt.count)); the file was left unchanged")
        }
        XCTAssertThrowsError(try makeStore().load())
        XCTAssertEqual(Array(try Data(contentsOf: fileURL)), corrupt)
        XCTAssertEqual(try directory.contents(), ["items.json", "items.json.lock"])
    }

    func test_unreadableFiles_areLeftUntouchedWithAnErrorNamingTheFileAndTheProblem() throws {
        let path = fileURL.path
        let cases: [([UInt8], StoreError)] = [
            (
                [],
                .invalidJSON(
                    file: path, JSONSyntaxError(reason: "the file is empty", byteOffset: 0, line: 1, column: 1))
            ),
            (
                Array(#"{"items": ["#.utf8) + [0xC3, 0x28],
                .invalidJSON(
                    file: path,
                    JSONSyntaxError(
                        reason: "unexpected byte 0xC3, expected a value", byteOffset: 11, line: 1, column: 12))
            ),
            (
                Array(#"[{"id": "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "title": "x"#.utf8) + [0xFF]
                    + Array(#""}]"#.utf8),
                .invalidJSON(
                    file: path,
                    JSONSyntaxError(reason: "invalid UTF-8 in a string", byteOffset: 59, line: 1, column: 60))
            ),
            (
                Array(#"{"version": 1, "items": [{"id": "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "title": 7}]}"#.utf8),
                .invalidContent(file: path, reason: "items[0].title: expected a string, found a number")
            ),
            (Array(#"{"version": 4, "items": []}"#.utf8), .unsupportedVersion(file: path, version: 4, supported: 3)),
            (
                Array(
                    """
                    {"items": [{"id": "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F", "title": "A"},
                               {"id": "9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f", "title": "B"}]}
                    """.utf8),
                .invalidContent(file: path, reason: "two items have the id 9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")
            ),
            (
                Array(
                    """
                    {"items": [{"id": "11111111-1111-4111-8111-111111111111", "number": 3, "title": "A"},
                               {"id": "22222222-2222-4222-8222-222222222222", "number": 3, "title": "B"}]}
                    """.utf8),
                .invalidContent(file: path, reason: "two items have the number 3")
            )
        ]
        for (bytes, expected) in cases {
            try Data(bytes).write(to: fileURL)

            XCTAssertThrowsError(try makeStore().update { try $0.add(ToDoItem(title: "New")) }, expected)
            XCTAssertThrows(try makeStore().load(), expected)
            XCTAssertEqual(Array(try Data(contentsOf: fileURL)), bytes, "\(expected)")
            XCTAssertTrue(expected.isUnreadableFile)
        }
        XCTAssertEqual(
            StoreError.unsupportedVersion(file: "/l.json", version: 2, supported: 1).description,
            "cannot read /l.json: it has format version 2, written by a newer todo (this one reads version 1);"
                + " the file was left unchanged")
    }

    func test_aDirectoryWhereTheFileShouldBe_isAFileSystemError() throws {
        try FileManager.default.createDirectory(at: fileURL, withIntermediateDirectories: false)

        XCTAssertThrowsError(
            try makeStore().load(), StoreError.fileSystem(path: fileURL.path, operation: "read", code: EISDIR))
        XCTAssertThrowsError(try makeStore().update { try $0.add(ToDoItem(title: "A")) }) { error in
            XCTAssertEqual(String(describing: error), "cannot read \(self.fileURL.path): Is a directory")
            XCTAssertEqual((error as? StoreError)?.isUnreadableFile, false)
        }
    }

    // MARK: Locking and atomic replacement

    func test_update_whileAnotherHolderKeepsTheLock_failsAfterTheTimeoutAndChangesNothing() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        let before = try Data(contentsOf: fileURL)
        let lock = try FileLock(path: fileURL.path + ".lock", timeout: 0)

        XCTAssertThrowsError(
            try JSONFileStore(fileURL: fileURL, lockTimeout: 0.2).update { try $0.add(ToDoItem(title: "B")) },
            StoreError.lockTimeout(lockFile: fileURL.path + ".lock", seconds: 0.2))
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        XCTAssertEqual(try makeStore().load().toDoCount, 1, "readers do not wait for the lock")

        _ = consume lock
        XCTAssertNoThrow(
            try JSONFileStore(fileURL: fileURL, lockTimeout: 0).update { try $0.add(ToDoItem(title: "B")) })
    }

    func test_lockTimeoutMessage_saysWhatHappened() {
        XCTAssertEqual(
            StoreError.lockTimeout(lockFile: "/d/items.json.lock", seconds: 10).description,
            "another todo process is changing the list (it has held /d/items.json.lock for more than 10 seconds);"
                + " nothing was changed, try again")
    }

    func test_update_releasesTheLockEvenWhenTheChangeThrows() throws {
        XCTAssertThrowsError(try makeStore().update { try $0.add(ToDoItem(title: " ")) })

        XCTAssertNoThrow(
            try JSONFileStore(fileURL: fileURL, lockTimeout: 0).update { try $0.add(ToDoItem(title: "A")) })
    }

    func test_update_overAHalfWrittenSpare_writesTheWholeList() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        try Data(String(repeating: "{\"half", count: 1_000).utf8).write(to: spareURL)

        try makeStore().update { try $0.add(ToDoItem(title: "B")) }

        XCTAssertEqual(try makeStore().load().toDoItems.map(\.title), ["A", "B"])
        XCTAssertEqual(try directory.contents(), storeFiles())
    }

    #if os(Linux)
    func test_update_swapsTheListWithTheSpareAndReusesTheSparesBlocks() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        let first = try inode(fileURL)
        let listWithA = try Data(contentsOf: fileURL)

        try makeStore().update { try $0.add(ToDoItem(title: "B")) }
        XCTAssertEqual(try inode(spareURL), first, "the previous list became the spare")
        XCTAssertEqual(try Data(contentsOf: spareURL), listWithA)
        let second = try inode(fileURL)

        try makeStore().update { try $0.add(ToDoItem(title: "C")) }
        XCTAssertEqual(try inode(fileURL), first, "the spare was written and swapped in")
        XCTAssertEqual(try inode(spareURL), second)
        XCTAssertEqual(try makeStore().load().toDoItems.map(\.title), ["A", "B", "C"])
        XCTAssertEqual(try permissions(spareURL), 0o600)
    }

    func test_update_neverOverwritesAPreviousListThatSomeoneIsStillReading() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        let listWithA = try Data(contentsOf: fileURL)
        let reader = try FileHandle(forReadingFrom: fileURL)
        defer { try? reader.close() }

        // The list the reader has open becomes the spare, then the next write needs a spare.
        try makeStore().update { try $0.add(ToDoItem(title: "B")) }
        try makeStore().update { try $0.add(ToDoItem(title: "C")) }

        XCTAssertEqual(try reader.readToEnd(), listWithA)
        XCTAssertEqual(try makeStore().load().toDoItems.map(\.title), ["A", "B", "C"])
    }
    #endif

    func test_update_neverWritesThroughASpareThatIsAnotherFilesName() throws {
        try makeStore().update { try $0.add(ToDoItem(title: "A")) }
        let precious = directory.file("precious.txt"), target = directory.file("target.txt")
        try Data("keep me".utf8).write(to: precious)
        try Data("keep me too".utf8).write(to: target)

        XCTAssertEqual(link(precious.path, spareURL.path), 0)
        try makeStore().update { try $0.add(ToDoItem(title: "B")) }
        try FileManager.default.removeItem(at: spareURL)
        try FileManager.default.createSymbolicLink(atPath: spareURL.path, withDestinationPath: target.path)
        try makeStore().update { try $0.add(ToDoItem(title: "C")) }

        XCTAssertEqual(try String(contentsOf: precious, encoding: .utf8), "keep me")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "keep me too")
        XCTAssertEqual(try makeStore().load().toDoItems.map(\.title), ["A", "B", "C"])
    }

    func test_update_throughASymbolicLink_changesTheTargetAndKeepsTheLink() throws {
        let target = directory.file("real/list.json")
        try JSONFileStore(fileURL: target).update { try $0.add(ToDoItem(title: "A")) }
        try FileManager.default.createSymbolicLink(atPath: fileURL.path, withDestinationPath: target.path)

        try makeStore().update { try $0.add(ToDoItem(title: "B")) }

        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: fileURL.path), target.path)
        XCTAssertEqual(try JSONFileStore(fileURL: target).load().toDoItems.map(\.title), ["A", "B"])
        XCTAssertEqual(try directory.contents(), ["items.json", "real"])
        XCTAssertEqual(try directory.contents(of: "real"), storeFiles("list.json"))
    }

    func test_concurrentWritersWithTheirOwnStores_neverLoseAnItem() throws {
        let writers = 8
        let itemsPerWriter = 25
        let url = fileURL!
        let failures = SharedLog<String>()

        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let store = JSONFileStore(fileURL: url, lockTimeout: 60)
            for index in 0..<itemsPerWriter {
                do {
                    try store.update { manager in
                        let item = try manager.add(ToDoItem(title: "writer \(writer) item \(index)"))
                        if index % 5 == 0 { try manager.checkItem(withID: item.id) }
                    }
                } catch {
                    failures.append("\(error)")
                }
            }
        }

        let loaded = try makeStore().load()
        let titles = Set(loaded.allItems.map(\.title))
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(loaded.allItems.count, writers * itemsPerWriter)
        XCTAssertEqual(titles.count, writers * itemsPerWriter)
        XCTAssertEqual(loaded.allItems.map(\.number).sorted(), Array(1...(writers * itemsPerWriter)))
        XCTAssertEqual(loaded.doneCount, writers * itemsPerWriter / 5)
        XCTAssertEqual(try directory.contents(), storeFiles())
    }

    // MARK: Helpers

    private func makeStore(now: (@Sendable () -> Date)? = nil) -> JSONFileStore {
        JSONFileStore(fileURL: fileURL, lockTimeout: 5, now: now)
    }

    private func write(_ text: String) throws {
        try Data(text.utf8).write(to: fileURL)
    }

    private var spareURL: URL { directory.file(".items.json.spare") }

    private func inode(_ url: URL) throws -> UInt64 {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return UInt64(status.st_ino)
    }

    private func permissions(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }
}
