import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore
@testable import ToDoStorage

/// The sync state beside the list: its file, and its place in the list's transactions.
final class SyncStateTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: JSONFileStore!
    private var statePath: String { directory.file("items.json.sync").path }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        store = JSONFileStore(fileURL: directory.file("items.json"))
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }

    private let account = SyncState.Account(
        calendar: WebAddress(string: "https://dav.example.com/alice/tasks/")!, calendarName: "Tasks", user: "alice",
        passwordCommand: "pass show dav", allowsHTTP: false)

    func test_theStateReadsBackAsWritten_andHoldsNoPassword() throws {
        let base = ToDoItem(title: "Tea", timestamp: 1_900_000_000, priority: 1, tags: ["home"])
        var state = SyncState(
            account: account, syncToken: "http://radicale.org/ns/sync/1", lastSync: 1_795_000_000,
            records: [SyncPlan.Record(id: base.id, href: "/alice/tasks/a.ics", etag: "\"e1\"", base: base)])
        state.askAgain = ["/alice/tasks/unreadable.ics", "/alice/tasks/a%26b.ics"]
        let bytes = state.serialized()
        XCTAssertEqual(try SyncState(bytes: bytes, file: "f"), state)
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("secret"))
        XCTAssertThrows(
            try SyncState(bytes: Array(#"{"version": 3, "account": {}}"#.utf8), file: "f"),
            StoreError.invalidContent(
                file: "f", reason: "format version 3 is from a newer todo (this one reads version 2)"))
    }

    /// The records are read however the file lays them out: a state written by an earlier todo
    /// (its base items as a JSON tree wrote them) reads as it did.
    func test_aStateInAnotherLayout_readsTheSame() throws {
        let text = """
            {"version":1,"account":{"calendar":"https://dav.example.com/alice/tasks/","user":"alice"},"syncToken":"t1","lastSync":1795000000,"records":[
            {"id":"6378E1F5-6D61-8049-B280-00250389F6FD","href":"/alice/tasks/a.ics","etag":"\\"e1\\"","base":{"title":"Tea","id":"6378E1F5-6D61-8049-B280-00250389F6FD","done":false,"number":1,"priority":1}}
            ]}
            """
        let state = try SyncState(bytes: Array(text.utf8), file: "f")
        XCTAssertEqual(
            state.account,
            SyncState.Account(
                calendar: WebAddress(string: "https://dav.example.com/alice/tasks/")!, calendarName: nil,
                user: "alice", passwordCommand: nil, allowsHTTP: false))
        XCTAssertEqual(state.syncToken, "t1")
        XCTAssertFalse(state.inStep)
        XCTAssertNil(state.listDigest)
        XCTAssertEqual(state.records.map(\.etag), ["\"e1\""])
        XCTAssertEqual(state.records.map(\.base.title), ["Tea"])
        XCTAssertEqual(state.records.map(\.base.priority), [1])
        XCTAssertEqual(try SyncState(bytes: state.serialized(), file: "f"), state)
        XCTAssertThrows(
            try SyncState(bytes: Array(#"{"version":1,"account":{"user":"alice"}}"#.utf8), file: "f"),
            StoreError.invalidContent(file: "f", reason: "account: expected the calendar's address and the user"))
    }

    /// The store stamps the state with the digest of the list's file as the transaction left it:
    /// the same while the file is, another once anything changed it.
    func test_theStateRecordsTheListsDigest_whichAnyChangeToTheFileChanges() throws {
        try store.update(withSyncState: { manager, state in
            _ = try manager.add(ToDoItem(title: "Tea"))
            state = SyncState(account: account)
            state?.inStep = true
        })
        let state = try XCTUnwrap(store.loadSyncState())
        XCTAssertTrue(state.inStep)
        XCTAssertNotNil(state.listDigest)
        XCTAssertEqual(try store.listDigest(), state.listDigest)
        try store.update { manager in _ = try manager.add(ToDoItem(title: "Milk")) }
        XCTAssertNotEqual(try store.listDigest(), state.listDigest)

        // Every change of one byte, and every length, gives another digest.
        let bytes = Array(try Data(contentsOf: directory.file("items.json")))
        let digest = bytes.withUnsafeBufferPointer(FileSystem.digest(of:))
        var seen: Set<UInt64> = [digest]
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x20
            XCTAssertTrue(
                seen.insert(changed.withUnsafeBufferPointer(FileSystem.digest(of:))).inserted, "byte \(index)")
        }
        for count in 0..<bytes.count {
            XCTAssertTrue(
                seen.insert(Array(bytes[..<count]).withUnsafeBufferPointer(FileSystem.digest(of:))).inserted,
                "length \(count)")
        }
    }

    /// Written in the list's transaction, after the list, private; `nil` removes it.
    func test_theStateIsWrittenInTheListsTransaction_privately_andForgetRemovesIt() throws {
        try store.update(
            command: ["sync"],
            withSyncState: { manager, state in
                _ = try manager.add(ToDoItem(title: "Tea"))
                state = SyncState(account: account)
            })
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea"])
        XCTAssertEqual(try store.loadSyncState()?.account, account)
        var status = stat()
        XCTAssertEqual(stat(statePath, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertTrue(store.keepsFile(atPath: statePath))
        XCTAssertEqual(try store.history().entries.last?.command, ["sync"])

        // Only the state changes: the list is not written again.
        let before = try Data(contentsOf: directory.file("items.json"))
        try store.update(withSyncState: { _, state in state?.syncToken = "t2" })
        XCTAssertEqual(try store.loadSyncState()?.syncToken, "t2")
        XCTAssertEqual(try Data(contentsOf: directory.file("items.json")), before)

        try store.update(withSyncState: { _, state in state = nil })
        XCTAssertNil(try store.loadSyncState())
        XCTAssertFalse(FileManager.default.fileExists(atPath: statePath))
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea"], "the list stays")
    }

    /// A change that fails writes neither file; a state file todo cannot read, or a link planted
    /// in its place, stops the transaction before anything is written.
    func test_aFailedChange_orAStateFileThatIsNotTodos_writesNothing() throws {
        struct Refused: Error {}
        XCTAssertThrowsError(
            try store.update(withSyncState: { manager, state in
                _ = try manager.add(ToDoItem(title: "Tea"))
                state = SyncState(account: account)
                throw Refused()
            }))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("items.json").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: statePath))

        try Data("not json".utf8).write(to: URL(fileURLWithPath: statePath))
        XCTAssertThrowsError(
            try store.update(withSyncState: { manager, _ in _ = try manager.add(ToDoItem(title: "Tea")) })
        ) {
            guard case .invalidContent(let file, _)? = $0 as? StoreError else { return XCTFail("\($0)") }
            XCTAssertEqual(file, self.statePath)
        }
        XCTAssertEqual(try store.load().toDoItems, [])
        try FileManager.default.removeItem(atPath: statePath)
        try FileManager.default.createSymbolicLink(
            atPath: statePath, withDestinationPath: directory.file("elsewhere").path)
        XCTAssertThrowsError(try store.update(withSyncState: { _, state in state = SyncState(account: account) }))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.file("elsewhere").path), "a planted link is never followed"
        )
    }

    /// A list of the state that is `null` is not an empty one: a state without its records would
    /// send every item again as new. Refused, as anything but an array is.
    func test_aStatesListsThatAreNull_areRefused() throws {
        let start = #"{"version":2,"account":{"calendar":"https://dav.example/cal/","user":"u"}"#
        func refusal(_ text: String) -> String? {
            do {
                _ = try SyncState(bytes: Array(text.utf8), file: "state")
                return nil
            } catch {
                guard case .invalidContent(_, let reason) = error else { return "\(error)" }
                return reason
            }
        }
        XCTAssertNil(refusal(start + #","deletions":null,"records":[]}"#), "an optional record may be null")
        XCTAssertEqual(refusal(start + #","records":null}"#), "records: expected an array, found null")
        XCTAssertEqual(refusal(start + #","askAgain":null,"records":[]}"#), "askAgain: expected an array, found null")
        XCTAssertEqual(refusal(start + #","lists":null,"records":[]}"#), "lists: expected an array, found null")
        XCTAssertEqual(
            refusal(start + #","lists":[{"list":"Work","askAgain":null}],"records":[]}"#),
            "lists[0].askAgain: expected an array, found null")
    }
}
