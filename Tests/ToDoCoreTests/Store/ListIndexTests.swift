import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore
@testable import ToDoStorage

/// A long list's index (`ListIndex`): the items it gives are exactly the ones scanning the list
/// gives; an index made from another file, of another revision, or damaged anywhere is never used.
final class ListIndexTests: StoreFolderTestCase {
    private var indexURL: URL { directory.file("items.json.index") }

    /// Every list keeps a journal and an index, however short.
    private func longListStore() -> JSONFileStore {
        JSONFileStore(
            fileURL: fileURL, lockTimeout: 5, now: { Date(timeIntervalSince1970: 1_800_000_000) }, journalFromBytes: 0)
    }

    /// Items with every kind of field, one checked, then as many changes as the journal takes,
    /// so that the next is written whole, which makes the index, and one more in the journal.
    private func makeList() throws -> JSONFileStore {
        let store = longListStore()
        let parent = ToDoItem(
            title: "Trip", itemDescription: "Ölmühle, 東京 and \"quotes\"\nover two lines",
            due: .day(Day(year: 2026, month: 12, day: 3)!),
            location: Location(
                name: "Home", address: "Main St 1", coordinate: Coordinate(latitude: 52.5, longitude: 13.4)),
            priority: 1, tags: ["travel", "family"], start: .time(1_795_000_000), repeatRule: "FREQ=WEEKLY")
        var subtask = ToDoItem(id: UUID(), title: "Pack", due: .time(1_796_000_000), parent: parent.id)
        subtask.project = "home.travel"
        subtask.list = "Errands"
        subtask.alarms = [Alarm(.beforeDue(900))]
        try store.update { manager in
            _ = try manager.add(parent)
            _ = try manager.add(subtask)
            for index in 0..<20 {
                _ = try manager.add(ToDoItem(title: index.isMultiple(of: 3) ? "Café \(index)" : "item \(index)"))
            }
        }
        try store.update { manager in _ = try manager.checkItem(withID: manager.toDoItems[5].id) }
        for index in 0..<JSONFileStore.journalLineLimit {
            try store.update { _ = try $0.add(ToDoItem(title: "more \(index)")) }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexURL.path), "written whole, with its index")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("items.json.journal").path))
        let index = try Data(contentsOf: indexURL)
        try store.update { _ = try $0.add(ToDoItem(title: "after")) }
        XCTAssertEqual(try Data(contentsOf: indexURL), index, "a change in the journal keeps it")
        return store
    }

    /// The list file read and scanned as without an index, and the file's identity.
    private func scanned() throws -> (text: StoredText, document: StoreDocument, identity: FileIdentity) {
        let (bytes, identity) = try XCTUnwrap(FileSystem.readOwnFile(at: fileURL.path))
        let text = StoredText(owning: bytes)
        return (text, try StoreDocument(text: text, file: fileURL.path), identity)
    }

    private func indexed(
        _ index: [UInt8], _ scan: (text: StoredText, document: StoreDocument, identity: FileIdentity),
        identity: FileIdentity? = nil, revision: Int? = nil
    ) -> (items: StoredItems, arrayEnd: Int, fileDigest: UInt64)? {
        ListIndex.items(
            from: OwnedBytes(copying: index), text: scan.text, identity: identity ?? scan.identity,
            revision: revision ?? scan.document.revision, arrayStart: scan.document.itemsRange!.lowerBound)
    }

    /// `index` changed by `change`, with its digest made right again: only the checks of its
    /// records can refuse it.
    private static func resealed(_ index: [UInt8], _ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = index
        change(&bytes)
        let digest = bytes.withUnsafeBufferPointer { buffer in
            ListIndex.digest(
                header: UnsafeBufferPointer(rebasing: buffer[..<ListIndex.digestOffset]),
                records: UnsafeBufferPointer(rebasing: buffer[ListIndex.headerSize...]))
        }
        withUnsafeBytes(of: digest.littleEndian) {
            bytes.replaceSubrange(ListIndex.digestOffset..<ListIndex.digestOffset + 8, with: $0)
        }
        return bytes
    }

    /// The `TitleKey`s of the open items' ASCII titles, as the index's records keep them.
    private func titleKeys(_ items: StoredItems) -> [Int]? {
        items.open.unchangedRecords.map { records in records.indices.compactMap(records.asciiTitleKey(at:)) }
    }

    /// The items as the list file writes them: the same bytes, from the same places.
    private func written(_ items: StoredItems) -> [UInt8] {
        var bytes: [UInt8] = []
        StoredItem.writeJSONArray([items.open.array, items.done.array]) { bytes.append(contentsOf: $0) }
        return bytes
    }

    func test_theIndex_givesTheItemsScanningGives() throws {
        let store = try makeList()
        let scan = try scanned()
        let fromIndex = try XCTUnwrap(indexed(Array(try Data(contentsOf: indexURL)), scan))
        XCTAssertEqual(fromIndex.arrayEnd, scan.document.itemsRange?.upperBound)
        XCTAssertEqual(fromIndex.items.open.map(\.item), scan.document.items.open.map(\.item))
        XCTAssertEqual(fromIndex.items.done.map(\.item), scan.document.items.done.map(\.item))
        XCTAssertEqual(written(fromIndex.items), written(scan.document.items))
        XCTAssertEqual(
            fromIndex.items.open.map { $0.writtenForm?.start }, scan.document.items.open.map { $0.writtenForm?.start })
        XCTAssertEqual([fromIndex.items.anyStartDate, fromIndex.items.anyParent], [true, true])
        // The titles' keys the index keeps are the ones the open items' titles give.
        XCTAssertEqual(titleKeys(fromIndex.items), scan.document.items.open.compactMap(\.asciiTitleKey))

        // The store reads the same list with it and without it, and refuses the same twins.
        let withIndex = try store.load()
        try FileManager.default.moveItem(at: indexURL, to: directory.file("aside"))
        let withoutIndex = try store.load()
        XCTAssertEqual(withIndex.toDoItems, withoutIndex.toDoItems)
        XCTAssertEqual(withIndex.doneItems, withoutIndex.doneItems)
        XCTAssertEqual(withIndex.nextNumber, withoutIndex.nextNumber)
        try FileManager.default.moveItem(at: directory.file("aside"), to: indexURL)
        XCTAssertThrowsError(try store.update { _ = try $0.add(ToDoItem(title: "item 4")) })
        XCTAssertThrowsError(try store.update { _ = try $0.add(ToDoItem(title: "Café 6")) })
        XCTAssertNoThrow(try store.update { _ = try $0.add(ToDoItem(title: "Café 3")) }, "Café 3 is done")
    }

    /// The items an index backs (`StoredItemArray`) change as an array of them does, through
    /// every kind of change, taken at random: read back, found by number, id or parent, and made
    /// into an array, they are the array's, whether the changes were kept beside the records or
    /// made the array.
    func test_itemsTheIndexBacks_changeAsAnArrayDoes() throws {
        _ = try makeList()
        let scan = try scanned()
        let index = Array(try Data(contentsOf: indexURL))
        var random = SeededGenerator(seed: 34)
        func draw(_ count: Int) -> Int { count == 0 ? 0 : Int.random(in: 0..<count, using: &random) }
        for round in 0..<TestRun.rounds(40) {
            var items = try XCTUnwrap(indexed(index, scan)).items.open
            XCTAssertNotNil(items.unchangedRecords)
            var model = items.array
            let spare = scan.document.items.done.array
            for step in 0..<draw(30) {
                let position = draw(model.count)
                switch draw(7) {
                case 0 where !model.isEmpty:
                    XCTAssertEqual(items.remove(at: position).id, model.remove(at: position).id)
                case 1 where !model.isEmpty:
                    var changed = model[position]
                    changed.number += 1_000
                    items[position] = changed
                    model[position] = changed
                case 2:
                    let item = spare[step % spare.count]
                    items.append(item)
                    model.append(item)
                case 3:
                    let item = spare[(step + 1) % spare.count]
                    items.insert(item, at: position)
                    model.insert(item, at: position)
                case 4 where !model.isEmpty:
                    items.swapAt(position, model.count - 1)
                    model.swapAt(position, model.count - 1)
                case 5 where round.isMultiple(of: 8):
                    items.removeAll { $0.number.isMultiple(of: 3) }
                    model.removeAll { $0.number.isMultiple(of: 3) }
                default:
                    if !model.isEmpty { XCTAssertEqual(items.removeLast().id, model.removeLast().id) }
                }
                XCTAssertEqual(items.count, model.count)
                XCTAssertEqual(items.map(\.id), model.map(\.id), "round \(round), step \(step)")
                XCTAssertEqual(items.map(\.number), model.map(\.number))
                XCTAssertEqual(items.indices.map { items.id(at: $0) }, model.map(\.id))
                let probe = model.isEmpty ? nil : model[draw(model.count)]
                if let probe {
                    XCTAssertEqual(
                        items.firstIndex(ofNumber: probe.number), model.firstIndex { $0.number == probe.number })
                    XCTAssertEqual(items.firstIndex(ofID: probe.id), model.firstIndex { $0.id == probe.id })
                }
                XCTAssertNil(items.firstIndex(ofNumber: 999_999))
                let (ids, parents) = items.idsAndParents()
                XCTAssertEqual(ids, model.map(\.id))
                XCTAssertEqual(parents, model.map(\.parent))
                XCTAssertEqual(
                    items.indices(whereParent: { _ in true }), model.indices.filter { model[$0].parent != nil })
                if let parent = model.lazy.compactMap(\.parent).first {
                    XCTAssertEqual(
                        items.indices(whereParent: { $0 == parent }),
                        model.indices.filter { model[$0].parent == parent })
                }
            }
            XCTAssertEqual(items.array.map(\.item), model.map(\.item))
        }
    }

    /// A list long enough to have its items made from the records in two halves at once
    /// (`StoredItemArray.array`) gives the items in order, with the changes kept beside the
    /// records in either half: taken out, replaced, added after.
    func test_aLongListsItems_madeInTwoHalves_areInOrder() throws {
        let store = try makeList()
        let count = Parallelism.itemsInTwoHalvesMinimumCount + 700
        try store.update { manager in for index in 0..<count { _ = try manager.add(ToDoItem(title: "long \(index)")) } }
        let scan = try scanned()
        let index = Array(try Data(contentsOf: indexURL))
        var items = try XCTUnwrap(indexed(index, scan), "written whole, with its index").items.open
        XCTAssertGreaterThan(items.count, count)
        // Its records are checked in two halves too: an unsound one in either refuses the index.
        let last = ListIndex.headerSize + (items.count - 1) * ListIndex.recordSize
        XCTAssertNotNil(indexed(Self.resealed(index) { _ in }, scan))
        XCTAssertNil(
            indexed(
                Self.resealed(index) {
                    $0[last + ListIndex.Record.number] = 0; $0[last + ListIndex.Record.number + 1] = 0
                }, scan))
        XCTAssertNil(
            indexed(
                Self.resealed(index) {
                    $0[ListIndex.headerSize + 32] = 0xFF; $0[ListIndex.headerSize + 33] = 0xFF
                }, scan))
        var model = scan.document.items.open.array
        XCTAssertEqual(items.array.map(\.item), model.map(\.item))
        for position in [3, count / 2 + 1, count - 5] {
            var changed = model[position]
            changed.number += 10_000
            items[position] = changed
            model[position] = changed
        }
        for position in [count - 100, count / 2 - 2, 7] {
            XCTAssertEqual(items.remove(at: position).id, model.remove(at: position).id)
        }
        items.append(model[0])
        model.append(model[0])
        XCTAssertNil(items.unchangedRecords)
        XCTAssertEqual(items.array.map(\.item), model.map(\.item))
    }

    /// The index the writer makes as it writes a long list whole is, byte for byte, the one a scan
    /// of the file it wrote makes: items copied from the old file and items written anew (changed
    /// in the journal, with every kind of field), open and done.
    func test_theIndexMadeWhileWritingWhole_isTheScansIndex() throws {
        let store = try makeList()
        // The last change went to the journal: write the list whole again, through one more fold.
        try store.update { manager in
            _ = try manager.updateItem(withID: manager.toDoItems[1].id) { $0.title = "Pack, changed" }
        }
        for index in 0..<JSONFileStore.journalLineLimit - 2 {
            try store.update { _ = try $0.add(ToDoItem(title: "fold \(index)")) }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.file("items.json.journal").path))
        try store.update { manager in _ = try manager.checkItem(withID: manager.toDoItems[3].id) }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.file("items.json.journal").path), "written whole")
        let scan = try scanned()
        let fromScan = try XCTUnwrap(
            ListIndex.bytes(
                of: scan.document.items, in: scan.text, itemsRange: try XCTUnwrap(scan.document.itemsRange),
                identity: scan.identity, revision: try XCTUnwrap(scan.document.revision),
                fileDigest: try XCTUnwrap(FileSystem.digest(ofFileAt: fileURL.path))))
        XCTAssertEqual(Array(try Data(contentsOf: indexURL)), fromScan)
        XCTAssertEqual(written(try XCTUnwrap(indexed(fromScan, scan)).items), written(scan.document.items))
    }

    /// Items read through the index are not checked for two with one id again (the index is made
    /// only of a list that was), and their ids and titles are looked through, not put in sets, for
    /// one look-up: the rules hold all the same, on the first look-up and on those after it.
    func test_throughTheIndex_theRulesHoldWithoutSets() throws {
        let store = try makeList()
        let scan = try scanned()
        let fromIndex = try XCTUnwrap(indexed(Array(try Data(contentsOf: indexURL)), scan)).items
        XCTAssertTrue(fromIndex.idsAndNumbersChecked)
        XCTAssertFalse(scan.document.items.idsAndNumbersChecked)
        // The list file's items: 22, then as many as the journal takes; "after" is in the journal.
        XCTAssertEqual(fromIndex.highestNumber, 22 + JSONFileStore.journalLineLimit)
        let existing = try store.load()
        XCTAssertEqual(existing.nextNumber, 22 + JSONFileStore.journalLineLimit + 2)
        let open = try XCTUnwrap(existing.toDoItems.last), done = try XCTUnwrap(existing.doneItems.first)
        try store.update { manager in
            XCTAssertNil(manager.ids, "no set made")
            for _ in 0..<3 {
                XCTAssertThrowsError(
                    try manager.add(ToDoItem(id: done.id, title: "another")),
                    ItemManagerError.duplicateID(existing: done))
                XCTAssertThrowsError(
                    try manager.add(ToDoItem(id: open.id, title: "another")),
                    ItemManagerError.duplicateID(existing: open))
                XCTAssertThrowsError(try manager.add(ToDoItem(title: "item 4")))
                XCTAssertThrowsError(try manager.add(ToDoItem(title: "Café 6")))
            }
            XCTAssertNotNil(manager.ids, "made on the second look-up")
            let added = try manager.add(ToDoItem(title: "new"))
            XCTAssertEqual(added.number, existing.nextNumber)
            XCTAssertThrowsError(try manager.add(ToDoItem(id: added.id, title: "again")))
        }
        XCTAssertEqual(try store.load().nextNumber, existing.nextNumber + 1)
    }

    func test_anIndexOfAnotherFileOrRevision_isNotUsed() throws {
        _ = try makeList()
        let scan = try scanned()
        let index = Array(try Data(contentsOf: indexURL))
        XCTAssertNotNil(indexed(index, scan))
        var status = stat()
        XCTAssertEqual(stat(fileURL.path, &status), 0)
        status.st_mtim.tv_nsec += 1
        XCTAssertNil(indexed(index, scan, identity: FileIdentity(status)), "another modification time")
        status.st_mtim.tv_nsec -= 1
        status.st_size += 1
        XCTAssertNil(indexed(index, scan, identity: FileIdentity(status)), "another size")
        status.st_size -= 1
        status.st_ino += 1
        XCTAssertNil(indexed(index, scan, identity: FileIdentity(status)), "another file")
        XCTAssertNil(indexed(index, scan, revision: (scan.document.revision ?? 0) + 1), "another revision")
        let bytes = OwnedBytes(copying: index)
        XCTAssertNil(
            ListIndex.items(
                from: bytes, text: scan.text, identity: scan.identity, revision: nil,
                arrayStart: scan.document.itemsRange!.lowerBound), "a list without its revision")
        XCTAssertNil(
            ListIndex.items(
                from: bytes, text: scan.text, identity: scan.identity, revision: scan.document.revision,
                arrayStart: scan.document.itemsRange!.lowerBound + 1), "another place for the items")
    }

    /// Any byte changed, or the index cut short anywhere, and it is not used (or, in the
    /// header's unused words, gives the same items).
    func test_aDamagedIndex_isNeverUsed() throws {
        _ = try makeList()
        let scan = try scanned()
        let index = Array(try Data(contentsOf: indexURL))
        let expected = written(scan.document.items)
        for position in TestRun.sample(0, through: index.count - 1) {
            var damaged = index
            damaged[position] ^= 0x04
            if let items = indexed(damaged, scan) {
                XCTAssertTrue(
                    position >= ListIndex.digestOffset + 8 && position < ListIndex.headerSize, "byte \(position)")
                XCTAssertEqual(written(items.items), expected, "byte \(position)")
            }
        }
        for length in stride(from: 0, to: index.count, by: 7) {
            XCTAssertNil(indexed(Array(index[..<length]), scan), "cut at \(length)")
        }
    }

    /// An index whose digest is right but whose places lie outside an item (a bug, or a crafted
    /// file) is refused: reading a field never leaves the item's bytes.
    func test_placesOutsideTheItems_areRefused() throws {
        _ = try makeList()
        let scan = try scanned()
        let index = Array(try Data(contentsOf: indexURL))
        func resealed(_ change: (inout [UInt8]) -> Void) -> [UInt8] { Self.resealed(index, change) }
        XCTAssertNotNil(indexed(resealed { _ in }, scan))
        let first = ListIndex.headerSize
        // The title's offset past the item's last byte.
        XCTAssertNil(
            indexed(
                resealed {
                    $0[first + 32] = 0xFF; $0[first + 33] = 0xFF
                }, scan))
        // The item's length past the items array.
        XCTAssertNil(indexed(resealed { $0[first + 5] = 0x7F }, scan))
        // An open item said to be done.
        XCTAssertNil(indexed(resealed { $0[first + 6] ^= 1 }, scan))
        // A number of 0.
        XCTAssertNil(indexed(resealed { bytes in for offset in 8..<16 { bytes[first + offset] = 0 } }, scan))
        // A subtask's parent said to be there where the item has none.
        XCTAssertNil(indexed(resealed { $0[first + 6] |= 32 }, scan))
    }

    /// Removed before the list is written whole, made by the next change: one left by a crash is
    /// another file's, and not used.
    func test_theIndexFollowsTheList_andAStaleOneIsNotUsed() throws {
        let store = try makeList()
        let oldIndex = try Data(contentsOf: indexURL)
        // A change in the journal keeps the index.
        try store.update { _ = try $0.add(ToDoItem(title: "journaled")) }
        XCTAssertEqual(try Data(contentsOf: indexURL), oldIndex)
        // Written whole: a new index. (An item of 64 KB or more is decoded, not kept where it is in
        // the file: a list with one is written without an index, and scanned.)
        try store.update {
            _ = try $0.add(ToDoItem(title: "long", itemDescription: String(repeating: "words ", count: 12_000)))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: indexURL.path))
        try store.update { manager in _ = try manager.removeItem(withID: manager.toDoItems.last!.id) }
        for index in 0..<JSONFileStore.journalLineLimit - 1 {
            try store.update { _ = try $0.add(ToDoItem(title: "again \(index)")) }
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: indexURL.path),
            "made by nothing since: the list file still has the long item")
        // Written whole again, without it: with an index.
        try store.update { _ = try $0.add(ToDoItem(title: "again, written whole")) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.file("items.json.journal").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexURL.path))
        try store.update { _ = try $0.add(ToDoItem(title: "after again")) }
        XCTAssertNotEqual(try Data(contentsOf: indexURL), oldIndex)
        let expected = try store.load()
        // The old index left beside the new list (a crash after the list was written) is another
        // file's. (Put back by renaming, as todo writes one: a list read keeps reading its index.)
        try oldIndex.write(to: indexURL, options: .atomic)
        XCTAssertNil(indexed(Array(oldIndex), try scanned()))
        let loaded = try store.load()
        XCTAssertEqual(loaded.toDoItems, expected.toDoItems)
        XCTAssertEqual(loaded.doneItems, expected.doneItems)
    }

    /// Mapped from the file (as a command reads it, never copying it), an index of 2,500 records
    /// gives what the index read into memory gives; damage in its last record, nothing.
    func test_theMappedIndex_givesTheSameItems() throws {
        let store = longListStore()
        try store.update { manager in for index in 0..<2_500 { _ = try manager.add(ToDoItem(title: "item \(index)")) } }
        try store.update { _ = try $0.add(ToDoItem(title: "the change that makes the index")) }
        let scan = try scanned()
        let index = Array(try Data(contentsOf: indexURL))
        XCTAssertEqual(index.count, ListIndex.headerSize + 2_500 * ListIndex.recordSize)
        func readMapped() -> (items: StoredItems, arrayEnd: Int, fileDigest: UInt64)? {
            guard let mapped = FileSystem.mapCompanionFile(at: indexURL.path, limit: .max) else { return nil }
            XCTAssertTrue(mapped.isMapped)
            return withExtendedLifetime(mapped) {
                ListIndex.items(
                    from: mapped, text: scan.text, identity: scan.identity,
                    revision: scan.document.revision, arrayStart: scan.document.itemsRange!.lowerBound)
            }
        }
        let mapped = try XCTUnwrap(readMapped())
        XCTAssertEqual(written(mapped.items), written(scan.document.items))
        // Made into an array, the items let go of the index's pages; read again, they are mapped again.
        XCTAssertEqual(written(mapped.items), written(scan.document.items))
        XCTAssertEqual(
            mapped.items.open.indices.map { mapped.items.open.id(at: $0) }, scan.document.items.open.map(\.id))
        XCTAssertEqual(written(mapped.items), written(try XCTUnwrap(indexed(index, scan)).items))
        XCTAssertEqual(titleKeys(mapped.items)?.count, 2_500)
        var damaged = index
        damaged[damaged.count - 30] ^= 1
        try Data(damaged).write(to: indexURL, options: .atomic)
        XCTAssertNil(readMapped())
        XCTAssertEqual(try store.load().toDoCount, 2_501, "read by scanning")
        // Not mapped at all: a link, another kind of file, nothing there.
        try FileManager.default.removeItem(at: indexURL)
        XCTAssertNil(FileSystem.mapCompanionFile(at: indexURL.path, limit: .max))
        try FileManager.default.createSymbolicLink(atPath: indexURL.path, withDestinationPath: fileURL.path)
        XCTAssertNil(FileSystem.mapCompanionFile(at: indexURL.path, limit: .max))
    }

    func test_aShortList_hasNoIndex() throws {
        let store = JSONFileStore(fileURL: fileURL)
        try store.update { _ = try $0.add(ToDoItem(title: "Tea")) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: indexURL.path))
        XCTAssertTrue(longListStore().keepsFile(atPath: fileURL.path))
    }
}
