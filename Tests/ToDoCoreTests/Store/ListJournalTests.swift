import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore
@testable import ToDoStorage

/// A long list keeps its changes in a journal beside it (`ListJournal`): what a reader sees is
/// the list as if written whole after every change; a crash at any byte of a journal line, or at
/// any step of writing the list whole, leaves the old list or the new one; a damaged journal is
/// refused, never overwritten.
final class ListJournalTests: StoreFolderTestCase {
    private let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }

    /// Every list keeps a journal, however short.
    private func journaledStore(_ name: String = "items.json") -> JSONFileStore {
        JSONFileStore(fileURL: directory.file(name), lockTimeout: 5, now: clock, journalFromBytes: 0)
    }

    private var journalURL: URL { directory.file("items.json.journal") }

    // MARK: What a change writes

    func test_aLongListsChange_isALineOfItsJournal_andTheFileSaysItGoesOn() throws {
        let store = journaledStore()
        let tea = try store.update { try $0.add(ToDoItem(title: "Tea")) }
        // The first change writes the file whole, saying it goes on in a journal.
        let file = try Data(contentsOf: fileURL)
        XCTAssertTrue(
            String(decoding: file, as: UTF8.self).hasPrefix(
                "{\n  \"version\": 3,\n  \"nextNumber\": 2,\n  \"revision\": 1,"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path))

        try store.update(command: ["check", "1"]) { try $0.checkItem(withID: tea.id) }
        XCTAssertEqual(try Data(contentsOf: fileURL), file, "the list file is not written again")
        let line = try String(contentsOf: journalURL, encoding: .utf8)
        // Bound to the very list file it continues, by its digest.
        let digest = String(try XCTUnwrap(FileSystem.digest(ofFileAt: fileURL.path)), radix: 16, uppercase: true)
        let bound = String(repeating: "0", count: 16 - digest.count) + digest
        XCTAssertTrue(
            line.hasPrefix(
                #"{"revision":2,"nextNumber":2,"list":"\#(bound)","steps":[{"remove":"\#(tea.id.uuidString)","done":false,"at":0},{"insert":{"id":"\#(tea.id.uuidString)","number":1,"title":"Tea","done":true,"#
            ), line)
        XCTAssertTrue(line.hasSuffix("\"}\n"))
        XCTAssertEqual(line.filter { $0 == "\n" }.count, 1)

        let loaded = try store.load()
        XCTAssertEqual(loaded.doneItems.map(\.title), ["Tea"])
        XCTAssertEqual(try store.history().entries.map(\.command), [[], ["check", "1"]])
        XCTAssertTrue(store.keepsFile(atPath: journalURL.path))
        // (No spare: there was no list to write it from.)
        XCTAssertEqual(
            try directory.contents(),
            ["items.json", "items.json.history", "items.json.index", "items.json.journal", "items.json.lock"])
    }

    func test_aShortList_isWrittenWholeOnEveryChange() throws {
        let store = JSONFileStore(fileURL: fileURL, now: clock)
        for title in ["Tea", "Milk", "Bread"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        XCTAssertTrue(String(decoding: try Data(contentsOf: fileURL), as: UTF8.self).hasPrefix("{\n  \"version\": 2,"))
        XCTAssertEqual(try directory.contents(), storeFiles())
    }

    /// The same changes, made through the journal and written whole, give the same list, numbers
    /// and history after every one, through folds, undos, refusals and removals.
    func test_changesThroughTheJournal_giveTheListWrittenWhole() throws {
        var random = SeededGenerator(seed: 0x10_0A_4E)
        let journaled = JSONFileStore(
            fileURL: directory.file("journaled.json"), now: clock, newID: SequentialIDs().next, journalFromBytes: 0)
        let whole = JSONFileStore(
            fileURL: directory.file("whole.json"), now: clock, newID: SequentialIDs().next, journalFromBytes: .max)
        var known: [UUID] = []
        var sawJournal = 0, sawFold = 0
        var longItems: Set<UUID> = []
        let rounds = TestRun.rounds(250)
        for round in 0..<rounds {
            let pick = known.isEmpty ? nil : known[Int.random(in: 0..<known.count, using: &random)]
            let kind = Int.random(in: 0..<20, using: &random)
            let title = "item \(Int.random(in: 0..<40, using: &random))"
            let change: (inout ItemManager) throws -> Void
            switch (kind, pick) {
            case (0...6, _), (_, nil):
                let item = ToDoItem(title: title, timestamp: kind == 0 ? 1_800_000_000 : nil)
                known.append(item.id)
                change = { _ = try $0.add(item) }
            case (7...9, let id?): change = { _ = try $0.checkItem(withID: id) }
            case (10...11, let id?): change = { _ = try $0.uncheckItem(withID: id) }
            case (12...13, let id?):
                change = {
                    _ = try $0.updateItem(withID: id) {
                        $0.title = title + " edited"; $0.priority = 2
                    }
                }
            case (14, let id?): change = { _ = try $0.removeItem(withID: id) }
            case (15, _): change = { _ = $0.removeDoneItems() }
            case (16, let id?):
                let subtask = ToDoItem(id: UUID(), title: title + " step", parent: id)
                known.append(subtask.id)
                change = { _ = try $0.add(subtask) }
            case (17, _) where round > rounds * 2 / 5 && !known.contains(where: { longItems.contains($0) }):
                // A change too large for the journal: it writes the list whole.
                let item = ToDoItem(title: "long \(round)", itemDescription: String(repeating: "words ", count: 12_000))
                known.append(item.id)
                longItems.insert(item.id)
                change = { _ = try $0.add(item) }
            default:
                change = { _ in }
            }
            var outcomes: [String] = []
            for store in [journaled, whole] {
                do {
                    if kind >= 18 {
                        _ = try store.undo(.latest(1), command: ["undo"])
                    } else {
                        try store.update(command: ["change", "\(round)"]) { try change(&$0) }
                    }
                    outcomes.append("done")
                } catch {
                    outcomes.append("\(error)")
                }
            }
            XCTAssertEqual(outcomes[0], outcomes[1], "round \(round)")
            let (a, b) = (try journaled.load(), try whole.load())
            XCTAssertEqual(a.toDoItems, b.toDoItems, "round \(round)")
            XCTAssertEqual(a.doneItems, b.doneItems, "round \(round)")
            XCTAssertEqual(a.nextNumber, b.nextNumber, "round \(round)")
            if round.isMultiple(of: 10) {
                XCTAssertEqual(try journaled.history().entries, try whole.history().entries, "round \(round)")
            }
            if FileManager.default.fileExists(atPath: directory.file("journaled.json.journal").path) {
                sawJournal += 1
            } else {
                sawFold += 1
            }
        }
        XCTAssertGreaterThan(sawJournal, rounds * 4 / 5)
        XCTAssertGreaterThan(sawFold, rounds / 80)
        XCTAssertFalse(longItems.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("whole.json.journal").path))
    }

    /// Past its bounds the journal is folded into the list file, which the next change writes
    /// whole; then the journal starts anew.
    func test_theJournal_isFoldedIntoTheListPastItsLineLimit() throws {
        let store = journaledStore()
        for index in 0...JSONFileStore.journalLineLimit {
            try store.update { try $0.add(ToDoItem(title: "item \(index)")) }
        }
        XCTAssertEqual(try lines(of: journalURL).count, JSONFileStore.journalLineLimit)
        try store.update { try $0.add(ToDoItem(title: "folding")) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path))
        XCTAssertTrue(
            String(decoding: try Data(contentsOf: fileURL), as: UTF8.self).contains(
                "\"revision\": \(JSONFileStore.journalLineLimit + 2),"))
        try store.update { try $0.add(ToDoItem(title: "after")) }
        XCTAssertEqual(try lines(of: journalURL).count, 1)
        XCTAssertEqual(try store.load().toDoCount, JSONFileStore.journalLineLimit + 3)
    }

    // MARK: Crashes

    /// A crash at any byte of the journal's line leaves the list as it was, the change's history
    /// line unseen; the next change cuts off what was left and goes on.
    func test_aCrashAtEveryByteOfTheJournalsLine_leavesTheOldListOrTheNew() throws {
        let store = journaledStore()
        let tea = try store.update { try $0.add(ToDoItem(title: "Tea")) }
        try store.update { try $0.add(ToDoItem(title: "Milk")) }
        let before = try files(), listBefore = try store.load()
        try store.update(command: ["check", "1"]) { try $0.checkItem(withID: tea.id) }
        let after = try files(), listAfter = try store.load()
        let (journalBefore, journalAfter) = (
            try XCTUnwrap(before["items.json.journal"]), try XCTUnwrap(after["items.json.journal"])
        )
        XCTAssertTrue(journalAfter.starts(with: journalBefore))

        for length in TestRun.sample(journalBefore.count, through: journalAfter.count) {
            var crashed = after
            crashed["items.json.journal"] = journalAfter.prefix(length)
            try restore(crashed)
            let complete = length == journalAfter.count
            let loaded = try store.load()
            XCTAssertEqual(loaded.allItems, (complete ? listAfter : listBefore).allItems, "length \(length)")
            XCTAssertEqual(try store.history().entries.count, complete ? 3 : 2, "length \(length)")

            try store.update(command: ["add", "Bread"]) { try $0.add(ToDoItem(title: "Bread")) }
            let next = try store.load()
            XCTAssertEqual(next.toDoItems.map(\.title), loaded.toDoItems.map(\.title) + ["Bread"], "length \(length)")
            XCTAssertEqual(next.doneItems, loaded.doneItems, "length \(length)")
            XCTAssertEqual(try store.history().entries.last?.command, ["add", "Bread"])
            XCTAssertEqual(try store.history().entries.count, complete ? 4 : 3, "length \(length)")
            XCTAssertEqual(
                try lines(of: journalURL).count, complete ? 3 : 2, "length \(length): the torn line was cut off")
        }
    }

    /// Writing the list whole: the history's line, the list written beside it, put in place, the
    /// journal removed. A crash after any step leaves the old list or the new one.
    func test_aCrashAtEveryStepOfFolding_leavesTheOldListOrTheNew() throws {
        let store = journaledStore()
        for title in ["Tea", "Milk", "Bread"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        let before = try files(), listBefore = try store.load()
        XCTAssertEqual(try lines(of: journalURL).count, 2)
        // Longer than the journal takes: written whole.
        try store.update {
            try $0.add(ToDoItem(title: "Long", itemDescription: String(repeating: "words ", count: 12_000)))
        }
        let after = try files(), listAfter = try store.load()
        XCTAssertNil(after["items.json.journal"])

        var historyWritten = before
        historyWritten["items.json.history"] = after["items.json.history"]
        var listWrittenBeside = historyWritten
        listWrittenBeside[".items.json.spare"] = after["items.json"]
        var listInPlace = after
        listInPlace["items.json.journal"] = before["items.json.journal"]
        for (step, crashed, expected) in [
            ("history written", historyWritten, listBefore), ("list written beside", listWrittenBeside, listBefore),
            ("list in place", listInPlace, listAfter), ("journal removed", after, listAfter)
        ] {
            try restore(crashed)
            let loaded = try store.load()
            XCTAssertEqual(loaded.allItems, expected.allItems, step)
            XCTAssertEqual(try store.history().entries.count, expected.allItems.count, step)
            try store.update { try $0.add(ToDoItem(title: "Next")) }
            XCTAssertEqual(try store.load().allItems.map(\.title), expected.allItems.map(\.title) + ["Next"], step)
            XCTAssertEqual(try store.history().entries.count, expected.allItems.count + 1, step)
        }
    }

    // MARK: A journal that cannot be trusted

    func test_aDamagedLineBeforeTheLast_isRefused_andNothingIsWritten() throws {
        let store = journaledStore()
        for title in ["Tea", "Milk", "Bread"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        var journal = try Data(contentsOf: journalURL)
        let index = try XCTUnwrap(journal.firstRange(of: Data("Milk".utf8))).lowerBound
        journal[index] = UInt8(ascii: "S")
        try journal.write(to: journalURL)
        try assertRefused(by: store, StoreError.invalidContent(file: journalURL.path, reason: "line 1 is damaged"))
    }

    /// A line another program wrote with its digest right, but not in the journal's form: a list
    /// file's digest of `null` (which would leave the line bound to no list file), or a step of
    /// two kinds, is refused as a line that cannot be read.
    func test_aSealedLineNotInTheJournalsForm_isRefused() throws {
        let store = journaledStore()
        for title in ["Tea", "Milk", "Bread"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        let original = try lines(of: journalURL)
        XCTAssertEqual(original.count, 2)
        let id = try XCTUnwrap(original[1].firstMatch(of: /"insert":\{"id":"([0-9A-F-]{36})"/)).output.1
        for (edit, reason) in [
            (
                { (line: String) in line.replacing(/"list":"[0-9A-F]{16}"/, with: #""list":null"#) },
                "list: expected the list file's digest, 16 hexadecimal digits, found null"
            ),
            (
                { (line: String) in line.replacing(#""done":false"#, with: #""remove":"\#(id)","done":false"#) },
                "steps[0]: a step of more than one kind"
            )
        ] {
            let body = edit(String(original[1][..<original[1].range(of: #","check":""#)!.lowerBound]))
            try Data((original[0] + "\n").utf8 + Self.sealed(body)).write(to: journalURL)
            try assertRefused(
                by: store,
                StoreError.invalidContent(file: journalURL.path, reason: "line 2 cannot be read: shape(\(reason))"))
        }
    }

    func test_aJournalThatDoesNotFollowOnFromTheList_isRefused() throws {
        let store = journaledStore()
        for title in ["Tea", "Milk", "Bread"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        // The first of its two lines gone: the second does not follow on from the list's revision.
        let journal = try lines(of: journalURL)
        try Data((journal[1] + "\n").utf8).write(to: journalURL)
        try assertRefused(
            by: store,
            StoreError.invalidContent(file: journalURL.path, reason: "line 1 is change 3, where change 2 was due"))
    }

    func test_aJournalLineThatDoesNotFitTheList_isRefused() throws {
        let store = journaledStore()
        let tea = try store.update { try $0.add(ToDoItem(title: "Tea")) }
        try store.update { try $0.checkItem(withID: tea.id) }
        // The list file from another list: the journal's steps find no such item (the line
        // bound to it, as a program that knows the form could write it).
        let list = Data(#"{"version": 3, "nextNumber": 2, "revision": 1, "items": []}"#.utf8)
        let journal = try Self.line(try XCTUnwrap(try lines(of: journalURL).first), boundTo: list)
        try restore(["items.json": list, "items.json.journal": journal])
        XCTAssertThrowsError(
            try store.load(),
            StoreError.invalidContent(
                file: journalURL.path, reason: "change 2 does not fit the list: no item \(tea.id.uuidString) at 0"))
    }

    /// A line putting in an item whose id the list file already has (checked once all lines are
    /// taken forward, not step by step): refused.
    func test_aJournalLinePuttingInAnIDTheListHas_isRefused() throws {
        let store = journaledStore()
        let tea = try store.update { try $0.add(ToDoItem(title: "Tea")) }
        let milk = try store.update { try $0.add(ToDoItem(title: "Milk")) }
        let line = try XCTUnwrap(try lines(of: journalURL).last)
        let revision = try XCTUnwrap(Int(try XCTUnwrap(line.firstMatch(of: /"revision":(\d+)/)).1))
        // The list file as it was before Milk, but holding an item with Milk's id.
        let file =
            #"{"version": 3, "nextNumber": 3, "revision": \#(revision - 1), "items": ["#
            + #"{"id":"\#(tea.id.uuidString)","number":1,"title":"Tea","done":false},"#
            + #"{"id":"\#(milk.id.uuidString)","number":2,"title":"Milk too","done":true}]}"#
        try restore(["items.json": Data(file.utf8), "items.json.journal": try Self.line(line, boundTo: Data(file.utf8))]
        )
        XCTAssertThrowsError(
            try store.load(),
            StoreError.invalidContent(
                file: journalURL.path,
                reason: "change \(revision) does not fit the list: two items have the id \(milk.id.uuidString)"))
    }

    /// A line putting in an item whose number another item of the list file has: refused, as the
    /// list's own reader refuses two items of one number (`check 5002` would pick one of them).
    func test_aJournalLinePuttingInANumberTheListHas_isRefused() throws {
        let store = journaledStore()
        let tea = try store.update { try $0.add(ToDoItem(title: "Tea")) }
        try store.update { _ = try $0.add(ToDoItem(title: "Milk")) }
        let line = try XCTUnwrap(try lines(of: journalURL).last)
        // Another program added an item with the next number, as docs/file.md allows.
        let file =
            #"{"version": 3, "nextNumber": 3, "revision": 1, "items": ["#
            + #"{"id":"\#(tea.id.uuidString)","number":1,"title":"Tea","done":false},"#
            + #"{"id":"\#(UUID().uuidString)","number":2,"title":"Bread","done":false}]}"#
        try restore(["items.json": Data(file.utf8), "items.json.journal": try Self.line(line, boundTo: Data(file.utf8))]
        )
        XCTAssertThrowsError(
            try store.load(),
            StoreError.invalidContent(
                file: journalURL.path, reason: "change 2 does not fit the list: two items have the number 2"))
    }

    /// Another program changes the list file the way docs/file.md allows (an item added with the
    /// next number; or only its revision counted up): the journal continues the file as it was,
    /// and is refused, naming both files and what to do, never replayed onto the new one.
    func test_aJournalWhoseListFileAnotherProgramChanged_isRefused_neverReplayed() throws {
        let store = journaledStore()
        for title in ["Tea", "Milk", "Bread"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        let list = try String(contentsOf: fileURL, encoding: .utf8)
        func refusal(from change: Int) -> StoreError {
            .invalidContent(
                file: journalURL.path,
                reason: "its changes from \(change) on continue another version of \(fileURL.path)"
                    + " (changed by another program, or put back from a copy, since they were written), and were not applied to it. To use the list as"
                    + " \(fileURL.path) holds it now, move the journal away (mv \(journalURL.path) \(journalURL.path).old)"
            )
        }
        let added = list.replacingOccurrences(of: #""nextNumber": 2"#, with: #""nextNumber": 3"#)
            .replacingOccurrences(
                of: #""items": ["#,
                with: #""items": [{"id":"\#(UUID().uuidString)","number":2,"title":"Eggs","done":false},"#)
        XCTAssertNotEqual(added, list)
        try Data(added.utf8).write(to: fileURL)
        try assertRefused(by: store, refusal(from: 2))
        // Only its revision counted up, to cover the journal's first line or all of them: refused
        // all the same (before, the lines it covered were skipped, their changes lost in silence).
        for revision in [2, 3, 9] {
            try Data(list.replacingOccurrences(of: #""revision": 1,"#, with: #""revision": \#(revision),"#).utf8).write(
                to: fileURL)
            try assertRefused(by: store, refusal(from: 2))
        }
        // Moved away as said, the list is the file's.
        try FileManager.default.moveItem(at: journalURL, to: directory.file("items.json.journal.old"))
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea"])
    }

    /// A journal lost, or left behind by a copy of the list file: the history knows changes the
    /// list does not. The next change says so and keeps them, numbered after them, never cutting
    /// them from the history.
    func test_aLostJournal_isSaid_andItsChangesStayInTheHistory() throws {
        let notices = NoticeLog()
        let store = JSONFileStore(
            fileURL: fileURL, lockTimeout: 5, now: clock, journalFromBytes: 0, notice: notices.record)
        for title in ["Tea", "Milk", "Bread"] {
            try store.update(command: ["add", title]) { try $0.add(ToDoItem(title: title)) }
        }
        try FileManager.default.removeItem(at: journalURL)
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea"])
        try store.update(command: ["add", "Eggs"]) { try $0.add(ToDoItem(title: "Eggs")) }
        XCTAssertEqual(notices.all, [.changesNotInList(list: fileURL.path, changes: 2...3)])
        XCTAssertEqual(
            try lines(of: directory.file("items.json.history")).compactMap {
                HistoryEntry.number(atStartOf: Array($0.utf8))
            }, [1, 2, 3, 4])
        XCTAssertEqual(
            try store.history().entries.map(\.command),
            [["add", "Tea"], ["add", "Milk"], ["add", "Bread"], ["add", "Eggs"]])
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea", "Eggs"])
        // Said once: the list is at change 4 now, and the next change follows on.
        try store.update(command: ["add", "Jam"]) { try $0.add(ToDoItem(title: "Jam")) }
        XCTAssertEqual(notices.all.count, 1)
        XCTAssertEqual(try store.history().entries.map(\.number), [1, 2, 3, 4, 5])
    }

    /// Two changes that each think they hold the lock (its file removed under the first): the
    /// second's line is never cut off by the first, which starts again instead.
    func test_aJournalLineWrittenMeanwhile_isNeverCutOff() throws {
        let store = journaledStore()
        for title in ["Tea", "Milk"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        let journal = ListJournal(dataPath: fileURL.path)
        let read = try XCTUnwrap(
            try journal.read(
                after: 1, folded: nil, listDigest: { try! FileSystem.digest(ofFileAt: self.fileURL.path)! },
                limit: 1 << 20))
        // Another change adds its line now.
        try store.update { try $0.add(ToDoItem(title: "Bread")) }
        let before = try Data(contentsOf: journalURL)
        XCTAssertThrowsError(
            try journal.append(Array("{}\n".utf8), at: read.end, readSize: read.size),
            StoreError.replacedMeanwhile(file: fileURL.path))
        XCTAssertEqual(try Data(contentsOf: journalURL), before)
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea", "Milk", "Bread"])
    }

    /// A journal planted as a link (or another user's, or writable by others) is never used: the
    /// list is read without it, that is said, and the next change writes the list whole.
    func test_aJournalPlantedAsALink_isNeverRead() throws {
        let notices = NoticeLog()
        let store = JSONFileStore(
            fileURL: fileURL, lockTimeout: 5, now: clock, journalFromBytes: 0, notice: notices.record)
        for title in ["Tea", "Milk"] { try store.update { try $0.add(ToDoItem(title: title)) } }
        let elsewhere = directory.file("elsewhere")
        try FileManager.default.moveItem(at: journalURL, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: journalURL, withDestinationURL: elsewhere)
        let planted = try Data(contentsOf: elsewhere)
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea"])
        XCTAssertEqual(notices.all, [.journalIgnored(journal: journalURL.path, list: fileURL.path)])
        try store.update { try $0.add(ToDoItem(title: "Eggs")) }
        XCTAssertEqual(try Data(contentsOf: elsewhere), planted, "never written through")
        XCTAssertEqual(try store.load().toDoItems.map(\.title), ["Tea", "Eggs"])
        XCTAssertTrue(String(decoding: try Data(contentsOf: fileURL), as: UTF8.self).contains("Eggs"), "written whole")
    }

    // MARK: Sync

    /// A sync knows the list changed without reading it: the digest covers the journal.
    func test_theListsDigest_coversItsJournal() throws {
        let store = journaledStore()
        let account = SyncState.Account(
            calendar: WebAddress(string: "https://dav.example.com/alice/tasks/")!, calendarName: "Tasks",
            user: "alice", passwordCommand: nil, allowsHTTP: false)
        try store.update { try $0.add(ToDoItem(title: "Tea")) }
        try store.update(withSyncState: { manager, state in
            _ = try manager.add(ToDoItem(title: "Milk"))
            state = SyncState(account: account)
        })
        XCTAssertEqual(try lines(of: journalURL).count, 1, "the sync's change is in the journal")
        let recorded = try XCTUnwrap(store.loadSyncState()?.listDigest)
        XCTAssertEqual(try store.listDigest(), recorded)

        try store.update { try $0.add(ToDoItem(title: "Bread")) }
        let changed = try store.listDigest()
        XCTAssertNotEqual(changed, recorded)
        XCTAssertEqual(try store.listDigest(), changed)
        // Only the state changes: the digest it records is the list's as it is.
        try store.update(withSyncState: { _, state in state?.syncToken = "t2" })
        XCTAssertEqual(try store.loadSyncState()?.listDigest, changed)
    }

    // MARK: Helpers

    /// Reading the list and changing it both fail with `expected`, and no file changes.
    private func assertRefused(by store: JSONFileStore, _ expected: StoreError, line: UInt = #line) throws {
        let before = try files()
        XCTAssertThrowsError(try store.load(), expected, line: line)
        XCTAssertThrowsError(try store.update { try $0.add(ToDoItem(title: "Eggs")) }, expected, line: line)
        XCTAssertEqual(try files(), before, line: line)
    }

    /// A journal line bound anew to the list file `list`, its digest made right again: as a
    /// program that knows the journal's form could write it.
    private static func line(_ line: String, boundTo list: Data) throws -> Data {
        let listDigest = list.withUnsafeBytes { FileSystem.digest(of: $0.bindMemory(to: UInt8.self)) }
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        let checkStart = try XCTUnwrap(line.range(of: #","check":""#)).lowerBound
        var body = String(line[..<checkStart])
        let bound = try XCTUnwrap(body.firstMatch(of: /"list":"[0-9A-F]{16}"/))
        body.replaceSubrange(bound.range, with: #""list":"\#(String(hex(listDigest)))""#)
        return sealed(body)
    }

    /// The line of `body` (a line without its digest member and closing brace), its digest right.
    private static func sealed(_ body: String) -> Data {
        let check = Array(body.utf8).withUnsafeBufferPointer(FileSystem.digest(of:))
        let digits = String(check, radix: 16, uppercase: true)
        return Data((body + #","check":"\#(String(repeating: "0", count: 16 - digits.count) + digits)"}"# + "\n").utf8)
    }

    private func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The directory's files but the lock, by name.
    private func files() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try directory.contents() where name != "items.json.lock" {
            files[name] = try Data(contentsOf: directory.file(name))
        }
        return files
    }

    /// Makes the directory hold exactly `files` (and the lock), as a crash left them.
    private func restore(_ files: [String: Data]) throws {
        for name in try directory.contents() where name != "items.json.lock" {
            try FileManager.default.removeItem(at: directory.file(name))
        }
        for (name, data) in files {
            try data.write(to: directory.file(name))
            chmod(directory.file(name).path, 0o600)
        }
    }
}

/// Ids counted up from 1, the same in every store given them.
private final class SequentialIDs: @unchecked Sendable {
    private var count: UInt64 = 0
    private let lock = NSLock()

    var next: @Sendable () -> UUID {
        { [self] in
            lock.lock()
            defer { lock.unlock() }
            count += 1
            let hex = String(count, radix: 16)
            return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
        }
    }
}

/// What a store said (`StoreNotice`), in order.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var notices: [StoreNotice] = []
    var all: [StoreNotice] { lock.withLock { notices } }
    func record(_ notice: StoreNotice) { lock.withLock { notices.append(notice) } }
}
